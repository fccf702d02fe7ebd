//! Text encodings of strings stored in game files (table cells, archive and model names) and the
//! lossless escaped form used wherever they become text (CSV, JSON, file names, terminals).
//!
//! GameCube and Wii files hold Shift-JIS; the Switch port of Galaxy 1 holds UTF-8. Bytes that do
//! not decode (or do not re-encode to the same bytes) are written as `\xHH`, a backslash as `\\`,
//! so any byte string survives `bytes -> text -> bytes` exactly.

use std::borrow::Cow;
use std::fmt::Write as _;

use encoding_rs::SHIFT_JIS;

/// How string cells are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Shift-JIS (Wii / GameCube tables).
    #[default]
    ShiftJis,
    /// UTF-8 (Switch port, little-endian tables).
    Utf8,
}

impl Encoding {
    /// The encoding a table of this byte order uses: Shift-JIS for big-endian, UTF-8 for little.
    pub fn for_endian(endian: crate::Endian) -> Self {
        match endian {
            crate::Endian::Big => Encoding::ShiftJis,
            crate::Endian::Little => Encoding::Utf8,
        }
    }

    /// Name used in CSV/JSON metadata.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::ShiftJis => "shift-jis",
            Encoding::Utf8 => "utf-8",
        }
    }

    /// Parses [`Encoding::name`] (also `sjis`, `shift_jis`, `utf8`).
    pub fn from_name(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "shift-jis" | "sjis" | "shift-jisx0213" => Some(Encoding::ShiftJis),
            "utf-8" | "utf8" => Some(Encoding::Utf8),
            _ => None,
        }
    }

    /// Strict decode; `Err(i)` gives the index of the first byte that does not decode.
    #[inline]
    pub fn decode(self, bytes: &[u8]) -> Result<Cow<'_, str>, usize> {
        // ASCII (most game strings) inline; the rest out of line.
        if bytes.is_ascii()
            && let Ok(s) = std::str::from_utf8(bytes)
        {
            return Ok(Cow::Borrowed(s));
        }
        self.decode_text(bytes)
    }

    #[inline(never)]
    fn decode_text(self, bytes: &[u8]) -> Result<Cow<'_, str>, usize> {
        if bytes.is_ascii() {
            return std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|_| 0);
        }
        match self {
            Encoding::Utf8 => std::str::from_utf8(bytes)
                .map(Cow::Borrowed)
                .map_err(|e| e.valid_up_to()),
            Encoding::ShiftJis => {
                if let Some(s) = sjis_lossless(bytes) {
                    return Ok(s);
                }
                let mut i = 0;
                while i < bytes.len() {
                    match sjis_char(bytes, i) {
                        Some((_, n)) => i += n,
                        None => return Err(i),
                    }
                }
                SHIFT_JIS
                    .decode_without_bom_handling_and_without_replacement(bytes)
                    .ok_or(0)
            }
        }
    }

    /// The lossless escaped text of `bytes` (see the module docs).
    pub fn to_text(self, bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len() + 2);
        match self {
            Encoding::Utf8 => {
                for chunk in bytes.utf8_chunks() {
                    push_escaped(&mut out, chunk.valid());
                    for b in chunk.invalid() {
                        let _ = write!(out, "\\x{b:02X}");
                    }
                }
            }
            Encoding::ShiftJis => match sjis_lossless(bytes) {
                Some(s) => push_escaped(&mut out, &s),
                None => sjis_per_char(&mut out, bytes),
            },
        }
        out
    }

    /// Reverses [`Encoding::to_text`]: unescapes and encodes. Fails on a character the encoding
    /// cannot represent.
    pub fn from_text(self, text: &str) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(text.len());
        let mut run = String::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                run.push(c);
                continue;
            }
            let rest = text.get(i + 1..).unwrap_or("");
            if rest.starts_with('\\') {
                run.push('\\');
                chars.next();
            } else if let Some(b) = rest
                .strip_prefix('x')
                .and_then(|r| r.get(..2))
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                self.encode_into(&run, &mut out)?;
                run.clear();
                out.push(b);
                for _ in 0..3 {
                    chars.next();
                }
            } else {
                run.push('\\');
            }
        }
        self.encode_into(&run, &mut out)?;
        Ok(out)
    }

    fn encode_into(self, s: &str, out: &mut Vec<u8>) -> Result<(), String> {
        match self {
            Encoding::Utf8 => out.extend_from_slice(s.as_bytes()),
            Encoding::ShiftJis if s.is_ascii() => out.extend_from_slice(s.as_bytes()),
            Encoding::ShiftJis => {
                let (bytes, _, bad) = SHIFT_JIS.encode(s);
                if bad {
                    let c = s
                        .chars()
                        .find(|c| SHIFT_JIS.encode(&c.to_string()).2)
                        .unwrap_or('?');
                    return Err(format!("{c:?} has no Shift-JIS encoding"));
                }
                out.extend_from_slice(&bytes);
            }
        }
        Ok(())
    }
}

