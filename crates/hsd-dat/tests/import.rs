#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! glTF → .dat import: every real model `m.dat` of the shared corpus goes `m.dat → a.glb →
//! b.dat → c.glb`; `a` and `c` must hold the same model (gx::compare: triangles within 1e-3 of
//! the extent, node names, material count, texture pixels) and `b.dat` must check with 0
//! errors. The BNB of `b` against `m` (what `gcf compare m.dat b.dat` prints) is reported, not
//! asserted. Plain glTF scenes built here cover what our own export never writes.

mod support;

use gcio::Severity;
use gx::scene::Scene;
use hsd_dat::compile::Order;
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::{JointFlags, PObjKind, export, parse};

#[test]
fn real_models_round_trip() {
    let Some(models) = support::real_models("hsd-dat import round trip") else {
        return;
    };
    assert_eq!(models.len(), support::REAL_MODELS, "real models read");
    for (name, m) in &models {
        for order in [Order::ColosseumXd, Order::Melee] {
            let opts = ImportOptions {
                order,
                ..ImportOptions::default()
            };
            let (sa, sc, b) = support::round_trip(m, &opts);
            let d = gx::compare::compare(&sa, &sc, 1e-3);
            assert!(d.is_same(), "{name}: {order:?}: {d:?}");
            let bnb = hsd_dat::compare::compare(m, &b).unwrap().bnb;
            eprintln!(
                "{name}: {order:?}: {} triangles, {} nodes, {} bytes → {} bytes, BNB {bnb:.2} %",
                d.triangles.0,
                sa.nodes.len(),
                m.len(),
                b.len()
            );
        }
    }
}

/// A joint node at `srt` under `parent`, its inverse bind the inverse of its world matrix.
fn node(s: &mut Scene, name: &str, parent: Option<usize>, r: [f32; 3], t: [f32; 3]) -> usize {
    let local = gx::mtx::srt(r, [1.0; 3], t);
    let mut n = gx::scene::Node::new(name, parent, local);
    let world = match parent {
        Some(p) => gx::mtx::mul(&s.world_matrices()[p], &local),
        None => local,
    };
    n.inverse_bind = gx::mtx::inverse(&world).unwrap();
    s.nodes.push(n);
    s.nodes.len() - 1
}

/// Weights `m`'s vertices by `weight` on node `a` and by `from + i / per` on node `b` (vertex
/// `i`): a blend that changes along the mesh.
fn ramp(m: &mut gx::scene::Mesh, (a, weight): (usize, f32), b: usize, from: f32, per: f32) {
    m.skin = (0..m.positions.len())
        .map(|i| gx::scene::skin_weights(&[(a as u16, weight), (b as u16, from + i as f32 / per)]))
        .collect();
}

/// Blender's case: a root and a bone (turned, off the origin); a hat weighted 100 % to the
/// bone, and a body weighted to the root and, more with each vertex, the bone. The scene, the
/// root's node and the bone's.
fn hat_and_body() -> (Scene, usize, usize) {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let bone = node(&mut s, "bone", Some(root), [0.3, 0.0, 0.7], [0.0, 1.0, 0.0]);
    let mut hat = grid("hat", 2, 1.0, 2.0);
    hat.skin = vec![gx::scene::skin_weights(&[(bone as u16, 1.0)]); hat.positions.len()];
    s.meshes.push(hat);
    let mut body = grid("body", 3, 1.0, 0.0);
    ramp(&mut body, (root, 0.5), bone, 0.1, 40.0);
    s.meshes.push(body);
    (s, root, bone)
}

/// A root node and `n` bones under it, bone `k` turned and moved by `place(k)` (rotation,
/// translation); the bones' node indices.
fn fan(s: &mut Scene, n: usize, place: impl Fn(f32) -> ([f32; 3], [f32; 3])) -> Vec<usize> {
    let root = node(s, "root", None, [0.0; 3], [0.0; 3]);
    (0..n)
        .map(|k| {
            let (r, t) = place(k as f32);
            node(s, &format!("b{k}"), Some(root), r, t)
        })
        .collect()
}

/// A grid of `n × n` quads in the XY plane, at height `z`, `size` wide.
fn grid(name: &str, n: u32, size: f32, z: f32) -> gx::scene::Mesh {
    let mut m = gx::scene::Mesh::new(name);
    for y in 0..=n {
        for x in 0..=n {
            let f = |v: u32| v as f32 / n as f32;
            m.positions.push([size * f(x), size * f(y), z]);
            m.normals.push([0.0, 0.0, 1.0]);
        }
    }
    for y in 0..n {
        for x in 0..n {
            let i = y * (n + 1) + x;
            m.triangles.push([i, i + 1, i + n + 1]);
            m.triangles.push([i + 1, i + n + 2, i + n + 1]);
        }
    }
    m
}

/// Imports `a` in both orders: 0 validator errors, and the export of the result holds the same
/// triangles, material count and images (node names differ: HSD joints have none). Returns the
/// Colosseum/XD bytes.
fn plain(a: &Scene) -> Vec<u8> {
    let a = Scene::from_glb(&a.to_glb().unwrap()).unwrap();
    let mut out = Vec::new();
    for order in [Order::Melee, Order::ColosseumXd] {
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let b = import(&a, &opts).unwrap();
        assert!(!b.stale_extras);
        assert!(
            hsd_dat::validate(&b.bytes)
                .iter()
                .all(|d| d.severity != Severity::Error)
        );
        let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
        let d = gx::compare::compare(&a, &c, 1e-3);
        assert_eq!(
            (d.missing, d.extra, d.images),
            (0, 0, 0),
            "{order:?}: {d:?}"
        );
        // A mesh without material gets a plain white MObj.
        assert_eq!(d.materials.0.max(1), d.materials.1);
        out = b.bytes;
    }
    out
}

#[test]
fn plain_textured_prop() {
    let mut s = Scene::new("test");
    let mut m = grid("prop", 2, 2.0, 0.5);
    m.uvs.push(
        m.positions
            .iter()
            .map(|p| [p[0] / 2.0, p[1] / 2.0])
            .collect(),
    );
    let grey = gx::tex::Image::from_fn(8, 8, |x, y| {
        let v = (x * 30 + y * 2) as u8;
        [v, v, v, v]
    })
    .unwrap();
    let t = s.add_image(grey);
    s.materials.push(gx::scene::Material::new("tex", Some(t)));
    m.material = Some(0);
    s.meshes.push(m);
    let b = plain(&s);
    let a = parse(&b).unwrap();
    let g = a.graph();
    // A root joint is added for the unskinned mesh; the grey image with alpha is IA8.
    assert_eq!(g.joints.len(), 1);
    assert_eq!(g.pobjs.len(), 1);
    assert_eq!(g.pobjs[0].pobj.flags.kind(), PObjKind::Rigid);
    let img: hsd_dat::Image = a.read(g.images[0]).unwrap();
    assert_eq!(img.format, 3);
    assert!(
        g.joints[0]
            .joint
            .flags
            .contains(JointFlags::OPA | JointFlags::ROOT_OPA)
    );
}

/// Every vertex of `b`'s meshes through the runtime's skinning path (envelope slots with the
/// weight-1.0 short-circuit and the owner's coord, rigid joints) with the joints of `b` posed
/// as scene `s`'s nodes with `pose` (node, local matrix) overriding their rest, against `s`'s
/// own skinning (`Σ w · world · inverse bind`) of every vertex: each side's points lie within
/// 1e-3 of the extent of the other's. Returns how many HSD vertices were checked.
fn skins_like_gltf(
    s: &Scene,
    b: &[u8],
    node_joints: &[usize],
    pose: &[(usize, gx::mtx::Mtx34)],
) -> usize {
    use gx::mtx::{IDENTITY, apply, mul, srt};
    let mut posed = s.clone();
    for &(n, local) in pose {
        posed.nodes[n].local = local;
    }
    let gworld = posed.world_matrices();
    let want: Vec<[f32; 3]> = s
        .meshes
        .iter()
        .flat_map(|m| {
            m.positions.iter().enumerate().map(|(v, p)| {
                let mut out = [0.0f32; 3];
                let sum: f32 = m.skin[v].iter().map(|e| e.1).sum();
                for &(n, w) in m.skin[v].iter().filter(|e| e.1 > 0.0) {
                    let q = apply(
                        &mul(&gworld[n as usize], &s.nodes[n as usize].inverse_bind),
                        *p,
                    );
                    for k in 0..3 {
                        out[k] += w / sum * q[k];
                    }
                }
                out
            })
        })
        .collect();
    let a = parse(b).unwrap();
    let g = a.graph();
    let mut world: Vec<gx::mtx::Mtx34> = Vec::new();
    for (j, jr) in g.joints.iter().enumerate() {
        let local = pose.iter().find(|(n, _)| node_joints[*n] == j).map_or_else(
            || srt(jr.joint.rotation, jr.joint.scale, jr.joint.translation),
            |e| e.1,
        );
        let parent = jr.parent.map_or(IDENTITY, |p| world[p]);
        world.push(mul(&parent, &local));
    }
    let ibm = a.inverse_binds(&g);
    let got: Vec<[f32; 3]> = g
        .pobjs
        .iter()
        .flat_map(|p| a.mesh(&g, p).unwrap().world_positions(&g, &world, &ibm))
        .collect();
    let extent = s
        .meshes
        .iter()
        .flat_map(|m| m.positions.iter().flatten())
        .fold(1.0f32, |e, x| e.max(x.abs()));
    let near = |p: &[f32; 3], set: &[[f32; 3]]| {
        set.iter()
            .map(|q| (0..3).map(|k| (p[k] - q[k]).abs()).fold(0.0, f32::max))
            .fold(f32::MAX, f32::min)
    };
    for p in &got {
        assert!(
            near(p, &want) <= 1e-3 * extent,
            "HSD vertex {p:?} is no glTF vertex"
        );
    }
    for p in &want {
        assert!(
            near(p, &got) <= 1e-3 * extent,
            "glTF vertex {p:?} is no HSD vertex"
        );
    }
    got.len()
}

/// Blender's re-export of a bone with rest scale: its edit bone drops the scale, so the skin's
/// inverse bind matrix inverts the joint's rest matrix without it, while the node keeps it
/// (pose scale). glTF skins at rest through both, and so must the import: positions are read
/// at rest, not at the inverse bind matrix's pose (which scaled TyBSword's blade by 2.16
/// twice: 213 of its 354 triangles off).
#[test]
fn skin_bound_without_the_rest_scale() {
    let (mut s, _, bone) = hat_and_body();
    s.nodes[bone].local = gx::mtx::srt([0.3, 0.0, 0.7], [2.0, 2.0, 2.0], [0.0, 1.0, 0.0]);
    // Through a glb, as the file is read: positions skinned at rest.
    let read = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let i = import(&read, &ImportOptions::default()).unwrap();
    assert!(support::errors(&i.bytes).is_empty());
    let turned = gx::mtx::srt([0.9, -0.4, 1.2], [1.0, 1.3, 1.0], [0.2, 1.5, -0.3]);
    for pose in [vec![], vec![(bone, turned)]] {
        assert!(skins_like_gltf(&s, &i.bytes, &i.node_joints, &pose) >= 25);
    }
}

