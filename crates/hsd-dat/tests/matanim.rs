#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! Material and texture animations through glTF: every MatAnimJoint tree of the shared real
//! files exports as an animation, and `m.dat → a.glb → b.dat → c.glb` brings back the same
//! runtime track values (and image-swap pixels) at every frame within 1e-3; models built here
//! (a colour track, a texture SRT track, an image swap; a plain glTF colour and texture
//! transform animation) import as MatAnims whose runtime values are the glTF's.

mod support;

use gx::scene::{Animation, Material, Property, PropertyTrack, Scene};
use hsd_dat::compile::Order;
use hsd_dat::extras::{MatAnimExtras, MaterialAnimExtras, TextureAnimExtras};
use hsd_dat::import::matanim::{MaterialSamples, material_clips, material_tracks, rest_value};
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::matanim::value;
use hsd_dat::{Archive, Kind, ModelSet, RootKind, export, parse};

/// The MatAnimJoint trees of an archive with their joint trees (as the export pairs them).
fn trees(a: &Archive<'_>) -> Vec<(u32, u32)> {
    let g = a.graph();
    let mut out = Vec::new();
    for n in g.nodes.iter().filter(|n| n.kind == Kind::ModelSet) {
        let ms: ModelSet = a.read(n.offset).unwrap();
        if let (Some(j), Some(list)) = (ms.joint, ms.matanims) {
            let mut at = list;
            while let Ok(Some(t)) = a.pointer(at) {
                out.push((j, t));
                at += 4;
            }
        }
    }
    let first = a.roots().find(|r| r.kind() == RootKind::Joint);
    for r in a.roots().filter(|r| r.kind() == RootKind::MatAnimJoint) {
        out.push((first.unwrap().offset, r.offset));
    }
    out
}

/// Track `id` of `list`, else the rest value, at frame `f`.
fn at(list: &[(u8, Vec<f32>)], id: u8, f: usize, rest: Option<f32>) -> Option<f32> {
    list.iter()
        .find(|t| t.0 == id)
        .map(|t| t.1.get(f).or(t.1.last()).copied().unwrap_or(0.0))
        .or(rest)
}

/// Whether material `x` of scene `sx` and `y` of `sy` animate the same: every track (rest
/// value where one side has none) within 1e-3 at every frame, swaps drawing the same pixels.
/// LOD, konst and TEV tracks are not imported and not compared; the palette index is part of
/// the swap.
fn same(sx: &Scene, x: &MaterialSamples, sy: &Scene, y: &MaterialSamples, frames: usize) -> bool {
    let ids = |a: &[(u8, Vec<f32>)], b: &[(u8, Vec<f32>)]| {
        let mut v: Vec<u8> = a.iter().chain(b).map(|t| t.0).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let close = |a: Option<f32>, b: Option<f32>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-3,
        (a, b) => a == b,
    };
    for id in ids(&x.tracks, &y.tracks) {
        let (rx, ry) = (
            rest_value(sx, x.material, None, id),
            rest_value(sy, y.material, None, id),
        );
        if !(0..frames).all(|f| close(at(&x.tracks, id, f, rx), at(&y.tracks, id, f, ry))) {
            return false;
        }
    }
    let empty = Default::default();
    let mut tex: Vec<u32> = x.textures.iter().chain(&y.textures).map(|t| t.id).collect();
    tex.dedup();
    for t in tex {
        let tx = x.textures.iter().find(|a| a.id == t).unwrap_or(&empty);
        let ty = y.textures.iter().find(|a| a.id == t).unwrap_or(&empty);
        for id in ids(&tx.tracks, &ty.tracks) {
            if (11..=23).contains(&id) || id == 10 {
                continue;
            }
            let (rx, ry) = (
                rest_value(sx, x.material, Some(t), id),
                rest_value(sy, y.material, Some(t), id),
            );
            if !(0..frames).all(|f| close(at(&tx.tracks, id, f, rx), at(&ty.tracks, id, f, ry))) {
                return false;
            }
        }
        let drawn = |s: &Scene, sw: &(Vec<usize>, Vec<u32>), f: usize| {
            let k = *sw.1.get(f).or(sw.1.last())? as usize;
            s.images().get(*sw.0.get(k)?).cloned()
        };
        if tx.swap.1.is_empty() != ty.swap.1.is_empty()
            || !(0..frames).all(|f| drawn(sx, &tx.swap, f) == drawn(sy, &ty.swap, f))
        {
            return false;
        }
    }
    true
}

