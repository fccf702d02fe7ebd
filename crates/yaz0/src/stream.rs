//! The Yaz0 stream model: the header, every token decision, the unused flag bits of the last group
//! and the bytes after the last token, so an unchanged stream writes back byte for byte whatever
//! encoder made it.

use gcio::{Context, Limits, Result};

use crate::decode::{HEADER_LEN, Header, check_ref, read_ref, truncated};
use crate::encode::Encoder;
use crate::token::{Sink, Token, expand};

/// A parsed Yaz0 stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stream {
    /// The header (declared size and the reserved words, kept verbatim).
    pub header: Header,
    /// Literal / back-reference decisions in stream order.
    pub tokens: Vec<Token>,
    /// Bits of the last flag byte that follow its last token (low bits; usually 0).
    pub unused_flag_bits: u8,
    /// Bytes after the last token (gclib writes one 0x00, oead one 0xFF after a full last group;
    /// some tools pad to 32).
    pub trailing: Vec<u8>,
}

/// Counts describing a stream (as `gcf info` prints them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Flag bytes.
    pub groups: usize,
    /// Literal tokens.
    pub literals: usize,
    /// Back-reference tokens.
    pub back_references: usize,
    /// Offset just past the last token.
    pub end_offset: usize,
}

impl Stream {
    /// Parses a stream with the default [`Limits`].
    pub fn parse(data: &[u8]) -> Result<Stream> {
        Self::parse_with(data, &Limits::default())
    }

    /// Parses a stream, recording every decision; validates back-references like the decoder.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Stream> {
        read(data, None, limits)
    }

    /// The stream's decisions without its literal bytes (the payload holds those): the stream
    /// with every literal token taking no byte, header and trailing bytes included.
    /// [`Stream::from_decisions`] with the payload gives the stream back byte for byte, so a
    /// tool can keep a stream no known encoder reproduces in about a third of its size.
    pub fn decisions(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.tokens.len() * 3 / 8 + 16);
        out.extend_from_slice(&self.header.to_bytes());
        write_groups(&mut out, &self.tokens, self.unused_flag_bits, false);
        out.extend_from_slice(&self.trailing);
        out
    }

    /// The stream [`Stream::decisions`] recorded, its literals taken from `payload`. An error
    /// when `payload` is not what the decisions encoded: another size, or a back-reference that
    /// does not repeat the payload's bytes (the payload was edited where a reference reads).
    pub fn from_decisions(decisions: &[u8], payload: &[u8], limits: &Limits) -> Result<Stream> {
        read(decisions, Some(payload), limits)
    }
}

/// Reads a stream's tokens; with `payload`, `data` holds [`Stream::decisions`]: literal bytes
/// come from the payload and every back-reference must repeat the payload's bytes.
fn read(data: &[u8], payload: Option<&[u8]>, limits: &Limits) -> Result<Stream> {
    let header = Header::parse(data).context("Yaz0 header")?;
    let n = limits.check_alloc(u64::from(header.size), 1, 4)?;
    if let Some(p) = payload
        && p.len() != n
    {
        return Err(gcio::Error::invalid(
            4,
            format!(
                "the Yaz0 decisions are for a payload of {n:#x} bytes, not {:#x}",
                p.len()
            ),
        ));
    }
    // A token takes at least one stream byte plus its share of a flag byte.
    let cap = limits.check_elements((data.len() as u64).min(n as u64), 4)?;
    let mut tokens = Vec::new();
    crate::alloc::reserve(&mut tokens, cap, "Yaz0 token list", 4)?;
    let mut ip = HEADER_LEN;
    let mut op = 0usize;
    let mut unused = 0u8;
    while op < n {
        let flags = *data.get(ip).ok_or_else(|| truncated(data, ip, 1))?;
        ip += 1;
        for bit in (0..8u32).rev() {
            if op >= n {
                unused = flags & ((1u16 << (bit + 1)) - 1) as u8;
                break;
            }
            if flags >> bit & 1 == 1 {
                let b = match payload {
                    Some(p) => p.get(op).copied().unwrap_or(0),
                    None => {
                        ip += 1;
                        *data.get(ip - 1).ok_or_else(|| truncated(data, ip - 1, 1))?
                    }
                };
                tokens.push(Token::Literal(b));
                op += 1;
            } else {
                let (dist, len, used) = read_ref(data, ip)?;
                check_ref(ip, op, n, dist, len)?;
                if let Some(p) = payload
                    && (op..op + len).any(|k| p.get(k) != p.get(k - dist))
                {
                    return Err(gcio::Error::invalid(
                        ip as u64,
                        format!(
                            "back-reference ({dist:#x} back, {len:#x} bytes) at output position {op:#x} does not repeat the payload's bytes (the payload changed)"
                        ),
                    ));
                }
                tokens.push(Token::Match {
                    dist: dist as u16,
                    len: len as u16,
                });
                ip += used;
                op += len;
            }
        }
    }
    Ok(Stream {
        header,
        tokens,
        unused_flag_bits: unused,
        trailing: data.get(ip..).unwrap_or_default().to_vec(),
    })
}

