//! Archives composed through compression layers and nesting: [`pack_rarc`] builds a RARC (and the
//! Yaz0/Yay0 layers around it) from a folder held in memory and its `rarc::manifest`, [`replace`]
//! and [`member`] see through Yaz0/Yay0 layers to the archive inside (and through archives nested
//! in archive members) and put every layer back with the encoder the original used. The layout
//! facts live in the `rarc` crate's manifest and layers; this module composes them and reads or
//! writes no file (`gcf` moves the bytes between folders and these functions).

use std::path::Path;

use rarc::layer::{Kind, Layer, encoder_named, payload_with, peel_all, wrap_all};
use rarc::manifest::{self, MANIFEST, MAX_LAYERS};

use crate::{Options, extension};

pub use crate::Folder;

/// A container as a folder in memory: what `gcf extract` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpacked {
    /// Compression layers around the container, outermost first.
    pub layers: Vec<Layer>,
    /// Folders to create, `/`-separated, parents first.
    pub dirs: Vec<String>,
    /// Files as (folder-relative path, bytes).
    pub files: crate::Outputs,
    /// A RARC's manifest (written as [`MANIFEST`] at the folder's top; the layout it packs back
    /// from), `None` for other containers.
    pub manifest: Option<String>,
    /// Members written under another name: (original name escaped, path used).
    pub renamed: Vec<(String, String)>,
}

/// The folder `data` extracts to: a RARC (through its Yaz0/Yay0 layers) as its members and
/// manifest (`rarc::manifest`), another container as its format's [`crate::Format::extract`]
/// files. `name` breaks detection ties; `charge` is told the payload size before anything is
/// unpacked (a caller's decompression budget: its error stops the extraction), and the RARC's
/// members are unpacked under an allocation limit of `budget` (at most 1 GiB) and, with
/// `expansion`, of that many times the archive's size: entries that alias one payload cannot
/// make a small archive write gigabytes ([`MAX_EXPANSION`] is the usual factor).
#[cfg(feature = "convert")]
pub fn unpack(
    data: &[u8],
    name: &str,
    budget: u64,
    expansion: Option<u64>,
    mut charge: impl FnMut(u64) -> Result<(), String>,
) -> Result<Unpacked, String> {
    let (layers, inner) = peel_all(data, MAX_LAYERS).map_err(|e| e.to_string())?;
    charge(inner.len() as u64)?;
    let factor_limit = expansion.map(|f| (inner.len() as u64).saturating_mul(f));
    if !rarc::is_rarc(&inner) {
        let (format, _) =
            crate::detect_format(&inner, name).ok_or_else(|| "unknown format".to_owned())?;
        let files = format.extract(&inner).map_err(|e| e.to_string())?.ok_or_else(|| {
            let what = if layers.is_empty() {
                format.name().to_owned()
            } else {
                format!("a compressed {}", format.name())
            };
            format!(
                "{what} is not an archive (formats with members: rarc, pkx; `gcf convert` decompresses a Yaz0 file)"
            )
        })?;
        return Ok(Unpacked {
            layers,
            dirs: Vec::new(),
            files,
            manifest: None,
            renamed: Vec::new(),
        });
    }
    drop(inner);
    let cap = budget.min(gcio::Limits::default().max_alloc_bytes);
    let limits = gcio::Limits {
        max_alloc_bytes: factor_limit.map_or(cap, |f| f.min(cap)),
        ..gcio::Limits::default()
    };
    let u = manifest::unpack_with(data, &limits).map_err(|e| match e.kind() {
        gcio::ErrorKind::Limit { .. } if factor_limit.is_some_and(|f| f < cap) => format!(
            "{e}: the members expand past {}x the archive's size (entries sharing one payload?); --budget SIZE allows more",
            expansion.unwrap_or_default()
        ),
        gcio::ErrorKind::Limit { .. } => format!(
            "{e}: the members expand past what one extraction may write (the budget, --budget, up to 1 GiB per archive)"
        ),
        _ => e.to_string(),
    })?;
    Ok(Unpacked {
        layers: u.layers,
        dirs: u.dirs,
        files: u.files,
        manifest: Some(u.manifest),
        renamed: u.renamed,
    })
}

/// How many times its own size an archive's members may expand to when extracted, unless the
/// caller sets a budget: real archives stay far below it (members are stored once), entries that
/// alias one payload do not.
pub const MAX_EXPANSION: u64 = 64;

/// What `pack` built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packed {
    /// The output bytes.
    pub bytes: Vec<u8>,
    /// Added files, replaced encoders.
    pub notices: Vec<String>,
}

