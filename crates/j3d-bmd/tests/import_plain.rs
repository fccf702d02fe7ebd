#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! Import of plain glTF (no extras of ours), as Blender writes it: textured, vertex-coloured,
//! alpha-tested and blended materials on unskinned meshes hung on nodes; a 12-joint rig whose
//! vertices carry 4 weights (matrix groups must split at ten draw matrices); a mesh of more than
//! 65,535 vertices; and a model past J3D's 65,535 distinct positions, refused with the count.
//! Each import checks clean, keeps every triangle (the same model when exported again) and
//! decodes its textures to the images' pixels (within the chosen format's precision).

use gx::scene::{AlphaMode, Material, Mesh, Node, Scene, skin_weights};
use gx::tex::Image;
use j3d_bmd::import::{ImportOptions, import};

fn grid(name: &str, n: u32, offset: [f32; 3]) -> Mesh {
    let mut m = Mesh::new(name);
    for y in 0..=n {
        for x in 0..=n {
            m.positions
                .push([offset[0] + x as f32, offset[1] + y as f32, offset[2]]);
            m.normals.push([0.0, 0.0, 1.0]);
        }
    }
    let w = n + 1;
    for y in 0..n {
        for x in 0..n {
            let i = y * w + x;
            m.triangles.push([i, i + 1, i + w]);
            m.triangles.push([i + 1, i + w + 1, i + w]);
        }
    }
    m
}

/// Imports `s` through its .glb and checks the model comes back.
fn round_trip(s: &Scene, opts: &ImportOptions) -> j3d_bmd::import::Imported {
    let glb = s.to_glb().unwrap();
    let read = Scene::from_glb(&glb).unwrap();
    let imported = import(&read, opts).unwrap_or_else(|e| panic!("{e}"));
    let back = j3d_bmd::to_scene(&j3d_bmd::parse(&imported.bytes).unwrap()).unwrap();
    let d = gx::compare::compare(&read, &back, 1e-3);
    assert_eq!(d.missing, 0, "{d:?}");
    assert_eq!(d.extra, 0, "{d:?}");
    imported
}

#[test]
fn props_with_plain_materials() {
    let mut s = Scene::new("test");
    s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
    let mut moved = gx::mtx::IDENTITY;
    moved[1][3] = 20.0;
    s.nodes.push(Node::new("lid", Some(0), moved));
    let tex = s.add_image(Image::test_pattern(32, 32, false).unwrap());
    let alpha = s.add_image(Image::test_pattern(16, 16, true).unwrap());
    let mut textured = Material::new("wood", Some(tex));
    textured.color = [0.5, 0.5, 0.5, 1.0];
    let mut cutout = Material::new("leaf", Some(alpha));
    cutout.alpha_mode = AlphaMode::Mask(0.5);
    cutout.double_sided = true;
    let mut glass = Material::new("glass", None);
    glass.alpha_mode = AlphaMode::Blend;
    glass.color = [0.2, 0.4, 1.0, 0.5];
    s.materials = vec![textured, cutout, glass];
    for (k, (node, mat)) in [(0usize, 0usize), (1, 1), (1, 2)].into_iter().enumerate() {
        let mut m = grid(&format!("part{k}"), 4, [k as f32 * 10.0, 0.0, 0.0]);
        m.uvs = vec![
            m.positions
                .iter()
                .map(|p| [p[0] / 4.0, p[1] / 4.0])
                .collect(),
        ];
        if k == 2 {
            m.colors = vec![
                m.positions
                    .iter()
                    .map(|p| [(p[0] * 20.0) as u8, 0x80, 0xFF, 0xC0])
                    .collect(),
            ];
        }
        m.skin = vec![skin_weights(&[(node as u16, 1.0)]); m.positions.len()];
        m.material = Some(mat);
        s.meshes.push(m);
    }
    let imported = round_trip(&s, &ImportOptions::default());
    let mats = imported.model.mat3().unwrap().materials();
    assert_eq!(mats.len(), 3);
    assert_eq!([mats[0].mode, mats[1].mode, mats[2].mode], [1, 2, 4]);
    assert_eq!(mats[1].cull, Some(j3d_bmd::mat3::cull::NONE));
    assert_eq!(
        mats[2].channels[0].unwrap().mat_src,
        1,
        "vertex colours drive the channel"
    );
    // Textures chosen per image: CMPR for the opaque one, RGB5A3 with alpha.
    let tex1 = imported.model.tex1().unwrap();
    let formats: Vec<u8> = tex1.set.textures.iter().map(|t| t.header.format).collect();
    assert_eq!(formats, [0xE, 0x5]);
    for (i, img) in [tex, alpha].into_iter().enumerate() {
        let back = &tex1.set.decode(i).unwrap()[0];
        assert!(
            gx::tex::psnr(&s.images()[img], back).unwrap() > 30.0,
            "texture {i}"
        );
    }
    // -o texfmt overrides; RGBA8 keeps the pixels exactly.
    let exact = round_trip(
        &s,
        &ImportOptions {
            texture_format: Some(gx::tex::TexFormat::RGBA8),
            mipmaps: 3,
            bdl: true,
        },
    );
    let t = exact.model.tex1().unwrap();
    assert_eq!(&t.set.decode(0).unwrap()[0], &s.images()[tex]);
    assert_eq!(t.set.textures[0].header.image_count, 3);
    assert!(exact.model.mdl3().is_some(), "a BDL has MDL3");
}

