//! Animations built from sampled values (`j3d_anim::fit`): golden tables for small BCK, BTK and
//! BRK cases; generated smooth, stepped and spinning tracks that validate cleanly and evaluate
//! back within the tolerance at every frame; and every real Galaxy BCK, BTK and BRK
//! (`../shared/corpus/real/rarc`, skipped when absent) sampled, refitted and evaluated again.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use j3d_anim::fit::{ColorSamples, JointSamples, TexMtxSamples, Tolerance, bck, brk, btk};
use j3d_anim::{Anim, Data, KeyTrack, Kind, eval};
use proptest::prelude::*;

/// The worst error of `anim` against `joints` over every frame and component, each measured in
/// units of its tolerance (≤ 1 passes); rotations compared modulo whole turns.
fn worst(anim: &Anim, joints: &[JointSamples], tol: Tolerance) -> f32 {
    let mut worst = 0f32;
    let frames = usize::from(anim.duration()) + 1;
    for (j, s) in joints.iter().enumerate() {
        for f in 0..frames {
            let got = eval::joint(anim, j, f as f32).unwrap();
            let at =
                |t: &[[f32; 3]], rest: f32| t.get(f).or(t.last()).copied().unwrap_or([rest; 3]);
            let (sc, ro, tr) = (
                at(&s.scale, 1.0),
                at(&s.rotation, 0.0),
                at(&s.translation, 0.0),
            );
            for a in 0..3 {
                let d = (got.rotation[a].to_radians() - ro[a]).rem_euclid(std::f32::consts::TAU);
                let d = d.min(std::f32::consts::TAU - d);
                worst = worst
                    .max((got.scale[a] - sc[a]).abs() / tol.scale)
                    .max(d / tol.rotation)
                    .max((got.translation[a] - tr[a]).abs() / tol.translation);
            }
        }
    }
    worst
}

/// Writes, re-reads and validates `anim`: no findings at all.
fn round_trip(anim: &Anim) -> Anim {
    let bytes = anim.write().unwrap();
    let diags = j3d_anim::validate(&bytes);
    assert!(diags.is_empty(), "{diags:?}");
    Anim::parse(&bytes).unwrap()
}

#[test]
fn golden_tables() {
    // Joint 0: scale 1; Y turns 0 → 90° (16384 units) in a straight line over 10 frames; X moves 0 → 10 and
    // holds from frame 5. Joint 1: at rest.
    let n = 10;
    let j0 = JointSamples {
        scale: vec![[1.0; 3]; n + 1],
        rotation: (0..=n)
            .map(|f| [0.0, (9.0 * f as f32).to_radians(), 0.0])
            .collect(),
        translation: (0..=n)
            .map(|f| [(2.0 * f as f32).min(10.0), 0.0, 0.0])
            .collect(),
    };
    let a = bck(
        &[j0.clone(), JointSamples::default()],
        2,
        Tolerance::default(),
    )
    .unwrap();
    assert_eq!(a.duration(), 10);
    assert_eq!(a.loop_mode(), 2);
    // 90° fits decimal 0: one unit is 180 / 32768 degrees; 9° a frame is 1638.4 units.
    assert_eq!(a.rotation_decimal(), 0);
    let k = |count, index, tangent| KeyTrack {
        count,
        index,
        tangent,
    };
    let c0 = k(1, 0, 0);
    let Data::KeySrt(e) = &a.tables[0].data else {
        panic!()
    };
    // The Y turn (no whole turn brings it nearer 0) is stored after the constant 0 of X; the X move
    // takes split slopes at its corner (frame 5: slope 2 in, 0 out), and its first value serves
    // every constant 0 after it.
    assert_eq!(e[0], [c0, c0, k(3, 0, 1), c0, k(2, 1, 0), c0, c0, c0, c0]);
    assert_eq!(e[1], [c0; 9]);
    assert_eq!(a.tables[1].data, Data::F32(vec![1.0]));
    assert_eq!(
        a.tables[2].data,
        Data::I16(vec![0, 0, 0, 1638, 10, 16384, 1638])
    );
    assert_eq!(
        a.tables[3].data,
        Data::F32(vec![
            0.0, 0.0, 2.0, 2.0, 5.0, 10.0, 2.0, 0.0, 10.0, 10.0, 0.0, 0.0
        ])
    );
    let back = round_trip(&a);
    assert!(worst(&back, &[j0, JointSamples::default()], Tolerance::default()) <= 1.0);
    // A tolerance below half a stored rotation step is refused.
    let fine = Tolerance {
        rotation: 1e-6,
        ..Tolerance::default()
    };
    assert!(bck(&[JointSamples::default()], 0, fine).is_err());
    let nan = JointSamples {
        scale: vec![[f32::NAN; 3]],
        ..JointSamples::default()
    };
    assert!(bck(&[nan], 0, Tolerance::default()).is_err());
}