/// Palettes: a mesh whose triangles alternate between two regions, each weighted to its own
/// ten joints, fills two PObjs (one per region, its palette the region's ten weight sets),
/// where cutting the triangles in order needed a PObj every few triangles.
#[test]
fn palettes_gather_what_they_already_draw() {
    let mut s = Scene::new("test");
    let bones = fan(&mut s, 20, |k| ([0.0; 3], [k, 0.0, 0.0]));
    let mut m = gx::scene::Mesh::new("two regions");
    // Region r: a strip of 10 vertices, vertex v on bone 10 r + v.
    for r in 0..2 {
        for v in 0..10 {
            m.positions.push([v as f32, (v % 2) as f32, 3.0 * r as f32]);
            m.normals.push([0.0, 0.0, 1.0]);
            m.skin
                .push(gx::scene::skin_weights(&[(bones[10 * r + v] as u16, 1.0)]));
        }
    }
    for v in 0..8u32 {
        for r in 0..2u32 {
            let o = 10 * r + v;
            m.triangles.push(if v % 2 == 0 {
                [o, o + 1, o + 2]
            } else {
                [o + 1, o, o + 2]
            });
        }
    }
    s.meshes.push(m);
    let i = import(&s, &ImportOptions::default()).unwrap();
    assert_eq!(i.pobjs, 2);
    assert_eq!(i.fitted, None);
    assert!(support::errors(&i.bytes).is_empty());
    assert!(skins_like_gltf(&s, &i.bytes, &i.node_joints, &[]) >= 20);
}

/// Weights too varied for the game's PObj limit are rounded, ever coarser, until their
/// palettes fit in fewer than `POBJ_WARN` PObjs: a grid whose every vertex has its own three
/// weights (5,329 weight sets, 1,296 PObjs as they are) imports with its weights rounded
/// (2.5 % steps), every triangle kept, and skins at rest as glTF does (each rounded set sums
/// to 1).
#[test]
fn too_many_weight_sets_are_rounded() {
    let mut s = Scene::new("test");
    let bones = fan(&mut s, 12, |k| ([0.0, 0.0, 0.3 * k], [0.0; 3]));
    let mut m = grid("body", 72, 8.0, 0.0);
    m.skin = m
        .positions
        .iter()
        .map(|p| {
            let k = ((p[0] + p[1]) * 0.7) as usize % 10;
            let (a, b) = (0.2 + 0.6 * (p[0] / 8.0), 0.1 + 0.3 * (p[1] / 8.0));
            gx::scene::skin_weights(&[
                (bones[k] as u16, a),
                (bones[k + 1] as u16, b),
                (bones[k + 2] as u16, 1.0 - a - b / 2.0),
            ])
        })
        .collect();
    let triangles = m.triangles.len();
    s.meshes.push(m);
    let i = import(&s, &ImportOptions::default()).unwrap();
    let f = i.fitted.unwrap();
    let (step, before) = (f.weight_step.unwrap(), f.pobjs);
    assert!(
        step > 0.0 && before >= hsd_dat::POBJ_CRASH && f.joined == 0,
        "{f:?}"
    );
    assert!(i.pobjs < hsd_dat::POBJ_WARN, "{}", i.pobjs);
    assert!(support::errors(&i.bytes).is_empty());
    let back = Scene::from_glb(&export::to_glb(&parse(&i.bytes).unwrap()).unwrap()).unwrap();
    let kept: usize = back.meshes.iter().map(|m| m.triangles.len()).sum();
    assert_eq!(kept, triangles);
    assert!(skins_like_gltf(&s, &i.bytes, &i.node_joints, &[]) >= 5000);
}

/// Every mesh is at least one PObj: a rip in 300 pieces over three materials (half rigid on
/// a bone, half weighted to two) is joined into a mesh per material, its weights untouched,
/// every triangle kept and skinned as glTF skins it.
#[test]
fn many_meshes_are_joined() {
    let mut s = Scene::new("test");
    let bones = fan(&mut s, 10, |k| ([0.0, 0.1 * k, 0.0], [k, 0.0, 0.0]));
    for k in 0..3 {
        s.materials
            .push(gx::scene::Material::new(format!("m{k}"), None));
    }
    for i in 0..300 {
        let mut m = grid(&format!("piece{i}"), 1, 0.5, i as f32 * 0.1);
        let (a, b) = (bones[i % 10] as u16, bones[(i + 1) % 10] as u16);
        let w = if i % 2 == 0 {
            vec![(a, 1.0)]
        } else {
            vec![(a, 0.7), (b, 0.3)]
        };
        m.skin = vec![gx::scene::skin_weights(&w); m.positions.len()];
        m.material = Some(i % 3);
        s.meshes.push(m);
    }
    let i = import(&s, &ImportOptions::default()).unwrap();
    let f = i.fitted.unwrap();
    assert_eq!((f.pobjs, f.joined, f.weight_step), (300, 297, None));
    assert!(i.pobjs < 10, "{}", i.pobjs);
    assert!(support::errors(&i.bytes).is_empty());
    let turned = gx::mtx::srt([0.4, 0.0, 0.9], [1.0; 3], [1.0, 0.2, 0.0]);
    for pose in [vec![], vec![(bones[3], turned)]] {
        assert!(skins_like_gltf(&s, &i.bytes, &i.node_joints, &pose) >= 1200);
    }
}

#[test]
fn plain_mesh_weighted_to_its_own_bone() {
    // Blender's case: a mesh bound 100 % to a bone (rotated, off the origin) that is also a
    // deformer of the other mesh. Seed 003's holder: a joint under the bone, coincident with
    // it and weighted by nothing, owns the mesh (ENVELOPE_MODEL, OPA, no SKELETON or inverse
    // bind), every vertex weighted 1.0 to the bone; the other mesh is an envelope mesh owned
    // by a joint no envelope weights.
    let (s, root, bone) = hat_and_body();
    let b = plain(&s);
    let findings = hsd_dat::validate(&b);
    assert!(findings.iter().all(|d| d.rule != "HSD-020"), "{findings:?}");
    let a = parse(&b).unwrap();
    let g = a.graph();
    // Root, bone, the bone's holder, the body's holder under the (weighted) root.
    assert_eq!(g.joints.len(), 4);
    let bone_j = &g.joints[1];
    assert!(bone_j.joint.flags.contains(JointFlags::SKELETON));
    assert!(bone_j.joint.inverse_bind.is_some());
    let holder = &g.joints[2];
    assert_eq!(holder.parent, Some(1));
    let h = &holder.joint;
    assert!(
        h.flags
            .contains(JointFlags::ENVELOPE_MODEL | JointFlags::OPA)
    );
    assert!(!h.flags.intersects(JointFlags::SKELETON | JointFlags::XLU));
    assert!(h.inverse_bind.is_none());
    assert_eq!(
        (h.rotation, h.scale, h.translation),
        ([0.0; 3], [1.0; 3], [0.0; 3])
    );
    let held: Vec<_> = g.pobjs.iter().filter(|p| p.joint == 2).collect();
    assert!(!held.is_empty());
    for p in held {
        assert_eq!(p.pobj.flags.kind(), PObjKind::Envelope);
        assert_eq!(a.mesh(&g, p).unwrap().palette, vec![vec![(1, 1.0)]]);
    }
    for p in &g.pobjs {
        assert_eq!(p.pobj.flags.kind(), PObjKind::Envelope);
        let owner = &g.joints[p.joint].joint;
        assert!(
            owner
                .flags
                .contains(JointFlags::ENVELOPE_MODEL | JointFlags::OPA)
        );
        assert!(
            !owner
                .flags
                .intersects(JointFlags::SKELETON | JointFlags::XLU)
        );
        assert!(owner.inverse_bind.is_none());
    }
    // Drawn as glTF skins them, at rest and with the bone and the root moved.
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let joints = import(&s, &ImportOptions::default()).unwrap().node_joints;
    let turned = gx::mtx::srt([0.9, -0.4, 1.2], [1.0, 1.3, 1.0], [0.2, 1.5, -0.3]);
    let moved = gx::mtx::srt([0.0, 0.5, 0.0], [1.0; 3], [1.0, 0.0, 0.0]);
    for pose in [
        vec![],
        vec![(bone, turned)],
        vec![(bone, turned), (root, moved)],
    ] {
        assert!(skins_like_gltf(&s, &b, &joints, &pose) >= 25);
    }
}

#[test]
fn plain_zero_rest_scale() {
    // Seed 003's hidden bone: a wing whose rest scale is zero (its tip collapsing with it)
    // and whose glTF inverse bind matrices were taken in the visible pose. Its vertices are
    // stored against that bind pose and its inverse bind matrix is the glTF's, so the runtime
    // draws them collapsed at rest and as glTF skins them once the wing is shown; the mesh
    // weighted 100 % to the tip is held off the hidden joints (owned by the root: no coord
    // inverts them).
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let shown = gx::mtx::srt([0.0, 0.0, 0.4], [1.0; 3], [0.0, 1.0, 0.0]);
    let wing = node(&mut s, "wing", Some(root), [0.0, 0.0, 0.4], [0.0, 1.0, 0.0]);
    let tip = node(&mut s, "tip", Some(wing), [0.2, 0.0, 0.0], [1.0, 0.0, 0.0]);
    s.nodes[wing].local = gx::mtx::srt([0.0, 0.0, 0.4], [0.0; 3], [0.0, 1.0, 0.0]);
    let mut flap = grid("flap", 3, 2.0, 0.5);
    ramp(&mut flap, (wing, 0.6), tip, 0.2, 50.0);
    s.meshes.push(flap);
    let mut claw = grid("claw", 1, 0.5, 1.0);
    claw.skin = vec![gx::scene::skin_weights(&[(tip as u16, 1.0)]); claw.positions.len()];
    s.meshes.push(claw);
    let b = plain(&s);
    let a = parse(&b).unwrap();
    let g = a.graph();
    assert_eq!(g.joints[1].joint.scale, [0.0; 3]);
    let ibm = a.inverse_binds(&g);
    let want = s.nodes[wing].inverse_bind;
    let got = ibm[1].unwrap();
    for r in 0..3 {
        for c in 0..4 {
            assert!((got[r][c] - want[r][c]).abs() < 1e-5, "{got:?} vs {want:?}");
        }
    }
    // No joint is both a mesh owner and a deformer; no coord passes through the wing.
    assert!(hsd_dat::validate(&b).iter().all(|d| d.rule != "HSD-020"));
    assert!(
        g.pobjs
            .iter()
            .all(|p| p.joint == 0 || g.joints[p.joint].parent == Some(0))
    );
    // Read from a glb too: glTF skins at rest, but the hidden joints' vertices are read at
    // their bind pose (at rest they collapse), and the import draws them as glTF skins them.
    let half = gx::mtx::srt([0.0, 0.0, 0.4], [0.5, 1.0, 0.5], [0.0, 1.0, 0.0]);
    let read = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let via_glb = import(&read, &ImportOptions::default()).unwrap();
    for pose in [vec![], vec![(wing, shown)], vec![(wing, half)]] {
        let joints = &via_glb.node_joints;
        assert!(skins_like_gltf(&s, &b, joints, &pose) >= 20);
        assert!(skins_like_gltf(&s, &via_glb.bytes, joints, &pose) >= 20);
    }
    let s = read;
    // Exported again, the hidden wing keeps the file's inverse bind matrix (not identity, as
    // its singular rest matrix would give) with its meshes in that bind pose: glTF skins them
    // as the runtime draws them, at rest and shown; imported, the matrix comes back bit for
    // bit.
    let e = Scene::from_glb(&export::to_glb(&a).unwrap()).unwrap();
    assert_eq!(e.nodes[1].inverse_bind, got);
    let same: Vec<usize> = (0..e.nodes.len()).collect();
    let (ew, et) = (1, 2);
    assert_eq!(e.nodes[et].parent, Some(ew));
    for pose in [vec![], vec![(ew, shown)], vec![(ew, half)]] {
        assert!(skins_like_gltf(&e, &b, &same, &pose) >= 20);
    }
    let b2 = import(&e, &ImportOptions::default()).unwrap().bytes;
    let a2 = parse(&b2).unwrap();
    let g2 = a2.graph();
    assert_eq!(a2.inverse_binds(&g2)[1], Some(got));
    assert_eq!(g2.joints[1].joint.scale, [0.0; 3]);
    // Without invertible inverse bind matrices the hidden joints cannot be bound: refused.
    let mut s = s;
    for n in [wing, tip] {
        s.nodes[n].inverse_bind = [[0.0; 4]; 3];
    }
    let e = import(&s, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("singular"), "{e}");
}

