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

/// Pads the data section to 16 bytes (the Colosseum/XD convention) by growing the last block.
fn pad_data_to_16(dat: &mut Dat) -> Result<()> {
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
    let mut dat = b.finish();
    pad_data_to_16(&mut dat)?;
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

/// A LIN keyframe stream `0 → value` over `frames` frames (f32 values), 4-byte padded, and its
/// unpadded length.
fn lin_keys(frames: u8, value: f32) -> (Vec<u8>, u32) {
    let mut s = vec![0x12u8];
    s.extend_from_slice(&0.0f32.to_le_bytes());
    s.push(frames);
    s.extend_from_slice(&value.to_le_bytes());
    s.push(0);
    let len = s.len() as u32;
    s.resize(s.len().next_multiple_of(4), 0);
    (s, len)
}

fn fobj(track: u8, next: Option<Target>, (keys, len): (Target, u32)) -> FObj<Target> {
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

fn aobj(end_frame: f32, fobj: Target) -> AObj<Target> {
    AObj {
        flags: AObjFlags::LOOP,
        end_frame,
        fobj: Some(fobj),
        obj_id: crate::field::Word::Value(0),
    }
}

fn image(data: Target, format: u32) -> Image<Target> {
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

fn tobj(id: u32, next: Option<Target>, image: Target, palette: Option<Target>) -> TObj<Target> {
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

fn vtx(attr: u32, attr_type: u32, cnt: u32, ty: u32, frac: u8, stride: u16) -> VtxDesc<Target> {
    VtxDesc {
        attr,
        attr_type,
        comp_cnt: cnt,
        comp_type: ty,
        frac,
        pad: 0,
        stride,
        array: None,
    }
}

/// A triangle strip over the enveloped vertex format (PNMTXIDX, POS16, NRM8, TEX16), one vertex
/// per (matrix slot × 3, position = uv index).
fn env_strip(verts: &[(u32, u32)]) -> Result<(Vec<u8>, u16)> {
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

/// A Colosseum/XD-style model that exercises every phase of the compiler's layout, for the
/// compiler-order sample (`xd-scene.dat` is `compile(xd_scene())`): two mesh owners (owner 1: an
/// enveloped DObj with two PObjs over a shared vertex descriptor and a two-texture MObj, the
/// second texture paletted; owner 2: a rigid DObj with its own descriptor and a one-texture
/// MObj), two deformers with IBMs, envelope lists with a content duplicate, one bone animation
/// (tracks on the root and a deformer), one material animation (two MatAnims on owner 1: the
/// first with a two-TexAnim chain, one of them with a palette table; the second with one
/// TexAnim), image pixels shared between textures, two light sets (ambient, directional), a
/// camera and a bound box. Written here in a convenient order (not the compiler's);
/// `tests/compile.rs` lays the same model out by hand in the seed's order and checks that
/// [`crate::compile::compile`] reproduces it.
pub fn xd_scene() -> Result<Dat> {
    let mut b = Builder::new();
    // Joints first (envelopes point at them), filled in at the end.
    let [root, owner1, ja, jb, owner2] = [(); 5].map(|_| b.slot::<Joint<Target>>());
    // Pixels and palette.
    let pix_a = b.bytes((0..64u8).map(|i| i.wrapping_mul(37)).collect(), 32);
    let pix_b = b.bytes((0..64u8).map(|i| 255 - i).collect(), 32);
    let pix_c = b.bytes(
        (0..32u8).map(|i| (i % 16) << 4 | (15 - i % 16)).collect(),
        32,
    );
    let lut = b.bytes(
        (0..16u16)
            .flat_map(|i| (0x8000 | (i * 0x0842)).to_be_bytes())
            .collect(),
        32,
    );
    let pal = b.put(&Palette {
        data: Some(lut),
        format: 2,
        tlut_name: 0,
        n_entries: 16,
    });
    // Vertex arrays and descriptors.
    let pos_r = b.bytes(
        [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
            .iter()
            .flatten()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        32,
    );
    let pos_e = b.bytes(
        [[-256i16, 0, 0], [256, 0, 0], [-256, 512, 0], [256, 512, 0]]
            .iter()
            .flatten()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        32,
    );
    let nrm = b.bytes(vec![0, 0, 64], 32);
    let uv = b.bytes(
        [0i16, 0, 4096, 0, 0, 4096, 4096, 4096]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect(),
        32,
    );
    let v_env = b.vtx_list(&[
        vtx(0, 1, 0, 0, 0, 0),
        VtxDesc {
            array: Some(pos_e),
            ..vtx(9, 3, 1, 3, 8, 6)
        },
        VtxDesc {
            array: Some(nrm),
            ..vtx(10, 2, 0, 1, 6, 3)
        },
        VtxDesc {
            array: Some(uv),
            ..vtx(13, 3, 1, 3, 12, 4)
        },
    ]);
    let v_rigid = b.vtx_list(&[
        VtxDesc {
            array: Some(pos_r),
            ..vtx(9, 2, 1, 4, 0, 12)
        },
        VtxDesc {
            array: Some(uv),
            ..vtx(13, 3, 1, 3, 12, 4)
        },
    ]);
    // Display lists.
    let (dl1, n1) = env_strip(&[(0, 0), (0, 1), (3, 2), (3, 3)])?;
    let (dl2, n2) = env_strip(&[(3, 0), (0, 1), (3, 2), (0, 3)])?;
    let mut rigid = VertexDesc::new();
    rigid.push(Attr::POS, AttrType::INDEX8)?;
    rigid.push(Attr::tex(0), AttrType::INDEX16)?;
    let mut tri = PrimitiveBuf::new(Opcode::TRIANGLES);
    for i in 0..3 {
        tri.push(&rigid, &[i, i]);
    }
    let (dl3, n3) = display_list(&[tri], &rigid)?;
    let [dl1, dl2, dl3] = [dl1, dl2, dl3].map(|d| b.bytes(d, 32));
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
    let pe = b.put(&PixelEngine {
        flags: PeFlags::COLOR_UPDATE | PeFlags::ALPHA_UPDATE | PeFlags::ZUPDATE,
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
    let mat = |b: &mut Builder, c: u8| {
        b.put(&Material {
            ambient: Rgba([c, c, c, 0xFF]),
            diffuse: Rgba([0xFF; 4]),
            specular: Rgba([0xFF; 4]),
            alpha: 1.0,
            shininess: 50.0,
        })
    };
    let mat1 = mat(&mut b, 0x80);
    let mat2 = mat(&mut b, 0x40);
    let mobj1 = b.put(&MObj {
        class_name: None,
        render_mode: RenderMode::CONSTANT
            | RenderMode::DIFFUSE
            | RenderMode::TEX0
            | RenderMode::TEX1
            | RenderMode::ALPHA_MAT,
        tobj: Some(t1a),
        material: Some(mat1),
        render_desc: None,
        pe: Some(pe),
    });
    let mobj2 = b.put(&MObj {
        class_name: None,
        render_mode: RenderMode::CONSTANT | RenderMode::DIFFUSE | RenderMode::TEX0,
        tobj: Some(t2),
        material: Some(mat2),
        render_desc: None,
        pe: None,
    });
    // Geometry.
    let pobj = |b: &mut Builder, next, vtx, flags, n_display, dl, link| {
        b.put(&PObj {
            class_name: None,
            next,
            vtx_desc: Some(vtx),
            flags,
            n_display,
            display_list: Some(dl),
            link,
        })
    };
    let p2 = pobj(&mut b, None, v_env, PObjFlags::ENVELOPE, n2, dl2, Some(l2));
    let p1 = pobj(
        &mut b,
        Some(p2),
        v_env,
        PObjFlags::ENVELOPE,
        n1,
        dl1,
        Some(l1),
    );
    let p3 = pobj(&mut b, None, v_rigid, PObjFlags::CULLBACK, n3, dl3, None);
    let dobj = |b: &mut Builder, mobj, pobj| {
        b.put(&DObj {
            class_name: None,
            next: None,
            mobj: Some(mobj),
            pobj: Some(pobj),
        })
    };
    let d1 = dobj(&mut b, mobj1, p1);
    let d2 = dobj(&mut b, mobj2, p3);
    // Skeleton: root → [owner1, A → B, owner2].
    let ibm_a = b.put(&translate_inverse([0.0, 1.0, 0.0]));
    let ibm_b = b.put(&translate_inverse([0.0, 2.0, 0.0]));
    let mut j = joint(JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA, [0.0; 3]);
    j.child = Some(owner1);
    b.set(root, &j);
    let mut j = joint(
        JointFlags::ENVELOPE_MODEL | JointFlags::OPA | JointFlags::LIGHTING,
        [0.0; 3],
    );
    j.data = Some(d1);
    j.next = Some(ja);
    b.set(owner1, &j);
    let mut j = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
    j.child = Some(jb);
    j.next = Some(owner2);
    j.inverse_bind = Some(ibm_a);
    b.set(ja, &j);
    let mut j = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
    j.inverse_bind = Some(ibm_b);
    b.set(jb, &j);
    let mut j = joint(JointFlags::OPA | JointFlags::LIGHTING, [0.0, 0.0, 1.0]);
    j.data = Some(d2);
    b.set(owner2, &j);
    // Bone animation: ROTY on the root, ROTX + TRAY on A.
    let keys = |b: &mut Builder, value| {
        let (k, len) = lin_keys(9, value);
        (b.bytes(k, 4), len)
    };
    let k0 = keys(&mut b, 1.5);
    let f0 = b.put(&fobj(2, None, k0));
    let a0 = b.put(&aobj(9.0, f0));
    let k2 = keys(&mut b, 0.25);
    let k1 = keys(&mut b, -0.5);
    let f2 = b.put(&fobj(6, None, k2));
    let f1 = b.put(&fobj(1, Some(f2), k1));
    let a1 = b.put(&aobj(9.0, f1));
    let aj = |b: &mut Builder, child, next, aobj| {
        b.put(&AnimJoint {
            child,
            next,
            aobj,
            robj_anim: None,
            flags: 0,
        })
    };
    let aj_o2 = aj(&mut b, None, None, None);
    let aj_b = aj(&mut b, None, None, None);
    let aj_a = aj(&mut b, Some(aj_b), Some(aj_o2), Some(a1));
    let aj_o1 = aj(&mut b, None, Some(aj_a), None);
    let aj_root = aj(&mut b, Some(aj_o1), None, Some(a0));
    let anims = b.ptr_array(&[aj_root]);
    // Material animation on owner 1: MA1 (alpha track, TexAnims 1a → 1b), MA2 (TexAnim 2).
    let img_t2 = b.put(&image(pix_a, 1));
    let img_t1a = b.put(&image(pix_b, 1));
    let img_t1b = b.put(&image(pix_c, 8));
    let it2 = b.ptr_array(&[img_t2]);
    let it1a = b.ptr_array(&[img_t1a]);
    let it1b = b.ptr_array(&[img_t1b]);
    let pt1b = b.ptr_array(&[pal]);
    let kt = keys(&mut b, 0.0);
    let ft = b.put(&fobj(1, None, kt));
    let at1a = b.put(&aobj(9.0, ft));
    let texanim = |b: &mut Builder, next, id, aobj, images, palettes: Option<Target>| {
        b.put(&TexAnim {
            next,
            id,
            aobj,
            image_table: Some(images),
            palette_table: palettes,
            n_images: 1,
            n_palettes: u16::from(palettes.is_some()),
        })
    };
    let ta1b = texanim(&mut b, None, 1, None, it1b, Some(pt1b));
    let ta1a = texanim(&mut b, Some(ta1b), 0, Some(at1a), it1a, None);
    let ta2 = texanim(&mut b, None, 0, None, it2, None);
    let km = keys(&mut b, 0.5);
    let fm = b.put(&fobj(10, None, km));
    let am1 = b.put(&aobj(9.0, fm));
    let ma2 = b.put(&MatAnim {
        next: None,
        aobj: None,
        texanim: Some(ta2),
        render_anim: None,
    });
    let ma1 = b.put(&MatAnim {
        next: Some(ma2),
        aobj: Some(am1),
        texanim: Some(ta1a),
        render_anim: None,
    });
    let maj = |b: &mut Builder, child, next, matanim| {
        b.put(&MatAnimJoint {
            child,
            next,
            matanim,
        })
    };
    let maj_o2 = maj(&mut b, None, None, None);
    let maj_b = maj(&mut b, None, None, None);
    let maj_a = maj(&mut b, Some(maj_b), Some(maj_o2), None);
    let maj_o1 = maj(&mut b, None, Some(maj_a), Some(ma1));
    let maj_root = maj(&mut b, Some(maj_o1), None, None);
    let matanims = b.ptr_array(&[maj_root]);
    // Scene: ambient + directional light, a camera.
    let model = b.put(&ModelSet {
        joint: Some(root),
        anims: Some(anims),
        matanims: Some(matanims),
        shapeanims: None,
    });
    let l0 = b.put(&Light {
        class_name: None,
        next: None,
        flags: LightFlags::DIFFUSE,
        attn_flags: 0,
        color: Rgba([0x4C, 0x4C, 0x4C, 0xFF]),
        position: None,
        interest: None,
        param: None,
    });
    let w1 = b.put(&WObj {
        class_name: None,
        position: [0.530, 0.660, 0.533],
        robj: None,
    });
    let l1 = b.put(&Light {
        class_name: None,
        next: None,
        flags: LightFlags::from_bits_retain(1) | LightFlags::DIFFUSE,
        attn_flags: 0,
        color: Rgba([204, 204, 204, 0xFF]),
        position: Some(w1),
        interest: None,
        param: None,
    });
    let ls0 = b.put(&LightSet {
        desc: Some(l0),
        anims: None,
    });
    let ls1 = b.put(&LightSet {
        desc: Some(l1),
        anims: None,
    });
    let eye = b.put(&WObj {
        class_name: None,
        position: [0.0, 1.0, 10.0],
        robj: None,
    });
    let interest = b.put(&WObj {
        class_name: None,
        position: [0.0, 1.0, 0.0],
        robj: None,
    });
    let cam = b.put(&Camera {
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
    });
    let cam_set = b.put(&CameraSet {
        desc: Some(cam),
        anims: None,
    });
    let models = b.ptr_array(&[model]);
    let lights = b.ptr_array(&[ls0, ls1]);
    let scene = b.put(&SceneData {
        models: Some(models),
        camera: Some(cam_set),
        lights: Some(lights),
        fog: None,
    });
    let bb = BoundBox {
        pad: 0,
        sets: vec![vec![
            Aabb {
                min: [-1.0, 0.0, -0.1],
                max: [1.0, 2.0, 1.0],
            };
            10
        ]],
    };
    let bound = b.bytes(bb.to_bytes(), 4);
    b.root("scene_data", scene);
    b.root("bound_box", bound);
    let mut dat = b.finish();
    pad_data_to_16(&mut dat)?;
    Ok(dat)
}
