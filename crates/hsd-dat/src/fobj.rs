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

/// Decodes a stream of `length` bytes with the FObj's formats. The stream must end exactly at
/// `length` (HSD-024); opcode NONE ends it early only when nothing follows.
pub fn decode(stream: &Reader<'_>, frac_value: u8, frac_slope: u8) -> Result<Vec<Key>> {
    let mut keys = Vec::new();
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
    Ok(keys)
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
