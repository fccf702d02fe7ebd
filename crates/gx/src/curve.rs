//! Cubic Hermite key curves as J3D and sysdolphin animations store them, and the fitter importers
//! use to turn per-frame samples (a glTF animation sampled at every frame) into as few keys as
//! reproduce them within a tolerance.
//!
//! Evaluation is the game's: keys sorted by frame, the value clamped to the first and last key,
//! between two keys `p(t) = h00 p0 + h10 Δ s0 + h01 p1 + h11 Δ s1` with `t` the fraction of the
//! segment, `Δ` its length in frames and slopes per frame (the out slope of the first key, the
//! in slope of the second). Two keys at one frame make a jump: the later key wins at that frame.
//!
//! The fitter places keys on sample frames, greedily extending each segment as far as a
//! least-squares choice of its slopes (reweighted towards the smallest largest error when that
//! misses) keeps every sample within the tolerance, and also holds the
//! curve at every half frame inside the range of the two samples around it (plus the tolerance),
//! so a jump between two frames never swings wide where the game shows fractional frames.

/// One key: frame, value and the slopes (value per frame) into and out of it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Key {
    /// Frame of the key.
    pub frame: f32,
    /// Value at the key.
    pub value: f32,
    /// Slope of the segment ending here, per frame.
    pub in_slope: f32,
    /// Slope of the segment starting here, per frame.
    pub out_slope: f32,
}

/// Cubic Hermite between `p0` and `p1` with end slopes `s0`, `s1` (already scaled by the segment
/// length) at parameter `t` ∈ [0, 1].
pub fn hermite(p0: f32, p1: f32, s0: f32, s1: f32, t: f32) -> f32 {
    let t2 = t * t;
    let t3 = t2 * t;
    (2.0 * t3 - 3.0 * t2 + 1.0) * p0
        + (-2.0 * t3 + 3.0 * t2) * p1
        + (t3 - 2.0 * t2 + t) * s0
        + (t3 - t2) * s1
}

/// The curve of `count` keys, read through `key` (so a file's value table is evaluated in place),
/// at `frame`. `None` when there are no keys or a key cannot be read.
pub fn eval_by(count: usize, key: impl Fn(usize) -> Option<Key>, frame: f32) -> Option<f32> {
    let first = key(0)?;
    if count == 1 || frame <= first.frame {
        return Some(first.value);
    }
    let last = key(count - 1)?;
    if frame >= last.frame {
        return Some(last.value);
    }
    let mut k0 = first;
    for k in 1..count {
        let k1 = key(k)?;
        if frame < k1.frame {
            let len = k1.frame - k0.frame;
            if len <= 0.0 {
                return Some(k1.value);
            }
            return Some(hermite(
                k0.value,
                k1.value,
                k0.out_slope * len,
                k1.in_slope * len,
                (frame - k0.frame) / len,
            ));
        }
        k0 = k1;
    }
    Some(last.value)
}

/// `keys` at `frame` (0 without keys).
pub fn eval(keys: &[Key], frame: f32) -> f32 {
    eval_by(keys.len(), |i| keys.get(i).copied(), frame).unwrap_or(0.0)
}

/// Fits [`Key`]s through `samples` (frames 0, 1, …) so that [`eval`] reproduces every sample
/// within `tol`, with as few keys as the fitter finds: the fewer of [`Fit::shared`] and
/// [`Fit::split`] (shared slopes on a tie). A constant gives one key.
pub fn fit_hermite(samples: &[f32], tol: f32) -> Vec<Key> {
    Fit::new(tol).fewest(&Track::whole(samples))
}

/// [`fit_hermite`] for samples at `frames` (ascending) that need not be whole: keys go only on
/// the whole-numbered ones (and the first and last), the samples between them are fitted too.
/// A source keyed between frames (a 24 fps glTF clip has keys on half frames of a 60 fps
/// timeline) then plays its own values where the game shows fractional frames. A one-frame
/// segment whose inner samples no cubic holds within `tol` keeps the closest slopes found.
pub fn fit_hermite_at(frames: &[f32], samples: &[f32], tol: f32) -> Vec<Key> {
    Fit::new(tol).fewest(&Track::new(frames, samples))
}

