//! Facial pose section walkthrough: build a Birdo-like block, validate it, move one head vertex
//! with the patch rule (so blinking keeps the edit), rebuild the head without shape keys
//! (neutralize), then detach the section, printing what changes.
//!
//! `cargo run --example gpl_facial --features gpl-facial [BLOCK.gpl]`
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use gcformats::gpl_facial::{self, AttrKind, Block, build, slot};

fn main() {
    let bytes = match std::env::args().nth(1) {
        Some(path) => std::fs::read(&path).expect("read block"),
        None => build::birdo_block(),
    };
    let view = gpl_facial::parse(&bytes).expect("model block");
    println!(
        "{} bytes, facial section at {:#x}",
        bytes.len(),
        view.word(slot::FACIAL)
    );
    for d in gpl_facial::validate_view(&view) {
        println!("  {d}");
    }
    let mut block = Block::parse(&bytes).expect("parse");
    assert_eq!(
        block.write().unwrap(),
        bytes,
        "unchanged block is byte-identical"
    );
    let Some(facial) = block.facial().cloned() else {
        println!("no facial pose section (ptr7 = 0): plain GPL edits stick");
        return;
    };
    for (i, o) in facial.objects.iter().enumerate() {
        let e: Vec<u32> = o.attributes.iter().map(|a| a.entries).collect();
        println!(
            "object {i}: {} poses, entries per attribute {e:?}",
            o.pose_count
        );
    }

    // Base-mesh edit: raise the first mapped head vertex by 100 units. Pose 0 follows the edit;
    // deltas stay, so blink and mouth poses move relative to the new rest position.
    let Some(sub) = facial.objects.first().and_then(|o| o.submesh()) else {
        return;
    };
    let mesh = view.mesh().unwrap();
    let Some(arr) = mesh.submeshes[usize::from(sub)].positions else {
        return;
    };
    let original: Vec<i16> = arr
        .bytes
        .chunks_exact(2)
        .map(|c| i16::from_be_bytes([c[0], c[1]]))
        .collect();
    let mut edited = original.clone();
    let first = facial.objects[0].attributes[0].indices()[0];
    edited[usize::from(first) * usize::from(arr.comp_count) + 1] += 100;
    let mut patched = facial.clone();
    let n = patched
        .apply_base_edit(sub, AttrKind::POSITION, &original, &edited)
        .unwrap();
    println!("patched pose 0 of {n} mapped entries for vertex {first}");
    patched.unpatch(&facial).unwrap();
    assert_eq!(patched, facial);

    // Rebuild without shape keys: objects on the submesh are neutralized; the section shrinks
    // and every trailing pointer after it moves.
    let head: Vec<[i16; 3]> = original
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let normals = vec![[0, 0, 0x4000]];
    let mut neutral = facial.clone();
    neutral.rebuild_rigid(sub, &head, &normals, None).unwrap();
    block.set_facial(neutral);
    let out = block.write().unwrap();
    println!("neutralized: block {} -> {} bytes", bytes.len(), out.len());

    block.detach_facial().unwrap();
    let detached = block.write().unwrap();
    println!(
        "detached: ptr7 = {:#x}, section bytes left in place ({} bytes)",
        gpl_facial::parse(&detached).unwrap().word(slot::FACIAL),
        detached.len()
    );
}
