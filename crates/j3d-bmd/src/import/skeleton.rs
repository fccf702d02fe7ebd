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
    /// Recorded bounds per joint (see [`JointExtras::bounds`]).
    pub bounds: Vec<Option<(f32, [f32; 6])>>,
}

/// One joint per scene node (a scene without nodes gets one root joint at the origin).
pub(super) fn skeleton(scene: &Scene) -> Result<Skeleton> {
    let mut joints = Vec::with_capacity(scene.nodes.len());
    let mut names = Vec::with_capacity(scene.nodes.len());
    let mut parents = Vec::with_capacity(scene.nodes.len());
    let mut bounds = Vec::with_capacity(scene.nodes.len());
    for (i, n) in scene.nodes.iter().enumerate() {
        let mut j = joint_from_local(&n.local);
        let x = extras::read::<JointExtras>(n.extras.as_ref());
        if let Some(x) = x {
            j.matrix_type = x.matrix_type;
            j.scale_compensate = x.scale_compensate;
            if let Some((scale, rotation, translation)) = x.srt {
                let recorded = Joint {
                    scale,
                    rotation,
                    translation,
                    ..j
                };
                if close(&recorded.local_matrix(), &n.local) {
                    j = recorded;
                }
            }
        }
        bounds.push(x.and_then(|x| x.bounds));
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
        bounds.push(None);
    }
    crate::chunk::u16_of(joints.len(), "joint count")?;
    let locals: Vec<Mtx34> = joints.iter().map(Joint::local_matrix).collect();
    let world = world_matrices(&locals, &parents);
    let names = NameTable::new(&names);
    Ok(Skeleton {
        jnt1: Jnt1::new(joints, Some(names)),
        world,
        parents,
        bounds,
    })
}

/// Whether two local matrices agree within what glTF's float TRS keeps (1e-4, relative to the
/// translation's size for the last column).
fn close(a: &Mtx34, b: &Mtx34) -> bool {
    a.iter().zip(b).all(|(ra, rb)| {
        ra.iter().zip(rb).enumerate().all(|(c, (x, y))| {
            let tol = if c == 3 {
                1e-4 * x.abs().max(1.0)
            } else {
                1e-4
            };
            (x - y).abs() <= tol
        })
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
