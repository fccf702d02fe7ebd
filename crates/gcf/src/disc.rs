//! Disc images (GameCube ISO/GCM, Wii ISO/WBFS/RVZ/WIA/CISO/GCZ) as survey sources, read through the
//! `nod` crate: every file of the data partition is streamed to the survey as
//! `disc.iso:files/<path>`, one at a time, so memory stays bounded by [`MAX_FILE`].
//!
//! A disc is hostile input too: its FST may declare files larger than the disc (a sparse image)
//! or many entries over the same bytes. Files above [`MAX_FILE`] are reported without being read,
//! an entry whose range another entry already covered is surveyed once (under the first name), and
//! a panic inside `nod` on malformed data becomes this image's error without the panic text.

use std::cell::Cell;
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;

use nod::common::PartitionKind;
use nod::read::{DiscOptions, DiscReader, PartitionOptions};

/// Largest file read from a disc image (the largest known game files, movies and sound banks,
/// stay below it).
pub const MAX_FILE: u64 = 512 << 20;

thread_local! {
    /// Set while this thread runs `nod` on an image: its panics are expected and reported as errors.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once) a panic hook that stays silent for panics on a thread inside [`produce`] and
/// defers to the previous hook otherwise.
fn quiet_panics_in_nod() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

fn other(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// True when `path` is a disc image `nod` can open (decided by the file's signature).
pub fn is_disc_image(path: &Path) -> bool {
    std::fs::File::open(path)
        .ok()
        .and_then(|mut f| DiscReader::detect(&mut f).ok().flatten())
        .is_some()
}

/// Sends every file of the disc's data partition to `tx` (stops early when `stop` is set).
///
/// `nod` can panic on malformed images (it slices by header sizes); such a panic is caught, kept
/// off the terminal, and reported as an error for this image, so one bad image cannot end a whole
/// survey.
pub fn produce(
    path: &Path,
    name: &str,
    tx: &SyncSender<(String, std::io::Result<Vec<u8>>)>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    quiet_panics_in_nod();
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        produce_files(path, name, tx, stop)
    }));
    QUIET.with(|q| q.set(false));
    result.unwrap_or_else(|_| Err(other("malformed disc image (the image reader gave up)")))
}

fn produce_files(
    path: &Path,
    name: &str,
    tx: &SyncSender<(String, std::io::Result<Vec<u8>>)>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let disc = DiscReader::new(path, &DiscOptions::default()).map_err(other)?;
    let mut part = disc
        .open_partition_kind(PartitionKind::Data, &PartitionOptions::default())
        .map_err(other)?;
    let is_wii = disc.header().is_wii();
    let meta = part.meta().map_err(other)?;
    let fst = meta.fst().map_err(other)?;
    let mut seen = HashSet::new();
    for (_, node, file) in fst.iter() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if !node.is_file() || !seen.insert((node.offset(is_wii), node.length())) {
            continue;
        }
        let len = u64::from(node.length());
        let data = if len > MAX_FILE {
            Err(other(format!(
                "file of {len} bytes is larger than the survey reads from a disc ({MAX_FILE})"
            )))
        } else {
            part.open_file(node).and_then(|r| {
                let mut buf = Vec::new();
                r.take(len).read_to_end(&mut buf).map(|_| buf)
            })
        };
        if tx.send((format!("{name}:files/{file}"), data)).is_err() {
            break;
        }
    }
    Ok(())
}
