//! Encoders: each turns input bytes into [`Token`]s; [`crate::Stream`] and [`crate::yay0`]
//! serialise them.
//!
//! The `Matching` variants reproduce other encoders' decisions exactly (so a re-encoded archive
//! keeps its bytes); `Fast` and `Best` trade exactness for speed or size.

use crate::matcher::Matcher;
use crate::token::{MAX_LEN, Token, emit};

/// Encoders that reproduce a known tool's output token for token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Matching {
    /// Nintendo's look-ahead encoder (variant 1 of `rarc-yaz0.md` §8.1): longest match in the
    /// 0x1000 window comparing up to 0x1000 bytes, earliest position on ties, length 2 is no match;
    /// after a match of length ≥ 3 the next position is searched too and, if that match is at least
    /// two bytes longer, a literal is emitted and that match is **reused** as is. Retail SMG files.
    Nintendo,
    /// As [`Matching::Nintendo`] but comparing at most 0x111 bytes, and a 0x00 byte after a final
    /// group whose flag byte is full (variant 2; gclib's pure-Python encoder, pinned by the corpus).
    Gclib,
    /// The re-evaluating look-ahead of Whitehole's `Yaz0.compress` (variant 3/4): the look-ahead
    /// match becomes the candidate for the next position and is compared again with the one after
    /// it; unbounded compare length.
    Whitehole,
    /// oead's `yaz0.compress` at a zlib level (6..=9; oead raises lower levels to 6): zlib-ng's
    /// deflate match finder with a 4 KiB window (see the `oead` module), and a 0xFF byte after a
    /// final group whose flag byte is full. Pinned on the corpus's oead streams.
    Oead(u8),
    /// aboood40091's libyaz0 at level 9 (`szs`'s `LibYaz0` algorithm; SARC-Tool and other
    /// Python tools): the re-evaluating look-ahead of [`Matching::Whitehole`], but the look-ahead
    /// wins when it is merely one byte longer, and compares stop at 0x111 bytes.
    LibYaz0,
    /// EveryFileExplorer's `YAZ0.Compress` (Hack.io's `Encode_Fast`, and tools built on either)
    /// with a window of this many bytes (EFE: 0x400; Hack.io's "strength"): greedy, the
    /// **nearest** of the longest matches, compares stop at 0x111 bytes, and zero bytes pad the
    /// file to a multiple of 4. `identify` tries 0x400, 0x4C0 (a Galaxy layout archive of the
    /// SMG2 Project Template; level 3 of libyaz0's `0x10E0 * level / 9 - 0xE0`) and 0x1000.
    Efe(u16),
    /// MKW-SP's encoder (`szs`'s `MkwSp` algorithm, the Mario Kart Wii mod's tools): greedy,
    /// the **farthest** of the longest matches in the 0x1000 window, compares stop at 0x111
    /// bytes, nothing after the last group. Pinned on `szs`'s C version (tests/szs_oracle.rs).
    /// Wiimm's SZS tools (`wszst compress`, its default level 9) run the same loop, and its
    /// `--compr 10` is [`Matching::LibYaz0`] (both pinned on wszst's output: tests/wszst.rs).
    MkwSp,
    /// Wiimm's SZS tools (`wszst compress`) at `--compr` level 1..=8 (`--fast` is level 1): the
    /// [`Matching::MkwSp`] loop over a window of `0x10E0 * level / 9 - 0xE0` bytes (0x100 at
    /// level 1; level 9, the default, is the whole window: `MkwSp` itself). Pinned on
    /// `wszst` v2.42a's output (tests/wszst.rs).
    Wszst(u8),
    /// CTLib's encoder (`szs`'s `CTLib` algorithm; see the `ctlib` module): MKW-SP's choice
    /// over candidates listed 0x1000 positions at a time, then a 0x00 byte after a final group
    /// whose flag byte is full and zero bytes padding the file to a multiple of 4. Pinned on
    /// `szs`'s C version.
    CtLib,
}

/// An encoder choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoder {
    /// Reproduce a known encoder byte for byte.
    Matching(Matching),
    /// Hash-chain search with a short chain and one step of lazy evaluation: the speed option.
    Fast,
    /// Optimal parse (shortest path over every match length at every position): smallest output.
    Best,
}

