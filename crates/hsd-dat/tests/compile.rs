#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The compiler-order builder: every sample rebuilds into an archive that re-parses to the same
//! structs, a compiled archive is a fixed point (BNB 100 %), and the BNB of each rebuild against
//! its original is printed (`cargo test -p gcformats-hsd-dat --test compile -- --nocapture`).

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
    use hsd_dat::build::parts::{palette, tex_anim};
    use hsd_dat::{Image, Target, TexAnim};
    let pixels = (0u8..32).collect::<Vec<u8>>();
    let lut = vec![0x7Fu8; 32];
    // 8×4 images, a table of two.
    let image = |data| Image {
        height: 4,
        ..hsd_dat::build::parts::image(data, 1)
    };
    let texanim = |images, palettes| TexAnim {
        n_images: 2,
        ..tex_anim(None, 0, None, images, Some(palettes))
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
    let pal = b.put(&palette(lut_t));
    set(&mut b, pal_slot, pal);
    b.root("tex_texanim", ta);
    let expected = b.finish().write().unwrap();
    // Another order, pixels duplicated.
    let mut b = Builder::new();
    let pix1 = b.bytes(pixels.clone(), 32);
    let pix2 = b.bytes(pixels, 32);
    let lut_t = b.bytes(lut, 32);
    let pal = b.put(&palette(lut_t));
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
    let root = animated_anim_joint(&a);
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
    let rb = animated_anim_joint(&b);
    let tb = b.anim_tree(rb, TreeKind::Joint).unwrap();
    assert!(tb[0].children[0].offset < rb);
}

/// The first AnimJoint with an animation: the root of the sample's animated tree.
fn animated_anim_joint(a: &hsd_dat::Archive) -> u32 {
    a.graph()
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
        .offset
}

