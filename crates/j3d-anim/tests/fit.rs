//! BCKs built from sampled joint poses (`j3d_anim::fit`): golden tables for a small case;
//! generated smooth, stepped and spinning tracks that validate cleanly and evaluate back within
//! the tolerance at every frame; and every real Galaxy BCK (`../shared/corpus/real/rarc`, skipped
//! when absent) sampled, refitted and evaluated again.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use j3d_anim::fit::{JointSamples, Tolerance, bck};
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
    }
}

/// Joint poses of `anim` at every frame, rotations in radians.
fn sample(anim: &Anim) -> Vec<JointSamples> {
    let joints = anim.table(0).map_or(0, Data::len);
    (0..joints)
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

fn keys(anim: &Anim) -> usize {
    match anim.table(0) {
        Some(Data::KeySrt(v)) => v.iter().flatten().map(|t| usize::from(t.count)).sum(),
        _ => 0,
    }
}

#[test]
fn real_bcks_refit() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "j3d-anim refit")
    else {
        return;
    };
    let all = gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten());
    let tol = Tolerance::default();
    let (mut files, mut before, mut after, mut size_before, mut size_after) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for (arc, path, data) in &all {
        if j3d_anim::sniff(data) != Some(Kind::Bck) {
            continue;
        }
        files += 1;
        let orig = Anim::parse(data).unwrap();
        let joints = sample(&orig);
        let refit = match bck(&joints, orig.loop_mode(), tol) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        let bytes = refit.write().unwrap();
        let diags = j3d_anim::validate(&bytes);
        let back = Anim::parse(&bytes).unwrap();
        let w = worst(&back, &joints, tol);
        if !diags.is_empty() || w > 1.0 || back.duration() != orig.duration() {
            failures.push(format!("{arc}:{path}: worst {w} × tol, {diags:?}"));
        }
        before += keys(&orig);
        after += keys(&back);
        size_before += data.len();
        size_after += bytes.len();
    }
    eprintln!(
        "j3d-anim refit: {files} BCKs; keys {before} original, {after} refit; bytes {size_before} → {size_after}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(files >= 54, "{files} BCKs");
}
