#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Each encoder pinned on hand-built inputs whose token streams are worked out by hand, plus
//! properties: every encoder decodes back; arbitrary bytes never panic the decoder.

use proptest::prelude::*;
use yaz0::{Encoder, Matching, Stream, Token};

const NINTENDO: Encoder = Encoder::Matching(Matching::Nintendo);
const GCLIB: Encoder = Encoder::Matching(Matching::Gclib);
const WHITEHOLE: Encoder = Encoder::Matching(Matching::Whitehole);
const LIBYAZ0: Encoder = Encoder::Matching(Matching::LibYaz0);
const EFE: Encoder = Encoder::Matching(Matching::Efe(0x400));

fn lit(s: &[u8]) -> Vec<Token> {
    s.iter().map(|&b| Token::Literal(b)).collect()
}

fn m(dist: u16, len: u16) -> Token {
    Token::Match { dist, len }
}

/// "abcabcabc": literals a b c, then at 3 the longest match is "abcabc" (6 bytes, distance 3,
/// overlapping); position 4 offers only 5 ("bcabc"), which is not 2 longer, so the match stays.
#[test]
fn simple_repeat_all_exact_encoders() {
    let data = b"abcabcabc";
    let want = [lit(b"abc"), vec![m(3, 6)]].concat();
    for e in [NINTENDO, GCLIB, WHITEHOLE, Encoder::Best] {
        assert_eq!(e.tokens(data), want, "{e:?}");
    }
}

/// Look-ahead with reuse: "pqrqrstu#pqrstu". At 9 "pqr" matches position 0 for 3 bytes; at 10
/// "qrstu" matches position 3 for 5 bytes (>= 3 + 2), so 'p' is a literal and the 5-byte match
/// (distance 7) follows. Earlier, "qr" at 3 repeats only 2 bytes: literals.
#[test]
fn lookahead_literal_then_reuse() {
    let data = b"pqrqrstu#pqrstu";
    let want = [lit(b"pqrqrstu#p"), vec![m(7, 5)]].concat();
    for e in [NINTENDO, GCLIB, WHITEHOLE] {
        assert_eq!(e.tokens(data), want, "{e:?}");
    }
}

/// Tokens from output position `pos` on.
fn tail(tokens: &[Token], pos: usize) -> Vec<Token> {
    let mut at = 0;
    let mut out = Vec::new();
    for t in tokens {
        if at >= pos {
            out.push(*t);
        }
        at += t.output_len();
    }
    out
}

/// Reuse versus re-evaluation: at p = 18 ("ABCDEFGHI") the match is "ABC" (3 bytes, distance 18),
/// at p + 1 "BCDEF" (5, distance 15), at p + 2 "CDEFGHI" (7, distance 10). Nintendo emits 'A' and
/// reuses the 5-byte match, then "GHI" (3, distance 10). Whitehole compares the carried 5-byte
/// match with p + 2 again (7 > 5 + 1), emits 'B' too and then the 7-byte match.
#[test]
fn nintendo_reuses_whitehole_reevaluates() {
    let data = b"ABC0BCDEF1CDEFGHI2ABCDEFGHI";
    let p = 18;
    assert_eq!(
        tail(&NINTENDO.tokens(data), p),
        [lit(b"A"), vec![m(15, 5), m(10, 3)]].concat()
    );
    assert_eq!(
        tail(&WHITEHOLE.tokens(data), p),
        [lit(b"AB"), vec![m(10, 7)]].concat()
    );
    // The prefix is the same for both: "CDEF" at 10 repeats "CDEF" at 5.
    assert_eq!(NINTENDO.tokens(data)[10], m(5, 4));
}

/// Compare caps: a 0x150-byte repeat seen twice: Nintendo compares up to 0x1000 and prefers the
/// longer true match; gclib stops at 0x111 and takes the earliest of the equal matches.
#[test]
fn compare_cap_changes_the_distance() {
    let block: Vec<u8> = (0..0x150u32).map(|i| (i * 7 % 251) as u8 ^ 0x5A).collect();
    let mut data = block.clone();
    data.truncate(0x120); // first copy: only 0x120 bytes of the block
    data.push(0xEE);
    data.extend_from_slice(&block); // second copy: the whole block
    data.push(0xEF);
    data.extend_from_slice(&block); // third copy: matches the second for 0x150 bytes
    let third = data.len() - block.len();
    let second = 0x121;
    let n = NINTENDO.tokens(&data);
    let g = GCLIB.tokens(&data);
    let tok_at = |ts: &[Token], pos: usize| {
        let mut at = 0;
        for t in ts {
            if at == pos {
                return *t;
            }
            at += t.output_len();
        }
        panic!("no token at {pos:#x}");
    };
    // Nintendo: the second copy's 0x150-byte match wins (distance third - second).
    assert_eq!(tok_at(&n, third), m((third - second) as u16, 0x111));
    // gclib: both copies match 0x111 capped bytes; the earliest (first copy, distance third) wins.
    assert_eq!(tok_at(&g, third), m(third as u16, 0x111));
}

