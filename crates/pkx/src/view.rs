//! Detection (PKX-001), layout arithmetic (PKX-002/003) and the zero-copy view.

use gcio::{Context, Error, ErrorKind, Limits, Reader, Result};

use crate::raw::{
    COLO_HEADER, COLO_SHINY, ColoHeader, ColoShiny, ENTRY, RawAnimEntry, XD_PREAMBLE, XdPreamble,
};

/// Which game's layout a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum Game {
    /// Pokémon XD: Gale of Darkness (preamble, entries, GPT1, DAT).
    Xd,
    /// Pokémon Colosseum (header, DAT, GPT1, entries, shiny trailer).
    Colosseum,
}

impl Game {
    /// The `gcf identify` name: `pkx-xd` or `pkx-colosseum`.
    pub fn format_name(self) -> &'static str {
        match self {
            Game::Xd => "pkx-xd",
            Game::Colosseum => "pkx-colosseum",
        }
    }

    /// Entry terminator this game writes (PKX-011).
    pub fn terminator(self) -> u32 {
        match self {
            Game::Xd => 3,
            Game::Colosseum => 1,
        }
    }
}

/// Where each region of a `.pkx` lies (absolute offsets, half-open ranges).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The game.
    pub game: Game,
    /// Animation entry count.
    pub count: usize,
    /// First animation entry.
    pub entries: usize,
    /// GPT1 block start (its length is the header's `gpt1_length`).
    pub gpt1: usize,
    /// GPT1 length.
    pub gpt1_len: usize,
    /// Embedded DAT start.
    pub dat: usize,
    /// DAT length (= its `file_size`).
    pub dat_len: usize,
    /// Colosseum: start of the 20-byte shiny trailer; XD: the file length.
    pub shiny: usize,
    /// File length.
    pub len: usize,
}

fn overflow() -> Error {
    Error::new(ErrorKind::Overflow("pkx layout"), 0)
}

fn add(a: usize, b: usize) -> Result<usize> {
    a.checked_add(b).ok_or_else(overflow)
}

/// `x` rounded up to 32.
pub(crate) fn align32(x: usize) -> Result<usize> {
    x.checked_next_multiple_of(32).ok_or_else(overflow)
}

impl Layout {
    /// End of the animation entries.
    pub fn entries_end(&self) -> usize {
        self.entries + self.count * ENTRY
    }

    /// End of the GPT1 block.
    pub fn gpt1_end(&self) -> usize {
        self.gpt1 + self.gpt1_len
    }

    /// End of the DAT.
    pub fn dat_end(&self) -> usize {
        self.dat + self.dat_len
    }

    /// Computes the layout of `data` as `game`, checking that every region fits.
    pub fn compute(data: &[u8], game: Game, limits: &Limits) -> Result<Layout> {
        let r = Reader::new(data);
        let len = data.len();
        let (gpt1_at, count_at) = match game {
            Game::Xd => (8, 0x10),
            Game::Colosseum => (4, 8),
        };
        let (dat_len, gpt1_len) = (r.u32(0)?, r.u32(gpt1_at)?);
        let count = limits
            .check_elements(u64::from(r.u32(count_at)?), r.abs(count_at))
            .context("anim_section_count")?;
        let (dat_len, gpt1_len) = (dat_len as usize, gpt1_len as usize);
        let entries_len = count.checked_mul(ENTRY).ok_or_else(overflow)?;
        let (entries, gpt1, dat, shiny) = match game {
            Game::Xd => {
                let entries = XD_PREAMBLE;
                let gpt1 = align32(add(entries, entries_len)?)?;
                (entries, gpt1, add(gpt1, align32(gpt1_len)?)?, len)
            }
            Game::Colosseum => {
                let dat = COLO_HEADER;
                let gpt1 = align32(add(dat, dat_len)?)?;
                let entries = add(gpt1, align32(gpt1_len)?)?;
                let shiny = len
                    .checked_sub(COLO_SHINY)
                    .ok_or_else(|| r.oob(len, COLO_SHINY))?;
                (entries, gpt1, dat, shiny)
            }
        };
        let l = Layout {
            game,
            count,
            entries,
            gpt1,
            gpt1_len,
            dat,
            dat_len,
            shiny,
            len,
        };
        let need = match game {
            Game::Xd => add(l.dat, dat_len)?,
            Game::Colosseum => add(add(l.entries, entries_len)?, COLO_SHINY)?,
        };
        if need > len {
            return Err(r.oob(0, need)).context("pkx layout");
        }
        Ok(l)
    }
}

