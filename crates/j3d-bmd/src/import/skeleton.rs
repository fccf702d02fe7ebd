//! Joints from scene nodes: each node's local matrix as J3D's scale, s16 Euler angles (applied X,
//! then Y, then Z) and translation, and the world matrices the game computes from those quantised
//! values — the space rigid vertices are stored in.

use gcio::Result;
use gx::mtx::{IDENTITY, Mtx34, mul};
use gx::scene::Scene;

use super::extras::{self, JointExtras};
use crate::jnt1::{Jnt1, Joint, radians_to_angle};
use crate::nametab::NameTable;

/// JNT1 with the joints' world matrices and parents.
pub(super) struct Skeleton {
    pub jnt1: Jnt1,
    pub world: Vec<Mtx34>,
    pub parents: Vec<Option<usize>>,
}

/// One joint per scene node (a scene without nodes gets one root joint at the origin).
pub(super) fn skeleton(scene: &Scene) -> Result<Skeleton> {
    let mut joints = Vec::with_capacity(scene.nodes.len());
    let mut names = Vec::with_capacity(scene.nodes.len());
    let mut parents = Vec::with_capacity(scene.nodes.len());
    for (i, n) in scene.nodes.iter().enumerate() {
        let mut j = joint_from_local(&n.local);
        if let Some(x) = extras::read::<JointExtras>(n.extras.as_ref()) {
            j.matrix_type = x.matrix_type;
            j.scale_compensate = x.scale_compensate;
        }
        joints.push(j);
        names.push(if n.name.is_empty() {
            format!("joint_{i}").into_bytes()
        } else {
            crate::nametab::name_bytes(&n.name)
        });
        parents.push(n.parent.filter(|&p| p < scene.nodes.len() && p != i));
    }
    if joints.is_empty() {
        joints.push(Joint::at([0.0; 3]));
        names.push(b"root".to_vec());
        parents.push(None);
    }
    crate::chunk::u16_of(joints.len(), "joint count")?;
    let locals: Vec<Mtx34> = joints.iter().map(Joint::local_matrix).collect();
    let world = world_matrices(&locals, &parents);
    let names = NameTable::new(&names);
    Ok(Skeleton {
        jnt1: Jnt1::new(joints, Some(names)),
        world,
        parents,
    })
}

/// World matrices from local ones (a parent chain that loops is cut where it repeats).
fn world_matrices(locals: &[Mtx34], parents: &[Option<usize>]) -> Vec<Mtx34> {
    (0..locals.len())
        .map(|i| {
            let mut m = locals.get(i).copied().unwrap_or(IDENTITY);
            let mut at = parents.get(i).copied().flatten();
            let mut steps = 0;
            while let Some(p) = at {
                steps += 1;
                if steps > locals.len() {
                    break;
                }
                m = mul(&locals.get(p).copied().unwrap_or(IDENTITY), &m);
                at = parents.get(p).copied().flatten();
            }
            m
        })
        .collect()
}

/// A joint whose local matrix is `local` as closely as J3D's encoding allows (shear dropped).
fn joint_from_local(local: &Mtx34) -> Joint {
    let (scale, euler, translation) = gx::mtx::decompose_srt(local, [0.0; 3]);
    Joint {
        scale,
        rotation: euler.map(radians_to_angle),
        ..Joint::at(translation)
    }
}
