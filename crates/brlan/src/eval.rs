//! Evaluation at a frame as NW4R computes it (`nw4r::lyt` animation: `GetHermiteCurveValue`,
//! `GetStepCurveValue`): before the first key the first value, after the last key the last, a
//! binary search for the segment, a frame within 0.001 of a key takes that key (the later of
//! two keys on the same frame), and the Hermite basis evaluated in `f32` in the game's order.

use crate::model::{Content, HermiteKey, Info, Keys, StepKey, Target};

/// Frames closer than this to a key take the key's value.
const SAME: f32 = 0.001;

fn same(a: f32, b: f32) -> bool {
    let c = a - b;
    -SAME < c && c < SAME
}

/// A step curve's value at `frame` (`None` without keys).
pub fn step(keys: &[StepKey], frame: f32) -> Option<u16> {
    let first = keys.first()?;
    let last = keys.last()?;
    if keys.len() == 1 || frame <= first.frame.get() {
        return Some(first.value);
    }
    if frame >= last.frame.get() {
        return Some(last.value);
    }
    let (mut left, mut right) = (0, keys.len() - 1);
    while left + 1 != right && left != right {
        let center = (left + right) / 2;
        if frame < keys.get(center)?.frame.get() {
            right = center;
        } else {
            left = center;
        }
    }
    let r = keys.get(right)?;
    if same(frame, r.frame.get()) {
        return Some(r.value);
    }
    Some(keys.get(left)?.value)
}

/// A Hermite curve's value at `frame` (`None` without keys).
pub fn hermite(keys: &[HermiteKey], frame: f32) -> Option<f32> {
    let first = keys.first()?;
    let last = keys.last()?;
    if keys.len() == 1 || frame <= first.frame.get() {
        return Some(first.value.get());
    }
    if frame >= last.frame.get() {
        return Some(last.value.get());
    }
    let (mut left, mut right) = (0, keys.len() - 1);
    while left + 1 != right && left != right {
        let center = (left + right) / 2;
        if frame <= keys.get(center)?.frame.get() {
            right = center;
        } else {
            left = center;
        }
    }
    let (l, r) = (keys.get(left)?, keys.get(right)?);
    if same(frame, r.frame.get()) {
        if let Some(next) = keys.get(right + 1)
            && next.frame == r.frame
        {
            return Some(next.value.get());
        }
        return Some(r.value.get());
    }
    let t1 = frame - l.frame.get();
    let t2 = 1.0 / (r.frame.get() - l.frame.get());
    let (v0, v1, s0, s1) = (l.value.get(), r.value.get(), l.slope.get(), r.slope.get());
    let t1t1t2 = t1 * t1 * t2;
    let t1t1t2t2 = t1t1t2 * t2;
    let t1t1t1t2t2 = t1 * t1t1t2t2;
    let t1t1t1t2t2t2 = t1t1t1t2t2 * t2;
    Some(
        v0 * (2.0 * t1t1t1t2t2t2 - 3.0 * t1t1t2t2 + 1.0)
            + v1 * (-2.0 * t1t1t1t2t2t2 + 3.0 * t1t1t2t2)
            + s0 * (t1t1t1t2t2 - 2.0 * t1t1t2 + t1)
            + s1 * (t1t1t1t2t2 - t1t1t2),
    )
}

/// A target's value at a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A step curve's value (visibility: non-zero is visible; texture pattern: file index).
    Step(u16),
    /// A Hermite curve's value.
    Float(f32),
}

impl Value {
    /// As a vertex colour or alpha byte, as the game stores it: +0.5, then to `u8`
    /// (saturating; a step value as is, saturated).
    pub fn to_u8(self) -> u8 {
        match self {
            Value::Step(v) => u8::try_from(v).unwrap_or(u8::MAX),
            Value::Float(v) => (v + 0.5) as u8,
        }
    }

    /// As a material colour component: +0.5, to `i16`, clamped to the TEV's -1024…1023.
    pub fn to_color10(self) -> i16 {
        match self {
            Value::Step(v) => i16::try_from(v).unwrap_or(i16::MAX).min(1023),
            Value::Float(v) => ((v + 0.5) as i16).clamp(-1024, 1023),
        }
    }

