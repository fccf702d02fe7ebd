//! Builders: an allocator of typed structs into a [`Dat`] (children first, like the Sysdolphin
//! compiler's post-order), and the sample archives used by tests, benches and `samples/`; their
//! struct values come from [`parts`].

pub mod parts;

use gcio::Result;
use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType, CompCount, CompType, VertexFormat};

use crate::bound_box::{Aabb, BoundBox};
use crate::field::{Rgba, Struct, Word};
use crate::flags::{JointFlags, PObjFlags, PeFlags, RenderMode, TObjFlags};
use crate::model::{Block, Dat, Loc, Slot, Target};
use crate::types::*;
use parts::*;

/// Appends structs and buffers to a [`Dat`], one block each.
#[derive(Debug, Clone, Default)]
pub struct Builder {
    /// The archive being built.
    pub dat: Dat,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Appends raw bytes as a block aligned to `align`.
    pub fn bytes(&mut self, bytes: Vec<u8>, align: u32) -> Target {
        Target::block(self.dat.push_block(Block::new(bytes, align)))
    }

    /// Appends a typed struct (4-aligned, `T::SIZE` bytes; a palette gets its 0x10-byte slot).
    pub fn put<T: Struct<Target>>(&mut self, v: &T) -> Target {
        let size = T::SIZE.next_multiple_of(4);
        let i = self.dat.push_block(Block::new(vec![0; size], 4));
        let loc = Loc::start(i);
        // A fresh block of SIZE bytes always holds the struct.
        let _ = self.dat.write_struct(loc, v);
        Target::In(loc)
    }

    /// Appends a table of `T`s laid end to end in one block (4-aligned).
    pub fn put_table<T: Struct<Target>>(&mut self, items: &[T]) -> Target {
        let size = T::SIZE.next_multiple_of(4);
        let i = self
            .dat
            .push_block(Block::new(vec![0; size * items.len()], 4));
        for (k, v) in items.iter().enumerate() {
            let loc = Loc {
                block: i,
                offset: (k * size) as u32,
            };
            // The block was sized for every item.
            let _ = self.dat.write_struct(loc, v);
        }
        Target::block(i)
    }

    /// Appends a zeroed block for a `T` to be written later with [`Builder::set`] (for layouts
    /// where a struct precedes what it points at).
    pub fn slot<T: Struct<Target>>(&mut self) -> Target {
        self.bytes(vec![0; T::SIZE.next_multiple_of(4)], 4)
    }

    /// Writes `v` into the block `at` (from [`Builder::slot`] or [`Builder::put`]).
    pub fn set<T: Struct<Target>>(&mut self, at: Target, v: &T) {
        if let Target::In(l) = at {
            // The block was sized for a `T`.
            let _ = self.dat.write_struct(l, v);
        }
    }

    /// Appends a zeroed NULL-terminated array for `n` pointers, to be filled with
    /// [`Builder::set_ptr_array`] (for layouts where the array precedes its items).
    pub fn ptr_array_slot(&mut self, n: usize) -> Target {
        self.bytes(vec![0; 4 * (n + 1)], 4)
    }

    /// Points the array `at` (from [`Builder::ptr_array_slot`]) at `items`.
    pub fn set_ptr_array(&mut self, at: Target, items: &[Target]) {
        if let Target::In(l) = at
            && let Some(b) = self.dat.blocks.get_mut(l.block)
        {
            for (k, t) in items.iter().enumerate() {
                b.set_pointer(l.offset + 4 * k as u32, Some(*t));
            }
        }
    }

    /// Appends a NULL-terminated pointer array.
    pub fn ptr_array(&mut self, items: &[Target]) -> Target {
        let at = self.ptr_array_slot(items.len());
        self.set_ptr_array(at, items);
        at
    }

    /// Appends a table of pointers without terminator: a TexAnim's image and palette tables,
    /// which the runtime indexes by the TexAnim's counts (HAL's compiler writes `n` words:
    /// `PlMrNr.dat`'s six-entry tables are 24 bytes).
    pub fn ptr_table(&mut self, items: &[Target]) -> Target {
        let at = self.bytes(vec![0; 4 * items.len()], 4);
        self.set_ptr_array(at, items);
        at
    }

    /// Appends a NUL-terminated string (4-aligned block).
    pub fn string(&mut self, s: &str) -> Target {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        b.resize(b.len().next_multiple_of(4), 0);
        self.bytes(b, 4)
    }

    /// Adds a root.
    pub fn root(&mut self, name: &str, t: Target) {
        self.dat.add_root(name, t);
    }

    /// Appends a vertex attribute list; each entry is (desc, array). Ends with the compiler's
    /// terminator `attr 0xFF, attr_type 2, comp_type 4` (HSD-015).
    pub fn vtx_list(&mut self, entries: &[VtxDesc<Target>]) -> Target {
        let n = entries.len() + 1;
        let i = self.dat.push_block(Block::new(vec![0; n * 0x18], 4));
        for (k, e) in entries
            .iter()
            .chain(std::iter::once(&TERMINATOR))
            .enumerate()
        {
            let _ = self.dat.write_struct(
                Loc {
                    block: i,
                    offset: (k * 0x18) as u32,
                },
                e,
            );
        }
        Target::block(i)
    }

    /// Appends a zeroed envelope array for `n` weights (ends with a NULL joint), to be filled
    /// with [`Builder::set_envelope`] (for layouts where envelopes precede their joints).
    pub fn envelope_slot(&mut self, n: usize) -> Target {
        self.bytes(vec![0; 8 * (n + 1)], 4)
    }