#[test]
fn from_matrices_stays_continuous() {
    // A joint turning about Y past ±90° (where Euler X and Z flip) for two full turns, from
    // glTF-style quaternions: the decomposed tracks stay continuous and the BCK reproduces
    // every frame's matrix.
    let frames: Vec<_> = (0..=80)
        .map(|f| {
            let a = f as f32 * std::f32::consts::TAU / 40.0;
            let q = [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()];
            gx::mtx::from_trs([f as f32, 0.0, 0.0], q, [1.0; 3])
        })
        .collect();
    let s = JointSamples::from_matrices(&frames);
    for w in s.rotation.windows(2) {
        for a in 0..3 {
            assert!((w[1][a] - w[0][a]).abs() < 0.3, "{w:?}");
        }
    }
    let a = round_trip(&bck(std::slice::from_ref(&s), 2, Tolerance::default()).unwrap());
    for (f, m) in frames.iter().enumerate() {
        let got = eval::joint(&a, 0, f as f32).unwrap().matrix();
        for (x, y) in got.iter().flatten().zip(m.iter().flatten()) {
            assert!((x - y).abs() < 0.02, "frame {f}: {got:?} vs {m:?}");
        }
    }
}

fn track(n: usize, kind: u8, amp: f32, w: f32, p: f32) -> Vec<f32> {
    (0..=n)
        .map(|f| {
            let x = f as f32;
            match kind {
                0 => amp * (w * x + p).sin(),
                // Steps every few frames.
                1 => amp * ((w * x * 4.0 + p) as i32 % 3) as f32,
                // A spin: many turns (rotation) or a steady drift.
                2 => amp * w * x,
                _ => p,
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn sampled_joints_come_back(
        n in 0usize..90,
        spec in proptest::collection::vec(
            proptest::array::uniform9((0u8..4, 0.1f32..3.0, 0.01f32..0.6, -3.0f32..3.0)), 1..5),
        loop_mode in 0u8..5,
    ) {
        let tol = Tolerance::default();
        let joints: Vec<JointSamples> = spec
            .iter()
            .map(|s| {
                let tr = |c: usize, scale: f32, base: f32| -> Vec<f32> {
                    let (k, a, w, p) = s[c];
                    track(n, k, a * scale, w, p).into_iter().map(|v| v + base).collect()
                };
                let triple = |part: usize, scale: f32, base: f32| -> Vec<[f32; 3]> {
                    let [x, y, z] = [0, 1, 2].map(|a| tr(3 * a + part, scale, base));
                    (0..=n).map(|f| [x[f], y[f], z[f]]).collect()
                };
                JointSamples {
                    scale: triple(0, 0.3, 1.0),
                    rotation: triple(1, 1.0, 0.0),
                    translation: triple(2, 100.0, 0.0),
                }
            })
            .collect();
        let a = bck(&joints, loop_mode, tol).unwrap();
        let back = round_trip(&a);
        prop_assert_eq!(back.loop_mode(), loop_mode);
        prop_assert_eq!(usize::from(back.duration()), n);
        let w = worst(&back, &joints, tol);
        prop_assert!(w <= 1.0, "{w}");
        // The same tracks as texture matrices.
        let mtxs: Vec<TexMtxSamples> = joints
            .iter()
            .map(|j| TexMtxSamples { material: "m".into(), tex_mtx: 0, center: [0.5; 3], srt: j.clone() })
            .collect();
        let back = round_trip(&btk(&mtxs, loop_mode, tol).unwrap());
        let w = worst(&back, &joints, tol);
        prop_assert!(w <= 1.0, "{w}");
    }

    #[test]
    fn sampled_colors_come_back(
        n in 0usize..90,
        spec in proptest::collection::vec(
            proptest::array::uniform4((0u8..4, 1.0f32..120.0, 0.01f32..0.6, 0.0f32..255.0)), 0..4),
        konsts in 0usize..3,
        tol in 0.55f32..4.0,
    ) {
        let colors: Vec<ColorSamples> = spec
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ch = s.map(|(k, a, w, p)| track(n, k, a, w, p));
                ColorSamples {
                    material: format!("m{i}"),
                    id: (i % 4) as u8,
                    rgba: (0..=n).map(|f| ch.each_ref().map(|c| c[f])).collect(),
                }
            })
            .collect();
        let (kon, reg) = colors.split_at(konsts.min(colors.len()));
        let back = round_trip(&brk(reg, kon, 2, tol).unwrap());
        let w = worst_color(&back, false, reg, tol).max(worst_color(&back, true, kon, tol));
        prop_assert!(w <= 1.0, "{w}");
    }
}

/// SRT samples of `anim` (BCK joints, BTK texture matrices) at every frame, rotations in
/// radians.
fn sample(anim: &Anim) -> Vec<JointSamples> {
    let entries = anim.table(0).map_or(0, Data::len);
    (0..entries)
        .map(|j| {
            let mut s = JointSamples::default();
            for f in 0..=anim.duration() {
                let p = eval::joint(anim, j, f32::from(f)).unwrap();
                s.scale.push(p.scale);
                s.rotation.push(p.rotation.map(f32::to_radians));
                s.translation.push(p.translation);
            }
            s
        })
        .collect()
}

/// Colour samples of a BRK's registers (`konst` false) or konsts at every frame.
fn colors(anim: &Anim, konst: bool) -> Vec<ColorSamples> {
    let Some(Data::TevColor(v)) = anim.table(usize::from(konst)) else {
        return Vec::new();
    };
    let Some(Data::Names(n)) = anim.table(4 + usize::from(konst)) else {
        return Vec::new();
    };
    v.iter()
        .enumerate()
        .map(|(i, e)| ColorSamples {
            material: String::from_utf8_lossy(&n.entries[i].name).into_owned(),
            id: e.id,
            rgba: (0..=anim.duration())
                .map(|f| eval::color(anim, konst, i, f32::from(f)).unwrap())
                .collect(),
        })
        .collect()
}

/// The worst colour error of `anim` against the samples, in units of `tol`.
fn worst_color(anim: &Anim, konst: bool, samples: &[ColorSamples], tol: f32) -> f32 {
    let mut worst = 0f32;
    for (i, c) in samples.iter().enumerate() {
        for f in 0..=anim.duration() {
            let got = eval::color(anim, konst, i, f32::from(f)).unwrap();
            let want = c
                .rgba
                .get(usize::from(f))
                .or(c.rgba.last())
                .copied()
                .unwrap_or([0.0; 4]);
            for ch in 0..4 {
                worst = worst.max((got[ch] - want[ch]).abs() / tol);
            }
        }
    }
    worst
}

fn keys(anim: &Anim) -> usize {
    let count = |t: &KeyTrack| usize::from(t.count);
    anim.tables
        .iter()
        .map(|t| match &t.data {
            Data::KeySrt(v) => v.iter().flatten().map(count).sum(),
            Data::TevColor(v) => v.iter().flat_map(|e| &e.tracks).map(count).sum(),
            _ => 0,
        })
        .sum()
}

#[test]
fn golden_btk_and_brk() {
    // A texture scrolling in T, one unit over 60 frames, and a colour fading in.
    let scroll = TexMtxSamples {
        material: "water".into(),
        tex_mtx: 1,
        center: [0.5; 3],
        srt: JointSamples {
            translation: (0..=60).map(|f| [0.0, f as f32 / 60.0, 0.0]).collect(),
            ..JointSamples::default()
        },
    };
    let a = btk(std::slice::from_ref(&scroll), 2, Tolerance::default()).unwrap();
    assert_eq!(&a.reserved[..4], b"SVR1");
    assert_eq!(a.duration(), 60);
    let k = |count, index, tangent| KeyTrack {
        count,
        index,
        tangent,
    };
    let c = k(1, 0, 1);
    // T's track follows the constant 0 of S in the translation table.
    assert_eq!(
        a.tables[0].data,
        Data::KeySrt(vec![[c, c, c, c, c, k(2, 1, 1), c, c, c]])
    );
    assert_eq!(a.tables[1].data, Data::U16(vec![0]));
    assert_eq!(a.tables[3].data, Data::U8(vec![1]));
    assert_eq!(a.tables[4].data, Data::Vec3(vec![[0.5; 3]]));
    let slope = 1.0 / 60.0;
    assert_eq!(
        a.tables[7].data,
        Data::F32(vec![0.0, 0.0, 0.0, slope, slope, 60.0, 1.0, slope, slope])
    );
    let back = round_trip(&a);
    assert!(worst(&back, &[scroll.srt], Tolerance::default()) <= 1.0);

    let fade = ColorSamples {
        material: "mat".into(),
        id: 2,
        rgba: (0..=10)
            .map(|f| [255.0, 128.0, 0.0, 25.5 * f as f32])
            .collect(),
    };
    let b = brk(std::slice::from_ref(&fade), &[], 0, 0.6).unwrap();
    assert_eq!(&b.reserved[..4], b"SVR1");
    let Data::TevColor(e) = &b.tables[0].data else {
        panic!()
    };
    assert_eq!((e[0].id, e[0].fill), (2, [0xFF; 3]));
    assert_eq!(e[0].tracks, [c, c, c, k(2, 0, 1)]);
    assert_eq!(b.tables[6].data, Data::I16(vec![255]));
    // 25.5 a frame is stored as 26 (whole i16 slopes): symmetric at both ends the error peaks
    // near 0.48 at frames 2 and 8, inside 0.6, so two keys hold.
    assert_eq!(
        b.tables[9].data,
        Data::I16(vec![0, 0, 26, 26, 10, 255, 26, 26])
    );
    let back = round_trip(&b);
    assert!(worst_color(&back, false, std::slice::from_ref(&fade), 0.6) <= 1.0);
    assert!(brk(&[fade], &[], 0, 0.4).is_err());
}

#[test]
fn real_anims_refit() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim refit")
    else {
        return;
    };
    let all = gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten());
    let tol = Tolerance::default();
    let color_tol = 0.6;
    let mut stats = std::collections::BTreeMap::<&str, [usize; 5]>::new();
    let mut failures = Vec::new();
    for (arc, path, data) in &all {
        let Some(kind) = j3d_anim::sniff(data) else {
            continue;
        };
        let orig = Anim::parse(data).unwrap();
        let (refit, w) = match kind {
            Kind::Bck | Kind::Btk => {
                let srts = sample(&orig);
                let built = if kind == Kind::Bck {
                    bck(&srts, orig.loop_mode(), tol)
                } else {
                    let Some(Data::Names(n)) = orig.table(2) else {
                        continue;
                    };
                    let (Some(Data::U8(ids)), Some(Data::Vec3(centers))) =
                        (orig.table(3), orig.table(4))
                    else {
                        continue;
                    };
                    let mtxs: Vec<TexMtxSamples> = srts
                        .iter()
                        .enumerate()
                        .map(|(i, s)| TexMtxSamples {
                            material: String::from_utf8_lossy(&n.entries[i].name).into_owned(),
                            tex_mtx: ids[i],
                            center: centers[i],
                            srt: s.clone(),
                        })
                        .collect();
                    btk(&mtxs, orig.loop_mode(), tol)
                };
                match built {
                    Ok(a) => {
                        let back = round_trip_checked(&a, &mut failures, path);
                        let w = worst(&back, &srts, tol);
                        (back, w)
                    }
                    Err(e) => {
                        failures.push(format!("{arc}:{path}: {e}"));
                        continue;
                    }
                }
            }
            Kind::Brk => {
                let (reg, kon) = (colors(&orig, false), colors(&orig, true));
                match brk(&reg, &kon, orig.loop_mode(), color_tol) {
                    Ok(a) => {
                        let back = round_trip_checked(&a, &mut failures, path);
                        let w = worst_color(&back, false, &reg, color_tol)
                            .max(worst_color(&back, true, &kon, color_tol));
                        (back, w)
                    }
                    Err(e) => {
                        failures.push(format!("{arc}:{path}: {e}"));
                        continue;
                    }
                }
            }
            _ => continue,
        };
        if w > 1.0 || refit.duration() != orig.duration() {
            failures.push(format!("{arc}:{path}: worst {w} × tol"));
        }
        let st = stats.entry(kind.format_name()).or_default();
        st[0] += 1;
        st[1] += keys(&orig);
        st[2] += keys(&refit);
        st[3] += data.len();
        st[4] += refit.write().unwrap().len();
    }
    for (k, [n, kb, ka, bb, ba]) in &stats {
        eprintln!("j3d-anim refit: {n} {k}; keys {kb} original, {ka} refit; bytes {bb} → {ba}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let count = |k: &str| stats.get(k).map_or(0, |s| s[0]);
    assert!(
        count("j3d-bck") >= 54 && count("j3d-btk") >= 10 && count("j3d-brk") >= 8,
        "{stats:?}"
    );
}

/// Writes, re-reads and validates `a`, noting findings as failures.
fn round_trip_checked(a: &Anim, failures: &mut Vec<String>, path: &str) -> Anim {
    let bytes = a.write().unwrap();
    let diags = j3d_anim::validate(&bytes);
    if !diags.is_empty() {
        failures.push(format!("{path}: {diags:?}"));
    }
    Anim::parse(&bytes).unwrap()
}
