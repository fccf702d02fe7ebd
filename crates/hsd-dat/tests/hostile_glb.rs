#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Hostile glTF input to the import: `hsd_dat::fuzz_import` (the body of
//! `fuzz/fuzz_targets/hsd_dat_import.rs`: an in-code sample's glb with its JSON or its binary
//! chunk edited) replayed on reproducible inputs, and the cases it found.

use serde_json::Value;

/// The fuzz body on `gcio::replay_inputs`: never panics; what imports checks clean.
#[test]
fn import_fuzz_body_replays() {
    for input in gcio::replay_inputs(1500) {
        hsd_dat::fuzz_import(&input);
    }
}

/// A stored AObj (our extras' `curves`) whose end frame runs past its clip is not the clip's:
/// at 2^31 frames it was written back, and the Colosseum/XD bound box, one box per frame of
/// the tree's length, asked for 51 GB (found by the fuzz body at 30,000 cases).
#[test]
fn a_stored_aobj_past_its_clip_is_refitted() {
    let mut checked = 0;
    for (name, dat) in hsd_dat::build::samples().unwrap() {
        let Ok(glb) = hsd_dat::export::to_glb(&hsd_dat::parse(&dat).unwrap()) else {
            continue;
        };
        let (json, bin) = gx::scene::glb_chunks(&glb).unwrap();
        let mut json: Value = serde_json::from_slice(json).unwrap();
        let Some(clips) = json["animations"].as_array_mut() else {
            continue;
        };
        for clip in clips {
            if let Some(c) = clip.pointer_mut("/extras/hsd/curves/0/end_frame") {
                *c = Value::from(1u64 << 31);
                checked += 1;
            }
        }
        let json = serde_json::to_vec(&json).unwrap();
        let glb = gx::scene::glb_container(&json, bin.unwrap_or_default()).unwrap();
        let scene = gx::scene::Scene::from_glb(&glb).unwrap();
        let out = hsd_dat::import::import(&scene, &Default::default()).unwrap();
        assert!(
            out.bytes.len() < 4 * glb.len(),
            "{name}: {} bytes",
            out.bytes.len()
        );
    }
    assert!(checked > 0, "no sample records a stored AObj");
}
