//! Struct values of the sample archives, one constructor each, so that the values live in one
//! place while callers choose the block order: the sample builders ([`super::xd_model`],
//! [`super::xd_scene`], [`super::melee_joint`]), the documented-order layout of `xd_scene` laid out by
//! hand in `tests/compile.rs`, and other crates' builders (pkx's battle models).
//!
//! Generic constructors fill every field a caller does not pass with what the Sysdolphin compiler
//! writes for a plain object (identity transforms, no class name, looping animations); the
//! `scene_*` ones hold the values of [`super::xd_scene`]'s objects.

use gcio::{Error, Result, Writer};
use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType};

use crate::bound_box::{Aabb, BoundBox};
use crate::field::{Rgba, Word};
use crate::flags::{AObjFlags, JointFlags, LightFlags, PObjFlags, PeFlags, RenderMode, TObjFlags};
use crate::model::Target;
use crate::types::*;

type T = Target;

/// A joint with identity rotation, unit scale and `translation`, no links, data or IBM.
pub fn joint(flags: JointFlags, translation: [f32; 3]) -> Joint<T> {
    Joint {
        class_name: None,
        flags,
        child: None,
        next: None,
        data: None,
        rotation: [0.0; 3],
        scale: [1.0; 3],
        translation,
        inverse_bind: None,
        robj: None,
    }
}

/// The inverse bind matrix of a joint at translation `t` (zero components negated to `-0.0`, as
/// the compiler writes them).
pub fn translate_inverse(t: [f32; 3]) -> Matrix {
    Matrix {
        m: [
            [1.0, 0.0, 0.0, -t[0]],
            [0.0, 1.0, 0.0, -t[1]],
            [0.0, 0.0, 1.0, -t[2]],
        ],
    }
}

/// An AnimJoint node (no RObj animation, flags 0).
pub fn anim_joint(child: Option<T>, next: Option<T>, aobj: Option<T>) -> AnimJoint<T> {
    AnimJoint {
        child,
        next,
        aobj,
        robj_anim: None,
        flags: 0,
    }
}

/// A LIN keyframe stream `0 → value` over `frames` frames (f32 values), 4-byte padded, and its
/// unpadded length (see [`super::Builder::keys`]).
pub fn lin_keys(frames: u8, value: f32) -> (Vec<u8>, u32) {
    let mut s = vec![0x12u8];
    s.extend_from_slice(&0.0f32.to_le_bytes());
    s.push(frames);
    s.extend_from_slice(&value.to_le_bytes());
    s.push(0);
    let len = s.len() as u32;
    s.resize(s.len().next_multiple_of(4), 0);
    (s, len)
}

/// An FObj on `track` over a keyframe stream placed at `keys` with unpadded length `len`.
pub fn fobj(track: u8, next: Option<T>, (keys, len): (T, u32)) -> FObj<T> {
    FObj {
        next,
        length: len,
        start_frame: 0.0,
        track,
        frac_value: 0,
        frac_slope: 0,
        pad: 0,
        data: Some(keys),
    }
}

/// A looping AObj over the FObj chain `fobj`.
pub fn aobj(end_frame: f32, fobj: T) -> AObj<T> {
    AObj {
        flags: AObjFlags::LOOP,
        end_frame,
        fobj: Some(fobj),
        obj_id: Word::Value(0),
    }
}

/// An 8×8 image header over the pixels at `data` (GX texture `format`), no mipmaps.
pub fn image(data: T, format: u32) -> Image<T> {
    Image {
        data: Some(data),
        width: 8,
        height: 8,
        format,
        mipmap: 0,
        min_lod: 0.0,
        max_lod: 0.0,
    }
}

/// A 16-entry RGB5A3 palette over the LUT at `data`.
pub fn palette(data: T) -> Palette<T> {
    Palette {
        data: Some(data),
        format: 2,
        tlut_name: 0,
        n_entries: 16,
    }
}

/// A texture on UV set 0 (identity transform, repeat wrap, linear magnification).
pub fn tobj(id: u32, next: Option<T>, image: T, palette: Option<T>) -> TObj<T> {
    TObj {
        class_name: None,
        next,
        id,
        src: 4,
        rotate: [0.0; 3],
        scale: [1.0; 3],
        translate: [0.0; 3],
        wrap_s: 1,
        wrap_t: 1,
        repeat_s: 1,
        repeat_t: 1,
        flags: TObjFlags::from_bits_retain(0x0004_0010),
        blending: 1.0,
        mag_filter: 1,
        image: Some(image),
        palette,
        lod: None,
        tev: None,
    }
}