/// libyaz0 takes the look-ahead when it is one byte longer: "pqrXqrstYpqrst". At 9 "pqr" matches
/// position 0 (3 bytes), at 10 "qrst" matches position 4 (4 bytes). libyaz0 emits 'p' and the
/// 4-byte match; Whitehole (and Nintendo) want two more bytes and keep "pqr", leaving "st".
#[test]
fn libyaz0_takes_a_lookahead_one_longer() {
    let data = b"pqrXqrstYpqrst";
    assert_eq!(
        LIBYAZ0.tokens(data),
        [lit(b"pqrXqrstYp"), vec![m(6, 4)]].concat()
    );
    for e in [WHITEHOLE, NINTENDO] {
        assert_eq!(
            e.tokens(data),
            [lit(b"pqrXqrstY"), vec![m(9, 3)], lit(b"st")].concat()
        );
    }
}

/// EveryFileExplorer keeps the nearest of equally long matches ("abc" at 8 repeats both 0 and
/// 4, after "abc" at 4 took the only one), the others the farthest; its window ends at 0x400 bytes (or the configured size).
#[test]
fn efe_nearest_on_ties_and_its_window() {
    let data = b"abcXabcYabc";
    let with = |d| [lit(b"abcX"), vec![m(4, 3)], lit(b"Y"), vec![m(d, 3)]].concat();
    assert_eq!(EFE.tokens(data), with(4));
    assert_eq!(NINTENDO.tokens(data), with(8));
    let far: Vec<u8> = [&b"wxyz"[..], &vec![0x55; 0x400], b"wxyz"].concat();
    let last = |e: Encoder| *e.tokens(&far).last().unwrap();
    assert_eq!(last(EFE), Token::Literal(b'z'));
    assert_eq!(last(Encoder::Matching(Matching::Efe(0x4C0))), m(0x404, 4));
    assert_eq!(last(NINTENDO), m(0x404, 4));
    assert_eq!(
        Encoder::from_name("efe-0x4c0"),
        Some(Encoder::Matching(Matching::Efe(0x4C0)))
    );
    assert_eq!(Encoder::Matching(Matching::Efe(0x200)).name(), "efe-custom");
    assert_eq!(Encoder::from_name("efe-custom"), None);
}

/// EveryFileExplorer pads the file with zeros to a multiple of 4; identification checks it.
#[test]
fn efe_pads_to_four() {
    // 16 + 1 flag byte + 7 literals = 24: no padding; 8 literals: 25, padded to 28.
    assert_eq!(yaz0::encode(b"abcdefg", EFE).len(), 24);
    let e = yaz0::encode(b"abcdefgh", EFE);
    assert_eq!((e.len(), &e[25..]), (28, &[0u8, 0, 0][..]));
    let s = Stream::parse(&e).unwrap();
    assert!(s.identify(b"abcdefgh").contains(&EFE));
    let mut unpadded = Stream::parse(&e).unwrap();
    unpadded.trailing.clear();
    assert!(!unpadded.identify(b"abcdefgh").contains(&EFE));
}

/// Identification keeps within the limits: an encoder whose per-byte tables would pass them is
/// not run (oead's fixed-size tables always fit).
#[test]
fn identification_within_limits() {
    let data = b"abcabcabc-abcabcabc-".repeat(20);
    let s = Stream::parse(&yaz0::encode(&data, NINTENDO)).unwrap();
    assert!(s.identify(&data).contains(&NINTENDO));
    let tight = gcio::Limits {
        max_alloc_bytes: data.len() as u64,
        ..gcio::Limits::default()
    };
    assert!(!s.identify_with(&data, &tight).contains(&NINTENDO));
    // A payload of another length is never reproduced.
    assert!(s.identify(&data[1..]).is_empty());
}

