//! Yaz0 header and decoder: bounded by [`Limits`], errors with stream offsets, no panics.

use gcio::{Error, ErrorKind, Limits, Reader, Result};

/// Size of the Yaz0 header.
pub const HEADER_LEN: usize = 0x10;
/// The Yaz0 magic.
pub const MAGIC: &[u8; 4] = b"Yaz0";

/// The 16-byte Yaz0 header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Header {
    /// Decompressed size.
    pub size: u32,
    /// Bytes 0x08..0x10: zero on GameCube/Wii; some Wii U games store an alignment at 0x08
    /// (YAZ0-002). Kept verbatim.
    pub reserved: [u8; 8],
}

impl Header {
    /// Reads and checks the header (magic, length).
    pub fn parse(data: &[u8]) -> Result<Header> {
        let r = Reader::new(data);
        r.expect_magic(0, MAGIC)?;
        Ok(Header {
            size: r.u32(4)?,
            reserved: r.array(8)?,
        })
    }

    /// The 16 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        let (magic, rest) = h.split_at_mut(4);
        magic.copy_from_slice(MAGIC);
        let (size, reserved) = rest.split_at_mut(4);
        size.copy_from_slice(&self.size.to_be_bytes());
        reserved.copy_from_slice(&self.reserved);
        h
    }
}

/// True when `data` starts with the Yaz0 magic.
pub fn is_yaz0(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}

/// Decodes a Yaz0 stream with the default [`Limits`].
///
/// ```
/// let stream = [b"Yaz0".as_slice(), &[0, 0, 0, 3], &[0; 8], &[0xE0, b'a', b'b', b'c']].concat();
/// assert_eq!(yaz0::decode(&stream).unwrap(), b"abc");
/// ```
pub fn decode(data: &[u8]) -> Result<Vec<u8>> {
    decode_with(data, &Limits::default())
}

/// Decodes a Yaz0 stream; the declared size must pass `limits`, and be one the stream's bytes
/// can expand to, before anything is allocated (a truncated bomb costs no memory).
pub fn decode_with(data: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    let h = Header::parse(data)?;
    let n = limits.check_alloc(u64::from(h.size), 1, 4)?;
    let body = data.len().saturating_sub(HEADER_LEN) as u64;
    if u64::from(h.size) > body.saturating_mul(crate::MAX_RATIO) {
        return Err(Error::invalid(
            4,
            format!(
                "declared size {n:#x} is more than the {body:#x} stream bytes can expand to (truncated stream)"
            ),
        ));
    }
    let mut out = crate::alloc::zeroed(n, "Yaz0 payload (declared size)", 4)?;
    decode_groups(data, HEADER_LEN, &mut out)?;
    Ok(out)
}

/// The first `max` decoded bytes (all of them when the declared size is smaller), for naming the
/// payload's format without expanding it whole: work and memory stay within `max` whatever the
/// declared size. The tokens read are checked as in [`decode`]; the rest of the stream is not
/// read.
pub fn decode_prefix(data: &[u8], max: usize) -> Result<Vec<u8>> {
    let h = Header::parse(data)?;
    let n = h.size as usize;
    let want = n.min(max);
    let mut out: Vec<u8> = Vec::new();
    crate::alloc::reserve(&mut out, want, "Yaz0 payload prefix", 4)?;
    let mut ip = HEADER_LEN;
    while out.len() < want {
        let flags = *data.get(ip).ok_or_else(|| truncated(data, ip, 1))?;
        ip += 1;
        for bit in (0..8u32).rev() {
            let op = out.len();
            if op >= want {
                break;
            }
            if flags >> bit & 1 == 1 {
                out.push(*data.get(ip).ok_or_else(|| truncated(data, ip, 1))?);
                ip += 1;
            } else {
                let (dist, len, used) = read_ref(data, ip)?;
                check_ref(ip, op, n, dist, len)?;
                for k in 0..len.min(want - op) {
                    let b = out.get(op + k - dist).copied().unwrap_or(0);
                    out.push(b);
                }
                ip += used;
            }
        }
    }
    Ok(out)
}