/// Every material clip of `a` has one in `c` (in order) with the same frame count whose
/// animated materials match one to one ([`same`]). Returns the materials compared.
fn same_clips(a: &Scene, c: &Scene) -> usize {
    let (ca, cc) = (material_clips(a), material_clips(c));
    assert_eq!(ca.len(), cc.len(), "material animations");
    let mut compared = 0;
    for (x, y) in ca.iter().zip(&cc) {
        let frames = |s: &Scene, clip| {
            material_tracks(s, clip)
                .iter()
                .flat_map(|m| {
                    m.tracks
                        .iter()
                        .chain(m.textures.iter().flat_map(|t| &t.tracks))
                })
                .map(|t| t.1.len())
                .max()
                .unwrap_or(0)
        };
        let n = frames(a, x);
        assert_eq!(n, frames(c, y), "{}: frames", x.name);
        let (mx, mut my) = (material_tracks(a, x), material_tracks(c, y));
        assert_eq!(mx.len(), my.len(), "{}: animated materials", x.name);
        for m in &mx {
            let k = my
                .iter()
                .position(|o| same(a, m, c, o, n))
                .unwrap_or_else(|| {
                    panic!(
                        "{}: material {} has no match: {m:?} vs {my:?}",
                        x.name, m.material
                    )
                });
            my.remove(k);
            compared += 1;
        }
    }
    compared
}

#[test]
fn real_material_animations_round_trip() {
    let Some(models) = support::real_models("hsd-dat material animations") else {
        return;
    };
    let mut with_trees = 0;
    for (name, m) in &models {
        let arc = parse(m).unwrap();
        let t = trees(&arc);
        let animated = t
            .iter()
            .filter(|(j, x)| !arc.material_animation(*j, *x).unwrap().materials.is_empty())
            .count();
        let a = Scene::from_glb(&export::to_glb(&arc).unwrap()).unwrap();
        assert_eq!(material_clips(&a).len(), t.len(), "{name}");
        if animated == 0 {
            continue;
        }
        with_trees += 1;
        for order in [Order::ColosseumXd, Order::Melee] {
            let (a, c, b) = support::round_trip(m, &support::in_order(order));
            let n = same_clips(&a, &c);
            assert!(n > 0, "{name}: nothing compared");
            assert!(trees(&parse(&b).unwrap()).len() >= t.len());
            eprintln!("{name}: {order:?}: {n} animated materials");
        }
    }
    assert_eq!(
        (models.len(), with_trees),
        (support::REAL_MODELS, 1),
        "models read, with material animations"
    );
}

/// The XD sample scene built in code (an alpha track; an image swap on TObj 0 and a TexAnim
/// without AObj on TObj 1) round-trips in both orders.
#[test]
fn xd_scene_material_animation_round_trips() {
    let m = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let arc = parse(&m).unwrap();
    let t = trees(&arc);
    assert_eq!(t.len(), 1);
    let ma = arc.material_animation(t[0].0, t[0].1).unwrap();
    assert_eq!(ma.materials.len(), 1);
    assert_eq!(ma.materials[0].textures.len(), 1);
    for order in [Order::ColosseumXd, Order::Melee] {
        let (a, c, _) = support::round_trip(&m, &support::in_order(order));
        assert_eq!(same_clips(&a, &c), 1, "{order:?}");
    }
}

