//! Evaluation against values worked out by hand.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use canm::build::keyed;
use canm::eval::{hermite, track};

fn c(v: f32) -> Vec<[f32; 3]> {
    vec![[0.0, v, 0.0]]
}

fn one(keys: Vec<[f32; 3]>) -> canm::Canm {
    keyed(
        100,
        [keys, c(1.0), c(2.0), c(3.0), c(4.0), c(5.0), c(6.0), c(7.0)],
    )
}

#[test]
fn hermite_by_hand() {
    // Flat tangents: the midpoint is the average, a quarter of the way is 5/32 of the rise
    // (h01(0.25) = -2/64 + 3/16 = 10/64).
    assert_eq!(hermite(5.0, 0.0, 0.0, 0.0, 10.0, 10.0, 0.0), 5.0);
    assert_eq!(hermite(2.5, 0.0, 0.0, 0.0, 10.0, 64.0, 0.0), 10.0);
    // Tangents equal to the slope (1 per frame = 30 per 30 frames) give the straight line.
    assert!((hermite(3.0, 0.0, 0.0, 30.0, 10.0, 10.0, 30.0) - 3.0).abs() < 1e-5);
    // Out tangent 300 (10 per frame) over 10 frames, flat ends at 0: h10(0.5) = 1/8,
    // so 10 frames × 10 per frame / 8 = 12.5.
    assert_eq!(hermite(5.0, 0.0, 0.0, 300.0, 10.0, 0.0, 0.0), 12.5);
    // In tangent at the far end: h11(0.5) = -1/8 → -12.5.
    assert_eq!(hermite(5.0, 0.0, 0.0, 0.0, 10.0, 0.0, 300.0), -12.5);
}

#[test]
fn keyed_tracks_by_hand() {
    let a = one(vec![[0.0, 0.0, 300.0], [10.0, 0.0, 0.0], [20.0, 50.0, 0.0]]);
    assert_eq!(track(&a, 0, 5.0), Some(12.5)); // first segment, out tangent of key 0
    assert_eq!(track(&a, 0, 10.0), Some(0.0)); // exactly on key 1
    assert_eq!(track(&a, 0, 15.0), Some(25.0)); // flat tangents: the average
    assert_eq!(track(&a, 0, 20.0), Some(50.0)); // the last key
    assert_eq!(track(&a, 0, 99.0), Some(50.0)); // past it: held
    assert_eq!(track(&a, 0, -3.0), Some(0.0)); // before the first: held
    assert_eq!(track(&a, 7, 42.0), Some(7.0)); // a constant
    let p = canm::eval::pose(&a, 5.0).unwrap();
    assert_eq!(
        (p.pos, p.watch, p.twist, p.fovy),
        ([12.5, 1.0, 2.0], [3.0, 4.0, 5.0], 6.0, 7.0)
    );
}

#[test]
fn four_float_keys_use_out_then_in() {
    // Keys (time, value, in, out): key 0 out = 300, key 1 in = 0 → 12.5 as above; key 0's in
    // tangent (-999) is not read.
    let mut a = one(vec![]);
    a.tracks[0] = canm::Track {
        count: 2,
        offset: a.values.len() as u32,
        layout: 1,
    };
    a.values
        .extend([0.0, 0.0, -999.0, 300.0, 10.0, 0.0, 0.0, 777.0]);
    assert_eq!(track(&a, 0, 5.0), Some(12.5));
}

#[test]
fn per_frame_tracks_interpolate_linearly() {
    let a = canm::build::sample_frames();
    assert_eq!(track(&a, 0, 0.0), Some(0.0));
    assert_eq!(track(&a, 0, 2.5), Some(30.0));
    assert_eq!(track(&a, 0, 9.0), Some(40.0));
    assert_eq!(track(&a, 3, 1.0), Some(3.0));
}