/// Decodes into a buffer the caller owns; `out` must hold at least the declared size. Returns the
/// number of bytes written (the declared size).
pub fn decode_into(data: &[u8], out: &mut [u8]) -> Result<usize> {
    let h = Header::parse(data)?;
    let n = h.size as usize;
    let have = out.len();
    let dst = out.get_mut(..n).ok_or_else(|| {
        Error::invalid(
            4,
            format!("output buffer of {have:#x} bytes is smaller than the declared size {n:#x}"),
        )
    })?;
    decode_groups(data, HEADER_LEN, dst)?;
    Ok(n)
}

pub(crate) fn truncated(src: &[u8], at: usize, len: usize) -> Error {
    Reader::new(src).oob(at, len)
}

pub(crate) fn bad_ref(at: usize, what: String) -> Error {
    Error::new(ErrorKind::Invalid(what), at as u64)
}

/// Copies `len` bytes starting `dist` bytes before `op` to `op` (LZ semantics: overlapping copies
/// repeat the last `dist` bytes). The caller has checked `dist <= op` and `op + len <= out.len()`.
#[inline(always)]
pub(crate) fn lz_copy(out: &mut [u8], op: usize, dist: usize, len: usize) {
    let src = op - dist;
    if dist >= len {
        if len <= 16 {
            if let Some((head, tail)) = out.split_at_mut_checked(op)
                && let (Some(s), Some(d)) = (head.get(src..src + len), tail.get_mut(..len))
            {
                d.copy_from_slice(s);
            }
        } else {
            out.copy_within(src..src + len, op);
        }
    } else if dist == 1 {
        let b = out.get(src).copied().unwrap_or(0);
        if let Some(d) = out.get_mut(op..op + len) {
            d.fill(b);
        }
    } else {
        // The bytes from `src` are periodic with period `dist`: copy doubling chunks.
        let mut done = 0;
        while done < len {
            let chunk = (op + done - src).min(len - done);
            out.copy_within(src..src + chunk, op + done);
            done += chunk;
        }
    }
}

/// Stream bytes the fast path reads per group: the flag byte, at most 8 × 3 token bytes, and 8
/// bytes of slack so a literal run is always one 8-byte copy.
const GROUP_IN: usize = 1 + 8 * 3 + 8;
/// Output bytes the fast path may touch per group: 8 maximal tokens plus a 16-byte chunk of slack.
const GROUP_OUT: usize = 8 * 0x111 + 16;

/// Decodes groups starting at `start` until `out` is full; returns the offset after the last token.
///
/// Where the output has a whole [`Window`] around `op`, [`group`] decodes the group there with
/// masked positions; else while a whole group and its slack fit in the stream and in `out`, it
/// decodes it in the output itself ([`Slice`]); the checked loop handles the ends.
pub(crate) fn decode_groups(src: &[u8], start: usize, out: &mut [u8]) -> Result<usize> {
    let n = out.len();
    let mut ip = start;
    let mut op = 0usize;
    while op < n {
        let base = op.saturating_sub(WIN_BACK);
        if let Some(w) = out.get_mut(base..base + WIN)
            && let Ok(w) = <&mut [u8; WIN]>::try_from(w)
            && let Some(g) = src.get(ip..ip + WIN_IN)
            && let Ok(g) = <&[u8; WIN_IN]>::try_from(g)
        {
            let (used, end) = group(g, ip, op - base, &mut Window(w), GI_MASK)?;
            ip += used;
            op = base + end;
            continue;
        }
        if op + GROUP_OUT <= n
            && let Some(g) = src.get(ip..ip + GROUP_IN)
            && let Ok(g) = <&[u8; GROUP_IN]>::try_from(g)
        {
            let (used, end) = group(g, ip, op, &mut Slice(out), usize::MAX)?;
            ip += used;
            op = end;
            continue;
        }
        let flags = *src.get(ip).ok_or_else(|| truncated(src, ip, 1))?;
        ip += 1;
        let mut mask = 0x80u8;
        while mask != 0 && op < n {
            if flags & mask != 0 {
                let b = *src.get(ip).ok_or_else(|| truncated(src, ip, 1))?;
                if let Some(d) = out.get_mut(op) {
                    *d = b;
                }
                ip += 1;
                op += 1;
            } else {
                let (dist, len, used) = read_ref(src, ip)?;
                check_ref(ip, op, n, dist, len)?;
                lz_copy(out, op, dist, len);
                ip += used;
                op += len;
            }
            mask >>= 1;
        }
    }
    Ok(ip)
}

