//! Every sysdolphin struct of the reference as a typed value, generic over the pointer type `P`
//! (`u32` data offsets when read from an [`crate::Archive`], [`crate::Target`]s in a
//! [`crate::Dat`]). One field list per struct drives decode, encode, the pointer-offset table and
//! the golden tests.

use gcio::{Reader, Result};

use crate::field::{Field, Member, Rgba, Struct, Word};
use crate::flags::{
    AObjFlags, JointFlags, LightFlags, PObjFlags, PeFlags, RObjFlags, RenderMode, TObjFlags,
};

macro_rules! desc {
    (plain $(#[$m:meta])* $name:ident = $size:literal {
        $( $(#[$fm:meta])* $off:literal $field:ident : $t:ty ),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct $name {
            $( $(#[$fm])* pub $field: $t, )*
        }

        impl<P: Copy> Struct<P> for $name {
            const NAME: &'static str = stringify!($name);
            const SIZE: usize = $size;
            fn decode(r: &Reader<'_>, _: &mut dyn FnMut(usize) -> Result<Option<P>>) -> Result<Self> {
                Ok($name { $( $field: <$t as Field>::get(r, $off)?, )* })
            }
            fn encode(&self, out: &mut [u8], _: &mut dyn FnMut(usize, Option<P>)) {
                $( Field::put(&self.$field, out, $off); )*
            }
        }
    };
    ($(#[$m:meta])* $name:ident = $size:literal {
        $( $(#[$fm:meta])* $off:literal $field:ident : $t:ty ),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct $name<P = u32> {
            $( $(#[$fm])* pub $field: $t, )*
        }

        impl<P: Copy> Struct<P> for $name<P> {
            const NAME: &'static str = stringify!($name);
            const SIZE: usize = $size;
            #[allow(unused_variables)]
            fn decode(r: &Reader<'_>, ptr: &mut dyn FnMut(usize) -> Result<Option<P>>) -> Result<Self> {
                Ok($name { $( $field: <$t as Member<P>>::get(r, $off, ptr)?, )* })
            }
            #[allow(unused_variables)]
            fn encode(&self, out: &mut [u8], ptr: &mut dyn FnMut(usize, Option<P>)) {
                $( <$t as Member<P>>::put(&self.$field, out, $off, ptr); )*
            }
        }
    };
}

desc! {
    /// `scene_data` root (SceneDesc).
    SceneData = 0x10 {
        /// NULL-terminated array of ModelSet pointers.
        0x00 models: Option<P>,
        /// A [`CameraSet`] (a single struct: conflict C-25 pins the decompilation).
        0x04 camera: Option<P>,
        /// NULL-terminated array of [`LightSet`] pointers.
        0x08 lights: Option<P>,
        /// A [`FogSet`].
        0x0C fog: Option<P>,
    }
}

desc! {
    /// Melee's `map_head` root: a stage's tables, each an array with its count (doldecomp/melee
    /// `gr/types.h` `UnkStageDat`, read by `grDatFiles_801C6038`). Only the GObj table is typed;
    /// the others are stage data the runtime reads by its own rules.
    MapHead = 0x30 {
        /// General points (untyped).
        0x00 points: Option<P>,
        /// Entries at `points`.
        0x04 point_count: u32,
        /// The [`MapGObj`] array.
        0x08 gobjs: Option<P>,
        /// Entries at `gobjs`.
        0x0C gobj_count: u32,
        /// Spline pointers (untyped).
        0x10 splines: Option<P>,
        /// Entries at `splines`.
        0x14 spline_count: u32,
        /// Light table (untyped).
        0x18 lights: Option<P>,
        /// Entries at `lights`.
        0x1C light_count: u32,
        /// Shadow entries (untyped).
        0x20 shadows: Option<P>,
        /// Entries at `shadows`.
        0x24 shadow_count: u32,
        /// Pointers the loader flags (untyped).
        0x28 flagged: Option<P>,
        /// Entries at `flagged`.
        0x2C flagged_count: u32,
    }
}

desc! {
    /// One of a stage's GObjs (`UnkStageDat_x8_t`): the first four fields are a [`ModelSet`]'s.
    /// Every pointer is a [`Word`]: a stage that takes parts from another archive (Pokémon
    /// Stadium's transformations) leaves those fields as extern slots, unrelocated.
    MapGObj = 0x34 {
        /// Root [`Joint`].
        0x00 joint: Word<P>,
        /// NULL-terminated array of AnimJoint trees.
        0x04 anims: Word<P>,
        /// NULL-terminated array of MatAnimJoint trees.
        0x08 matanims: Word<P>,
        /// NULL-terminated array of ShapeAnimJoint trees.
        0x0C shapeanims: Word<P>,
        /// A perspective [`Camera`].
        0x10 camera: Word<P>,
        /// Unknown (a pointer in some stages).
        0x14 unknown14: Word<P>,
        /// NULL-terminated array of [`LightSet`] pointers.
        0x18 lights: Word<P>,
        /// A [`Fog`].
        0x1C fog: Word<P>,
        /// Stage joint table (untyped).
        0x20 joints: Word<P>,
        /// Entries at `joints`.
        0x24 joint_count: u32,
        /// Unknown pointer.
        0x28 unknown28: Word<P>,
        /// A halfword table (untyped).
        0x2C halfwords: Word<P>,
        /// Entries at `halfwords`.
        0x30 halfword_count: u32,
    }
}

impl<P: Copy> MapGObj<P> {
    /// The GObj's model: its joint tree and animation banks as a [`ModelSet`] (extern slots
    /// read as NULL).
    pub fn model_set(&self) -> ModelSet<P> {
        ModelSet {
            joint: self.joint.ptr(),
            anims: self.anims.ptr(),
            matanims: self.matanims.ptr(),
            shapeanims: self.shapeanims.ptr(),
        }
    }
}

desc! {
    /// A model: joint tree and its animation banks (NULL-terminated pointer arrays).
    ModelSet = 0x10 {
        /// Root [`Joint`].
        0x00 joint: Option<P>,
        /// AnimJoint trees, one per animation (PKX `anim_index` indexes it).
        0x04 anims: Option<P>,
        /// MatAnimJoint trees.
        0x08 matanims: Option<P>,
        /// ShapeAnimJoint trees.
        0x0C shapeanims: Option<P>,
    }
}

desc! {
    /// Camera and its animations.
    CameraSet = 0x08 {
        /// [`Camera`].
        0x00 desc: Option<P>,
        /// NULL-terminated array of [`CameraAnim`] pointers.
        0x04 anims: Option<P>,
    }
}

desc! {
    /// Light and its animations.
    LightSet = 0x08 {
        /// [`Light`].
        0x00 desc: Option<P>,
        /// NULL-terminated array of [`LightAnim`] pointers.
        0x04 anims: Option<P>,
    }
}

desc! {
    /// Fog and its animations.
    FogSet = 0x08 {
        /// [`Fog`].
        0x00 desc: Option<P>,
        /// Animations.
        0x04 anims: Option<P>,
    }
}

desc! {
    /// LightDesc.
    Light = 0x1C {
        /// Class name string.
        0x00 class_name: Option<P>,
        /// Next light.
        0x04 next: Option<P>,
        /// Flags (type in bits 0–1).
        0x08 flags: LightFlags,
        /// Attenuation flags.
        0x0A attn_flags: u16,
        /// Colour.
        0x0C color: Rgba,
        /// Position [`WObj`].
        0x10 position: Option<P>,
        /// Interest [`WObj`] (spot lights).
        0x14 interest: Option<P>,
        /// Type-dependent parameters ([`LightAttn`], [`LightPoint`], [`LightSpot`], `f32*`).
        0x18 param: Option<P>,
    }
}

desc! {
    /// LightAnim.
    LightAnim = 0x10 {
        /// Next.
        0x00 next: Option<P>,
        /// [`AObj`].
        0x04 aobj: Option<P>,
        /// Position [`WObjAnim`].
        0x08 position_anim: Option<P>,
        /// Interest [`WObjAnim`].
        0x0C interest_anim: Option<P>,
    }
}

desc! {
    plain
    /// Light attenuation.
    LightAttn = 0x18 {
        /// a0.
        0x00 a0: f32,
        /// a1.
        0x04 a1: f32,
        /// a2.
        0x08 a2: f32,
        /// k0.
        0x0C k0: f32,
        /// k1.
        0x10 k1: f32,
        /// k2.
        0x14 k2: f32,
    }
}

desc! {
    plain
    /// Point-light parameters.
    LightPoint = 0x0C {
        /// Reference brightness.
        0x00 ref_brightness: f32,
        /// Reference distance.
        0x04 ref_distance: f32,
        /// Distance function.
        0x08 dist_func: u32,
    }
}

desc! {
    plain
    /// Spot-light parameters.
    LightSpot = 0x14 {
        /// Cut-off angle.
        0x00 cutoff: f32,
        /// Spot function.
        0x04 spot_func: u32,
        /// Reference brightness.
        0x08 ref_brightness: f32,
        /// Reference distance.
        0x0C ref_distance: f32,
        /// Distance function.
        0x10 dist_func: u32,
    }
}

desc! {
    /// CObjDesc.
    Camera = 0x40 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Flags.
        0x04 flags: u16,
        /// 1 PERSPECTIVE, 2 FRUSTUM, 3 ORTHO.
        0x06 projection: u16,
        /// Viewport (left, right, top, bottom).
        0x08 viewport: [i16; 4],
        /// Scissor.
        0x10 scissor: [u16; 4],
        /// Eye [`WObj`].
        0x18 eye: Option<P>,
        /// Interest [`WObj`].
        0x1C interest: Option<P>,
        /// Roll.
        0x20 roll: f32,
        /// Up vector (`Vec3*`, relocated: conflict C-26 pins the decompilation).
        0x24 up: Option<P>,
        /// Near plane.
        0x28 near: f32,
        /// Far plane.
        0x2C far: f32,
        /// Perspective: fov, aspect (then 2 unused); frustum/ortho: top, bottom, left, right.
        0x30 projection_params: [f32; 4],
    }
}

desc! {
    /// CameraAnim.
    CameraAnim = 0x0C {
        /// [`AObj`].
        0x00 aobj: Option<P>,
        /// Eye [`WObjAnim`].
        0x04 eye_anim: Option<P>,
        /// Interest [`WObjAnim`].
        0x08 interest_anim: Option<P>,
    }
}

desc! {
    /// WObjDesc: a world position.
    WObj = 0x14 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Position.
        0x04 position: [f32; 3],
        /// [`RObj`].
        0x10 robj: Option<P>,
    }
}

desc! {
    /// WObjAnim.
    WObjAnim = 0x08 {
        /// [`AObj`].
        0x00 aobj: Option<P>,
        /// [`RObjAnimJoint`].
        0x04 robj_anim: Option<P>,
    }
}

desc! {
    /// FogDesc.
    Fog = 0x14 {
        /// Fog type.
        0x00 kind: u32,
        /// [`FogAdj`].
        0x04 adj: Option<P>,
        /// Start distance.
        0x08 start: f32,
        /// End distance.
        0x0C end: f32,
        /// Colour.
        0x10 color: Rgba,
    }
}

desc! {
    plain
    /// FogAdjDesc.
    FogAdj = 0x44 {
        /// Centre.
        0x00 center: u16,
        /// Width.
        0x02 width: u16,
        /// 4×4 matrix.
        0x04 mtx: [f32; 16],
    }
}

desc! {
    plain
    /// Header of the `bound_box` root; AABBs follow ([`crate::bound_box`]).
    BoundBoxHeader = 0x08 {
        /// Animation sets.
        0x00 anim_set_count: u16,
        /// Padding.
        0x02 pad: u16,
        /// Frames of set 0.
        0x04 first_frame_count: u32,
    }
}

desc! {
    /// JObj desc (`HSD_Joint`).
    Joint = 0x40 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Flags.
        0x04 flags: JointFlags,
        /// First child (with INSTANCE: a reference to another joint).
        0x08 child: Option<P>,
        /// Next sibling.
        0x0C next: Option<P>,
        /// [`DObj`], or a [`Spline`] with SPLINE, or a [`ParticleList`] with PTCL.
        0x10 data: Option<P>,
        /// Euler rotation (radians, X applied first).
        0x14 rotation: [f32; 3],
        /// Scale.
        0x20 scale: [f32; 3],
        /// Translation.
        0x2C translation: [f32; 3],
        /// Inverse bind matrix ([`Matrix`]).
        0x38 inverse_bind: Option<P>,
        /// Constraints / IK hints ([`RObj`] list).
        0x3C robj: Option<P>,
    }
}

desc! {
    plain
    /// A 3×4 row-major matrix (inverse bind matrices).
    Matrix = 0x30 {
        /// Rows.
        0x00 m: [[f32; 4]; 3],
    }
}

desc! {
    plain
    /// A 3-vector (camera up vectors, spline control points).
    Vec3 = 0x0C {
        /// x, y, z.
        0x00 v: [f32; 3],
    }
}

desc! {
    /// `HSD_Spline`: 0x18 bytes (doldecomp/melee `spline.h`; Melee's stages put the next joint
    /// right after one).
    Spline = 0x18 {
        /// Spline type.
        0x00 kind: u16,
        /// Control points.
        0x02 count: i16,
        /// Tension.
        0x04 tension: f32,
        /// Control points (`Vec3[count]`).
        0x08 points: Option<P>,
        /// Total length.
        0x0C total_length: f32,
        /// Segment lengths.
        0x10 segment_lengths: Option<P>,
        /// Segment polynomials.
        0x14 segment_poly: Option<P>,
    }
}

desc! {
    /// `HSD_SList` node of a particle joint.
    ParticleList = 0x08 {
        /// Next.
        0x00 next: Option<P>,
        /// Payload.
        0x04 data: Option<P>,
    }
}

desc! {
    /// DObjDesc: one material + mesh pair of a joint.
    DObj = 0x10 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Next DObj.
        0x04 next: Option<P>,
        /// [`MObj`].
        0x08 mobj: Option<P>,
        /// First [`PObj`].
        0x0C pobj: Option<P>,
    }
}

desc! {
    /// PObjDesc: one display list with its vertex format.
    PObj = 0x18 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Next PObj.
        0x04 next: Option<P>,
        /// First [`VtxDesc`] of the list.
        0x08 vtx_desc: Option<P>,
        /// Flags (`flags & 0x3000` = union type).
        0x0C flags: PObjFlags,
        /// Display-list length in 32-byte units.
        0x0E n_display: u16,
        /// Display list.
        0x10 display_list: Option<P>,
        /// Rigid: [`Joint`]; shape-anim: [`ShapeSet`]; envelope: NULL-terminated array of
        /// [`Envelope`] array pointers.
        0x14 link: Option<P>,
    }
}

desc! {
    /// ShapeSetDesc.
    ShapeSet = 0x1C {
        /// Shape-set flags.
        0x00 flags: u16,
        /// Shapes.
        0x02 nb_shape: u16,
        /// Vertex indices.
        0x04 nb_vertex_index: i32,
        /// Vertex descriptor.
        0x08 vertex_desc: Option<P>,
        /// Vertex index lists.
        0x0C vertex_idx_list: Option<P>,
        /// Normal indices.
        0x10 nb_normal_index: i32,
        /// Normal descriptor.
        0x14 normal_desc: Option<P>,
        /// Normal index lists.
        0x18 normal_idx_list: Option<P>,
    }
}

desc! {
    /// One envelope entry: a joint and its weight (array ends with `joint == NULL`).
    Envelope = 0x08 {
        /// Deformer [`Joint`].
        0x00 joint: Option<P>,
        /// Weight.
        0x04 weight: f32,
    }
}

desc! {
    /// One entry of a vertex attribute list (ends with attr 0xFF).
    VtxDesc = 0x18 {
        /// GXAttr.
        0x00 attr: u32,
        /// 0 NONE, 1 DIRECT, 2 INDEX8, 3 INDEX16.
        0x04 attr_type: u32,
        /// GXCompCnt.
        0x08 comp_cnt: u32,
        /// GXCompType.
        0x0C comp_type: u32,
        /// Fixed-point shift.
        0x10 frac: u8,
        /// Padding byte.
        0x11 pad: u8,
        /// Array stride.
        0x12 stride: u16,
        /// Vertex array.
        0x14 array: Option<P>,
    }
}

desc! {
    /// MObjDesc.
    MObj = 0x18 {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Render mode.
        0x04 render_mode: RenderMode,
        /// First [`TObj`].
        0x08 tobj: Option<P>,
        /// [`Material`].
        0x0C material: Option<P>,
        /// Render description (unused).
        0x10 render_desc: Option<P>,
        /// [`PixelEngine`].
        0x14 pe: Option<P>,
    }
}

desc! {
    plain
    /// Material colours.
    Material = 0x14 {
        /// Ambient.
        0x00 ambient: Rgba,
        /// Diffuse.
        0x04 diffuse: Rgba,
        /// Specular.
        0x08 specular: Rgba,
        /// Alpha.
        0x0C alpha: f32,
        /// Shininess.
        0x10 shininess: f32,
    }
}

desc! {
    plain
    /// PEDesc: pixel-engine state.
    PixelEngine = 0x0C {
        /// Enable flags.
        0x00 flags: PeFlags,
        /// Alpha reference 0.
        0x01 ref0: u8,
        /// Alpha reference 1.
        0x02 ref1: u8,
        /// Destination alpha.
        0x03 dst_alpha: u8,
        /// GXBlendMode.
        0x04 blend_type: u8,
        /// Source factor.
        0x05 src_factor: u8,
        /// Destination factor.
        0x06 dst_factor: u8,
        /// Logic op.
        0x07 logic_op: u8,
        /// Z compare.
        0x08 z_comp: u8,
        /// Alpha compare 0.
        0x09 alpha_comp0: u8,
        /// Alpha op.
        0x0A alpha_op: u8,
        /// Alpha compare 1.
        0x0B alpha_comp1: u8,
    }
}

desc! {
    /// TObjDesc: one texture stage.
    TObj = 0x5C {
        /// Class name.
        0x00 class_name: Option<P>,
        /// Next TObj.
        0x04 next: Option<P>,
        /// GXTexMapID (also the TexAnim key).
        0x08 id: u32,
        /// GXTexGenSrc (UV set = 4 + uv index: HSD-025).
        0x0C src: u32,
        /// Rotation.
        0x10 rotate: [f32; 3],
        /// Scale.
        0x1C scale: [f32; 3],
        /// Translation.
        0x28 translate: [f32; 3],
        /// Wrap S.
        0x34 wrap_s: u32,
        /// Wrap T.
        0x38 wrap_t: u32,
        /// Repeat S.
        0x3C repeat_s: u8,
        /// Repeat T.
        0x3D repeat_t: u8,
        /// Flags.
        0x40 flags: TObjFlags,
        /// Blending.
        0x44 blending: f32,
        /// Magnification filter.
        0x48 mag_filter: u32,
        /// [`Image`].
        0x4C image: Option<P>,
        /// [`Palette`].
        0x50 palette: Option<P>,
        /// [`TexLod`].
        0x54 lod: Option<P>,
        /// [`Tev`].
        0x58 tev: Option<P>,
    }
}

desc! {
    /// ImageDesc.
    Image = 0x18 {
        /// Pixel data.
        0x00 data: Option<P>,
        /// Width.
        0x04 width: u16,
        /// Height.
        0x06 height: u16,
        /// GXTexFmt.
        0x08 format: u32,
        /// Mipmap flag.
        0x0C mipmap: u32,
        /// Minimum LOD.
        0x10 min_lod: f32,
        /// Maximum LOD.
        0x14 max_lod: f32,
    }
}

desc! {
    /// TlutDesc: a palette (0x0E bytes used; writers allocate 0x10 or more).
    Palette = 0x0E {
        /// Palette entries.
        0x00 data: Option<P>,
        /// 0 IA8, 1 RGB565, 2 RGB5A3.
        0x04 format: u32,
        /// TLUT name.
        0x08 tlut_name: u32,
        /// Entries.
        0x0C n_entries: u16,
    }
}

desc! {
    plain
    /// TexLODDesc (max_anisotropy at 0x0C: conflict C-27 pins the decompilation).
    TexLod = 0x10 {
        /// Minification filter.
        0x00 min_filter: u32,
        /// LOD bias.
        0x04 lod_bias: f32,
        /// Bias clamp.
        0x08 bias_clamp: u8,
        /// Edge LOD.
        0x09 edge_lod: u8,
        /// Max anisotropy.
        0x0C max_anisotropy: u32,
    }
}

desc! {
    plain
    /// TObjTevDesc.
    Tev = 0x20 {
        /// Colour op.
        0x00 color_op: u8,
        /// Alpha op.
        0x01 alpha_op: u8,
        /// Colour bias.
        0x02 color_bias: u8,
        /// Alpha bias.
        0x03 alpha_bias: u8,
        /// Colour scale.
        0x04 color_scale: u8,
        /// Alpha scale.
        0x05 alpha_scale: u8,
        /// Colour clamp.
        0x06 color_clamp: u8,
        /// Alpha clamp.
        0x07 alpha_clamp: u8,
        /// Colour inputs a..d.
        0x08 color_in: [u8; 4],
        /// Alpha inputs a..d.
        0x0C alpha_in: [u8; 4],
        /// Konst colour.
        0x10 konst: Rgba,
        /// TEV register 0.
        0x14 tev0: Rgba,
        /// TEV register 1.
        0x18 tev1: Rgba,
        /// Active bits.
        0x1C active: u32,
    }
}

desc! {
    /// RObjDesc: a constraint, limit or IK hint.
    RObj = 0x0C {
        /// Next.
        0x00 next: Option<P>,
        /// Flags (type in bits 28–30).
        0x04 flags: RObjFlags,
        /// Union: a pointer (EXP, JOBJ, BYTECODE, IKHINT) or a value (LIMIT).
        0x08 value: Word<P>,
    }
}

desc! {
    plain
    /// IKHintDesc.
    IkHint = 0x08 {
        /// Bone length.
        0x00 bone_length: f32,
        /// Rotate X.
        0x04 rotate_x: f32,
    }
}

desc! {
    /// AObjDesc: an animation's tracks.
    AObj = 0x10 {
        /// Flags.
        0x00 flags: AObjFlags,
        /// Last frame.
        0x04 end_frame: f32,
        /// First [`FObj`].
        0x08 fobj: Option<P>,
        /// Object id (a joint pointer in HSDLib; relocation in real files is open, so kept as a
        /// [`Word`]).
        0x0C obj_id: Word<P>,
    }
}

desc! {
    /// FObjDesc: one keyframe track.
    FObj = 0x14 {
        /// Next track.
        0x00 next: Option<P>,
        /// Stream length in bytes.
        0x04 length: u32,
        /// Start frame.
        0x08 start_frame: f32,
        /// Track id.
        0x0C track: u8,
        /// Value format (bits 5–7) and shift (bits 0–4).
        0x0D frac_value: u8,
        /// Slope format and shift.
        0x0E frac_slope: u8,
        /// Padding.
        0x0F pad: u8,
        /// Keyframe stream (little-endian numbers).
        0x10 data: Option<P>,
    }
}

desc! {
    /// AnimJoint: mirrors the joint tree.
    AnimJoint = 0x14 {
        /// Child.
        0x00 child: Option<P>,
        /// Next.
        0x04 next: Option<P>,
        /// [`AObj`].
        0x08 aobj: Option<P>,
        /// [`RObjAnimJoint`].
        0x0C robj_anim: Option<P>,
        /// Flags.
        0x10 flags: u32,
    }
}

desc! {
    /// MatAnimJoint.
    MatAnimJoint = 0x0C {
        /// Child.
        0x00 child: Option<P>,
        /// Next.
        0x04 next: Option<P>,
        /// First [`MatAnim`].
        0x08 matanim: Option<P>,
    }
}

desc! {
    /// MatAnim (parallels the joint's DObj list).
    MatAnim = 0x10 {
        /// Next.
        0x00 next: Option<P>,
        /// [`AObj`].
        0x04 aobj: Option<P>,
        /// First [`TexAnim`].
        0x08 texanim: Option<P>,
        /// [`RenderAnim`].
        0x0C render_anim: Option<P>,
    }
}

desc! {
    /// TexAnim.
    TexAnim = 0x18 {
        /// Next.
        0x00 next: Option<P>,
        /// GXTexMapID (matches [`TObj::id`]).
        0x04 id: u32,
        /// [`AObj`].
        0x08 aobj: Option<P>,
        /// Image table (`Image*[n_images]`).
        0x0C image_table: Option<P>,
        /// Palette table (`Palette*[n_palettes]`).
        0x10 palette_table: Option<P>,
        /// Images.
        0x14 n_images: u16,
        /// Palettes.
        0x16 n_palettes: u16,
    }
}

desc! {
    /// RenderAnim.
    RenderAnim = 0x08 {
        /// Channel animation.
        0x00 chan_anim: Option<P>,
        /// TEV register animation.
        0x04 reg_anim: Option<P>,
    }
}

desc! {
    /// ShapeAnimJoint.
    ShapeAnimJoint = 0x0C {
        /// Child.
        0x00 child: Option<P>,
        /// Next.
        0x04 next: Option<P>,
        /// [`ShapeAnimDObj`].
        0x08 dobj: Option<P>,
    }
}

desc! {
    /// ShapeAnimDObj.
    ShapeAnimDObj = 0x08 {
        /// Next.
        0x00 next: Option<P>,
        /// [`ShapeAnim`].
        0x04 shape_anim: Option<P>,
    }
}

desc! {
    /// ShapeAnim.
    ShapeAnim = 0x08 {
        /// Next.
        0x00 next: Option<P>,
        /// [`AObj`].
        0x04 aobj: Option<P>,
    }
}

desc! {
    /// RObjAnimJoint.
    RObjAnimJoint = 0x08 {
        /// Next.
        0x00 next: Option<P>,
        /// [`AObj`].
        0x04 aobj: Option<P>,
    }
}

/// What a joint's 0x10 union holds, chosen by its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JointData {
    /// A [`DObj`] list (the usual case).
    DObj,
    /// A [`Spline`] (`SPLINE`).
    Spline,
    /// A [`ParticleList`] (`PTCL`).
    Particles,
}

impl<P> Joint<P> {
    /// How to read [`Joint::data`]. SPLINE is tested before PTCL; a joint with both bits is
    /// ambiguous (none is known) and reads as a spline.
    pub fn data_kind(&self) -> JointData {
        if self.flags.contains(JointFlags::SPLINE) {
            JointData::Spline
        } else if self.flags.contains(JointFlags::PTCL) {
            JointData::Particles
        } else {
            JointData::DObj
        }
    }
}

impl<P> PObj<P> {
    /// How to read [`PObj::link`] (rigid joint, ShapeSet or envelope list).
    pub fn kind(&self) -> crate::flags::PObjKind {
        self.flags.kind()
    }

    /// Display-list length in bytes (`n_display × 32`).
    pub fn display_list_len(&self) -> usize {
        usize::from(self.n_display) * 32
    }
}

/// Bytes of one level of a `width × height` image in GX format `format`, rounded up to whole
/// blocks. `None` for an unknown format.
pub fn image_size(format: u32, width: u16, height: u16) -> Option<usize> {
    let f = gx::tex::TexFormat(u8::try_from(format).ok()?);
    gx::tex::level_size(f, u32::from(width), u32::from(height)).ok()
}
