//! Detection strictness and the JSON summaries.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gpl_facial::*;

#[test]
fn sniff_is_strict() {
    for (name, b) in build::samples() {
        assert_eq!(sniff(&b), Some(Confidence::Strong), "{name}");
    }
    let b = build::birdo_block();
    // Wrong version words: weak (the extension decides).
    let mut w = b.clone();
    w[0x20] ^= 0x80;
    assert_eq!(sniff(&w), Some(Confidence::Weak));
    assert!(has_gpl_extension("dir/catherine.GPL") && !has_gpl_extension("x.bin"));
    // Misaligned, unordered, nonzero word 0, out of range, truncated: not a block.
    let mut m = b.clone();
    m[0x0B] += 4;
    assert_eq!(sniff(&m), None);
    let mut m = b.clone();
    m.copy_within(0x08..0x0C, 0x0C);
    assert_eq!(sniff(&m), None);
    let mut m = b.clone();
    m[0] = 1;
    assert_eq!(sniff(&m), None);
    assert_eq!(sniff(&b[..0x100]), None);
    assert_eq!(sniff(&[0u8; 0x40]), None);
    assert_eq!(sniff(b"RARC\0\0\0\0"), None);
}

#[test]
fn poses_json_lists_vertices_and_deltas() {
    let b = Block::parse(&build::birdo_block()).unwrap();
    let j = poses_json(b.facial().unwrap());
    let a = &j["objects"][0]["attributes"][0];
    assert_eq!(a["format"], "01 01 03 02");
    assert_eq!(a["vertices"].as_array().unwrap().len(), 199);
    assert_eq!(a["rest"].as_array().unwrap().len(), 199);
    assert_eq!(a["deltas"].as_array().unwrap().len(), 4);
    assert_eq!(a["deltas"][0][3], serde_json::json!([0, 0, 0]));
    assert_eq!(j["objects"][1]["attributes"][1]["entries"], 520);
    let luigi = build::luigi_block();
    let v = gpl_facial::parse(&luigi).unwrap();
    let info = block_json(&v);
    assert_eq!(info["sections"].as_array().unwrap().len(), 5);
    assert_eq!(info["facial"]["objects"].as_array().unwrap().len(), 4);
    assert_eq!(info["skin"]["entries"], 3);
}
