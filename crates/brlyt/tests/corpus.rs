//! The real Galaxy 2 layouts (`../shared/corpus/real/rarc`, skipped when absent): every
//! `.brlyt` member is recognised, parses, writes back byte-identical with nothing kept raw,
//! converts to JSON and back identically, has no validator finding, and its tree resolves.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::path::Path;

/// (archive, member path, bytes) of every archive member, decompressed.
fn members(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

#[test]
fn real_layouts() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brlyt real") else {
        return;
    };
    let mut failures = Vec::new();
    let (mut seen, mut panes) = (0, 0);
    for (arc, path, data) in members(&dir) {
        let is_lyt = path.to_ascii_lowercase().ends_with(".brlyt");
        if brlyt::sniff(&data) != is_lyt {
            failures.push(format!("{arc}:{path}: sniff {}", brlyt::sniff(&data)));
        }
        if !is_lyt {
            continue;
        }
        seen += 1;
        let lyt = match brlyt::Brlyt::parse(&data) {
            Ok(l) => l,
            Err(e) => {
                failures.push(format!("{arc}:{path}: {e}"));
                continue;
            }
        };
        if lyt.write().ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: rewrite differs"));
        }
        if !lyt.raw_parts().is_empty() {
            failures.push(format!("{arc}:{path}: raw parts {:?}", lyt.raw_parts()));
        }
        let text = serde_json::to_string(&brlyt::to_json(&lyt).unwrap()).unwrap();
        let back = brlyt::from_json(&serde_json::from_str(&text).unwrap()).and_then(|l| l.write());
        if back.ok().as_deref() != Some(&data[..]) {
            failures.push(format!("{arc}:{path}: JSON round trip differs"));
        }
        let diags = brlyt::validate(&data);
        if !diags.is_empty() {
            failures.push(format!("{arc}:{path}: {diags:?}"));
        }
        let tree = lyt.tree();
        panes += tree.panes.len();
        if tree.roots().count() != 1 || tree.walk(0).len() != tree.panes.len() {
            failures.push(format!("{arc}:{path}: the tree is not one root"));
        }
        if tree
            .groups
            .iter()
            .any(|g| g.members.iter().any(Option::is_none))
        {
            failures.push(format!("{arc}:{path}: a group member is not found"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(seen, 4, "the shared archives hold 4 layouts");
    assert_eq!(panes, 182, "pane sections of the 4 layouts");
}

/// The real layouts placed on the screen: the root pane covers the screen the `lyt1` record
/// gives, every corner is finite, and a picture's quad is its size scaled (no rotation about z
/// in these layouts keeps the box exactly the scaled size).
#[test]
fn real_layouts_place_their_panes() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brlyt place")
    else {
        return;
    };
    let mut seen = 0;
    for (arc, path, data) in members(&dir) {
        if !path.ends_with(".brlyt") {
            continue;
        }
        seen += 1;
        let lyt = brlyt::Brlyt::parse(&data).unwrap();
        let tree = lyt.tree();
        let placed = lyt.place(&tree);
        assert_eq!(placed.len(), tree.panes.len(), "{arc}:{path}");
        let screen = lyt.layout().unwrap().size.map(|v| v.get());
        let root = placed[0].bounds();
        assert_eq!(root[2] - root[0], screen[0], "{arc}:{path}: root width");
        assert_eq!(root[3] - root[1], screen[1], "{arc}:{path}: root height");
        for p in &placed {
            assert!(
                p.corners.iter().flatten().all(|v| v.is_finite()),
                "{arc}:{path}"
            );
            assert!((0.0..=255.0).contains(&p.alpha), "{arc}:{path}");
        }
    }
    assert_eq!(seen, 4);
}
