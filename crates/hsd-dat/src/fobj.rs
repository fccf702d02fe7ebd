//! FObj keyframe streams: packs of keys (a 7-bit little-endian varint header: opcode in bits 0–3,
//! count − 1 above), values and slopes in the FObj's `frac` formats (little-endian numbers), and
//! LEB128 waits. SLP keys carry a slope and no wait; a wait follows KEY (conflict C-28 pins it).

use gcio::{Error, Reader, Result};

use crate::types::FObj;
use crate::view::Archive;

/// Keyframe opcodes (`HSD_A_OP_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Op(pub u8);

impl Op {
    /// Stops the track.
    pub const NONE: Op = Op(0);
    /// Constant.
    pub const CON: Op = Op(1);
    /// Linear.
    pub const LIN: Op = Op(2);
    /// Spline, zero slope.
    pub const SPL0: Op = Op(3);
    /// Spline with slope.
    pub const SPL: Op = Op(4);
    /// Slope only (overrides the next segment's outgoing tangent).
    pub const SLP: Op = Op(5);
    /// Key (emitted once).
    pub const KEY: Op = Op(6);
}

/// One decoded key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Key {
    /// Opcode of its pack.
    pub op: Op,
    /// Value (none for SLP).
    pub value: Option<f32>,
    /// Slope (SPL, SLP).
    pub slope: Option<f32>,
    /// Frames to the next key (none for SLP).
    pub wait: Option<u32>,
}

/// Reads one number of `frac` format (bits 5–7: 0 FLOAT, 1 S16, 2 U16, 3 S8, 4 U8; bits 0–4: shift).
fn number(r: &Reader<'_>, pos: &mut usize, frac: u8) -> Result<f32> {
    let scale = (-f32::from(frac & 0x1F)).exp2();
    let v = match frac >> 5 {
        0 => {
            let v = r.f32_le(*pos)?;
            *pos += 4;
            return Ok(v);
        }
        1 => f32::from(r.i16_le(*pos)?),
        2 => f32::from(r.u16_le(*pos)?),
        3 => f32::from(r.i8(*pos)?),
        4 => f32::from(r.u8(*pos)?),
        f => {
            return Err(Error::invalid(
                r.abs(*pos),
                format!("keyframe number format {f} (0..4 allowed)"),
            ));
        }
    };
    *pos += match frac >> 5 {
        1 | 2 => 2,
        _ => 1,
    };
    Ok(v * scale)
}

fn varint(r: &Reader<'_>, pos: &mut usize) -> Result<u32> {
    let mut v = 0u32;
    for shift in (0..35).step_by(7) {
        let b = r.u8(*pos)?;
        *pos += 1;
        v |= u32::from(b & 0x7F).checked_shl(shift).unwrap_or(0);
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(Error::invalid(
        r.abs(*pos),
        "keyframe varint longer than 5 bytes",
    ))
}

/// Keys sharing one pack header (one opcode). Pack boundaries are kept so [`encode_packs`]
/// reproduces a stream byte for byte even where a writer split a run of equal opcodes.
#[derive(Debug, Clone, PartialEq)]
pub struct Pack {
    /// Opcode of every key of the pack.
    pub op: Op,
    /// The keys (1 or more).
    pub keys: Vec<Key>,
}

/// Decodes a stream of `length` bytes with the FObj's formats. The stream must end exactly at
/// `length` (HSD-024); opcode NONE ends it early only when nothing follows.
pub fn decode(stream: &Reader<'_>, frac_value: u8, frac_slope: u8) -> Result<Vec<Key>> {
    Ok(decode_packs(stream, frac_value, frac_slope)?
        .into_iter()
        .flat_map(|p| p.keys)
        .collect())
}

/// Decodes a stream into its packs (see [`decode`]).
pub fn decode_packs(stream: &Reader<'_>, frac_value: u8, frac_slope: u8) -> Result<Vec<Pack>> {
    let mut packs = Vec::new();
    let mut pos = 0usize;
    while pos < stream.len() {
        let header_at = pos;
        let b0 = stream.u8(pos)?;
        // The pack header: op in bits 0–3; count − 1 in bits 4–6, continued 7 bits at a time.
        let v = varint(stream, &mut pos)?;
        let op = Op(b0 & 0xF);
        let count = (v >> 4) as usize + 1;
        if op == Op::NONE || op.0 > 6 {
            return Err(Error::invalid(
                stream.abs(header_at),
                format!("keyframe opcode {} (1..6 allowed)", op.0),
            ));
        }
        let mut keys = Vec::new();
        for _ in 0..count {
            if pos >= stream.len() {
                return Err(Error::invalid(
                    stream.abs(pos),
                    "keyframe pack runs past the stream length",
                ));
            }
            let key = match op {
                Op::SLP => Key {
                    op,
                    value: None,
                    slope: Some(number(stream, &mut pos, frac_slope)?),
                    wait: None,
                },
                Op::SPL => {
                    let value = number(stream, &mut pos, frac_value)?;
                    let slope = number(stream, &mut pos, frac_slope)?;
                    Key {
                        op,
                        value: Some(value),
                        slope: Some(slope),
                        wait: Some(varint(stream, &mut pos)?),
                    }
                }
                _ => {
                    let value = number(stream, &mut pos, frac_value)?;
                    Key {
                        op,
                        value: Some(value),
                        slope: None,
                        wait: Some(varint(stream, &mut pos)?),
                    }
                }
            };
            keys.push(key);
        }
        packs.push(Pack { op, keys });
    }
    if pos != stream.len() {
        return Err(Error::invalid(
            stream.abs(pos),
            format!(
                "keyframe stream ends at {pos:#x}, not at its length {:#x}",
                stream.len()
            ),
        ));
    }
    Ok(packs)
}

/// Appends `v` as an unsigned LEB128 (the shortest form, as every writer seen emits).
fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// Appends one number in `frac` format; integer formats need `v · 2^shift` to be an integer in
/// range (what [`decode`] produced always is).
fn put_number(out: &mut Vec<u8>, v: f32, frac: u8) -> Result<()> {
    let raw = f64::from(v) * f64::from(frac & 0x1F).exp2();
    let fits = |lo: f64, hi: f64| raw.fract() == 0.0 && (lo..=hi).contains(&raw);
    let at = out.len() as u64;
    let bad = || {
        Error::invalid(
            at,
            format!("keyframe number {v} does not fit format {frac:#04x}"),
        )
    };
    match frac >> 5 {
        0 => out.extend_from_slice(&v.to_le_bytes()),
        1 if fits(-32768.0, 32767.0) => out.extend_from_slice(&(raw as i16).to_le_bytes()),
        2 if fits(0.0, 65535.0) => out.extend_from_slice(&(raw as u16).to_le_bytes()),
        3 if fits(-128.0, 127.0) => out.extend_from_slice(&(raw as i8).to_le_bytes()),
        4 if fits(0.0, 255.0) => out.push(raw as u8),
        _ => return Err(bad()),
    }
    Ok(())
}

/// Encodes packs back into a stream: the inverse of [`decode_packs`], byte for byte for every
/// stream whose varints are in shortest form. Each key needs the fields its pack's opcode reads.
pub fn encode_packs(packs: &[Pack], frac_value: u8, frac_slope: u8) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for p in packs {
        let at = out.len() as u64;
        let count = u32::try_from(p.keys.len())
            .ok()
            .and_then(|n| n.checked_sub(1))
            .filter(|n| *n < 1 << 28)
            .ok_or_else(|| Error::invalid(at, "keyframe pack of 0 or over 2^28 keys"))?;
        if p.op == Op::NONE || p.op.0 > 6 {
            return Err(Error::invalid(
                at,
                format!("keyframe opcode {} (1..6 allowed)", p.op.0),
            ));
        }
        put_varint(&mut out, count << 4 | u32::from(p.op.0));
        for k in &p.keys {
            let at = out.len() as u64;
            let missing = |what: &str| Error::invalid(at, format!("keyframe key without {what}"));
            if p.op != Op::SLP {
                put_number(
                    &mut out,
                    k.value.ok_or_else(|| missing("value"))?,
                    frac_value,
                )?;
            }
            if matches!(p.op, Op::SPL | Op::SLP) {
                put_number(
                    &mut out,
                    k.slope.ok_or_else(|| missing("slope"))?,
                    frac_slope,
                )?;
            }
            if p.op != Op::SLP {
                put_varint(&mut out, k.wait.ok_or_else(|| missing("wait"))?);
            }
        }
    }
    Ok(out)
}

