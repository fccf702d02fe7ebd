//! One entry per format crate: a format that describes itself ([`gcio::Describe`]) is one line,
//! `&Registered::<fmt::Format, Described>::new(Described)`; the others have a module here
//! implementing [`crate::Present`] for what the facade adds (conversions through its codecs,
//! archive members, layout comparisons). The registry order is the
//! detection order: more specific signatures first. Each module, and its registry entry, is there
//! only with its format's cargo feature; conversions only with `convert`.
// Helpers and imports only the conversions use.
#![cfg_attr(not(feature = "convert"), allow(dead_code, unused_imports))]
// Without `json`, values only the JSON summaries used.
#![cfg_attr(not(feature = "json"), allow(unused_variables))]

use crate::{Described, Format, Registered};

#[cfg(feature = "bcsv")]
mod bcsv;
#[cfg(feature = "bms")]
mod bms;
#[cfg(feature = "brfnt")]
mod brfnt;
#[cfg(feature = "brlan")]
mod brlan;
#[cfg(feature = "brlyt")]
mod brlyt;
#[cfg(feature = "j3d-bmd")]
mod bti;
#[cfg(feature = "canm")]
mod canm;
#[cfg(feature = "gpl-facial")]
mod gpl_facial;
#[cfg(feature = "hsd-dat")]
mod hsd_dat;
#[cfg(feature = "ibnk")]
mod ibnk;
#[cfg(feature = "j3d-anim")]
mod j3d_anim;
#[cfg(feature = "j3d-bmd")]
mod j3d_bmd;
#[cfg(feature = "kcl")]
mod kcl;
#[cfg(feature = "msbf")]
mod msbf;
#[cfg(feature = "pkx")]
mod pkx;
#[cfg(feature = "rarc")]
mod rarc;
#[cfg(feature = "tpl")]
mod tpl;
#[cfg(feature = "rarc")]
mod yaz0;

/// Every format `gcf` knows, in detection order.
pub static FORMATS: &[&dyn Format] = &[
    #[cfg(feature = "rarc")]
    &yaz0::Yaz0,
    #[cfg(feature = "rarc")]
    &yaz0::Yay0,
    #[cfg(feature = "rarc")]
    &rarc::ENTRY,
    #[cfg(feature = "ibnk")]
    &ibnk::ENTRY,
    #[cfg(feature = "msbf")]
    &msbf::ENTRY,
    #[cfg(feature = "j3d-bmd")]
    &j3d_bmd::ENTRY,
    #[cfg(feature = "j3d-anim")]
    &j3d_anim::ENTRY,
    // Magic 0x0020AF30 and a table offset inside the file.
    #[cfg(feature = "tpl")]
    &tpl::ENTRY,
    // `ANDO` + `CANM`/`CKAN`.
    #[cfg(feature = "canm")]
    &canm::ENTRY,
    // `RLYT` + byte order mark FE FF.
    #[cfg(feature = "brlyt")]
    &brlyt::ENTRY,
    // `RLAN` + byte order mark FE FF.
    #[cfg(feature = "brlan")]
    &brlan::ENTRY,
    // `RFNT` + byte order mark FE FF.
    #[cfg(feature = "brfnt")]
    &brfnt::ENTRY,
    // `JPAC2-10`.
    #[cfg(feature = "jpc")]
    &Registered::<jpc::Format, Described>::new(Described),
    // No magic: only files named .bti whose header's image data fits; before the header-arithmetic
    // formats so a texture is never taken for one of them.
    #[cfg(feature = "j3d-bmd")]
    &bti::ENTRY,
    // No magic: position offset 0x38/0x3C, whole-entry sections in order and an octree that walks;
    // before bcsv, whose header arithmetic is looser.
    #[cfg(feature = "kcl")]
    &kcl::ENTRY,
    // No magic number: strict header arithmetic, so it comes after every format with a signature.
    #[cfg(feature = "bcsv")]
    &bcsv::ENTRY,
    // No magic: PKX-001 header words (XD type id + 17 slots, or Colosseum DAT size twice + 16/17
    // slots) and a layout that fits; before hsd-dat, whose DAT it wraps.
    #[cfg(feature = "pkx")]
    &pkx::ENTRY,
    // No magic: header arithmetic (tables fit, file_size = length, relocations and roots in the data block).
    #[cfg(feature = "hsd-dat")]
    &hsd_dat::ENTRY,
    // No magic either: header pointers ordered, aligned and in range, sections parse; late.
    #[cfg(feature = "gpl-facial")]
    &gpl_facial::ENTRY,
    // No magic: a count of 32-byte entries that fills the file, zero padding; `.bas` names only.
    #[cfg(feature = "bas")]
    &Registered::<bas::Format, Described>::new(Described),
    // BMS has no header (.bms extension + a clean control-flow walk from offset 0): keep it last.
    #[cfg(feature = "bms")]
    &bms::ENTRY,
];

/// The questions asked of bytes directly, each parsing afresh (unit tests of one format, on
/// bytes detection may refuse).
#[cfg(test)]
pub(crate) trait Ask: Format + Sized {
    fn ask<R>(&self, data: &[u8], q: impl FnOnce(&crate::Input<'_>) -> R) -> R {
        let cell = crate::format::ParseCell::new();
        let limits = gcio::Limits::default();
        q(&crate::Input::new(data, None, "", &limits, self, &cell))
    }
    fn info_of(&self, data: &[u8]) -> gcio::Result<crate::Info> {
        self.ask(data, |i| self.info(i))
    }
    fn roundtrip_of(&self, data: &[u8]) -> gcio::Result<crate::Rewrite> {
        self.ask(data, |i| self.roundtrip(i))
    }
    fn check_of(&self, data: &[u8], opts: &crate::Options) -> gcio::Result<Vec<gcio::Diagnostic>> {
        self.ask(data, |i| self.check(i, opts))
    }
    fn members_of(&self, data: &[u8]) -> gcio::Result<Vec<crate::Member>> {
        self.ask(data, |i| self.members(i))
    }
    fn facts_of(&self, data: &[u8]) -> Vec<(String, u64)> {
        self.ask(data, |i| self.facts(i))
    }
}

#[cfg(test)]
impl<F: Format> Ask for F {}