#[test]
fn trailers_and_empty_inputs() {
    assert_eq!(yaz0::encode(b"", NINTENDO).len(), 16);
    assert_eq!(
        yaz0::encode(b"", GCLIB),
        [&b"Yaz0"[..], &[0; 12], &[0]].concat()
    );
    // Eight literals fill a group: gclib appends 0x00.
    let e = yaz0::encode(b"01234567", GCLIB);
    assert_eq!(e.len(), 16 + 1 + 8 + 1);
    assert_eq!(yaz0::encode(b"01234567", NINTENDO).len(), 16 + 1 + 8);
    // CTLib opens the next group before it sees the end (0x00), then pads to 4.
    let ctlib = Encoder::Matching(Matching::CtLib);
    assert_eq!(
        yaz0::encode(b"", ctlib),
        [&b"Yaz0"[..], &[0; 12], &[0; 4]].concat()
    );
    let e = yaz0::encode(b"01234567", ctlib);
    assert_eq!((e.len(), &e[25..]), (28, &[0u8, 0, 0][..]));
    assert_eq!(yaz0::encode(b"0123456", ctlib).len(), 16 + 1 + 7);
}

/// oead at level 7 (zlib's lazy matching over 3-byte hash chains) on "abcabcabc": position 0 is
/// zlib's empty-chain marker and never matches, so the repeat at 3 finds nothing; at 4 "bcabc"
/// matches position 1 for 5 bytes (all that is left); the lazy step first emits 'a' for
/// position 3, then keeps the match because position 5 only offers 4. Level 6 (4-byte hash,
/// one match plus one look-ahead) makes the same decisions here.
#[test]
fn oead_position_zero_never_matches() {
    let want = [lit(b"abca"), vec![m(3, 5)]].concat();
    for level in [6, 7, 8, 9] {
        assert_eq!(
            Encoder::Matching(Matching::Oead(level)).tokens(b"abcabcabc"),
            want,
            "level {level}"
        );
    }
}

/// "-xyzQxyzR": at 5 "xyz" repeats position 1 for exactly 3 bytes. Levels 7–9 hash 3 bytes and
/// take it (the lazy step emits 'Q' first, then the match since position 6 offers nothing);
/// level 6 hashes 4 bytes ("xyzR" ≠ "xyzQ"), finds no candidate and writes literals only.
#[test]
fn oead_level_6_misses_three_byte_matches() {
    let data = b"-xyzQxyzR";
    let want = [lit(b"-xyzQ"), vec![m(4, 3)], lit(b"R")].concat();
    for level in [7, 8, 9] {
        assert_eq!(
            Encoder::Matching(Matching::Oead(level)).tokens(data),
            want,
            "level {level}"
        );
    }
    assert_eq!(Encoder::Matching(Matching::Oead(6)).tokens(data), lit(data));
}

/// zlib's classic hash drops the first byte's top two bits, so "c0 00 00" shares the chain of
/// "00 00 00". Input: 55 c0 00 00 11, 300 zeros, 22 c0 00 00 33. Both levels take the zero run
/// as 00 then matches 1 back of 258 and 41 bytes (a match of `max_lazy` or more is not
/// re-examined). At 306 "c0 00 00" repeats position 1, but its chain first holds the run's 298
/// zero positions: level 7 gives up after 256 candidates (literals), level 8 walks 1024 and
/// takes the 3-byte match 305 back.
#[test]
fn oead_level_7_chain_limit_behind_zero_runs() {
    let data = [
        &[0x55, 0xC0, 0, 0, 0x11][..],
        &[0; 300],
        &[0x22, 0xC0, 0, 0, 0x33],
    ]
    .concat();
    let head = [lit(&[0x55, 0xC0, 0, 0, 0x11, 0]), vec![m(1, 258), m(1, 41)]].concat();
    let l7 = [head.clone(), lit(&[0x22, 0xC0, 0, 0, 0x33])].concat();
    let l8 = [head, lit(&[0x22]), vec![m(305, 3)], lit(&[0x33])].concat();
    assert_eq!(Encoder::Matching(Matching::Oead(7)).tokens(&data), l7);
    assert_eq!(Encoder::Matching(Matching::Oead(8)).tokens(&data), l8);
    assert_eq!(Encoder::Matching(Matching::Oead(9)).tokens(&data), l8);
}