    /// As a float (a step value converted).
    pub fn to_f32(self) -> f32 {
        match self {
            Value::Step(v) => f32::from(v),
            Value::Float(v) => v,
        }
    }
}

/// A target's value at `frame` (`None` without keys).
pub fn target(t: &Target, frame: f32) -> Option<Value> {
    match &t.keys {
        Keys::Step(k) => step(k, frame).map(Value::Step),
        Keys::Hermite(k) => hermite(k, frame).map(Value::Float),
    }
}

/// One evaluated value: which tag, matrix or map and element, and the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The tag (`RLPA`, …).
    pub tag: [u8; 4],
    /// The matrix or map index.
    pub id: u8,
    /// The element.
    pub target: u8,
    /// The value.
    pub value: Value,
}

/// Every target of a pane's or material's animations at `frame`, in file order (what the
/// game applies, later samples of the same element overriding earlier ones).
pub fn content(c: &Content, frame: f32) -> Vec<Sample> {
    c.infos
        .iter()
        .flat_map(|i: &Info| {
            let tag: [u8; 4] = i.tag.0.as_slice().try_into().unwrap_or([0; 4]);
            i.targets.iter().filter_map(move |t| {
                Some(Sample {
                    tag,
                    id: t.id,
                    target: t.target,
                    value: target(t, frame)?,
                })
            })
        })
        .collect()
}

/// The curve type the game reads a tag's keys as: step for visibility and texture patterns,
/// Hermite for the rest (`None` for a tag it does not read).
pub fn curve_of(tag: &[u8]) -> Option<u8> {
    match tag {
        b"RLVI" | b"RLTP" => Some(1),
        b"RLPA" | b"RLVC" | b"RLMC" | b"RLTS" | b"RLIM" => Some(2),
        _ => None,
    }
}

/// What element `target` of a tag is (`None` past the tag's elements).
pub fn target_name(tag: &[u8], target: u8) -> Option<&'static str> {
    const PANE: [&str; 10] = [
        "translate_x",
        "translate_y",
        "translate_z",
        "rotate_x",
        "rotate_y",
        "rotate_z",
        "scale_x",
        "scale_y",
        "width",
        "height",
    ];
    const VERTEX: [&str; 17] = [
        "top_left_r",
        "top_left_g",
        "top_left_b",
        "top_left_a",
        "top_right_r",
        "top_right_g",
        "top_right_b",
        "top_right_a",
        "bottom_left_r",
        "bottom_left_g",
        "bottom_left_b",
        "bottom_left_a",
        "bottom_right_r",
        "bottom_right_g",
        "bottom_right_b",
        "bottom_right_a",
        "pane_alpha",
    ];
    const MATERIAL: [&str; 32] = [
        "material_r",
        "material_g",
        "material_b",
        "material_a",
        "tev0_r",
        "tev0_g",
        "tev0_b",
        "tev0_a",
        "tev1_r",
        "tev1_g",
        "tev1_b",
        "tev1_a",
        "tev2_r",
        "tev2_g",
        "tev2_b",
        "tev2_a",
        "konst0_r",
        "konst0_g",
        "konst0_b",
        "konst0_a",
        "konst1_r",
        "konst1_g",
        "konst1_b",
        "konst1_a",
        "konst2_r",
        "konst2_g",
        "konst2_b",
        "konst2_a",
        "konst3_r",
        "konst3_g",
        "konst3_b",
        "konst3_a",
    ];
    const SRT: [&str; 5] = ["translate_s", "translate_t", "rotate", "scale_s", "scale_t"];
    let t = usize::from(target);
    match tag {
        b"RLPA" => PANE.get(t).copied(),
        b"RLVC" => VERTEX.get(t).copied(),
        b"RLMC" => MATERIAL.get(t).copied(),
        b"RLTS" | b"RLIM" => SRT.get(t).copied(),
        b"RLVI" => (t == 0).then_some("visible"),
        b"RLTP" => (t == 0).then_some("image"),
        _ => None,
    }
}