/// Escapes backslashes and NULs so the text form stays unambiguous.
fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\x00"),
            c => out.push(c),
        }
    }
}

/// First bytes of the only Shift-JIS characters that may not re-encode to themselves: 0x80
/// (decoded as U+0080), NEC row 13 (lead 0x87, some duplicated in JIS X 0208 row 2), and leads
/// from 0xED on (NEC-selected IBM extensions encoded as the IBM ones, the user-defined area decoded
/// to the Private Use Area, IBM extensions duplicated in row 13).
#[inline]
fn may_differ(b: u8) -> bool {
    b == 0x80 || b == 0x87 || b >= 0xED
}

/// True when a character of `bytes` (a strictly decoded Shift-JIS string) starts with a byte
/// [`may_differ`] accepts. Only first bytes count: a trail byte (0x40..=0xFC) is part of a
/// character whose lead decides (checked for every one- and two-byte sequence by a test).
#[inline]
fn has_lossy_lead(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if may_differ(b) {
            return true;
        }
        i += match b {
            0x81..=0x9F | 0xE0..=0xFC => 2,
            _ => 1,
        };
    }
    false
}

/// The whole string decoded in one pass when it re-encodes to the same bytes (the common case:
/// Shift-JIS is stateless, so the whole string round-trips exactly when every character does);
/// `None` sends the caller to the per-character path, which finds the byte that does not.
fn sjis_lossless(bytes: &[u8]) -> Option<Cow<'_, str>> {
    let s = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(bytes)?;
    // encoding_rs maps a lone 0x80 to U+0080 and back; the game's tables treat it as no
    // character, as the per-character path does.
    if s.contains('\u{80}') {
        return None;
    }
    // Only characters whose first byte [`may_differ`] accepts can re-encode differently: without
    // one, decoding was lossless.
    if !has_lossy_lead(bytes) {
        return Some(s);
    }
    let (back, _, bad) = SHIFT_JIS.encode(&s);
    (!bad && back.as_ref() == bytes).then_some(s)
}

/// The escaped text character by character: a byte that does not start a lossless character is
/// written as `\xHH`.
fn sjis_per_char(out: &mut String, bytes: &[u8]) {
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match sjis_char(bytes, i) {
            Some((s, n)) => {
                push_escaped(out, &s);
                i += n;
            }
            None => {
                let _ = write!(out, "\\x{b:02X}");
                i += 1;
            }
        }
    }
}

/// One Shift-JIS character at `i` that decodes and re-encodes to the same bytes, with its length.
fn sjis_char(bytes: &[u8], i: usize) -> Option<(Cow<'_, str>, usize)> {
    let b = *bytes.get(i)?;
    let n = match b {
        0x00..=0x7F | 0xA1..=0xDF => 1,
        0x81..=0x9F | 0xE0..=0xFC => 2,
        _ => return None,
    };
    let ch = bytes.get(i..i + n)?;
    if n == 1 && b < 0x80 {
        return std::str::from_utf8(ch).ok().map(|s| (Cow::Borrowed(s), 1));
    }
    let s = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(ch)?;
    let (back, _, bad) = SHIFT_JIS.encode(&s);
    (!bad && back.as_ref() == ch).then(|| (Cow::Owned(s.into_owned()), n))
}

