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

/// Decodes a Yaz0 stream; the declared size must pass `limits` before anything is allocated.
pub fn decode_with(data: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    let h = Header::parse(data)?;
    let n = limits.check_alloc(u64::from(h.size), 1, 4)?;
    let mut out = vec![0u8; n];
    decode_groups(data, HEADER_LEN, &mut out)?;
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

/// Decodes groups starting at `start` until `out` is full; returns the offset after the last token.
///
/// While a whole group (at most 25 stream bytes, at most 8 × 0x111 output bytes) fits, a fast path
/// decodes it from a local copy with fixed-size copies; the checked path handles the ends.
pub(crate) fn decode_groups(src: &[u8], start: usize, out: &mut [u8]) -> Result<usize> {
    let n = out.len();
    let mut ip = start;
    let mut op = 0usize;
    while op < n {
        if let Some(g) = src.get(ip..ip + 25)
            && op + 8 * 0x111 + 16 <= n
        {
            let Ok(g) = <&[u8; 25]>::try_from(g) else {
                break;
            };
            let used = fast_group(g, ip, op, out)?;
            ip += used.0;
            op = used.1;
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

/// One full group from `g` (the 25 stream bytes at `ip`); the caller guarantees room for 8
/// maximal tokens plus 16 bytes of slack in `out`. Returns (stream bytes used, new output position).
#[inline(always)]
fn fast_group(g: &[u8; 25], ip: usize, mut op: usize, out: &mut [u8]) -> Result<(usize, usize)> {
    let [flags, rest @ ..] = g;
    let flags = *flags;
    if flags == 0xFF {
        if let (Some(d), Some(s)) = (out.get_mut(op..op + 8), rest.get(..8)) {
            d.copy_from_slice(s);
        }
        return Ok((9, op + 8));
    }
    let mut gi = 0usize;
    let mut bits = u32::from(flags) << 24;
    let mut left = 8u32;
    while left > 0 {
        let k = bits.leading_ones().min(left);
        if k > 0 {
            // A run of literals: one 8-byte copy (the output has slack), then advance by the run.
            let k = k as usize;
            match (out.get_mut(op..op + 8), rest.get(gi..gi + 8)) {
                (Some(d), Some(s)) => d.copy_from_slice(s),
                (Some(d), None) => {
                    for (d, s) in d.iter_mut().zip(rest.get(gi..).unwrap_or_default()).take(k) {
                        *d = *s;
                    }
                }
                _ => {}
            }
            gi += k;
            op += k;
            bits <<= k;
            left -= k as u32;
            continue;
        }
        let at = ip + 1 + gi;
        let b1 = usize::from(rest.get(gi).copied().unwrap_or(0));
        let b2 = usize::from(rest.get(gi + 1).copied().unwrap_or(0));
        let dist = ((b1 & 0x0F) << 8 | b2) + 1;
        let len = if b1 >> 4 == 0 {
            gi += 3;
            usize::from(rest.get(gi - 1).copied().unwrap_or(0)) + 0x12
        } else {
            gi += 2;
            (b1 >> 4) + 2
        };
        if dist > op {
            return Err(bad_ref(
                at,
                format!(
                    "back-reference {dist:#x} bytes back at output position {op:#x} reaches before the start"
                ),
            ));
        }
        let from = op - dist;
        if dist >= 16 && len <= 16 {
            out.copy_within(from..from + 16, op);
        } else if dist >= 8 && len <= 16 {
            // Two 8-byte steps: the second may read what the first wrote (LZ overlap).
            out.copy_within(from..from + 8, op);
            out.copy_within(from + 8..from + 16, op + 8);
        } else {
            lz_copy(out, op, dist, len);
        }
        op += len;
        bits <<= 1;
        left -= 1;
    }
    Ok((gi + 1, op))
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
