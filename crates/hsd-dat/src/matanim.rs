//! Material and texture animations as the runtime binds and applies them: a MatAnimJoint tree
//! walked beside its joint tree (child with child, next with next), each joint's MatAnim list
//! beside its DObj list, a MatAnim's AObj driving the DObj's MObj (`MObjUpdateFunc`) and each
//! TexAnim the MObj's TObj with the same GXTexMapID (`lookupTextureAnim`, `TObjUpdateFunc`).
//! Tracks are read at `frame + start_frame` like joint tracks ([`crate::anim::Curve`]).
//!
//! What a track's value `v` sets: a colour channel `(u8)(255·v)`, the material alpha `1 − v`,
//! the texture translation, scale and rotation `v` itself, the texture image `imagetbl[(int)v]`
//! (kept when that entry is NULL) and the palette `tluttbl[(u8)v]`.

use gcio::{Result, Visited};

use crate::anim::Curve;
use crate::flags::AObjFlags;
use crate::types::{AObj, DObj, Joint, JointData, MObj, MatAnim, MatAnimJoint, TObj, TexAnim};
use crate::view::Archive;

/// MObj track ids (`HSD_A_M_*`).
pub mod mobj_track {
    /// Ambient red, green, blue (1–3).
    pub const AMBIENT: [u8; 3] = [1, 2, 3];
    /// Diffuse red, green, blue (4–6).
    pub const DIFFUSE: [u8; 3] = [4, 5, 6];
    /// Specular red, green, blue (7–9).
    pub const SPECULAR: [u8; 3] = [7, 8, 9];
    /// Transparency: the runtime sets the material alpha to `1 − v`.
    pub const ALPHA: u8 = 10;
    /// Pixel engine ref0, ref1 and destination alpha (11–13; applied when the MObj has a PE).
    pub const PE: [u8; 3] = [11, 12, 13];
}

/// TObj track ids (`HSD_A_T_*`).
pub mod tobj_track {
    /// Image table index.
    pub const TIMG: u8 = 1;
    /// Translation U, V.
    pub const TRANSLATE: [u8; 2] = [2, 3];
    /// Scale U, V.
    pub const SCALE: [u8; 2] = [4, 5];
    /// Rotation X, Y, Z.
    pub const ROTATE: [u8; 3] = [6, 7, 8];
    /// Blending.
    pub const BLEND: u8 = 9;
    /// Palette table index.
    pub const TCLT: u8 = 10;
    /// LOD bias, konst and TEV register colours (11–23): written through the TObj's LOD and
    /// TEV descriptions, which the runtime dereferences without a NULL check.
    pub const DESC_TRACKS: std::ops::RangeInclusive<u8> = 11..=23;
    /// LOD bias (through the LOD description).
    pub const LOD_BIAS: u8 = 11;
    /// Texture stage blending.
    pub const TS_BLEND: u8 = 24;
}

/// One decoded track: id, start frame, curve.
pub type TrackCurve = (u8, f32, Curve);

/// The value of `track` among `tracks` at `frame` (`None` when not animated).
pub fn value(tracks: &[TrackCurve], track: u8, frame: f32) -> Option<f32> {
    tracks
        .iter()
        .find(|t| t.0 == track)
        .map(|(_, start, c)| c.eval(frame + start))
}

/// A TObj's texture animation.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimatedTexture {
    /// Data offset of the TObj.
    pub tobj: u32,
    /// Its GXTexMapID.
    pub id: u32,
    /// The AObj's last frame.
    pub end_frame: f32,
    /// The AObj's flags.
    pub flags: AObjFlags,
    /// The AObj (data offset).
    pub aobj: Option<u32>,
    /// Its tracks.
    pub tracks: Vec<TrackCurve>,
    /// Image table (data offsets; `None` for a NULL entry).
    pub images: Vec<Option<u32>>,
    /// Palette table.
    pub palettes: Vec<Option<u32>>,
}

impl AnimatedTexture {
    /// The image table index `TIMG` selects at each frame `0..=last`, when it is animated:
    /// `(int)v`, or the previous frame's choice (none before the first) where that entry is
    /// NULL or outside the table, since the runtime then keeps the image it has.
    pub fn image_indices(&self, last: u32) -> Vec<Option<usize>> {
        let mut current = None;
        (0..=last)
            .map(|f| {
                let v = value(&self.tracks, tobj_track::TIMG, f as f32);
                if let Some(n) = v.map(f32::trunc).filter(|n| {
                    *n >= 0.0
                        && *n < self.images.len() as f32
                        && self.images.get(*n as usize).is_some_and(Option::is_some)
                }) {
                    current = Some(n as usize);
                }
                current
            })
            .collect()
    }

