//! Builders: an allocator of typed structs into a [`Dat`] (children first, like the Sysdolphin
//! compiler's post-order), and the sample archives used by tests, benches and `samples/`.

use gcio::{Result, Writer};
use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
use gx::vtx::{Attr, AttrType, CompCount, CompType, VertexFormat};

use crate::bound_box::{Aabb, BoundBox};
use crate::field::{Rgba, Struct};
use crate::flags::{AObjFlags, JointFlags, LightFlags, PObjFlags, PeFlags, RenderMode, TObjFlags};
use crate::model::{Block, Dat, Loc, Slot, Target};
use crate::types::*;

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

    /// Appends a NULL-terminated pointer array.
    pub fn ptr_array(&mut self, items: &[Target]) -> Target {
        let i = self
            .dat
            .push_block(Block::new(vec![0; 4 * (items.len() + 1)], 4));
        if let Some(b) = self.dat.blocks.get_mut(i) {
            for (k, t) in items.iter().enumerate() {
                b.set_pointer(4 * k as u32, Some(*t));
            }
        }
        Target::block(i)
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

    /// Appends an envelope array (ends with a NULL joint).
    pub fn envelope(&mut self, weights: &[(Target, f32)]) -> Target {
        let i = self
            .dat
            .push_block(Block::new(vec![0; 8 * (weights.len() + 1)], 4));
        for (k, &(j, w)) in weights.iter().enumerate() {
            let e = Envelope {
                joint: Some(j),
                weight: w,
            };
            let _ = self.dat.write_struct(
                Loc {
                    block: i,
                    offset: 8 * k as u32,
                },
                &e,
            );
        }
        Target::block(i)
    }

    /// The archive.
    pub fn finish(self) -> Dat {
        self.dat
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

fn joint(flags: JointFlags, translation: [f32; 3]) -> Joint<Target> {
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

fn translate_inverse(t: [f32; 3]) -> Matrix {
    Matrix {
        m: [
            [1.0, 0.0, 0.0, -t[0]],
            [0.0, 1.0, 0.0, -t[1]],
            [0.0, 0.0, 1.0, -t[2]],
        ],
    }
}

fn encode_array(format: VertexFormat, values: &[[f32; 3]]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        let _ = format.encode(v, &mut out);
    }
    out
}

/// A display list padded to 32 bytes, and its `n_display`.
fn display_list(prims: &[PrimitiveBuf], desc: &VertexDesc) -> Result<(Vec<u8>, u16)> {
    let mut w = Writer::new();
    for p in prims {
        p.write(&mut w, desc)?;
    }
    w.align(32, 0);
    let n = (w.position() / 32) as u16;
    Ok((w.into_vec(), n))
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
    let pixels: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
    let pix = b.bytes(pixels, 32);
    // A second, paletted texture: 8×8 C4 (32 bytes) over a 16-entry RGB5A3 palette, both
    // 32-aligned payloads.
    let c4: Vec<u8> = (0..32u8).map(|i| (i % 16) << 4 | (15 - i % 16)).collect();
    let c4_pix = b.bytes(c4, 32);
    let lut: Vec<u8> = (0..16u16)
        .flat_map(|i| (0x8000 | (i * 0x0842)).to_be_bytes())
        .collect();
    let lut = b.bytes(lut, 32);
    // Materials.
    let pe = b.put(&PixelEngine {
        flags: PeFlags::COLOR_UPDATE | PeFlags::ALPHA_UPDATE | PeFlags::COMPARE | PeFlags::ZUPDATE,
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
    });
    let image = b.put(&Image {
        data: Some(pix),
        width: 8,
        height: 8,
        format: 1,
        mipmap: 0,
        min_lod: 0.0,
        max_lod: 0.0,
    });
    let c4_image = b.put(&Image {
        data: Some(c4_pix),
        width: 8,
        height: 8,
        format: 8,
        mipmap: 0,
        min_lod: 0.0,
        max_lod: 0.0,
    });
    let palette = b.put(&Palette {
        data: Some(lut),
        format: 2,
        tlut_name: 0,
        n_entries: 16,
    });
    let tobj1 = b.put(&TObj {
        class_name: None,
        next: None,
        id: 1,
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
        image: Some(c4_image),
        palette: Some(palette),
        lod: None,
        tev: None,
    });
    let tobj = b.put(&TObj {
        class_name: None,
        next: Some(tobj1),
        id: 0,
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
        palette: None,
        lod: None,
        tev: None,
    });
    let material = b.put(&Material {
        ambient: Rgba([0x80, 0x80, 0x80, 0xFF]),
        diffuse: Rgba([0xFF; 4]),
        specular: Rgba([0xFF; 4]),
        alpha: 1.0,
        shininess: 50.0,
    });
    let mobj = b.put(&MObj {
        class_name: None,
        render_mode: RenderMode::CONSTANT
            | RenderMode::DIFFUSE
            | RenderMode::TEX0
            | RenderMode::TEX1
            | RenderMode::ALPHA_MAT,
        tobj: Some(tobj),
        material: Some(material),
        render_desc: None,
        pe: Some(pe),
    });
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
    let mut palette = vec![
        b.envelope(&[(first, 1.0)]),
        b.envelope(&[(j_a, 0.5), (j_b, 0.5)]),
        b.envelope(&[(j_b, 1.0)]),
    ];
    for _ in 0..o.extra_palette_slots {
        let e = b.envelope(&[(j_b, 1.0)]);
        palette.push(e);
    }
    let env_list = b.ptr_array(&palette);
    // Vertex descriptors.
    let vtx = b.vtx_list(&[
        VtxDesc {
            attr: 0,
            attr_type: 1,
            comp_cnt: 0,
            comp_type: 0,
            frac: 0,
            pad: 0,
            stride: 0,
            array: None,
        },
        VtxDesc {
            attr: 9,
            attr_type: 3,
            comp_cnt: 1,
            comp_type: 3,
            frac: 8,
            pad: 0,
            stride: 6,
            array: Some(pos),
        },
        VtxDesc {
            attr: 10,
            attr_type: 2,
            comp_cnt: 0,
            comp_type: 1,
            frac: 6,
            pad: 0,
            stride: 3,
            array: Some(nrm),
        },
        VtxDesc {
            attr: 13,
            attr_type: 3,
            comp_cnt: 1,
            comp_type: 3,
            frac: 12,
            pad: 0,
            stride: 4,
            array: Some(uv),
        },
    ]);
    // Geometry.
    let pobj = b.put(&PObj {
        class_name: None,
        next: None,
        vtx_desc: Some(vtx),
        flags: PObjFlags::ENVELOPE,
        n_display,
        display_list: Some(dl),
        link: Some(env_list),
    });
    let dobj = b.put(&DObj {
        class_name: None,
        next: None,
        mobj: Some(mobj),
        pobj: Some(pobj),
    });
    // Skeleton: root (identity) → [owner (mesh), A (deformer) → B (deformer)].
    let owner_flags = if o.weight_mesh_owner {
        JointFlags::ENVELOPE_MODEL | JointFlags::SKELETON | JointFlags::OPA | JointFlags::LIGHTING
    } else {
        JointFlags::ENVELOPE_MODEL | JointFlags::OPA | JointFlags::LIGHTING
    };
    let set_joint = |b: &mut Builder, t: Target, j: &Joint<Target>| {
        if let Target::In(l) = t {
            let _ = b.dat.write_struct(l, j);
        }
    };
    let mut jb = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
    jb.inverse_bind = Some(ibm_b);
    set_joint(&mut b, j_b, &jb);
    let mut ja = joint(JointFlags::SKELETON, bone_a_t);
    ja.inverse_bind = Some(ibm_a);
    ja.child = Some(j_b);
    set_joint(&mut b, j_a, &ja);
    let mut next = Some(j_a);
    for &extra_dl in &extra_dls {
        let p = b.put(&PObj {
            class_name: None,
            next: None,
            vtx_desc: Some(vtx),
            flags: PObjFlags::ENVELOPE,
            n_display,
            display_list: Some(extra_dl),
            link: Some(env_list),
        });
        let d = b.put(&DObj {
            class_name: None,
            next: None,
            mobj: Some(mobj),
            pobj: Some(p),
        });
        let mut j = joint(JointFlags::ENVELOPE_MODEL | JointFlags::OPA, [0.0; 3]);
        j.data = Some(d);
        j.next = next;
        next = Some(b.put(&j));
    }
    let mut jo = joint(owner_flags, [0.0; 3]);
    jo.data = Some(dobj);
    jo.next = next;
    jo.inverse_bind = ibm_owner;
    set_joint(&mut b, j_owner, &jo);
    let mut jr = joint(JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA, [0.0; 3]);
    jr.child = Some(j_owner);
    set_joint(&mut b, j_root, &jr);
    // Bone animation: two sequences, each an AnimJoint tree mirroring the skeleton with one
    // ROTY track on the root (LIN keys 0 → 1.5 over end_frame frames).
    let mut anims = Vec::new();
    for end_frame in [9.0f32, 4.0] {
        let mut stream = vec![0x12u8]; // op LIN, 2 keys
        stream.extend_from_slice(&0.0f32.to_le_bytes());
        stream.push(end_frame as u8);
        stream.extend_from_slice(&1.5f32.to_le_bytes());
        stream.push(0);
        let len = stream.len() as u32;
        stream.resize(stream.len().next_multiple_of(4), 0);
        let keys = b.bytes(stream, 4);
        let fobj = b.put(&FObj {
            next: None,
            length: len,
            start_frame: 0.0,
            track: 2,
            frac_value: 0,
            frac_slope: 0,
            pad: 0,
            data: Some(keys),
        });
        let aobj = b.put(&AObj {
            flags: AObjFlags::LOOP,
            end_frame,
            fobj: Some(fobj),
            obj_id: crate::field::Word::Value(0),
        });
        let aj = |child: Option<Target>, next: Option<Target>, aobj: Option<Target>| AnimJoint {
            child,
            next,
            aobj,
            robj_anim: None,
            flags: 0,
        };
        let a_b = b.put(&aj(None, None, None));
        let a_a = b.put(&aj(Some(a_b), None, None));
        let a_owner = b.put(&aj(None, Some(a_a), None));
        let a_root = b.put(&aj(Some(a_owner), None, Some(aobj)));
        anims.push(a_root);
    }
    let anim_list = b.ptr_array(&anims);
    // Scene: light leaves, then containers, then the roots.
    let mut light_sets = Vec::new();
    let rig: [(u16, u8, [f32; 3]); 4] = [
        (0, 0x4C, [0.0; 3]),
        (1, 204, [0.530, 0.660, 0.533]),
        (1, 102, [-0.352, 0.520, -0.778]),
        (1, 76, [-0.712, -0.540, 0.450]),
    ];
    for (ty, c, dir) in rig {
        let position = (ty == 1).then(|| {
            b.put(&WObj {
                class_name: None,
                position: dir,
                robj: None,
            })
        });
        let light = b.put(&Light {
            class_name: None,
            next: None,
            flags: LightFlags::from_bits_retain(ty) | LightFlags::DIFFUSE,
            attn_flags: 0,
            color: Rgba([c, c, c, 0xFF]),
            position,
            interest: None,
            param: None,
        });
        light_sets.push(light);
    }
    let sets: Vec<Target> = light_sets
        .into_iter()
        .map(|l| {
            b.put(&LightSet {
                desc: Some(l),
                anims: None,
            })
        })
        .collect();
    let model = b.put(&ModelSet {
        joint: Some(j_root),
        anims: Some(anim_list),
        matanims: None,
        shapeanims: None,
    });
    let models = b.ptr_array(&[model]);
    let lights = b.ptr_array(&sets);
    let scene = b.put(&SceneData {
        models: Some(models),
        camera: None,
        lights: Some(lights),
        fog: None,
    });
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
    let bound = b.bytes(bb.to_bytes(), 4);
    b.root("scene_data", scene);
    b.root("bound_box", bound);
    // Data section padded to 16 (the Colosseum/XD convention).
    let mut dat = b.finish();
    let (_, size) = dat.layout()?;
    if let Some(last) = dat.blocks.last_mut() {
        last.bytes.resize(
            last.bytes.len() + (size as usize).next_multiple_of(16) - size as usize,
            0,
        );
    }
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
    let material = b.put(&Material {
        ambient: Rgba([0x40; 4]),
        diffuse: Rgba([0xC0, 0x20, 0x20, 0xFF]),
        specular: Rgba([0xFF; 4]),
        alpha: 1.0,
        shininess: 20.0,
    });
    let mobj = b.put(&MObj {
        class_name: None,
        render_mode: RenderMode::VERTEX | RenderMode::DIFFUSE,
        tobj: None,
        material: Some(material),
        render_desc: None,
        pe: None,
    });
    let vtx = b.vtx_list(&[
        VtxDesc {
            attr: 9,
            attr_type: 2,
            comp_cnt: 1,
            comp_type: 4,
            frac: 0,
            pad: 0,
            stride: 12,
            array: Some(pos),
        },
        VtxDesc {
            attr: 11,
            attr_type: 1,
            comp_cnt: 1,
            comp_type: 5,
            frac: 0,
            pad: 0,
            stride: 4,
            array: None,
        },
    ]);
    let pobj = b.put(&PObj {
        class_name: None,
        next: None,
        vtx_desc: Some(vtx),
        flags: PObjFlags::CULLBACK,
        n_display,
        display_list: Some(dl),
        link: None,
    });
    let dobj = b.put(&DObj {
        class_name: None,
        next: None,
        mobj: Some(mobj),
        pobj: Some(pobj),
    });
    let mut child = joint(JointFlags::OPA, [0.0, 1.0, 0.0]);
    child.data = Some(dobj);
    let child = b.put(&child);
    let mut root = joint(JointFlags::ROOT_OPA, [0.0; 3]);
    root.child = Some(child);
    let root = b.put(&root);
    b.root("ItSample_joint", root);
    Ok(b.finish())
}

/// Every sample for `samples/` (file name, bytes): the three valid archives and the four broken
/// variants under `broken/`.
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
    let mut out = vec![
        ("mextk-minimal.dat".to_owned(), mextk_minimal().write()?),
        (
            "xd-model.dat".to_owned(),
            xd_model(XdOptions::default())?.write()?,
        ),
        ("melee-joint.dat".to_owned(), melee_joint()?.write()?),
    ];
    for (name, o) in broken {
        out.push((name.to_owned(), xd_model(o)?.write()?));
    }
    Ok(out)
}
