//! The Hermite key fitter (`gx::curve`) on generated tracks: smooth curves, step functions, noise
//! and quantised storage all come back within the tolerance at every sample frame, with key
//! counts bounded by the track's shape; Euler decomposition inverts `mtx::srt`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

use gx::curve::{Fit, Key, eval, fit_hermite, fit_hermite_at};
use proptest::prelude::*;

fn max_err(keys: &[Key], y: &[f32]) -> f32 {
    y.iter()
        .enumerate()
        .map(|(i, v)| (eval(keys, i as f32) - v).abs())
        .fold(0.0, f32::max)
}

/// Every fitter result for `y` within `tol`; returns the key counts (fewest, shared, split).
fn check(y: &[f32], tol: f32) -> [usize; 3] {
    let fit = Fit::new(tol);
    let all = [fit_hermite(y, tol), fit.shared(y), fit.split(y)];
    for k in &all {
        assert!(max_err(k, y) <= tol, "{} > {tol}: {k:?}", max_err(k, y));
        assert!(k.len() <= y.len());
        assert!(k.windows(2).all(|w| w[0].frame < w[1].frame));
    }
    let shared = &all[1];
    assert!(shared.iter().all(|k| k.in_slope == k.out_slope));
    all.map(|k| k.len())
}

/// A track keyed at 24 per second on a 60-frame timeline: linear between its keys, which fall
/// on every 2.5 frames, so every other key sits on a half frame.
fn keyed_at_24(keys: &[f32], frame: f32) -> f32 {
    let t = frame / 2.5;
    let i = (t.floor() as usize).min(keys.len() - 2);
    let u = t - i as f32;
    keys[i] + (keys[i + 1] - keys[i]) * u
}

proptest! {
    /// Samples between whole frames are fitted too, keys staying on whole frames: a clip keyed
    /// on half frames plays its own values there (the game's fractional frames), where a fit
    /// of the whole frames alone cuts its corners.
    #[test]
    fn samples_between_frames(
        keys in proptest::collection::vec(-3f32..3.0, 2..20),
        tol in 1e-4f32..1e-2,
    ) {
        let end = 2.5 * (keys.len() - 1) as f32;
        // Whole frames, and the half-frame keys (the last sample may be one: a key goes there).
        let mut frames: Vec<f32> = (0..=end.floor() as u32).map(|f| f as f32).collect();
        frames.extend((1..keys.len()).map(|k| 2.5 * k as f32).filter(|f| f.fract() != 0.0));
        frames.sort_by(f32::total_cmp);
        let y: Vec<f32> = frames.iter().map(|&f| keyed_at_24(&keys, f)).collect();
        let k = fit_hermite_at(&frames, &y, tol);
        prop_assert!(k.iter().all(|k| k.frame.fract() == 0.0 || k.frame == end), "{:?}", k);
        for (&f, &v) in frames.iter().zip(&y) {
            // A one-frame segment holds one inner sample exactly (two free slopes, or one).
            prop_assert!((eval(&k, f) - v).abs() <= tol * 1.01, "frame {}: {} vs {}", f, eval(&k, f), v);
        }
    }
}

#[test]
fn whole_frames_alone_cut_corners() {
    // 0 → 1 over frames 0–2.5, back to 0 at 5: the peak is on a half frame.
    let keys = [0.0, 1.0, 0.0];
    let whole: Vec<f32> = (0..=5).map(|f| keyed_at_24(&keys, f as f32)).collect();
    let cut = fit_hermite(&whole, 1e-4);
    assert!((eval(&cut, 2.5) - 1.0).abs() > 0.05, "{}", eval(&cut, 2.5));
    let frames = [0.0, 1.0, 2.0, 2.5, 3.0, 4.0, 5.0];
    let y: Vec<f32> = frames.iter().map(|&f| keyed_at_24(&keys, f)).collect();
    let held = fit_hermite_at(&frames, &y, 1e-4);
    assert!(
        (eval(&held, 2.5) - 1.0).abs() <= 1e-4,
        "{}",
        eval(&held, 2.5)
    );
    assert_eq!(fit_hermite_at(&[0.0, 1.0], &[2.0, 2.0], 1e-4).len(), 1);
}