#[test]
fn plain_four_weight_body() {
    // A chain of four bones under a root turned like Blender's armatures (an identity root is
    // added above it), every vertex weighted to all four with its own weights: the palette
    // limit splits the mesh into several PObjs.
    let mut s = Scene::new("test");
    let arm = node(
        &mut s,
        "armature",
        None,
        [std::f32::consts::FRAC_PI_2, 0.0, 0.0],
        [0.0; 3],
    );
    let mut bones = Vec::new();
    let mut parent = arm;
    for k in 0..4 {
        parent = node(
            &mut s,
            &format!("b{k}"),
            Some(parent),
            [0.0, 0.1 * k as f32, 0.0],
            [0.0, 0.5, 0.0],
        );
        bones.push(parent as u16);
    }
    let mut body = grid("body", 6, 2.0, 0.0);
    body.skin = (0..body.positions.len())
        .map(|i| {
            let w = [1.0, 2.0, 3.0, 4.0 + i as f32].map(|x| x / (10.0 + i as f32));
            gx::scene::skin_weights(&[
                (bones[0], w[0]),
                (bones[1], w[1]),
                (bones[2], w[2]),
                (bones[3], w[3]),
            ])
        })
        .collect();
    s.meshes.push(body);
    let b = plain(&s);
    let a = parse(&b).unwrap();
    let g = a.graph();
    assert_eq!(g.joints.len(), 6, "added root + armature + 4 bones");
    assert!(g.joints[0].joint.flags.contains(JointFlags::SKELETON_ROOT));
    assert_eq!(g.joints[0].joint.rotation, [0.0; 3]);
    let mut slots = 0;
    for p in &g.pobjs {
        let m = a.mesh(&g, p).unwrap();
        assert!(m.palette.len() <= hsd_dat::MAX_PALETTE);
        assert!(m.palette.iter().all(|e| e.len() == 4));
        slots += m.palette.len();
    }
    assert!(
        slots >= 49,
        "every one of the 49 weight sets has a slot: {slots}"
    );
    assert!(g.pobjs.len() >= 5, "{} PObjs", g.pobjs.len());
    for j in 2..6 {
        assert!(g.joints[j].joint.flags.contains(JointFlags::SKELETON));
    }
}

