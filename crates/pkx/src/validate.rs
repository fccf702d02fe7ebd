//! The validator: PKX-* rules on the header and slots, plus `hsd-dat`'s HSD-* rules on the
//! embedded model (offsets moved to the PKX file).

use gcio::{Diagnostic, Limits};

use crate::dat::DatFacts;
use crate::model::{Header, Pkx, Timing};
use crate::names::{BODY_PARTS, ModelKind};
use crate::raw::{ENTRY, GPT1_MAGIC, GPT1_MAGIC_V2};
use crate::view::Game;

impl Pkx {
    /// Where the first animation entry is written.
    pub fn entries_offset(&self) -> usize {
        match self.game() {
            Game::Xd => crate::raw::XD_PREAMBLE,
            Game::Colosseum => {
                crate::raw::COLO_HEADER
                    + self.dat.len().next_multiple_of(32)
                    + self.gpt1.len().next_multiple_of(32)
            }
        }
    }

    /// Where the GPT1 block is written.
    pub fn gpt1_offset(&self) -> usize {
        match self.game() {
            Game::Xd => (crate::raw::XD_PREAMBLE + self.entries.len() * ENTRY).next_multiple_of(32),
            Game::Colosseum => crate::raw::COLO_HEADER + self.dat.len().next_multiple_of(32),
        }
    }
}

/// Validates a file; one that does not parse is one `PKX-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits.
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match Pkx::parse_with(data, limits) {
        Ok(p) => validate_model(&p),
        Err(e) => vec![Diagnostic::error("PKX-001", e.offset(), e.to_string())],
    }
}

/// Validates a model with the model kind inferred by [`Pkx::kind`].
pub fn validate_model(p: &Pkx) -> Vec<Diagnostic> {
    validate_model_as(p, p.kind())
}

/// Validates a model as a Pokémon or trainer model (PKX-008 depends on it).
pub fn validate_model_as(p: &Pkx, kind: ModelKind) -> Vec<Diagnostic> {
    p.findings(kind)
}

impl Pkx {
    fn findings(&self, kind: ModelKind) -> Vec<Diagnostic> {
        let mut d = Vec::new();
        let game = self.game();
        let dat_off = self.dat_offset() as u64;
        let facts = match hsd_dat::parse(&self.dat) {
            Ok(a) => {
                for mut x in hsd_dat::validate_view(&a) {
                    x.offset = x.offset.map(|o| o + dat_off);
                    x.message = format!("embedded DAT: {}", x.message);
                    d.push(x);
                }
                match DatFacts::read(&a) {
                    Ok(f) => Some(f),
                    Err(e) => {
                        d.push(Diagnostic::error(
                            "PKX-006",
                            Some(dat_off),
                            format!("embedded DAT: cannot read the ModelSet: {e}"),
                        ));
                        None
                    }
                }
            }
            Err(e) => {
                d.push(Diagnostic::error(
                    "HSD-002",
                    Some(dat_off),
                    format!("embedded DAT does not parse: {e}"),
                ));
                None
            }
        };
        self.header_rules(&mut d);
        let base = self.entries_offset() as u64;
        for (i, e) in self.entries.iter().enumerate() {
            let at = base + (i * ENTRY) as u64;
            let slot = format!("slot {i} ({})", kind.slot_name(game, i));
            if e.sub_anim_count > 8 {
                d.push(Diagnostic::error(
                    "PKX-005",
                    Some(at + 4),
                    format!("{slot}: sub_anim_count {} > 8", e.sub_anim_count),
                ));
            }
            let expect_timing = matches!(
                (game, e.timing),
                (Game::Xd, Timing::Seconds(_)) | (Game::Colosseum, Timing::Frames(_))
            );
            if !expect_timing {
                d.push(Diagnostic::error("PKX-014", Some(at + 0x10), format!("{slot}: timings are in the other game's unit (XD seconds, Colosseum frames)")));
            }
            if e.is_active(game) && e.timing.first_is_zero() {
                d.push(Diagnostic::error(
                    "PKX-007",
                    Some(at + 0x10),
                    format!(
                        "{slot}: active slot with timing_1 = 0 (divide by zero, crash on send-out)"
                    ),
                ));
            }
            if e.damage_flags > 0x7FFF_FFFF {
                d.push(Diagnostic::warning(
                    "PKX-013",
                    Some(at + 8),
                    format!(
                        "{slot}: damage_flags {:#x} looks like uninitialised heap fill",
                        e.damage_flags
                    ),
                ));
            }
            if e.terminator != game.terminator() {
                d.push(Diagnostic::warning(
                    "PKX-011",
                    Some(at + 0xCC),
                    format!(
                        "{slot}: terminator {} (expected {})",
                        e.terminator,
                        game.terminator()
                    ),
                ));
            }
            for (k, s) in e.used().iter().enumerate() {
                let sat = Some(at + 0x8C + 8 * k as u64);
                let odd = match game {
                    Game::Xd => s.motion_type > 2,
                    Game::Colosseum => {
                        s.motion_type > 1 || (s.motion_type == 1 && s.anim_index != 0)
                    }
                };
                if odd {
                    d.push(Diagnostic::warning("PKX-010", sat, format!("{slot} sub {k}: motion_type {} / anim {} fits neither real nor padding", s.motion_type, s.anim_index)));
                }
                if let Some(f) = &facts
                    && s.is_active(game)
                    && s.anim_index as usize >= f.anims.len()
                {
                    d.push(Diagnostic::error(
                        "PKX-006",
                        sat,
                        format!(
                            "{slot} sub {k}: anim_index {} past the DAT's {} animations",
                            s.anim_index,
                            f.anims.len()
                        ),
                    ));
                }
            }
            for (p, &b) in e.body_map.iter().enumerate() {
                let bat = Some(at + 0x4C + 4 * p as u64);
                let part = BODY_PARTS.get(p).copied().unwrap_or("?");
                if b == -1 && kind == ModelKind::Pokemon {
                    d.push(Diagnostic::error("PKX-008", bat, format!("{slot} body map {part}: −1 in a Pokémon model does not load cleanly (use 0)")));
                } else if b < -1 {
                    d.push(Diagnostic::warning(
                        "PKX-009",
                        bat,
                        format!("{slot} body map {part}: bone index {b}"),
                    ));
                } else if let Some(f) = &facts
                    && b >= 0
                    && b as usize >= f.bones
                {
                    d.push(Diagnostic::info("PKX-009", bat, format!("{slot} body map {part}: bone {b} past the {} joints (a runtime null joint: no attach point)", f.bones)));
                }
            }
        }
        if let Some(f) = &facts {
            for t in self.triggers() {
                if t.active && t.anim_index as usize >= f.anims.len() {
                    let at = match game {
                        Game::Xd => 0x1C + 19 * t.index as u64 + 18,
                        Game::Colosseum => 0x18 + 4 * t.index as u64,
                    };
                    d.push(Diagnostic::error(
                        "PKX-006",
                        Some(at),
                        format!(
                            "trigger {} anim {} past the DAT's {} animations",
                            crate::names::TRIGGERS.get(t.index).unwrap_or(&"?"),
                            t.anim_index,
                            f.anims.len()
                        ),
                    ));
                }
            }
        }
        d
    }