/// Per flag byte: the number of back-references, then the length of each run of literals before
/// each reference and after the last one. Looking runs up keeps the token positions of a group
/// independent of one another, where counting bits would chain every step to the previous one.
static RUNS: [[u8; 16]; 256] = runs_table();

#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
const fn runs_table() -> [[u8; 16]; 256] {
    let mut t = [[0u8; 16]; 256];
    let mut f = 0;
    while f < 256 {
        let (mut refs, mut run, mut bit) = (0usize, 0u8, 8);
        while bit > 0 {
            bit -= 1;
            if f >> bit & 1 == 1 {
                run += 1;
            } else {
                t[f][1 + refs] = run;
                refs += 1;
                run = 0;
            }
        }
        t[f][1 + refs] = run;
        t[f][0] = refs as u8;
        f += 1;
    }
    t
}

/// Where [`group`] writes: the output itself ([`Slice`], every access checked) or a fixed window
/// of it ([`Window`], positions masked). Positions are the sink's own.
trait Sink {
    /// Copies 8 bytes of `rest` from `gi` to `op` (a literal run of at most 8; slack absorbs the
    /// rest).
    fn literals(&mut self, op: usize, rest: &[u8], gi: usize);
    /// The 8 bytes at `at`.
    fn load8(&self, at: usize) -> [u8; 8];
    /// Stores 8 bytes at `at`.
    fn store8(&mut self, at: usize, v: [u8; 8]);
    /// Copies 16 bytes from `from` to `to` (`from + 16 <= to`).
    fn chunk16(&mut self, from: usize, to: usize);
    /// Any other reference, out of line.
    fn cold(&mut self, op: usize, dist: usize, len: usize);
}

/// The 8 bytes of `buf` at `at` (zeros past its end, which [`group`]'s callers rule out).
#[inline(always)]
fn get8(buf: &[u8], at: usize) -> [u8; 8] {
    buf.get(at..at + 8)
        .and_then(|s| <[u8; 8]>::try_from(s).ok())
        .unwrap_or([0; 8])
}

/// Stores `v` in `buf` at `at` (nothing past its end, which [`group`]'s callers rule out).
#[inline(always)]
fn put8(buf: &mut [u8], at: usize, v: [u8; 8]) {
    if let Some(d) = buf.get_mut(at..at + 8) {
        d.copy_from_slice(&v);
    }
}

/// The output slice: [`group`] there needs [`GROUP_OUT`] bytes of room after `op`.
struct Slice<'a>(&'a mut [u8]);

impl Sink for Slice<'_> {
    #[inline(always)]
    fn literals(&mut self, op: usize, rest: &[u8], gi: usize) {
        if let (Some(d), Some(s)) = (self.0.get_mut(op..op + 8), rest.get(gi..gi + 8)) {
            d.copy_from_slice(s);
        }
    }

    #[inline(always)]
    fn load8(&self, at: usize) -> [u8; 8] {
        get8(self.0, at)
    }

    #[inline(always)]
    fn store8(&mut self, at: usize, v: [u8; 8]) {
        put8(self.0, at, v);
    }

    #[inline(always)]
    fn chunk16(&mut self, from: usize, to: usize) {
        if let Some((head, tail)) = self.0.split_at_mut_checked(to)
            && let (Some(s), Some(d)) = (head.get(from..from + 16), tail.get_mut(..16))
        {
            d.copy_from_slice(s);
        }
    }

    #[inline(always)]
    fn cold(&mut self, op: usize, dist: usize, len: usize) {
        lz_copy_cold(self.0, op, dist, len);
    }
}