/// Scene tail in the documented bands: light leaves in reverse LightSet order, then ModelSets, then
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
    //! The model of `hsd_dat::build::xd_scene`, laid out by hand in the order the documented rules
    //! give (docs/HSD-ORDER.md), block by block — written out here, independently of `compile`. The
    //! struct values come from `hsd_dat::build::parts`, the order from here.

    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::*;
    use hsd_dat::*;

    type T = Target;

    pub fn scene() -> Dat {
        let mut b = Builder::new();
        let s = scene_buffers().unwrap();
        // Vertex buffers, in the order of the descriptors using them: the rigid one (its PObj
        // is last in joint post-order, so first reversed) then the enveloped one.
        let pos_r = b.bytes(s.pos_rigid, 32);
        let uv = b.bytes(s.uv, 32);
        let pos_e = b.bytes(s.pos_env, 32);
        let nrm = b.bytes(s.nrm, 32);
        // Display lists in geometry order: P1, P2 (owner 1), P3 (owner 2).
        let [(dl1, n1), (dl2, n2), (dl3, n3)] =
            [s.dl_env1, s.dl_env2, s.dl_rigid].map(|(dl, n)| (b.bytes(dl, 32), n));
        // Materials: reverse of joint post-order (owner 1, owner 2) → MObj 2 first. Per MObj:
        // PixelEngine, the TObj chain deepest first (Image, TObj), Material, MObj.
        let img2 = b.slot::<Image<T>>();
        let t2 = b.slot::<TObj<T>>();
        let mat2 = b.put(&material(0x40));
        let mobj2 = b.slot::<MObj<T>>();
        let pe = b.put(&pixel_engine(SCENE_PE));
        let img1b = b.slot::<Image<T>>();
        let t1b = b.slot::<TObj<T>>();
        let img1a = b.slot::<Image<T>>();
        let t1a = b.slot::<TObj<T>>();
        let mat1 = b.put(&material(0x80));
        let mobj1 = b.slot::<MObj<T>>();
        // Envelopes, per PObj in reverse order (P3 has none, then P2, then P1), each list once.
        let e_a = b.envelope_slot(1);
        let e_ab = b.envelope_slot(2);
        let l2 = b.ptr_array_slot(2);
        let e_b = b.envelope_slot(1);
        let l1 = b.ptr_array_slot(2);
        b.set_ptr_array(l2, &[e_a, e_ab]);
        b.set_ptr_array(l1, &[e_a, e_b]);
        // Vertex descriptors, same reverse order: P3's, then P2's (= P1's).
        let v_rigid = b.vtx_list(&rigid_vtx(pos_r, uv));
        let v_env = b.vtx_list(&env_vtx(pos_e, nrm, uv));
        // Geometry, post-order: P1, P2, DObj 1, P3, DObj 2.
        let p1 = b.slot::<PObj<T>>();
        let p2 = b.put(&pobj(None, v_env, PObjFlags::ENVELOPE, n2, dl2, Some(l2)));
        b.set(
            p1,
            &pobj(Some(p2), v_env, PObjFlags::ENVELOPE, n1, dl1, Some(l1)),
        );
        let d1 = b.put(&dobj(mobj1, p1));
        let p3 = b.put(&pobj(None, v_rigid, PObjFlags::CULLBACK, n3, dl3, None));
        let d2 = b.put(&dobj(mobj2, p3));
        // Skeleton, post-order (IBM before its joint): owner 1, B, A, owner 2, root.
        let owner1 = b.slot::<Joint<T>>();
        let ibm_b = b.put(&translate_inverse([0.0, 2.0, 0.0]));
        let jb = b.slot::<Joint<T>>();
        let ibm_a = b.put(&translate_inverse(SCENE_BONE));
        let ja = b.slot::<Joint<T>>();
        let owner2 = b.slot::<Joint<T>>();
        let root = b.slot::<Joint<T>>();
        let joints = [root, owner1, ja, jb, owner2];
        for (at, j) in scene_skeleton(joints, [d1, d2], [ibm_a, ibm_b]) {
            b.set(at, &j);
        }
        b.set_envelope(e_a, &[(ja, 1.0)]);
        b.set_envelope(e_ab, &[(ja, 0.5), (jb, 0.5)]);
        b.set_envelope(e_b, &[(jb, 1.0)]);
        // Bone animation: data band in joint pre-order (root: keys, FObj, AObj; A: both keys,
        // both FObjs, AObj), then the AnimJoints in pre-order, then the ModelSet's array.
        let k0 = b.keys(lin_keys(SCENE_FRAMES, 1.5));
        let f0 = b.put(&fobj(2, None, k0));
        let a0 = b.put(&aobj(SCENE_FRAMES.into(), f0));
        let k1 = b.keys(lin_keys(SCENE_FRAMES, -0.5));
        let k2 = b.keys(lin_keys(SCENE_FRAMES, 0.25));
        let f1 = b.slot::<FObj<T>>();
        let f2 = b.put(&fobj(6, None, k2));
        b.set(f1, &fobj(1, Some(f2), k1));
        let a1 = b.put(&aobj(SCENE_FRAMES.into(), f1));
        let aj = [(); 5].map(|_| b.slot::<AnimJoint<T>>());
        for (at, v) in scene_anim_joints(aj, a0, a1) {
            b.set(at, &v);
        }
        let anims = b.ptr_array(&aj[..1]);
        // Material animation. Owner 1's texture animations: MatAnims reversed (MA2's chain:
        // TA2; MA1's chain forward: TA1a, TA1b). Data band: each TexAnim's keys, FObj, AObj,
        // Images, image table, palette table; then MA1's keys, FObj, AObj. Then the TexAnims,
        // the MatAnims, the MatAnimJoints (pre-order), the ModelSet's array.
        let img_t2 = b.slot::<Image<T>>();
        let it2 = b.ptr_array_slot(1);
        let kt = b.keys(lin_keys(SCENE_FRAMES, 0.0));
        let ft = b.put(&fobj(1, None, kt));
        let at1a = b.put(&aobj(SCENE_FRAMES.into(), ft));
        let img_t1a = b.slot::<Image<T>>();
        let it1a = b.ptr_array_slot(1);
        let img_t1b = b.slot::<Image<T>>();
        let it1b = b.ptr_array_slot(1);
        let pt1b = b.ptr_array_slot(1);
        let km = b.keys(lin_keys(SCENE_FRAMES, 0.5));
        let fm = b.put(&fobj(10, None, km));
        let am1 = b.put(&aobj(SCENE_FRAMES.into(), fm));
        let ta2 = b.slot::<TexAnim<T>>();
        let ta1a = b.slot::<TexAnim<T>>();
        let ta1b = b.slot::<TexAnim<T>>();
        b.set(ta2, &tex_anim(None, 0, None, it2, None));
        b.set(ta1a, &tex_anim(Some(ta1b), 0, Some(at1a), it1a, None));
        b.set(ta1b, &tex_anim(None, 1, None, it1b, Some(pt1b)));
        let ma1 = b.slot::<MatAnim<T>>();
        let ma2 = b.put(&mat_anim(None, None, Some(ta2)));
        b.set(ma1, &mat_anim(Some(ma2), Some(am1), Some(ta1a)));
        let maj = [(); 5].map(|_| b.slot::<MatAnimJoint<T>>());
        for (at, v) in scene_mat_anim_joints(maj, ma1) {
            b.set(at, &v);
        }
        let matanims = b.ptr_array(&maj[..1]);
        // Image pixels in the order of their Image structs, each buffer once: image 2 (A),
        // 1b (C), 1a (A), TexAnim images 2 (A), 1a (B), 1b (C) → A, C, B.
        let pix_a = b.bytes(s.pix_a, 32);
        let pix_c = b.bytes(s.pix_c, 32);
        let pix_b = b.bytes(s.pix_b, 32);
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
        b.set_ptr_array(it2, &[img_t2]);
        b.set_ptr_array(it1a, &[img_t1a]);
        b.set_ptr_array(it1b, &[img_t1b]);
        // Palettes: the LUT, then its struct.
        let lut = b.bytes(s.lut, 32);
        let pal = b.put(&palette(lut));
        b.set_ptr_array(pt1b, &[pal]);
        b.set(t2, &tobj(0, None, img2, None));
        b.set(t1b, &tobj(1, None, img1b, Some(pal)));
        b.set(t1a, &tobj(0, Some(t1b), img1a, None));
        let [m1, m2] = scene_mobjs(t1a, mat1, pe, t2, mat2);
        b.set(mobj2, &m2);
        b.set(mobj1, &m1);
        // Scene tail: light leaves in reverse LightSet order (set 1: its WObj, its light; set
        // 0: its light), the camera's WObjs and Camera, then the ModelSet, the CameraSet, the
        // LightSets reversed, the two arrays, SceneData; the bound box last.
        let [(ty0, grey0, _), (ty1, grey1, dir1), ..] = LIGHT_RIG;
        let w1 = b.put(&wobj(dir1));
        let l1 = b.put(&light(ty1, grey1, Some(w1)));
        let l0 = b.put(&light(ty0, grey0, None));
        let [eye, interest] = camera_points().map(|w| b.put(&w));
        let cam = b.put(&camera(eye, interest));
        let model = b.put(&model_set(root, Some(anims), Some(matanims)));
        let cam_set = b.put(&camera_set(cam));
        let ls1 = b.put(&light_set(l1));
        let ls0 = b.put(&light_set(l0));
        let models = b.ptr_array(&[model]);
        let lights = b.ptr_array(&[ls0, ls1]);
        let scene = b.put(&scene_data(models, Some(cam_set), Some(lights)));
        b.finish_xd(scene, &scene_bound_box()).unwrap()
    }
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
    hsd_dat::build::pad_data_to_16(&mut out).unwrap();
    out
}

