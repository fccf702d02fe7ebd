//! Evaluation as the game does it: keyed tracks are cubic Hermite between keys with per-frame
//! slopes (one shared tangent per key in mode 0, in and out in mode 1), clamped to the first and
//! last key; per-frame tracks take the whole frame; rotations are `i16 × 2^decimal × 180 / 32768`
//! degrees; loop modes map a running time onto a frame.

use crate::model::{Anim, Data, FullTrack, KeyTrack};
use crate::schema::Kind;

/// A transform sample: scale, rotation in degrees (applied X, then Y, then Z) and translation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Srt {
    /// Scale X, Y, Z (texture matrices: S, T, Q).
    pub scale: [f32; 3],
    /// Rotation X, Y, Z in degrees.
    pub rotation: [f32; 3],
    /// Translation X, Y, Z.
    pub translation: [f32; 3],
}

impl Srt {
    /// The 3×4 matrix `T · Rz · Ry · Rx · S` (J3D's joint order), row-major.
    pub fn matrix(&self) -> [[f32; 4]; 3] {
        let [rx, ry, rz] = self.rotation.map(f32::to_radians);
        let (sx, cx) = rx.sin_cos();
        let (sy, cy) = ry.sin_cos();
        let (sz, cz) = rz.sin_cos();
        let [kx, ky, kz] = self.scale;
        let [tx, ty, tz] = self.translation;
        [
            [
                cy * cz * kx,
                (sx * sy * cz - cx * sz) * ky,
                (cx * sy * cz + sx * sz) * kz,
                tx,
            ],
            [
                cy * sz * kx,
                (sx * sy * sz + cx * cz) * ky,
                (cx * sy * sz - sx * cz) * kz,
                ty,
            ],
            [-sy * kx, sx * cy * ky, cx * cy * kz, tz],
        ]
    }
}

/// Maps time `t` (in frames since the start) to the frame shown, for loop mode `mode`
/// (0 once: hold the last frame; 1 once and reset: back to 0; 2 repeat; 3 mirrored once: forward,
/// back, then hold 0; 4 mirrored repeat). Unknown modes behave as 0.
pub fn frame_at(mode: u8, duration: f32, t: f32) -> f32 {
    if duration <= 0.0 || !t.is_finite() {
        return 0.0;
    }
    let t = t.max(0.0);
    match mode {
        1 if t >= duration => 0.0,
        2 => t % duration,
        3 if t >= 2.0 * duration => 0.0,
        3 if t >= duration => 2.0 * duration - t,
        4 => {
            let m = t % (2.0 * duration);
            if m < duration { m } else { 2.0 * duration - m }
        }
        _ => t.min(duration),
    }
}

pub use gx::curve::hermite;

/// Value `i` of a value table as f32 (before any rotation scaling).
pub fn value(data: &Data, i: usize) -> Option<f32> {
    match data {
        Data::F32(v) => v.get(i).copied(),
        Data::I16(v) => v.get(i).map(|&x| f32::from(x)),
        Data::U16(v) => v.get(i).map(|&x| f32::from(x)),
        Data::U8(v) => v.get(i).map(|&x| f32::from(x)),
        _ => None,
    }
}

/// A keyed track at `frame`, values and tangents multiplied by `scale`. `None` when the track has
/// no keys or points outside its table.
pub fn keyed(track: KeyTrack, table: &Data, scale: f32, frame: f32) -> Option<f32> {
    let at = |i: usize| value(table, i).map(|v| v * scale);
    let base = usize::from(track.index);
    match track.count {
        0 => None,
        1 => at(base),
        n => {
            let stride = if track.tangent == 0 { 3 } else { 4 };
            let key = |k: usize| -> Option<gx::curve::Key> {
                let o = base + k * stride;
                let in_slope = at(o + 2)?;
                Some(gx::curve::Key {
                    frame: value(table, o)?,
                    value: at(o + 1)?,
                    in_slope,
                    out_slope: if stride == 3 { in_slope } else { at(o + 3)? },
                })
            };
            gx::curve::eval_by(usize::from(n), key, frame)
        }
    }
}

/// A per-frame track at `frame` (the whole frame, clamped to the stored range).
pub fn full(track: FullTrack, table: &Data, scale: f32, frame: f32) -> Option<f32> {
    let i = match track.count {
        0 => return None,
        1 => 0,
        n => (frame.max(0.0) as usize).min(usize::from(n) - 1),
    };
    value(table, usize::from(track.index) + i).map(|v| v * scale)
}