    fn header_rules(&self, d: &mut Vec<Diagnostic>) {
        let n = self.entries.len();
        match &self.header {
            Header::Xd(h) => {
                if h.type_id != 0x000C || n != 17 {
                    d.push(Diagnostic::error("PKX-001", Some(0x10), format!("type_id {:#06x} / {n} entries: XD files have 0x000C and 17, or they are not recognised", h.type_id)));
                }
                if h.shiny.route.iter().any(|&r| r > 3) {
                    d.push(Diagnostic::warning(
                        "PKX-012",
                        Some(0x70),
                        format!("shiny routing {:?} outside 0–3", h.shiny.route),
                    ));
                }
            }
            Header::Colosseum(h) => {
                if !(16..=17).contains(&n) {
                    d.push(Diagnostic::error(
                        "PKX-001",
                        Some(8),
                        format!(
                            "{n} entries: Colosseum files have 16 or 17, or they are not recognised"
                        ),
                    ));
                }
                if h.unknown_10 != 5 {
                    d.push(Diagnostic::warning(
                        "PKX-003",
                        Some(0x10),
                        format!("word 0x10 = {} (5 in known files)", h.unknown_10),
                    ));
                }
                if h.reserved.iter().any(|&b| b != 0) {
                    d.push(Diagnostic::warning(
                        "PKX-003",
                        Some(0x24),
                        "header bytes 0x24–0x3F are not zero",
                    ));
                }
                if h.shiny.route.iter().any(|&r| r > 3) {
                    let at = self.write_len().saturating_sub(20) as u64;
                    d.push(Diagnostic::warning(
                        "PKX-012",
                        Some(at),
                        format!("shiny routing {:?} outside 0–3", h.shiny.route),
                    ));
                }
            }
        }
        if self.shiny().brightness[3] != 0xFF {
            d.push(Diagnostic::info(
                "PKX-012",
                None,
                "shiny brightness alpha is not 0xFF (the game forces it)",
            ));
        }
        if !self.gpt1.is_empty() {
            let magic = self.gpt1.first_chunk::<4>().map(|m| u32::from_be_bytes(*m));
            if !matches!(magic, Some(GPT1_MAGIC | GPT1_MAGIC_V2)) {
                d.push(Diagnostic::warning(
                    "PKX-002",
                    Some(self.gpt1_offset() as u64),
                    "the GPT1 region does not start with a GPT1 magic",
                ));
            }
        }
        if self.game() == Game::Xd {
            let end = self.dat_offset() + self.dat.len();
            let need = gcio::padding_for(end, 32);
            if self.trailer.len() < need || self.trailer.iter().take(need).any(|&b| b != 0) {
                d.push(Diagnostic::info(
                    "PKX-004",
                    Some(end as u64),
                    "the embedded DAT is not zero-padded to 32",
                ));
            }
        }
    }

    /// Length of the written file.
    pub fn write_len(&self) -> usize {
        match self.game() {
            Game::Xd => self.dat_offset() + self.dat.len() + self.trailer.len(),
            Game::Colosseum => {
                self.entries_offset() + self.entries.len() * ENTRY + self.trailer.len() + 20
            }
        }
    }
}