impl Stream {
    /// Encodes `data` with `encoder`, including the encoder's trailing bytes.
    pub fn encode(data: &[u8], encoder: Encoder) -> Stream {
        let tokens = encoder.tokens(data);
        let mut s = Stream {
            header: Header {
                size: data.len() as u32,
                reserved: [0; 8],
            },
            tokens,
            unused_flag_bits: 0,
            trailing: Vec::new(),
        };
        s.trailing = encoder
            .trailer()
            .bytes(s.tokens.len(), s.stats().end_offset);
        s
    }

    /// The decompressed bytes.
    pub fn decode(&self) -> Vec<u8> {
        expand(&self.tokens)
    }

    /// Replaces the contents with `data`, re-encoded with `encoder`; the header's reserved words
    /// are kept.
    pub fn set_data(&mut self, data: &[u8], encoder: Encoder) {
        let reserved = self.header.reserved;
        *self = Stream::encode(data, encoder);
        self.header.reserved = reserved;
    }

    /// Writes the stream back.
    pub fn write(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.tokens.len() * 9 / 8 + 16);
        out.extend_from_slice(&self.header.to_bytes());
        write_groups(&mut out, &self.tokens, self.unused_flag_bits, true);
        out.extend_from_slice(&self.trailing);
        out
    }

    /// Group, literal and back-reference counts.
    pub fn stats(&self) -> Stats {
        let back_references = self
            .tokens
            .iter()
            .filter(|t| matches!(t, Token::Match { .. }))
            .count();
        let end_offset = HEADER_LEN
            + self.tokens.len().div_ceil(8)
            + self
                .tokens
                .iter()
                .map(|t| match t {
                    Token::Literal(_) => 1,
                    Token::Match { len, .. } if *len >= 0x12 => 3,
                    Token::Match { .. } => 2,
                })
                .sum::<usize>();
        Stats {
            groups: self.tokens.len().div_ceil(8),
            literals: self.tokens.len() - back_references,
            back_references,
            end_offset,
        }
    }

    /// The encoders (see [`Encoder::ALL`]) that reproduce this stream byte for byte from its
    /// decompressed bytes `data`, with the default [`Limits`].
    pub fn identify(&self, data: &[u8]) -> Vec<Encoder> {
        self.identify_with(data, &Limits::default())
    }

    /// [`Stream::identify`] within `limits`. Every candidate stops at its first token that differs
    /// from the stream, so naming a stream costs about one encode (by the encoder that made it)
    /// plus short prefixes of the others. [`Encoder::Best`] decides nothing before it has seen the
    /// whole input, so it runs only when no other encoder matched; an encoder whose working
    /// memory for `data` would pass `limits` is skipped.
    pub fn identify_with(&self, data: &[u8], limits: &Limits) -> Vec<Encoder> {
        if self.unused_flag_bits != 0 || data.len() != self.header.size as usize {
            return Vec::new();
        }
        let end = self.stats().end_offset;
        let reproduces = |e: Encoder| {
            if !e.writes_reserved(self.header.reserved)
                || e.trailer().bytes(self.tokens.len(), end) != self.trailing
                || limits
                    .check_alloc(data.len() as u64, e.work_per_byte(), 0)
                    .is_err()
            {
                return false;
            }
            let mut i = 0usize;
            let mut same = true;
            e.run(data, &mut |t| {
                same = self.tokens.get(i) == Some(&t);
                i += 1;
                same
            });
            same && i == self.tokens.len()
        };
        let (best, others): (Vec<Encoder>, Vec<Encoder>) =
            Encoder::ALL.into_iter().partition(|e| *e == Encoder::Best);
        let found: Vec<Encoder> = others.into_iter().filter(|e| reproduces(*e)).collect();
        if !found.is_empty() {
            return found;
        }
        best.into_iter().filter(|e| reproduces(*e)).collect()
    }
}

/// Serialises tokens as Yaz0 groups; `unused` fills the bits after the last token; without
/// `literals`, literal tokens take no byte ([`Stream::decisions`]).
pub(crate) fn write_groups(out: &mut Vec<u8>, tokens: &[Token], unused: u8, literals: bool) {
    for group in tokens.chunks(8) {
        let flag_at = out.len();
        out.push(0);
        let mut flags = 0u8;
        for (k, t) in group.iter().enumerate() {
            match *t {
                Token::Literal(b) => {
                    flags |= 0x80 >> k;
                    if literals {
                        out.push(b);
                    }
                }
                Token::Match { dist, len } => {
                    let d = dist.wrapping_sub(1) & 0x0FFF;
                    let [dh, dl] = d.to_be_bytes();
                    if len >= 0x12 {
                        out.extend_from_slice(&[dh, dl, (len - 0x12) as u8]);
                    } else {
                        out.extend_from_slice(&[((len - 2) as u8) << 4 | dh, dl]);
                    }
                }
            }
        }
        if group.len() < 8 {
            flags |= unused;
        }
        if let Some(f) = out.get_mut(flag_at) {
            *f = flags;
        }
    }
}