impl Encoder {
    /// Every encoder, in the order `identify` tries the exact ones.
    pub const ALL: [Encoder; 23] = [
        Encoder::Matching(Matching::Nintendo),
        Encoder::Matching(Matching::Gclib),
        Encoder::Matching(Matching::Whitehole),
        Encoder::Matching(Matching::Oead(6)),
        Encoder::Matching(Matching::Oead(7)),
        Encoder::Matching(Matching::Oead(8)),
        Encoder::Matching(Matching::Oead(9)),
        Encoder::Matching(Matching::LibYaz0),
        Encoder::Matching(Matching::Efe(0x400)),
        Encoder::Matching(Matching::Efe(0x4C0)),
        Encoder::Matching(Matching::Efe(0x1000)),
        Encoder::Matching(Matching::MkwSp),
        Encoder::Matching(Matching::Wszst(1)),
        Encoder::Matching(Matching::Wszst(2)),
        Encoder::Matching(Matching::Wszst(3)),
        Encoder::Matching(Matching::Wszst(4)),
        Encoder::Matching(Matching::Wszst(5)),
        Encoder::Matching(Matching::Wszst(6)),
        Encoder::Matching(Matching::Wszst(7)),
        Encoder::Matching(Matching::Wszst(8)),
        Encoder::Matching(Matching::CtLib),
        Encoder::Fast,
        Encoder::Best,
    ];

