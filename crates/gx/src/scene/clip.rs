//! Keyframed animation clips as glTF stores them (what `Scene::from_glb` reads), evaluated the
//! way the glTF 2.0 specification says, so an importer can resample them at its own frame rate.

use serde_json::Value;

use super::{Scene, decompose};
use crate::mtx::Mtx34;

/// An animation: channels with their own keyframes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Clip {
    /// Name.
    pub name: String,
    /// The channels, in the file's order.
    pub channels: Vec<Channel>,
    /// The glTF animation's `extras`.
    pub extras: Option<Value>,
}

/// What a channel animates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The node's translation (3 values per key).
    Translation,
    /// The node's rotation, a unit quaternion x, y, z, w (4 values per key).
    Rotation,
    /// The node's scale (3 values per key).
    Scale,
    /// A `KHR_animation_pointer` JSON pointer into the glTF document as read (its indices are the
    /// file's, except that a `/nodes/n/…` pointer also sets [`Channel::node`]).
    Pointer(String),
}

/// How values between keys are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// The previous key's value.
    Step,
    /// Linear (spherical for rotations).
    #[default]
    Linear,
    /// Cubic Hermite spline: each key holds an in-tangent, the value and an out-tangent.
    CubicSpline,
}

/// [`Channel::node`] of a pointer channel that targets no node.
pub const NO_NODE: usize = usize::MAX;

/// One animated property: keyframe times and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// Index into [`Scene::nodes`]; [`NO_NODE`] for a pointer channel that targets no node.
    pub node: usize,
    /// The animated property.
    pub target: Target,
    /// How values between keys are found.
    pub interpolation: Interpolation,
    /// Key times in seconds, non-decreasing.
    pub times: Vec<f32>,
    /// The keys' values, flat: [`Channel::width`] per key, three times that for
    /// [`Interpolation::CubicSpline`] (in-tangent, value, out-tangent).
    pub values: Vec<f32>,
}

impl Channel {
    /// Values per sample (0 for a channel without keys).
    pub fn width(&self) -> usize {
        let per_key = match self.interpolation {
            Interpolation::CubicSpline => 3,
            _ => 1,
        };
        self.values
            .len()
            .checked_div(self.times.len() * per_key)
            .unwrap_or(0)
    }

    /// The value at time `t`: the first or last key's value outside the keys' range, else
    /// interpolated as glTF specifies (rotations by normalised spherical linear interpolation,
    /// or a normalised cubic Hermite spline). Empty for a channel without keys.
    pub fn sample(&self, t: f32) -> Vec<f32> {
        let w = self.width();
        let cubic = self.interpolation == Interpolation::CubicSpline;
        // The value of key `k` (the middle element of a cubic key).
        let value = |k: usize| -> &[f32] {
            let at = if cubic { (3 * k + 1) * w } else { k * w };
            self.values.get(at..at + w).unwrap_or(&[])
        };
        let (first, last) = match (self.times.first(), self.times.last()) {
            (Some(&a), Some(&b)) if w > 0 => (a, b),
            _ => return Vec::new(),
        };
        if t.is_nan() || t <= first {
            return value(0).to_vec();
        }
        if t >= last {
            return value(self.times.len() - 1).to_vec();
        }
        // The last key at or before t (t is inside the range, so k + 1 is a key).
        let k = self.times.partition_point(|&x| x <= t).saturating_sub(1);
        let (t0, t1) = (
            self.times.get(k).copied().unwrap_or(first),
            self.times.get(k + 1).copied().unwrap_or(last),
        );
        let span = t1 - t0;
        if self.interpolation == Interpolation::Step || span <= 0.0 {
            return value(k).to_vec();
        }
        let s = (t - t0) / span;
        let rotation = self.target == Target::Rotation && w == 4;
        let out = if cubic {
            let tangent = |k: usize, which: usize| {
                let at = (3 * k + which) * w;
                self.values.get(at..at + w).unwrap_or(&[])
            };
            let (b0, v0, v1, a1) = (tangent(k, 2), value(k), value(k + 1), tangent(k + 1, 0));
            let (s2, s3) = (s * s, s * s * s);
            let h = [
                2.0 * s3 - 3.0 * s2 + 1.0,
                span * (s3 - 2.0 * s2 + s),
                -2.0 * s3 + 3.0 * s2,
                span * (s3 - s2),
            ];
            (0..w)
                .map(|i| {
                    let at = |v: &[f32]| v.get(i).copied().unwrap_or(0.0);
                    h[0] * at(v0) + h[1] * at(b0) + h[2] * at(v1) + h[3] * at(a1)
                })
                .collect()
        } else if rotation {
            slerp(value(k), value(k + 1), s)
        } else {
            value(k)
                .iter()
                .zip(value(k + 1))
                .map(|(a, b)| a + (b - a) * s)
                .collect()
        };
        if rotation { normalised(out) } else { out }
    }
}

/// glTF's spherical linear interpolation: the short way round, linear where the quaternions
/// (nearly) coincide.
fn slerp(a: &[f32], b: &[f32], s: f32) -> Vec<f32> {
    let d: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let sign = if d < 0.0 { -1.0 } else { 1.0 };
    let angle = d.abs().min(1.0).acos();
    let (ka, kb) = if angle.sin().abs() < 1e-6 {
        (1.0 - s, s * sign)
    } else {
        let sa = angle.sin();
        (
            (angle * (1.0 - s)).sin() / sa,
            sign * (angle * s).sin() / sa,
        )
    };
    a.iter().zip(b).map(|(x, y)| ka * x + kb * y).collect()
}

