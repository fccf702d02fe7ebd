#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Hostile glTF input to the import, as `fuzz/fuzz_targets/hsd_dat_import.rs` feeds it
//! (`hsd_dat::fuzz_import`): the glbs of the in-code samples with numbers of their JSON
//! replaced (indices, counts, offsets, our extras' fields) and with bytes of their binary
//! chunk replaced (positions, weights, indices, pixels) never panic the import, and every
//! model it still imports reads back and checks without errors.

use proptest::prelude::*;
use serde_json::Value;

/// The glbs of every in-code sample model that exports.
fn glbs() -> &'static [Vec<u8>] {
    static GLBS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    GLBS.get_or_init(|| {
        let samples = hsd_dat::build::samples().unwrap();
        let glbs: Vec<Vec<u8>> = samples
            .iter()
            .filter_map(|(_, bytes)| hsd_dat::export::to_glb(&hsd_dat::parse(bytes).ok()?).ok())
            .collect();
        assert!(glbs.len() >= 3, "{} sample glbs", glbs.len());
        glbs
    })
}

/// A glb's JSON and binary chunk.
fn split(glb: &[u8]) -> (Value, Vec<u8>) {
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let json = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    let bin = glb.get(20 + len + 8..).unwrap_or_default().to_vec();
    (json, bin)
}

/// A glb of `json` and `bin` (chunks padded to 4 bytes, as glTF requires).
fn join(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut j = serde_json::to_vec(json).unwrap();
    j.resize(j.len().next_multiple_of(4), b' ');
    let mut b = bin.to_vec();
    b.resize(b.len().next_multiple_of(4), 0);
    let total = 12 + 8 + j.len() + if b.is_empty() { 0 } else { 8 + b.len() };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(j.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&j);
    if !b.is_empty() {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&b);
    }
    out
}

/// Every number of `v`, depth first.
fn numbers(v: &mut Value) -> Vec<&mut Value> {
    match v {
        Value::Number(_) => vec![v],
        Value::Array(a) => a.iter_mut().flat_map(numbers).collect(),
        Value::Object(o) => o.values_mut().flat_map(numbers).collect(),
        _ => Vec::new(),
    }
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![
            0i64,
            1,
            -1,
            2,
            3,
            255,
            256,
            65535,
            65536,
            1 << 31,
            u32::MAX as i64
        ])
        .prop_map(Value::from),
        any::<i16>().prop_map(Value::from),
        prop::sample::select(vec![0.5f64, -0.0, 1e-30, 1e30, -1e30, 3.4e38, 1e300])
            .prop_map(Value::from),
    ]
}

/// The unchanged glbs import (the mutations below start from models that work).
#[test]
fn sample_glbs_import() {
    for glb in glbs() {
        hsd_dat::fuzz_import(glb);
        assert!(
            hsd_dat::import::import(
                &gx::scene::Scene::from_glb(glb).unwrap(),
                &hsd_dat::import::ImportOptions::default()
            )
            .is_ok()
        );
    }
}

/// A stored AObj (our extras' `curves`) whose end frame runs past its clip is not the clip's:
/// at 2^31 frames it was written back, and the Colosseum/XD bound box, one box per frame of
/// the tree's length, asked for 51 GB (found by `json_numbers_replaced` at more cases).
#[test]
fn a_stored_aobj_past_its_clip_is_refitted() {
    let mut checked = 0;
    for glb in glbs() {
        let (mut json, bin) = split(glb);
        let Some(clips) = json["animations"].as_array_mut() else {
            continue;
        };
        for clip in clips {
            if let Some(c) = clip.pointer_mut("/extras/hsd/curves/0/end_frame") {
                *c = Value::from(1u64 << 31);
                checked += 1;
            }
        }
        let glb = join(&json, &bin);
        hsd_dat::fuzz_import(&glb);
        let scene = gx::scene::Scene::from_glb(&glb).unwrap();
        let out = hsd_dat::import::import(&scene, &Default::default()).unwrap();
        assert!(out.bytes.len() < 4 * glb.len(), "{} bytes", out.bytes.len());
    }
    assert!(checked > 0, "no sample records a stored AObj");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn json_numbers_replaced(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), number()), 1..5),
    ) {
        let glb = which.get(glbs());
        let (mut json, bin) = split(glb);
        {
            let mut nums = numbers(&mut json);
            for (at, value) in edits {
                if !nums.is_empty() {
                    let i = at.index(nums.len());
                    *nums[i] = value;
                }
            }
        }
        hsd_dat::fuzz_import(&join(&json, &bin));
    }

    #[test]
    fn binary_bytes_replaced(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..16),
    ) {
        let glb = which.get(glbs());
        let (json, mut bin) = split(glb);
        for (at, byte) in edits {
            if !bin.is_empty() {
                let i = at.index(bin.len());
                bin[i] = byte;
            }
        }
        hsd_dat::fuzz_import(&join(&json, &bin));
    }
}