/// oead writes each group byte as 0xFF before its tokens are known: an empty input or a full
/// last group leaves one 0xFF byte at the end. Its `data_alignment` word at 0x08 is accepted by
/// `identify`; other encoders need all-zero reserved words.
#[test]
fn oead_trailer_and_alignment_word() {
    let o7 = Encoder::Matching(Matching::Oead(7));
    assert_eq!(
        yaz0::encode(b"", o7),
        [&b"Yaz0"[..], &[0; 12], &[0xFF]].concat()
    );
    assert_eq!(yaz0::encode(b"01234567", o7).len(), 16 + 1 + 8 + 1);
    assert_eq!(yaz0::encode(b"0123456", o7).len(), 16 + 1 + 7);
    let mut s = Stream::encode(b"0123456", o7);
    s.header.reserved = [0, 0, 0, 0x80, 0, 0, 0, 0];
    let ids = s.identify(b"0123456");
    assert!(ids.contains(&o7) && !ids.contains(&NINTENDO));
    assert_eq!(Encoder::from_name("oead-7"), Some(o7));
}

#[test]
fn best_is_never_larger_than_nintendo() {
    let text = b"the quick brown fox jumps over the lazy dog; the lazy dog sleeps; the fox runs. "
        .repeat(20);
    let best = yaz0::encode(&text, Encoder::Best).len();
    let nin = yaz0::encode(&text, NINTENDO).len();
    assert!(best <= nin, "best {best} > nintendo {nin}");
}

#[test]
fn decoder_errors_have_offsets() {
    let header = |size: u32| [&b"Yaz0"[..], &size.to_be_bytes(), &[0; 8]].concat();
    // Back-reference before the start.
    let bad = [header(3), vec![0x00, 0x10, 0x00]].concat();
    let e = yaz0::decode(&bad).unwrap_err();
    assert_eq!(e.offset(), Some(0x11));
    assert!(e.to_string().contains("before the start"), "{e}");
    // Truncated.
    let e = yaz0::decode(&[header(4), vec![0xFF, 1, 2]].concat()).unwrap_err();
    assert_eq!(e.offset(), Some(0x13));
    // Over-long: a back-reference past the declared size.
    let e = yaz0::decode(&[header(4), vec![0xC0, 1, 2, 0x20, 0x01]].concat()).unwrap_err();
    assert!(e.to_string().contains("past the declared size"), "{e}");
    // Declared size over the limit: refused before allocating.
    let e = yaz0::decode(&header(u32::MAX)).unwrap_err();
    assert!(matches!(e.kind(), gcio::ErrorKind::Limit { .. }), "{e}");
    assert!(yaz0::decode(b"Yaz1").is_err());
    let mut small = [0u8; 2];
    assert!(yaz0::decode_into(&[header(3), vec![0xE0, 1, 2, 3]].concat(), &mut small).is_err());
}

/// Golden table: (payload, Yaz0 bytes after the header) written by hand; drives decode, the stream
/// model and the Nintendo encoder.
const GOLDEN: &[(&[u8], &[u8])] = &[
    (b"", b""),
    (b"a", &[0x80, b'a']),
    (b"aaaa", &[0x80, b'a', 0x10, 0x00]),
    (b"abcabcabc", &[0xE0, b'a', b'b', b'c', 0x40, 0x02]),
    (&[7; 0x20], &[0x80, 7, 0x00, 0x00, 0x0D]),
];

#[test]
fn golden_table() {
    for (payload, body) in GOLDEN {
        let file = [
            &b"Yaz0"[..],
            &(payload.len() as u32).to_be_bytes(),
            &[0; 8],
            body,
        ]
        .concat();
        assert_eq!(yaz0::decode(&file).unwrap(), *payload);
        assert_eq!(Stream::parse(&file).unwrap().write(), file);
        assert_eq!(yaz0::encode(payload, NINTENDO), file, "{payload:?}");
    }
}

#[test]
fn yay0_round_trip() {
    let data = b"Yay0 shares Yaz0's tokens; Yay0 shares Yaz0's tokens!".repeat(3);
    for e in Encoder::ALL {
        let s = yaz0::yay0::Stream::encode(&data, e);
        let bytes = s.write();
        assert_eq!(yaz0::yay0::decode(&bytes).unwrap(), data);
        let back = yaz0::yay0::Stream::parse(&bytes).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.write(), bytes);
    }
}

