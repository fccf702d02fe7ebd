//! Flag words as bitflags. Every named bit of the reference is listed; values are always built
//! with `from_bits_retain`, so unknown bits survive a round trip.

use bitflags::bitflags;
use gcio::{Reader, Result};

use crate::field::Field;

macro_rules! flag_field {
    ($($t:ty: $raw:ty),*) => {$(
        impl Field for $t {
            const SIZE: usize = size_of::<$raw>();
            fn get(r: &Reader<'_>, off: usize) -> Result<Self> {
                <$raw as Field>::get(r, off).map(<$t>::from_bits_retain)
            }
            fn put(&self, out: &mut [u8], off: usize) {
                self.bits().put(out, off)
            }
        }
        impl Default for $t {
            fn default() -> Self {
                <$t>::empty()
            }
        }
    )*};
}

bitflags! {
    /// JObj flags (`HSD_Joint.flags`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct JointFlags: u32 {
        /// Envelope deformer; has an inverse bind matrix.
        const SKELETON = 1 << 0;
        /// Root of a skeleton.
        const SKELETON_ROOT = 1 << 1;
        /// Owns enveloped PObjs.
        const ENVELOPE_MODEL = 1 << 2;
        /// Classical (non-compensated) scale inheritance.
        const CLASSICAL_SCALE = 1 << 3;
        /// Not drawn.
        const HIDDEN = 1 << 4;
        /// The 0x10 union is a particle list.
        const PTCL = 1 << 5;
        /// Runtime: matrix needs an update.
        const MTX_DIRTY = 1 << 6;
        /// Lit.
        const LIGHTING = 1 << 7;
        /// Texture coordinates generated.
        const TEXGEN = 1 << 8;
        /// Billboard field value 1.
        const BILLBOARD = 1 << 9;
        /// Billboard field value 2.
        const VBILLBOARD = 2 << 9;
        /// Billboard field value 3.
        const HBILLBOARD = 3 << 9;
        /// Billboard field value 4.
        const RBILLBOARD = 4 << 9;
        /// `child` references an already loaded joint instead of a subtree.
        const INSTANCE = 1 << 12;
        /// Perspective billboard.
        const PBILLBOARD = 1 << 13;
        /// The 0x10 union is a spline.
        const SPLINE = 1 << 14;
        /// Flip IK.
        const FLIP_IK = 1 << 15;
        /// Specular lighting.
        const SPECULAR = 1 << 16;
        /// Quaternion rotation (no runtime track type exists: HSD-023).
        const USE_QUATERNION = 1 << 17;
        /// Drawn in the opaque pass.
        const OPA = 1 << 18;
        /// Drawn in the translucent pass.
        const XLU = 1 << 19;
        /// Drawn in the texture-edge pass.
        const TEXEDGE = 1 << 20;
        /// IK role JOINT1 (field bits 21–22 = 1).
        const JOINT1 = 1 << 21;
        /// IK role JOINT2 (field bits 21–22 = 2).
        const JOINT2 = 2 << 21;
        /// IK role EFFECTOR (field bits 21–22 = 3).
        const EFFECTOR = 3 << 21;
        /// User-defined matrix.
        const USER_DEF_MTX = 1 << 23;
        /// Matrix independent of the parent.
        const MTX_INDEP_PARENT = 1 << 24;
        /// Matrix independent of SRT.
        const MTX_INDEP_SRT = 1 << 25;
        /// Unknown bit 26 (HSDLib: "MTX_SCALE_COMPENSATE").
        const UNK_26 = 1 << 26;
        /// Unknown bit 27.
        const UNK_27 = 1 << 27;
        /// A descendant draws in the opaque pass.
        const ROOT_OPA = 1 << 28;
        /// A descendant draws in the translucent pass.
        const ROOT_XLU = 1 << 29;
        /// A descendant draws in the texture-edge pass.
        const ROOT_TEXEDGE = 1 << 30;
    }
}

impl JointFlags {
    /// The three render-pass bits.
    pub const PASSES: JointFlags = JointFlags::OPA
        .union(JointFlags::XLU)
        .union(JointFlags::TEXEDGE);
    /// The three ROOT_* bits.
    pub const ROOT_PASSES: JointFlags = JointFlags::ROOT_OPA
        .union(JointFlags::ROOT_XLU)
        .union(JointFlags::ROOT_TEXEDGE);
}