/// Degrees per stored rotation unit for `decimal`.
pub fn rotation_unit(decimal: u8) -> f32 {
    2f32.powi(i32::from(decimal.min(31))) * 180.0 / 32768.0
}

fn tables<'a>(anim: &'a Anim, values: &[usize]) -> Option<[&'a Data; 3]> {
    let s = values.first().and_then(|&i| anim.table(i))?;
    let r = values.get(1).and_then(|&i| anim.table(i))?;
    let t = values.get(2).and_then(|&i| anim.table(i))?;
    Some([s, r, t])
}

/// Joint `joint` of a BCK/BCA (or texture matrix `joint` of a BTK) at `frame`. Missing components
/// default to scale 1, rotation 0, translation 0.
pub fn joint(anim: &Anim, joint: usize, frame: f32) -> Option<Srt> {
    let def = anim.kind.schema().tables.first()?;
    let [ts, tr, tt] = tables(anim, def.values)?;
    let unit = rotation_unit(anim.rotation_decimal());
    let mut out = Srt {
        scale: [1.0; 3],
        ..Srt::default()
    };
    let sample = |c: usize, table: &Data, scale: f32| -> Option<f32> {
        match anim.table(0)? {
            Data::KeySrt(v) => keyed(*v.get(joint)?.get(c)?, table, scale, frame),
            Data::FullSrt(v) => full(*v.get(joint)?.get(c)?, table, scale, frame),
            _ => None,
        }
    };
    match anim.table(0)? {
        Data::KeySrt(v) if v.len() > joint => {}
        Data::FullSrt(v) if v.len() > joint => {}
        _ => return None,
    }
    for axis in 0..3 {
        let c = axis * 3;
        if let (Some(x), Some(o)) = (sample(c, ts, 1.0), out.scale.get_mut(axis)) {
            *o = x;
        }
        if let (Some(x), Some(o)) = (sample(c + 1, tr, unit), out.rotation.get_mut(axis)) {
            *o = x;
        }
        if let (Some(x), Some(o)) = (sample(c + 2, tt, 1.0), out.translation.get_mut(axis)) {
            *o = x;
        }
    }
    Some(out)
}

/// Every joint of a BCK/BCA at time `t` (frames since the start, through the loop mode): what a
/// glTF exporter samples.
pub fn pose(anim: &Anim, t: f32) -> Vec<Srt> {
    let frame = frame_at(anim.loop_mode(), f32::from(anim.duration()), t);
    let n = anim.table(0).map_or(0, Data::len);
    (0..n).filter_map(|j| joint(anim, j, frame)).collect()
}