/// How far back a reference reaches at most.
const WIN_BACK: usize = 0x1000;
/// The output window [`Window`] works in: `WIN_BACK` bytes of history, then room for a group
/// (`GROUP_OUT` < `WIN_MASK + 1 - WIN_BACK`). A power of two plus a 16-byte chunk, so masked
/// positions need no bounds checks.
const WIN: usize = WIN_MASK + 1 + 16;
const WIN_MASK: usize = 0x1FFF;
/// Stream bytes a group in a [`Window`] reads: the flag byte and 32 + 8 bytes, so masked token
/// positions (at most 24 in a group) need no bounds checks.
const WIN_IN: usize = 1 + 32 + 8;
const GI_MASK: usize = 31;
// A group from the deepest start position, with the over-copy of its last token, stays below
// `WIN_MASK`: masking never wraps.
const _: () = assert!(WIN_BACK + GROUP_OUT + 16 <= WIN_MASK + 1);

/// A fixed window of the output: a position is at least `WIN_BACK` unless the window starts at
/// the output's start, and a group never takes it past `WIN_MASK`, so masking positions changes
/// nothing but lets the compiler drop the bounds checks (and keep the window in registers).
struct Window<'a>(&'a mut [u8; WIN]);

impl Sink for Window<'_> {
    #[inline(always)]
    fn literals(&mut self, op: usize, rest: &[u8], gi: usize) {
        let (op, gi) = (op & WIN_MASK, gi & GI_MASK);
        if let (Some(d), Some(s)) = (self.0.get_mut(op..op + 8), rest.get(gi..gi + 8)) {
            d.copy_from_slice(s);
        }
    }

    #[inline(always)]
    fn load8(&self, at: usize) -> [u8; 8] {
        get8(self.0, at & WIN_MASK)
    }

    #[inline(always)]
    fn store8(&mut self, at: usize, v: [u8; 8]) {
        put8(self.0, at & WIN_MASK, v);
    }

    #[inline(always)]
    fn chunk16(&mut self, from: usize, to: usize) {
        let (from, to) = (from & WIN_MASK, to & WIN_MASK);
        let mut c = [0u8; 16];
        if let Some(s) = self.0.get(from..from + 16) {
            c.copy_from_slice(s);
        }
        if let Some(d) = self.0.get_mut(to..to + 16) {
            d.copy_from_slice(&c);
        }
    }

    #[inline(always)]
    fn cold(&mut self, op: usize, dist: usize, len: usize) {
        lz_copy_cold(self.0, op & WIN_MASK, dist, len);
    }
}

/// One full group from `g` (the stream bytes at `ip`) into `out` from `op`; `mask` bounds the
/// group's token positions for the compiler (a no-op on real positions). Returns (stream bytes
/// used, new output position).
///
/// A run of literals is one 8-byte copy and a reference with distance ≥ 16 and length ≤ 16 (most
/// of them in game files) one 16-byte copy: the slack absorbs the over-copy and later tokens
/// overwrite it. Everything rarer is out of line, so the loop keeps its state in registers.
#[inline(always)]
fn group<const IN: usize>(
    g: &[u8; IN],
    ip: usize,
    mut op: usize,
    out: &mut impl Sink,
    mask: usize,
) -> Result<(usize, usize)> {
    let Some((flags, rest)) = g.split_first() else {
        return Ok((0, op));
    };
    if *flags == 0xFF {
        // Eight literals (incompressible data): no table lookup on the path to the next group.
        out.literals(op, rest, 0);
        return Ok((9, op + 8));
    }
    let [nref, runs @ ..] = RUNS.get(usize::from(*flags)).unwrap_or(&[0; 16]);
    let nref = usize::from(*nref);
    let mut gi = 0usize;
    for &k in runs.get(..nref).unwrap_or_default() {
        out.literals(op, rest, gi);
        gi += usize::from(k);
        op += usize::from(k);
        let t = gi & mask;
        let (b1, b2, b3) = match rest.get(t..t + 3) {
            Some(&[b1, b2, b3]) => (usize::from(b1), usize::from(b2), usize::from(b3)),
            _ => (0, 0, 0),
        };
        let dist = ((b1 & 0x0F) << 8 | b2) + 1;
        if dist > op {
            return Err(before_start(ip + 1 + gi, dist, op));
        }
        // A branch, not a select: the next token's position then need not wait for this load.
        let len = if b1 >> 4 == 0 {
            gi += 3;
            long_len(b3)
        } else {
            gi += 2;
            (b1 >> 4) + 2
        };
        let from = op - dist;
        if dist >= 16 && len <= 16 {
            out.chunk16(from, op);
        } else if dist >= 8 && len <= 16 {
            // The period is `dist`: its first and last 8 bytes (both before `op`, so never read
            // back from this copy's stores) cover `op..op + dist + 8`, at least `op + len`.
            let a = out.load8(from);
            let c = out.load8(op - 8);
            out.store8(op, a);
            out.store8(op + dist - 8, c);
            out.store8(op + dist, a);
        } else {
            out.cold(op, dist, len);
        }
        op += len;
    }
    let k = usize::from(runs.get(nref).copied().unwrap_or(0));
    out.literals(op, rest, gi);
    Ok((gi + k + 1, op + k))
}

