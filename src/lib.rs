//! gcformats: byte-exact readers and writers for Nintendo GameCube/Wii file formats.
//!
//! This facade re-exports each format crate behind a cargo feature of the same name
//! (`gcformats::rarc`, `gcformats::bcsv`, …) and always re-exports the shared I/O crate as
//! [`gcio`]. Every format offers a zero-copy view, an owned model that writes back byte for
//! byte, and a validator returning [`gcio::Diagnostic`]s.
//!
//! It also holds the format registry: [`identify`] names a file's format from its bytes, and
//! [`open`] gives an [`Opened`] file that answers its format, a summary ([`Opened::info`]), the
//! validator's findings ([`Opened::validate`]), an unedited write-back ([`Opened::rewrite`]) and
//! its members, each an [`Opened`] of its own ([`Opened::members`]): a compressed stream's
//! payload, an archive's files. Only the formats whose features are on are registered; the
//! `convert` feature adds the file conversions (PNG, glTF/OBJ, CSV, JSON, MIDI).
//!
//! Enable the formats you read as features (`gcformats = { version = "0.1", features = ["rarc",
//! "bcsv"] }`; `full` is every format plus the conversions). Reading a game file from disk:
//!
//! ```no_run
//! # fn main() -> gcformats::gcio::Result<()> {
//! let file = gcformats::open(std::path::Path::new("StageData/RedBlueExStepA.arc"))?;
//! println!("{} {:?}", file.format(), file.detection().detail); // yaz0 Some("rarc")
//! for finding in file.validate()? {
//!     println!("{finding}"); // severity, rule id, offset, message
//! }
//! assert_eq!(file.rewrite()?.bytes, file.bytes()); // byte-exact write-back
//! for payload in file.members()? {
//!     for member in payload.members()? {
//!         println!("{} {}", member.name(), member.format());
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! `examples/open_tree.rs` walks a whole archive tree this way; the other files in `examples/`
//! show one format each (`msbf_flow.rs` builds a flow chart with the owned model, writes it and
//! validates it; `rarc_ls.rs`, `bcsv_dump.rs`, `j3d_info.rs`, … read real files given as
//! arguments).
//!
//! ```
//! let r = gcformats::gcio::Reader::new(b"RARC");
//! assert!(r.expect_magic(0, b"RARC").is_ok());
//! assert!(gcformats::identify(b"not a game file").is_none());
//! assert!(gcformats::open(b"not a game file").is_err());
//! ```
#![forbid(unsafe_code)]

pub use gcio;

/// The JSON form of [`Info`]: a `serde_json::Value` with the `json` feature, `()` without it.
#[cfg(feature = "json")]
pub type Json = serde_json::Value;
/// The JSON form of [`Info`]: a `serde_json::Value` with the `json` feature, `()` without it.
#[cfg(not(feature = "json"))]
pub type Json = ();

// Without the `json` feature, the registry's `serde_json::json!(…)` summaries are `()`: this crate
// stands in for serde_json (its `json!` macro drops its input; `Value` is `()`).
#[cfg(not(feature = "json"))]
extern crate self as serde_json;
#[cfg(not(feature = "json"))]
#[doc(hidden)]
pub type Value = ();
#[cfg(not(feature = "json"))]
#[doc(hidden)]
#[macro_export]
macro_rules! json {
    ($($t:tt)*) => {
        ()
    };
}

#[cfg(feature = "rarc")]
pub mod archive;
#[cfg(feature = "convert")]
pub mod export;
mod format;
pub mod formats;
mod opened;
mod registered;
mod verify;

pub use bytes::Bytes;
pub use format::{
    Companions, Detection, EXPORT_EXTENSIONS, Folder, Format, Info, Input, Member, Options,
    Outputs, Parsed, Rewrite, companion, companion_files, extension, extension_of, file_name,
    file_stem, io_error, is_compressed_name, is_folder_name, one_file,
};
#[cfg(feature = "convert")]
pub use format::{Conversion, Notices, check_option_keys};
pub use opened::{MAX_NESTING, OpenOptions, Opened, Source, open, open_with};
pub use registered::{Described, Present, Registered};
pub use verify::{read_back, read_back_all};

/// A `.gltf` with separate buffer and image files made self-contained, for a conversion's input.
#[cfg(feature = "convert")]
pub use gx::scene::embed_external;

/// Name printed for files no format recognises.
pub const UNKNOWN: &str = "unknown";

/// Every registered format (those whose cargo features are on), in detection order.
pub fn registry() -> &'static [&'static dyn Format] {
    formats::FORMATS
}

/// Names the format of `data` from its bytes; `None` when no registered format claims it.
/// Two formats have no signature and are recognised by name only ([`identify_named`]): BTI
/// textures (`.bti`) and BMS sequences (`.bms`).
pub fn identify(data: &[u8]) -> Option<Detection> {
    identify_named(data, "")
}

/// [`identify`] with the file's name (or path) as a tie-breaker for formats without magic.
pub fn identify_named(data: &[u8], name: &str) -> Option<Detection> {
    detect_format(data, name).map(|(_, d)| d)
}

/// The registered format that detects `data` (named `name`), with its detection.
pub fn detect_format(data: &[u8], name: &str) -> Option<(&'static dyn Format, Detection)> {
    formats::FORMATS
        .iter()
        .find_map(|f| f.detect(data, name).map(|d| (*f, d)))
}

/// Every option key naming a companion file some registered format checks against or converts
/// with ([`Format::companions`]): what a caller reads and passes to [`Opened::validate_with`]
/// and `convert` (feature `convert`).
pub fn companion_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = formats::FORMATS
        .iter()
        .flat_map(|f| f.companions().iter().copied())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The companion keys a conversion of `input` (named `from`) to `to` reads as files: those the