/// Multiplies two 3×4 affine matrices (`a · b`).
pub fn mul(a: &[[f32; 4]; 3], b: &[[f32; 4]; 3]) -> [[f32; 4]; 3] {
    let mut out = [[0.0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        let ar = a.get(r).copied().unwrap_or_default();
        for (c, cell) in row.iter_mut().enumerate() {
            let col = |k: usize| b.get(k).and_then(|br| br.get(c)).copied().unwrap_or(0.0);
            let [a0, a1, a2, a3] = ar;
            *cell = a0 * col(0) + a1 * col(1) + a2 * col(2) + if c == 3 { a3 } else { 0.0 };
        }
    }
    out
}

/// World matrices of every joint of a BCK/BCA at time `t`, given each joint's parent (from the
/// model's INF1 hierarchy; `None` for roots). Parents must come before their children, as they do
/// in J3D joint order; a joint whose parent is not earlier is treated as a root.
pub fn world_matrices(anim: &Anim, parents: &[Option<usize>], t: f32) -> Vec<[[f32; 4]; 3]> {
    let local = pose(anim, t);
    let mut world: Vec<[[f32; 4]; 3]> = Vec::with_capacity(local.len());
    for (j, srt) in local.iter().enumerate() {
        let m = srt.matrix();
        let parent = parents
            .get(j)
            .copied()
            .flatten()
            .filter(|&p| p < j)
            .and_then(|p| world.get(p));
        world.push(match parent {
            Some(p) => mul(p, &m),
            None => m,
        });
    }
    world
}

/// Colour entry `i` of a BRK (`konst` picks the konst list) or BPK at `frame`: R, G, B, A as the
/// game computes them before clamping to the register's range.
pub fn color(anim: &Anim, konst: bool, i: usize, frame: f32) -> Option<[f32; 4]> {
    let s = anim.kind.schema();
    let (ti, tracks): (usize, [KeyTrack; 4]) = match (anim.kind, konst) {
        (Kind::Brk, false) => (
            0,
            match anim.table(0)? {
                Data::TevColor(v) => v.get(i)?.tracks,
                _ => return None,
            },
        ),
        (Kind::Brk, true) => (
            1,
            match anim.table(1)? {
                Data::TevColor(v) => v.get(i)?.tracks,
                _ => return None,
            },
        ),
        (Kind::Bpk, false) => (
            0,
            match anim.table(0)? {
                Data::KeyColor(v) => *v.get(i)?,
                _ => return None,
            },
        ),
        _ => return None,
    };
    let values = s.tables.get(ti)?.values;
    let mut out = [0.0; 4];
    for ((o, t), &vi) in out.iter_mut().zip(tracks).zip(values) {
        *o = keyed(t, anim.table(vi)?, 1.0, frame).unwrap_or(0.0);
    }
    Some(out)
}

/// Texture index shown by BTP entry `i` at `frame`.
pub fn pattern(anim: &Anim, i: usize, frame: f32) -> Option<u16> {
    let Data::Pattern(v) = anim.table(0)? else {
        return None;
    };
    full(v.get(i)?.track, anim.table(1)?, 1.0, frame).map(|x| x as u16)
}

/// Whether BVA shape `i` is shown at `frame`.
pub fn visible(anim: &Anim, i: usize, frame: f32) -> Option<bool> {
    let Data::Full(v) = anim.table(0)? else {
        return None;
    };
    full(*v.get(i)?, anim.table(1)?, 1.0, frame).map(|x| x != 0.0)
}

/// Weight of cluster (blend shape) `i` of a BLK/BLA at `frame`, as `J3DAnmClusterKey` /
/// `J3DAnmClusterFull::getWeight` compute it over the f32 weight table: a keyed track with no
/// keys weighs 1; a per-frame track takes the frame *rounded to nearest* (the only per-frame kind
/// that rounds), the first value before frame 0 and the last past its end.
pub fn weight(anim: &Anim, i: usize, frame: f32) -> Option<f32> {
    let table = anim.table(1)?;
    match anim.table(0)? {
        Data::Key(v) if anim.kind == Kind::Blk => {
            let t = *v.get(i)?;
            if t.count == 0 {
                return Some(1.0);
            }
            keyed(t, table, 1.0, frame)
        }
        Data::Full(v) if anim.kind == Kind::Bla => {
            let t = *v.get(i)?;
            let rounded = if frame < 0.0 {
                0.0
            } else {
                (frame + 0.5).floor()
            };
            full(t, table, 1.0, rounded)
        }
        _ => None,
    }
}

/// Every cluster weight of a BLK/BLA at time `t` (frames since the start, through the loop mode).
pub fn weights(anim: &Anim, t: f32) -> Vec<f32> {
    if !matches!(anim.kind, Kind::Blk | Kind::Bla) {
        return Vec::new();
    }
    let frame = frame_at(anim.loop_mode(), f32::from(anim.duration()), t);
    let n = anim.table(0).map_or(0, Data::len);
    (0..n)
        .map(|i| weight(anim, i, frame).unwrap_or(0.0))
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn hermite_hand_values() {
        // Keys (0, 0) and (10, 10), flat tangents: at t = 0.25, h01 = -2/64 + 3/16 = 0.15625.
        let table = Data::F32(vec![0.0, 0.0, 0.0, 10.0, 10.0, 0.0]);
        let tr = KeyTrack {
            count: 2,
            index: 0,
            tangent: 0,
        };
        assert!(close(keyed(tr, &table, 1.0, 2.5).unwrap(), 1.5625));
        assert!(close(keyed(tr, &table, 1.0, 5.0).unwrap(), 5.0));
        // Slope 1 in and out is the straight line.
        let lin = Data::F32(vec![0.0, 0.0, 1.0, 10.0, 10.0, 1.0]);
        assert!(close(keyed(tr, &lin, 1.0, 2.5).unwrap(), 2.5));
        // Clamped outside the keys.
        assert!(close(keyed(tr, &table, 1.0, -3.0).unwrap(), 0.0));
        assert!(close(keyed(tr, &table, 1.0, 30.0).unwrap(), 10.0));
        // Mode 1: in and out differ; out of key 0 = 2 (slope), in of key 1 = 0.
        // At t = 0.5: 0.5·0 + 0.5·10 + 0.125·(2·10) + (-0.125)·0 = 7.5.
        let io = Data::F32(vec![0.0, 0.0, 9.0, 2.0, 10.0, 10.0, 0.0, 9.0]);
        let tr1 = KeyTrack {
            count: 2,
            index: 0,
            tangent: 1,
        };
        assert!(close(keyed(tr1, &io, 1.0, 5.0).unwrap(), 7.5));
        // Constant track.
        let c = KeyTrack {
            count: 1,
            index: 1,
            tangent: 0,
        };
        assert!(close(keyed(c, &table, 2.0, 99.0).unwrap(), 0.0));
        assert!(close(
            keyed(
                KeyTrack {
                    count: 1,
                    index: 3,
                    tangent: 0
                },
                &table,
                2.0,
                0.0
            )
            .unwrap(),
            20.0
        ));
    }

    #[test]
    fn cluster_weights_hand_values() {
        // Sample BLK: cluster 0 keys (0, 0, slope 0) and (10, 1, slope 0); cluster 1 constant
        // 0.5. At frame 5 the flat Hermite is halfway: 0.5; at 2.5, h01 = 0.15625.
        let blk = crate::build::sample(Kind::Blk);
        assert!(close(weight(&blk, 0, 5.0).unwrap(), 0.5));
        assert!(close(weight(&blk, 0, 2.5).unwrap(), 0.15625));
        assert!(close(weight(&blk, 1, 7.0).unwrap(), 0.5));
        // Loop mode 2 over 10 frames: t = 12.5 shows frame 2.5.
        let w = weights(&blk, 12.5);
        assert!(close(w[0], 0.15625) && close(w[1], 0.5));
        // Sample BLA: cluster 0 stores 0, 0.25, 0.5, 1 per frame; the game rounds the frame:
        // 2.4 takes frame 2, 2.6 frame 3.
        let bla = crate::build::sample(Kind::Bla);
        assert!(close(weight(&bla, 0, 2.4).unwrap(), 0.5));
        assert!(close(weight(&bla, 0, 2.6).unwrap(), 1.0));
        assert!(close(weight(&bla, 0, -3.0).unwrap(), 0.0));
        assert!(close(weight(&bla, 0, 9.0).unwrap(), 1.0));
        assert!(close(weight(&bla, 1, 1.0).unwrap(), 1.0));
        // A keyed cluster track without keys weighs 1.
        let mut empty = blk.clone();
        if let Data::Key(v) = &mut empty.tables[0].data {
            v[1].count = 0;
        }
        assert!(close(weight(&empty, 1, 3.0).unwrap(), 1.0));
    }

    #[test]
    fn loop_modes_hand_values() {
        assert_eq!(frame_at(0, 10.0, 15.0), 10.0);
        assert_eq!(frame_at(1, 10.0, 15.0), 0.0);
        assert_eq!(frame_at(1, 10.0, 5.0), 5.0);
        assert_eq!(frame_at(2, 10.0, 15.0), 5.0);
        assert_eq!(frame_at(3, 10.0, 13.0), 7.0);
        assert_eq!(frame_at(3, 10.0, 25.0), 0.0);
        assert_eq!(frame_at(4, 10.0, 13.0), 7.0);
        assert_eq!(frame_at(4, 10.0, 23.0), 3.0);
    }

    #[test]
    fn rotation_units() {
        // decimal 1: one unit = 2 × 180 / 32768 degrees; 16384 units = 180°.
        assert!(close(rotation_unit(1) * 16384.0, 180.0));
        assert!(close(rotation_unit(0) * 32767.0, 179.9945));
    }

    #[test]
    fn full_track_frames() {
        let t = Data::U8(vec![1, 0, 1]);
        let tr = FullTrack { count: 3, index: 0 };
        assert_eq!(full(tr, &t, 1.0, 1.7), Some(0.0));
        assert_eq!(full(tr, &t, 1.0, 9.0), Some(1.0));
    }

    #[test]
    fn world_of_child_joint() {
        // Joint 0 of the sample turns 90° about Y and sits at x = 2.5 at frame 2.5; joint 1
        // (identity) under it sits at the parent's origin.
        let a = crate::build::sample_bck_model();
        let w = world_matrices(&a, &[None, Some(0)], 2.5);
        assert!(close(w[1][0][3], 2.5) && close(w[1][2][0], -1.0));
    }

    #[test]
    fn matrix_of_rotation() {
        let m = Srt {
            scale: [1.0; 3],
            rotation: [0.0, 0.0, 90.0],
            translation: [1.0, 2.0, 3.0],
        }
        .matrix();
        // Z by 90°: x axis → y axis.
        assert!(close(m[0][0], 0.0) && close(m[1][0], 1.0) && close(m[0][3], 1.0));
    }
}