/// Joint animations come back: the XD samples' AnimJoint trees (exported as glTF animations by
/// the runtime's curve evaluation) import as AnimJoint/FObj trees whose export poses every
/// joint within 1e-3 of the original at every frame, in both orders; b.dat's bound box has one
/// set per animation (checked by the validator, HSD-026).
#[test]
fn animations_round_trip() {
    let samples = [
        hsd_dat::build::xd_model(hsd_dat::build::XdOptions::default()).unwrap(),
        hsd_dat::build::xd_scene().unwrap(),
    ];
    let mut checked = 0;
    for m in samples {
        let m = m.write().unwrap();
        for order in [Order::ColosseumXd, Order::Melee] {
            let opts = ImportOptions {
                order,
                ..ImportOptions::default()
            };
            let (a, c, _) = support::round_trip(&m, &opts);
            assert!(!a.clips.is_empty());
            assert_eq!(a.clips.len(), c.clips.len(), "{order:?}");
            for (ca, cc) in a.clips.iter().zip(&c.clips) {
                if ca.name.starts_with("matanim_") {
                    continue; // tests/matanim.rs
                }
                let end = ca
                    .channels
                    .iter()
                    .flat_map(|x| x.times.last().copied())
                    .fold(0.0f32, f32::max);
                let times: Vec<f32> = (0..=(end * 60.0).round() as u32)
                    .map(|f| f as f32 / 60.0)
                    .collect();
                let (la, lc) = (a.clip_locals(ca, &times), c.clip_locals(cc, &times));
                for (node, (x, y)) in la.iter().zip(&lc).enumerate() {
                    for (k, (p, q)) in x.iter().zip(y).enumerate() {
                        for (u, v) in p.iter().flatten().zip(q.iter().flatten()) {
                            assert!(
                                (u - v).abs() < 1e-3,
                                "{order:?} node {node} frame {k}: {p:?} {q:?}"
                            );
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 6, "two orders × (2 + 1) animations");
}

/// A node listed before its parent (not pre-order, as Blender writes glTF) keeps its parent:
/// the joints come in the tree's pre-order (root, mid, child), `node_joints` says where each
/// node went, and the mesh weighted to both keeps its positions.
#[test]
fn plain_child_before_parent() {
    let mut s = Scene::new("test");
    let local = gx::mtx::srt([0.0; 3], [1.0; 3], [0.0, 1.0, 0.0]);
    s.nodes
        .push(gx::scene::Node::new("root", None, gx::mtx::IDENTITY));
    s.nodes.push(gx::scene::Node::new("child", Some(2), local));
    s.nodes.push(gx::scene::Node::new("mid", Some(0), local));
    s.nodes[1].inverse_bind = gx::mtx::inverse(&gx::mtx::mul(&local, &local)).unwrap();
    s.nodes[2].inverse_bind = gx::mtx::inverse(&local).unwrap();
    let mut m = grid("body", 1, 1.0, 0.0);
    m.skin = (0..m.positions.len())
        .map(|i| gx::scene::skin_weights(&[(1, 0.25 + i as f32 / 10.0), (2, 0.5)]))
        .collect();
    s.meshes.push(m);
    plain(&s);
    // In code (a glTF reader lists nodes in file order): the nodes as given.
    let imported = import(&s, &ImportOptions::default()).unwrap();
    assert_eq!(imported.node_joints, [0, 2, 1]);
    let a = parse(&imported.bytes).unwrap();
    let g = a.graph();
    // "root" owns the mesh; "child" hangs off "mid", two units up.
    assert_eq!(g.joints.len(), 3);
    let f = |j: usize| g.joints[j].joint.flags;
    assert!(f(0).contains(JointFlags::ENVELOPE_MODEL) && !f(0).contains(JointFlags::SKELETON));
    assert!(f(1).contains(JointFlags::SKELETON) && f(2).contains(JointFlags::SKELETON));
    let world = a.world_matrices(&g);
    assert!((world[2][1][3] - 2.0).abs() < 1e-6, "{:?}", world[2]);
}

/// The stored bits of every joint (rotation, scale, translation, inverse bind matrix) of `m`
/// and `b`, which must have the same joints.
fn joint_bits(x: &[u8]) -> Vec<(Vec<u32>, Option<Vec<u32>>)> {
    let a = parse(x).unwrap();
    let g = a.graph();
    let ibm = a.inverse_binds(&g);
    g.joints
        .iter()
        .zip(ibm)
        .map(|(j, m)| {
            let j = &j.joint;
            let srt = [j.rotation, j.scale, j.translation];
            (
                srt.iter().flatten().map(|x| x.to_bits()).collect(),
                m.map(|m| m.iter().flatten().map(|x| x.to_bits()).collect()),
            )
        })
        .collect()
}

/// Every real model's joints come back through glTF bit for bit, in both orders: the SRT
/// from the node's extras, the inverse bind matrices from the glTF skin (PlMrNr's 53).
#[test]
fn real_joints_round_trip_exactly() {
    let Some(models) = support::real_models("hsd-dat joint bits") else {
        return;
    };
    assert_eq!(models.len(), support::REAL_MODELS, "real models read");
    let mut matrices = 0;
    for (name, m) in &models {
        let want = joint_bits(m);
        matrices += want.iter().filter(|j| j.1.is_some()).count();
        for order in [Order::ColosseumXd, Order::Melee] {
            let (_, _, b) = support::round_trip(m, &support::in_order(order));
            assert!(joint_bits(&b) == want, "{name}: {order:?}");
        }
    }
    assert_eq!(matrices, 53);
}

/// A joint with awkward floats (a rotation past π, a scale a quaternion cannot keep, a zero
/// scale hiding a rotation) comes back bit for bit through a `.glb`, where decomposing the
/// node's matrix does not; a node edited after export (as in Blender) wins over its extras.
#[test]
fn recorded_srt_round_trips_and_edits_win() {
    use hsd_dat::extras::{JointExtras, write};
    let joints = [
        (
            [3.5, -0.000_916, 1.0e-7],
            [1.000_000_1, 0.3, 2.7],
            [0.1, -12.345_679, 1e3],
        ),
        ([0.7, 0.0, -2.2], [0.0; 3], [0.0, 1.0, 0.0]),
    ];
    let mut s = Scene::new("test");
    s.nodes
        .push(gx::scene::Node::new("root", None, gx::mtx::IDENTITY));
    for (k, (r, sc, t)) in joints.iter().enumerate() {
        let mut n = gx::scene::Node::new(format!("j{k}"), Some(k), gx::mtx::srt(*r, *sc, *t));
        n.extras = write(&JointExtras {
            flags: 0,
            srt: Some([*r, *sc, *t]),
            ..JointExtras::default()
        });
        s.nodes.push(n);
    }
    let mut m = grid("prop", 1, 1.0, 0.0);
    m.skin = vec![gx::scene::skin_weights(&[(0, 1.0)]); m.positions.len()];
    s.meshes.push(m);
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let srt_of = |b: &[u8], j: usize| {
        let a = parse(b).unwrap();
        let x = &a.graph().joints[j].joint;
        [x.rotation, x.scale, x.translation]
    };
    let b = import(&s, &ImportOptions::default()).unwrap().bytes;
    let bits = |v: [[f32; 3]; 3]| v.map(|x| x.map(f32::to_bits));
    let mut decomposed_differs = false;
    for (k, (r, sc, t)) in joints.iter().enumerate() {
        assert_eq!(bits(srt_of(&b, k + 1)), bits([*r, *sc, *t]), "joint {k}");
        let (ds, dr, dt) = gx::mtx::decompose_srt(&s.nodes[k + 1].local, [0.0; 3]);
        decomposed_differs |= bits([dr, ds, dt]) != bits([*r, *sc, *t]);
    }
    assert!(
        decomposed_differs,
        "the matrix alone would keep the bits too"
    );
    // Blender turns the first joint a little: its matrix, not the extras, is imported.
    let mut edited = s.clone();
    let turned = gx::mtx::srt([3.5, -0.05, 0.0], [1.0, 0.3, 2.7], [0.1, -12.0, 1e3]);
    edited.nodes[1].local = turned;
    let b = import(&edited, &ImportOptions::default()).unwrap().bytes;
    let [r, sc, t] = srt_of(&b, 1);
    let got = gx::mtx::srt(r, sc, t);
    for (x, y) in got.iter().flatten().zip(turned.iter().flatten()) {
        assert!((x - y).abs() < 1e-3, "{got:?} vs {turned:?}");
    }
    assert_eq!(
        bits(srt_of(&b, 2)),
        bits([joints[1].0, joints[1].1, joints[1].2])
    );
    // Blender's default re-export: the bone keeps its turn, its rest scale becomes 1. The
    // node's matrix is imported, and the import says which node lost its recorded scale.
    let mut edited = s.clone();
    edited.nodes[1].local = gx::mtx::srt(joints[0].0, [1.0; 3], joints[0].2);
    let i = import(&edited, &ImportOptions::default()).unwrap();
    assert!(
        srt_of(&i.bytes, 1)[1]
            .iter()
            .all(|x| (x - 1.0).abs() < 1e-6)
    );
    assert_eq!(i.scale_dropped, [1]);
    assert!(
        import(&s, &ImportOptions::default())
            .unwrap()
            .scale_dropped
            .is_empty()
    );
}

/// An animation that moves nothing (its channels hold the rest pose) keeps its length: the
/// AnimJoint tree gets one constant track, so its AObj's `end_frame` matches the bound box
/// (HSD-026) and the export still has the animation.
#[test]
fn still_animation_keeps_its_length() {
    let mut s = Scene::new("test");
    node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let bone = node(&mut s, "bone", Some(0), [0.0; 3], [0.0, 1.0, 0.0]);
    let mut m = grid("body", 1, 1.0, 0.0);
    m.skin = (0..m.positions.len())
        .map(|i| gx::scene::skin_weights(&[(0, 0.5), (bone as u16, 0.1 + i as f32 / 10.0)]))
        .collect();
    s.meshes.push(m);
    s.clips.push(gx::scene::Clip {
        name: "still".into(),
        channels: vec![gx::scene::Channel {
            node: bone,
            target: gx::scene::Target::Translation,
            interpolation: gx::scene::Interpolation::Linear,
            times: vec![0.0, 12.0 / 60.0],
            values: vec![0.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        }],
        extras: None,
    });
    for order in [Order::ColosseumXd, Order::Melee] {
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let b = import(&s, &opts).unwrap().bytes;
        let c = Scene::from_glb(&export::to_glb(&parse(&b).unwrap()).unwrap()).unwrap();
        assert_eq!(c.clips.len(), 1, "{order:?}");
        let end = c.clips[0]
            .channels
            .iter()
            .flat_map(|x| x.times.last().copied())
            .fold(0.0f32, f32::max);
        assert!((end * 60.0 - 12.0).abs() < 1e-3, "{order:?}: {end}");
    }
}

/// A clip keyed at 24 per second (Blender's default rate) plays its own poses where its keys
/// fall between the game's frames: every 2.5 frames, half of them on half frames, which the
/// game shows at other rates and a 24 fps viewer samples. Fitted at whole frames alone the
/// curves cut those corners (a rotation entry 0.12 off at frame 2.5 here). A cubic clip
/// (Blender's unsampled export) bends between frames: every half frame is held too.
#[test]
fn clip_keyed_between_frames_holds_its_keys() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let mut joints = vec![root];
    for k in 0..3 {
        let parent = joints.last().copied();
        joints.push(node(
            &mut s,
            &format!("bone{k}"),
            parent,
            [0.0; 3],
            [0.0, 1.0, 0.0],
        ));
    }
    let mut m = grid("body", 1, 1.0, 0.0);
    m.skin = vec![gx::scene::skin_weights(&[(joints[1] as u16, 1.0)]); m.positions.len()];
    s.meshes.push(m);
    // Speeds change at every key: a turn forth and back, faster each time.
    let angles = [0.0f32, 0.6, -0.2, 1.4, -1.0, 0.3, 0.0];
    let times: Vec<f32> = (0..angles.len()).map(|k| k as f32 / 24.0).collect();
    let channels = joints[1..]
        .iter()
        .enumerate()
        .map(|(j, &bone)| gx::scene::Channel {
            node: bone,
            target: gx::scene::Target::Rotation,
            interpolation: gx::scene::Interpolation::Linear,
            times: times.clone(),
            values: angles
                .iter()
                .flat_map(|a| {
                    let h = a * (1.0 + j as f32) / 2.0;
                    [0.0, 0.0, h.sin(), h.cos()]
                })
                .collect(),
        })
        .collect();
    s.clips.push(gx::scene::Clip {
        name: "at 24".into(),
        channels,
        extras: None,
    });
    // A cubic clip (Blender's unsampled export) keyed every 15 frames, turning fast: its
    // normalised quaternion curves between two frames, so every half frame is held too.
    let (h, d) = (0.25f32, 0.5f32);
    let q = |a: f32| [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()];
    let turns = [0.0f32, 3.0, 6.2];
    let values = turns
        .iter()
        .flat_map(|&a| {
            // In-tangent, value, out-tangent: 4 × the derivative at a steady speed (an overshoot).
            let dq = [
                0.0,
                0.0,
                (a / 2.0).cos() * d * 4.0,
                -(a / 2.0).sin() * d * 4.0,
            ];
            [dq, q(a), dq].into_iter().flatten()
        })
        .collect();
    s.clips.push(gx::scene::Clip {
        name: "cubic".into(),
        channels: vec![gx::scene::Channel {
            node: joints[2],
            target: gx::scene::Target::Rotation,
            interpolation: gx::scene::Interpolation::CubicSpline,
            times: vec![0.0, h, 2.0 * h],
            values,
        }],
        extras: None,
    });
    let i = import(&s, &ImportOptions::default()).unwrap();
    let a = parse(&i.bytes).unwrap();
    let set = support::first_model_set(&a);
    // The ModelSet's animation list: one AnimJoint tree per clip.
    let list = set.anims.unwrap();
    let anims = [a.pointer(list).unwrap(), a.pointer(list + 4).unwrap()];
    for (clip, anim, frames) in [
        (
            "at 24",
            anims[0],
            (0..angles.len())
                .map(|k| 2.5 * k as f32)
                .collect::<Vec<_>>(),
        ),
        ("cubic", anims[1], (0..60).map(|k| k as f32 / 2.0).collect()),
    ] {
        let played = a.joint_animation(set.joint.unwrap(), anim).unwrap();
        for f in frames {
            let want = support::gltf_pose(&s, clip, f / 60.0);
            let got = played.sample(f);
            let got: Vec<_> = i.node_joints.iter().map(|&j| got[j]).collect();
            support::poses_agree(&want, &got, 1e-3)
                .unwrap_or_else(|e| panic!("{clip} frame {f}: {e}"));
        }
    }
}

/// The fitting tolerance is honoured: a loose one stores fewer keys (a smaller file) than the
/// default, which keeps every frame within 1e-4 — for tracks the import fits, here every one
/// (the keys our export stored left out, as an edited glb has none that fit).
#[test]
fn animation_tolerance_is_honoured() {
    let m = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let mut a = Scene::from_glb(&export::to_glb(&parse(&m).unwrap()).unwrap()).unwrap();
    extras_objects(&mut a, &mut |o| {
        o.remove("curves");
        o.remove("stored");
    });
    let tight = import(&a, &ImportOptions::default()).unwrap().bytes;
    let loose = ImportOptions {
        tolerance: 10.0,
        ..ImportOptions::default()
    };
    let loose = import(&a, &loose).unwrap().bytes;
    assert!(loose.len() < tight.len(), "{} {}", loose.len(), tight.len());
}

/// Every UV set: a mesh with two sets, its texture read through the second, imports with TEX0
/// and TEX1 arrays and a TObj reading TEX1; exported again it has both sets, and the recorded
/// material (our extras) keeps the source through a second round trip.
#[test]
fn every_uv_set_round_trips() {
    let mut s = Scene::new("test");
    let mut m = grid("two sets", 2, 2.0, 0.5);
    m.uvs.push(
        m.positions
            .iter()
            .map(|p| [p[0] / 2.0, p[1] / 2.0])
            .collect(),
    );
    m.uvs.push(
        m.positions
            .iter()
            .map(|p| [1.0 - p[1] / 4.0, p[0] / 8.0])
            .collect(),
    );
    let img =
        gx::tex::Image::from_fn(8, 8, |x, y| [(x * 30) as u8, (y * 30) as u8, 0, 255]).unwrap();
    let t = s.add_image(img);
    let mut mat = gx::scene::Material::new("second set", Some(t));
    mat.texcoord = 1;
    s.materials.push(mat);
    m.material = Some(0);
    s.meshes.push(m.clone());
    let check = |bytes: &[u8]| {
        let a = parse(bytes).unwrap();
        let g = a.graph();
        let (_, attrs) = a.vertex_desc(g.pobjs[0].pobj.vtx_desc.unwrap()).unwrap();
        let sets: Vec<u32> = attrs
            .iter()
            .map(|(d, _)| d.attr)
            .filter(|&x| (13..=20).contains(&x))
            .collect();
        assert_eq!(sets, [13, 14]);
        let mobj: hsd_dat::MObj = a.read(g.pobjs[0].mobj.unwrap()).unwrap();
        let tobj: hsd_dat::TObj = a.read(mobj.tobj.unwrap()).unwrap();
        assert_eq!(tobj.src, 5, "TObj reads TEX1");
        let c = Scene::from_glb(&export::to_glb(&a).unwrap()).unwrap();
        assert_eq!(c.meshes[0].uvs.len(), 2);
        assert_eq!(c.materials[0].texcoord, 1);
        for (k, set) in m.uvs.iter().enumerate() {
            // Each vertex's coordinates, wherever the export put the vertex.
            for (p, uv) in c.meshes[0].positions.iter().zip(&c.meshes[0].uvs[k]) {
                let i = m
                    .positions
                    .iter()
                    .position(|q| (0..3).all(|j| (p[j] - q[j]).abs() < 1e-4))
                    .unwrap();
                assert!(
                    (0..2).all(|j| (uv[j] - set[i][j]).abs() < 1e-3),
                    "set {k}: {uv:?} {:?}",
                    set[i]
                );
            }
        }
        c
    };
    for order in [Order::ColosseumXd, Order::Melee] {
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let c = check(&import(&s, &opts).unwrap().bytes);
        check(&import(&c, &opts).unwrap().bytes);
    }
}

/// Vertex order survives `glb → dat → glb`: a mesh whose triangles use its vertices last to
/// first imports with its arrays in the glTF vertex order (not the display list's first use, as
/// HAL keeps its source mesh's order), and the export writes the vertices in array order, so the
/// positions come back in the order they were given.
#[test]
fn vertex_order_round_trips() {
    let mut s = Scene::new("test");
    let mut m = grid("reversed", 3, 3.0, 0.0);
    m.triangles.reverse();
    for t in &mut m.triangles {
        t.reverse();
    }
    let given = m.positions.clone();
    s.meshes.push(m);
    let b = plain(&s);
    let c = export::to_scene(&parse(&b).unwrap()).scene;
    let mut back: Vec<[f32; 3]> = Vec::new();
    for p in &c.meshes[0].positions {
        if !back
            .iter()
            .any(|q| q.iter().zip(p).all(|(x, y)| (x - y).abs() < 1e-3))
        {
            back.push(*p);
        }
    }
    assert_eq!(back.len(), given.len());
    for (p, q) in back.iter().zip(&given) {
        assert!(
            p.iter().zip(q).all(|(x, y)| (x - y).abs() < 1e-3),
            "{back:?}"
        );
    }
}

/// Every attribute's array order survives a round trip, not the positions' alone: three flat
/// triangles whose normals' first uses (n0, n1, n2) are not in the order of the positions they
/// share (sorted by position, the third triangle's p0 would bring n2 before n1). The export's
/// vertex order lists each array's values in its order, so the second import writes the same
/// file as the first.
#[test]
fn every_array_order_round_trips() {
    let mut s = Scene::new("test");
    let mut m = gx::scene::Mesh::new("flat");
    let p = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.5],
        [-1.0, 0.5, 0.5],
    ];
    let n = [[0.0, 0.0, 1.0], [0.0, 0.6, 0.8], [0.6, 0.0, 0.8]];
    let corners = [0, 1, 2, 1, 3, 2, 0, 2, 4];
    for (c, pi) in corners.into_iter().enumerate() {
        m.positions.push(p[pi]);
        m.normals.push(n[c / 3]);
    }
    m.triangles = vec![[0, 1, 2], [3, 4, 5], [6, 7, 8]];
    s.meshes.push(m);
    let b = plain(&s);
    let again = Scene::from_glb(&export::to_glb(&parse(&b).unwrap()).unwrap()).unwrap();
    let opts = ImportOptions {
        order: Order::ColosseumXd,
        ..ImportOptions::default()
    };
    assert_eq!(import(&again, &opts).unwrap().bytes, b);
}

/// A value two meshes share sits in the run of the one that comes last in HAL's backward walk
/// (meshes last to first), its first user in mesh order: the second mesh's triangle (of the
/// same extent, so in the same array) reads only the first mesh's values, so the position
/// array is the first mesh's grid in its own order.
#[test]
fn shared_values_stay_with_their_first_user() {
    let mut s = Scene::new("test");
    let first = grid("first", 2, 2.0, 0.0);
    let given = first.positions.clone();
    let mut second = gx::scene::Mesh::new("second");
    second.positions = vec![given[3], given[0], given[8]];
    second.normals = vec![[0.0, 0.0, 1.0]; 3];
    second.triangles = vec![[0, 1, 2]];
    s.meshes.extend([first, second]);
    let b = plain(&s);
    let a = parse(&b).unwrap();
    let g = a.graph();
    assert_eq!(g.pobjs.len(), 2);
    let (m0, m1) = (
        a.mesh(&g, &g.pobjs[0]).unwrap(),
        a.mesh(&g, &g.pobjs[1]).unwrap(),
    );
    for v in &m0.vertices {
        let want = given[v.indices[0] as usize];
        assert!(
            v.position
                .iter()
                .zip(want)
                .all(|(x, y)| (x - y).abs() < 1e-3)
        );
    }
    let mut used: Vec<u32> = m1.vertices.iter().map(|v| v.indices[0]).collect();
    used.sort_unstable();
    used.dedup();
    assert_eq!(used, [0, 3, 8]);
}

/// A vertex's position, stored normal, binormal and tangent.
type NbtVertex = ([f32; 3], [f32; 3], [[f32; 3]; 2]);

/// Each vertex of the first PObj of `bytes`, in display-list order.
fn nbt_vertices(bytes: &[u8]) -> Vec<NbtVertex> {
    let a = parse(bytes).unwrap();
    let g = a.graph();
    let m = a.mesh(&g, &g.pobjs[0]).unwrap();
    m.vertices
        .iter()
        .map(|v| (v.position, v.normal.unwrap(), v.nbt.unwrap()))
        .collect()
}

/// A grid whose NBT normals (binormal and tangent at bump-strength length, the binormal
/// rounded apart from `N × T`, as TyBancho's are) and descriptor (GX_VA_NBT, s16 with 14
/// fraction bits) are recorded as our export writes them: `dat → glb → dat` keeps every
/// vertex's N, B and T, the glb carries `TANGENT`, `_TANGENT` and `_BINORMAL`.
#[test]
fn nbt_normals_round_trip() {
    let q = |x: f32| (x * 16384.0).round() / 16384.0;
    let mut m = grid("nbt", 2, 2.0, 0.0);
    let n = m.positions.len();
    m.tangents = vec![[1.0, 0.0, 0.0, 1.0]; n];
    m.stored_tangents = (0..n)
        .map(|i| [q(0.01 + i as f32 * 1e-3), 0.0, 0.0])
        .collect();
    m.binormals = (0..n)
        .map(|i| [0.0, q(0.01 + i as f32 * 1e-3) + 2.0 / 16384.0, 0.0])
        .collect();
    let x = hsd_dat::extras::MeshExtras {
        vtx: vec![[9, 3, 1, 3, 11], [25, 3, 1, 3, 14]],
        ..Default::default()
    };
    m.extras = hsd_dat::extras::write(&x);
    let mut s = Scene::new("test");
    s.meshes.push(m.clone());
    let b = plain(&s);
    let first = nbt_vertices(&b);
    for (p, nrm, [bi, t]) in &first {
        let i = m.positions.iter().position(|x| x == p).unwrap();
        assert_eq!(*nrm, [0.0, 0.0, 1.0]);
        assert_eq!(*t, m.stored_tangents[i]);
        assert_eq!(*bi, m.binormals[i]);
    }
    let (_, attrs) = {
        let a = parse(&b).unwrap();
        let g = a.graph();
        a.vertex_desc(g.pobjs[0].pobj.vtx_desc.unwrap()).unwrap()
    };
    assert_eq!(attrs[1].0.attr, 25, "GX_VA_NBT as recorded");
    let c = export::to_scene(&parse(&b).unwrap()).scene;
    let e = &c.meshes[0];
    assert_eq!(e.tangents.len(), e.positions.len());
    assert!(e.tangents.iter().all(|t| t[3] == 1.0));
    assert_eq!(e.stored_tangents.len(), e.positions.len());
    assert_eq!(e.binormals.len(), e.positions.len());
    let c = Scene::from_glb(&c.to_glb().unwrap()).unwrap();
    let again = nbt_vertices(&import(&c, &ImportOptions::default()).unwrap().bytes);
    assert_eq!(again, first);
}

/// Unit tangents whose binormal is `cross(N, T) · w` (either handedness) need neither
/// `_TANGENT` nor `_BINORMAL`: the glb has `TANGENT` alone and the import rebuilds B from it.
/// Without a recorded descriptor, tangents give NBT normals only where the material
/// bump-maps (a TObj with `TEX_BUMP`).
#[test]
fn nbt_binormal_from_handedness() {
    for w in [1.0, -1.0] {
        let mut m = grid("nbt", 1, 2.0, 0.0);
        let n = m.positions.len();
        m.tangents = vec![[1.0, 0.0, 0.0, w]; n];
        let x = hsd_dat::extras::MeshExtras {
            vtx: vec![[9, 3, 1, 3, 11], [25, 3, 1, 3, 14]],
            ..Default::default()
        };
        let mut plain_mesh = m.clone();
        m.extras = hsd_dat::extras::write(&x);
        let mut s = Scene::new("test");
        s.meshes.push(m);
        let b = plain(&s);
        for (_, _, [bi, t]) in nbt_vertices(&b) {
            assert_eq!((bi, t), ([0.0, w, 0.0], [1.0, 0.0, 0.0]));
        }
        let c = export::to_scene(&parse(&b).unwrap()).scene;
        let e = &c.meshes[0];
        assert!(e.tangents.iter().all(|t| *t == [1.0, 0.0, 0.0, w]));
        assert!(e.binormals.is_empty() && e.stored_tangents.is_empty());

        // Plain: NRM XYZ without bump mapping, GX_VA_NBT with it.
        let desc = |s: &Scene| {
            let b = import(s, &ImportOptions::default()).unwrap().bytes;
            let a = parse(&b).unwrap();
            let g = a.graph();
            let (_, attrs) = a.vertex_desc(g.pobjs[0].pobj.vtx_desc.unwrap()).unwrap();
            attrs
                .iter()
                .map(|(d, _)| (d.attr, d.comp_cnt))
                .collect::<Vec<_>>()
        };
        let mut s = Scene::new("test");
        s.meshes.push(plain_mesh.clone());
        assert!(desc(&s).contains(&(10, 0)));
        let img = gx::tex::Image::from_fn(8, 8, |x, _| [(x * 30) as u8, 0, 0, 255]).unwrap();
        let t = s.add_image(img);
        let mut mat = gx::scene::Material::new("bump", Some(t));
        let tex = hsd_dat::extras::TextureExtras {
            image: Some(t),
            src: 4,
            flags: hsd_dat::TObjFlags::BUMP.bits(),
            ..Default::default()
        };
        let x = hsd_dat::extras::MaterialExtras {
            version: hsd_dat::extras::VERSION,
            textures: vec![tex],
            ..Default::default()
        };
        mat.extras = hsd_dat::extras::write(&x);
        s.materials.push(mat);
        plain_mesh.uvs.push(vec![[0.0; 2]; n]);
        plain_mesh.material = Some(0);
        s.meshes[0] = plain_mesh;
        assert!(desc(&s).contains(&(25, 1)));
    }
}

/// The import lays textures out by the order rules alone (docs/HSD-ORDER.md, the texture
/// list), not in the order it happened to encode them: the top joint's first mesh's texture,
/// then the child joint's, then the top joint's second, though the glTF holds the top joint's
/// two images first.
#[test]
fn textures_follow_the_order_rules() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let child = node(&mut s, "child", Some(root), [0.0; 3], [0.0, 1.0, 0.0]);
    for (k, j) in [root, root, child].into_iter().enumerate() {
        let mut m = grid(&format!("m{k}"), 1, 1.0, 0.0);
        m.uvs
            .push(m.positions.iter().map(|p| [p[0], p[1]]).collect());
        m.skin = vec![gx::scene::skin_weights(&[(j as u16, 1.0)]); m.positions.len()];
        let img = gx::tex::Image::from_fn(8, 8, |x, y| {
            let v = (x * 30 + y * 2 + 70 * k as u32) as u8;
            [v, v, v, v]
        })
        .unwrap();
        let t = s.add_image(img);
        s.materials
            .push(gx::scene::Material::new(format!("t{k}"), Some(t)));
        m.material = Some(k);
        s.meshes.push(m);
    }
    plain(&s);
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let b = import(&a, &support::in_order(Order::Melee)).unwrap().bytes;
    let arc = parse(&b).unwrap();
    let g = arc.graph();
    // Each PObj's (top joint's two, then the child's) material's TObj's pixels.
    let pixels: Vec<u32> = g
        .pobjs
        .iter()
        .map(|p| {
            let m: hsd_dat::MObj = arc.read(p.mobj.unwrap()).unwrap();
            let t: hsd_dat::TObj = arc.read(m.tobj.unwrap()).unwrap();
            let i: hsd_dat::Image = arc.read(t.image.unwrap()).unwrap();
            i.data.unwrap()
        })
        .collect();
    let [first, second, child] = pixels[..] else {
        panic!("{pixels:?}")
    };
    assert!(first < child && child < second, "{pixels:?}");
}

/// Texels past an image's edges, which fill its last blocks, are zero bytes as HAL's encoder
/// writes them (`TyDaisy.dat`'s 64×46 RGBA8 image), not the repeated edge.
#[test]
fn block_padding_is_zero() {
    let mut s = Scene::new("test");
    let mut m = grid("prop", 1, 1.0, 0.0);
    m.uvs
        .push(m.positions.iter().map(|p| [p[0], p[1]]).collect());
    // 2 × 2: a plain material's TObj repeats, so its sides are powers of two.
    let t = s.add_image(gx::tex::Image::filled(2, 2, [200, 100, 50, 255]).unwrap());
    s.materials.push(gx::scene::Material::new("tex", Some(t)));
    m.material = Some(0);
    s.meshes.push(m);
    let a = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let opts = ImportOptions {
        texture_format: Some(gx::tex::TexFormat::RGBA8),
        ..ImportOptions::default()
    };
    let b = import(&a, &opts).unwrap().bytes;
    let arc = parse(&b).unwrap();
    let img: hsd_dat::Image = arc.read(arc.graph().images[0]).unwrap();
    let bytes = arc.data().bytes(img.data.unwrap() as usize, 64).unwrap();
    // 4×4 stored: one tile of 32 AR then 32 GB bytes; texel (x, y) at 2·(4y + x).
    for y in 0..4 {
        for x in 0..4 {
            let i = 2 * (4 * y + x);
            let ar = [bytes[i], bytes[i + 1]];
            let want = if x < 2 && y < 2 { [255, 200] } else { [0, 0] };
            assert_eq!(ar, want, "texel ({x}, {y})");
        }
    }
}

/// A `scene_data` root's camera and lights go out as a glTF camera and `KHR_lights_punctual`
/// lights (the ambient one in the document's extras) and, in Melee order, come back as a
/// `scene_data` root with the same CObj and LObjs, field for field.
#[test]
fn camera_and_lights_round_trip() {
    use hsd_dat::{Camera, CameraSet, Light, LightSet, SceneData, WObj};
    let m = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let a = Scene::from_glb(&export::to_glb(&parse(&m).unwrap()).unwrap()).unwrap();
    assert_eq!((a.cameras.len(), a.lights.len()), (1, 1));
    let b = import(&a, &support::in_order(Order::Melee)).unwrap().bytes;
    // (camera with its eye and interest, lights with their positions) of a scene_data root.
    type Objects = (
        Camera<u32>,
        [f32; 3],
        [f32; 3],
        Vec<(Light<u32>, Option<[f32; 3]>)>,
    );
    let objects = |bytes: &[u8]| -> Objects {
        let arc = parse(bytes).unwrap();
        let root = arc.roots().find(|r| r.name == b"scene_data").unwrap();
        let sd: SceneData = arc.read(root.offset).unwrap();
        let set: CameraSet = arc.read(sd.camera.unwrap()).unwrap();
        let cam: Camera = arc.read(set.desc.unwrap()).unwrap();
        let at = |w: Option<u32>| w.map(|w| arc.read::<WObj>(w).unwrap().position);
        let mut lights = Vec::new();
        let mut slot = sd.lights.unwrap();
        while let Ok(Some(s)) = arc.pointer(slot) {
            let l: Light = arc
                .read(arc.read::<LightSet>(s).unwrap().desc.unwrap())
                .unwrap();
            lights.push((l, at(l.position)));
            slot += 4;
        }
        (cam, at(cam.eye).unwrap(), at(cam.interest).unwrap(), lights)
    };
    let (x, y) = (objects(&m), objects(&b));
    let fields = |c: &Camera<u32>| {
        (
            c.flags,
            c.projection,
            c.viewport,
            c.scissor,
            c.roll,
            c.near,
            c.far,
            // A perspective CObj ends at fovy and aspect (0x38 bytes, HSD-032).
            [c.projection_params[0], c.projection_params[1]],
        )
    };
    assert_eq!(fields(&x.0), fields(&y.0));
    assert_eq!((x.1, x.2), (y.1, y.2));
    assert_eq!(x.3.len(), y.3.len());
    for ((l, p), (k, q)) in x.3.iter().zip(&y.3) {
        assert_eq!(
            (l.flags, l.attn_flags, l.color),
            (k.flags, k.attn_flags, k.color)
        );
        assert_eq!(p, q);
    }
}

/// A joint recorded with the translucent pass bits and its XLU material (TyBSword's beam) keep
/// them in Melee order, whose XLU pass alone draws translucent materials, and lose them for
/// Colosseum/XD (seed 003: OPA only).
#[test]
fn translucent_pass_bits_kept_for_melee() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let xlu = JointFlags::XLU | JointFlags::ROOT_XLU;
    s.nodes[root].extras = hsd_dat::extras::write(&hsd_dat::extras::JointExtras {
        flags: xlu.bits(),
        ..Default::default()
    });
    let mut m = grid("beam", 1, 1.0, 0.0);
    m.skin = vec![gx::scene::skin_weights(&[(root as u16, 1.0)]); m.positions.len()];
    let mode = hsd_dat::RenderMode::CONSTANT | hsd_dat::RenderMode::XLU;
    let mut mat = gx::scene::Material::new("beam", None);
    mat.extras = hsd_dat::extras::write(&hsd_dat::extras::MaterialExtras {
        version: 1,
        render_mode: mode.bits(),
        ..Default::default()
    });
    s.materials.push(mat);
    m.material = Some(0);
    s.meshes.push(m);
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    for (order, kept) in [(Order::Melee, true), (Order::ColosseumXd, false)] {
        let opts = ImportOptions {
            order,
            ..ImportOptions::default()
        };
        let b = import(&s, &opts).unwrap().bytes;
        let a = parse(&b).unwrap();
        let f = a.graph().joints[0].joint.flags;
        assert_eq!(f.contains(xlu), kept, "{order:?}: {f:?}");
        assert!(f.contains(JointFlags::OPA), "{order:?}");
        let g = a.graph();
        let mobj: hsd_dat::MObj = a.read(g.pobjs[0].mobj.unwrap()).unwrap();
        let m = mobj.render_mode;
        assert_eq!(
            m.contains(hsd_dat::RenderMode::XLU),
            kept,
            "{order:?}: {m:?}"
        );
    }
}

/// Our extras name glTF images by index. An editor that rewrites our glb (Blender drops the
/// images no material draws and renumbers the rest) leaves indices naming other images or
/// none: the material then imports from its glTF form instead of failing or drawing another
/// image — whether the model extras' image count no longer matches or (without model extras)
/// an index is past the document's images.
#[test]
fn stale_image_indices_are_not_trusted() {
    for with_model_extras in [false, true] {
        let mut s = Scene::new("test");
        let mut m = grid("prop", 1, 1.0, 0.0);
        m.uvs
            .push(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
        m.material = Some(0);
        s.meshes.push(m);
        let red = gx::tex::Image::from_fn(8, 8, |_, _| [255, 0, 0, 255]).unwrap();
        let t = s.add_image(red);
        let mut mat = gx::scene::Material::new("stale", Some(t));
        mat.extras = hsd_dat::extras::write(&hsd_dat::extras::MaterialExtras {
            version: 1,
            textures: vec![hsd_dat::extras::TextureExtras {
                image: Some(if with_model_extras { 0 } else { 5 }),
                ..Default::default()
            }],
            ..Default::default()
        });
        s.materials.push(mat);
        if with_model_extras {
            // Written for a document of three images.
            s.extras = hsd_dat::extras::write(&hsd_dat::extras::ModelExtras {
                version: 1,
                images: vec![None; 3],
                ..Default::default()
            });
        }
        let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
        let imported = import(&s, &ImportOptions::default()).unwrap();
        assert!(imported.stale_extras);
        let a = parse(&imported.bytes).unwrap();
        let g = a.graph();
        let mobj: hsd_dat::MObj = a.read(g.pobjs[0].mobj.unwrap()).unwrap();
        let tobj: hsd_dat::TObj = a.read(mobj.tobj.unwrap()).unwrap();
        let r = hsd_dat::image::TextureRef {
            image: tobj.image.unwrap(),
            palette: tobj.palette,
        };
        let img = a.decode_texture(&r).unwrap();
        assert_eq!(
            img.pixel(3, 3),
            Some([255, 0, 0, 255]),
            "{with_model_extras}"
        );
    }
}

/// A mesh past GX's bounds — more distinct positions than a 16-bit index reaches, more
/// triangles than one display list holds — imports as several PObjs over two position arrays
/// and keeps every triangle (`plain`), where it was refused.
#[test]
fn mesh_past_index_bounds() {
    let mut m = gx::scene::Mesh::new("big");
    let n: u32 = 21_846;
    for k in 0..n {
        let (x, y) = ((k % 150) as f32, (k / 150) as f32);
        m.positions
            .extend([[x, y, 0.0], [x + 0.5, y, 0.0], [x, y + 0.5, 0.0]]);
        m.normals.extend([[0.0, 0.0, 1.0]; 3]);
        m.triangles.push([3 * k, 3 * k + 1, 3 * k + 2]);
    }
    assert!(m.positions.len() > 1 << 16);
    let mut s = Scene::new("test");
    s.meshes.push(m);
    let b = plain(&s);
    let a = parse(&b).unwrap();
    let g = a.graph();
    assert_eq!(g.pobjs.len(), 2);
    let positions: std::collections::BTreeSet<u32> = g
        .pobjs
        .iter()
        .filter_map(|p| {
            let (_, attrs) = a.vertex_desc(p.pobj.vtx_desc?).ok()?;
            attrs.iter().find(|(d, _)| d.attr == 9)?.0.array
        })
        .collect();
    assert_eq!(positions.len(), 2);
}

/// A plain glTF texture GX cannot sample as it is — past 1024 texels a side, or not a power of
/// two while the TObj repeats (a plain material's do) — is stored at a size it can
/// (`gx::tex::sampled_size`), reported in `resized`, and the file checks without HSD-033.
#[test]
fn textures_stored_at_sampled_sizes() {
    use gx::scene::Wrap::{Clamp, Mirror, Repeat};
    // A side the glTF sampler clamps keeps its size (GX repeats and mirrors power-of-two sides
    // only); the TObj wraps as the sampler does (GX_CLAMP 0, GX_REPEAT 1, GX_MIRROR 2).
    for ((w, h), wrap, want) in [
        ((300, 200), [Repeat; 2], (256, 256)),
        ((2048, 16), [Repeat; 2], (1024, 16)),
        ((300, 200), [Clamp, Mirror], (300, 256)),
        ((300, 200), [Clamp; 2], (300, 200)),
    ] {
        let mut s = Scene::new("test");
        let mut m = grid("prop", 1, 1.0, 0.0);
        m.uvs
            .push(m.positions.iter().map(|p| [p[0], p[1]]).collect());
        m.material = Some(0);
        s.meshes.push(m);
        let img = gx::tex::Image::from_fn(w, h, |x, y| [x as u8, y as u8, 9, 255]).unwrap();
        let t = s.add_image(img);
        let mut mat = gx::scene::Material::new("tex", Some(t));
        mat.wrap = wrap;
        s.materials.push(mat);
        let b = import(&s, &ImportOptions::default()).unwrap();
        let resized: &[(usize, [u32; 2], [u32; 2])] = if (w, h) == want {
            &[]
        } else {
            &[(0, [w, h], [want.0, want.1])]
        };
        assert_eq!(b.resized, resized);
        assert!(
            hsd_dat::validate(&b.bytes)
                .iter()
                .all(|d| d.rule != "HSD-033")
        );
        let a = parse(&b.bytes).unwrap();
        let stored: hsd_dat::Image = a.read(a.graph().images[0]).unwrap();
        assert_eq!((u32::from(stored.width), u32::from(stored.height)), want);
        let t: hsd_dat::TObj = support::first_of(&a, hsd_dat::Kind::TObj);
        let gx_wrap = |w| {
            [Clamp, Repeat, Mirror]
                .iter()
                .position(|&x| x == w)
                .unwrap() as u32
        };
        assert_eq!([t.wrap_s, t.wrap_t], wrap.map(gx_wrap));
        // Exported again, the sampler wraps as before.
        let back = Scene::from_glb(&export::to_glb(&a).unwrap()).unwrap();
        assert_eq!(back.materials[0].wrap, wrap);
    }
}

/// The export's extra scale nodes fold back into their joints: `build::scale_chain` (four
/// joints, three extra nodes) imports as four joints and no holder, each extra node mapped to
/// the joint it hangs under, the joints' values and flags as stored and the animation posing
/// as the original.
#[test]
fn extra_scale_nodes_fold_back() {
    let m = hsd_dat::build::scale_chain().unwrap().write().unwrap();
    let a = Scene::from_glb(&export::to_glb(&parse(&m).unwrap()).unwrap()).unwrap();
    let extra: Vec<usize> = (0..a.nodes.len())
        .filter(|&i| a.nodes[i].name.ends_with("_scale"))
        .collect();
    assert_eq!(
        extra.len(),
        3,
        "{:?}",
        a.nodes.iter().map(|n| &n.name).collect::<Vec<_>>()
    );
    // An extra node scaled to nothing (an edit) would divide by nothing: its P counts as 1,
    // so what hangs below keeps its glTF values, as under any other node.
    let mut z = a.clone();
    z.nodes[extra[0]].local = [[0.0; 4]; 3];
    let bz = import(&z, &support::in_order(Order::ColosseumXd)).unwrap();
    let pz = parse(&bz.bytes).unwrap();
    let below = a
        .nodes
        .iter()
        .position(|n| n.parent == Some(extra[0]))
        .unwrap();
    let j = &pz.graph().joints[bz.node_joints[below]].joint;
    let (want, _, _) = gx::mtx::decompose_srt(&a.nodes[below].local, [0.0; 3]);
    for (x, y) in j.scale.iter().zip(want) {
        assert!((x - y).abs() < 1e-5, "{:?} {want:?}", j.scale);
    }
    let b = import(&a, &support::in_order(Order::ColosseumXd)).unwrap();
    assert_eq!(b.holders, 0);
    for &i in &extra {
        let parent = a.nodes[i].parent.unwrap();
        assert_eq!(b.node_joints[i], b.node_joints[parent]);
    }
    let (pm, pb) = (parse(&m).unwrap(), parse(&b.bytes).unwrap());
    let (gm, gb) = (pm.graph(), pb.graph());
    assert_eq!(gm.joints.len(), 4);
    assert_eq!(gb.joints.len(), 4);
    for (x, y) in gm.joints.iter().zip(&gb.joints) {
        assert_eq!(
            [x.joint.rotation, x.joint.scale, x.joint.translation],
            [y.joint.rotation, y.joint.scale, y.joint.translation]
        );
        assert_eq!(
            x.joint.flags & JointFlags::CLASSICAL_SCALE,
            y.joint.flags & JointFlags::CLASSICAL_SCALE
        );
    }
    let posed = |a: &hsd_dat::Archive<'_>| {
        let s = support::first_model_set(a);
        let anim = s.anims.and_then(|l| a.pointer(l).unwrap());
        a.joint_animation(s.joint.unwrap(), anim).unwrap()
    };
    let (want, got) = (posed(&pm), posed(&pb));
    for f in 0..=hsd_dat::build::SCALE_CHAIN_FRAMES {
        for (x, y) in want.sample(f as f32).iter().zip(got.sample(f as f32)) {
            for (u, v) in x.iter().flatten().zip(y.iter().flatten()) {
                assert!((u - v).abs() < 1e-3, "frame {f}: {x:?} {y:?}");
            }
        }
    }
}

/// A one-mesh scene recording its owner and vertex descriptor as our export writes them: the
/// mesh weighted 100 % to node `owner`, POS s16 with 10 fraction bits and NRM s8 with 6 (HAL's
/// formats), both 16-bit indexed.
fn recorded_mesh(s: &mut Scene, m: gx::scene::Mesh, owner: usize) {
    recorded_mesh_as(s, m, owner, vec![[9, 3, 1, 3, 10], [10, 3, 0, 1, 6]]);
}

/// `m` as a rigid mesh of `owner` whose extras record the descriptor entries `vtx`.
fn recorded_mesh_as(s: &mut Scene, mut m: gx::scene::Mesh, owner: usize, vtx: Vec<[u32; 5]>) {
    m.skin = vec![gx::scene::skin_weights(&[(owner as u16, 1.0)]); m.positions.len()];
    m.extras = hsd_dat::extras::write(&hsd_dat::extras::MeshExtras {
        joint: Some(owner),
        vtx,
        ..Default::default()
    });
    s.meshes.push(m);
}

/// The first PObj's stored (position, normal) per vertex of a Melee import of `s`.
fn stored_vertices(s: &Scene) -> Vec<([f32; 3], [f32; 3])> {
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let b = import(&s, &support::in_order(Order::Melee)).unwrap().bytes;
    let a = parse(&b).unwrap();
    let g = a.graph();
    let m = a.mesh(&g, &g.pobjs[0]).unwrap();
    m.vertices
        .iter()
        .map(|v| (v.position, v.normal.unwrap()))
        .collect()
}

/// Melee's trophies keep SKELETON and an inverse bind matrix on joints that own a rigid mesh
/// and weight nothing (20XX's TyFire: two such joints; dropping their matrices moved every
/// later block of the file by 96 bytes). A recorded SKELETON bit stays on such an owner.
#[test]
fn recorded_skeleton_on_a_rigid_owner_stays() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let plate = node(
        &mut s,
        "plate",
        Some(root),
        [0.0, 0.5, 0.0],
        [0.0, 2.0, 0.0],
    );
    s.nodes[plate].extras = hsd_dat::extras::write(&hsd_dat::extras::JointExtras {
        flags: (JointFlags::SKELETON | JointFlags::OPA).bits(),
        ..Default::default()
    });
    recorded_mesh(&mut s, grid("plate", 1, 1.0, 0.0), plate);
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    for order in [Order::Melee, Order::ColosseumXd] {
        let b = import(&s, &support::in_order(order)).unwrap().bytes;
        assert!(support::errors(&b).is_empty(), "{order:?}");
        let a = parse(&b).unwrap();
        let g = a.graph();
        assert_eq!(g.pobjs[0].pobj.kind(), PObjKind::Rigid, "{order:?}");
        let j = &g.joints[g.pobjs[0].joint].joint;
        assert!(j.flags.contains(JointFlags::SKELETON), "{order:?}");
        assert!(j.inverse_bind.is_some(), "{order:?}");
    }
}