#[test]
fn rig_with_four_weights_splits_matrix_groups() {
    let mut s = Scene::new("test");
    for j in 0..12u16 {
        let mut m = gx::mtx::IDENTITY;
        m[1][3] = if j == 0 { 0.0 } else { 2.0 };
        s.nodes.push(Node::new(
            format!("bone{j}"),
            j.checked_sub(1).map(usize::from),
            m,
        ));
    }
    s.bind_to_rest_pose();
    let mut body = grid("body", 11, [0.0, 0.0, 0.0]);
    body.skin = body
        .positions
        .iter()
        .map(|p| {
            let j = (p[1] as u16).min(11);
            skin_weights(&[
                (j, 0.4),
                ((j + 1) % 12, 0.3),
                ((j + 2) % 12, 0.2),
                ((j + 3) % 12, 0.1),
            ])
        })
        .collect();
    // The eye: every vertex on one bone at full weight (rigid, stored in the bone's space).
    let mut eye = grid("eye", 2, [3.0, 20.0, 1.0]);
    eye.skin = vec![skin_weights(&[(10, 1.0)]); eye.positions.len()];
    s.meshes = vec![body, eye];
    let imported = round_trip(&s, &ImportOptions::default());
    let shp = imported.model.shp1().unwrap();
    assert!(
        shp.matrix_data.len() > 2,
        "the body needs several matrix groups"
    );
    assert!(shp.matrix_data.iter().all(|g| g.count <= 10));
    let jnt = imported.model.jnt1().unwrap();
    assert_eq!(jnt.joints.len(), 12);
}

#[test]
fn large_meshes_import_up_to_the_index_limit() {
    // 256 × 256 quads, flat: 66,049 positions would pass the limit; split each quad's corners
    // per face so the mesh has 262,144 vertices but positions stay shared.
    let mut s = Scene::new("test");
    s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
    let mut big = grid("big", 200, [0.0; 3]);
    // Unshare: every triangle gets its own three vertices (> 65,535 vertices in the mesh).
    let mut flat = Mesh::new("flat");
    for t in &big.triangles {
        for &i in t {
            flat.positions.push(big.positions[i as usize]);
        }
        let k = flat.positions.len() as u32;
        flat.triangles.push([k - 3, k - 2, k - 1]);
    }
    assert!(flat.positions.len() > 65_535);
    flat.skin = vec![skin_weights(&[(0, 1.0)]); flat.positions.len()];
    s.meshes = vec![flat];
    round_trip(&s, &ImportOptions::default());
    // Past the limit: 257 × 257 distinct positions.
    big = grid("too_big", 256, [0.0; 3]);
    big.skin = vec![skin_weights(&[(0, 1.0)]); big.positions.len()];
    s.meshes = vec![big];
    let read = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let e = import(&read, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("POS has 66049 distinct values"), "{e}");
}