fn normalised(v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 1e-12 && n.is_finite() {
        v.into_iter().map(|x| x / n).collect()
    } else {
        v
    }
}

/// `T · R · S` from a translation, a unit quaternion (x, y, z, w) and a scale (a glTF node's
/// TRS; [`crate::mtx::from_trs`]).
pub fn compose(t: [f32; 3], q: [f32; 4], s: [f32; 3]) -> Mtx34 {
    crate::mtx::from_trs(t, q, s)
}

impl Scene {
    /// Every node's local matrix at each of `times` under `clip` (`[node][time]`): the rest
    /// local with the clip's translation, rotation and scale channels applied (the node's rest
    /// value for a component no channel drives; a node without channels keeps its rest matrix
    /// exactly). Pointer channels are not applied.
    pub fn clip_locals(&self, clip: &Clip, times: &[f32]) -> Vec<Vec<Mtx34>> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let channels: Vec<&Channel> = clip
                    .channels
                    .iter()
                    .filter(|c| c.node == i && !matches!(c.target, Target::Pointer(_)))
                    .collect();
                if channels.is_empty() {
                    return vec![node.local; times.len()];
                }
                let rest = decompose(&node.local);
                times
                    .iter()
                    .map(|&t| {
                        let (mut tr, mut q, mut s) = rest;
                        for c in &channels {
                            let v = c.sample(t);
                            match (&c.target, v.as_slice()) {
                                (Target::Translation, &[x, y, z]) => tr = [x, y, z],
                                (Target::Rotation, &[x, y, z, w]) => q = [x, y, z, w],
                                (Target::Scale, &[x, y, z]) => s = [x, y, z],
                                _ => {}
                            }
                        }
                        compose(tr, q, s)
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn channel(
        target: Target,
        interpolation: Interpolation,
        times: &[f32],
        values: &[f32],
    ) -> Channel {
        Channel {
            node: 0,
            target,
            interpolation,
            times: times.to_vec(),
            values: values.to_vec(),
        }
    }

    #[test]
    fn step_linear_and_clamping() {
        let c = channel(
            Target::Translation,
            Interpolation::Linear,
            &[1.0, 2.0],
            &[0.0, 0.0, 0.0, 2.0, 4.0, 6.0],
        );
        assert_eq!(c.width(), 3);
        assert_eq!(c.sample(1.5), [1.0, 2.0, 3.0]);
        assert_eq!(c.sample(-3.0), [0.0; 3]);
        assert_eq!(c.sample(f32::NAN), [0.0; 3]);
        assert_eq!(c.sample(9.0), [2.0, 4.0, 6.0]);
        let s = Channel {
            interpolation: Interpolation::Step,
            ..c.clone()
        };
        assert_eq!(s.sample(1.99), [0.0; 3]);
        assert_eq!(s.sample(2.0), [2.0, 4.0, 6.0]);
        // No keys, or values that fit no key count: nothing to sample, no panic.
        assert!(
            channel(Target::Scale, Interpolation::Linear, &[], &[])
                .sample(0.0)
                .is_empty()
        );
        assert!(
            channel(
                Target::Scale,
                Interpolation::CubicSpline,
                &[0.0, 1.0],
                &[1.0]
            )
            .sample(0.5)
            .is_empty()
        );
    }

    #[test]
    fn rotations_take_the_short_way_and_stay_unit() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // Identity to a half turn about Z written with negative w: the short way is a quarter
        // turn about Z at the midpoint, not through the long way round.
        let c = channel(
            Target::Rotation,
            Interpolation::Linear,
            &[0.0, 1.0],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -h, -h],
        );
        let q = c.sample(0.5);
        let want = [
            0.0,
            0.0,
            (std::f32::consts::PI / 8.0).sin(),
            (std::f32::consts::PI / 8.0).cos(),
        ];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() < 1e-5, "{q:?}");
        }
        // Nearly equal keys interpolate linearly, still unit length.
        let c = channel(
            Target::Rotation,
            Interpolation::Linear,
            &[0.0, 1.0],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1e-8, 1.0],
        );
        let q = c.sample(0.5);
        assert!((q.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-6);
        // A cubic rotation is normalised.
        let c = channel(
            Target::Rotation,
            Interpolation::CubicSpline,
            &[0.0, 1.0],
            &[0.0; 4]
                .iter()
                .chain(&[0.0, 0.0, 0.0, 1.0])
                .chain(&[0.0; 4])
                .chain(&[0.0; 4])
                .chain(&[0.0, 0.0, h, h])
                .chain(&[0.0; 4])
                .copied()
                .collect::<Vec<_>>(),
        );
        let q = c.sample(0.3);
        assert!(
            (q.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-6,
            "{q:?}"
        );
    }

    #[test]
    fn clip_locals_compose_channels_over_the_rest_pose() {
        let mut s = Scene::new("t");
        let rest = compose([1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0], [2.0, 2.0, 2.0]);
        s.nodes.push(super::super::Node::new("a", None, rest));
        s.nodes.push(super::super::Node::new("b", Some(0), rest));
        let clip = Clip {
            name: "c".into(),
            channels: vec![
                channel(
                    Target::Translation,
                    Interpolation::Linear,
                    &[0.0, 1.0],
                    &[0.0; 6],
                ),
                channel(
                    Target::Pointer("/materials/0/alphaCutoff".into()),
                    Interpolation::Linear,
                    &[0.0],
                    &[0.5],
                ),
            ],
            extras: None,
        };
        let l = s.clip_locals(&clip, &[0.0, 0.5]);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0][1], compose([0.0; 3], [0.0, 0.0, 0.0, 1.0], [2.0; 3]));
        assert_eq!(l[1], vec![rest; 2]);
    }
}