/// The compression layers for a packed archive (`out` is its name): `--yaz0 ENCODER` (or `none`) wins, then the
/// manifest's (the original's), then the output name (`.szs`, `.yaz0`, `.carc`: Yaz0).
pub fn layers_for(
    out: &Path,
    from_manifest: Vec<Layer>,
    opts: &Options,
) -> Result<Vec<Layer>, String> {
    match opts.get("yaz0").map(String::as_str) {
        Some("none") => return Ok(Vec::new()),
        Some(name) if !name.is_empty() && name != "true" => {
            let enc = encoder_named(name).map_err(|e| e.to_string())?;
            let mut l = from_manifest;
            match l.first_mut() {
                Some(first) if first.kind == Kind::Yaz0 => {
                    first.encoder = Some(enc);
                }
                _ => l.insert(0, Layer::new(Kind::Yaz0, enc)),
            }
            return Ok(l);
        }
        Some(_) if from_manifest.is_empty() => {
            return Ok(vec![Layer::new(Kind::Yaz0, rarc::layer::DEFAULT_ENCODER)]);
        }
        _ => {}
    }
    if from_manifest.is_empty() && is_compressed_name(&out.to_string_lossy()) {
        return Ok(vec![Layer::new(Kind::Yaz0, rarc::layer::DEFAULT_ENCODER)]);
    }
    Ok(from_manifest)
}

pub use crate::format::is_compressed_name;

/// Whether packing `folder` for `out` builds a RARC: the folder was extracted from one (it holds
/// the manifest), or `out` names one (`.arc`, `.rarc`, or a compressed name).
pub fn packs_rarc(folder: &Folder, out: &Path) -> bool {
    folder.files.contains_key(MANIFEST)
        || matches!(extension(out).as_str(), "arc" | "rarc")
        || is_compressed_name(&out.to_string_lossy())
}

/// Packs `folder` for the output named `out`: a RARC when [`packs_rarc`] says so (see
/// [`pack_rarc`] for `label` and `root`), else the container of the first registry format whose
/// [`crate::Format::pack`] takes `out` (a `.pkx`, a `.tpl`).
#[cfg(feature = "convert")]
pub fn pack(
    label: &str,
    root: &str,
    folder: Folder,
    out: &Path,
    opts: &Options,
) -> Result<Packed, String> {
    if packs_rarc(&folder, out) {
        return pack_rarc(label, root, folder, out, opts);
    }
    let packed = crate::registry()
        .iter()
        .map(|f| f.pack(&folder, out, opts))
        .find(|r| !matches!(r, Ok(None)))
        .unwrap_or(Ok(None))
        .map_err(|e| format!("{label}: {e}"))?;
    let bytes = packed.ok_or_else(|| {
        format!(
            "{}: no format packs this kind of file (.arc, .szs, .rarc: RARC; .pkx: PKX; .tpl: TPL)",
            out.display()
        )
    })?;
    Ok(Packed {
        bytes,
        notices: Vec::new(),
    })
}

/// Builds a RARC from a folder read into memory: with its manifest exactly as extracted (plus
/// edits), without one as a new retail-layout archive whose root is named `root` (the folder's
/// name). `label` names the folder in errors; `out` is the output's name (its extension asks for
/// Yaz0); options `yaz0` (encoder or `none`), `lowercase`, `sync-ids`, and `add`: without it, a
/// file or folder the manifest does not list is refused, named (a working file left in the
/// folder is not an archive member).
pub fn pack_rarc(
    label: &str,
    root: &str,
    mut folder: Folder,
    out: &Path,
    opts: &Options,
) -> Result<Packed, String> {
    let flag = |k: &str| opts.get(k).is_some_and(|v| v != "false" && v != "0");
    let e = |e: gcio::Error| format!("{label}: {e}");
    let manifest_text = folder.files.remove(MANIFEST);
    let (archive, from_manifest, notices) = match manifest_text {
        Some(text) => {
            let text =
                String::from_utf8(text).map_err(|_| format!("{label}: {MANIFEST} is not UTF-8"))?;
            let p = manifest::pack(&text, folder.files, &folder.dirs).map_err(e)?;
            if !p.added.is_empty() && !flag("add") {
                return Err(format!(
                    "{label}: not in {MANIFEST}: {} (stray files are not packed; --add packs them as new members)",
                    p.added.join(", ")
                ));
            }
            (p.archive, p.layers, p.notices)
        }
        None => {
            let popts = rarc::PackOptions {
                lowercase: flag("lowercase"),
                sync_ids: flag("sync-ids"),
            };
            let a = manifest::pack_folder(root.as_bytes(), &folder.files, &folder.dirs, popts)
                .map_err(e)?;
            (a.write().map_err(e)?, Vec::new(), Vec::new())
        }
    };
    let layers = layers_for(out, from_manifest, opts)?;
    let mut notices = notices;
    for l in &layers {
        if l.encoder.is_none() && l.original.is_none() {
            notices.push(format!(
                "original {} encoder unknown: compressed with nintendo (same archive inside)",
                l.kind.name()
            ));
        }
    }
    Ok(Packed {
        bytes: wrap_all(&layers, archive),
        notices,
    })
}