    /// Writes `weights` into the envelope array `at` (from [`Builder::envelope_slot`]).
    pub fn set_envelope(&mut self, at: Target, weights: &[(Target, f32)]) {
        if let Target::In(l) = at {
            for (k, &(j, weight)) in weights.iter().enumerate() {
                let loc = Loc {
                    block: l.block,
                    offset: l.offset + 8 * k as u32,
                };
                let e = Envelope {
                    joint: Some(j),
                    weight,
                };
                // The array was sized for the weights.
                let _ = self.dat.write_struct(loc, &e);
            }
        }
    }

    /// Appends an envelope array (ends with a NULL joint).
    pub fn envelope(&mut self, weights: &[(Target, f32)]) -> Target {
        let at = self.envelope_slot(weights.len());
        self.set_envelope(at, weights);
        at
    }

    /// Appends a keyframe stream (4-aligned) made by [`parts::lin_keys`], returning it with its
    /// unpadded length as [`parts::fobj`] takes them.
    pub fn keys(&mut self, (stream, len): (Vec<u8>, u32)) -> (Target, u32) {
        (self.bytes(stream, 4), len)
    }

    /// The archive.
    pub fn finish(self) -> Dat {
        self.dat
    }

    /// Ends a Colosseum/XD model: appends `bound_box` as the last block, adds the `scene_data`
    /// and `bound_box` roots and pads the data section to 16 ([`pad_data_to_16`]).
    pub fn finish_xd(mut self, scene: Target, bound_box: &BoundBox) -> Result<Dat> {
        let bound = self.bytes(bound_box.to_bytes(), 4);
        self.root("scene_data", scene);
        self.root("bound_box", bound);
        let mut dat = self.finish();
        pad_data_to_16(&mut dat)?;
        Ok(dat)
    }
}

/// The terminator the Sysdolphin compiler writes.
pub const TERMINATOR: VtxDesc<Target> = VtxDesc {
    attr: 0xFF,
    attr_type: 2,
    comp_cnt: 0,
    comp_type: 4,
    frac: 0,
    pad: 0,
    stride: 0,
    array: None,
};

/// Pads the data section to 16 bytes (the Colosseum/XD convention) by growing the last block.
pub fn pad_data_to_16(dat: &mut Dat) -> Result<()> {
    let (_, size) = dat.layout()?;
    if let Some(last) = dat.blocks.last_mut() {
        last.bytes.resize(
            last.bytes.len() + (size as usize).next_multiple_of(16) - size as usize,
            0,
        );
    }
    Ok(())
}

fn encode_array(format: VertexFormat, values: &[[f32; 3]]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        let _ = format.encode(v, &mut out);
    }
    out
}

/// Knobs of [`xd_model`]: the valid model and its broken variants.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct XdOptions {
    /// Envelope arrays in the mesh's palette beyond the three used (11 total breaks HSD-008).
    pub extra_palette_slots: usize,
    /// PNMTXIDX value replacing the second vertex's (4 breaks HSD-009).
    pub pnmtxidx_override: Option<u8>,
    /// Weight the mesh-owner joint (made SKELETON + IBM too; breaks HSD-020 only).
    pub weight_mesh_owner: bool,
    /// Trailing bytes after `file_size` (a padded raw `.dat`: HSD-001).
    pub trailing_padding: usize,
    /// Extra triangle-strip copies of the mesh (bench models).
    pub repeat_strips: usize,
    /// Extra mesh-owner joints, each with its own DObj and PObj over the shared buffers (bench
    /// models).
    pub extra_meshes: usize,
}

