#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The compiler-order builder: every sample rebuilds into an archive that re-parses to the same
//! structs, a compiled archive is a fixed point (BNB 100 %), and the BNB of each rebuild against
//! its original is printed (`cargo test -p hsd-dat --test compile -- --nocapture`).

use hsd_dat::Dat;
use hsd_dat::compare::{bnb, compare};
use hsd_dat::compile::compile;

/// The samples written in the compiler's order (see `hsd_dat::build::samples`).
const COMPILER_ORDER: [&str; 3] = ["xd-model.dat", "xd-scene.dat", "melee-joint.dat"];

#[test]
fn samples_rebuild() {
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        let Ok(dat) = Dat::parse(&bytes) else {
            continue;
        };
        let Ok(c) = compile(&dat) else {
            eprintln!("{name}: does not compile");
            continue;
        };
        let out = c.write().unwrap();
        // Re-parses, byte for byte, to an archive with the same structs.
        let again = Dat::parse(&out).unwrap();
        assert_eq!(again.write().unwrap(), out, "{name}");
        let cmp = compare(&bytes, &out).unwrap();
        // (palette-11-slots repeats one envelope list eight times; the compiler writes it once.)
        if name != "broken/palette-11-slots.dat" {
            assert_eq!(cmp.nbn_percent(), 100.0, "{name}: {:?}", cmp.nbn);
        }
        // Compiler order is a fixed point: rebuilding a compiled archive changes nothing.
        let twice = compile(&again).unwrap().write().unwrap();
        assert_eq!(bnb(&out, &twice), 100.0, "{name}");
        assert_eq!(twice, out, "{name}");
        // Compiler-order samples are reproduced exactly (BNB 100 %); the others are written in
        // the builder's own order, which `compile` is not meant to keep.
        if COMPILER_ORDER.contains(&name.as_str()) {
            assert_eq!(cmp.bnb, 100.0, "{name}");
            assert!(out == bytes, "{name}");
        }
        eprintln!(
            "{name}: BNB {:.2} % NBN {:.2} % ({} -> {} bytes)",
            cmp.bnb,
            cmp.nbn_percent(),
            bytes.len(),
            out.len()
        );
        for r in &cmp.regions {
            eprintln!("  {:?} {:?} {:.2}", r.phase, r.bytes, r.bnb);
        }
    }
}

/// A hand-built layout in compiler order — Image structs, the TexAnim and its tables, the one
/// (shared) pixel buffer, then the palette LUT and its struct — is what `compile` makes of the
/// same model written in another order with the pixel buffer duplicated (BNB 100 %).
#[test]
fn hand_built_compiler_order_is_reproduced() {
    use hsd_dat::build::Builder;
    use hsd_dat::{Image, Palette, Target, TexAnim};
    let pixels = (0u8..32).collect::<Vec<u8>>();
    let lut = vec![0x7Fu8; 32];
    let image = |data| Image {
        data: Some(data),
        width: 8,
        height: 4,
        format: 1,
        mipmap: 0,
        min_lod: 0.0,
        max_lod: 0.0,
    };
    let texanim = |images, palettes| TexAnim {
        next: None,
        id: 0,
        aobj: None,
        image_table: Some(images),
        palette_table: Some(palettes),
        n_images: 2,
        n_palettes: 1,
    };
    let set = |b: &mut Builder, at: Target, to: Target| {
        let Target::In(l) = at else { unreachable!() };
        b.dat.blocks[l.block].set_pointer(0, Some(to));
    };
    // Compiler order, one pixel buffer.
    let mut b = Builder::new();
    let img_a = b.put(&image(Target::block(0)));
    let img_b = b.put(&image(Target::block(0)));
    let images = b.ptr_array(&[img_a, img_b]);
    let pal_slot = b.bytes(vec![0; 8], 4);
    let ta = b.put(&texanim(images, pal_slot));
    let pix = b.bytes(pixels.clone(), 32);
    set(&mut b, img_a, pix);
    set(&mut b, img_b, pix);
    let lut_t = b.bytes(lut.clone(), 32);
    let pal = b.put(&Palette {
        data: Some(lut_t),
        format: 2,
        tlut_name: 0,
        n_entries: 16,
    });
    set(&mut b, pal_slot, pal);
    b.root("tex_texanim", ta);
    let expected = b.finish().write().unwrap();
    // Another order, pixels duplicated.
    let mut b = Builder::new();
    let pix1 = b.bytes(pixels.clone(), 32);
    let pix2 = b.bytes(pixels, 32);
    let lut_t = b.bytes(lut, 32);
    let pal = b.put(&Palette {
        data: Some(lut_t),
        format: 2,
        tlut_name: 0,
        n_entries: 16,
    });
    let img_a = b.put(&image(pix1));
    let img_b = b.put(&image(pix2));
    let images = b.ptr_array(&[img_a, img_b]);
    let pals = b.ptr_array(&[pal]);
    let ta = b.put(&texanim(images, pals));
    b.root("tex_texanim", ta);
    let other = b.finish().write().unwrap();
    let rebuilt = compile(&Dat::parse(&other).unwrap())
        .unwrap()
        .write()
        .unwrap();
    let cmp = compare(&expected, &rebuilt).unwrap();
    eprintln!(
        "hand-built: BNB {:.2} % before, {:.2} % after",
        bnb(&expected, &other),
        cmp.bnb
    );
    assert_eq!(cmp.bnb, 100.0);
    assert_eq!(rebuilt, expected);
}

