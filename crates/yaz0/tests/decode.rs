#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The decoder's fast path (whole groups, chunked copies) against a byte-at-a-time reference
//! decoder: same output on every token stream, and the same accept/reject decision on damaged
//! streams.

use proptest::prelude::*;
use yaz0::{Header, Stream, Token};

/// The format as written, one byte at a time: `None` where the stream is truncated, a reference
/// reaches before the start or the output would pass the declared size.
fn reference(data: &[u8]) -> Option<Vec<u8>> {
    if data.get(..4)? != b"Yaz0" {
        return None;
    }
    let n = u32::from_be_bytes(data.get(4..8)?.try_into().ok()?) as usize;
    let mut out = Vec::with_capacity(n);
    let mut ip = 16;
    while out.len() < n {
        let flags = *data.get(ip)?;
        ip += 1;
        for bit in (0..8).rev() {
            if out.len() >= n {
                break;
            }
            if flags >> bit & 1 == 1 {
                out.push(*data.get(ip)?);
                ip += 1;
                continue;
            }
            let (b1, b2) = (usize::from(*data.get(ip)?), usize::from(*data.get(ip + 1)?));
            ip += 2;
            let dist = ((b1 & 0xF) << 8 | b2) + 1;
            let len = if b1 >> 4 == 0 {
                ip += 1;
                usize::from(*data.get(ip - 1)?) + 0x12
            } else {
                (b1 >> 4) + 2
            };
            if dist > out.len() || out.len() + len > n {
                return None;
            }
            for _ in 0..len {
                out.push(out[out.len() - dist]);
            }
        }
    }
    Some(out)
}

/// A token stream that is valid for the decoder: distances never reach before the start. Short
/// distances and lengths dominate (overlapping copies, runs), as in game files.
fn tokens() -> impl Strategy<Value = Vec<Token>> {
    let token = prop_oneof![
        4 => any::<u8>().prop_map(Token::Literal),
        2 => (1u16..=20, 3u16..=18).prop_map(|(dist, len)| Token::Match { dist, len }),
        2 => (1u16..=0x1000, 3u16..=18).prop_map(|(dist, len)| Token::Match { dist, len }),
        1 => (1u16..=0x1000, 3u16..=0x111).prop_map(|(dist, len)| Token::Match { dist, len }),
    ];
    proptest::collection::vec(token, 0..3000).prop_map(|ts| {
        let mut produced = 0usize;
        ts.into_iter()
            .map(|t| {
                let t = match t {
                    Token::Match { .. } if produced == 0 => Token::Literal(0x5A),
                    Token::Match { dist, len } => Token::Match {
                        dist: dist.min(produced.min(0x1000) as u16),
                        len,
                    },
                    t => t,
                };
                produced += t.output_len();
                t
            })
            .collect()
    })
}