/// The layout PKX-001 recognises: Colosseum iff `u32@0x40 == u32@0x00` and `u32@0x08 ∈ {16, 17}`;
/// XD iff `u16@0x1A == 0x000C` and `u32@0x10 == 17`; anything else (or a file whose regions do not
/// fit) is rejected. Peers test one of these alone and misfire (C-30): XD's `u32@0x20` part-anim
/// bytes are often −1 in Colosseum too, and `u32@0 != u32@0x40` holds for any non-Colosseum file.
/// Colosseum matches also need an HSD archive header at 0x40. A file matching both rules is
/// settled by which layout holds a DAT (`hsd_dat::sniff`); else it is rejected.
pub fn game(data: &[u8]) -> Option<Game> {
    let r = Reader::new(data);
    let colo = matches!((r.u32(0), r.u32(0x40)), (Ok(a), Ok(b)) if a == b)
        && matches!(r.u32(8), Ok(16 | 17));
    let xd = r.u16(0x1A).ok() == Some(0x000C) && r.u32(0x10).ok() == Some(17);
    // Detection only sniffs: `Layout::compute` allocates nothing, and its region check already
    // bounds the entry count by `data.len()`. No limit applies here, so detection never refuses
    // a file that the caller's limits in `parse_with`/`View::parse_as` would accept.
    let fits = |g: Game| {
        Layout::compute(data, g, &Limits::UNLIMITED)
            .ok()
            .filter(|l| l.dat_len >= 0x20)
    };
    match (xd, colo) {
        (true, false) => fits(Game::Xd).map(|_| Game::Xd),
        // The Colosseum words are the weaker signature (two equal words and a small count), so
        // the region they point at must also read as an HSD archive header.
        (false, true) => fits(Game::Colosseum)
            .filter(|l| {
                r.bytes(l.dat, l.dat_len)
                    .is_ok_and(|d| hsd_dat::parse(d).is_ok())
            })
            .map(|_| Game::Colosseum),
        (true, true) => {
            let sniff =
                |g| fits(g).is_some_and(|l| r.bytes(l.dat, l.dat_len).is_ok_and(hsd_dat::sniff));
            match (sniff(Game::Xd), sniff(Game::Colosseum)) {
                (true, false) => Some(Game::Xd),
                (false, true) => Some(Game::Colosseum),
                _ => None,
            }
        }
        (false, false) => None,
    }
}

/// Game-specific fixed header.
#[derive(Debug, Clone, Copy)]
pub enum HeaderView<'a> {
    /// XD preamble.
    Xd(&'a XdPreamble),
    /// Colosseum header and its shiny trailer.
    Colosseum(&'a ColoHeader, &'a ColoShiny),
}

/// Zero-copy view of a `.pkx`.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    data: &'a [u8],
    /// Region offsets.
    pub layout: Layout,
    /// The fixed header.
    pub header: HeaderView<'a>,
    /// Animation entries in slot order.
    pub entries: &'a [RawAnimEntry],
}

/// Parses `data` (detected with [`detect`]) with the default [`Limits`].
pub fn parse(data: &[u8]) -> Result<View<'_>> {
    parse_with(data, &Limits::default())
}

/// Parses `data` (detected with [`detect`]); `limits` bound the animation table.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
    let game = game(data).ok_or_else(|| {
        Error::invalid(
            0,
            "not a PKX: neither the XD nor the Colosseum signature (PKX-001) fits",
        )
    })?;
    View::parse_as(data, game, limits)
}

impl<'a> View<'a> {
    /// Parses `data` with the layout of `game`, skipping detection.
    pub fn parse_as(data: &'a [u8], game: Game, limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        let layout = Layout::compute(data, game, limits)?;
        let header = match game {
            Game::Xd => HeaderView::Xd(r.get(0).context("XD preamble")?),
            Game::Colosseum => HeaderView::Colosseum(
                r.get(0).context("Colosseum header")?,
                r.get(layout.shiny).context("Colosseum shiny")?,
            ),
        };
        let entries = r
            .table(layout.entries, layout.count)
            .context("anim entries")?;
        Ok(View {
            data,
            layout,
            header,
            entries,
        })
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.layout.game
    }

    /// The whole file.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    fn range(&self, start: usize, end: usize) -> &'a [u8] {
        self.data.get(start..end).unwrap_or_default()
    }

    /// The GPT1 particle block (empty when absent).
    pub fn gpt1(&self) -> &'a [u8] {
        self.range(self.layout.gpt1, self.layout.gpt1_end())
    }

    /// The embedded DAT, exactly `file_size` bytes.
    pub fn dat(&self) -> &'a [u8] {
        self.range(self.layout.dat, self.layout.dat_end())
    }

    /// The embedded DAT parsed by `hsd-dat`.
    pub fn archive(&self) -> Result<hsd_dat::Archive<'a>> {
        hsd_dat::parse(self.dat()).context("embedded DAT")
    }

    /// Bytes between the entries and the GPT1 block (XD) or between the DAT and the GPT1 block
    /// (Colosseum): the padding to 32.
    pub fn pad_before_gpt1(&self) -> &'a [u8] {
        let l = &self.layout;
        match l.game {
            Game::Xd => self.range(l.entries_end(), l.gpt1),
            Game::Colosseum => self.range(l.dat_end(), l.gpt1),
        }
    }

    /// Padding after the GPT1 block up to the next region.
    pub fn pad_after_gpt1(&self) -> &'a [u8] {
        let l = &self.layout;
        match l.game {
            Game::Xd => self.range(l.gpt1_end(), l.dat),
            Game::Colosseum => self.range(l.gpt1_end(), l.entries),
        }
    }

    /// Bytes the layout does not explain: after the DAT (XD; its padding to 32 included) or
    /// between the entries and the shiny trailer (Colosseum).
    pub fn trailer(&self) -> &'a [u8] {
        let l = &self.layout;
        match l.game {
            Game::Xd => self.range(l.dat_end(), l.len),
            Game::Colosseum => self.range(l.entries_end(), l.shiny),
        }
    }
}

/// Recognises a PKX container ([`game`] names which layout). Every format crate has this
/// `detect` (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    game(data).map(|_| gcio::Confidence::Strong)
}
