//! `extract` and `pack` between archives and folders: the composition through Yaz0/Yay0 layers
//! and nested archives is the library's ([`gcformats::archive`]: `pack_rarc`, `replace`,
//! `member`), the layout facts the `rarc` crate's manifest; this module only moves bytes between
//! them and folders ([`crate::output`]).

use std::path::Path;

pub use gcformats::archive::{Packed, Unpacked, member, pack_rarc, replace, unpack};
use gcformats::rarc::layer::Layer;
use gcformats::rarc::manifest::MANIFEST;

use crate::Options;
use crate::output::Policy;

/// What `extract` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Extracted {
    /// Files written (members; the manifest not counted).
    pub files: usize,
    /// Compression layers around the archive (`yaz0 nintendo`, …), outermost first.
    pub layers: Vec<String>,
    /// Members written under another name, as `original -> path`.
    pub notices: Vec<String>,
}

/// Writes the members of `data` (an archive, possibly compressed) and the manifest into `dir`,
/// which must be empty or new (the output policy hands over a fresh folder). Non-RARC containers
/// use their format's `extract`. At most [`crate::output::DEFAULT_BUDGET`] bytes are written.
/// The members may expand to [`gcformats::archive::MAX_EXPANSION`] times the archive's size.
pub fn extract_into(data: &[u8], name: &str, dir: &Path) -> Result<Extracted, String> {
    extract_within(data, name, dir, crate::output::DEFAULT_BUDGET, false)
}

/// [`extract_into`] writing at most `budget` bytes: the files' total is checked before the first
/// one is written (a decompression bomb writes nothing). `explicit`: the caller chose the budget
/// (`--budget`), which then replaces the limit relative to the archive's size.
pub fn extract_within(
    data: &[u8],
    name: &str,
    dir: &Path,
    budget: u64,
    explicit: bool,
) -> Result<Extracted, String> {
    let mut spent = crate::Spent { bytes: 0, budget };
    let expansion = (!explicit).then_some(gcformats::archive::MAX_EXPANSION);
    let u = gcformats::archive::unpack(data, name, budget, expansion, |n| spent.charge(n))
        .map_err(|e| format!("{name}: {e}"))?;
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    for d in &u.dirs {
        let p = dir.join(d);
        std::fs::create_dir(&p).map_err(|e| io(&p, e))?;
    }
    let create = |p: &Path, bytes: &[u8]| {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(p)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(|e| io(p, e))
    };
    for (path, bytes) in &u.files {
        create(&dir.join(path), bytes)?;
    }
    if let Some(m) = &u.manifest {
        create(&dir.join(MANIFEST), m.as_bytes())?;
    }
    Ok(Extracted {
        files: u.files.len(),
        layers: u.layers.iter().map(Layer::describe).collect(),
        notices: u
            .renamed
            .iter()
            .map(|(orig, path)| format!("member {orig:?} written as {path}"))
            .collect(),
    })
}

/// Reads `dir` under `policy` and packs it for `out`.
pub fn pack(dir: &Path, out: &Path, opts: &Options, policy: &Policy) -> Result<Packed, String> {
    let folder = policy.read_folder(dir, "")?;
    let root = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "root".to_owned());
    let label = dir.display().to_string();
    // Standard output has no name to ask for a format: it gets the archive.
    if crate::output::is_std(out) {
        return pack_rarc(&label, &root, folder, out, opts);
    }
    gcformats::archive::pack(&label, &root, folder, out, opts)
}