fn stream(tokens: Vec<Token>) -> Vec<u8> {
    let size = tokens.iter().map(|t| t.output_len()).sum::<usize>() as u32;
    Stream {
        header: Header {
            size,
            reserved: [0; 8],
        },
        tokens,
        unused_flag_bits: 0,
        trailing: Vec::new(),
    }
    .write()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn decode_equals_the_reference(tokens in tokens()) {
        let bytes = stream(tokens);
        let want = reference(&bytes).unwrap();
        prop_assert_eq!(yaz0::decode(&bytes).unwrap(), want.clone());
        let mut buf = vec![0xEE; want.len() + 7];
        prop_assert_eq!(yaz0::decode_into(&bytes, &mut buf).unwrap(), want.len());
        prop_assert_eq!(&buf[..want.len()], &want[..]);
        for max in [0, 1, want.len() / 3, want.len(), want.len() + 5] {
            let n = max.min(want.len());
            prop_assert_eq!(yaz0::decode_prefix(&bytes, max).unwrap(), want[..n].to_vec());
        }
    }

    /// A stream's decisions (without its literals) and its payload give the stream back byte
    /// for byte, trailing bytes and unused flag bits included; a payload edited where a
    /// back-reference reads, or of another size, is refused.
    #[test]
    fn decisions_give_the_stream_back(
        tokens in tokens(),
        trailing in proptest::collection::vec(any::<u8>(), 0..4),
        unused in any::<u8>(),
        at in any::<prop::sample::Index>(),
    ) {
        let size = tokens.iter().map(|t| t.output_len()).sum::<usize>() as u32;
        let free = (8 - tokens.len() % 8) % 8;
        let s = Stream {
            header: Header { size, reserved: [0, 0, 0, 0x20, 0, 0, 0, 0] },
            tokens,
            unused_flag_bits: unused & ((1u16 << free) - 1) as u8,
            trailing,
        };
        let bytes = s.write();
        let payload = yaz0::decode(&bytes).unwrap();
        let d = s.decisions();
        let limits = gcio::Limits::default();
        prop_assert_eq!(Stream::from_decisions(&d, &payload, &limits).unwrap().write(), bytes);
        prop_assert!(Stream::from_decisions(&d, &payload[..payload.len().saturating_sub(1)], &limits).is_err() || payload.is_empty());
        // A byte a back-reference copies from, changed: refused.
        let mut op = 0;
        let read = s.tokens.iter().find_map(|t| {
            let r = match *t {
                Token::Match { dist, .. } => Some(op - usize::from(dist)),
                Token::Literal(_) => None,
            };
            op += t.output_len();
            r
        });
        if let Some(k) = read {
            let mut edited = payload.clone();
            edited[k] ^= 1 + (at.index(255) as u8);
            prop_assert!(Stream::from_decisions(&d, &edited, &limits).is_err());
        }
    }

    /// Yay0's prefix decoder (what detection names the payload from) gives the first bytes of the
    /// full decode.
    #[test]
    fn yay0_prefix_is_the_decode_prefix(tokens in tokens()) {
        let size = tokens.iter().map(|t| t.output_len()).sum::<usize>() as u32;
        let bytes = yaz0::yay0::Stream { size, tokens, ..Default::default() }.write();
        let want = yaz0::yay0::decode(&bytes).unwrap();
        for max in [0, 1, want.len() / 3, want.len(), want.len() + 5] {
            let n = max.min(want.len());
            prop_assert_eq!(yaz0::yay0::decode_prefix(&bytes, max).unwrap(), want[..n].to_vec());
        }
    }

    /// Damaged streams: a changed byte, a cut, or a different declared size is decoded or rejected
    /// exactly as the reference does.
    #[test]
    fn damaged_streams_agree_with_the_reference(
        tokens in tokens(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        size_delta in -40i64..40,
    ) {
        let mut bytes = stream(tokens);
        if bytes.len() > 16 {
            let i = 16 + at.index(bytes.len() - 16);
            bytes[i] = byte;
        }
        let sized = {
            let mut b = bytes.clone();
            let n = (u32::from_be_bytes(b[4..8].try_into().unwrap()) as i64 + size_delta).max(0);
            b[4..8].copy_from_slice(&(n as u32).to_be_bytes());
            b
        };
        let cut = bytes[..16 + cut.index(bytes.len() - 15)].to_vec();
        for b in [bytes, sized, cut] {
            prop_assert_eq!(yaz0::decode(&b).ok(), reference(&b));
        }
    }
}

/// A prefix of a bomb: 1 GiB declared, of which only the tokens for the first bytes are even
/// present; the prefix decodes in bounded work and memory, a full decode is refused.
#[test]
fn prefix_of_a_bomb() {
    let mut bytes = [&b"Yaz0"[..], &(1u32 << 30).to_be_bytes(), &[0; 8]].concat();
    bytes.extend_from_slice(&[0x80, 0x00]); // literal 0, then seven references
    for _ in 0..7 {
        bytes.extend_from_slice(&[0x00, 0x00, 0xFF]); // distance 1, 0x111 bytes
    }
    let p = yaz0::decode_prefix(&bytes, 0x400).unwrap();
    assert_eq!(p, vec![0; 0x400]);
    assert!(yaz0::decode(&bytes).is_err());
    // A reference that the prefix needs but that reaches before the start is still an error.
    let bad = [&b"Yaz0"[..], &[0, 0, 0, 8], &[0; 8], &[0x00, 0x00, 0x04]].concat();
    assert!(yaz0::decode_prefix(&bad, 4).is_err());
    // The same for Yay0: one mask word (a literal, then references), links of distance 1.
    let mut yay0 = [
        &b"Yay0"[..],
        &((1u32 << 30) + 1).to_be_bytes(),
        &[0, 0, 0, 0x14],
    ]
    .concat();
    yay0.extend_from_slice(&[0, 0, 0, 0x26, 0x80, 0, 0, 0]);
    yay0.extend_from_slice(&[0; 18]); // nine links of distance 1 with a count byte each
    yay0.extend_from_slice(&[0; 1 + 9]); // the literal and the nine counts (0x12 bytes each)
    let p = yaz0::yay0::decode_prefix(&yay0, 0x40).unwrap();
    assert_eq!(p, vec![0; 0x40]);
    assert!(yaz0::yay0::decode(&yay0).is_err());
}

/// Every kind of back-reference the fast path special-cases, each inside a long stream so the
/// fast path (not the checked tail loop) decodes it: distances 1, 2, 7, 8, 9, 12, 15, 16, 17 and
/// 0x1000 with lengths 3, 8, 16, 17, 18 and 0x111.
#[test]
fn every_copy_shape_in_the_fast_path() {
    let mut tokens: Vec<Token> = (0..0x1000u32)
        .map(|i| Token::Literal((i * 7 + i / 13) as u8))
        .collect();
    for dist in [1u16, 2, 7, 8, 9, 12, 15, 16, 17, 0x1000] {
        for len in [3u16, 8, 16, 17, 18, 0x111] {
            tokens.push(Token::Match { dist, len });
            tokens.push(Token::Literal(dist as u8 ^ len as u8));
        }
    }
    tokens.extend((0..0x2000u32).map(|i| Token::Literal(i as u8)));
    let bytes = stream(tokens);
    assert_eq!(yaz0::decode(&bytes).unwrap(), reference(&bytes).unwrap());
}

/// A reference before the start in a stream long enough for the windowed fast path has the
/// error and the offset it has in a short stream.
#[test]
fn before_the_start_in_a_long_stream() {
    let mut tokens: Vec<Token> = (0..0x10u32).map(|i| Token::Literal(i as u8)).collect();
    tokens.push(Token::Match { dist: 0x20, len: 3 });
    tokens.extend((0..0x4000u32).map(|i| Token::Literal(i as u8)));
    let e = yaz0::decode(&stream(tokens)).unwrap_err();
    // Two groups of a flag byte and 8 literals, then the third group's flag byte.
    assert_eq!(e.offset(), Some(0x10 + 2 * 9 + 1));
    assert!(e.to_string().contains("before the start"), "{e}");
}

/// Hand-worked streams whose last group leaves flag bits unused: the stream model keeps those bits
/// (some encoders set them all), so the rewrite is the same bytes and not the zero-bit default.
#[test]
fn unused_flag_bits_of_the_last_group_survive() {
    // 'A' then a 3-byte copy of it at distance 1 ("AAAA"), five unused bits all set: flags
    // 0b1000_0000 (literal) | 0b0001_1111 (unused) = 0x9F; the match is 0x1000: len 3, dist 1.
    let with_ones = [
        b'Y', b'a', b'z', b'0', 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0x9F, b'A', 0x10, 0x00,
    ];
    // The same tokens with the unused bits clear.
    let mut with_zeros = with_ones;
    with_zeros[16] = 0x80;
    for data in [with_ones, with_zeros] {
        let s = Stream::parse(&data).unwrap();
        assert_eq!(s.decode(), b"AAAA");
        assert_eq!(s.write(), data, "flags {:#04x}", data[16]);
    }
}