#[test]
fn fuzz_seeds() {
    for seed in [
        &b""[..],
        b"Yaz0",
        b"Yaz0\0\0\0\x10\0\0\0\0\0\0\0\0\x00\x00\x00",
        b"Yay0\0\0\0\x04\0\0\0\x14\0\0\0\x14\xff\xff\xff\xffabcd",
        b"Yay0\0\0\0\x04\0\0\0\x02\0\0\0\x01",
    ] {
        yaz0::fuzz_decode(seed);
    }
    yaz0::fuzz_decode(&yaz0::encode(b"hello hello hello", NINTENDO));
}

/// The documented algorithms, brute force (O(n × window)): longest match in the 0x1000 window
/// comparing at most `cap` bytes, earliest position on ties. The optimised encoders must agree.
fn brute_longest(data: &[u8], pos: usize, cap: usize) -> (usize, usize) {
    let max = cap.min(data.len().saturating_sub(pos));
    let (mut best, mut at) = (0, 0);
    for i in pos.saturating_sub(0x1000)..pos {
        let l = (0..max)
            .take_while(|&k| data[i + k] == data[pos + k])
            .count();
        if l > best {
            best = l;
            at = i;
        }
    }
    if best < 3 { (0, 0) } else { (best, pos - at) }
}

/// Appends the token for a decision at `pos` (a match of `len` ≥ 3, clamped to 0x111, else a
/// literal); returns the bytes it covers.
fn push(out: &mut Vec<Token>, data: &[u8], pos: usize, len: usize, dist: usize) -> usize {
    let t = if len >= 3 {
        m(dist as u16, len.min(0x111) as u16)
    } else {
        Token::Literal(data[pos])
    };
    out.push(t);
    t.output_len()
}

fn brute_reuse(data: &[u8], cap: usize) -> Vec<Token> {
    let (mut out, mut pos, mut pending) = (Vec::new(), 0, None);
    while pos < data.len() {
        let (len, dist) = match pending.take() {
            Some(p) => p,
            None => {
                let cur = brute_longest(data, pos, cap);
                let next = if cur.0 >= 3 {
                    brute_longest(data, pos + 1, cap)
                } else {
                    (0, 0)
                };
                if cur.0 >= 3 && next.0 >= cur.0 + 2 {
                    pending = Some(next);
                    (0, 0)
                } else {
                    cur
                }
            }
        };
        pos += push(&mut out, data, pos, len, dist);
    }
    out
}

/// Whitehole (`cap` unbounded, `margin` 2) and libyaz0 (`cap` 0x111, `margin` 1).
fn brute_reevaluate(data: &[u8], cap: usize, margin: usize) -> Vec<Token> {
    let (mut out, mut pos, mut carried) = (Vec::new(), 0, Some((0, 0)));
    while pos < data.len() {
        let cur = carried
            .take()
            .unwrap_or_else(|| brute_longest(data, pos, cap));
        let next = brute_longest(data, pos + 1, cap);
        let (len, dist) = if next.0 >= cur.0 + margin {
            (0, 0)
        } else {
            cur
        };
        pos += push(&mut out, data, pos, len, dist);
        if len < 3 {
            carried = Some(next);
        }
    }
    out
}

/// EveryFileExplorer: greedy; candidates from the previous byte back to `window`, the first of
/// the longest (so the nearest) wins; 3 bytes at least, compares stop at 0x111.
fn brute_efe(data: &[u8], window: usize) -> Vec<Token> {
    let (mut out, mut pos) = (Vec::new(), 0);
    while pos < data.len() {
        let max = 0x111.min(data.len() - pos);
        let (mut len, mut dist) = (2, 0);
        for d in 1..=window.min(pos) {
            let l = (0..max)
                .take_while(|&k| data[pos - d + k] == data[pos + k])
                .count();
            if l >= 3 && l > len {
                (len, dist) = (l, d);
            }
        }
        pos += push(&mut out, data, pos, len, dist);
    }
    out
}

/// MKW-SP and wszst: greedy, the longest match in `window` bytes, the farthest on ties,
/// compares stop at 0x111.
fn brute_greedy(data: &[u8], window: usize) -> Vec<Token> {
    let (mut out, mut pos) = (Vec::new(), 0);
    while pos < data.len() {
        let max = 0x111.min(data.len() - pos);
        let (mut len, mut dist) = (2, 0);
        for d in (1..=window.min(pos)).rev() {
            let l = (0..max)
                .take_while(|&k| data[pos - d + k] == data[pos + k])
                .count();
            if l > len {
                (len, dist) = (l, d);
            }
        }
        pos += push(&mut out, data, pos, len, dist);
    }
    out
}