/// A textured quad on one node (material 0 drawing image 0) with `images` grey images.
fn quad(images: usize) -> Scene {
    let mut s = Scene::new("test");
    s.nodes
        .push(gx::scene::Node::new("root", None, gx::mtx::IDENTITY));
    let mut m = gx::scene::Mesh::new("quad");
    m.positions = vec![[0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    m.uvs = vec![vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]];
    m.triangles = vec![[0, 1, 2], [0, 2, 3]];
    m.skin = vec![gx::scene::skin_weights(&[(0, 1.0)]); 4];
    m.material = Some(0);
    s.meshes.push(m);
    for k in 0..images {
        let img = gx::tex::Image::from_fn(8, 8, |x, y| {
            // Grey with alpha: stored exactly (IA8), so the swap's pixels compare equal.
            let v = (x * 20 + y * 2 + k as u32 * 60) as u8;
            [v, v, v, v]
        })
        .unwrap();
        s.add_image(img);
    }
    s.materials.push(Material::new("animated", Some(0)));
    s
}

/// Frames of the code-built animations.
const FRAMES: usize = 31;

/// A colour (red rising, alpha falling) and a texture offset, rotation and scale per frame.
fn properties() -> Vec<PropertyTrack> {
    let f = |k: usize| k as f32 / (FRAMES - 1) as f32;
    vec![
        PropertyTrack {
            property: Property::BaseColor(0),
            values: (0..FRAMES)
                .flat_map(|k| [f(k), 0.5, 0.25, 1.0 - 0.5 * f(k)])
                .collect(),
        },
        PropertyTrack {
            property: Property::TextureOffset(0),
            values: (0..FRAMES)
                .flat_map(|k| [0.5 * f(k), -0.25 * f(k)])
                .collect(),
        },
        PropertyTrack {
            property: Property::TextureRotation(0),
            values: (0..FRAMES).map(|k| 0.3 * f(k)).collect(),
        },
        PropertyTrack {
            property: Property::TextureScale(0),
            values: (0..FRAMES)
                .map(|k| 1.0 + f(k))
                .flat_map(|s| [s, s])
                .collect(),
        },
    ]
}

fn animation(extras: Option<serde_json::Value>) -> Animation {
    Animation {
        name: "material".into(),
        times: (0..FRAMES).map(|k| k as f32 / 60.0).collect(),
        properties: properties(),
        extras,
        ..Animation::default()
    }
}

/// Imports `s` (through its glb) in both orders; returns the XD archive bytes and the scene.
fn import_both(s: &Scene) -> (Vec<u8>, Scene) {
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let mut out = Vec::new();
    for order in [Order::Melee, Order::ColosseumXd] {
        let b = import(
            &a,
            &ImportOptions {
                order,
                ..ImportOptions::default()
            },
        )
        .unwrap();
        let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
        assert_eq!(same_clips(&a, &c), 1, "{order:?}");
        out = b.bytes;
    }
    (out, a)
}

/// The runtime values of the imported archive's one animated material.
fn runtime(bytes: &[u8]) -> hsd_dat::matanim::AnimatedMaterial {
    let arc = parse(bytes).unwrap();
    let t = trees(&arc);
    assert_eq!(t.len(), 1);
    let ma = arc.material_animation(t[0].0, t[0].1).unwrap();
    assert_eq!(ma.materials.len(), 1);
    assert_eq!(ma.end_frame(), (FRAMES - 1) as f32);
    ma.materials[0].clone()
}

#[test]
fn plain_colour_and_texture_transform_become_a_matanim() {
    let mut s = quad(1);
    s.animations.push(animation(None));
    let (b, _) = import_both(&s);
    let m = runtime(&b);
    for k in [0, 7, 15, 30] {
        let f = k as f32 / (FRAMES - 1) as f32;
        let frame = k as f32;
        // Diffuse red is the base colour's; the alpha track is 1 − alpha.
        assert!((value(&m.tracks, 4, frame).unwrap() - f).abs() < 1e-3);
        assert!((value(&m.tracks, 10, frame).unwrap() - 0.5 * f).abs() < 1e-3);
        // Green is constant but off the white rest, so it is a track too.
        assert!((value(&m.tracks, 5, frame).unwrap() - 0.5).abs() < 1e-3);
        // The plain TObj (repeat 1): scale = 1 / glTF scale, rotation Z = glTF rotation,
        // translation = −R(−rz)·(offset / scale).
        let t = &m.textures[0];
        let s = 1.0 + f;
        assert!((value(&t.tracks, 4, frame).unwrap() - 1.0 / s).abs() < 1e-3);
        assert!((value(&t.tracks, 8, frame).unwrap() - 0.3 * f).abs() < 1e-3);
        let (sn, c) = (0.3 * f).sin_cos();
        let (a, bb) = (0.5 * f / s, -0.25 * f / s);
        let tu = -(c * a - sn * bb);
        assert!((value(&t.tracks, 2, frame).unwrap() - tu).abs() < 1e-3);
    }
}

#[test]
fn colour_srt_and_image_swap_round_trip() {
    let mut s = quad(3);
    // Swap: image 1 for 10 frames, image 2 for 10, then image 1 again (a table of two).
    let swap: Vec<u32> = (0..FRAMES as u32)
        .map(|k| u32::from((10..20).contains(&k)))
        .collect();
    let x = MatAnimExtras {
        version: 1,
        frames: FRAMES as u32,
        materials: vec![MaterialAnimExtras {
            material: 0,
            channels: vec![4, 5, 6, 10],
            tracks: Vec::new(),
            textures: vec![TextureAnimExtras {
                id: 0,
                channels: vec![2, 3, 4, 5, 8],
                tracks: Vec::new(),
                images: vec![1, 2],
                image: swap.clone(),
            }],
        }],
    };
    s.animations
        .push(animation(Some(serde_json::json!({ "hsd": x }))));
    let (b, a) = import_both(&s);
    let m = runtime(&b);
    let t = &m.textures[0];
    assert_eq!(t.images.len(), 2);
    // The swap's image index at every frame, and its pixels.
    let arc = parse(&b).unwrap();
    for (f, pick) in t.image_indices((FRAMES - 1) as u32).into_iter().enumerate() {
        assert_eq!(pick, Some(swap[f] as usize), "frame {f}");
        let r = hsd_dat::image::TextureRef {
            image: t.images[swap[f] as usize].unwrap(),
            palette: t.palette_index(f as u32).and_then(|p| t.palettes[p]),
        };
        let want = &a.images()[[1, 2][swap[f] as usize]];
        assert_eq!(&arc.decode_texture(&r).unwrap(), want, "frame {f}");
    }
    // Blue is constant (0.25) but off rest, so it is a track; the colour tracks are fitted.
    assert!((value(&m.tracks, 6, 12.0).unwrap() - 0.25).abs() < 1e-3);
}

/// An animation without any channel (only an image swap) is kept by the writer in the
/// document's `extras.animations`, and still imports.
#[test]
fn swap_only_animation_round_trips() {
    let mut s = quad(2);
    let x = MatAnimExtras {
        version: 1,
        frames: 4,
        materials: vec![MaterialAnimExtras {
            material: 0,
            textures: vec![TextureAnimExtras {
                id: 0,
                images: vec![0, 1],
                image: vec![0, 1, 1, 0],
                ..TextureAnimExtras::default()
            }],
            ..MaterialAnimExtras::default()
        }],
    };
    s.animations.push(Animation {
        name: "eyes".into(),
        times: vec![0.0],
        extras: Some(serde_json::json!({ "hsd": x })),
        ..Animation::default()
    });
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    assert!(a.clips.is_empty());
    assert_eq!(material_clips(&a).len(), 1);
    let b = import(&a, &ImportOptions::default()).unwrap();
    let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
    assert_eq!(same_clips(&a, &c), 1);
    // A frame selecting past the image list is refused: the runtime would read past the table.
    let mut bad = x.clone();
    bad.materials[0].textures[0].image[2] = 2;
    s.animations[0].extras = Some(serde_json::json!({ "hsd": bad }));
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let e = import(&a, &ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("selects image 2 of 2"), "{e}");
}

/// An image swap imports in the form HAL's compiler gives it (`PlMrNr.dat`'s eyes): image and
/// palette tables of exactly `n_images` words (no terminator), and index tracks of constant
/// keys in u8 with the most fraction bits the largest index leaves, the last run waiting up to
/// the end frame where a closing key repeats its value.
#[test]
fn image_swap_takes_hals_form() {
    let mut s = quad(2);
    let x = MatAnimExtras {
        version: 1,
        frames: 4,
        materials: vec![MaterialAnimExtras {
            material: 0,
            textures: vec![TextureAnimExtras {
                id: 0,
                images: vec![0, 1],
                image: vec![0, 1, 1, 1],
                ..TextureAnimExtras::default()
            }],
            ..MaterialAnimExtras::default()
        }],
    };
    s.animations.push(Animation {
        name: "eyes".into(),
        times: vec![0.0],
        extras: Some(serde_json::json!({ "hsd": x })),
        ..Animation::default()
    });
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    for order in [Order::Melee, Order::ColosseumXd] {
        let b = import(&a, &support::in_order(order)).unwrap().bytes;
        let arc = parse(&b).unwrap();
        let dat = hsd_dat::Dat::parse(&b).unwrap();
        let mut starts = Vec::new();
        let mut at = 0u32;
        for blk in &dat.blocks {
            starts.push((at, blk.bytes.len()));
            at += blk.bytes.len() as u32;
        }
        let g = arc.graph();
        let swaps: Vec<hsd_dat::TexAnim> = g
            .nodes
            .iter()
            .filter(|n| n.kind == Kind::TexAnim)
            .map(|n| arc.read(n.offset).unwrap())
            .filter(|t: &hsd_dat::TexAnim| t.aobj.is_some())
            .collect();
        assert_eq!(swaps.len(), 1, "{order:?}");
        let t = swaps[0];
        assert_eq!(t.n_images, 2);
        let size = |p: Option<u32>| starts.iter().find(|s| Some(s.0) == p).map(|s| s.1);
        assert_eq!(size(t.image_table), Some(8), "{order:?}: image table");
        let aobj: hsd_dat::AObj = arc.read(t.aobj.unwrap()).unwrap();
        let f: hsd_dat::FObj = arc.read(aobj.fobj.unwrap()).unwrap();
        assert_eq!(f.frac_value, 0x87, "{order:?}: u8, 7 fraction bits");
        let keys = arc
            .data()
            .bytes(f.data.unwrap() as usize, f.length as usize);
        // CON × 3: 0 for 1 frame, 1 for 2 frames (to the end frame 3), 1 again at frame 3.
        assert_eq!(
            keys.unwrap(),
            [0x21, 0x00, 1, 0x80, 2, 0x80, 0],
            "{order:?}"
        );
    }
}