bitflags! {
    /// PObj flags; `flags & 0x3000` selects the union type ([`PObjFlags::kind`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct PObjFlags: u16 {
        /// HSDLib: shape-set average (a ShapeSet flag in the decompilation).
        const SHAPESET_AVERAGE = 1 << 0;
        /// HSDLib: shape-set additive.
        const SHAPESET_ADDITIVE = 1 << 1;
        /// HSDLib: unknown bit 2.
        const UNKNOWN2 = 1 << 2;
        /// Animated.
        const ANIM = 1 << 3;
        /// Type SHAPEANIM (1 << 12).
        const SHAPEANIM = 1 << 12;
        /// Type ENVELOPE (2 << 12).
        const ENVELOPE = 2 << 12;
        /// Cull front faces.
        const CULLFRONT = 1 << 14;
        /// Cull back faces.
        const CULLBACK = 1 << 15;
    }
}

/// What a PObj's union at 0x14 holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PObjKind {
    /// Rigid skin: a joint the mesh is bound to (or NULL).
    Rigid,
    /// Shape animation: a ShapeSet.
    ShapeAnim,
    /// Envelope skinning: a NULL-terminated list of envelope arrays.
    Envelope,
    /// Type 3: the runtime panics (HSD-013).
    Invalid,
}

impl PObjFlags {
    /// The union type.
    pub fn kind(self) -> PObjKind {
        match (self.bits() >> 12) & 3 {
            0 => PObjKind::Rigid,
            1 => PObjKind::ShapeAnim,
            2 => PObjKind::Envelope,
            _ => PObjKind::Invalid,
        }
    }
}

bitflags! {
    /// MObj render mode.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct RenderMode: u32 {
        /// Diffuse from the material constant.
        const CONSTANT = 1 << 0;
        /// Diffuse from vertex colours.
        const VERTEX = 1 << 1;
        /// Diffuse lighting.
        const DIFFUSE = 1 << 2;
        /// Specular lighting.
        const SPECULAR = 1 << 3;
        /// Texture 0 enabled.
        const TEX0 = 1 << 4;
        /// Texture 1 enabled.
        const TEX1 = 1 << 5;
        /// Texture 2 enabled.
        const TEX2 = 1 << 6;
        /// Texture 3 enabled.
        const TEX3 = 1 << 7;
        /// Texture 4 enabled.
        const TEX4 = 1 << 8;
        /// Texture 5 enabled.
        const TEX5 = 1 << 9;
        /// Texture 6 enabled.
        const TEX6 = 1 << 10;
        /// Texture 7 enabled.
        const TEX7 = 1 << 11;
        /// Toon shading.
        const TOON = 1 << 12;
        /// Alpha from the material (field 13–14 = 1).
        const ALPHA_MAT = 1 << 13;
        /// Alpha from vertices (field 13–14 = 2).
        const ALPHA_VTX = 2 << 13;
        /// Z offset (HSDLib).
        const ZOFST = 1 << 24;
        /// Effect (HSDLib).
        const EFFECT = 1 << 25;
        /// Shadow.
        const SHADOW = 1 << 26;
        /// Z compare always.
        const ZMODE_ALWAYS = 1 << 27;
        /// DF_ALL (HSDLib).
        const DF_ALL = 1 << 28;
        /// No Z update.
        const NO_ZUPDATE = 1 << 29;
        /// Translucent pass (invisible in XD: HSD-019).
        const XLU = 1 << 30;
        /// User (HSDLib).
        const USER = 1 << 31;
    }
}

bitflags! {
    /// TObj flags (coord, lightmap, colormap, alphamap fields and BUMP).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct TObjFlags: u32 {
        /// Coordinate field (bits 0–3): REFLECTION = 1 … BACKLIGHT = 6.
        const COORD = 0xF;
        /// Lightmap diffuse.
        const LIGHTMAP_DIFFUSE = 1 << 4;
        /// Lightmap specular.
        const LIGHTMAP_SPECULAR = 1 << 5;
        /// Lightmap ambient.
        const LIGHTMAP_AMBIENT = 1 << 6;
        /// Lightmap ext.
        const LIGHTMAP_EXT = 1 << 7;
        /// Lightmap shadow.
        const LIGHTMAP_SHADOW = 1 << 8;
        /// Colormap field (bits 16–19): ALPHA_MASK 1 … SUB 8.
        const COLORMAP = 0xF << 16;
        /// Alphamap field (bits 20–23): ALPHA_MASK 1 … SUB 7.
        const ALPHAMAP = 0xF << 20;
        /// Bump mapping.
        const BUMP = 1 << 24;
        /// Runtime: matrix dirty.
        const MTX_DIRTY = 1 << 31;
    }
}

