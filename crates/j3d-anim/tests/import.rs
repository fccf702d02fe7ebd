#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]
//! glTF → BCK: every real BCK of the shared archives (skipped without them) is exported onto a
//! scene of its joints, written as `.glb`, read back and imported; the imported BCK checks clean,
//! keeps its loop mode and, evaluated by the game's rules, gives every joint's local matrix within
//! the fitting tolerance at every frame.

use gx::scene::{Node, Scene};
use j3d_anim::import::{BckOptions, bck, clip_index};
use j3d_anim::{Anim, Kind, eval, export};

fn joint_matrix(a: &Anim, j: usize, f: f32) -> gx::mtx::Mtx34 {
    eval::joint(a, j, f).unwrap().matrix()
}

#[test]
fn real_bcks_come_back_through_gltf() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim import")
    else {
        return;
    };
    let all = gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten());
    let mut read = 0;
    for (arc, path, data) in &all {
        if j3d_anim::sniff(data) != Some(Kind::Bck) {
            continue;
        }
        let orig = Anim::parse(data).unwrap();
        let joints = orig.table(0).map_or(0, j3d_anim::model::Data::len);
        let mut scene = Scene::new("test");
        for i in 0..joints {
            scene
                .nodes
                .push(Node::new(format!("j{i}"), None, gx::mtx::IDENTITY));
        }
        export::add_to_scene(&mut scene, &orig, "take", 60.0).unwrap();
        let read_back = Scene::from_glb(&scene.to_glb().unwrap()).unwrap();
        let clip = clip_index(&read_back, Some("take")).unwrap();
        let new = bck(&read_back, clip, &BckOptions::default())
            .unwrap_or_else(|e| panic!("{arc}:{path}: {e}"));
        let bytes = new.write().unwrap();
        let errors: Vec<_> = j3d_anim::validate::validate(&bytes)
            .into_iter()
            .filter(|d| d.severity == gcio::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{arc}:{path}: {errors:?}");
        assert_eq!(new.loop_mode(), orig.loop_mode(), "{arc}:{path}");
        assert_eq!(new.duration(), orig.duration(), "{arc}:{path}");
        for j in 0..joints {
            for f in 0..=orig.duration() {
                let (a, b) = (
                    joint_matrix(&orig, j, f.into()),
                    joint_matrix(&new, j, f.into()),
                );
                for (ra, rb) in a.iter().zip(&b) {
                    for (c, (x, y)) in ra.iter().zip(rb).enumerate() {
                        let tol = if c == 3 {
                            0.02 + 1e-3 * x.abs()
                        } else {
                            5e-3 * x.abs().max(1.0)
                        };
                        assert!(
                            (x - y).abs() <= tol,
                            "{arc}:{path} joint {j} frame {f}: {a:?} vs {b:?}"
                        );
                    }
                }
            }
        }
        read += 1;
    }
    println!("{read} real BCKs imported back from glTF");
    assert!(read >= 54 || all.is_empty(), "read {read}");
}

/// Every real BTK and BRK bound to the model of its archive: exported onto the model's glTF,
/// read back and imported as a BTK / BRK; every entry the export wrote evaluates to the
/// original at every frame (texture SRT within the default tolerance, colours within 1 unit).
#[test]
fn real_material_animations_come_back_through_gltf() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim import")
    else {
        return;
    };
    let all = gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten());
    let (mut btks, mut brks) = (0, 0);
    for (arc, path, data) in &all {
        let kind = j3d_anim::sniff(data);
        if !matches!(kind, Some(Kind::Btk | Kind::Brk)) {
            continue;
        }
        let Some((_, _, model)) = all.iter().find(|(a, p, m)| {
            a == arc && (p.ends_with(".bdl") || p.ends_with(".bmd")) && j3d_bmd::parse(m).is_ok()
        }) else {
            continue;
        };
        let orig = Anim::parse(data).unwrap();
        let mut scene = j3d_bmd::to_scene(&j3d_bmd::parse(model).unwrap()).unwrap();
        export::add_to_scene(&mut scene, &orig, "take", 60.0).unwrap();
        let back = Scene::from_glb(&scene.to_glb().unwrap()).unwrap();
        let Some(clip) = back.clips.iter().position(|c| c.name == "take") else {
            continue;
        };
        let opts = BckOptions::default();
        let names = |a: &Anim, t: usize| match a.table(t) {
            Some(j3d_anim::model::Data::Names(n)) => {
                n.entries.iter().map(|e| e.name.clone()).collect::<Vec<_>>()
            }
            _ => Vec::new(),
        };
        if kind == Some(Kind::Btk) {
            let new = j3d_anim::import::btk(&back, clip, &opts)
                .unwrap_or_else(|e| panic!("{arc}:{path}: {e}"));
            assert!(
                j3d_anim::validate::validate(&new.write().unwrap())
                    .iter()
                    .all(|d| d.severity != gcio::Severity::Error)
            );
            let (on, nn) = (names(&orig, 2), names(&new, 2));
            for (k, name) in nn.iter().enumerate() {
                let i = on.iter().position(|n| n == name).unwrap();
                for f in 0..=orig.duration() {
                    let (a, b) = (
                        eval::joint(&orig, i, f.into()).unwrap().matrix(),
                        eval::joint(&new, k, f.into()).unwrap().matrix(),
                    );
                    for (x, y) in a.iter().flatten().zip(b.iter().flatten()) {
                        assert!(
                            (x - y).abs() < 0.02,
                            "{arc}:{path} {k} frame {f}: {a:?} {b:?}"
                        );
                    }
                }
            }
            btks += 1;
        } else {
            let new = match j3d_anim::import::brk(&back, clip, &opts, 0.6) {
                Ok(a) => a,
                // Konst colours only: the export writes no base-colour channel for them.
                Err(e) if e.to_string().contains("no base-colour channels") => continue,
                Err(e) => panic!("{arc}:{path}: {e}"),
            };
            let (on, nn) = (names(&orig, 4), names(&new, 4));
            for (k, name) in nn.iter().enumerate() {
                let i = on.iter().position(|n| n == name).unwrap();
                for f in 0..=orig.duration() {
                    let (a, b) = (
                        eval::color(&orig, false, i, f.into()).unwrap(),
                        eval::color(&new, false, k, f.into()).unwrap(),
                    );
                    for (x, y) in a.iter().zip(&b) {
                        assert!(
                            (x.clamp(0.0, 255.0) - y).abs() <= 1.0,
                            "{arc}:{path} frame {f}: {a:?} {b:?}"
                        );
                    }
                }
            }
            brks += 1;
        }
    }
    println!("{btks} BTK, {brks} BRK imported back from glTF");
    assert!(btks > 0 || all.is_empty());
}