/// Writes tokens as Yaz0 groups as they come (what [`crate::encode`] does: no token list, no
/// second pass; the bytes are those of [`Stream::encode`] then [`Stream::write`]).
///
/// The output is sized once for the worst case (every token a literal) and written through a
/// cursor; the flag byte is kept in a register until its group is full.
pub(crate) struct GroupWriter {
    out: Vec<u8>,
    /// Where the next byte goes.
    at: usize,
    /// Where the current group's flag byte is.
    flag_at: usize,
    /// The current group's flags so far.
    flags: u8,
    /// The current group's next flag bit (0 = a new group starts with the next token).
    bit: u8,
    /// Groups started (the token count follows from it and `bit`).
    groups: usize,
    /// A write fell past the buffer (see [`GroupWriter::put`]).
    overflow: bool,
}

impl GroupWriter {
    /// A writer for a stream of `size` decompressed bytes; the header is written.
    pub(crate) fn new(size: usize) -> GroupWriter {
        // A token writes at most one byte per output byte (a literal 1 for 1, a match 2 or 3
        // for 3 or more), plus a flag byte per 8 tokens.
        let mut out = vec![0; HEADER_LEN + size + size / 8 + 16];
        let header = Header {
            size: size as u32,
            reserved: [0; 8],
        };
        if let Some(h) = out.get_mut(..HEADER_LEN) {
            h.copy_from_slice(&header.to_bytes());
        }
        GroupWriter {
            out,
            at: HEADER_LEN,
            flag_at: HEADER_LEN,
            flags: 0,
            bit: 0,
            groups: 0,
            overflow: false,
        }
    }

    /// Writes `bytes` at the cursor. Past the end of the buffer (a token stream that needs more
    /// bytes than its input has, which no encoder writes) nothing is written and the writer is
    /// marked overflowed: no call on this path, so the encoder's loop keeps the writer's fields
    /// in registers.
    #[inline(always)]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        match self
            .out
            .get_mut(self.at..)
            .and_then(<[u8]>::first_chunk_mut::<N>)
        {
            Some(d) => *d = bytes,
            None => self.overflow = true,
        }
        self.at += N;
    }

    #[inline(always)]
    fn close_group(&mut self) {
        if let Some(f) = self.out.get_mut(self.flag_at) {
            *f = self.flags;
        }
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, t: Token) {
        if self.bit == 0 {
            self.close_group();
            self.flag_at = self.at;
            self.put([0]);
            self.flags = 0;
            self.bit = 0x80;
            self.groups += 1;
        }
        match t {
            Token::Literal(b) => {
                self.flags |= self.bit;
                self.put([b]);
            }
            Token::Match { dist, len } => {
                let d = dist.wrapping_sub(1) & 0x0FFF;
                let [dh, dl] = d.to_be_bytes();
                if len >= 0x12 {
                    self.put([dh, dl, (len - 0x12) as u8]);
                } else {
                    self.put([((len - 2) as u8) << 4 | dh, dl]);
                }
            }
        }
        self.bit >>= 1;
    }

    /// Tokens written so far.
    fn tokens(&self) -> usize {
        let free = if self.bit == 0 {
            0
        } else {
            self.bit.trailing_zeros() as usize + 1
        };
        self.groups * 8 - free
    }

    /// The stream, with `encoder`'s trailing bytes; `None` when the tokens overflowed the
    /// buffer (see [`GroupWriter::put`]).
    pub(crate) fn finish(mut self, encoder: Encoder) -> Option<Vec<u8>> {
        if self.overflow {
            return None;
        }
        let tokens = self.tokens();
        if tokens > 0 {
            self.close_group();
        }
        self.out.truncate(self.at);
        let end = self.out.len();
        self.out
            .extend_from_slice(&encoder.trailer().bytes(tokens, end));
        Some(self.out)
    }
}

impl Sink for GroupWriter {
    #[inline(always)]
    fn token(&mut self, t: Token) -> bool {
        self.push(t);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::GroupWriter;
    use crate::encode::Encoder;
    use crate::token::Token;

    /// More tokens than the buffer was sized for: nothing is written past it and `finish`
    /// says so (`crate::encode` then takes the token-list path).
    #[test]
    fn overflow_is_reported() {
        let mut w = GroupWriter::new(4);
        for _ in 0..64 {
            w.push(Token::Literal(7));
        }
        assert_eq!(w.finish(Encoder::Fast), None);
        let mut w = GroupWriter::new(4);
        for &b in b"abcd" {
            w.push(Token::Literal(b));
        }
        let out = w.finish(Encoder::Fast).unwrap_or_default();
        assert_eq!(crate::decode(&out).ok().as_deref(), Some(&b"abcd"[..]));
    }
}
