#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The compiler-order builder: every sample rebuilds into an archive that re-parses to the same
//! structs, a compiled archive is a fixed point (BNB 100 %), and the BNB of each rebuild against
//! its original is printed (`cargo test -p hsd-dat --test compile -- --nocapture`).

use hsd_dat::Dat;
use hsd_dat::compare::{bnb, compare};
use hsd_dat::compile::compile;

#[test]
fn samples_rebuild() {
    for (name, bytes) in hsd_dat::build::samples().unwrap() {
        let Ok(dat) = Dat::parse(&bytes) else {
            continue;
        };
        if name.contains("broken") {
            continue;
        }
        let Ok(c) = compile(&dat) else {
            eprintln!("{name}: does not compile");
            continue;
        };
        let out = c.write().unwrap();
        // Re-parses, byte for byte, to an archive with the same structs.
        let again = Dat::parse(&out).unwrap();
        assert_eq!(again.write().unwrap(), out, "{name}");
        let cmp = compare(&bytes, &out).unwrap();
        assert_eq!(cmp.nbn_percent(), 100.0, "{name}: {:?}", cmp.nbn);
        // Compiler order is a fixed point: rebuilding a compiled archive changes nothing.
        let twice = compile(&again).unwrap().write().unwrap();
        assert_eq!(bnb(&out, &twice), 100.0, "{name}");
        assert_eq!(twice, out, "{name}");
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