bitflags! {
    /// LObj flags; `flags & 3` is the light type ([`LightFlags::light_type`]).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct LightFlags: u16 {
        /// Type field (0 AMBIENT, 1 INFINITE, 2 POINT, 3 SPOT).
        const TYPE = 3;
        /// Diffuse.
        const DIFFUSE = 1 << 2;
        /// Specular.
        const SPECULAR = 1 << 3;
        /// Alpha.
        const ALPHA = 1 << 4;
        /// Hidden.
        const HIDDEN = 1 << 5;
        /// Raw parameters.
        const RAW_PARAM = 1 << 6;
        /// Runtime: diffuse dirty.
        const DIFF_DIRTY = 1 << 7;
        /// Runtime: specular dirty.
        const SPEC_DIRTY = 1 << 8;
        /// Shadow (HSDLib).
        const SHADOW = 1 << 10;
    }
}

impl LightFlags {
    /// 0 AMBIENT, 1 INFINITE, 2 POINT, 3 SPOT.
    pub fn light_type(self) -> u16 {
        self.bits() & 3
    }
}

bitflags! {
    /// Pixel-engine enable flags.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct PeFlags: u8 {
        /// Colour update.
        const COLOR_UPDATE = 1;
        /// Alpha update.
        const ALPHA_UPDATE = 2;
        /// Destination alpha.
        const DST_ALPHA = 4;
        /// Before texture.
        const BEFORE_TEX = 8;
        /// Z compare.
        const COMPARE = 0x10;
        /// Z update.
        const ZUPDATE = 0x20;
        /// Dither.
        const DITHER = 0x40;
    }
}

bitflags! {
    /// AObj flags.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct AObjFlags: u32 {
        /// Rewound.
        const REWINDED = 1 << 26;
        /// First play.
        const FIRST_PLAY = 1 << 27;
        /// No update.
        const NO_UPDATE = 1 << 28;
        /// Loops.
        const LOOP = 1 << 29;
        /// No animation.
        const NO_ANIM = 1 << 30;
    }
}

bitflags! {
    /// RObj flags; `flags & 0x70000000` is the type.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct RObjFlags: u32 {
        /// IK pole flip (on the first IK-hint RObj of the middle joint: HSD-027).
        const POLE_FLIP = 0x4;
        /// Type field: EXP 0, JOBJ 1, LIMIT 2, BYTECODE 3, IKHINT 4 (× 0x10000000).
        const TYPE = 0x7000_0000;
        /// Active.
        const ACTIVE = 0x8000_0000;
    }
}

impl RObjFlags {
    /// Type field value (0 EXP … 4 IKHINT).
    pub fn robj_type(self) -> u32 {
        (self.bits() >> 28) & 7
    }
}

flag_field!(JointFlags: u32, PObjFlags: u16, RenderMode: u32, TObjFlags: u32, LightFlags: u16, PeFlags: u8, AObjFlags: u32, RObjFlags: u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_bits_survive() {
        let f = JointFlags::from_bits_retain(0x8000_0001);
        assert!(f.contains(JointFlags::SKELETON));
        assert_eq!(f.bits(), 0x8000_0001);
        let mut out = [0u8; 4];
        f.put(&mut out, 0);
        assert_eq!(JointFlags::get(&Reader::new(&out), 0).unwrap(), f);
        assert_eq!(
            PObjFlags::from_bits_retain(0x2000).kind(),
            PObjKind::Envelope
        );
        assert_eq!(
            PObjFlags::from_bits_retain(0x3000).kind(),
            PObjKind::Invalid
        );
        assert_eq!(LightFlags::from_bits_retain(6).light_type(), 2);
        assert_eq!(RObjFlags::from_bits_retain(0xC000_0006).robj_type(), 4);
    }
}