    /// The palette table index `TCLT` selects at `frame`, when it is animated and the table has
    /// that entry: `(u8)v`.
    pub fn palette_index(&self, frame: u32) -> Option<usize> {
        let v = value(&self.tracks, tobj_track::TCLT, frame as f32)?;
        let n = v.clamp(0.0, 255.0) as usize;
        self.palettes.get(n).copied().flatten().map(|_| n)
    }
}

/// One MObj's animation (a MatAnim bound to a DObj).
#[derive(Debug, Clone, PartialEq)]
pub struct AnimatedMaterial {
    /// Data offset of the MObj.
    pub mobj: u32,
    /// The AObj's last frame (0 without one).
    pub end_frame: f32,
    /// The AObj's flags (empty without one).
    pub flags: AObjFlags,
    /// The AObj (data offset).
    pub aobj: Option<u32>,
    /// Its tracks.
    pub tracks: Vec<TrackCurve>,
    /// Its TObjs' animations, in TObj chain order.
    pub textures: Vec<AnimatedTexture>,
}

/// A MatAnimJoint tree bound to its joint tree.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MaterialAnimation {
    /// Every animated MObj, in joint pre-order and DObj order (an MObj that several DObjs share
    /// once, with its first MatAnim).
    pub materials: Vec<AnimatedMaterial>,
}

impl MaterialAnimation {
    /// The largest `end_frame` of its AObjs.
    pub fn end_frame(&self) -> f32 {
        self.materials
            .iter()
            .flat_map(|m| {
                std::iter::once(m.end_frame).chain(m.textures.iter().map(|t| t.end_frame))
            })
            .fold(0.0, f32::max)
    }
}

