//! Yay0: the same token model as Yaz0, stored as three streams (32-bit mask words, 16-bit links,
//! literal/count bytes). RARC members flagged COMPRESSED without YAZ0_COMPRESSED use it (YAZ0-005).

use gcio::{Context, Error, Limits, Reader, Result};

use crate::decode::lz_copy;
use crate::encode::Encoder;
use crate::token::{Token, expand};

/// The Yay0 magic.
pub const MAGIC: &[u8; 4] = b"Yay0";
const HEADER_LEN: usize = 0x10;

/// True when `data` starts with the Yay0 magic.
pub fn is_yay0(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// The three stream positions a Yay0 header declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    size: usize,
    links: usize,
    chunks: usize,
}

fn layout(data: &[u8], limits: &Limits) -> Result<Layout> {
    let r = Reader::new(data);
    r.expect_magic(0, MAGIC)?;
    Ok(Layout {
        size: limits.check_alloc(u64::from(r.u32(4)?), 1, 4)?,
        links: r.u32(8)? as usize,
        chunks: r.u32(12)? as usize,
    })
}

/// Walks the three streams until the output reaches `stop` (at most the declared size), calling
/// `step` per token; returns (mask end, link end, chunk end, unused bits of the last mask word).
fn walk(
    data: &[u8],
    l: Layout,
    stop: usize,
    mut step: impl FnMut(Token, usize, usize) -> Result<()>,
) -> Result<(usize, usize, usize, u32)> {
    let r = Reader::new(data);
    let (mut mp, mut lp, mut cp, mut op) = (HEADER_LEN, l.links, l.chunks, 0usize);
    let mut unused = 0u32;
    while op < stop {
        let mask = r.u32(mp).context("Yay0 mask")?;
        mp += 4;
        for bit in (0..32u32).rev() {
            if op >= stop {
                unused = mask & ((1u64 << (bit + 1)) - 1) as u32;
                break;
            }
            let t = if mask >> bit & 1 == 1 {
                let b = r.u8(cp).context("Yay0 chunk")?;
                cp += 1;
                Token::Literal(b)
            } else {
                let link = usize::from(r.u16(lp).context("Yay0 link")?);
                let dist = (link & 0x0FFF) + 1;
                let len = match link >> 12 {
                    0 => {
                        let b = r.u8(cp).context("Yay0 count")?;
                        cp += 1;
                        usize::from(b) + 0x12
                    }
                    n => n + 2,
                };
                if dist > op || len > l.size - op {
                    return Err(Error::invalid(
                        lp as u64,
                        format!(
                            "Yay0 back-reference ({dist:#x} back, {len:#x} bytes) at output position {op:#x} leaves the output (size {:#x})",
                            l.size
                        ),
                    ));
                }
                lp += 2;
                Token::Match {
                    dist: dist as u16,
                    len: len as u16,
                }
            };
            step(t, op, lp)?;
            op += t.output_len();
        }
    }
    Ok((mp, lp, cp, unused))
}

/// Decodes a Yay0 stream with the default [`Limits`].
pub fn decode(data: &[u8]) -> Result<Vec<u8>> {
    decode_with(data, &Limits::default())
}

/// Decodes a Yay0 stream; the declared size must pass `limits`.
pub fn decode_with(data: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    let l = layout(data, limits)?;
    let mut out = crate::alloc::zeroed(l.size, "Yay0 payload (declared size)", 4)?;
    walk(data, l, l.size, |t, op, _| {
        match t {
            Token::Literal(b) => {
                if let Some(d) = out.get_mut(op) {
                    *d = b;
                }
            }
            Token::Match { dist, len } => {
                lz_copy(&mut out, op, usize::from(dist), usize::from(len))
            }
        }
        Ok(())
    })?;
    Ok(out)
}

/// The first `max` decoded bytes (all of them when the declared size is smaller), for naming the
/// payload's format without expanding it whole ([`crate::decode_prefix`] for Yay0): memory stays
/// within `max` whatever the declared size.
pub fn decode_prefix(data: &[u8], max: usize) -> Result<Vec<u8>> {
    let l = layout(data, &Limits::UNLIMITED)?;
    let want = l.size.min(max);
    let mut out = Vec::new();
    crate::alloc::reserve(&mut out, want, "Yay0 payload prefix", 4)?;
    walk(data, l, want, |t, op, _| {
        match t {
            Token::Literal(b) => out.push(b),
            Token::Match { dist, len } => {
                for k in 0..usize::from(len).min(want - op) {
                    let b = out.get(op + k - usize::from(dist)).copied().unwrap_or(0);
                    out.push(b);
                }
            }
        }
        Ok(())
    })?;
    Ok(out)
}