/// Bone animation regrouped as the compiler does: per tree, keyframes, FObj, AObj, then the
/// AnimJoints in pre-order (the sample writes them post-order).
#[test]
fn bone_animation_order() {
    use hsd_dat::anim::TreeKind;
    let x = hsd_dat::build::xd_model(Default::default())
        .unwrap()
        .write()
        .unwrap();
    let out = compile(&Dat::parse(&x).unwrap()).unwrap().write().unwrap();
    let a = hsd_dat::parse(&out).unwrap();
    let g = a.graph();
    let root = g
        .nodes
        .iter()
        .filter(|n| n.kind == hsd_dat::Kind::AnimJoint)
        .find(|n| {
            a.read::<hsd_dat::AnimJoint>(n.offset)
                .unwrap()
                .aobj
                .is_some()
        })
        .unwrap()
        .offset;
    let tree = a.anim_tree(root, TreeKind::Joint).unwrap();
    let anim = tree[0].slots[0].animation.as_ref().unwrap();
    let fobj: hsd_dat::FObj = a.read(anim.tracks[0].offset).unwrap();
    let (owner, second) = (&tree[0].children[0], &tree[0].children[1]);
    let order = [
        fobj.data.unwrap(),
        anim.tracks[0].offset,
        anim.offset,
        root,
        owner.offset,
        second.offset,
        second.children[0].offset,
    ];
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:x?}");
    // Post-order in the sample itself.
    let b = hsd_dat::parse(&x).unwrap();
    let gb = b.graph();
    let rb = gb
        .nodes
        .iter()
        .filter(|n| n.kind == hsd_dat::Kind::AnimJoint)
        .find(|n| {
            b.read::<hsd_dat::AnimJoint>(n.offset)
                .unwrap()
                .aobj
                .is_some()
        })
        .unwrap()
        .offset;
    let tb = b.anim_tree(rb, TreeKind::Joint).unwrap();
    assert!(tb[0].children[0].offset < rb);
}

