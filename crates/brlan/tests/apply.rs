//! Animations applied to layouts: the sample animation on the sample layout by hand, and every
//! real animation on the layout of its archive at every frame (every pane stays placed at finite
//! coordinates; the contents that bind nothing are the ones the test lists).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use brlyt::model::Section as L;

#[test]
fn sample_on_sample() {
    let anim = brlan::build::sample();
    let mut lyt = brlyt::build::sample();
    if let L::Textures(t) = &mut lyt.sections[1] {
        t.push("Other.tpl".into());
    }
    let base = lyt.clone();
    let r = brlan::apply(&anim, &mut lyt, 35.0);
    assert!(r.unbound.is_empty(), "{r:?}");
    assert_eq!(r.values, 6);
    let pic = lyt.sections.iter().find_map(|s| match s {
        L::Picture(p) => Some(p),
        _ => None,
    });
    assert_eq!(pic.unwrap().pane.translate[0].get(), 100.0);
    let txt = lyt.sections.iter().find_map(|s| match s {
        L::Text(t) => Some(t),
        _ => None,
    });
    assert!(!txt.unwrap().pane.visible());
    let m = &lyt.materials()[0];
    assert_eq!(m.tex_maps[0].texture, 1, "the pattern's Other.tpl");
    // Alpha 255 → 128 over 59 frames with flat slopes: at 35, 255 − 127 × (3t² − 2t³) = 173.9,
    // stored +0.5 as 174.
    assert_eq!(m.mat_color.unwrap()[3], 174);
    // Frame 0 gives back the layout's own values where the keys start from them.
    let mut again = base.clone();
    brlan::apply(&anim, &mut again, 0.0);
    assert_eq!(again.materials()[0].tex_maps[0].texture, 0);
}

/// Contents of the real animations no pane or material of their layout has.
const UNBOUND: usize = 5;

#[test]
fn real_animations_bind_to_their_layouts() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brlan apply")
    else {
        return;
    };
    let members = gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten());
    let (mut applied, mut unbound) = (0, std::collections::BTreeSet::new());
    for (arc, path, data) in &members {
        if !path.ends_with(".brlan") {
            continue;
        }
        let anim = brlan::Brlan::parse(data).unwrap();
        let lyt = members
            .iter()
            .find(|(a, p, _)| a == arc && p.ends_with(".brlyt"))
            .map(|(_, _, b)| brlyt::Brlyt::parse(b).unwrap())
            .unwrap();
        let frames = anim.anim().unwrap().frame_size;
        for f in 0..=frames {
            let mut l = lyt.clone();
            let r = brlan::apply(&anim, &mut l, f32::from(f));
            for u in r.unbound {
                unbound.insert(format!("{}:{path}:{u}", arc.rsplit('/').next().unwrap()));
            }
            let t = l.tree();
            for p in l.place(&t) {
                assert!(
                    p.corners.iter().flatten().all(|v| v.is_finite()),
                    "{arc}:{path} frame {f}"
                );
            }
            applied += 1;
        }
    }
    assert!(applied > 31, "{applied} frames applied");
    // Four pause-menu button animations name `Txt4` and the red coin counter's `Wait` names
    // `TxtCount`, panes their layouts lack: the game binds nothing for them.
    assert_eq!(unbound.len(), UNBOUND, "{unbound:#?}");
}
