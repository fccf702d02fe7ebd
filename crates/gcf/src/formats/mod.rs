//! One module per format crate, each implementing [`crate::Format`]. The registry order is the
//! detection order: more specific signatures first.

use crate::Format;

mod bcsv;
mod bms;
mod bti;
mod canm;
mod gpl_facial;
pub mod hsd_dat;
mod ibnk;
mod j3d_anim;
mod j3d_bmd;
mod kcl;
mod msbf;
mod pkx;
mod rarc;
mod tpl;
mod yaz0;

/// Every format `gcf` knows, in detection order.
pub static FORMATS: &[&dyn Format] = &[
    &yaz0::Yaz0,
    &yaz0::Yay0,
    &rarc::Rarc,
    &ibnk::Ibnk,
    &msbf::Msbf,
    &j3d_bmd::J3dBmd,
    &j3d_anim::J3dAnim,
    // Magic 0x0020AF30 and a table offset inside the file.
    &tpl::Tpl,
    // `ANDO` + `CANM`/`CKAN`.
    &canm::Canm,
    // No magic: only files named .bti whose header's image data fits; before the header-arithmetic
    // formats so a texture is never taken for one of them.
    &bti::Bti,
    // No magic: position offset 0x38/0x3C, whole-entry sections in order and an octree that walks;
    // before bcsv, whose header arithmetic is looser.
    &kcl::Kcl,
    // No magic number: strict header arithmetic, so it comes after every format with a signature.
    &bcsv::Bcsv,
    // No magic: PKX-001 header words (XD type id + 17 slots, or Colosseum DAT size twice + 16/17
    // slots) and a layout that fits; before hsd-dat, whose DAT it wraps.
    &pkx::PkxContainer,
    // No magic: header arithmetic (tables fit, file_size = length, relocations and roots in the data block).
    &hsd_dat::HsdDat,
    // No magic either: header pointers ordered, aligned and in range, sections parse; late.
    &gpl_facial::GplFacial,
    // BMS has no header (.bms extension + a clean control-flow walk from offset 0): keep it last.
    &bms::Bms,
];