    /// The name used by `gcf` (`nintendo`, `gclib`, `whitehole`, `oead-6` … `oead-9`,
    /// `libyaz0`, `efe` (window 0x400), `efe-0x4c0`, `efe-0x1000`, `mkwsp`, `wszst-1` … `wszst-8`, `ctlib`, `fast`, `best`; an EFE window
    /// outside these is `efe-custom`, which [`Encoder::from_name`] does not accept).
    pub fn name(self) -> &'static str {
        match self {
            Encoder::Matching(Matching::Nintendo) => "nintendo",
            Encoder::Matching(Matching::Gclib) => "gclib",
            Encoder::Matching(Matching::Whitehole) => "whitehole",
            Encoder::Matching(Matching::Oead(..=6)) => "oead-6",
            Encoder::Matching(Matching::Oead(7)) => "oead-7",
            Encoder::Matching(Matching::Oead(8)) => "oead-8",
            Encoder::Matching(Matching::Oead(_)) => "oead-9",
            Encoder::Matching(Matching::LibYaz0) => "libyaz0",
            Encoder::Matching(Matching::Efe(0x400)) => "efe",
            Encoder::Matching(Matching::Efe(0x4C0)) => "efe-0x4c0",
            Encoder::Matching(Matching::Efe(0x1000)) => "efe-0x1000",
            Encoder::Matching(Matching::Efe(_)) => "efe-custom",
            Encoder::Matching(Matching::MkwSp | Matching::Wszst(9..)) => "mkwsp",
            Encoder::Matching(Matching::Wszst(..=1)) => "wszst-1",
            Encoder::Matching(Matching::Wszst(2)) => "wszst-2",
            Encoder::Matching(Matching::Wszst(3)) => "wszst-3",
            Encoder::Matching(Matching::Wszst(4)) => "wszst-4",
            Encoder::Matching(Matching::Wszst(5)) => "wszst-5",
            Encoder::Matching(Matching::Wszst(6)) => "wszst-6",
            Encoder::Matching(Matching::Wszst(7)) => "wszst-7",
            Encoder::Matching(Matching::Wszst(8)) => "wszst-8",
            Encoder::Matching(Matching::CtLib) => "ctlib",
            Encoder::Fast => "fast",
            Encoder::Best => "best",
        }
    }

    /// The encoder named `name` (see [`Encoder::name`]).
    pub fn from_name(name: &str) -> Option<Encoder> {
        Encoder::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The exact encoder ([`Encoder::Matching`]) whose stream for `data` has the length nearest
    /// `len` (the first in [`Encoder::ALL`] order on a tie): what re-encodes an edited payload
    /// whose original stream no encoder reproduces, on the guess that the tool that made it
    /// decides most like the encoder that compresses as well. Runs every exact encoder once.
    pub fn closest(data: &[u8], len: usize) -> Encoder {
        Encoder::ALL
            .into_iter()
            .filter(|e| matches!(e, Encoder::Matching(_)))
            .min_by_key(|&e| crate::encode(data, e).len().abs_diff(len))
            .unwrap_or(Encoder::Matching(Matching::Nintendo))
    }

    /// Whether this encoder can write the header's reserved words `reserved`: zeros, or for oead
    /// its `data_alignment` parameter as a big-endian word at 0x08 (0x0C stays zero).
    pub fn writes_reserved(self, reserved: [u8; 8]) -> bool {
        match self {
            Encoder::Matching(Matching::Oead(_)) => matches!(reserved, [_, _, _, _, 0, 0, 0, 0]),
            _ => reserved == [0; 8],
        }
    }

    /// Bytes of working memory per input byte (the matcher's run table, the nearest-first chain's links,
    /// the optimal parse's tables; oead's tables have a fixed size), so identification can keep
    /// within [`gcio::Limits`].
    pub(crate) fn work_per_byte(self) -> u64 {
        match self {
            Encoder::Matching(Matching::Oead(_) | Matching::CtLib) | Encoder::Fast => 0,
            Encoder::Matching(Matching::Efe(_) | Matching::Wszst(_)) => 6,
            Encoder::Best => 16,
            Encoder::Matching(_) => 2,
        }
    }

    /// What this encoder appends after the last group.
    pub fn trailer(self) -> Trailer {
        match self {
            Encoder::Matching(Matching::Gclib) => Trailer::ZeroAfterFullGroup,
            Encoder::Matching(Matching::Oead(_)) => Trailer::FfAfterFullGroup,
            Encoder::Matching(Matching::Efe(_)) => Trailer::ZeroPadTo4,
            Encoder::Matching(Matching::CtLib) => Trailer::ZeroAfterFullGroupPadTo4,
            _ => Trailer::None,
        }
    }

    /// Encodes `data` into tokens.
    pub fn tokens(self, data: &[u8]) -> Vec<Token> {
        let mut out = Vec::with_capacity(data.len() / 2 + 8);
        self.run(data, &mut |t| {
            out.push(t);
            true
        });
        out
    }

    /// Feeds the tokens to `sink` until it returns `false` (so identification stops at the first
    /// token that differs from a stream).
    pub(crate) fn run(self, data: &[u8], sink: &mut impl FnMut(Token) -> bool) {
        match self {
            Encoder::Matching(Matching::Nintendo) => lookahead_reuse(data, 0x1000, sink),
            Encoder::Matching(Matching::Gclib) => lookahead_reuse(data, MAX_LEN, sink),
            Encoder::Matching(Matching::Whitehole) => {
                lookahead_reevaluate(data, usize::MAX, 2, sink)
            }
            Encoder::Matching(Matching::LibYaz0) => lookahead_reevaluate(data, MAX_LEN, 1, sink),
            Encoder::Matching(Matching::Efe(window)) => {
                nearest_greedy(data, usize::from(window), sink)
            }
            Encoder::Matching(Matching::Oead(level)) => crate::oead::oead(data, level, sink),
            Encoder::Matching(Matching::MkwSp) => farthest_greedy(data, sink),
            Encoder::Matching(Matching::Wszst(level)) => {
                let level = usize::from(level.clamp(1, 9));
                farthest_within(data, 0x10E0 * level / 9 - 0xE0, sink)
            }
            Encoder::Matching(Matching::CtLib) => crate::ctlib::ctlib(data, sink),
            Encoder::Fast => crate::fast::fast(data, sink),
            Encoder::Best => crate::best::best(data, sink),
        }
    }
}

/// Bytes an encoder writes after the last token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trailer {
    /// Nothing.
    None,
    /// One 0x00 byte when the last flag byte's eight tokens are all used or there are no tokens
    /// (gclib).
    ZeroAfterFullGroup,
    /// One 0xFF byte in the same case (oead: its group byte is written as 0xFF before the
    /// group's tokens are known).
    FfAfterFullGroup,
    /// Zero bytes up to the next multiple of 4 of the file's length (EveryFileExplorer).
    ZeroPadTo4,
    /// [`Trailer::ZeroAfterFullGroup`], then [`Trailer::ZeroPadTo4`] (CTLib: it opens the next
    /// group before it knows the input has ended).
    ZeroAfterFullGroupPadTo4,
}