/// Standard alpha blending (src alpha, 1 - src alpha), LEQUAL depth test, `flags` updates.
pub fn pixel_engine(flags: PeFlags) -> PixelEngine {
    PixelEngine {
        flags,
        ref0: 0,
        ref1: 0,
        dst_alpha: 0xFF,
        blend_type: 1,
        src_factor: 4,
        dst_factor: 5,
        logic_op: 5,
        z_comp: 3,
        alpha_comp0: 7,
        alpha_op: 0,
        alpha_comp1: 7,
    }
}

/// An opaque material with a grey ambient (`grey`), white diffuse and specular, shininess 50.
pub fn material(grey: u8) -> Material {
    Material {
        ambient: Rgba([grey, grey, grey, 0xFF]),
        diffuse: Rgba([0xFF; 4]),
        specular: Rgba([0xFF; 4]),
        alpha: 1.0,
        shininess: 50.0,
    }
}

/// An MObj without render description.
pub fn mobj(render_mode: RenderMode, tobj: Option<T>, material: T, pe: Option<T>) -> MObj<T> {
    MObj {
        class_name: None,
        render_mode,
        tobj,
        material: Some(material),
        render_desc: None,
        pe,
    }
}

/// A vertex attribute descriptor (see [`super::Builder::vtx_list`]).
pub fn vtx(
    attr: u32,
    attr_type: u32,
    comp_cnt: u32,
    comp_type: u32,
    frac: u8,
    stride: u16,
    array: Option<T>,
) -> VtxDesc<T> {
    VtxDesc {
        attr,
        attr_type,
        comp_cnt,
        comp_type,
        frac,
        pad: 0,
        stride,
        array,
    }
}

/// The enveloped vertex format of the XD samples: PNMTXIDX direct, POS s16 xyz (frac 8) index16,
/// NRM s8 (frac 6) index8, TEX0 s16 st (frac 12) index16.
pub fn env_vtx(pos: T, nrm: T, uv: T) -> [VtxDesc<T>; 4] {
    [
        vtx(0, 1, 0, 0, 0, 0, None),
        vtx(9, 3, 1, 3, 8, 6, Some(pos)),
        vtx(10, 2, 0, 1, 6, 3, Some(nrm)),
        vtx(13, 3, 1, 3, 12, 4, Some(uv)),
    ]
}

/// A PObj (no class name).
pub fn pobj(
    next: Option<T>,
    vtx: T,
    flags: PObjFlags,
    n_display: u16,
    display_list: T,
    link: Option<T>,
) -> PObj<T> {
    PObj {
        class_name: None,
        next,
        vtx_desc: Some(vtx),
        flags,
        n_display,
        display_list: Some(display_list),
        link,
    }
}

/// A single DObj (no class name, no next).
pub fn dobj(mobj: T, pobj: T) -> DObj<T> {
    DObj {
        class_name: None,
        next: None,
        mobj: Some(mobj),
        pobj: Some(pobj),
    }
}

/// The least a PObj draws, in `b`: one triangle strip over three zero positions (POS s16, 8
/// fraction bits, 16-bit indices; 64 bytes of array). Its vertex descriptor list, display list
/// and `n_display`.
pub fn triangle(b: &mut crate::build::Builder) -> Result<(T, T, u16)> {
    triangle_at(b, [[0; 3]; 3])
}

/// [`triangle`] over the given positions (s16, 8 fraction bits).
pub fn triangle_at(b: &mut crate::build::Builder, corners: [[i16; 3]; 3]) -> Result<(T, T, u16)> {
    let mut bytes: Vec<u8> = corners
        .iter()
        .flatten()
        .flat_map(|v| v.to_be_bytes())
        .collect();
    bytes.resize(64, 0);
    let pos = b.bytes(bytes, 32);
    let desc = b.vtx_list(&[vtx(9, 3, 1, 3, 8, 6, Some(pos))]);
    let mut d = VertexDesc::new();
    d.push(Attr::POS, AttrType::INDEX16)?;
    let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
    for i in 0..3 {
        strip.push(&d, &[i]);
    }
    let (dl, n) = display_list(&[strip], &d)?;
    Ok((desc, b.bytes(dl, 32), n))
}