/// Lowercase hex of `bytes` (metadata in CSV/JSON).
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Parses [`to_hex`] output.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_round_trip() {
        let e = Encoding::ShiftJis;
        let mario = [0x83, 0x7D, 0x83, 0x8A, 0x83, 0x49];
        assert_eq!(e.decode(&mario).unwrap(), "マリオ");
        assert_eq!(e.to_text(&mario), "マリオ");
        assert_eq!(e.from_text("マリオ").unwrap(), mario);
        assert_eq!(e.to_text(&[0xB6, 0xC0]), "ｶﾀ");
        let bad = [b'a', 0x83, 0xFF, b'\\', 0x80, 0];
        assert_eq!(e.decode(&bad), Err(1));
        let t = e.to_text(&bad);
        assert_eq!(t, "a\\x83\\xFF\\\\\\x80\\x00");
        assert_eq!(e.from_text(&t).unwrap(), bad);
        assert!(e.from_text("😀").is_err());
        assert_eq!(e.from_text("a\\q").unwrap(), b"a\\q");
    }

    #[test]
    fn utf8_round_trip() {
        let e = Encoding::Utf8;
        let bytes = "ギャラ"
            .as_bytes()
            .iter()
            .copied()
            .chain([0xFF, b'x'])
            .collect::<Vec<_>>();
        assert_eq!(e.decode(&bytes), Err(9));
        let t = e.to_text(&bytes);
        assert_eq!(t, "ギャラ\\xFFx");
        assert_eq!(e.from_text(&t).unwrap(), bytes);
    }

    proptest::proptest! {
        /// The one-pass decode accepts a string only when the per-character path would render
        /// it the same way (no byte escaped), and `decode` agrees with it.
        #[test]
        fn one_pass_agrees_with_per_character(bytes in proptest::collection::vec(
            proptest::prop_oneof![0x20u8..0x7F, 0x81u8..0xA0, 0xA1u8..0xE0, 0xE0u8..0xFD, proptest::arbitrary::any::<u8>()],
            0..24,
        )) {
            let mut slow = String::new();
            sjis_per_char(&mut slow, &bytes);
            if let Some(s) = sjis_lossless(&bytes) {
                let mut fast = String::new();
                push_escaped(&mut fast, &s);
                proptest::prop_assert_eq!(&fast, &slow);
            } else {
                proptest::prop_assert!(slow.contains("\\x") || bytes.is_empty());
            }
            proptest::prop_assert_eq!(Encoding::ShiftJis.to_text(&bytes), slow);
        }
    }

    #[test]
    fn may_differ_covers_every_lossy_character() {
        // Every one- and two-byte sequence that decodes strictly and has no character starting
        // with a byte [`may_differ`] accepts re-encodes to the same bytes (Shift-JIS is
        // stateless: strings follow).
        for a in 0..=255u8 {
            for b in (0..=255u8).map(Some).chain([None]) {
                let seq: Vec<u8> = std::iter::once(a).chain(b).collect();
                if has_lossy_lead(&seq) {
                    continue;
                }
                if let Some(s) = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&seq)
                {
                    let (back, _, bad) = SHIFT_JIS.encode(&s);
                    assert!(!bad && back.as_ref() == seq.as_slice(), "{seq:02X?}");
                }
            }
        }
        // Trail bytes from 0xED on or 0x80 alone no longer send a string to the exact check.
        assert!(!has_lossy_lead(&[0x83, 0xED, 0x83, 0x80, 0x41]));
        assert!(has_lossy_lead(&[0x41, 0x87, 0x40]));
        assert!(has_lossy_lead(&[0x83, 0x40, 0xED, 0x40]));
    }

    #[test]
    fn hex() {
        assert_eq!(to_hex(&[0x40, 0xAB]), "40ab");
        assert_eq!(from_hex("40ab"), Some(vec![0x40, 0xAB]));
        assert_eq!(from_hex("4"), None);
        assert_eq!(from_hex("zz"), None);
    }
}