/// Scene tail in the seed's bands: light leaves in reverse LightSet order, then ModelSets, then
/// LightSets reversed, SceneData last before the bound box.
#[test]
fn scene_tail_order() {
    let x = hsd_dat::build::xd_model(Default::default())
        .unwrap()
        .write()
        .unwrap();
    let out = compile(&Dat::parse(&x).unwrap()).unwrap().write().unwrap();
    let a = hsd_dat::parse(&out).unwrap();
    let root = a
        .roots()
        .find(|r| r.kind() == hsd_dat::RootKind::SceneData)
        .unwrap();
    let sd: hsd_dat::SceneData = a.read(root.offset).unwrap();
    let sets: Vec<u32> = (0..4)
        .map(|i| a.pointer(sd.lights.unwrap() + 4 * i).unwrap().unwrap())
        .collect();
    let lights: Vec<u32> = sets
        .iter()
        .map(|&s| a.read::<hsd_dat::LightSet>(s).unwrap().desc.unwrap())
        .collect();
    let model = a.pointer(sd.models.unwrap()).unwrap().unwrap();
    assert!(lights.windows(2).all(|w| w[0] > w[1]), "{lights:x?}");
    assert!(lights[0] < model && model < sets[3]);
    assert!(sets.windows(2).all(|w| w[0] > w[1]));
    assert!(sets[0] < root.offset);
    let bound = a
        .roots()
        .find(|r| r.kind() == hsd_dat::RootKind::BoundBox)
        .unwrap();
    assert!(root.offset < bound.offset);
}

mod hand {
    //! The model of `hsd_dat::build::xd_scene`, laid out by hand in the order the seed's rules
    //! give (reference §6), block by block — written out here, independently of `compile`.

    use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
    use gx::vtx::{Attr, AttrType};
    use hsd_dat::bound_box::{Aabb, BoundBox};
    use hsd_dat::build::Builder;
    use hsd_dat::*;

    type T = Target;