/// The documented Colosseum/XD layout written out by hand (`hand::scene`) is what `compile` makes of the same
/// model in any block order, of its own bytes, and of the sample builder's model — and the
/// committed compiler-order sample `xd-scene.dat` is exactly that layout.
#[test]
fn hand_laid_scene_is_reproduced() {
    let hand = hand::scene();
    let expected = hand.write().unwrap();
    let a = hsd_dat::parse(&expected).unwrap();
    assert!(a.graph().errors.is_empty());
    assert!(
        hsd_dat::validate_view(&a)
            .iter()
            .all(|d| d.severity == gcio::Severity::Info),
        "{:?}",
        hsd_dat::validate_view(&a)
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
    // The order is chosen, not detected: a shuffled layout may look like Melee's.
    let rebuild_xd = |d: &Dat| {
        hsd_dat::compile::compile_as(
            &Dat::parse(&d.write().unwrap()).unwrap(),
            Some(hsd_dat::compile::Order::ColosseumXd),
        )
        .unwrap()
        .write()
        .unwrap()
    };
    for perm in [reversed, interleaved] {
        let shuffled = permuted(&hand, &perm);
        let other = shuffled.write().unwrap();
        let out = rebuild_xd(&shuffled);
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

/// The Melee compiler's order (docs/HSD-ORDER.md), laid out by hand as a golden block order and
/// reproduced by `compile_as(.., Melee)` from other block orders: vertex buffers by attribute
/// (the backward walk's descriptors), materials in the backward walk (per joint in pre-order,
/// DObjs last to first, TObj chains deepest first), envelopes, vertex descriptors, geometry
/// forward with each PObj's display list and envelope list before it, the skeleton in pre-order
/// with the IBM before its joint, then pixels forward with a TObj's palette after its pixels.
/// Two equal envelopes stay two (no content dedup in Melee order).
#[test]
fn melee_order_is_reproduced() {
    use gx::dl::{Opcode, PrimitiveBuf, VertexDesc};
    use gx::vtx::{Attr, AttrType};
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::*;
    use hsd_dat::compile::{Order, TextureList, compile_as, compile_listed};
    use hsd_dat::*;
    let idx = |t: Target| match t {
        Target::In(l) => l.block,
        _ => unreachable!(),
    };
    let mut b = Builder::new();
    let pos = b.bytes(vec![1; 64], 32);
    let nrm_a = b.bytes(vec![2; 32], 32);
    let nrm_b = b.bytes(vec![3; 32], 32);
    let uv = b.bytes(vec![4; 32], 32);
    let d1 = b.vtx_list(&[
        vtx(9, 3, 1, 3, 8, 6, Some(pos)),
        vtx(10, 2, 0, 1, 6, 3, Some(nrm_a)),
        vtx(13, 3, 1, 3, 12, 4, Some(uv)),
    ]);
    let d2 = b.vtx_list(&env_vtx(pos, nrm_b, uv));
    let mut desc1 = VertexDesc::new();
    desc1.push(Attr::POS, AttrType::INDEX16).unwrap();
    desc1.push(Attr::NRM, AttrType::INDEX8).unwrap();
    desc1.push(Attr::tex(0), AttrType::INDEX16).unwrap();
    let mut strip = PrimitiveBuf::new(Opcode::TRIANGLE_STRIP);
    for i in 0..3 {
        strip.push(&desc1, &[i, 0, i]);
    }
    let (dl1, n1) = display_list(&[strip], &desc1).unwrap();
    let dl_a = b.bytes(dl1.clone(), 32);
    let dl_c = b.bytes(dl1, 32);
    let (dl2, n2) = env_strip(&[(0, 0), (3, 1), (0, 2)]).unwrap();
    let dl_b = b.bytes(dl2, 32);
    let pix_a = b.bytes(c4_pixels(), 32);
    let lut_a = b.bytes(rgb5a3_lut(), 32);
    let pix_b1 = b.bytes(i8_pixels(), 32);
    let pix_b2 = b.bytes(vec![9; 64], 32);
    let img_a = b.put(&image(pix_a, 8));
    let img_b1 = b.put(&image(pix_b1, 1));
    let img_b2 = b.put(&image(pix_b2, 1));
    let pal_a = b.put(&palette(lut_a));
    let t_a = b.put(&tobj(0, None, img_a, Some(pal_a)));
    let t_b2 = b.put(&tobj(1, None, img_b2, None));
    let t_b1 = b.put(&tobj(0, Some(t_b2), img_b1, None));
    let (mat_a, mat_b, mat_c) = (
        b.put(&material(1)),
        b.put(&material(2)),
        b.put(&material(3)),
    );
    let tex = RenderMode::DIFFUSE | RenderMode::TEX0;
    let m_a = b.put(&mobj(tex, Some(t_a), mat_a, None));
    let m_b = b.put(&mobj(tex, Some(t_b1), mat_b, None));
    let m_c = b.put(&mobj(RenderMode::DIFFUSE, None, mat_c, None));
    let j1 = b.slot::<Joint<Target>>();
    let j0 = b.slot::<Joint<Target>>();
    let ibm1 = b.put(&translate_inverse([0.0, 1.0, 0.0]));
    let e1 = b.envelope(&[(j1, 1.0)]);
    let e2 = b.envelope(&[(j1, 1.0)]);
    let envs = b.ptr_array(&[e1, e2]);
    let p_a = b.put(&pobj(None, d1, PObjFlags::empty(), n1, dl_a, None));
    let p_b = b.put(&pobj(None, d2, PObjFlags::ENVELOPE, n2, dl_b, Some(envs)));
    let p_c = b.put(&pobj(None, d1, PObjFlags::empty(), n1, dl_c, None));
    let d_b = b.put(&dobj(m_b, p_b));
    let d_a = b.put(&DObj {
        next: Some(d_b),
        ..dobj(m_a, p_a)
    });
    let d_c = b.put(&dobj(m_c, p_c));
    let mut child = joint(JointFlags::SKELETON | JointFlags::OPA, [0.0, 1.0, 0.0]);
    child.data = Some(d_c);
    child.inverse_bind = Some(ibm1);
    b.set(j1, &child);
    let mut root = joint(
        JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA | JointFlags::OPA,
        [0.0; 3],
    );
    (root.child, root.data) = (Some(j1), Some(d_a));
    b.set(j0, &root);
    b.root("melee_joint", j0);
    let built = b.finish();
    // The golden order.
    let golden: Vec<usize> = [
        pos, nrm_b, nrm_a, uv, // vertex buffers: POS, NRM (D2 then D1), TEX0
        img_b2, t_b2, img_b1, t_b1, mat_b, m_b, // DObj B (last of the root joint)
        img_a, t_a, mat_a, m_a, // DObj A
        mat_c, m_c, // the child joint's DObj
        e1, e2, // envelopes
        d2, d1, // vertex descriptors, backward walk
        dl_a, p_a, d_a, dl_b, envs, p_b, d_b, dl_c, p_c, d_c, // geometry, forward
        j0, ibm1, j1, // skeleton, pre-order
        pix_a, lut_a, pal_a, pix_b1, pix_b2, // pixels, forward; the palette after its pixels
    ]
    .into_iter()
    .map(idx)
    .collect();
    assert_eq!(golden.len(), built.blocks.len());
    let expected = permuted(&built, &golden).write().unwrap();
    let a = hsd_dat::parse(&expected).unwrap();
    assert!(a.graph().errors.is_empty(), "{:?}", a.graph().errors);
    assert!(
        hsd_dat::validate_view(&a)
            .iter()
            .all(|d| d.severity != gcio::Severity::Error),
        "{:?}",
        hsd_dat::validate_view(&a)
    );
    assert_eq!(Order::detect(&a), Order::Melee);
    let melee = |bytes: &[u8], order| {
        compile_as(&Dat::parse(bytes).unwrap(), order)
            .unwrap()
            .write()
            .unwrap()
    };
    assert!(
        melee(&expected, None) == expected,
        "compile(golden) == golden"
    );
    let n = golden.len() - 1;
    let reversed: Vec<usize> = golden[..n]
        .iter()
        .rev()
        .copied()
        .chain([golden[n]])
        .collect();
    // Any block order gives the golden layout with the default texture list (first use); the
    // builder's order records the first-use list too.
    for input in [
        built.write().unwrap(),
        permuted(&built, &reversed).write().unwrap(),
    ] {
        let out = compile_listed(
            &Dat::parse(&input).unwrap(),
            Order::Melee,
            &TextureList::default(),
        )
        .unwrap()
        .write()
        .unwrap();
        assert!(
            out == expected,
            "differs at {:?}",
            gcio::first_difference(&out, &expected)
        );
    }
    assert!(melee(&built.write().unwrap(), Some(Order::Melee)) == expected);
    // A texture list that is not the first-use order (TyDaisy.dat's case): the pixel band
    // follows it, each image's palette still right after its pixels, and the archive records
    // it, so compiling the result (detected order, recorded list) gives it back.
    let list = TextureList([pix_b2, pix_a].into_iter().map(idx).collect());
    let listed = compile_listed(&built, Order::Melee, &list)
        .unwrap()
        .write()
        .unwrap();
    let n = golden.len() - 5;
    let tail = [pix_b2, pix_a, lut_a, pal_a, pix_b1].map(idx);
    let by_list: Vec<usize> = golden[..n].iter().copied().chain(tail).collect();
    let want = permuted(&built, &by_list).write().unwrap();
    assert!(
        listed == want,
        "differs at {:?}",
        gcio::first_difference(&listed, &want)
    );
    let back = Dat::parse(&listed).unwrap();
    let recorded = hsd_dat::compile::textures(&back).unwrap();
    assert_eq!(recorded.0, [n, n + 1, n + 4]);
    assert!(melee(&listed, None) == listed, "compile(listed) == listed");
    assert!(melee(&listed, Some(Order::Melee)) == listed);
    assert_eq!(
        hsd_dat::compile::detect(&back).unwrap(),
        hsd_dat::compile::Detection::Compiled(Order::Melee)
    );
    // The default list lays the same archive out in first-use order again.
    let first_use = compile_listed(&back, Order::Melee, &TextureList::default())
        .unwrap()
        .write()
        .unwrap();
    assert!(first_use == expected);
    // The Colosseum/XD order lays the same model out differently, and detects as such.
    let xd = melee(&expected, Some(Order::ColosseumXd));
    assert_ne!(xd, expected);
    assert_eq!(
        Order::detect(&hsd_dat::parse(&xd).unwrap()),
        Order::ColosseumXd
    );
}

/// `compile::detect` on the generated samples: each compiled one is recognised as its compiler's
/// output, a model laid out in a chosen order detects as that order (or as laid out alike by
/// both), and builder layouts (no compiler's) only resemble one.
#[test]
fn detection_of_samples_and_their_compiles() {
    use hsd_dat::compile::{Detection, Order, compile_as, detect};
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        let dat = Dat::parse(&bytes).unwrap();
        let found = detect(&dat).unwrap();
        // Written through `compile` (Colosseum/XD order: melee-joint is m-ex content), the
        // layout-preserving sample without meshes or joint children, and builder layouts.
        let expect = match name.as_str() {
            "xd-model.dat" | "xd-scene.dat" | "melee-joint.dat" => {
                Detection::Compiled(Order::ColosseumXd)
            }
            "mextk-minimal.dat" => Detection::Undecided,
            _ => Detection::Resembles(Order::ColosseumXd),
        };
        assert_eq!(found, expect, "{name}");
        for order in [Order::ColosseumXd, Order::Melee] {
            let c = Dat::parse(&compile_as(&dat, Some(order)).unwrap().write().unwrap()).unwrap();
            let again = detect(&c).unwrap();
            assert!(
                again == Detection::Compiled(order) || again == Detection::Either,
                "{name} compiled as {order:?}: {again:?}"
            );
            assert_eq!(
                again.order() == order,
                again != Detection::Either || order == Order::ColosseumXd,
                "{name}"
            );
        }
    }
    // Both orders lay the xd model out differently, and the builder's layout is neither.
    let built = hsd_dat::build::xd_model(Default::default()).unwrap();
    let melee = compile_as(&built, Some(Order::Melee)).unwrap();
    assert_eq!(detect(&melee).unwrap(), Detection::Compiled(Order::Melee));
    let raw = hsd_dat::build::Builder::new().finish();
    assert_eq!(detect(&raw).unwrap(), Detection::Either);
}

/// Melee order, envelopes and vertex descriptors (PlMrNr: 64 → 90 % envelope band, 91 → 100 %
/// descriptors): each is placed at its last user in the backward walk, i.e. at its first user in
/// mesh order, a PObj's envelopes in slot order. Three DObjs A, B, C on one joint (backward walk
/// C, B, A): descriptors used C:d1 B:d2 A:d1 → d2, d1 (first use would give d1, d2); envelopes
/// C:[e1, e4] B:[e3] A:[e1, e2] → e4, e3, e1, e2 (first use: e1, e4, e3, e2).
#[test]
fn melee_envelopes_and_descriptors_at_their_first_mesh_user() {
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::*;
    use hsd_dat::*;
    let mut b = Builder::new();
    let pos = b.bytes(vec![1; 64], 32);
    let nrm_a = b.bytes(vec![2; 32], 32);
    let nrm_b = b.bytes(vec![3; 32], 32);
    let uv = b.bytes(vec![4; 32], 32);
    let d1 = b.vtx_list(&env_vtx(pos, nrm_a, uv));
    let d2 = b.vtx_list(&env_vtx(pos, nrm_b, uv));
    let j0 = b.slot::<Joint<Target>>();
    let e: Vec<Target> = [1.0, 0.75, 0.5, 0.25]
        .iter()
        .map(|&w| b.envelope(&[(j0, w)]))
        .collect();
    let (e1, e2, e3, e4) = (e[0], e[1], e[2], e[3]);
    let two = env_strip(&[(0, 0), (3, 1), (0, 2)]).unwrap();
    let one = env_strip(&[(0, 0), (0, 1), (0, 2)]).unwrap();
    let mut mesh = |desc, envs: &[Target], (dl, n): &(Vec<u8>, u16), grey| {
        let dl = b.bytes(dl.clone(), 32);
        let envs = b.ptr_array(envs);
        let p = b.put(&pobj(None, desc, PObjFlags::ENVELOPE, *n, dl, Some(envs)));
        let mat = b.put(&material(grey));
        let m = b.put(&mobj(RenderMode::DIFFUSE, None, mat, None));
        (m, p)
    };
    let (m_a, p_a) = mesh(d1, &[e1, e2], &two, 1);
    let (m_b, p_b) = mesh(d2, &[e3], &one, 2);
    let (m_c, p_c) = mesh(d1, &[e1, e4], &two, 3);
    let d_c = b.put(&dobj(m_c, p_c));
    let d_b = b.put(&DObj {
        next: Some(d_c),
        ..dobj(m_b, p_b)
    });
    let d_a = b.put(&DObj {
        next: Some(d_b),
        ..dobj(m_a, p_a)
    });
    let mut root = joint(
        JointFlags::SKELETON_ROOT | JointFlags::ROOT_OPA | JointFlags::OPA,
        [0.0; 3],
    );
    root.data = Some(d_a);
    b.set(j0, &root);
    b.root("melee_joint", j0);
    let out = melee(b);
    let a = parse(&out).unwrap();
    let g = a.graph();
    // The PObjs in mesh order: A, B, C.
    let pobjs: Vec<_> = g.pobjs.iter().map(|p| p.pobj).collect();
    assert_eq!(pobjs.len(), 3);
    let desc = |i: usize| pobjs[i].vtx_desc.unwrap();
    assert_eq!(desc(0), desc(2));
    assert!(desc(1) < desc(0), "d2 before d1");
    let envs = |i: usize| -> Vec<u32> {
        let t = pobjs[i].link.unwrap();
        (0..)
            .map_while(|k| a.pointer(t + 4 * k).ok().flatten())
            .collect()
    };
    let (ea, eb, ec) = (envs(0), envs(1), envs(2));
    assert_eq!((ea.len(), eb.len(), ec.len()), (2, 1, 2));
    assert_eq!(ea[0], ec[0]);
    // e4 < e3 < e1 < e2
    let got = [ec[1], eb[0], ea[0], ea[1]];
    assert!(got.windows(2).all(|w| w[0] < w[1]), "{got:x?}");
}

/// `compile_as_with`, `compile_listed_with`, `detect_with`, `textures_with` and
/// `block_phases_with` bound their re-parse and typing layout by the caller's limits: the first
/// sample compiles under the defaults and is refused with a limit error under tiny ones.
#[test]
fn compile_honours_the_callers_limits() {
    let (name, bytes) = hsd_dat::build::samples().unwrap().remove(0);
    let dat = Dat::parse(&bytes).unwrap();
    let defaults = gcio::Limits::default();
    assert!(
        hsd_dat::compile::compile_as_with(&dat, None, &defaults).is_ok(),
        "{name}"
    );
    let tiny = gcio::Limits {
        max_alloc_bytes: 64,
        ..defaults
    };
    use hsd_dat::compile::{
        Order, TextureList, block_phases_with, compile_as_with, compile_listed_with, detect_with,
        textures_with,
    };
    let list = TextureList::default();
    let refused = [
        compile_as_with(&dat, None, &tiny).err(),
        compile_listed_with(&dat, Order::Melee, &list, &tiny).err(),
        detect_with(&dat, &tiny).err(),
        textures_with(&dat, &tiny).err(),
        block_phases_with(&dat, &tiny).err(),
    ];
    assert!(detect_with(&dat, &defaults).is_ok() && block_phases_with(&dat, &defaults).is_ok());
    for (i, e) in refused.into_iter().enumerate() {
        let e = e.unwrap_or_else(|| panic!("{name}: call {i} accepted tiny limits"));
        assert!(
            matches!(e.kind(), gcio::ErrorKind::Limit { .. }),
            "{name}: call {i}: {e}"
        );
    }
}

/// The validator's errors of an archive.
fn errors(bytes: &[u8]) -> Vec<gcio::Diagnostic> {
    hsd_dat::validate(bytes)
        .into_iter()
        .filter(|d| d.severity == gcio::Severity::Error)
        .collect()
}

/// A keyframe stream another FObj reads from its middle moves as one piece: each compile keeps
/// the tail at its distance from the stream's start, so both FObjs read the bytes they read
/// before. Laid out as separate 4-aligned blocks (the compile before runs), `_b`'s tail went
/// first and `_a`'s stream read other data (HSD-024 in both orders), and the result was still
/// returned.
#[test]
fn keyframe_data_read_from_its_middle_stays_whole() {
    use hsd_dat::compile::{Order, compile, compile_as};
    let dat = hsd_dat::build::shared_keyframe_tail();
    let bytes = dat.write().unwrap();
    assert_eq!(errors(&bytes), vec![]);
    let tracks = |b: &[u8]| {
        let a = hsd_dat::parse(b).unwrap();
        let mut keys: Vec<Vec<hsd_dat::fobj::Key>> = a
            .graph()
            .nodes
            .iter()
            .filter(|n| n.kind == hsd_dat::Kind::FObj)
            .map(|n| a.keys(n.offset).unwrap())
            .collect();
        keys.sort_by_key(|k| k.len());
        keys
    };
    let want = tracks(&bytes);
    assert_eq!(want.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2]);
    for order in [Order::ColosseumXd, Order::Melee] {
        let out = compile_as(&Dat::parse(&bytes).unwrap(), Some(order))
            .unwrap()
            .write()
            .unwrap();
        assert_eq!(errors(&out), vec![], "{order:?}");
        assert_eq!(tracks(&out), want, "{order:?}");
        // A fixed point, the stream still whole.
        let again = compile_as(&Dat::parse(&out).unwrap(), Some(order)).unwrap();
        assert_eq!(again.write().unwrap(), out, "{order:?}");
    }
    let out = compile(&dat).unwrap().write().unwrap();
    assert_eq!(tracks(&out), want);
}

/// `verify`, the check every compile runs on its result, refuses a layout with a validator
/// error the input does not have (here an FObj whose stream now runs past its data) and passes
/// the compile's own result and an unchanged archive.
#[test]
fn verify_refuses_a_layout_that_breaks_the_model() {
    use hsd_dat::compile::{compile, verify};
    let dat = hsd_dat::build::shared_keyframe_tail();
    let good = compile(&dat).unwrap();
    verify(&dat, &good).unwrap();
    verify(&good, &good).unwrap();
    let mut bad = good.clone();
    let written = good.write().unwrap();
    let a = hsd_dat::parse(&written).unwrap();
    let (layout, _) = good.layout().unwrap();
    let f = a
        .graph()
        .nodes
        .iter()
        .find(|n| n.kind == hsd_dat::Kind::FObj)
        .unwrap()
        .offset;
    let i = layout.binary_search(&f).unwrap();
    // FObj.length is the word at 0x04.
    bad.blocks[i].bytes[4..8].copy_from_slice(&0x1000u32.to_be_bytes());
    let e = verify(&dat, &bad).unwrap_err().to_string();
    assert!(
        e.contains("compile refused") && e.contains("HSD-024"),
        "{e}"
    );
    // The input's own errors are no reason to refuse: the broken archive against itself.
    verify(&bad, &bad).unwrap();
}

/// Melee's pixel band by the rules alone (no texture list), HAL's texture list: the top
/// joint's first DObj's textures, then the backward walk below the top joint (joints in
/// pre-order, DObjs last to first), then the top joint's other textures forward (TyDaisy.dat
/// and 36 of 41 public 20XX models, docs/HSD-ORDER.md). With the list the archive records,
/// its own order is kept.
#[test]
fn melee_pixels_in_texture_list_order() {
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::*;
    use hsd_dat::compile::{Order, TextureList, compile_as, compile_listed};
    use hsd_dat::*;
    let mut b = Builder::new();
    // A joint whose DObjs each have a texture of 64 bytes of `fill`, in the order given.
    let textured = |b: &mut Builder, fills: &[u8], flags: JointFlags, child: Option<Target>| {
        let mut next = None;
        let mut pixels = Vec::new();
        for &fill in fills.iter().rev() {
            let px = b.bytes(vec![fill; 64], 32);
            let img = b.put(&image(px, 1));
            let t = b.put(&tobj(0, None, img, None));
            let mat = b.put(&material(fill));
            let mo = b.put(&mobj(
                RenderMode::DIFFUSE | RenderMode::TEX0,
                Some(t),
                mat,
                None,
            ));
            next = Some(b.put(&DObj {
                pobj: None,
                next,
                ..dobj(mo, mo)
            }));
            pixels.insert(0, px);
        }
        let mut j = joint(flags, [0.0; 3]);
        (j.data, j.child) = (next, child);
        (b.put(&j), pixels)
    };
    let (child, child_pixels) = textured(&mut b, &[0xC1, 0xC2], JointFlags::OPA, None);
    let (root, root_pixels) = textured(&mut b, &[0x0A, 0x0B], JointFlags::ROOT_OPA, Some(child));
    b.root("It_joint", root);
    let dat = b.finish();
    let order = |d: &Dat| {
        let bytes = d.write().unwrap();
        let mut at: Vec<(usize, u8)> = [0x0A, 0x0B, 0xC1, 0xC2]
            .map(|fill| {
                (
                    bytes.windows(64).position(|w| w == [fill; 64]).unwrap(),
                    fill,
                )
            })
            .to_vec();
        at.sort_unstable();
        at.into_iter().map(|x| x.1).collect::<Vec<u8>>()
    };
    let rules = compile_listed(&dat, Order::Melee, &TextureList::default()).unwrap();
    assert_eq!(order(&rules), [0x0A, 0xC2, 0xC1, 0x0B]);
    // Listed otherwise: the list wins, and the recorded list keeps it.
    let idx = |t: &Target| match t {
        Target::In(l) => l.block,
        Target::End(_) => unreachable!(),
    };
    let listed = TextureList(root_pixels.iter().chain(&child_pixels).map(idx).collect());
    let as_listed = compile_listed(&dat, Order::Melee, &listed).unwrap();
    assert_eq!(order(&as_listed), [0x0A, 0x0B, 0xC1, 0xC2]);
    let again = compile_as(&as_listed, Some(Order::Melee)).unwrap();
    assert_eq!(again.write().unwrap(), as_listed.write().unwrap());
}

/// Melee's compiler starts a palette struct on 32 bytes whatever its LUT's size: all 229
/// palettes of the Melee and Chibi-Robo files read (20XX's public trophies and menus, the
/// corpus) do, TyMoon's 132-entry LUT (264 bytes) among them, where 4-byte alignment moved
/// every later block by 24 bytes.
#[test]
fn melee_palette_structs_start_on_32_bytes() {
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::{
        dobj, image, joint, material, mobj, palette, pobj, tobj, triangle,
    };
    use hsd_dat::{JointFlags, Kind, PObjFlags, Palette, RenderMode};
    let mut b = Builder::new();
    let (desc, dl, n) = triangle(&mut b).unwrap();
    let pix = b.bytes(vec![0; 64], 32);
    let img = b.put(&image(pix, 9));
    let lut = b.bytes(vec![0x80; 264], 32);
    let pal = b.put(&Palette {
        n_entries: 132,
        ..palette(lut)
    });
    let t = b.put(&tobj(0, None, img, Some(pal)));
    let mat = b.put(&material(1));
    let m = b.put(&mobj(
        RenderMode::DIFFUSE | RenderMode::TEX0,
        Some(t),
        mat,
        None,
    ));
    let p = b.put(&pobj(None, desc, PObjFlags::empty(), n, dl, None));
    let dd = b.put(&dobj(m, p));
    let mut j = joint(JointFlags::ROOT_OPA | JointFlags::OPA, [0.0; 3]);
    j.data = Some(dd);
    let j = b.put(&j);
    b.root("model_joint", j);
    let out = melee(b);
    let a = hsd_dat::parse(&out).unwrap();
    let g = a.graph();
    let at = g.nodes.iter().find(|n| n.kind == Kind::Palette).unwrap();
    assert_eq!(at.offset % 32, 0, "{:#x}", at.offset);
}

/// `b`'s archive compiled in Melee order, as bytes.
fn melee(b: hsd_dat::build::Builder) -> Vec<u8> {
    use hsd_dat::compile::{Order, compile_as};
    compile_as(&b.finish(), Some(Order::Melee))
        .unwrap()
        .write()
        .unwrap()
}

/// Melee's stage files lay `map_head` out as its tables, then a band per GObj — the GObj's
/// camera, lights and fog, then its model set's band — last GObj first (GrOt, GrPs, GrVe of
/// the public 20XX stages; GrHr and GrCn move a few), then every GObj's pixels in one band
/// (docs/HSD-ORDER.md, Melee stages). An extern-slot entry keeps its words.
#[test]
fn stage_gobjs_form_bands_last_first() {
    use hsd_dat::compile::{Order, compile_as};
    use hsd_dat::{Kind, MapGObj, Word, parse};
    let dat = hsd_dat::build::stage().unwrap();
    let out = compile_as(&dat, Some(Order::Melee))
        .unwrap()
        .write()
        .unwrap();
    let a = parse(&out).unwrap();
    assert_eq!(Order::detect(&a), Order::Melee);
    let g = a.graph();
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    let first = |k: Kind| g.nodes.iter().find(|n| n.kind == k).unwrap().offset;
    // Pre-order walks the table forward: joint 0 is GObj 0's, joint 1 GObj 1's.
    let (still, moving) = (g.joints[0].offset, g.joints[1].offset);
    assert!(moving < first(Kind::Camera), "GObj 1's band first");
    assert!(
        first(Kind::Camera) < still,
        "GObj 0's camera opens its band"
    );
    assert!(
        first(Kind::ImageData) > still,
        "GObj 1's pixels after every band"
    );
    let table = first(Kind::MapGObj);
    let gobj: MapGObj = a.read(table + 2 * 0x34).unwrap();
    assert_eq!(gobj.joint, Word::Value(u32::MAX));
}

/// `HSD_Spline` is 0x18 bytes (doldecomp/melee `spline.h`): Melee's stages put the next joint
/// right after one (GrCn: seven joints at a spline + 0x18), which a 0x1C-byte Spline read as
/// an overlap (HSD-032, an error on a file the game loads).
#[test]
fn a_joint_may_follow_a_spline() {
    use hsd_dat::build::Builder;
    use hsd_dat::build::parts::joint;
    use hsd_dat::{JointFlags, Spline};
    let mut b = Builder::new();
    let points = b.bytes(vec![0; 24], 4);
    // A block of 0x18 bytes, the next joint right after it.
    let spline = b.bytes(vec![0; 0x18], 4);
    b.set(
        spline,
        &Spline {
            kind: 0x0200,
            count: 2,
            tension: 0.0,
            points: Some(points),
            total_length: 1.0,
            segment_lengths: None,
            segment_poly: None,
        },
    );
    let next = b.put(&joint(JointFlags::empty(), [0.0; 3]));
    let mut j = joint(JointFlags::SPLINE, [0.0; 3]);
    j.data = Some(spline);
    j.next = Some(next);
    let j = b.put(&j);
    b.root("path_joint", j);
    let bytes = b.finish().write().unwrap();
    let d = hsd_dat::validate(&bytes);
    assert!(d.iter().all(|x| x.rule != "HSD-032"), "{d:?}");
}