/// converting format declares — the input's format, or for an input no format claims (a PNG, a
/// glTF file) the format of the target's extension — so that an option the conversion takes as a
/// plain value (`-o anim=NAME` of glTF → BCK) is not read as a file. A compressed input may hold
/// any format: every key.
pub fn companion_keys_for(input: &[u8], from: &str, to: &str) -> Vec<&'static str> {
    match detect_format(input, from) {
        Some((f, _)) if matches!(f.name(), "yaz0" | "yay0") => companion_keys(),
        Some((f, _)) => f.companions().to_vec(),
        None => {
            let ext = format::extension_of(to);
            let mut keys: Vec<&'static str> = formats::FORMATS
                .iter()
                .filter(|f| f.extensions().contains(&ext.as_str()))
                .flat_map(|f| f.companions().iter().copied())
                .collect();
            keys.sort_unstable();
            keys.dedup();
            keys
        }
    }
}

/// Carries out `job` ([`Conversion`]) in memory ([`Outputs`], written by the caller), through the
/// format the input is identified as, never through another format that happens to accept its
/// bytes (a PKX is not a BCSV table):
///
/// - a compressed input (Yaz0/Yay0) is decoded once; its payload's format converts it (a Yaz0
///   table converts to CSV), else the payload itself is the output (decompression), but never
///   under a name an export is made for ([`EXPORT_EXTENSIONS`]: an archive is not a `.glb`);
/// - a file some format identifies converts through that format only, or is compressed for a
///   compressed name (`.szs`);
/// - anything else (CSV, JSON, PNG, OBJ, text) is an import: the first format that takes it.
///
/// Companions are the extra inputs named by option keys ([`companion_keys`], e.g. `dat` for a
/// PKX built from JSON). `Ok(None)` when the identified format does not convert to `job.to`.
/// The conversion's [`Notices`] are dropped; [`convert_noting`] keeps them.
#[cfg(feature = "convert")]
pub fn convert(job: &Conversion<'_>) -> gcio::Result<Option<Outputs>> {
    convert_noting(job, &mut Notices::new())
}

/// [`convert`], adding what the conversion tells its user besides its files (an input it skipped
/// and why, [`Notices`]) to `notices`.
#[cfg(feature = "convert")]
pub fn convert_noting(
    job: &Conversion<'_>,
    notices: &mut Notices,
) -> gcio::Result<Option<Outputs>> {
    let Some(payload) =
        rarc::layer::payload_with(job.input, rarc::manifest::MAX_LAYERS, job.limits)?
    else {
        return convert_plain(job, notices);
    };
    if let Some((f, _)) = detect_format(&payload, job.from)
        && let Some(out) = f.convert_noting(
            &Conversion {
                input: &payload,
                ..*job
            },
            notices,
        )?
    {
        return Ok(Some(out));
    }
    let ext = extension_of(job.to);
    if format::is_compressed_name(job.to) || EXPORT_EXTENSIONS.contains(&ext.as_str()) {
        return Ok(None);
    }
    Ok(Some(one_file(job.to, payload)))
}

/// [`convert_noting`] of an uncompressed input.
#[cfg(feature = "convert")]
fn convert_plain(job: &Conversion<'_>, notices: &mut Notices) -> gcio::Result<Option<Outputs>> {
    let any = |notices: &mut Notices| {
        for f in formats::FORMATS {
            match f.convert_noting(job, notices) {
                Ok(None) => {}
                r => return r,
            }
        }
        Ok(None)
    };
    match detect_format(job.input, job.from) {
        Some((f, _)) => match f.convert_noting(job, notices)? {
            Some(out) => Ok(Some(out)),
            // Any file compresses.
            None if format::is_compressed_name(job.to) => any(notices),
            None => Ok(None),
        },
        None => any(notices),
    }
}

/// The format registered under `name` or one of its aliases (e.g. `rarc`, `j3d-anim`, `j3d-bck`).
pub fn format_by_name(name: &str) -> Option<&'static dyn Format> {
    formats::FORMATS
        .iter()
        .copied()
        .find(|f| f.name() == name || f.aliases().contains(&name))
}

/// Every sample file the registered formats generate, as (`format/name`, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    formats::FORMATS
        .iter()
        .flat_map(|f| {
            f.samples()
                .into_iter()
                .map(move |(name, bytes)| (format!("{}/{name}", f.name()), bytes))
        })
        .collect()
}

#[cfg(feature = "bcsv")]
pub use bcsv;

#[cfg(feature = "bms")]
pub use bms;
#[cfg(feature = "msbf")]
pub use msbf;

#[cfg(feature = "gpl-facial")]
pub use gpl_facial;

#[cfg(feature = "hsd-dat")]
pub use hsd_dat;

#[cfg(feature = "pkx")]
pub use pkx;

#[cfg(feature = "yaz0")]
pub use yaz0;

#[cfg(feature = "rarc")]
pub use rarc;

#[cfg(feature = "j3d-bmd")]
pub use j3d_bmd;

#[cfg(feature = "j3d-anim")]
pub use j3d_anim;
#[cfg(feature = "kcl")]
pub use kcl;

#[cfg(feature = "tpl")]
pub use tpl;

#[cfg(feature = "canm")]
pub use canm;

#[cfg(feature = "brlyt")]
pub use brlyt;

#[cfg(feature = "bas")]
pub use bas;
#[cfg(feature = "brlan")]
pub use brlan;

#[cfg(feature = "brfnt")]
pub use brfnt;

#[cfg(feature = "jpc")]
pub use jpc;

#[cfg(feature = "gx")]
pub use gx;

#[cfg(feature = "ibnk")]
pub use ibnk;