proptest! {
    #[test]
    fn smooth_curves(
        n in 1usize..240,
        waves in proptest::collection::vec((0.01f32..0.5, -50f32..50.0, 0f32..6.3), 1..4),
        c in -100f32..100.0,
        tol in 0.001f32..1.0,
    ) {
        let y: Vec<f32> = (0..=n)
            .map(|i| c + waves.iter().map(|&(w, a, p)| a * (w * i as f32 + p).sin()).sum::<f32>())
            .collect();
        check(&y, tol);
    }

    #[test]
    fn step_functions(
        runs in proptest::collection::vec((1usize..30, -100f32..100.0), 1..8),
        tol in 0.001f32..0.5,
    ) {
        let y: Vec<f32> = runs.iter().flat_map(|&(len, v)| std::iter::repeat_n(v, len)).collect();
        let [fewest, _, split] = check(&y, tol);
        // A flat run costs at most its two ends.
        prop_assert!(split <= 2 * runs.len() && fewest <= split, "{fewest} {split} for {}", runs.len());
    }

    #[test]
    fn noise(y in proptest::collection::vec(-1000f32..1000.0, 1..120), tol in 0.0f32..10.0) {
        check(&y, tol);
    }

    #[test]
    fn lines_and_constants(
        n in 1usize..300,
        a in -100f32..100.0,
        b in 0.01f32..5.0,
        down in any::<bool>(),
        wobble in 0f32..0.009,
    ) {
        let b = if down { -b } else { b };
        let line: Vec<f32> = (0..=n).map(|i| a + b * i as f32).collect();
        // Well under the line's rise, well over f32 rounding.
        let tol = 1e-6 * (1.0 + a.abs() + (b * n as f32).abs());
        prop_assert_eq!(fit_hermite(&line, tol).len(), 2);
        let flat: Vec<f32> = (0..=n).map(|i| a + if i % 2 == 0 { wobble } else { -wobble }).collect();
        prop_assert_eq!(fit_hermite(&flat, 0.01).len(), 1);
    }

    #[test]
    fn quantised_storage(
        n in 1usize..150,
        amp in 1f32..20000.0,
        w in 0.01f32..0.8,
        tol in 0.51f32..5.0,
    ) {
        // i16 units, as J3D rotations store them: values and slopes rounded and clamped.
        let q = |x: f32| x.round().clamp(-32768.0, 32767.0);
        let fit = Fit { tol, quantize: &q };
        let y: Vec<f32> = (0..=n).map(|i| amp * (w * i as f32).sin()).collect();
        for k in [fit.shared(&y), fit.split(&y)] {
            prop_assert!(max_err(&k, &y) <= tol);
            prop_assert!(k.iter().all(|k| k.value == q(k.value) && k.in_slope == q(k.in_slope) && k.out_slope == q(k.out_slope)));
        }
    }

    #[test]
    fn any_floats_never_panic(y in proptest::collection::vec(any::<f32>(), 0..60), tol in any::<f32>()) {
        // NaN, infinities and extremes: keys on increasing frames, at most one per sample.
        for k in [fit_hermite(&y, tol), Fit::new(tol).shared(&y), Fit::new(tol).split(&y)] {
            prop_assert!(k.len() <= y.len());
            prop_assert!(k.windows(2).all(|w| w[0].frame < w[1].frame));
        }
    }

    #[test]
    fn euler_inverts_srt(
        r in proptest::array::uniform3(-3.1f32..3.1),
        s in proptest::array::uniform3(0.1f32..4.0),
        t in proptest::array::uniform3(-100f32..100.0),
    ) {
        let m = gx::mtx::srt(r, s, t);
        let (ss, e, tt) = gx::mtx::decompose_srt(&m, [0.0; 3]);
        let back = gx::mtx::srt(e, ss, tt);
        for (a, b) in m.iter().flatten().zip(back.iter().flatten()) {
            prop_assert!((a - b).abs() < 1e-3 * (1.0 + b.abs()), "{m:?} vs {back:?}");
        }
        // Near the source angles, the source angles (up to whole turns) unless Y is at ±90°.
        if (r[1].abs() - std::f32::consts::FRAC_PI_2).abs() > 0.05 {
            let e = gx::mtx::euler_xyz_near(&m, r);
            prop_assert!(e.iter().zip(r).all(|(a, b)| (a - b).abs() < 2e-3), "{e:?} vs {r:?}");
        }
    }
}

/// Golden tables: small tracks and the keys the fitter gives them.
#[test]
fn golden_keys() {
    let k = |frame: f32, value: f32, in_slope: f32, out_slope: f32| Key {
        frame,
        value,
        in_slope,
        out_slope,
    };
    // A ramp up and a hold: the corner at frame 3 takes split slopes (1 in, 0 out).
    let y = [0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0];
    assert_eq!(
        Fit::new(1e-3).split(&y),
        [
            k(0.0, 0.0, 1.0, 1.0),
            k(3.0, 3.0, 1.0, 0.0),
            k(6.0, 3.0, 0.0, 0.0)
        ]
    );
    assert_eq!(fit_hermite(&y, 1e-3).len(), 3);
    // One sample, and a constant: one key.
    assert_eq!(fit_hermite(&[7.0], 0.0), [k(0.0, 7.0, 0.0, 0.0)]);
    assert_eq!(fit_hermite(&[7.0; 9], 0.0), [k(0.0, 7.0, 0.0, 0.0)]);
    // Two samples: the chord.
    assert_eq!(
        fit_hermite(&[1.0, 3.0], 0.0),
        [k(0.0, 1.0, 2.0, 2.0), k(1.0, 3.0, 2.0, 2.0)]
    );
}