/// Samples to fit: values at frames, and which of them may hold a key.
struct Track<'a> {
    frames: Vec<f32>,
    y: &'a [f32],
    /// Indices of the samples a key may go on, ascending, the first and last included.
    keys: Vec<usize>,
}

impl<'a> Track<'a> {
    fn new(frames: &[f32], y: &'a [f32]) -> Self {
        let n = y.len().min(frames.len());
        let frames: Vec<f32> = frames.iter().copied().take(n).collect();
        let keys = (0..n)
            .filter(|&i| i == 0 || i + 1 == n || frames.get(i).is_some_and(|f| f.fract() == 0.0))
            .collect();
        Track { frames, y, keys }
    }

    /// Samples at frames 0, 1, …, each a key's place.
    fn whole(y: &'a [f32]) -> Self {
        Track {
            frames: (0..y.len()).map(|i| i as f32).collect(),
            y,
            keys: (0..y.len()).collect(),
        }
    }

    fn at(&self, i: usize) -> f32 {
        self.y.get(i).copied().unwrap_or(0.0)
    }

    fn frame(&self, i: usize) -> f32 {
        self.frames.get(i).copied().unwrap_or(0.0)
    }
}

/// Fitter settings.
#[derive(Clone, Copy)]
pub struct Fit<'a> {
    /// Largest error allowed at any sample.
    pub tol: f32,
    /// What storing does to a key value or slope (rounding to i16 units, to fixed point): the
    /// fitter checks the curve the file will hold. The key frames are whole numbers and the
    /// values the samples, so a quantisation error within `tol` always has a solution.
    pub quantize: &'a dyn Fn(f32) -> f32,
}

impl std::fmt::Debug for Fit<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fit").field("tol", &self.tol).finish()
    }
}

/// Weight of the pull towards the one-sided finite differences at the segment ends: small, so it
/// only decides slopes the samples leave open (segments without or with one inner sample).
const PULL: f64 = 1e-6;

impl Fit<'static> {
    /// Settings for f32 storage (no quantisation).
    pub fn new(tol: f32) -> Self {
        Fit {
            tol,
            quantize: &|x| x,
        }
    }
}