impl Archive<'_> {
    /// The end frame, flags and tracks of the AObj at `aobj`.
    fn aobj_tracks(&self, aobj: Option<u32>) -> Result<(f32, AObjFlags, Vec<TrackCurve>)> {
        match aobj {
            Some(o) => {
                let a = self.read::<AObj>(o)?;
                Ok((a.end_frame, a.flags, self.curves(o)?))
            }
            None => Ok((0.0, AObjFlags::empty(), Vec::new())),
        }
    }

    /// The NULL-or-pointer entries of a pointer table of `n` entries.
    fn table(&self, table: Option<u32>, n: u16) -> Vec<Option<u32>> {
        (0..u32::from(n))
            .map(|i| {
                table
                    .and_then(|t| self.pointer(t.wrapping_add(4 * i)).ok())
                    .flatten()
            })
            .collect()
    }

    /// Binds the MatAnimJoint tree at `matanim` to the joint tree at `joint` (see the module
    /// documentation). MatAnims beyond a joint's DObjs and TexAnims without a TObj of their id
    /// bind to nothing, as in the runtime.
    pub fn material_animation(&self, joint: u32, matanim: u32) -> Result<MaterialAnimation> {
        let mut out = MaterialAnimation::default();
        let mut seen = Visited::new(self.limits());
        let mut stack = vec![(joint, Some(matanim), 0u32)];
        while let Some((j, m, depth)) = stack.pop() {
            self.limits()
                .check_depth(depth, self.data().abs(j as usize))?;
            if !seen.visit(u64::from(j))? {
                continue;
            }
            let jt: Joint = self.read(j)?;
            let maj: Option<MatAnimJoint> = m.map(|m| self.read(m)).transpose()?;
            if let Some(n) = jt.next {
                stack.push((n, maj.and_then(|x| x.next), depth));
            }
            if let Some(c) = jt.child {
                stack.push((c, maj.and_then(|x| x.child), depth + 1));
            }
            let (Some(maj), JointData::DObj) = (maj, jt.data_kind()) else {
                continue;
            };
            let (mut dobj, mut anim) = (jt.data, maj.matanim);
            let mut pairs = Visited::new(self.limits());
            while let (Some(d), Some(a)) = (dobj, anim) {
                if !pairs.visit(u64::from(d))? {
                    break;
                }
                let dd: DObj = self.read(d)?;
                let ma: MatAnim = self.read(a)?;
                (dobj, anim) = (dd.next, ma.next);
                let Some(mo) = dd.mobj else { continue };
                if out.materials.iter().any(|x| x.mobj == mo) {
                    continue;
                }
                let (end_frame, flags, tracks) = self.aobj_tracks(ma.aobj)?;
                let textures = self.texture_animations(mo, ma.texanim)?;
                if ma.aobj.is_some() || !textures.is_empty() {
                    out.materials.push(AnimatedMaterial {
                        mobj: mo,
                        end_frame,
                        flags,
                        aobj: ma.aobj,
                        tracks,
                        textures,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The animated TObjs of the MObj at `mobj` under the TexAnim list `texanim`.
    fn texture_animations(&self, mobj: u32, texanim: Option<u32>) -> Result<Vec<AnimatedTexture>> {
        let mut anims = Vec::new();
        let mut seen = Visited::new(self.limits());
        let mut at = texanim;
        while let Some(t) = at {
            if !seen.visit(u64::from(t))? {
                break;
            }
            let ta: TexAnim = self.read(t)?;
            anims.push(ta);
            at = ta.next;
        }
        let mut out = Vec::new();
        let mut tobj = self.read::<MObj>(mobj)?.tobj;
        let mut seen = Visited::new(self.limits());
        while let Some(o) = tobj {
            if !seen.visit(u64::from(o))? {
                break;
            }
            let t: TObj = self.read(o)?;
            tobj = t.next;
            let Some(ta) = anims.iter().find(|a| a.id == t.id) else {
                continue;
            };
            if ta.aobj.is_none() {
                continue;
            }
            let (end_frame, flags, tracks) = self.aobj_tracks(ta.aobj)?;
            out.push(AnimatedTexture {
                tobj: o,
                id: t.id,
                end_frame,
                flags,
                aobj: ta.aobj,
                tracks,
                images: self.table(ta.image_table, ta.n_images),
                palettes: self.table(ta.palette_table, ta.n_palettes),
            });
        }
        Ok(out)
    }
}

/// A TObj's texture matrix inputs (`MakeTextureMtx`): rotation, scale, translation, repeat
/// counts and whether T wraps mirrored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureSrt {
    /// Euler rotation (the matrix turns by −Z; X and Y tilt it out of the UV plane).
    pub rotate: [f32; 3],
    /// Scale: the matrix scales U by `repeat_s / scale_u` (0 below 1e-10), V likewise.
    pub scale: [f32; 3],
    /// Translation, subtracted before rotating.
    pub translate: [f32; 3],
    /// Repeat counts S and T (the runtime asserts both non-zero; 0 reads as 1 here).
    pub repeat: [u8; 2],
    /// `wrap_t == GX_MIRROR`: V is shifted by one more repeat (`scale_v / repeat_t`).
    pub mirror_t: bool,
}

/// `GX_MIRROR`.
pub const GX_MIRROR: u32 = 2;

/// glTF `KHR_texture_transform` values: offset, rotation, scale.
pub type GltfTransform = ([f32; 2], f32, [f32; 2]);

impl TextureSrt {
    /// The SRT of a TObj.
    pub fn of<P>(t: &TObj<P>) -> TextureSrt {
        TextureSrt {
            rotate: t.rotate,
            scale: t.scale,
            translate: t.translate,
            repeat: [t.repeat_s, t.repeat_t],
            mirror_t: t.wrap_t == GX_MIRROR,
        }
    }

    /// With texture track `track` (translation, scale, rotation) set to `v`.
    pub fn with(mut self, track: u8, v: f32) -> TextureSrt {
        let slot = match track {
            2 | 3 => self.translate.get_mut(usize::from(track - 2)),
            4 | 5 => self.scale.get_mut(usize::from(track - 4)),
            6..=8 => self.rotate.get_mut(usize::from(track - 6)),
            _ => None,
        };
        if let Some(s) = slot {
            *s = v;
        }
        self
    }

    fn repeats(&self) -> [f32; 2] {
        self.repeat.map(|r| f32::from(r.max(1)))
    }

    /// The V shift of a mirrored T wrap.
    fn mirror_shift(&self) -> f32 {
        if self.mirror_t {
            1.0 / (self.repeats()[1] / self.scale[1])
        } else {
            0.0
        }
        .min(f32::MAX)
    }

    /// The same texture matrix as glTF's `offset + R(rotation)·diag(scale)·uv`, and whether it
    /// is exactly that. The runtime maps `uv` to `H·R(rz)·(uv − t)` (`H` = repeat / scale per
    /// axis, `R(a)` = `[[cos a, sin a], [−sin a, cos a]]`, glTF's rotation matrix too, `t` the
    /// translation with the mirror shift): rotation = rz, scale = H, offset = −H·R(rz)·t. `H`
    /// and `R` commute — the values are exact — when `H` is uniform or `sin rz` is 0, and the
    /// X and Y rotations are 0.
    pub fn to_gltf(&self) -> (GltfTransform, bool) {
        let [rs, rt] = self.repeats();
        let h = |r: f32, s: f32| if s.abs() < 1e-10 { 0.0 } else { r / s };
        let (hu, hv) = (h(rs, self.scale[0]), h(rt, self.scale[1]));
        let rz = self.rotate[2];
        let (s, c) = rz.sin_cos();
        let t = [self.translate[0], self.translate[1] + self.mirror_shift()];
        // M = diag(hu, hv)·R(rz); offset = −M·t.
        let offset = [
            -(hu * (c * t[0] + s * t[1])),
            -(hv * (-s * t[0] + c * t[1])),
        ];
        let exact = (s * (hu - hv)).abs() <= 1e-6 * hu.abs().max(hv.abs()).max(1.0)
            && self.rotate[0] == 0.0
            && self.rotate[1] == 0.0;
        ((offset, rz, [hu, hv]), exact)
    }

    /// The translation, scale and Z rotation that give glTF's transform `g` with this SRT's
    /// repeat counts and wrap (the inverse of [`TextureSrt::to_gltf`]; a zero scale keeps this
    /// translation, which it hides).
    pub fn from_gltf(mut self, g: GltfTransform) -> TextureSrt {
        let ([ou, ov], rz, [hu, hv]) = g;
        let [rs, rt] = self.repeats();
        let inv = |r: f32, h: f32| if h == 0.0 { 0.0 } else { r / h };
        self.scale[0] = inv(rs, hu);
        self.scale[1] = inv(rt, hv);
        self.rotate[2] = rz;
        if hu != 0.0 && hv != 0.0 {
            // t = −R(−rz)·diag(1/hu, 1/hv)·offset.
            let (s, c) = rz.sin_cos();
            let (a, b) = (ou / hu, ov / hv);
            self.translate[0] = -(c * a - s * b);
            self.translate[1] = -(s * a + c * b) - self.mirror_shift();
        }
        self
    }

    /// Texture track `track`'s value in this SRT (`None` for other tracks).
    pub fn track(&self, track: u8) -> Option<f32> {
        match track {
            2 | 3 => self.translate.get(usize::from(track - 2)).copied(),
            4 | 5 => self.scale.get(usize::from(track - 4)).copied(),
            6..=8 => self.rotate.get(usize::from(track - 6)).copied(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) {
        assert!((a - b).abs() < 1e-5, "{a} vs {b}");
    }

    /// The runtime's matrix by hand (`MTXTrans`, `HSD_MkRotationMtx` of −rz, `MTXScale`,
    /// concatenated S·R·T) against glTF's `T·R·S` from [`TextureSrt::to_gltf`].
    #[test]
    fn texture_matrix_matches_the_runtime() {
        let uv = [0.3f32, -0.7];
        for (rz, scale, repeat, mirror) in [
            (0.0, [2.0, 0.5], [1, 3], false),
            (0.7, [2.0, 2.0], [1, 1], true),
            (0.0, [1.0, 1.0], [2, 2], true),
        ] {
            let srt = TextureSrt {
                rotate: [0.0, 0.0, rz],
                scale: [scale[0], scale[1], 1.0],
                translate: [0.25, -0.125, 0.0],
                repeat,
                mirror_t: mirror,
            };
            // Runtime: H·Rz(−rz)·(uv + trans), trans = −(t + mirror shift).
            let h = [
                f32::from(repeat[0]) / scale[0],
                f32::from(repeat[1]) / scale[1],
            ];
            let shift = if mirror {
                1.0 / (f32::from(repeat[1]) / scale[1])
            } else {
                0.0
            };
            let p = [uv[0] - 0.25, uv[1] + 0.125 - shift];
            let (s, c) = (-rz).sin_cos();
            let r = [c * p[0] - s * p[1], s * p[0] + c * p[1]];
            let want = [h[0] * r[0], h[1] * r[1]];
            let ((o, th, g), exact) = srt.to_gltf();
            assert!(exact);
            // glTF: offset + R(θ)·diag(g)·uv with R's rows (cos, sin), (−sin, cos).
            let (s, c) = th.sin_cos();
            let q = [g[0] * uv[0], g[1] * uv[1]];
            close(o[0] + c * q[0] + s * q[1], want[0]);
            close(o[1] - s * q[0] + c * q[1], want[1]);
            // And back.
            let back = TextureSrt {
                translate: [0.0; 3],
                scale: [1.0; 3],
                rotate: [0.0; 3],
                ..srt
            }
            .from_gltf((o, th, g));
            for k in 0..3 {
                close(back.translate[k], srt.translate[k]);
                close(back.scale[k], srt.scale[k]);
                close(back.rotate[k], srt.rotate[k]);
            }
        }
        // A non-uniform scale with a rotation has no exact glTF form.
        let srt = TextureSrt {
            rotate: [0.0, 0.0, 0.5],
            scale: [1.0, 2.0, 1.0],
            translate: [0.0; 3],
            repeat: [1, 1],
            mirror_t: false,
        };
        assert!(!srt.to_gltf().1);
    }
}
