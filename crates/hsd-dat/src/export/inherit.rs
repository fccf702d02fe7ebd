//! The runtime's scale inheritance in glTF's node tree ([`crate::pose`]).
//!
//! `HSD_MtxSRT`'s local matrix under a parent whose accumulated scale is `P` is
//! `Scale(1/P) · TRS(P∘t, R, P∘s)`: glTF nodes compose TRS only, so where a joint's children
//! inherit a non-uniform `P` (at rest or at any frame of an animation) the joint gets one
//! more node, `joint_N_scale`, holding `Scale(1/P)`, and its children hang below that with
//! `TRS(P∘t, R, P∘s)`. Every joint's glTF world matrix is then the runtime's, with no shear
//! to drop. The extra node records [`JointExtras::inherited_scale`], so the import folds it
//! back; the joints keep their node indices (extra nodes come after them).

use std::collections::HashMap;

use gx::mtx::{IDENTITY, inverse, mul};
use gx::scene::{Node, Scene};

use crate::extras::{self, JointExtras};
use crate::pose;

/// The extra nodes of `scene` by the joint node they hang under (one scan of the extras).
pub(crate) fn extra_nodes(scene: &Scene) -> HashMap<usize, usize> {
    scene
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| {
            extras::read::<JointExtras>(n.extras.as_ref()).is_some_and(|x| x.inherited_scale)
        })
        .filter_map(|(k, n)| Some((n.parent?, k)))
        .collect()
}

/// The extra node under joint node `joint` (made when missing, with the joint's children moved
/// below it, and entered in `extra`, [`extra_nodes`]): `p` is the joint's rest accumulated scale ([`pose::inherited`]), `rest` each node's
/// rest rotation, scale and translation (joint nodes only).
pub(crate) fn ensure(
    scene: &mut Scene,
    extra: &mut HashMap<usize, usize>,
    joint: usize,
    p: [f32; 3],
    rest: &[[[f32; 3]; 3]],
) -> usize {
    if let Some(&k) = extra.get(&joint) {
        return k;
    }
    let name = scene
        .nodes
        .get(joint)
        .map_or_else(String::new, |n| format!("{}_scale", n.name));
    let mut node = Node::new(name, Some(joint), pose::inverse_scale(p));
    node.extras = extras::write(&JointExtras {
        inherited_scale: true,
        ..JointExtras::default()
    });
    let k = scene.nodes.len();
    scene.nodes.push(node);
    extra.insert(joint, k);
    let mut moved = Vec::new();
    for (i, values) in rest.iter().enumerate() {
        if let Some(n) = scene.nodes.get_mut(i).filter(|n| n.parent == Some(joint)) {
            n.parent = Some(k);
            n.local = pose::scaled_local(*values, p);
            moved.push(i);
        }
    }
    // Animations written before this node drive the children with the runtime's local matrix
    // (their P was uniform, or the node would exist): below the node's rest Scale(1/P) they
    // need Scale(P) in front, still TRS for a uniform P.
    let [px, py, pz] = p;
    let undo = [
        [px, 0.0, 0.0, 0.0],
        [0.0, py, 0.0, 0.0],
        [0.0, 0.0, pz, 0.0],
    ];
    for t in scene
        .animations
        .iter_mut()
        .flat_map(|a| a.tracks.iter_mut())
        .filter(|t| moved.contains(&t.node))
    {
        for l in &mut t.local {
            *l = mul(&undo, l);
        }
    }
    // Bound where it stands at rest: no vertex weighs it, but glTF skins every node.
    let world = scene.world_matrices();
    if let Some(n) = scene.nodes.get_mut(k) {
        n.inverse_bind = world.get(k).and_then(inverse).unwrap_or(IDENTITY);
    }
    k
}