impl Fit<'_> {
    /// Keys with one slope each (in = out: J3D tangent mode 0, three values a key).
    pub fn shared(&self, samples: &[f32]) -> Vec<Key> {
        self.fit(&Track::whole(samples), true)
    }

    /// Keys whose in and out slopes differ (J3D tangent mode 1, four values a key): each segment
    /// fits its own two slopes, which follows corners and jumps with fewer keys.
    pub fn split(&self, samples: &[f32]) -> Vec<Key> {
        self.fit(&Track::whole(samples), false)
    }

    /// The fewer keys of the shared and split fits (shared on a tie).
    fn fewest(&self, track: &Track<'_>) -> Vec<Key> {
        let shared = self.fit(track, true);
        let split = self.fit(track, false);
        if split.len() < shared.len() {
            split
        } else {
            shared
        }
    }

    fn fit(&self, tr: &Track<'_>, shared: bool) -> Vec<Key> {
        let q = self.quantize;
        let (Some(&first), Some(&last)) = (tr.keys.first(), tr.keys.last()) else {
            return Vec::new();
        };
        if let Some(c) = self.constant(tr.y) {
            return vec![Key {
                frame: tr.frame(first),
                value: c,
                in_slope: 0.0,
                out_slope: 0.0,
            }];
        }
        let n = tr.keys.len() - 1;
        let mut keys = vec![Key {
            frame: tr.frame(first),
            value: q(tr.at(first)),
            ..Key::default()
        }];
        let key = |k: usize| tr.keys.get(k).copied().unwrap_or(last);
        let mut a = 0;
        // The slope the next segment must start with (shared slopes after the first segment).
        let mut fixed: Option<f32> = None;
        while a < n {
            let seg = |b: usize| self.segment(tr, key(a), key(b), fixed, false);
            // Gallop, then bisect between the last length that fits and the first that fails.
            let mut good = (a + 1, seg(a + 1));
            let mut step = 2;
            let mut bad = None;
            while good.0 < n {
                let b = (a + step).min(n);
                match seg(b) {
                    Some(s) => good = (b, Some(s)),
                    None => {
                        bad = Some(b);
                        break;
                    }
                }
                step *= 2;
            }
            if let Some(mut hi) = bad {
                while hi - good.0 > 1 {
                    let mid = good.0 + (hi - good.0) / 2;
                    match seg(mid) {
                        Some(s) => good = (mid, Some(s)),
                        None => hi = mid,
                    }
                }
            }
            let (b, slopes) = good;
            // A one-key-step segment without inner samples always has a solution: the chord
            // (its pull target) or, with a fixed start slope that fails, the same slope at both
            // ends (the half frame is then the mean of its samples). With inner samples (frames
            // between two whole ones) it keeps the closest slopes when none hold.
            let inner = key(b) > key(a) + 1;
            let (s0, s1) = slopes
                .or_else(|| {
                    inner
                        .then(|| self.segment(tr, key(a), key(b), fixed, true))
                        .flatten()
                })
                .or_else(|| fixed.map(|s| (s, s)))
                .unwrap_or((0.0, 0.0));
            if let Some(k) = keys.last_mut() {
                k.out_slope = s0;
                if a == 0 || shared {
                    k.in_slope = s0;
                }
            }
            keys.push(Key {
                frame: tr.frame(key(b)),
                value: q(tr.at(key(b))),
                in_slope: s1,
                out_slope: s1,
            });
            fixed = shared.then_some(s1);
            a = b;
        }
        keys
    }

    /// The stored value a constant track takes when every sample is within `tol` of it.
    fn constant(&self, y: &[f32]) -> Option<f32> {
        let (lo, hi) = y
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        let first = (self.quantize)(*y.first()?);
        let mid = (self.quantize)(lo + (hi - lo) / 2.0);
        [first, mid]
            .into_iter()
            .find(|c| y.iter().all(|v| (v - c).abs() <= self.tol))
    }

    /// The slopes (out of sample `a`'s key, into sample `b`'s, per frame, quantised) that keep
    /// every sample of `a..=b` within `tol` and every point halfway between two samples within
    /// their range, or `None` (`closest`: the least-squares slopes whatever their error, for a
    /// segment that cannot be split further). `fixed` is the out slope key `a` already has
    /// (shared slopes).
    ///
    /// Tries the least-squares slopes first; when they fail, the other slope re-solved after
    /// quantising one (rounding can be undone by its partner), then a few reweighted solutions
    /// that move towards the smallest largest error (Lawson's iteration), which is what the
    /// tolerance asks for.
    fn segment(
        &self,
        tr: &Track<'_>,
        a: usize,
        b: usize,
        fixed: Option<f32>,
        closest: bool,
    ) -> Option<(f32, f32)> {
        let q = self.quantize;
        let at = |i: usize| tr.at(i);
        let (p0, p1) = (q(at(a)), q(at(b)));
        let (fa, fb) = (tr.frame(a), tr.frame(b));
        let len = fb - fa;
        // Least squares for m = slope × len (in f64: with one inner sample the normal equations
        // are nearly singular), pulled weakly to the one-sided differences. The value part is
        // `p0 + h01 (p1 − p0)` (h00 = 1 − h01), so a flat run leaves exactly zero to fit.
        let (p0d, p1d, lend) = (f64::from(p0), f64::from(p1), f64::from(len));
        let diff = |i: usize, j: usize| {
            let span = f64::from(tr.frame(j) - tr.frame(i));
            if span > 0.0 {
                f64::from(at(j) - at(i)) / span * lend
            } else {
                0.0
            }
        };
        let (d0, d1) = (diff(a, a + 1), diff(b - 1, b));
        // Per inner sample: the two slope bases and what is left after the values.
        let inner: Vec<(f64, f64, f64)> = (a + 1..b)
            .map(|i| {
                let t = f64::from(tr.frame(i) - fa) / lend;
                let (t2, t3) = (t * t, t * t * t);
                let r = f64::from(at(i)) - p0d - (3.0 * t2 - 2.0 * t3) * (p1d - p0d);
                (t3 - 2.0 * t2 + t, t3 - t2, r)
            })
            .collect();
        // Weighted least squares with either m given.
        let solve = |w: &[f64], m0: Option<f64>, m1: Option<f64>| -> Option<(f64, f64)> {
            let (mut uu, mut uv, mut vv, mut ur, mut vr) = (PULL, 0.0, PULL, PULL * d0, PULL * d1);
            for (&(u, v, r), &w) in inner.iter().zip(w) {
                uu += w * u * u;
                uv += w * u * v;
                vv += w * v * v;
                ur += w * u * r;
                vr += w * v * r;
            }
            match (m0, m1) {
                (Some(m0), _) => Some((m0, (vr - uv * m0) / vv)),
                (None, Some(m1)) => Some(((ur - uv * m1) / uu, m1)),
                (None, None) => {
                    let det = uu * vv - uv * uv;
                    (det.abs() >= f64::MIN_POSITIVE)
                        .then(|| ((ur * vv - vr * uv) / det, (vr * uu - ur * uv) / det))
                }
            }
        };
        let slope = |m: f64| q((m / lend) as f32);
        let m_of = |s: f32| f64::from(s) * lend;
        let tol = self.tol;
        let fixed_m = fixed.map(m_of);
        if closest {
            let w = vec![1.0; inner.len()];
            let (m0, m1) = solve(&w, fixed_m, None)?;
            return Some((fixed.unwrap_or_else(|| slope(m0)), slope(m1)));
        }
        // The quantised slopes and the curve's error at each inner sample, when the segment holds.
        let check = |m0: f64, m1: f64, errs: &mut Vec<f64>| -> Option<(f32, f32)> {
            let s0 = fixed.unwrap_or_else(|| slope(m0));
            let s1 = slope(m1);
            let keys = [
                Key {
                    frame: fa,
                    value: p0,
                    in_slope: s0,
                    out_slope: s0,
                },
                Key {
                    frame: fb,
                    value: p1,
                    in_slope: s1,
                    out_slope: s1,
                },
            ];
            errs.clear();
            errs.extend((a + 1..b).map(|i| f64::from((eval(&keys, tr.frame(i)) - at(i)).abs())));
            let ok = [a, b]
                .iter()
                .all(|&i| (eval(&keys, tr.frame(i)) - at(i)).abs() <= tol)
                && errs.iter().all(|&e| e <= f64::from(tol))
                && (a..b).all(|i| {
                    let (l, r) = (at(i), at(i + 1));
                    let v = eval(&keys, (tr.frame(i) + tr.frame(i + 1)) / 2.0);
                    v >= l.min(r) - tol && v <= l.max(r) + tol
                });
            ok.then_some((s0, s1))
        };
        let mut w = vec![1.0; inner.len()];
        let mut errs = Vec::with_capacity(inner.len());
        let (m0, m1) = solve(&w, fixed_m, None)?;
        if let Some(s) = check(m0, m1, &mut errs) {
            return Some(s);
        }
        if fixed.is_none() {
            for (f0, f1) in [(Some(m_of(slope(m0))), None), (None, Some(m_of(slope(m1))))] {
                if let Some((n0, n1)) = solve(&w, f0, f1)
                    && let Some(s) = check(n0, n1, &mut errs)
                {
                    return Some(s);
                }
            }
            check(m0, m1, &mut errs);
        }
        for _ in 0..LAWSON_ROUNDS {
            let total: f64 = w.iter().zip(&errs).map(|(w, e)| w * e).sum();
            if total <= 0.0 {
                return None;
            }
            for (w, e) in w.iter_mut().zip(&errs) {
                *w *= e / total * inner.len() as f64;
            }
            let (m0, m1) = solve(&w, fixed_m, None)?;
            if let Some(s) = check(m0, m1, &mut errs) {
                return Some(s);
            }
        }
        None
    }
}