/// Encodes keys, one pack per run of equal opcodes (each key's `op` picks its pack).
pub fn encode(keys: &[Key], frac_value: u8, frac_slope: u8) -> Result<Vec<u8>> {
    encode_packs(&packs(keys), frac_value, frac_slope)
}

/// Groups keys into packs, one per run of equal opcodes.
pub fn packs(keys: &[Key]) -> Vec<Pack> {
    let mut out: Vec<Pack> = Vec::new();
    for k in keys {
        match out.last_mut() {
            Some(p) if p.op == k.op => p.keys.push(*k),
            _ => out.push(Pack {
                op: k.op,
                keys: vec![*k],
            }),
        }
    }
    out
}

impl Archive<'_> {
    /// The keys of the FObj at `off`.
    pub fn keys(&self, off: u32) -> Result<Vec<Key>> {
        let f: FObj = self.read(off)?;
        let Some(d) = f.data else {
            return Ok(Vec::new());
        };
        let r = self.data().sub(d as usize, f.length as usize)?;
        decode(&r, f.frac_value, f.frac_slope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lin_then_con_and_formats() {
        // [LIN ×2: 0.0 w=10, 1.5 w=0]
        let mut s = vec![0x12];
        s.extend_from_slice(&0.0f32.to_le_bytes());
        s.push(10);
        s.extend_from_slice(&1.5f32.to_le_bytes());
        s.push(0);
        let k = decode(&Reader::new(&s), 0, 0).unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(
            (k[0].op, k[0].value, k[0].wait),
            (Op::LIN, Some(0.0), Some(10))
        );
        assert_eq!(k[1].value, Some(1.5));
        // S16 with shift 8: 0x0180 = 1.5; SLP has no wait; a two-byte wait of 200.
        let s = [0x04, 0x80, 0x01, 0x40, 0x00, 0xC8, 0x01, 0x05, 0x00, 0x01];
        let k = decode(&Reader::new(&s), 0x28, 0x28).unwrap();
        assert_eq!(
            (k[0].value, k[0].slope, k[0].wait),
            (Some(1.5), Some(0.25), Some(200))
        );
        assert_eq!((k[1].op, k[1].slope, k[1].wait), (Op::SLP, Some(1.0), None));
        // Format 5 and a short stream are errors.
        assert!(decode(&Reader::new(&[0x01, 0, 0]), 0xA0, 0).is_err());
        assert!(decode(&Reader::new(&[0x12, 0, 0, 0, 0, 1]), 0, 0).is_err());
        assert!(decode(&Reader::new(&[0x07, 0]), 0, 0).is_err());
    }
}