/// Positions through a joint chain come back off the recorded grid by float noise that grows
/// with the chain's translations (3e-5 on 20XX's trophies, whose arrays then split into new
/// ones in other formats): values within a quarter step of the grid keep the recorded format
/// and land on their grid points.
#[test]
fn noisy_positions_keep_the_recorded_grid() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let mut m = grid("plate", 2, 1.0, 0.25);
    let exact = m.positions.clone();
    for (i, p) in m.positions.iter_mut().enumerate() {
        let noise = if i % 2 == 0 { 3e-5 } else { -3e-5 };
        *p = p.map(|x| x + noise);
    }
    recorded_mesh(&mut s, m, root);
    let mut back: Vec<[f32; 3]> = stored_vertices(&s).into_iter().map(|v| v.0).collect();
    back.sort_by(|a, b| a.partial_cmp(b).unwrap());
    back.dedup();
    let mut want = exact;
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(back, want);
}

/// Values off the recorded grid by more than float noise are not rounded onto it: on a coarse
/// grid (S8 with 5 fraction bits, a quarter step 0.0078) positions in another space than the
/// file's (an owner the import changed) fell within a quarter step and were moved by up to
/// 0.006 — beyond the same-model tolerance (found by `tests/unseen.rs`, its case saved there).
#[test]
fn off_grid_positions_are_not_rounded_onto_it() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let mut m = grid("plate", 2, 1.0, 0.5);
    for (i, p) in m.positions.iter_mut().enumerate() {
        let off = if i % 2 == 0 { 0.005 } else { -0.005 };
        *p = p.map(|x| x + off);
    }
    let want = m.positions.clone();
    recorded_mesh_as(&mut s, m, root, vec![[9, 3, 1, 1, 5], [10, 3, 0, 1, 6]]);
    for (p, _) in stored_vertices(&s) {
        let near = want
            .iter()
            .map(|w| (0..3).map(|k| (w[k] - p[k]).abs()).fold(0.0f32, f32::max))
            .fold(f32::INFINITY, f32::min);
        assert!(near < 1e-5, "{p:?} is {near} from every glTF position");
    }
}