proptest! {
    // Few cases: the brute force is slow in debug builds; inputs reach past the 0x1000 window.
    #![proptest_config(ProptestConfig::with_cases(10))]

    #[test]
    fn exact_encoders_match_the_brute_force_definition(
        data in proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(2), any::<u8>()], 0..4800)
    ) {
        prop_assert_eq!(NINTENDO.tokens(&data), brute_reuse(&data, 0x1000));
        prop_assert_eq!(GCLIB.tokens(&data), brute_reuse(&data, 0x111));
        prop_assert_eq!(WHITEHOLE.tokens(&data), brute_reevaluate(&data, usize::MAX, 2));
        prop_assert_eq!(LIBYAZ0.tokens(&data), brute_reevaluate(&data, 0x111, 1));
        prop_assert_eq!(Encoder::Matching(Matching::MkwSp).tokens(&data), brute_greedy(&data, 0x1000));
        for (level, window) in [(1, 0x100), (5, 0x880)] {
            prop_assert_eq!(Encoder::Matching(Matching::Wszst(level)).tokens(&data), brute_greedy(&data, window));
        }
        for w in [0x400, 0x4C0, 0x1000] {
            prop_assert_eq!(Encoder::Matching(Matching::Efe(w)).tokens(&data), brute_efe(&data, usize::from(w)));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_encoder_decodes_back(data in proptest::collection::vec(prop_oneof![Just(0u8), Just(1), any::<u8>()], 0..3000)) {
        for e in Encoder::ALL {
            let bytes = yaz0::encode(&data, e);
            prop_assert_eq!(yaz0::decode(&bytes).unwrap(), data.clone());
            // The streaming writer of `encode` writes what the token model writes.
            prop_assert_eq!(&Stream::encode(&data, e).write(), &bytes);
            let s = Stream::parse(&bytes).unwrap();
            prop_assert_eq!(s.write(), bytes);
            // Best runs only when nothing else reproduces the stream.
            let ids = s.identify(&data);
            prop_assert!(ids.contains(&e) || (e == Encoder::Best && !ids.is_empty()), "{:?}: {:?}", e, ids);
        }
        // The optimal parse is never larger than Nintendo's parse (same match lengths available).
        prop_assert!(yaz0::encode(&data, Encoder::Best).len() <= yaz0::encode(&data, NINTENDO).len());
    }

    #[test]
    fn arbitrary_bytes_never_panic(mut data in proptest::collection::vec(any::<u8>(), 0..400), kind in 0u8..3) {
        match kind {
            0 => { data.splice(0..0, *b"Yaz0\0\0\x01\0"); }
            1 => { data.splice(0..0, *b"Yay0\0\0\0\x40"); }
            _ => {}
        }
        yaz0::fuzz_decode(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Periodic data with a few changed bytes: matches run far past 0x111, so the matcher's
    /// memo of long comparisons (and Whitehole's unbounded compare) is exercised.
    #[test]
    fn exact_encoders_match_the_brute_force_on_periodic_data(
        pattern in proptest::collection::vec(any::<u8>(), 1..12),
        len in 0usize..6000,
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
    ) {
        let mut data: Vec<u8> = pattern.iter().copied().cycle().take(len).collect();
        for (at, v) in changes {
            if !data.is_empty() {
                let i = at.index(data.len());
                data[i] = v;
            }
        }
        prop_assert_eq!(NINTENDO.tokens(&data), brute_reuse(&data, 0x1000));
        prop_assert_eq!(GCLIB.tokens(&data), brute_reuse(&data, 0x111));
        prop_assert_eq!(WHITEHOLE.tokens(&data), brute_reevaluate(&data, usize::MAX, 2));
        prop_assert_eq!(LIBYAZ0.tokens(&data), brute_reevaluate(&data, 0x111, 1));
        prop_assert_eq!(Encoder::Matching(Matching::MkwSp).tokens(&data), brute_greedy(&data, 0x1000));
        for (level, window) in [(1, 0x100), (5, 0x880)] {
            prop_assert_eq!(Encoder::Matching(Matching::Wszst(level)).tokens(&data), brute_greedy(&data, window));
        }
        prop_assert_eq!(EFE.tokens(&data), brute_efe(&data, 0x400));
    }
}