/// The length of a 3-byte reference; out of line so the choice between the forms stays a branch.
#[cold]
#[inline(never)]
fn long_len(b3: usize) -> usize {
    b3 + 0x12
}

/// [`lz_copy`] out of line for the fast path's rare cases (long or short-distance references).
///
/// A short overlapping reference (at most 16 bytes) is copied a byte at a time: cheaper than the
/// few `memmove` calls of [`lz_copy`]'s doubling chunks, and each byte load is forwarded from one
/// byte store.
#[inline(never)]
fn lz_copy_cold(out: &mut [u8], op: usize, dist: usize, len: usize) {
    if dist < len && len <= 16 {
        if let Some(s) = out.get_mut(op - dist..op + len) {
            for i in dist..s.len() {
                let b = s.get(i - dist).copied().unwrap_or(0);
                if let Some(d) = s.get_mut(i) {
                    *d = b;
                }
            }
        }
    } else {
        lz_copy(out, op, dist, len);
    }
}

#[cold]
#[inline(never)]
fn before_start(at: usize, dist: usize, op: usize) -> Error {
    bad_ref(
        at,
        format!(
            "back-reference {dist:#x} bytes back at output position {op:#x} reaches before the start"
        ),
    )
}

/// Reads the back-reference at `ip`: (distance, length, bytes used).
#[inline(always)]
pub(crate) fn read_ref(src: &[u8], ip: usize) -> Result<(usize, usize, usize)> {
    let pair = src.get(ip..ip + 2).ok_or_else(|| truncated(src, ip, 2))?;
    let (b1, b2) = match pair {
        [a, b] => (usize::from(*a), usize::from(*b)),
        _ => return Err(truncated(src, ip, 2)),
    };
    let dist = ((b1 & 0x0F) << 8 | b2) + 1;
    if b1 >> 4 == 0 {
        let b3 = *src.get(ip + 2).ok_or_else(|| truncated(src, ip, 3))?;
        Ok((dist, usize::from(b3) + 0x12, 3))
    } else {
        Ok((dist, (b1 >> 4) + 2, 2))
    }
}

/// YAZ0-003 and YAZ0-001: a back-reference must stay inside what was produced and what was declared.
#[inline(always)]
pub(crate) fn check_ref(ip: usize, op: usize, n: usize, dist: usize, len: usize) -> Result<()> {
    if dist > op {
        return Err(bad_ref(
            ip,
            format!(
                "back-reference {dist:#x} bytes back at output position {op:#x} reaches before the start"
            ),
        ));
    }
    if len > n - op {
        return Err(bad_ref(
            ip,
            format!(
                "back-reference of {len:#x} bytes at output position {op:#x} runs past the declared size {n:#x}"
            ),
        ));
    }
    Ok(())
}