/// Replaces member `path` of the archive `data` with the file `new` named `new_name`: `:`
/// separates nesting levels (`stage.arc` member `jmp/inner.arc:dir/file`), compression layers
/// are seen through at every level and put back with their original encoders, and a member
/// stored compressed is compressed again the way it was. Every other byte stays.
///
/// The file must be what the member is ([`member_bytes`]): a table for a table (or its CSV or
/// JSON, converted), a texture for a texture; anything else is refused, named.
pub fn replace(data: &[u8], path: &str, new: Vec<u8>, new_name: &str) -> Result<Vec<u8>, String> {
    replace_at(data, path, new, new_name, 0)
}

fn replace_at(
    data: &[u8],
    path: &str,
    new: Vec<u8>,
    new_name: &str,
    depth: u32,
) -> Result<Vec<u8>, String> {
    if depth > crate::MAX_NESTING {
        return Err("archives nested too deep".to_owned());
    }
    let (layers, inner) = peel_all(data, MAX_LAYERS).map_err(|e| e.to_string())?;
    if !rarc::is_rarc(&inner) {
        return Err(format!(
            "not an archive ({})",
            crate::identify(&inner).map_or(crate::UNKNOWN, |d| d.format)
        ));
    }
    let mut a = rarc::Archive::parse(&inner).map_err(|e| e.to_string())?;
    let (here, rest) = match path.split_once(':') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let entry = a
        .find(here)
        .filter(|&i| a.entries.get(i).is_some_and(|e| !e.is_dir()))
        .ok_or_else(|| format!("no member {here:?}"))?;
    let old = a.file_data(entry).unwrap_or_default().to_vec();
    let stored = match rest {
        Some(r) => {
            replace_at(&old, r, new, new_name, depth + 1).map_err(|e| format!("{here}: {e}"))?
        }
        None => {
            let new = member_bytes(&old, here, new, new_name)?;
            match Layer::peel(&old) {
                // A compressed member gets its new bytes compressed the same way, unless they
                // already are.
                Some(Ok((l, _))) if Kind::of(&new).is_none() => l.wrap(&new),
                _ => new,
            }
        }
    };
    a.replace_data(entry, stored).map_err(|e| e.to_string())?;
    a.file_size = None;
    let bytes = a.write().map_err(|e| e.to_string())?;
    Ok(wrap_all(&layers, bytes))
}

/// What to store for member `member` (its stored bytes `old`) given the file `new` named
/// `new_name`: the file itself when it is of the member's format (compressed or not), the
/// member's format converted from it when it is an export of one (`.csv`, `.json`, `.png`, …:
/// [`crate::convert`], with the `convert` feature), and an error naming both formats otherwise.
/// A member no format recognises takes any file.
pub fn member_bytes(
    old: &[u8],
    member: &str,
    new: Vec<u8>,
    new_name: &str,
) -> Result<Vec<u8>, String> {
    let limits = gcio::Limits::default();
    let decoded = |b: &[u8]| payload_with(b, MAX_LAYERS, &limits).map_err(|e| e.to_string());
    let old_payload = decoded(old)?;
    let Some((want, _)) = crate::detect_format(old_payload.as_deref().unwrap_or(old), member)
    else {
        return Ok(new);
    };
    let new_payload = decoded(&new)?;
    let got = crate::detect_format(new_payload.as_deref().unwrap_or(&new), new_name);
    if got.as_ref().is_some_and(|(f, _)| f.name() == want.name()) {
        return Ok(new);
    }
    #[cfg(feature = "convert")]
    if got.is_none() && crate::EXPORT_EXTENSIONS.contains(&crate::extension_of(new_name).as_str()) {
        let to = match want.extensions().first() {
            Some(ext)
                if !want
                    .extensions()
                    .contains(&crate::extension_of(member).as_str()) =>
            {
                format!("{}.{ext}", crate::file_name(member))
            }
            _ => crate::file_name(member),
        };
        let made = crate::convert(&crate::Conversion {
            input: &new,
            from: new_name,
            to: &to,
            opts: &Options::new(),
            companions: &crate::Companions::new(),
            limits: &limits,
        })
        .map_err(|e| format!("{new_name}: {e}"))?;
        if let Some([(_, bytes)]) = made.as_deref()
            && crate::detect_format(bytes, &to).is_some_and(|(f, _)| f.name() == want.name())
        {
            return Ok(bytes.clone());
        }
        return Err(format!(
            "{new_name}: does not convert to {} (the format of {member})",
            want.name()
        ));
    }
    Err(format!(
        "{new_name} is {}, but {member} is {}: give a {} file, or an export it converts from (.csv, .json, .png, …)",
        got.map_or(crate::UNKNOWN, |(f, _)| f.name()),
        want.name(),
        want.name(),
    ))
}