/// A display list padded to 32 bytes, and its `n_display`; an error when `n_display` (a count
/// of 32-byte units) cannot reach its end.
pub fn display_list(prims: &[PrimitiveBuf], desc: &VertexDesc) -> Result<(Vec<u8>, u16)> {
    let mut w = Writer::new();
    for p in prims {
        p.write(&mut w, desc)?;
    }
    w.align(32, 0);
    let n = u16::try_from(w.position() / 32).map_err(|_| {
        Error::message(format!(
            "display list of {} bytes: a PObj's n_display reaches {} bytes",
            w.position(),
            usize::from(u16::MAX) * 32
        ))
    })?;
    Ok((w.into_vec(), n))
}

/// A triangle strip over the enveloped vertex format ([`env_vtx`]), one vertex per (matrix
/// slot × 3, position = uv index).
pub fn env_strip(verts: &[(u32, u32)]) -> Result<(Vec<u8>, u16)> {
    let mut desc = VertexDesc::new();
    desc.push(Attr::PNMTXIDX, AttrType::DIRECT)?;
    desc.push(Attr::POS, AttrType::INDEX16)?;
    desc.push(Attr::NRM, AttrType::INDEX8)?;
    desc.push(Attr::tex(0), AttrType::INDEX16)?;
    let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
    for &(slot, v) in verts {
        strip.push(&desc, &[slot, v, 0, v]);
    }
    display_list(&[strip], &desc)
}

/// A TexAnim with one image table (of one image) and an optional palette table (of one palette).
pub fn tex_anim(
    next: Option<T>,
    id: u32,
    aobj: Option<T>,
    images: T,
    palettes: Option<T>,
) -> TexAnim<T> {
    TexAnim {
        next,
        id,
        aobj,
        image_table: Some(images),
        palette_table: palettes,
        n_images: 1,
        n_palettes: u16::from(palettes.is_some()),
    }
}

/// A MatAnim without render animation.
pub fn mat_anim(next: Option<T>, aobj: Option<T>, texanim: Option<T>) -> MatAnim<T> {
    MatAnim {
        next,
        aobj,
        texanim,
        render_anim: None,
    }
}

/// A world object at `position`.
pub fn wobj(position: [f32; 3]) -> WObj<T> {
    WObj {
        class_name: None,
        position,
        robj: None,
    }
}

/// The XD samples' light rig: (type, grey level, direction), ambient first.
pub const LIGHT_RIG: [(u16, u8, [f32; 3]); 4] = [
    (0, 0x4C, [0.0; 3]),
    (1, 204, [0.530, 0.660, 0.533]),
    (1, 102, [-0.352, 0.520, -0.778]),
    (1, 76, [-0.712, -0.540, 0.450]),
];

/// A diffuse light of type `ty` (see [`LIGHT_RIG`]) in `grey`, its position a [`wobj`].
pub fn light(ty: u16, grey: u8, position: Option<T>) -> Light<T> {
    Light {
        class_name: None,
        next: None,
        flags: LightFlags::from_bits_retain(ty) | LightFlags::DIFFUSE,
        attn_flags: 0,
        color: Rgba([grey, grey, grey, 0xFF]),
        position,
        interest: None,
        param: None,
    }
}

/// A LightSet of one light, not animated.
pub fn light_set(light: T) -> LightSet<T> {
    LightSet {
        desc: Some(light),
        anims: None,
    }
}

/// A ModelSet without shape animations.
pub fn model_set(joint: T, anims: Option<T>, matanims: Option<T>) -> ModelSet<T> {
    ModelSet {
        joint: Some(joint),
        anims,
        matanims,
        shapeanims: None,
    }
}

/// A `scene_data` root without fog.
pub fn scene_data(models: T, camera: Option<T>, lights: Option<T>) -> SceneData<T> {
    SceneData {
        models: Some(models),
        camera,
        lights,
        fog: None,
    }
}

/// 8×8 I8 pixels (64 bytes).
pub fn i8_pixels() -> Vec<u8> {
    (0..64u8).map(|i| i.wrapping_mul(37)).collect()
}

/// 8×8 C4 pixels (32 bytes) over a 16-entry palette.
pub fn c4_pixels() -> Vec<u8> {
    (0..32u8).map(|i| (i % 16) << 4 | (15 - i % 16)).collect()
}

/// A 16-entry RGB5A3 LUT: an opaque RGB555 grey ramp.
pub fn rgb5a3_lut() -> Vec<u8> {
    (0..16u16)
        .flat_map(|i| (0x8000 | (i * 0x0842)).to_be_bytes())
        .collect()
}

