//! Evaluation against values worked out by hand, and the game's edge cases (before the first
//! key, after the last, within 0.001 of a key, two keys on one frame).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use brlan::build::{hermite, step};
use brlan::eval::{self, Value};
use brlan::{Keys, eval::target_name};

fn h(keys: &[[f32; 3]]) -> Vec<brlan::model::HermiteKey> {
    match hermite(keys) {
        Keys::Hermite(k) => k,
        Keys::Step(_) => unreachable!(),
    }
}

fn s(keys: &[(f32, u16)]) -> Vec<brlan::model::StepKey> {
    match step(keys) {
        Keys::Step(k) => k,
        Keys::Hermite(_) => unreachable!(),
    }
}

#[test]
fn hermite_by_hand() {
    // Flat slopes: the midpoint is the average; a quarter of the way 10/64 of the rise.
    let k = h(&[[0.0, 0.0, 0.0], [10.0, 64.0, 0.0]]);
    assert_eq!(eval::hermite(&k, 5.0), Some(32.0));
    assert_eq!(eval::hermite(&k, 2.5), Some(10.0));
    // Slopes equal to the line's (6.4 per frame): the straight line.
    let k = h(&[[0.0, 0.0, 6.4], [10.0, 64.0, 6.4]]);
    assert!((eval::hermite(&k, 2.5).unwrap() - 16.0).abs() < 1e-4);
    // Slope 10 per frame out of the first key, flat ends: h10(0.5) × 10 frames × 10 = 12.5.
    let k = h(&[[0.0, 0.0, 10.0], [10.0, 0.0, 0.0]]);
    assert_eq!(eval::hermite(&k, 5.0), Some(12.5));
    // The second key's slope: h11(0.5) = -1/8.
    let k = h(&[[0.0, 0.0, 0.0], [10.0, 0.0, 10.0]]);
    assert_eq!(eval::hermite(&k, 5.0), Some(-12.5));
}

#[test]
fn hermite_edges_as_the_game() {
    let k = h(&[
        [0.0, 1.0, 0.0],
        [10.0, 2.0, 0.0],
        [10.0, 3.0, 0.0],
        [20.0, 4.0, 0.0],
    ]);
    assert_eq!(eval::hermite(&k, -5.0), Some(1.0)); // before: the first value
    assert_eq!(eval::hermite(&k, 99.0), Some(4.0)); // after: the last
    assert_eq!(eval::hermite(&k, 10.0), Some(3.0)); // two keys on frame 10: the later
    assert_eq!(eval::hermite(&k, 9.9995), Some(3.0)); // within 0.001: the key
    assert_eq!(eval::hermite(&k, 15.0), Some(3.5)); // the segment after the pair
    assert_eq!(eval::hermite(&[], 1.0), None);
    assert_eq!(eval::hermite(&k[..1], 50.0), Some(1.0));
}

#[test]
fn step_by_hand() {
    let k = s(&[(0.0, 1), (30.0, 0), (45.0, 1)]);
    assert_eq!(eval::step(&k, -1.0), Some(1));
    assert_eq!(eval::step(&k, 29.0), Some(1));
    assert_eq!(eval::step(&k, 29.9995), Some(0)); // within 0.001 of the next key
    assert_eq!(eval::step(&k, 30.0), Some(0));
    assert_eq!(eval::step(&k, 44.0), Some(0));
    assert_eq!(eval::step(&k, 50.0), Some(1));
}

#[test]
fn values_convert_as_the_game_stores_them() {
    assert_eq!(Value::Float(254.6).to_u8(), 255);
    assert_eq!(Value::Float(300.0).to_u8(), 255);
    assert_eq!(Value::Float(-3.0).to_u8(), 0);
    assert_eq!(Value::Float(2000.0).to_color10(), 1023);
    assert_eq!(Value::Float(-2000.0).to_color10(), -1024);
    assert_eq!(target_name(b"RLPA", 9), Some("height"));
    assert_eq!(target_name(b"RLVC", 16), Some("pane_alpha"));
    assert_eq!(target_name(b"RLMC", 31), Some("konst3_a"));
    assert_eq!(target_name(b"RLPA", 10), None);
}

#[test]
fn the_sample_at_frames() {
    let a = brlan::build::sample();
    let c = &a.anim().unwrap().contents;
    let at = |i: usize, f: f32| eval::content(&c[i], f);
    // Halfway: 0 up to the f32 rounding of the game's basis (1.5e-5).
    assert!(at(0, 15.0)[0].value.to_f32().abs() < 1e-4);
    assert_eq!(at(1, 35.0)[0].value, Value::Step(0));
    assert_eq!(at(2, 25.0)[0].value, Value::Step(1));
    assert_eq!(&at(2, 25.0)[0].tag, b"RLTP");
}