/// The bytes of member `path` (`:` between nesting levels), decompressed.
pub fn member(data: &[u8], path: &str) -> Result<Vec<u8>, String> {
    let limits = gcio::Limits::default();
    let decoded = payload_with(data, MAX_LAYERS, &limits).map_err(|e| e.to_string())?;
    let a = rarc::Archive::parse(decoded.as_deref().unwrap_or(data)).map_err(|e| e.to_string())?;
    let (here, rest) = match path.split_once(':') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let entry = a.find(here).ok_or_else(|| format!("no member {here:?}"))?;
    let bytes = a.file_data(entry).unwrap_or_default();
    match rest {
        Some(r) => member(bytes, r),
        None => Ok(payload_with(bytes, MAX_LAYERS, &limits)
            .ok()
            .flatten()
            .unwrap_or_else(|| bytes.to_vec())),
    }
}

/// A folder described by bytes, for the `pack` fuzz body: records of `[kind, name length, name…,
/// size, bytes…]` (kind bit 0: folder) whose names may hold `/`, `..`, empty parts, the
/// manifest's name or anything else a folder on disk could not (the packer sees them all the
/// same way it sees a folder read from disk).
pub fn folder_from_bytes(data: &[u8]) -> Folder {
    let mut folder = Folder::default();
    let mut rest = data;
    while let [kind, len, tail @ ..] = rest {
        let (name, tail) = tail.split_at(usize::from(*len % 24).min(tail.len()));
        let name = rarc::manifest::name_text(name);
        if kind & 1 == 1 {
            folder.dirs.push(name);
            rest = tail;
            continue;
        }
        let Some((&size, tail)) = tail.split_first() else {
            break;
        };
        let (bytes, tail) = tail.split_at(usize::from(size).min(tail.len()));
        folder.files.insert(name, bytes.to_vec());
        rest = tail;
    }
    folder
}

/// `pack` from a generated folder, in memory: the first byte chooses a folder without manifest
/// (built by [`folder_from_bytes`] from the rest) or a sample archive's extracted folder whose
/// manifest has the edits the rest chooses ([`gcio::mutate_text`]) plus generated files. Packing
/// may refuse; whatever packs must be an archive that extracts and packs again to the same bytes.
/// Never panics, hangs or allocates without bound.
pub fn fuzz_pack(data: &[u8]) {
    static SAMPLE: std::sync::OnceLock<Option<manifest::Unpacked>> = std::sync::OnceLock::new();
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let opts: Options = [("yaz0".to_owned(), "none".to_owned())].into();
    let out = Path::new("fuzz.arc");
    let label = "fuzz";
    let folder = if mode & 1 == 0 {
        folder_from_bytes(rest)
    } else {
        let sample = SAMPLE.get_or_init(|| {
            let tree = rarc::sample_tree();
            let bytes = rarc::pack(&tree, rarc::PackOptions::default())
                .write()
                .ok()?;
            manifest::unpack(&bytes).ok()
        });
        let Some(u) = sample else { return };
        let (edits, extra) = rest.split_at(rest.len().min(usize::from(mode >> 1) * 3));
        let mut folder = folder_from_bytes(extra);
        folder.files.extend(u.files.iter().cloned());
        folder.dirs.extend(u.dirs.iter().cloned());
        folder.files.insert(
            MANIFEST.to_owned(),
            gcio::mutate_text(&u.manifest, edits).into_bytes(),
        );
        folder
    };
    let Ok(packed) = pack_rarc(label, "root", folder, out, &opts) else {
        return;
    };
    let u = manifest::unpack(&packed.bytes);
    assert!(u.is_ok(), "a packed archive extracts: {u:?}");
    let Ok(u) = u else { return };
    let again = Folder {
        files: u
            .files
            .into_iter()
            .chain([(MANIFEST.to_owned(), u.manifest.into_bytes())])
            .collect(),
        dirs: u.dirs,
    };
    let repacked = pack_rarc(label, "root", again, out, &opts).map(|p| p.bytes);
    assert_eq!(
        repacked.as_ref().ok(),
        Some(&packed.bytes),
        "extract then pack reproduces a packed archive"
    );
}