/// Reweighted solutions tried on a segment whose least-squares slopes miss the tolerance.
const LAWSON_ROUNDS: usize = 4;

/// Makes a sequence of angles (radians) continuous: each moves by whole turns to within half a
/// turn of the one before, so keys interpolate the short way (Euler tracks from matrices jump by
/// 2π where the decomposition wraps).
pub fn unwrap_angles(angles: &mut [f32]) {
    let mut prev: Option<f32> = None;
    for a in angles.iter_mut() {
        if let Some(p) = prev {
            *a = nearest_turn(*a, p);
        }
        prev = Some(*a);
    }
}

/// `a` plus the whole number of turns that brings it nearest to `to`.
pub fn nearest_turn(a: f32, to: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    a - ((a - to) / tau).round() * tau
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn max_err(keys: &[Key], y: &[f32]) -> f32 {
        y.iter()
            .enumerate()
            .map(|(i, v)| (eval(keys, i as f32) - v).abs())
            .fold(0.0, f32::max)
    }

    #[test]
    fn constant_line_and_golden() {
        assert_eq!(fit_hermite(&[], 0.1), []);
        let c = fit_hermite(&[2.0, 2.05, 1.95, 2.0], 0.1);
        assert_eq!(c.len(), 1);
        assert!(max_err(&c, &[2.0, 2.05, 1.95, 2.0]) <= 0.1);
        let line: Vec<f32> = (0..50).map(|i| 3.0 - 0.5 * i as f32).collect();
        let k = fit_hermite(&line, 1e-4);
        assert_eq!(k.len(), 2);
        assert_eq!(
            (k[0].frame, k[0].value, k[1].frame, k[1].value),
            (0.0, 3.0, 49.0, -21.5)
        );
        assert!((k[0].out_slope + 0.5).abs() < 1e-4 && (k[1].in_slope + 0.5).abs() < 1e-4);
        // A quadratic is one cubic segment: slopes 0 and 2 × 4 / 4 = 2 per frame.
        let quad = [0.0, 0.25, 1.0, 2.25, 4.0].map(|v: f32| v);
        let k = fit_hermite(&quad, 1e-4);
        assert_eq!(k.len(), 2);
        assert!(k[0].out_slope.abs() < 1e-3 && (k[1].in_slope - 2.0).abs() < 1e-3);
    }

    #[test]
    fn step_needs_adjacent_keys() {
        // 0 for frames 0–4, 10 from 5 on: keys at 0, 4, 5 and 9 (split slopes: flat, ramp, flat).
        let y: Vec<f32> = (0..10).map(|i| if i < 5 { 0.0 } else { 10.0 }).collect();
        let k = Fit::new(0.01).split(&y);
        assert_eq!(
            k.iter().map(|k| k.frame).collect::<Vec<_>>(),
            [0.0, 4.0, 5.0, 9.0]
        );
        assert!(max_err(&k, &y) <= 0.01);
        // No swing past the samples between frames.
        for f in 0..90 {
            let v = eval(&k, f as f32 / 10.0);
            assert!((-0.01..=10.01).contains(&v), "{f}: {v}");
        }
        assert!(max_err(&fit_hermite(&y, 0.01), &y) <= 0.01);
    }

    #[test]
    fn same_frame_keys_jump() {
        // Two keys at frame 5: up to 5 the first segment, from 5 on the later key.
        let k = [
            Key {
                frame: 0.0,
                value: 0.0,
                ..Key::default()
            },
            Key {
                frame: 5.0,
                value: 0.0,
                ..Key::default()
            },
            Key {
                frame: 5.0,
                value: 10.0,
                ..Key::default()
            },
            Key {
                frame: 10.0,
                value: 10.0,
                ..Key::default()
            },
        ];
        assert_eq!(eval(&k, 4.99), 0.0);
        assert_eq!(eval(&k, 5.0), 10.0);
        assert_eq!(eval(&k, 7.0), 10.0);
        assert_eq!(eval(&k, -1.0), 0.0);
        assert_eq!(eval(&k, 11.0), 10.0);
    }

    #[test]
    fn quantised_fit_checks_stored_values() {
        // Whole units, as J3D stores rotations: the curve checked is the rounded one.
        let round = |x: f32| x.round();
        let fit = Fit {
            tol: 0.6,
            quantize: &round,
        };
        let y: Vec<f32> = (0..40).map(|i| 300.0 * (i as f32 * 0.2).sin()).collect();
        for k in [fit.shared(&y), fit.split(&y)] {
            assert!(
                k.iter()
                    .all(|k| k.value.fract() == 0.0 && k.out_slope.fract() == 0.0)
            );
            assert!(max_err(&k, &y) <= 0.6);
        }
    }

    #[test]
    fn unwrap() {
        let pi = std::f32::consts::PI;
        let mut a = [3.0, -3.0, 3.1, -pi + 0.1];
        unwrap_angles(&mut a);
        assert!((a[1] - (2.0 * pi - 3.0)).abs() < 1e-5);
        assert!((a[3] - (pi + 0.1)).abs() < 1e-5);
    }
}