/// A Colosseum/XD-style model: `scene_data` (one ModelSet, four lights) + `bound_box`; a skeleton
/// of two deformers under an identity root and a mesh-owner joint holding an enveloped,
/// textured mesh (three palette slots: 1.0 A, 0.5 A + 0.5 B, 1.0 B); two animations whose frame
/// counts the bound box follows.
pub fn xd_model(o: XdOptions) -> Result<Dat> {
    let mut b = Builder::new();
    // Raw buffers first: vertex arrays, then display lists (compiler order), then pixels.
    let pos_fmt = VertexFormat {
        attr: Attr::POS,
        count: CompCount::POS_XYZ,
        ty: CompType::S16,
        frac: 8,
    };
    let nrm_fmt = VertexFormat {
        attr: Attr::NRM,
        count: CompCount::NRM_XYZ,
        ty: CompType::S8,
        frac: 6,
    };
    let uv_fmt = VertexFormat {
        attr: Attr::tex(0),
        count: CompCount::TEX_ST,
        ty: CompType::S16,
        frac: 12,
    };
    let positions = [
        [-1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [-1.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
        [-1.0, 2.0, 0.0],
        [1.0, 2.0, 0.0],
    ];
    let pos = b.bytes(encode_array(pos_fmt, &positions), 32);
    let nrm = b.bytes(encode_array(nrm_fmt, &[[0.0, 0.0, 1.0]]), 32);
    let uvs = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 0.5, 0.0],
        [1.0, 0.5, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    let uv = b.bytes(encode_array(uv_fmt, &uvs), 32);
    let mut desc = VertexDesc::new();
    desc.push(Attr::PNMTXIDX, AttrType::DIRECT)?;
    desc.push(Attr::POS, AttrType::INDEX16)?;
    desc.push(Attr::NRM, AttrType::INDEX8)?;
    desc.push(Attr::tex(0), AttrType::INDEX16)?;
    let slots = [0u32, 0, 3, 3, 6, 6];
    let mut prims = Vec::new();
    for _ in 0..=o.repeat_strips {
        let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
        for (i, &s) in slots.iter().enumerate() {
            let s = match (i, o.pnmtxidx_override) {
                (1, Some(v)) => u32::from(v),
                _ => s,
            };
            strip.push(&desc, &[s, i as u32, 0, i as u32]);
        }
        prims.push(strip);
    }
    let (dl_bytes, n_display) = display_list(&prims, &desc)?;
    let dl = b.bytes(dl_bytes.clone(), 32);
    // Bench models: one display list per extra mesh, so every byte decoded is a byte of the file.
    let extra_dls: Vec<Target> = (0..o.extra_meshes)
        .map(|_| b.bytes(dl_bytes.clone(), 32))
        .collect();
    // 8×8 I8 image (64 bytes), 32-aligned, never at offset 0.
    let pix = b.bytes(i8_pixels(), 32);
    // A second, paletted texture: 8×8 C4 (32 bytes) over a 16-entry RGB5A3 palette, both
    // 32-aligned payloads.
    let c4_pix = b.bytes(c4_pixels(), 32);
    let lut = b.bytes(rgb5a3_lut(), 32);
    // Materials.
    let pe = b.put(&pixel_engine(
        PeFlags::COLOR_UPDATE | PeFlags::ALPHA_UPDATE | PeFlags::COMPARE | PeFlags::ZUPDATE,
    ));
    let img = b.put(&image(pix, 1));
    let c4_img = b.put(&image(c4_pix, 8));
    let pal = b.put(&palette(lut));
    let tobj1 = b.put(&tobj(1, None, c4_img, Some(pal)));
    let tobj0 = b.put(&tobj(0, Some(tobj1), img, None));
    let mat = b.put(&material(0x80));
    let render_mode = RenderMode::CONSTANT
        | RenderMode::DIFFUSE
        | RenderMode::TEX0
        | RenderMode::TEX1
        | RenderMode::ALPHA_MAT;
    let mo = b.put(&mobj(render_mode, Some(tobj0), mat, Some(pe)));
    // Skeleton blocks are reserved first so envelopes can point at them; filled in below.
    let reserve = |b: &mut Builder| b.put(&joint(JointFlags::empty(), [0.0; 3]));
    let bone_b_t = [0.0, 2.0, 0.0];
    let bone_a_t = [0.0, 1.0, 0.0];
    let ibm_a = b.put(&translate_inverse(bone_a_t));
    let ibm_b = b.put(&translate_inverse(bone_b_t));
    let ibm_owner = o
        .weight_mesh_owner
        .then(|| b.put(&translate_inverse([0.0; 3])));
    let j_owner = reserve(&mut b);
    let j_b = reserve(&mut b);
    let j_a = reserve(&mut b);
    let j_root = reserve(&mut b);
    // Envelopes.
    let first = if o.weight_mesh_owner { j_owner } else { j_a };
    let mut env_slots = vec![
        b.envelope(&[(first, 1.0)]),
        b.envelope(&[(j_a, 0.5), (j_b, 0.5)]),
        b.envelope(&[(j_b, 1.0)]),
    ];
    for _ in 0..o.extra_palette_slots {
        let e = b.envelope(&[(j_b, 1.0)]);
        env_slots.push(e);
    }
    let env_list = b.ptr_array(&env_slots);
    // Vertex descriptors.
    let vtx_list = b.vtx_list(&env_vtx(pos, nrm, uv));
    // Geometry.
    let po = b.put(&pobj(
        None,
        vtx_list,
        PObjFlags::ENVELOPE,
        n_display,
        dl,
        Some(env_list),
    ));
    let d = b.put(&dobj(mo, po));
    // Skeleton: root (identity) → [owner (mesh), A (deformer) → B (deformer)].
    let owner_flags = if o.weight_mesh_owner {
        JointFlags::ENVELOPE_MODEL | JointFlags::SKELETON | JointFlags::OPA | JointFlags::LIGHTING
    } else {
        JointFlags::ENVELOPE_MODEL | JointFlags::OPA | JointFlags::LIGHTING
    };
    let mut jb = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
    jb.inverse_bind = Some(ibm_b);
    b.set(j_b, &jb);
    let mut ja = joint(JointFlags::SKELETON, bone_a_t);
    ja.inverse_bind = Some(ibm_a);
    ja.child = Some(j_b);
    b.set(j_a, &ja);
    let mut next = Some(j_a);
    for &extra_dl in &extra_dls {
        let p = b.put(&pobj(
            None,
            vtx_list,
            PObjFlags::ENVELOPE,
            n_display,
            extra_dl,
            Some(env_list),
        ));
        let d = b.put(&dobj(mo, p));
        let mut j = joint(JointFlags::ENVELOPE_MODEL | JointFlags::OPA, [0.0; 3]);
        j.data = Some(d);
        j.next = next;
        next = Some(b.put(&j));
    }
    let mut jo = joint(owner_flags, [0.0; 3]);
    jo.data = Some(d);
    jo.next = next;
    jo.inverse_bind = ibm_owner;
    b.set(j_owner, &jo);
    let mut jr = joint(JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA, [0.0; 3]);
    jr.child = Some(j_owner);
    b.set(j_root, &jr);
    // Bone animation: two sequences, each an AnimJoint tree mirroring the skeleton with one
    // ROTY track on the root (LIN keys 0 → 1.5 over end_frame frames).
    let mut anims = Vec::new();
    for end_frame in [9.0f32, 4.0] {
        let keys = b.keys(lin_keys(end_frame as u8, 1.5));
        let f = b.put(&fobj(2, None, keys));
        let a = b.put(&aobj(end_frame, f));
        let a_b = b.put(&anim_joint(None, None, None));
        let a_a = b.put(&anim_joint(Some(a_b), None, None));
        let a_owner = b.put(&anim_joint(None, Some(a_a), None));
        let a_root = b.put(&anim_joint(Some(a_owner), None, Some(a)));
        anims.push(a_root);
    }
    let anim_list = b.ptr_array(&anims);
    // Scene: light leaves, then containers, then the roots.
    let mut lights = Vec::new();
    for (ty, grey, dir) in LIGHT_RIG {
        let position = (ty == 1).then(|| b.put(&wobj(dir)));
        lights.push(b.put(&light(ty, grey, position)));
    }
    let sets: Vec<Target> = lights.into_iter().map(|l| b.put(&light_set(l))).collect();
    let model = b.put(&model_set(j_root, Some(anim_list), None));
    let models = b.ptr_array(&[model]);
    let lights = b.ptr_array(&sets);
    let scene = b.put(&scene_data(models, None, Some(lights)));
    let bb = BoundBox {
        pad: 0,
        sets: [10usize, 5]
            .iter()
            .map(|&n| {
                vec![
                    Aabb {
                        min: [-1.0, 0.0, -0.1],
                        max: [1.0, 2.0, 0.1]
                    };
                    n
                ]
            })
            .collect(),
    };
    let mut dat = b.finish_xd(scene, &bb)?;
    dat.trailing = vec![0; o.trailing_padding];
    Ok(dat)
}

/// A minimal archive shaped like MexTK output: one root (`mySymbol`) whose struct holds three
/// pointers, relocations listed unsorted (`0xC, 0x0, 0x4`), no trailing padding.
pub fn mextk_minimal() -> Dat {
    let mut b = Builder::new();
    let mut root = vec![0u8; 16];
    if let Some(w) = root.get_mut(8..12) {
        w.copy_from_slice(&42u32.to_be_bytes());
    }
    let r = b.dat.push_block(Block::new(root, 4));
    let x = b.bytes(1.5f32.to_be_bytes().to_vec(), 4);
    let y = b.bytes(b"abc\0".to_vec(), 4);
    let z = b.bytes(vec![0, 0, 0, 7], 4);
    if let Some(bl) = b.dat.blocks.get_mut(r) {
        bl.set_pointer(0, Some(x));
        bl.set_pointer(4, Some(y));
        bl.set_pointer(0xC, Some(z));
    }
    b.dat.relocations = [0xC, 0, 4]
        .iter()
        .map(|&at| {
            Slot::Pointer(Loc {
                block: r,
                offset: at,
            })
        })
        .collect();
    b.root("mySymbol", Target::block(r));
    b.finish()
}

/// A Melee-style archive: one `*_joint` root with a rigid, vertex-coloured mesh, 4-aligned data
/// (Melee files are not padded to 16).
pub fn melee_joint() -> Result<Dat> {
    let mut b = Builder::new();
    let pos_fmt = VertexFormat {
        attr: Attr::POS,
        count: CompCount::POS_XYZ,
        ty: CompType::F32,
        frac: 0,
    };
    let pos = b.bytes(
        encode_array(
            pos_fmt,
            &[
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
            ],
        ),
        32,
    );
    let mut desc = VertexDesc::new();
    desc.push(Attr::POS, AttrType::INDEX8)?;
    desc.push_direct(VertexFormat {
        attr: Attr::CLR0,
        count: CompCount::CLR_RGBA,
        ty: CompType::RGBA8,
        frac: 0,
    })?;
    let mut q = PrimitiveBuf::new(Opcode::QUADS);
    for i in 0..4u32 {
        q.push(&desc, &[i, 0xFF00_00FF | (i * 0x40) << 16]);
    }
    let (dl_bytes, n_display) = display_list(&[q], &desc)?;
    let dl = b.bytes(dl_bytes, 32);
    let mat = b.put(&Material {
        ambient: Rgba([0x40; 4]),
        diffuse: Rgba([0xC0, 0x20, 0x20, 0xFF]),
        specular: Rgba([0xFF; 4]),
        alpha: 1.0,
        shininess: 20.0,
    });
    let mo = b.put(&mobj(
        RenderMode::VERTEX | RenderMode::DIFFUSE,
        None,
        mat,
        None,
    ));
    let vtx_list = b.vtx_list(&[
        vtx(9, 2, 1, 4, 0, 12, Some(pos)),
        vtx(11, 1, 1, 5, 0, 4, None),
    ]);
    let po = b.put(&pobj(
        None,
        vtx_list,
        PObjFlags::CULLBACK,
        n_display,
        dl,
        None,
    ));
    let d = b.put(&dobj(mo, po));
    let mut child = joint(JointFlags::OPA, [0.0, 1.0, 0.0]);
    child.data = Some(d);
    let child = b.put(&child);
    let mut root = joint(JointFlags::ROOT_OPA, [0.0; 3]);
    root.child = Some(child);
    let root = b.put(&root);
    b.root("ItSample_joint", root);
    Ok(b.finish())
}

/// Two AnimJoint trees over one keyframe buffer: `_a`'s FObj reads 12 bytes (two LIN packs),
/// `_b`'s (on the tree listed first) only the second pack, from byte 6 of the buffer — a
/// shared stream tail at an unaligned offset, which the parse makes a block of its own. Also
/// a joint, so the archive is a model. `compile` keeps the tail at its distance from the
/// stream's start (tests/compile.rs, `gcf rebuild`'s test in crates/gcf).
pub fn shared_keyframe_tail() -> Dat {
    let pack = |value: f32, wait: u8| {
        let mut p = vec![0x02];
        p.extend_from_slice(&value.to_le_bytes());
        p.push(wait);
        p
    };
    let mut b = Builder::new();
    let mut stream = pack(1.5, 10);
    stream.extend(pack(-2.5, 20));
    let keys = b.bytes(stream, 4);
    let tail = match keys {
        Target::In(at) => Target::In(Loc { offset: 6, ..at }),
        end => end,
    };
    let fa = b.put(&fobj(2, None, (keys, 12)));
    let fb = b.put(&fobj(3, None, (tail, 6)));
    let aa = b.put(&aobj(30.0, fa));
    let ab = b.put(&aobj(30.0, fb));
    let ja = b.put(&anim_joint(None, None, Some(aa)));
    let jb = b.put(&anim_joint(None, None, Some(ab)));
    let child = b.put(&joint(JointFlags::OPA, [0.0, 1.0, 0.0]));
    let mut root = joint(JointFlags::ROOT_OPA, [0.0; 3]);
    root.child = Some(child);
    let root = b.put(&root);
    b.root("It_joint", root);
    b.root("It_b_animjoint", jb);
    b.root("It_a_animjoint", ja);
    b.finish()
}

/// A motion file: an archive holding only an AnimJoint root (`PlyWalk_animjoint`) for a chain
/// of `nodes` joints; the last joint's translation Y (track 6) is two LIN keys, 1.5 held 10
/// frames then -2.5 (the stream spelled out: opcode 0x02, f32 LE value, wait), over 30 frames.
/// What `convert --anim` poses a model with (`melee_joint` has 2 joints).
pub fn motion_chain(nodes: usize) -> Dat {
    let mut b = Builder::new();
    let mut stream = vec![0x02];
    stream.extend_from_slice(&1.5f32.to_le_bytes());
    stream.push(10);
    stream.push(0x02);
    stream.extend_from_slice(&(-2.5f32).to_le_bytes());
    stream.push(20);
    let keys = b.bytes(stream, 4);
    let f = b.put(&fobj(6, None, (keys, 12)));
    let ao = b.put(&aobj(30.0, f));
    let mut node = b.put(&anim_joint(None, None, Some(ao)));
    for _ in 1..nodes {
        node = b.put(&anim_joint(Some(node), None, None));
    }
    b.root("PlyWalk_animjoint", node);
    b.finish()
}

/// Two models side by side, as Melee's menus hold them: joint trees `X_joint` (one joint) and
/// `Y_joint` (a turned root and a child), the child moved along X over 10 frames by the tree
/// `Y_animjoint`, which poses `Y_joint` by its name.
pub fn two_trees() -> Dat {
    let mut b = Builder::new();
    let x = b.put(&joint(JointFlags::empty(), [0.0; 3]));
    let child = b.put(&joint(JointFlags::empty(), [0.0, 1.0, 0.0]));
    let mut y = joint(JointFlags::empty(), [3.0, 0.0, 0.0]);
    y.rotation = [0.0, 0.0, 0.5];
    y.child = Some(child);
    let y = b.put(&y);
    let keys = b.keys(lin_keys(10, 2.0));
    let track = b.put(&fobj(5, None, keys));
    let moves = b.put(&aobj(10.0, track));
    let anim_child = b.put(&anim_joint(None, None, Some(moves)));
    let anim_root = b.put(&anim_joint(Some(anim_child), None, None));
    b.root("X_joint", x);
    b.root("Y_joint", y);
    b.root("Y_animjoint", anim_root);
    b.finish()
}

/// [`stage`]'s texture: four flat CMPR sub-blocks in the form of the tool behind many of 20XX's
/// textures (`gx::tex::cmpr::Flat::BlueUp`: the colour and one blue step up, three-colour
/// mode), which the default form writes otherwise.
pub const STAGE_CMPR: [u8; 32] = [
    0x49, 0xE9, 0x49, 0xEA, 0, 0, 0, 0, //
    0x30, 0x82, 0x30, 0x83, 0, 0, 0, 0, //
    0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, //
    0x7B, 0xEF, 0x7B, 0xF0, 0, 0, 0, 0,
];

/// A Melee stage's model part, as its `map_head` holds it (doldecomp/melee `UnkStageDat`): a
/// GObj table of three entries, the head's other tables empty —
/// 0. a triangle model with a camera, two light sets and a fog;
/// 1. a reflection-mapped triangle model (8 × 8 CMPR pixels, [`STAGE_CMPR`]) whose joint an animation bank moves along X over
///    10 frames;
/// 2. an entry whose joint and camera are extern slots (unrelocated `0xFFFFFFFF`: Pokémon
///    Stadium's transformations take theirs from another archive).
pub fn stage() -> Result<Dat> {
    let mut b = Builder::new();
    let model = |b: &mut Builder, x: i16, texture: bool| -> Result<Target> {
        let (desc, dl, n) = triangle_at(b, [[x, 0, 0], [x + 256, 0, 0], [x, 256, 0]])?;
        let tobj = if texture {
            let pix = b.bytes(STAGE_CMPR.to_vec(), 32);
            let img = b.put(&image(pix, 14));
            let mut t = tobj(0, None, img, None);
            // Reflection-mapped: the triangle has no UVs (HSD-025).
            t.flags = t.flags.difference(TObjFlags::COORD) | TObjFlags::from_bits_retain(1);
            Some(b.put(&t))
        } else {
            None
        };
        let mode = RenderMode::DIFFUSE
            | if texture {
                RenderMode::TEX0
            } else {
                RenderMode::empty()
            };
        let mat = b.put(&material(0x40));
        let m = b.put(&mobj(mode, tobj, mat, None));
        let p = b.put(&pobj(None, desc, PObjFlags::empty(), n, dl, None));
        let d = b.put(&dobj(m, p));
        let mut j = joint(JointFlags::ROOT_OPA | JointFlags::OPA, [0.0; 3]);
        j.data = Some(d);
        Ok(b.put(&j))
    };
    let still = model(&mut b, 0, false)?;
    let moving = model(&mut b, -512, true)?;
    let keys = b.keys(lin_keys(10, 2.0));
    let track = b.put(&fobj(5, None, keys));
    let moves = b.put(&aobj(10.0, track));
    let anim = b.put(&anim_joint(None, None, Some(moves)));
    let anims = b.ptr_array(&[anim]);
    let [eye, interest] = camera_points().map(|w| b.put(&w));
    let cam = b.put(&camera(eye, interest));
    let sets: Vec<Target> = [(1, 0x40), (2, 0xC0)]
        .into_iter()
        .map(|(ty, grey)| {
            let l = b.put(&light(ty, grey, None));
            b.put(&light_set(l))
        })
        .collect();
    let lights = b.ptr_array(&sets);
    let fog = b.put(&Fog {
        kind: 2,
        adj: None,
        start: 10.0,
        end: 100.0,
        color: Rgba([0x80, 0x80, 0xFF, 0xFF]),
    });
    let none = MapGObj {
        joint: Word::Value(0),
        anims: Word::Value(0),
        matanims: Word::Value(0),
        shapeanims: Word::Value(0),
        camera: Word::Value(0),
        unknown14: Word::Value(0),
        lights: Word::Value(0),
        fog: Word::Value(0),
        joints: Word::Value(0),
        joint_count: 0,
        unknown28: Word::Value(0),
        halfwords: Word::Value(0),
        halfword_count: 0,
    };
    let table = b.put_table(&[
        MapGObj {
            joint: Word::Ptr(still),
            camera: Word::Ptr(cam),
            lights: Word::Ptr(lights),
            fog: Word::Ptr(fog),
            ..none
        },
        MapGObj {
            joint: Word::Ptr(moving),
            anims: Word::Ptr(anims),
            ..none
        },
        MapGObj {
            joint: Word::Value(u32::MAX),
            camera: Word::Value(u32::MAX),
            ..none
        },
    ]);
    let head = b.put(&MapHead {
        points: None,
        point_count: 0,
        gobjs: Some(table),
        gobj_count: 3,
        splines: None,
        spline_count: 0,
        lights: None,
        light_count: 0,
        shadows: None,
        shadow_count: 0,
        flagged: None,
        flagged_count: 0,
    });
    b.root("map_head", head);
    Ok(b.finish())
}

/// A joint chain whose children inherit a non-uniform scale ([`crate::pose`]), animated over
/// [`SCALE_CHAIN_FRAMES`] frames: a root scaled (2, 0.5, 1) and three joints below it, turned
/// and scaled by LIN tracks (Z rotation 0.3 → 2 and X scale 2 → 0.5 on the first, Y rotation
/// 0 → 1.4 on the second), in one ModelSet of a `scene_data` root, no mesh. What glTF can only
/// pose through the export's extra scale nodes (Blender and Khronos validator tests in gcf).
pub fn scale_chain() -> Result<Dat> {
    let end = SCALE_CHAIN_FRAMES;
    let mut b = Builder::new();
    let mut track = |id: u8, next: Option<Target>, keys: [(f32, u32); 2]| -> Result<Target> {
        let keys: Vec<crate::fobj::Key> = keys
            .iter()
            .map(|&(v, wait)| crate::fobj::Key {
                op: crate::fobj::Op::LIN,
                value: Some(v),
                slope: None,
                wait: Some(wait),
            })
            .collect();
        let mut stream = crate::fobj::encode(&keys, 0, 0)?;
        let len = u32::try_from(stream.len()).unwrap_or(u32::MAX);
        stream.resize(stream.len().next_multiple_of(4), 0);
        let k = b.keys((stream, len));
        Ok(b.put(&fobj(id, next, k)))
    };
    let rz = track(3, None, [(0.3, end), (2.0, 1)])?;
    let sx = track(8, Some(rz), [(2.0, end), (0.5, 1)])?;
    let ry = track(2, None, [(0.0, end), (1.4, 1)])?;
    // (rotation, scale, translation, tracks) per joint, root first.
    let chain = [
        ([0.0; 3], [2.0, 0.5, 1.0], [0.0; 3], None),
        ([0.3, 0.0, 0.3], [2.0, 1.0, 1.0], [1.0, 0.0, 0.0], Some(sx)),
        ([0.0; 3], [1.0, 2.0, 1.0], [0.0, 1.0, 0.0], Some(ry)),
        ([0.5, 0.0, 0.0], [1.0; 3], [0.0, 0.0, 1.0], None),
    ];
    let (mut child, mut anim_child) = (None, None);
    for (r, sc, t, tracks) in chain.into_iter().rev() {
        let mut j = joint(JointFlags::empty(), t);
        j.rotation = r;
        j.scale = sc;
        j.child = child;
        child = Some(b.put(&j));
        let a = tracks.map(|f| b.put(&aobj(end as f32, f)));
        anim_child = Some(b.put(&anim_joint(anim_child, None, a)));
    }
    let (Some(root), Some(anim)) = (child, anim_child) else {
        return Err(gcio::Error::message("empty chain"));
    };
    let list = b.ptr_array(&[anim]);
    let set = b.put(&model_set(root, Some(list), None));
    let models = b.ptr_array(&[set]);
    let scene = b.put(&scene_data(models, None, None));
    b.root("scene_data", scene);
    Ok(b.finish())
}

/// The last frame of [`scale_chain`]'s animation.
pub const SCALE_CHAIN_FRAMES: u32 = 20;

/// Every sample for `samples/` (file name, bytes). Compiler-order samples, written through
/// [`crate::compile::compile`] so `compile(parse(x)) == x`: `xd-model.dat`, `xd-scene.dat` (every
/// phase of the layout) and `melee-joint.dat`. Layout-preserving samples, which exercise what the
/// compiler never writes: `mextk-minimal.dat` (unsorted relocation table, an untyped root) and the
/// four broken variants under `broken/` (the builder's own order, one rule broken each).
pub fn samples() -> Result<Vec<(String, Vec<u8>)>> {
    let broken = [
        (
            "broken/palette-11-slots.dat",
            XdOptions {
                extra_palette_slots: 8,
                ..XdOptions::default()
            },
        ),
        (
            "broken/pnmtxidx-not-slot-x3.dat",
            XdOptions {
                pnmtxidx_override: Some(4),
                ..XdOptions::default()
            },
        ),
        (
            "broken/mesh-owner-weighted.dat",
            XdOptions {
                weight_mesh_owner: true,
                ..XdOptions::default()
            },
        ),
        (
            "broken/file-size-mismatch.dat",
            XdOptions {
                trailing_padding: 0x20,
                ..XdOptions::default()
            },
        ),
    ];
    let compiled = |d: Dat| crate::compile::compile(&d)?.write();
    let mut out = vec![
        ("mextk-minimal.dat".to_owned(), mextk_minimal().write()?),
        (
            "xd-model.dat".to_owned(),
            compiled(xd_model(XdOptions::default())?)?,
        ),
        ("xd-scene.dat".to_owned(), compiled(xd_scene()?)?),
        ("melee-joint.dat".to_owned(), compiled(melee_joint()?)?),
    ];
    for (name, o) in broken {
        out.push((name.to_owned(), xd_model(o)?.write()?));
    }
    Ok(out)
}

/// A Colosseum/XD-style model that exercises every phase of the compiler's layout, for the
/// compiler-order sample (`xd-scene.dat` is `compile(xd_scene())`): two mesh owners (owner 1: an
/// enveloped DObj with two PObjs over a shared vertex descriptor and a two-texture MObj, the
/// second texture paletted; owner 2: a rigid DObj with its own descriptor and a one-texture
/// MObj), two deformers with IBMs, envelope lists with a content duplicate, one bone animation
/// (tracks on the root and a deformer), one material animation (two MatAnims on owner 1: the
/// first with a two-TexAnim chain, one of them with a palette table; the second with one
/// TexAnim), image pixels shared between textures, two light sets (ambient, directional), a
/// camera and a bound box. Written here in a convenient order (not the compiler's);
/// `tests/compile.rs` lays the same model out by hand in the documented Colosseum/XD order and checks that
/// [`crate::compile::compile`] reproduces it.
pub fn xd_scene() -> Result<Dat> {
    let mut b = Builder::new();
    let s = scene_buffers()?;
    // Joints first (envelopes point at them), filled in at the end.
    let joints = [(); 5].map(|_| b.slot::<Joint<Target>>());
    let [_, _, ja, jb, _] = joints;
    // Pixels and palette.
    let pix_a = b.bytes(s.pix_a, 32);
    let pix_b = b.bytes(s.pix_b, 32);
    let pix_c = b.bytes(s.pix_c, 32);
    let lut = b.bytes(s.lut, 32);
    let pal = b.put(&palette(lut));
    // Vertex arrays and descriptors.
    let pos_r = b.bytes(s.pos_rigid, 32);
    let pos_e = b.bytes(s.pos_env, 32);
    let nrm = b.bytes(s.nrm, 32);
    let uv = b.bytes(s.uv, 32);
    let v_env = b.vtx_list(&env_vtx(pos_e, nrm, uv));
    let v_rigid = b.vtx_list(&rigid_vtx(pos_r, uv));
    // Display lists.
    let [(dl1, n1), (dl2, n2), (dl3, n3)] =
        [s.dl_env1, s.dl_env2, s.dl_rigid].map(|(dl, n)| (b.bytes(dl, 32), n));
    // Envelopes: P2's first list duplicates P1's.
    let e_a = b.envelope(&[(ja, 1.0)]);
    let e_b = b.envelope(&[(jb, 1.0)]);
    let e_a2 = b.envelope(&[(ja, 1.0)]);
    let e_ab = b.envelope(&[(ja, 0.5), (jb, 0.5)]);
    let l1 = b.ptr_array(&[e_a, e_b]);
    let l2 = b.ptr_array(&[e_a2, e_ab]);
    // Materials.
    let img1a = b.put(&image(pix_a, 1));
    let img1b = b.put(&image(pix_c, 8));
    let img2 = b.put(&image(pix_a, 1));
    let t1b = b.put(&tobj(1, None, img1b, Some(pal)));
    let t1a = b.put(&tobj(0, Some(t1b), img1a, None));
    let t2 = b.put(&tobj(0, None, img2, None));
    let pe = b.put(&pixel_engine(SCENE_PE));
    let mat1 = b.put(&material(0x80));
    let mat2 = b.put(&material(0x40));
    let [m1, m2] = scene_mobjs(t1a, mat1, pe, t2, mat2);
    let mobj1 = b.put(&m1);
    let mobj2 = b.put(&m2);
    // Geometry.
    let p2 = b.put(&pobj(None, v_env, PObjFlags::ENVELOPE, n2, dl2, Some(l2)));
    let p1 = b.put(&pobj(
        Some(p2),
        v_env,
        PObjFlags::ENVELOPE,
        n1,
        dl1,
        Some(l1),
    ));
    let p3 = b.put(&pobj(None, v_rigid, PObjFlags::CULLBACK, n3, dl3, None));
    let d1 = b.put(&dobj(mobj1, p1));
    let d2 = b.put(&dobj(mobj2, p3));
    // Skeleton: root → [owner1, A → B, owner2].
    let ibm_a = b.put(&translate_inverse(SCENE_BONE));
    let ibm_b = b.put(&translate_inverse([0.0, 2.0, 0.0]));
    for (at, j) in scene_skeleton(joints, [d1, d2], [ibm_a, ibm_b]) {
        b.set(at, &j);
    }
    // Bone animation: ROTY on the root, ROTX + TRAY on A.
    let k0 = b.keys(lin_keys(SCENE_FRAMES, 1.5));
    let f0 = b.put(&fobj(2, None, k0));
    let a0 = b.put(&aobj(SCENE_FRAMES.into(), f0));
    let k2 = b.keys(lin_keys(SCENE_FRAMES, 0.25));
    let k1 = b.keys(lin_keys(SCENE_FRAMES, -0.5));
    let f2 = b.put(&fobj(6, None, k2));
    let f1 = b.put(&fobj(1, Some(f2), k1));
    let a1 = b.put(&aobj(SCENE_FRAMES.into(), f1));
    // The AnimJoints children first: owner 2, B, A, owner 1, root.
    let [aj_o2, aj_b, aj_a, aj_o1, aj_root] = [(); 5].map(|_| b.slot::<AnimJoint<Target>>());
    for (at, aj) in scene_anim_joints([aj_root, aj_o1, aj_a, aj_b, aj_o2], a0, a1) {
        b.set(at, &aj);
    }
    let anims = b.ptr_array(&[aj_root]);
    // Material animation on owner 1: MA1 (alpha track, TexAnims 1a → 1b), MA2 (TexAnim 2).
    let img_t2 = b.put(&image(pix_a, 1));
    let img_t1a = b.put(&image(pix_b, 1));
    let img_t1b = b.put(&image(pix_c, 8));
    let it2 = b.ptr_array(&[img_t2]);
    let it1a = b.ptr_array(&[img_t1a]);
    let it1b = b.ptr_array(&[img_t1b]);
    let pt1b = b.ptr_array(&[pal]);
    let kt = b.keys(lin_keys(SCENE_FRAMES, 0.0));
    let ft = b.put(&fobj(1, None, kt));
    let at1a = b.put(&aobj(SCENE_FRAMES.into(), ft));
    let ta1b = b.put(&tex_anim(None, 1, None, it1b, Some(pt1b)));
    let ta1a = b.put(&tex_anim(Some(ta1b), 0, Some(at1a), it1a, None));
    let ta2 = b.put(&tex_anim(None, 0, None, it2, None));
    let km = b.keys(lin_keys(SCENE_FRAMES, 0.5));
    let fm = b.put(&fobj(10, None, km));
    let am1 = b.put(&aobj(SCENE_FRAMES.into(), fm));
    let ma2 = b.put(&mat_anim(None, None, Some(ta2)));
    let ma1 = b.put(&mat_anim(Some(ma2), Some(am1), Some(ta1a)));
    let [maj_o2, maj_b, maj_a, maj_o1, maj_root] =
        [(); 5].map(|_| b.slot::<MatAnimJoint<Target>>());
    for (at, maj) in scene_mat_anim_joints([maj_root, maj_o1, maj_a, maj_b, maj_o2], ma1) {
        b.set(at, &maj);
    }
    let matanims = b.ptr_array(&[maj_root]);
    // Scene: ambient + directional light (the first two of the rig), a camera.
    let [root, ..] = joints;
    let model = b.put(&model_set(root, Some(anims), Some(matanims)));
    let [(ty0, grey0, _), (ty1, grey1, dir1), ..] = LIGHT_RIG;
    let l0 = b.put(&light(ty0, grey0, None));
    let w1 = b.put(&wobj(dir1));
    let l1 = b.put(&light(ty1, grey1, Some(w1)));
    let ls0 = b.put(&light_set(l0));
    let ls1 = b.put(&light_set(l1));
    let [eye, interest] = camera_points().map(|w| b.put(&w));
    let cam = b.put(&camera(eye, interest));
    let cam_set = b.put(&camera_set(cam));
    let models = b.ptr_array(&[model]);
    let lights = b.ptr_array(&[ls0, ls1]);
    let scene = b.put(&scene_data(models, Some(cam_set), Some(lights)));
    b.finish_xd(scene, &scene_bound_box())
}