/// Damaged glTF never panics the import: every byte of a small model's `.glb`, in turn, set to
/// 0xFF and to 0x00 gives a model that checks clean or an error.
#[test]
fn damaged_glb_gives_errors_not_panics() {
    let mut s = Scene::new("test");
    s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
    let mut m = grid("g", 2, [0.0; 3]);
    m.uvs = vec![m.positions.iter().map(|p| [p[0], p[1]]).collect()];
    m.skin = vec![skin_weights(&[(0, 1.0)]); m.positions.len()];
    m.material = Some(0);
    s.materials.push(Material::new("m", None));
    s.meshes.push(m);
    let glb = s.to_glb().unwrap();
    let mut ok = 0;
    for i in 0..glb.len() {
        for b in [0x00, 0xFF] {
            let mut d = glb.clone();
            d[i] = b;
            if j3d_bmd::import::from_glb(&d, &ImportOptions::default()).is_ok() {
                ok += 1;
            }
        }
    }
    assert!(ok > 0, "some damage is harmless (padding, names)");
}

/// A texture GX cannot sample as it is (past 1024 texels a side, or not a power of two where
/// it repeats: a plain material's TEX1 header repeats) is stored at `gx::tex::sampled_size`
/// and reported.
#[test]
fn textures_stored_at_sampled_sizes() {
    use gx::scene::Wrap::{Clamp, Mirror, Repeat};
    // A side the glTF sampler clamps keeps its size; the BTI wraps as the sampler does
    // (GX_CLAMP 0, GX_REPEAT 1, GX_MIRROR 2), and exported again the sampler is the same.
    for ((w, h), wrap, want) in [
        ((300, 200), [Repeat; 2], (256, 256)),
        ((2048, 16), [Repeat; 2], (1024, 16)),
        ((300, 200), [Clamp, Mirror], (300, 256)),
        ((300, 200), [Clamp; 2], (300, 200)),
    ] {
        let mut s = Scene::new("test");
        s.nodes.push(Node::new("root", None, gx::mtx::IDENTITY));
        let img = Image::from_fn(w, h, |x, y| [x as u8, y as u8, 9, 255]).unwrap();
        let tex = s.add_image(img);
        let mut mat = Material::new("tex", Some(tex));
        mat.wrap = wrap;
        s.materials = vec![mat];
        let mut m = grid("part", 2, [0.0; 3]);
        m.uvs = vec![m.positions.iter().map(|p| [p[0], p[1]]).collect()];
        m.material = Some(0);
        s.meshes.push(m);
        let b = import(&s, &ImportOptions::default()).unwrap();
        let resized = usize::from((w, h) != want);
        assert_eq!(b.textures.resized.len(), resized);
        if resized == 1 {
            assert_eq!(b.textures.resized[0].1, [w, h]);
        }
        let model = j3d_bmd::Bmd::parse(&b.bytes).unwrap();
        let header = model.tex1().unwrap().set.textures[0].header;
        assert_eq!((u32::from(header.width), u32::from(header.height)), want);
        let gx_wrap = |w| {
            [Clamp, Repeat, Mirror]
                .iter()
                .position(|&x| x == w)
                .unwrap() as u8
        };
        assert_eq!([header.wrap_s, header.wrap_t], wrap.map(gx_wrap));
        let view = j3d_bmd::parse(&b.bytes).unwrap();
        let back = j3d_bmd::to_scene(&view).unwrap();
        assert_eq!(back.materials[0].wrap, wrap);
    }
}