    fn image(data: T, format: u32) -> Image<T> {
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

    fn tobj(id: u32, next: Option<T>, image: T, palette: Option<T>) -> TObj<T> {
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

    fn material(c: u8) -> Material {
        Material {
            ambient: Rgba([c, c, c, 0xFF]),
            diffuse: Rgba([0xFF; 4]),
            specular: Rgba([0xFF; 4]),
            alpha: 1.0,
            shininess: 50.0,
        }
    }

    fn keys(value: f32) -> (Vec<u8>, u32) {
        let mut s = vec![0x12u8];
        s.extend_from_slice(&0.0f32.to_le_bytes());
        s.push(9);
        s.extend_from_slice(&value.to_le_bytes());
        s.push(0);
        let len = s.len() as u32;
        s.resize(12, 0);
        (s, len)
    }

    fn fobj(track: u8, next: Option<T>, data: T, length: u32) -> FObj<T> {
        FObj {
            next,
            length,
            start_frame: 0.0,
            track,
            frac_value: 0,
            frac_slope: 0,
            pad: 0,
            data: Some(data),
        }
    }

    fn aobj(fobj: T) -> AObj<T> {
        AObj {
            flags: AObjFlags::LOOP,
            end_frame: 9.0,
            fobj: Some(fobj),
            obj_id: Word::Value(0),
        }
    }

    fn joint(flags: JointFlags, translation: [f32; 3]) -> Joint<T> {
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

    /// A translation's inverse (the zero components negated: -0.0, as the builder writes them).
    fn ibm(y: f32) -> Matrix {
        Matrix {
            m: [
                [1.0, 0.0, 0.0, -0.0],
                [0.0, 1.0, 0.0, -y],
                [0.0, 0.0, 1.0, -0.0],
            ],
        }
    }

    fn vtx(
        attr: u32,
        ty: u32,
        cnt: u32,
        comp: u32,
        frac: u8,
        stride: u16,
        array: Option<T>,
    ) -> VtxDesc<T> {
        VtxDesc {
            attr,
            attr_type: ty,
            comp_cnt: cnt,
            comp_type: comp,
            frac,
            pad: 0,
            stride,
            array,
        }
    }

    fn dl(prim: &PrimitiveBuf, desc: &VertexDesc) -> (Vec<u8>, u16) {
        let mut w = gcio::Writer::new();
        prim.write(&mut w, desc).unwrap();
        w.align(32, 0);
        let n = (w.position() / 32) as u16;
        (w.into_vec(), n)
    }

    fn env_dl(verts: [(u32, u32); 4]) -> (Vec<u8>, u16) {
        let mut d = VertexDesc::new();
        d.push(Attr::PNMTXIDX, AttrType::DIRECT).unwrap();
        d.push(Attr::POS, AttrType::INDEX16).unwrap();
        d.push(Attr::NRM, AttrType::INDEX8).unwrap();
        d.push(Attr::tex(0), AttrType::INDEX16).unwrap();
        let mut p = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
        for (slot, v) in verts {
            p.push(&d, &[slot, v, 0, v]);
        }
        dl(&p, &d)
    }

    /// A block for `n` bytes, filled later.
    fn reserve(b: &mut Builder, n: usize) -> T {
        b.bytes(vec![0; n], 4)
    }

    fn fill_array(b: &mut Builder, at: T, items: &[T]) {
        let Target::In(l) = at else { unreachable!() };
        for (k, t) in items.iter().enumerate() {
            b.dat.blocks[l.block].set_pointer(4 * k as u32, Some(*t));
        }
    }

    fn fill_envelope(b: &mut Builder, at: T, weights: &[(T, f32)]) {
        let Target::In(l) = at else { unreachable!() };
        for (k, &(j, weight)) in weights.iter().enumerate() {
            let loc = Loc {
                block: l.block,
                offset: 8 * k as u32,
            };
            b.dat
                .write_struct(
                    loc,
                    &Envelope {
                        joint: Some(j),
                        weight,
                    },
                )
                .unwrap();
        }
    }

    pub fn scene() -> Dat {
        let mut b = Builder::new();
        // Vertex buffers, in the order of the descriptors using them: the rigid one (its PObj
        // is last in joint post-order, so first reversed) then the enveloped one.
        let pos_r = b.bytes(
            [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
                .iter()
                .flat_map(|v| v.to_be_bytes())
                .collect(),
            32,
        );
        let uv = [0i16, 0, 4096, 0, 0, 4096, 4096, 4096]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        let uv = b.bytes(uv, 32);
        let pos_e = [-256i16, 0, 0, 256, 0, 0, -256, 512, 0, 256, 512, 0]
            .iter()
            .flat_map(|v| v.to_be_bytes())
            .collect();
        let pos_e = b.bytes(pos_e, 32);
        let nrm = b.bytes(vec![0, 0, 64], 32);
        // Display lists in geometry order: P1, P2 (owner 1), P3 (owner 2).
        let (dl1, n1) = env_dl([(0, 0), (0, 1), (3, 2), (3, 3)]);
        let (dl2, n2) = env_dl([(3, 0), (0, 1), (3, 2), (0, 3)]);
        let mut rd = VertexDesc::new();
        rd.push(Attr::POS, AttrType::INDEX8).unwrap();
        rd.push(Attr::tex(0), AttrType::INDEX16).unwrap();
        let mut tri = PrimitiveBuf::new(Opcode::TRIANGLES);
        for i in 0..3 {
            tri.push(&rd, &[i, i]);
        }
        let (dl3, n3) = dl(&tri, &rd);
        let [dl1, dl2, dl3] = [dl1, dl2, dl3].map(|d| b.bytes(d, 32));
        // Materials: reverse of joint post-order (owner 1, owner 2) → MObj 2 first. Per MObj:
        // PixelEngine, the TObj chain deepest first (Image, TObj), Material, MObj.
        let img2 = b.slot::<Image<T>>();
        let t2 = b.slot::<TObj<T>>();
        let mat2 = b.put(&material(0x40));
        let mobj2 = b.slot::<MObj<T>>();
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
        let img1b = b.slot::<Image<T>>();
        let t1b = b.slot::<TObj<T>>();
        let img1a = b.slot::<Image<T>>();
        let t1a = b.slot::<TObj<T>>();
        let mat1 = b.put(&material(0x80));
        let mobj1 = b.slot::<MObj<T>>();
        // Envelopes, per PObj in reverse order (P3 has none, then P2, then P1), each list once.
        let e_a = reserve(&mut b, 16);
        let e_ab = reserve(&mut b, 24);
        let l2 = reserve(&mut b, 12);
        let e_b = reserve(&mut b, 16);
        let l1 = reserve(&mut b, 12);
        fill_array(&mut b, l2, &[e_a, e_ab]);
        fill_array(&mut b, l1, &[e_a, e_b]);
        // Vertex descriptors, same reverse order: P3's, then P2's (= P1's).
        let v_rigid = b.vtx_list(&[
            vtx(9, 2, 1, 4, 0, 12, Some(pos_r)),
            vtx(13, 3, 1, 3, 12, 4, Some(uv)),
        ]);
        let v_env = b.vtx_list(&[
            vtx(0, 1, 0, 0, 0, 0, None),
            vtx(9, 3, 1, 3, 8, 6, Some(pos_e)),
            vtx(10, 2, 0, 1, 6, 3, Some(nrm)),
            vtx(13, 3, 1, 3, 12, 4, Some(uv)),
        ]);
        // Geometry, post-order: P1, P2, DObj 1, P3, DObj 2.
        let pobj = |next, vtx, flags, n_display, dl, link| PObj {
            class_name: None,
            next,
            vtx_desc: Some(vtx),
            flags,
            n_display,
            display_list: Some(dl),
            link,
        };
        let p1 = b.slot::<PObj<T>>();
        let p2 = b.put(&pobj(None, v_env, PObjFlags::ENVELOPE, n2, dl2, Some(l2)));
        b.set(
            p1,
            &pobj(Some(p2), v_env, PObjFlags::ENVELOPE, n1, dl1, Some(l1)),
        );
        let d1 = b.put(&DObj {
            class_name: None,
            next: None,
            mobj: Some(mobj1),
            pobj: Some(p1),
        });
        let p3 = b.put(&pobj(None, v_rigid, PObjFlags::CULLBACK, n3, dl3, None));
        let d2 = b.put(&DObj {
            class_name: None,
            next: None,
            mobj: Some(mobj2),
            pobj: Some(p3),
        });
        // Skeleton, post-order (IBM before its joint): owner 1, B, A, owner 2, root.
        let owner1 = b.slot::<Joint<T>>();
        let ibm_b = b.put(&ibm(2.0));
        let jb = b.slot::<Joint<T>>();
        let ibm_a = b.put(&ibm(1.0));
        let ja = b.slot::<Joint<T>>();
        let owner2 = b.slot::<Joint<T>>();
        let root = b.slot::<Joint<T>>();
        let mut j = joint(
            JointFlags::ENVELOPE_MODEL | JointFlags::OPA | JointFlags::LIGHTING,
            [0.0; 3],
        );
        j.data = Some(d1);
        j.next = Some(ja);
        b.set(owner1, &j);
        let mut j = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
        j.inverse_bind = Some(ibm_b);
        b.set(jb, &j);
        let mut j = joint(JointFlags::SKELETON, [0.0, 1.0, 0.0]);
        j.child = Some(jb);
        j.next = Some(owner2);
        j.inverse_bind = Some(ibm_a);
        b.set(ja, &j);
        let mut j = joint(JointFlags::OPA | JointFlags::LIGHTING, [0.0, 0.0, 1.0]);
        j.data = Some(d2);
        b.set(owner2, &j);
        let mut j = joint(JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA, [0.0; 3]);
        j.child = Some(owner1);
        b.set(root, &j);
        fill_envelope(&mut b, e_a, &[(ja, 1.0)]);
        fill_envelope(&mut b, e_ab, &[(ja, 0.5), (jb, 0.5)]);
        fill_envelope(&mut b, e_b, &[(jb, 1.0)]);
        // Bone animation: data band in joint pre-order (root: keys, FObj, AObj; A: both keys,
        // both FObjs, AObj), then the AnimJoints in pre-order, then the ModelSet's array.
        let (k, len0) = keys(1.5);
        let k0 = b.bytes(k, 4);
        let f0 = b.put(&fobj(2, None, k0, len0));
        let a0 = b.put(&aobj(f0));
        let (k, len1) = keys(-0.5);
        let k1 = b.bytes(k, 4);
        let (k, len2) = keys(0.25);
        let k2 = b.bytes(k, 4);
        let f1 = b.slot::<FObj<T>>();
        let f2 = b.put(&fobj(6, None, k2, len2));
        b.set(f1, &fobj(1, Some(f2), k1, len1));
        let a1 = b.put(&aobj(f1));
        let aj = [(); 5].map(|_| b.slot::<AnimJoint<T>>());
        let [aj_root, aj_o1, aj_a, aj_b, aj_o2] = aj;
        let links = [
            (aj_root, Some(aj_o1), None, Some(a0)),
            (aj_o1, None, Some(aj_a), None),
            (aj_a, Some(aj_b), Some(aj_o2), Some(a1)),
            (aj_b, None, None, None),
            (aj_o2, None, None, None),
        ];
        for (at, child, next, aobj) in links {
            b.set(
                at,
                &AnimJoint {
                    child,
                    next,
                    aobj,
                    robj_anim: None,
                    flags: 0,
                },
            );
        }
        let anims = b.ptr_array(&[aj_root]);
        // Material animation. Owner 1's texture animations: MatAnims reversed (MA2's chain:
        // TA2; MA1's chain forward: TA1a, TA1b). Data band: each TexAnim's keys, FObj, AObj,
        // Images, image table, palette table; then MA1's keys, FObj, AObj. Then the TexAnims,
        // the MatAnims, the MatAnimJoints (pre-order), the ModelSet's array.
        let img_t2 = b.slot::<Image<T>>();
        let it2 = reserve(&mut b, 8);
        let (k, lent) = keys(0.0);
        let kt = b.bytes(k, 4);
        let ft = b.put(&fobj(1, None, kt, lent));
        let at1a = b.put(&aobj(ft));
        let img_t1a = b.slot::<Image<T>>();
        let it1a = reserve(&mut b, 8);
        let img_t1b = b.slot::<Image<T>>();
        let it1b = reserve(&mut b, 8);
        let pt1b = reserve(&mut b, 8);
        let (k, lenm) = keys(0.5);
        let km = b.bytes(k, 4);
        let fm = b.put(&fobj(10, None, km, lenm));
        let am1 = b.put(&aobj(fm));
        let ta2 = b.slot::<TexAnim<T>>();
        let ta1a = b.slot::<TexAnim<T>>();
        let ta1b = b.slot::<TexAnim<T>>();
        let texanim = |next, id, aobj, images, palettes: Option<T>| TexAnim {
            next,
            id,
            aobj,
            image_table: Some(images),
            palette_table: palettes,
            n_images: 1,
            n_palettes: u16::from(palettes.is_some()),
        };
        b.set(ta2, &texanim(None, 0, None, it2, None));
        b.set(ta1a, &texanim(Some(ta1b), 0, Some(at1a), it1a, None));
        b.set(ta1b, &texanim(None, 1, None, it1b, Some(pt1b)));
        let ma1 = b.slot::<MatAnim<T>>();
        let ma2 = b.put(&MatAnim {
            next: None,
            aobj: None,
            texanim: Some(ta2),
            render_anim: None,
        });
        b.set(
            ma1,
            &MatAnim {
                next: Some(ma2),
                aobj: Some(am1),
                texanim: Some(ta1a),
                render_anim: None,
            },
        );
        let [maj_root, maj_o1, maj_a, maj_b, maj_o2] = [(); 5].map(|_| b.slot::<MatAnimJoint<T>>());
        let links = [
            (maj_root, Some(maj_o1), None, None),
            (maj_o1, None, Some(maj_a), Some(ma1)),
            (maj_a, Some(maj_b), Some(maj_o2), None),
            (maj_b, None, None, None),
            (maj_o2, None, None, None),
        ];
        for (at, child, next, matanim) in links {
            b.set(
                at,
                &MatAnimJoint {
                    child,
                    next,
                    matanim,
                },
            );
        }
        let matanims = b.ptr_array(&[maj_root]);
        // Image pixels in the order of their Image structs, each buffer once: image 2 (A),
        // 1b (C), 1a (A), TexAnim images 2 (A), 1a (B), 1b (C) → A, C, B.
        let pix_a = b.bytes((0..64u8).map(|i| i.wrapping_mul(37)).collect(), 32);
        let pix_c = b.bytes(
            (0..32u8).map(|i| (i % 16) << 4 | (15 - i % 16)).collect(),
            32,
        );
        let pix_b = b.bytes((0..64u8).map(|i| 255 - i).collect(), 32);
        for (at, pix, format) in [
            (img2, pix_a, 1),
            (img1b, pix_c, 8),
            (img1a, pix_a, 1),
            (img_t2, pix_a, 1),
            (img_t1a, pix_b, 1),
            (img_t1b, pix_c, 8),
        ] {
            b.set(at, &image(pix, format));
        }
        fill_array(&mut b, it2, &[img_t2]);
        fill_array(&mut b, it1a, &[img_t1a]);
        fill_array(&mut b, it1b, &[img_t1b]);
        // Palettes: the LUT, then its struct.
        let lut = (0..16u16)
            .flat_map(|i| (0x8000 | (i * 0x0842)).to_be_bytes())
            .collect();
        let lut = b.bytes(lut, 32);
        let pal = b.put(&Palette {
            data: Some(lut),
            format: 2,
            tlut_name: 0,
            n_entries: 16,
        });
        fill_array(&mut b, pt1b, &[pal]);
        b.set(img2, &image(pix_a, 1));
        b.set(t2, &tobj(0, None, img2, None));
        b.set(t1b, &tobj(1, None, img1b, Some(pal)));
        b.set(t1a, &tobj(0, Some(t1b), img1a, None));
        let mobj = |render_mode, tobj, material, pe| MObj {
            class_name: None,
            render_mode,
            tobj: Some(tobj),
            material: Some(material),
            render_desc: None,
            pe,
        };
        let rm = RenderMode::CONSTANT | RenderMode::DIFFUSE | RenderMode::TEX0;
        b.set(mobj2, &mobj(rm, t2, mat2, None));
        b.set(
            mobj1,
            &mobj(
                rm | RenderMode::TEX1 | RenderMode::ALPHA_MAT,
                t1a,
                mat1,
                Some(pe),
            ),
        );
        // Scene tail: light leaves in reverse LightSet order (set 1: its WObj, its light; set
        // 0: its light), the camera's WObjs and Camera, then the ModelSet, the CameraSet, the
        // LightSets reversed, the two arrays, SceneData; the bound box last.
        let w1 = b.put(&WObj {
            class_name: None,
            position: [0.530, 0.660, 0.533],
            robj: None,
        });
        let light = |flags, c: u8, position| Light {
            class_name: None,
            next: None,
            flags,
            attn_flags: 0,
            color: Rgba([c, c, c, 0xFF]),
            position,
            interest: None,
            param: None,
        };
        let l1 = b.put(&light(
            LightFlags::from_bits_retain(1) | LightFlags::DIFFUSE,
            204,
            Some(w1),
        ));
        let l0 = b.put(&light(LightFlags::DIFFUSE, 0x4C, None));
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
        let model = b.put(&ModelSet {
            joint: Some(root),
            anims: Some(anims),
            matanims: Some(matanims),
            shapeanims: None,
        });
        let cam_set = b.put(&CameraSet {
            desc: Some(cam),
            anims: None,
        });
        let ls1 = b.put(&LightSet {
            desc: Some(l1),
            anims: None,
        });
        let ls0 = b.put(&LightSet {
            desc: Some(l0),
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
                    max: [1.0, 2.0, 1.0]
                };
                10
            ]],
        };
        let bound = b.bytes(bb.to_bytes(), 4);
        b.root("scene_data", scene);
        b.root("bound_box", bound);
        let mut dat = b.finish();
        super::pad16(&mut dat);
        dat
    }
}

/// Pads the data section to 16 by growing the last block (the Colosseum/XD convention).
fn pad16(dat: &mut Dat) {
    let (_, size) = dat.layout().unwrap();
    let last = dat.blocks.last_mut().unwrap();
    last.bytes.resize(
        last.bytes.len() + (size as usize).next_multiple_of(16) - size as usize,
        0,
    );
}

/// The same model with its blocks in another order (`perm[new] = old`), pointers and roots
/// re-aimed; the data section still padded to 16.
fn permuted(dat: &Dat, perm: &[usize]) -> Dat {
    use hsd_dat::{Loc, Target};
    let mut new_of = vec![0; perm.len()];
    for (new, &old) in perm.iter().enumerate() {
        new_of[old] = new;
    }
    let remap = |t: Target| match t {
        Target::In(l) => Target::In(Loc {
            block: new_of[l.block],
            offset: l.offset,
        }),
        e => e,
    };
    let mut out = Dat {
        blocks: perm.iter().map(|&o| dat.blocks[o].clone()).collect(),
        relocations: Vec::new(),
        ..dat.clone()
    };
    for b in &mut out.blocks {
        for p in &mut b.pointers {
            p.target = remap(p.target);
        }
    }
    for r in &mut out.roots {
        r.target = remap(r.target);
    }
    pad16(&mut out);
    out
}

/// The seed's layout written out by hand (`hand::scene`) is what `compile` makes of the same
/// model in any block order, of its own bytes, and of the sample builder's model — and the
/// committed compiler-order sample `xd-scene.dat` is exactly that layout.
#[test]
fn hand_laid_scene_is_reproduced() {
    let hand = hand::scene();
    let expected = hand.write().unwrap();
    let a = hsd_dat::parse(&expected).unwrap();
    assert!(a.graph().errors.is_empty());
    assert!(
        a.validate()
            .iter()
            .all(|d| d.severity == gcio::Severity::Info),
        "{:?}",
        a.validate()
    );
    let rebuild = |d: &Dat| {
        compile(&Dat::parse(&d.write().unwrap()).unwrap())
            .unwrap()
            .write()
            .unwrap()
    };
    assert_eq!(rebuild(&hand), expected, "compile(parse(x)) == x");
    // Any order of the blocks but the last (the bound box, which carries the padding to 16: a
    // pad grown onto a buffer of unknown size would be data to `compile`).
    let n = hand.blocks.len() - 1;
    let reversed: Vec<usize> = (0..n).rev().chain([n]).collect();
    let interleaved: Vec<usize> = (0..n)
        .step_by(2)
        .chain((1..n).step_by(2))
        .chain([n])
        .collect();
    for perm in [reversed, interleaved] {
        let shuffled = permuted(&hand, &perm);
        let other = shuffled.write().unwrap();
        let out = rebuild(&shuffled);
        eprintln!(
            "xd-scene shuffled: BNB {:.2} % before, {:.2} % after",
            bnb(&expected, &other),
            bnb(&expected, &out)
        );
        assert!(
            out == expected,
            "differs at {:?}",
            gcio::first_difference(&out, &expected)
        );
    }
    let built = hsd_dat::build::xd_scene().unwrap();
    eprintln!(
        "xd_scene() as built: BNB {:.2} %",
        bnb(&expected, &built.write().unwrap())
    );
    let out = compile(&built).unwrap().write().unwrap();
    assert!(
        out == expected,
        "differs at {:?}",
        gcio::first_difference(&out, &expected)
    );
    let sample = hsd_dat::build::samples()
        .unwrap()
        .into_iter()
        .find(|s| s.0 == "xd-scene.dat")
        .unwrap();
    assert!(sample.1 == expected);
}