impl Trailer {
    /// The trailing bytes for a stream of `token_count` tokens whose last token ends at file
    /// offset `end` (header included).
    pub fn bytes(self, token_count: usize, end: usize) -> Vec<u8> {
        match self {
            Trailer::ZeroAfterFullGroup if token_count.is_multiple_of(8) => vec![0],
            Trailer::FfAfterFullGroup if token_count.is_multiple_of(8) => vec![0xFF],
            Trailer::ZeroPadTo4 => vec![0; end.next_multiple_of(4) - end],
            Trailer::ZeroAfterFullGroupPadTo4 => {
                let end = end + usize::from(token_count.is_multiple_of(8));
                vec![0; end.next_multiple_of(4) - end + usize::from(token_count.is_multiple_of(8))]
            }
            _ => Vec::new(),
        }
    }
}

/// Nintendo-style look-ahead that reuses the look-ahead match (variants 1 and 2).
fn lookahead_reuse(data: &[u8], cap: usize, sink: &mut impl FnMut(Token) -> bool) {
    let mut m = Matcher::new(data, true);
    let mut pos = 0;
    let mut pending: Option<(usize, usize)> = None;
    while pos < data.len() {
        let (len, dist) = match pending.take() {
            Some(p) => p,
            None => {
                let (len, dist) = m.longest(pos, cap);
                if len >= 3 {
                    let next = m.longest_from(pos + 1, cap, len + 2);
                    if next.0 >= len + 2 {
                        pending = Some(next);
                        (0, 0)
                    } else {
                        (len, dist)
                    }
                } else {
                    (0, 0)
                }
            }
        };
        match emit(sink, data, pos, len, dist) {
            Some(n) => pos += n,
            None => return,
        }
    }
}

/// Re-evaluating look-ahead (Whitehole with `margin` 2 and unbounded compares, libyaz0 with
/// `margin` 1 and compares capped at 0x111): a literal is emitted when the next position's match
/// is at least `margin` bytes longer, and that match is re-evaluated against the one after it.
fn lookahead_reevaluate(
    data: &[u8],
    cap: usize,
    margin: usize,
    sink: &mut impl FnMut(Token) -> bool,
) {
    let mut m = Matcher::new(data, true);
    let mut pos = 0;
    // `None` = search at `pos`; `Some(c)` = candidate carried over from the previous look-ahead.
    let mut carried: Option<(usize, usize)> = Some((0, 0));
    while pos < data.len() {
        let cur = match carried.take() {
            Some(c) => c,
            None => m.longest(pos, cap),
        };
        // With a current match only a look-ahead at least `margin` longer matters; without one,
        // the look-ahead is carried to the next position and must be exact.
        let min = if cur.0 >= 3 { cur.0 + margin } else { 3 };
        let next = m.longest_from(pos + 1, cap, min);
        let (len, dist) = if next.0 >= cur.0 + margin {
            (0, 0)
        } else {
            cur
        };
        match emit(sink, data, pos, len, dist) {
            Some(n) => pos += n,
            None => return,
        }
        if len < 3 {
            carried = Some(next);
        }
    }
}

/// Greedy, the farthest of the longest matches in the whole window, compares capped at 0x111
/// (MKW-SP's loop walks the window oldest-first and keeps a candidate only when strictly longer).
fn farthest_greedy(data: &[u8], sink: &mut impl FnMut(Token) -> bool) {
    let mut m = Matcher::new(data, true);
    let mut pos = 0;
    while pos < data.len() {
        let (len, dist) = m.longest(pos, MAX_LEN);
        match emit(sink, data, pos, len, dist) {
            Some(n) => pos += n,
            None => return,
        }
    }
}

/// [`farthest_greedy`] within a window of `window` bytes (Wiimm's compression levels).
fn farthest_within(data: &[u8], window: usize, sink: &mut impl FnMut(Token) -> bool) {
    let mut m = Matcher::new(data, false);
    let mut pos = 0;
    while pos < data.len() {
        let (len, dist) = m.farthest(pos, window);
        match emit(sink, data, pos, len, dist) {
            Some(n) => pos += n,
            None => return,
        }
    }
}

/// Greedy, the nearest of the longest matches within `window` bytes (EveryFileExplorer's loop
/// walks back from the previous byte and keeps a candidate only when it is strictly longer).
fn nearest_greedy(data: &[u8], window: usize, sink: &mut impl FnMut(Token) -> bool) {
    let mut m = Matcher::new(data, false);
    let mut pos = 0;
    while pos < data.len() {
        let (len, dist) = m.nearest(pos, window);
        match emit(sink, data, pos, len, dist) {
            Some(n) => pos += n,
            None => return,
        }
    }
}