/// The raw buffers of [`super::xd_scene`], for layouts that place them in their own order.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneBuffers {
    /// I8 pixels ([`i8_pixels`]): the first textures of both meshes and TexAnim 2.
    pub pix_a: Vec<u8>,
    /// Other I8 pixels: TexAnim 1a.
    pub pix_b: Vec<u8>,
    /// C4 pixels ([`c4_pixels`]): the paletted texture and TexAnim 1b.
    pub pix_c: Vec<u8>,
    /// The palette's LUT ([`rgb5a3_lut`]).
    pub lut: Vec<u8>,
    /// Rigid mesh positions (f32 xyz).
    pub pos_rigid: Vec<u8>,
    /// Enveloped mesh positions (s16 xyz, frac 8).
    pub pos_env: Vec<u8>,
    /// The one normal (s8, frac 6).
    pub nrm: Vec<u8>,
    /// Texture coordinates shared by both meshes (s16 st, frac 12).
    pub uv: Vec<u8>,
    /// PObj 1's display list (enveloped strip) and its `n_display`.
    pub dl_env1: (Vec<u8>, u16),
    /// PObj 2's display list (enveloped strip) and its `n_display`.
    pub dl_env2: (Vec<u8>, u16),
    /// PObj 3's display list (rigid triangle, [`rigid_vtx`]) and its `n_display`.
    pub dl_rigid: (Vec<u8>, u16),
}