/// HAL's normals are not unit length (0.988 to 1.012 in 20XX's trophies), glTF's are: rounding
/// the unit vector gives a neighbour of the stored value about half the time, and merged two
/// of TyFire's stored normals a step apart (its array came back 32 bytes short, and every
/// block after it out of place). Each stored normal comes back.
#[test]
fn stored_normals_come_back_from_unit_ones() {
    let stored: [[i8; 3]; 6] = [
        [18, 61, 10],
        [18, 60, 10],
        [-13, 5, 63],
        [-13, 5, 62],
        [-48, 14, 40],
        [-47, 14, 40],
    ];
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    let mut m = gx::scene::Mesh::new("normals");
    for (i, n) in stored.iter().enumerate() {
        let len = n.iter().map(|&x| f32::from(x).powi(2)).sum::<f32>().sqrt();
        for k in 0..3 {
            m.positions.push([i as f32, k as f32, 0.0]);
            m.normals.push(n.map(|x| f32::from(x) / len));
        }
        let t = 3 * i as u32;
        m.triangles.push([t, t + 1, t + 2]);
    }
    recorded_mesh(&mut s, m, root);
    let mut back: Vec<[i8; 3]> = stored_vertices(&s)
        .into_iter()
        .map(|v| v.1.map(|x| (x * 64.0) as i8))
        .collect();
    back.dedup();
    assert_eq!(back, stored);
}

