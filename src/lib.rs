//! gcformats: byte-exact readers and writers for Nintendo GameCube/Wii file formats.
//!
//! This facade re-exports each format crate behind a cargo feature of the same name
//! (`gcformats::rarc`, `gcformats::bcsv`, …) and always re-exports the shared I/O crate as
//! [`gcio`]. Every format offers a zero-copy view, an owned model that writes back byte for
//! byte, and a validator returning [`gcio::Diagnostic`]s.
//!
//! ```
//! let r = gcformats::gcio::Reader::new(b"RARC");
//! assert!(r.expect_magic(0, b"RARC").is_ok());
//! ```
#![forbid(unsafe_code)]

pub use gcio;

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

#[cfg(feature = "gx")]
pub use gx;

#[cfg(feature = "ibnk")]
pub use ibnk;