/// A parsed Yay0 stream: tokens plus every byte the three streams do not explain, so it writes
/// back exactly.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stream {
    /// Declared decompressed size.
    pub size: u32,
    /// Literal / back-reference decisions.
    pub tokens: Vec<Token>,
    /// Bits of the last mask word after the last token.
    pub unused_mask_bits: u32,
    /// Bytes between the mask words and the link stream.
    pub mask_gap: Vec<u8>,
    /// Bytes between the link stream and the chunk stream.
    pub link_gap: Vec<u8>,
    /// Bytes after the chunk stream.
    pub trailing: Vec<u8>,
}

impl Stream {
    /// Parses a stream with the default [`Limits`]. The streams must appear in the order masks,
    /// links, chunks (as every known encoder writes them).
    pub fn parse(data: &[u8]) -> Result<Stream> {
        Stream::parse_with(data, &Limits::default())
    }

    /// [`Stream::parse`]; the declared size must pass `limits`.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Stream> {
        let l = layout(data, limits)?;
        let mut tokens = Vec::new();
        let (mp, lp, cp, unused) = walk(data, l, l.size, |t, _, _| {
            tokens.push(t);
            Ok(())
        })?;
        let gap = |a: usize, b: usize, what: &str| {
            data.get(a..b).map(<[u8]>::to_vec).ok_or_else(|| {
                Error::invalid(8, format!("Yay0 {what} overlaps the stream before it"))
            })
        };
        Ok(Stream {
            size: l.size as u32,
            tokens,
            unused_mask_bits: unused,
            mask_gap: gap(mp, l.links, "link stream")?,
            link_gap: gap(lp, l.chunks, "chunk stream")?,
            trailing: data.get(cp..).unwrap_or_default().to_vec(),
        })
    }

    /// Encodes `data` with `encoder` (no gaps, no trailing bytes).
    pub fn encode(data: &[u8], encoder: Encoder) -> Stream {
        Stream {
            size: data.len() as u32,
            tokens: encoder.tokens(data),
            ..Stream::default()
        }
    }

    /// The decompressed bytes.
    pub fn decode(&self) -> Vec<u8> {
        expand(&self.tokens)
    }

    /// Writes the stream back.
    pub fn write(&self) -> Vec<u8> {
        let mut masks = Vec::with_capacity(self.tokens.len() / 8 + 4);
        let mut links = Vec::new();
        let mut chunks = Vec::new();
        for group in self.tokens.chunks(32) {
            let mut m = 0u32;
            for (k, t) in group.iter().enumerate() {
                match *t {
                    Token::Literal(b) => {
                        m |= 0x8000_0000 >> k;
                        chunks.push(b);
                    }
                    Token::Match { dist, len } => {
                        let d = dist.wrapping_sub(1) & 0x0FFF;
                        if len >= 0x12 {
                            links.extend_from_slice(&d.to_be_bytes());
                            chunks.push((len - 0x12) as u8);
                        } else {
                            links.extend_from_slice(&((len - 2) << 12 | d).to_be_bytes());
                        }
                    }
                }
            }
            if group.len() < 32 {
                m |= self.unused_mask_bits;
            }
            masks.extend_from_slice(&m.to_be_bytes());
        }
        let links_at = HEADER_LEN + masks.len() + self.mask_gap.len();
        let chunks_at = links_at + links.len() + self.link_gap.len();
        let mut out = Vec::with_capacity(chunks_at + chunks.len() + self.trailing.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.size.to_be_bytes());
        out.extend_from_slice(&(links_at as u32).to_be_bytes());
        out.extend_from_slice(&(chunks_at as u32).to_be_bytes());
        for part in [
            &masks,
            &self.mask_gap,
            &links,
            &self.link_gap,
            &chunks,
            &self.trailing,
        ] {
            out.extend_from_slice(part);
        }
        out
    }
}

/// Recognises a Yay0 stream: the magic and a header whose stream offsets fall inside the file.
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    if !is_yay0(data) || data.len() < 16 {
        return None;
    }
    let word = |at: usize| {
        data.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_be_bytes) as usize
    };
    (word(8) <= data.len() && word(12) <= data.len() && word(8) >= 16)
        .then_some(gcio::Confidence::Strong)
}