/// The export places each vertex where glTF's skinning draws at rest what the runtime draws,
/// exactly, also where a file's inverse bind matrix is a little off its joint's rest matrix
/// (20XX's TyMew2 binds a bone 8e-4 off, within what reads as its inverse): the runtime skips
/// that matrix for a weight-1.0 slot, glTF never does, and vertices placed in the rest pose
/// came back off the recorded grid (TyMew2's arrays split into float ones). Each stored
/// position comes back.
#[test]
fn export_skins_exactly_off_the_bind_pose() {
    use hsd_dat::build::{XdOptions, xd_model};
    let mut m = xd_model(XdOptions::default()).unwrap().write().unwrap();
    // Each inverse bind matrix turned by 8e-4 rad about Z.
    let turned: Vec<(u32, gx::mtx::Mtx34)> = {
        let a = parse(&m).unwrap();
        let g = a.graph();
        g.joints
            .iter()
            .filter_map(|j| j.joint.inverse_bind)
            .map(|at| {
                let ibm: hsd_dat::Matrix = a.read(at).unwrap();
                let z = gx::mtx::srt([0.0, 0.0, 8e-4], [1.0; 3], [0.0; 3]);
                (at, gx::mtx::mul(&z, &ibm.m))
            })
            .collect()
    };
    assert!(!turned.is_empty());
    for (at, turned) in turned {
        let off = 0x20 + at as usize;
        for (k, x) in turned.iter().flatten().enumerate() {
            m[off + 4 * k..off + 4 * k + 4].copy_from_slice(&x.to_be_bytes());
        }
    }
    let stored = |x: &[u8]| {
        let a = parse(x).unwrap();
        let g = a.graph();
        let mut p: Vec<[f32; 3]> = g
            .pobjs
            .iter()
            .flat_map(|p| a.mesh(&g, p).unwrap().vertices)
            .map(|v| v.position)
            .collect();
        p.sort_by(|a, b| a.partial_cmp(b).unwrap());
        p.dedup();
        p
    };
    let (_, _, b) = support::round_trip(&m, &support::in_order(Order::Melee));
    assert_eq!(stored(&b), stored(&m));
}

