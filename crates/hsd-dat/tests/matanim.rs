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
//! transform animation; LOD-bias, konst and TEV register tracks) import as MatAnims whose
//! runtime values are the glTF's.

mod support;

use gx::scene::{Animation, Material, Property, PropertyTrack, Scene};
use hsd_dat::compile::Order;
use hsd_dat::extras::{
    self, LodExtras, MatAnimExtras, MaterialAnimExtras, MaterialExtras, TevExtras,
    TextureAnimExtras, TrackSamples,
};
use hsd_dat::import::matanim::material_clips;
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
            let n = support::same_clips(&a, &c);
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
        assert_eq!(support::same_clips(&a, &c), 1, "{order:?}");
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
        assert_eq!(support::same_clips(&a, &c), 1, "{order:?}");
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
        root: None,
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
                aobj_flags: None,
                stored: None,
            }],
            aobj_flags: None,
            stored: None,
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

/// [`quad`] with `images` images and an animation (no channel, our extras only) drawing image
/// `image[f]` at frame `f`, its AObj flags `aobj_flags`; with the extras.
fn image_swap(images: usize, image: Vec<u32>, aobj_flags: Option<u32>) -> (Scene, MatAnimExtras) {
    let mut s = quad(images);
    let x = MatAnimExtras {
        version: 1,
        root: None,
        frames: image.len() as u32,
        materials: vec![MaterialAnimExtras {
            material: 0,
            textures: vec![TextureAnimExtras {
                id: 0,
                images: (0..images).collect(),
                image,
                aobj_flags,
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
    (s, x)
}

/// An animation without any channel (only an image swap) is kept by the writer in the
/// document's `extras.animations`, and still imports.
#[test]
fn swap_only_animation_round_trips() {
    let (mut s, x) = image_swap(2, vec![0, 1, 1, 0], None);
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    assert!(a.clips.is_empty());
    assert_eq!(material_clips(&a).len(), 1);
    let b = import(&a, &ImportOptions::default()).unwrap();
    let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
    assert_eq!(support::same_clips(&a, &c), 1);
    // A frame selecting past the image list is refused: the runtime would read past the table.
    let mut bad = x.clone();
    bad.materials[0].textures[0].image[2] = 2;
    s.animations[0].extras = Some(serde_json::json!({ "hsd": bad }));
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let e = import(&a, &ImportOptions::default()).unwrap_err();
    assert!(e.to_string().contains("selects image 2 of 2"), "{e}");
}

/// An image swap comes back in the form HAL's tool writes (PlMrNr's eye swaps, read from the
/// retail file): one CON key per change and one at the last frame, unsigned bytes with five
/// fraction bits for indices up to 5, the AObj's recorded flags (none there), and image and
/// palette tables of exactly their counts.
#[test]
fn index_track_in_hals_form() {
    let (s, _) = image_swap(6, vec![0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5], Some(0));
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let b = import(&a, &ImportOptions::default()).unwrap().bytes;
    let arc = parse(&b).unwrap();
    let g = arc.graph();
    let of = |k: Kind| g.nodes.iter().filter(move |n| n.kind == k);
    let fobjs: Vec<hsd_dat::FObj> = of(Kind::FObj)
        .map(|n| arc.read(n.offset).unwrap())
        .collect();
    assert_eq!(fobjs.len(), 1);
    let f = &fobjs[0];
    assert_eq!((f.track, f.frac_value, f.length), (1, 0x85, 15));
    let keys = arc.data().bytes(f.data.unwrap() as usize, 15).unwrap();
    let hal = [
        0x61, 0x00, 0x01, 0x20, 0x01, 0x40, 0x01, 0x60, 0x01, 0x80, 0x01, 0xa0, 0x05, 0xa0, 0x00,
    ];
    assert_eq!(keys, hal);
    for n in of(Kind::AObj) {
        let aobj: hsd_dat::AObj = arc.read(n.offset).unwrap();
        assert_eq!(aobj.flags.bits(), 0);
    }
    let t: hsd_dat::TexAnim = arc.read(of(Kind::TexAnim).next().unwrap().offset).unwrap();
    assert_eq!(t.n_images, 6);
    // The table holds six pointers and no terminator: the block after it starts 24 bytes on.
    let table = t.image_table.unwrap();
    let next = g
        .nodes
        .iter()
        .map(|n| n.offset)
        .filter(|&o| o > table)
        .min();
    assert!(
        next.is_none_or(|o| o - table == 24),
        "{next:?} after {table:#x}"
    );
}

/// LOD-bias, konst and TEV register tracks, which the runtime writes through the TObj's LOD
/// and TEV descriptions: a MatAnim built in code on a TObj with both (`m.dat`, imported from
/// our export's extras of a quad with the descriptions and tracks added) keeps them through
/// `m.dat → a.glb → b.dat` in both orders — the runtime's values equal at every frame, the
/// descriptions kept — while on a TObj without the descriptions they are left out.
#[test]
fn lod_konst_and_tev_tracks_round_trip() {
    let q = Scene::from_glb(&quad(1).to_glb().unwrap()).unwrap();
    let plain = import(&q, &ImportOptions::default()).unwrap().bytes;
    let mut s = Scene::from_glb(&export::to_glb(&parse(&plain).unwrap()).unwrap()).unwrap();
    let mut x: MaterialExtras = extras::read(s.materials[0].extras.as_ref()).unwrap();
    assert!(x.textures[0].tev.is_none() && x.textures[0].lod.is_none());
    let tracks: Vec<TrackSamples> = [11u8, 12, 15, 17, 23]
        .iter()
        .map(|&id| TrackSamples {
            track: id,
            values: (0..FRAMES)
                .map(|k| 0.5 + 0.4 * (k as f32 * 0.15 + f32::from(id)).sin())
                .collect(),
        })
        .collect();
    let anim = MatAnimExtras {
        version: 1,
        root: None,
        frames: FRAMES as u32,
        materials: vec![MaterialAnimExtras {
            material: 0,
            textures: vec![TextureAnimExtras {
                id: 0,
                tracks: tracks.clone(),
                ..TextureAnimExtras::default()
            }],
            ..MaterialAnimExtras::default()
        }],
    };
    s.animations.push(Animation {
        name: "desc".into(),
        times: vec![0.0],
        extras: Some(serde_json::json!({ "hsd": anim })),
        ..Animation::default()
    });
    let glb = |s: &Scene| Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    // Without the descriptions the tracks are left out (nothing else animates: no MatAnim).
    let bare = import(&glb(&s), &ImportOptions::default()).unwrap().bytes;
    let arc = parse(&bare).unwrap();
    for (j, t) in trees(&arc) {
        let ma = arc.material_animation(j, t).unwrap();
        assert!(
            ma.materials
                .iter()
                .flat_map(|m| &m.textures)
                .all(|t| t.tracks.is_empty())
        );
    }
    x.textures[0].tev = Some(TevExtras {
        colors: [[10, 20, 30, 40], [50, 60, 70, 80], [90, 100, 110, 120]],
        active: 0xFFF,
        ..TevExtras::default()
    });
    x.textures[0].lod = Some(LodExtras {
        min_filter: 5,
        bias: -0.5,
        ..LodExtras::default()
    });
    s.materials[0].extras = extras::write(&x);
    let m = import(&glb(&s), &ImportOptions::default()).unwrap().bytes;
    let want = runtime(&m);
    let t = &want.textures[0];
    for e in &tracks {
        for (f, v) in e.values.iter().enumerate() {
            let got = value(&t.tracks, e.track, f as f32).unwrap();
            assert!(
                (got - v).abs() < 1e-3,
                "m.dat track {} frame {f}: {got} vs {v}",
                e.track
            );
        }
    }
    // m.dat → a.glb → b.dat, both orders.
    for order in [Order::ColosseumXd, Order::Melee] {
        let (a, c, b) = support::round_trip(&m, &support::in_order(order));
        assert_eq!(support::same_clips(&a, &c), 1, "{order:?}");
        let arc = parse(&b).unwrap();
        let ((j, tree), g) = (trees(&arc)[0], arc.graph());
        let ma = arc.material_animation(j, tree).unwrap();
        let got = &ma.materials[0].textures[0];
        for e in &tracks {
            for f in 0..FRAMES {
                let (x, y) = (
                    value(&t.tracks, e.track, f as f32).unwrap(),
                    value(&got.tracks, e.track, f as f32).unwrap(),
                );
                assert!(
                    (x - y).abs() < 1e-3,
                    "{order:?}: track {} frame {f}",
                    e.track
                );
            }
        }
        let tobj: hsd_dat::TObj = arc.read(got.tobj).unwrap();
        assert!(tobj.tev.is_some() && tobj.lod.is_some(), "{order:?}");
        let lod: hsd_dat::TexLod = arc.read(tobj.lod.unwrap()).unwrap();
        assert_eq!((lod.min_filter, lod.lod_bias), (5, -0.5));
        assert!(g.errors.is_empty());
    }
}