/// The buffers of [`super::xd_scene`].
pub fn scene_buffers() -> Result<SceneBuffers> {
    let be = |v: &[[i16; 3]]| v.iter().flatten().flat_map(|c| c.to_be_bytes()).collect();
    let mut rigid = VertexDesc::new();
    rigid.push(Attr::POS, AttrType::INDEX8)?;
    rigid.push(Attr::tex(0), AttrType::INDEX16)?;
    let mut tri = PrimitiveBuf::new(Opcode::TRIANGLES);
    for i in 0..3 {
        tri.push(&rigid, &[i, i]);
    }
    Ok(SceneBuffers {
        pix_a: i8_pixels(),
        pix_b: (0..64u8).map(|i| 255 - i).collect(),
        pix_c: c4_pixels(),
        lut: rgb5a3_lut(),
        pos_rigid: [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
            .iter()
            .flatten()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        pos_env: be(&[[-256, 0, 0], [256, 0, 0], [-256, 512, 0], [256, 512, 0]]),
        nrm: vec![0, 0, 64],
        uv: [0i16, 0, 4096, 0, 0, 4096, 4096, 4096]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        dl_env1: env_strip(&[(0, 0), (0, 1), (3, 2), (3, 3)])?,
        dl_env2: env_strip(&[(3, 0), (0, 1), (3, 2), (0, 3)])?,
        dl_rigid: display_list(&[tri], &rigid)?,
    })
}

/// The rigid mesh's vertex format: POS f32 xyz index8, TEX0 s16 st (frac 12) index16.
pub fn rigid_vtx(pos: T, uv: T) -> [VtxDesc<T>; 2] {
    [
        vtx(9, 2, 1, 4, 0, 12, Some(pos)),
        vtx(13, 3, 1, 3, 12, 4, Some(uv)),
    ]
}

/// The pixel-engine update flags of [`super::xd_scene`]'s first MObj ([`pixel_engine`]).
pub const SCENE_PE: PeFlags = PeFlags::COLOR_UPDATE
    .union(PeFlags::ALPHA_UPDATE)
    .union(PeFlags::ZUPDATE);

/// The two MObjs of [`super::xd_scene`]: owner 1's (two textures from `tobj1`, alpha material,
/// pixel engine `pe`) and owner 2's (one texture).
pub fn scene_mobjs(tobj1: T, material1: T, pe: T, tobj2: T, material2: T) -> [MObj<T>; 2] {
    let rm = RenderMode::CONSTANT | RenderMode::DIFFUSE | RenderMode::TEX0;
    [
        mobj(
            rm | RenderMode::TEX1 | RenderMode::ALPHA_MAT,
            Some(tobj1),
            material1,
            Some(pe),
        ),
        mobj(rm, Some(tobj2), material2, None),
    ]
}

/// The nodes of [`super::xd_scene`]'s tree, each with its (child, next) links and its value
/// from `values`, for blocks `at` = [root, owner 1, deformer A, deformer B, owner 2]: root →
/// [owner 1, A → B, owner 2]. The skeleton ([`scene_skeleton`]) and both animation trees have
/// this shape.
pub fn scene_tree<V>(at: [T; 5], values: [V; 5]) -> [(T, Option<T>, Option<T>, V); 5] {
    let [root, owner1, a, b, owner2] = at;
    let [v_root, v_owner1, v_a, v_b, v_owner2] = values;
    [
        (root, Some(owner1), None, v_root),
        (owner1, None, Some(a), v_owner1),
        (a, Some(b), Some(owner2), v_a),
        (b, None, None, v_b),
        (owner2, None, None, v_owner2),
    ]
}

/// The frame count of every [`super::xd_scene`] animation.
pub const SCENE_FRAMES: u8 = 9;

/// The translation of both deformers (B's relative to A).
pub const SCENE_BONE: [f32; 3] = [0.0, 1.0, 0.0];

/// [`super::xd_scene`]'s joints, each with its block from `at` (see [`scene_tree`]): owners 1
/// and 2 hold the DObjs `dobjs`, deformers A and B the inverse bind matrices `ibms`
/// ([`translate_inverse`] of `[0, 1, 0]` and `[0, 2, 0]`).
pub fn scene_skeleton(at: [T; 5], dobjs: [T; 2], ibms: [T; 2]) -> [(T, Joint<T>); 5] {
    let [d1, d2] = dobjs;
    let [ibm_a, ibm_b] = ibms;
    let mesh = JointFlags::OPA | JointFlags::LIGHTING;
    let own = [
        joint(JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA, [0.0; 3]),
        Joint {
            data: Some(d1),
            ..joint(JointFlags::ENVELOPE_MODEL | mesh, [0.0; 3])
        },
        Joint {
            inverse_bind: Some(ibm_a),
            ..joint(JointFlags::SKELETON, SCENE_BONE)
        },
        Joint {
            inverse_bind: Some(ibm_b),
            ..joint(JointFlags::SKELETON, SCENE_BONE)
        },
        Joint {
            data: Some(d2),
            ..joint(mesh, [0.0, 0.0, 1.0])
        },
    ];
    scene_tree(at, own).map(|(t, child, next, j)| (t, Joint { child, next, ..j }))
}

/// [`super::xd_scene`]'s bone animation tree on the blocks `at` (see [`scene_tree`]): `root` is
/// the root's AObj, `a` deformer A's.
pub fn scene_anim_joints(at: [T; 5], root: T, a: T) -> [(T, AnimJoint<T>); 5] {
    let aobjs = [Some(root), None, Some(a), None, None];
    scene_tree(at, aobjs).map(|(t, child, next, aobj)| (t, anim_joint(child, next, aobj)))
}

/// [`super::xd_scene`]'s material animation tree on the blocks `at` (see [`scene_tree`]): owner
/// 1 animated by the MatAnim chain `owner1`.
pub fn scene_mat_anim_joints(at: [T; 5], owner1: T) -> [(T, MatAnimJoint<T>); 5] {
    let matanims = [None, Some(owner1), None, None, None];
    scene_tree(at, matanims).map(|(t, child, next, matanim)| {
        (
            t,
            MatAnimJoint {
                child,
                next,
                matanim,
            },
        )
    })
}

/// The camera's eye and interest points.
pub fn camera_points() -> [WObj<T>; 2] {
    [wobj([0.0, 1.0, 10.0]), wobj([0.0, 1.0, 0.0])]
}

/// [`super::xd_scene`]'s perspective camera (45°, 4:3, 640×480) looking from `eye` at
/// `interest` ([`camera_points`]).
pub fn camera(eye: T, interest: T) -> Camera<T> {
    Camera {
        class_name: None,
        flags: 0,
        projection: 1,
        viewport: [0, 640, 0, 480],
        scissor: [0, 640, 0, 480],
        eye: Some(eye),
        interest: Some(interest),
        roll: 0.0,
        up: None,
        near: 0.1,
        far: 1000.0,
        projection_params: [45.0, 1.333, 0.0, 0.0],
    }
}

/// A CameraSet of one camera, not animated.
pub fn camera_set(camera: T) -> CameraSet<T> {
    CameraSet {
        desc: Some(camera),
        anims: None,
    }
}

/// [`super::xd_scene`]'s bound box: one animation of ten frames, each the same box.
pub fn scene_bound_box() -> BoundBox {
    BoundBox {
        pad: 0,
        sets: vec![vec![
            Aabb {
                min: [-1.0, 0.0, -0.1],
                max: [1.0, 2.0, 1.0],
            };
            10
        ]],
    }
}