/// Direct colours stay in the display list in their recorded format, and two meshes whose
/// direct colours differ in format get descriptor lists of their own (Melee's main menu mixes
/// RGBA6 and RGBA8 ones: sharing one list misread every vertex of the second).
#[test]
fn direct_colours_keep_their_formats() {
    let mut s = Scene::new("test");
    let root = node(&mut s, "root", None, [0.0; 3], [0.0; 3]);
    for (k, ty) in [4u32, 5].into_iter().enumerate() {
        let mut m = grid(&format!("lit{k}"), 2, 1.0, k as f32);
        m.colors = vec![
            (0..m.positions.len())
                .map(|i| [(i * 20) as u8, 0x80, 0x40 * k as u8, 0xFF])
                .collect(),
        ];
        m.skin = vec![gx::scene::skin_weights(&[(root as u16, 1.0)]); m.positions.len()];
        m.extras = hsd_dat::extras::write(&hsd_dat::extras::MeshExtras {
            joint: Some(root),
            vtx: vec![[9, 3, 1, 3, 10], [11, 1, 1, ty, 0]],
            ..Default::default()
        });
        s.meshes.push(m);
    }
    let s = Scene::from_glb(&s.to_glb().unwrap()).unwrap();
    let b = import(&s, &support::in_order(Order::Melee)).unwrap().bytes;
    let a = parse(&b).unwrap();
    let g = a.graph();
    let mut colours: Vec<(u32, u32)> = g
        .pobjs
        .iter()
        .flat_map(|p| a.vertex_desc(p.pobj.vtx_desc.unwrap()).unwrap().1)
        .filter(|(_, f)| f.attr == gx::vtx::Attr::CLR0)
        .map(|(d, f)| (d.attr_type, f.ty.0))
        .collect();
    colours.sort_unstable();
    assert_eq!(colours, [(1, 4), (1, 5)]);
    let c = export::to_scene(&a).scene;
    assert_eq!(gx::compare::compare(&s, &c, 1e-3).missing, 0);
}

/// Melee's archives hold several models side by side (its main menu: 57 joint trees, each with
/// its own animations). In Melee order they stay several trees — an identity root joined them
/// into one model of 426 PObjs (HSD-011 refused it) and renamed every joint — each animation
/// tree beside the joint tree it poses; Colosseum/XD's one model keeps the added root.
#[test]
fn several_trees_stay_several_models() {
    let m = hsd_dat::build::two_trees().write().unwrap();
    let kinds = |x: &[u8]| -> Vec<hsd_dat::RootKind> {
        parse(x).unwrap().roots().map(|r| r.kind()).collect()
    };
    use hsd_dat::RootKind::{AnimJoint, Joint};
    for (order, roots) in [
        (Order::Melee, vec![AnimJoint, Joint, Joint]),
        (Order::ColosseumXd, Vec::new()),
    ] {
        let (a, c, b) = support::round_trip(&m, &support::in_order(order));
        let d = gx::compare::compare(&a, &c, 1e-3);
        // Colosseum/XD's added root renames the joints.
        assert_eq!(d.names, order == Order::ColosseumXd, "{order:?}");
        if !roots.is_empty() {
            let mut got = kinds(&b);
            got.sort_by_key(|k| format!("{k:?}"));
            assert_eq!(got, roots);
            // The same node moves, the same way, at every frame.
            let moved = |s: &Scene| -> Vec<usize> {
                s.clips
                    .iter()
                    .flat_map(|x| x.channels.iter().map(|ch| ch.node))
                    .collect()
            };
            assert_eq!(moved(&a), moved(&c));
            let times: Vec<f32> = (0..=10).map(|f| f as f32 / 60.0).collect();
            let (la, lc) = (
                a.clip_locals(&a.clips[0], &times),
                c.clip_locals(&c.clips[0], &times),
            );
            for (p, q) in la.iter().flatten().zip(lc.iter().flatten()) {
                for (u, v) in p.iter().flatten().zip(q.iter().flatten()) {
                    assert!((u - v).abs() < 1e-3, "{p:?} {q:?}");
                }
            }
        }
    }
}

/// A CMPR texture comes back byte for byte when its tool's flat form is not HAL's: the export
/// records the form its flat sub-blocks show (`extras.hsd.images[i].cmpr_flat`), the import
/// re-encodes with it. Among 20XX's public Melee archives 37 % of the CMPR textures came back
/// whole (11 % before), 96.9 % of their sub-blocks (84.8 %).
#[test]
fn cmpr_keeps_its_tools_flat_form() {
    let m = hsd_dat::build::stage().unwrap().write().unwrap();
    let (_, _, b) = support::round_trip(&m, &support::in_order(Order::Melee));
    let arc = parse(&b).unwrap();
    let g = arc.graph();
    let cmpr: Vec<&[u8]> = g
        .images
        .iter()
        .filter_map(|&i| arc.read::<hsd_dat::Image>(i).ok())
        .filter(|i| i.format == 14)
        .map(|i| arc.data().bytes(i.data.unwrap() as usize, 32).unwrap())
        .collect();
    assert_eq!(cmpr, [&hsd_dat::build::STAGE_CMPR[..]]);
}

/// Melee order keeps a single turned root our export recorded (Melee's runtime draws it:
/// HSD-021 is Colosseum/XD's rule), so the joints keep their names; Colosseum/XD adds the
/// identity root seed 003 asks for, which renames them.
#[test]
fn a_turned_root_stays_in_melee_order() {
    use hsd_dat::JointFlags;
    use hsd_dat::build::{Builder, parts::joint};
    let mut b = Builder::new();
    let child = b.put(&joint(JointFlags::empty(), [0.0, 1.0, 0.0]));
    let mut root = joint(JointFlags::empty(), [3.0, 0.0, 0.0]);
    root.rotation = [0.0, 0.0, 0.5];
    root.child = Some(child);
    let root = b.put(&root);
    b.root("Y_joint", root);
    let m = b.finish().write().unwrap();
    for order in [Order::Melee, Order::ColosseumXd] {
        let (a, c, bytes) = support::round_trip(&m, &support::in_order(order));
        let d = gx::compare::compare(&a, &c, 1e-3);
        assert_eq!(d.names, order == Order::ColosseumXd, "{order:?}: {d:?}");
        let joints = parse(&bytes).unwrap().graph().joints.len();
        assert_eq!(joints, if order == Order::Melee { 2 } else { 3 });
    }
}

/// An unedited clip's keys come back as the file stored them: the export records each AObj
/// and its FObjs (`curves` of a joint animation, `stored` of an animated material or texture),
/// and the import writes them where they still give every sample (Melee's main menu: 242 of
/// 246 joint AObjs; the rest, whose Euler angles glTF's matrices turn into another triple, are
/// fitted). A fit writes other keys: here the joint animation of `two_trees`; and an animated
/// material's alpha keys of the XD scene sample stored as 8-bit numbers with 4 fraction bits
/// (HAL's tools quantise tracks so), which a fit writes as floats.
#[test]
fn stored_keys_come_back() {
    let m = hsd_dat::build::two_trees().write().unwrap();
    let (_, _, b) = support::round_trip(&m, &support::in_order(Order::Melee));
    assert_eq!(streams(&b), streams(&m));
    let m = hsd_dat::build::xd_scene().unwrap().write().unwrap();
    let mut a = Scene::from_glb(&export::to_glb(&parse(&m).unwrap()).unwrap()).unwrap();
    // The stored alpha FObj (its `packs`, not the sampled track of the same id).
    let mut quantised = 0;
    extras_objects(&mut a, &mut |o| {
        if o.get("track") == Some(&serde_json::json!(10)) && o.contains_key("packs") {
            o.insert("frac_value".into(), serde_json::json!(0x84));
            quantised += 1;
        }
    });
    assert_eq!(quantised, 1);
    let b = import(&a, &support::in_order(Order::ColosseumXd))
        .unwrap()
        .bytes;
    let alpha: Vec<(u8, u8, u8, Vec<u8>)> = streams(&b).into_iter().filter(|t| t.0 == 10).collect();
    assert_eq!(alpha, [(10, 0x84, 0, vec![0x12, 0, 9, 8, 0])]);
}

/// Applies `f` to every JSON object of the scene's and its animations' extras, wherever the
/// writer keeps them.
fn extras_objects(
    s: &mut Scene,
    f: &mut dyn FnMut(&mut serde_json::Map<String, serde_json::Value>),
) {
    fn walk(
        v: &mut serde_json::Value,
        f: &mut dyn FnMut(&mut serde_json::Map<String, serde_json::Value>),
    ) {
        match v {
            serde_json::Value::Object(o) => {
                f(o);
                o.values_mut().for_each(|x| walk(x, f));
            }
            serde_json::Value::Array(x) => x.iter_mut().for_each(|x| walk(x, f)),
            _ => {}
        }
    }
    s.extras.iter_mut().for_each(|v| walk(v, f));
    s.clips
        .iter_mut()
        .flat_map(|c| c.extras.as_mut())
        .for_each(|v| walk(v, f));
}

/// Every FObj's track id, number formats and keyframe stream.
fn streams(bytes: &[u8]) -> Vec<(u8, u8, u8, Vec<u8>)> {
    let a = parse(bytes).unwrap();
    let g = a.graph();
    g.nodes
        .iter()
        .filter(|n| n.kind == hsd_dat::Kind::FObj)
        .map(|n| {
            let f: hsd_dat::FObj = a.read(n.offset).unwrap();
            let data = a.data().bytes(f.data.unwrap() as usize, f.length as usize);
            (f.track, f.frac_value, f.frac_slope, data.unwrap().to_vec())
        })
        .collect()
}

/// Melee's game looks models up by their root symbols (`ToyDaisyModel_TopN_joint`), so an
/// archive coming back from its glb keeps them: the export records each joint tree's,
/// AnimJoint tree's and MatAnimJoint tree's root name, and the import in Melee order gives
/// them back (else `ImportOptions::name`'s).
#[test]
fn root_names_come_back() {
    use hsd_dat::RootKind::{AnimJoint, Joint, MatAnimJoint, SceneData};
    // The roots of the kinds a model has (not its images' symbols), sorted.
    let names = |bytes: &[u8]| -> Vec<String> {
        let mut n: Vec<String> = parse(bytes)
            .unwrap()
            .roots()
            .filter(|r| [Joint, AnimJoint, MatAnimJoint, SceneData].contains(&r.kind()))
            .map(|r| String::from_utf8(r.name.to_vec()).unwrap())
            .collect();
        n.sort();
        n
    };
    let m = hsd_dat::build::two_trees().write().unwrap();
    let (_, _, b) = support::round_trip(&m, &support::in_order(Order::Melee));
    assert_eq!(names(&b), ["X_joint", "Y_animjoint", "Y_joint"]);
    let Some(real) = support::real_models("hsd-dat root names") else {
        return;
    };
    for (name, m) in &real {
        let (_, _, b) = support::round_trip(m, &support::in_order(Order::Melee));
        assert_eq!(names(&b), names(m), "{name}");
    }
    assert_eq!(real.len(), support::REAL_MODELS);
}
