//! Samples every AnimJoint root of a sysdolphin `.dat` against the first joint tree and prints
//! the root joint's world X axis per frame (or, with no argument, the built-in XD sample).
//!
//! `cargo run --features hsd-dat --example dat_anim -- model.dat`

use gcformats::hsd_dat::{self, RootKind, anim::TreeKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes = match std::env::args().nth(1) {
        Some(p) => std::fs::read(p)?,
        None => hsd_dat::build::xd_model(Default::default())?.write()?,
    };
    let a = hsd_dat::parse(&bytes)?;
    let g = a.graph();
    let Some(joint) = g.joints.first() else {
        println!("no joints");
        return Ok(());
    };
    // AnimJoint trees: named roots, or (Colosseum/XD) the scene's model sets' animation lists.
    let mut anims: Vec<u32> = a
        .roots()
        .filter(|r| r.kind() == RootKind::AnimJoint)
        .map(|r| r.offset)
        .collect();
    if anims.is_empty() {
        anims = g
            .nodes
            .iter()
            .filter(|n| n.kind == hsd_dat::Kind::AnimJoint)
            .filter(|n| {
                !g.nodes.iter().any(|m| {
                    m.kind == hsd_dat::Kind::AnimJoint
                        && a.read::<hsd_dat::AnimJoint>(m.offset)
                            .is_ok_and(|x| x.child == Some(n.offset) || x.next == Some(n.offset))
                })
            })
            .map(|n| n.offset)
            .collect();
    }
    for (i, &root) in anims.iter().enumerate() {
        let tree = a.anim_tree(root, TreeKind::Joint)?;
        let end = tree
            .first()
            .and_then(|n| n.slots.first())
            .and_then(|s| s.animation.as_ref())
            .map_or(0.0, |x| x.end_frame);
        println!("animation {i} at {root:#x}: {end} frames");
        let pose = a.joint_animation(joint.offset, Some(root))?;
        for f in 0..=(end as u32) {
            let m = pose.sample(f as f32);
            if let Some(r) = m.first() {
                println!(
                    "  frame {f:3}: x axis ({:+.4} {:+.4} {:+.4})",
                    r[0][0], r[1][0], r[2][0]
                );
            }
        }
    }
    Ok(())
}
