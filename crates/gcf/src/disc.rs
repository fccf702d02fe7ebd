//! Disc images (GameCube ISO/GCM, Wii ISO/WBFS/RVZ/WIA/CISO/GCZ) as survey sources, read through the
//! `nod` crate: every file of the data partition is streamed to the survey as
//! `disc.iso:files/<path>`, one at a time, so memory stays bounded by the largest file.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::SyncSender;

use nod::common::PartitionKind;
use nod::read::{DiscOptions, DiscReader, PartitionOptions};

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
/// `nod` can panic on malformed images (it slices by header sizes); such a panic is caught and
/// reported as an error for this image, so one bad image cannot end a whole survey.
pub fn produce(
    path: &Path,
    name: &str,
    tx: &SyncSender<(String, std::io::Result<Vec<u8>>)>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        produce_files(path, name, tx, stop)
    }))
    .unwrap_or_else(|_| Err(other("disc image reader failed on malformed data")))
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
    let meta = part.meta().map_err(other)?;
    let fst = meta.fst().map_err(other)?;
    for (_, node, file) in fst.iter() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if !node.is_file() {
            continue;
        }
        let data = part.open_file(node).and_then(|mut r| {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut r, &mut buf).map(|_| buf)
        });
        if tx.send((format!("{name}:files/{file}"), data)).is_err() {
            break;
        }
    }
    Ok(())
}
