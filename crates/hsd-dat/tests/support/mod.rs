//! What the import tests share: the real model archives of the shared corpus and the
//! `m.dat → a.glb → b.dat → c.glb` round trip, and the comparison of material animations.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use gcio::Severity;
use gx::scene::Scene;
use hsd_dat::compile::Order;
use hsd_dat::import::matanim::{MaterialSamples, material_clips, material_tracks, rest_value};
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::{Kind, export, parse};

/// Every real model archive of `shared/corpus/real/hsd` (data-only archives, such as m-ex
/// fighter data, left out: no model to import), sorted, as (file name, bytes); `None`, and the
/// corpus check logged as skipped for `who`, without the corpus.
pub fn real_models(who: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", who)?;
    let mut files = gcio::corpus::files(&dir);
    files.sort();
    let models = files
        .into_iter()
        .filter_map(|p| {
            let m = std::fs::read(&p).unwrap();
            let g = parse(&m).unwrap().graph();
            let name = p.file_name()?.to_string_lossy().into_owned();
            (!(g.joints.is_empty() && g.pobjs.is_empty())).then_some((name, m))
        })
        .collect();
    Some(models)
}

/// How many real model archives the shared corpus holds (`PlMrNr`, `TyBSword`, `TyBancho`,
/// `TyDaisy`, `cb_plug`).
pub const REAL_MODELS: usize = 5;

/// `m.dat → a.glb → b.dat → c.glb` with `opts`; `b` must check with 0 errors and hold its GX
/// payloads 32-aligned. Returns (a, c, b bytes).
pub fn round_trip(m: &[u8], opts: &ImportOptions) -> (Scene, Scene, Vec<u8>) {
    let a = Scene::from_glb(&export::to_glb(&parse(m).unwrap()).unwrap()).unwrap();
    let b = import(&a, opts).unwrap();
    let errors = errors(&b.bytes);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(unaligned_gx_payloads(&b.bytes), Vec::<u32>::new());
    if let Some((gap, next)) = after_last_array(&b.bytes) {
        let gx = matches!(
            next,
            Kind::VertexArray | Kind::DisplayList | Kind::ImageData
        );
        assert!(gap < if gx { 32 } else { 4 }, "{gap} bytes before {next:?}");
    }
    let c = Scene::from_glb(&export::to_glb(&parse(&b.bytes).unwrap()).unwrap()).unwrap();
    (a, c, b.bytes)
}

/// The data offsets of `dat`'s vertex arrays and display lists that are not 32-aligned, as
/// every HAL file has them (the validator checks only images and palettes: HSD-030).
pub fn unaligned_gx_payloads(dat: &[u8]) -> Vec<u32> {
    let a = parse(dat).unwrap();
    let g = a.graph();
    let mut out = Vec::new();
    for p in &g.pobjs {
        let arrays = p
            .pobj
            .vtx_desc
            .map_or(Vec::new(), |v| a.vertex_desc(v).unwrap().1);
        let arrays = arrays.into_iter().filter_map(|(d, _)| d.array);
        out.extend(arrays.chain(p.pobj.display_list).filter(|o| o % 32 != 0));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The bytes between the last value any display list reads from `dat`'s last vertex array and
/// the next struct, and that struct's kind: HAL ends the array there, padding only as far as
/// the next block's alignment needs.
pub fn after_last_array(dat: &[u8]) -> Option<(u32, Kind)> {
    let a = parse(dat).unwrap();
    let g = a.graph();
    let mut ends: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for p in &g.pobjs {
        let Some(v) = p.pobj.vtx_desc else { continue };
        let arrays: Vec<(u32, u32)> = a
            .vertex_desc(v)
            .unwrap()
            .1
            .into_iter()
            .filter_map(|(d, f)| {
                let stride = if d.stride == 0 {
                    f.element_size()? as u32
                } else {
                    u32::from(d.stride)
                };
                Some((d.array?, stride))
            })
            .collect();
        for vtx in a.mesh(&g, p).unwrap().vertices {
            for (&(at, stride), &i) in arrays.iter().zip(&vtx.indices) {
                let end = ends.entry(at).or_insert(at);
                *end = (*end).max(at + (i + 1) * stride);
            }
        }
    }
    let (&last, &end) = ends.iter().max_by_key(|(at, _)| **at)?;
    let next = g
        .nodes
        .iter()
        .filter(|n| n.offset > last)
        .min_by_key(|n| n.offset)?;
    Some((next.offset.checked_sub(end)?, next.kind))
}

/// The validator's errors on `dat`.
pub fn errors(dat: &[u8]) -> Vec<gcio::Diagnostic> {
    hsd_dat::validate(dat)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

/// The import options of `order`.
pub fn in_order(order: Order) -> ImportOptions {
    ImportOptions {
        order,
        ..ImportOptions::default()
    }
}

/// Track `id` of `list`, else the rest value, at frame `f`.
fn at(list: &[(u8, Vec<f32>)], id: u8, f: usize, rest: Option<f32>) -> Option<f32> {
    list.iter()
        .find(|t| t.0 == id)
        .map(|t| t.1.get(f).or(t.1.last()).copied().unwrap_or(0.0))
        .or(rest)
}

/// Whether material `x` of scene `sx` and `y` of `sy` animate the same: every track (rest
/// value where one side has none) within 1e-3 at every frame, swaps drawing the same pixels.
/// The palette index is part of the swap.
fn same(sx: &Scene, x: &MaterialSamples, sy: &Scene, y: &MaterialSamples, frames: usize) -> bool {
    let ids = |a: &[(u8, Vec<f32>)], b: &[(u8, Vec<f32>)]| {
        let mut v: Vec<u8> = a.iter().chain(b).map(|t| t.0).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let close = |a: Option<f32>, b: Option<f32>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-3,
        (a, b) => a == b,
    };
    for id in ids(&x.tracks, &y.tracks) {
        let (rx, ry) = (
            rest_value(sx, x.material, None, id),
            rest_value(sy, y.material, None, id),
        );
        if !(0..frames).all(|f| close(at(&x.tracks, id, f, rx), at(&y.tracks, id, f, ry))) {
            return false;
        }
    }
    let empty = Default::default();
    let mut tex: Vec<u32> = x.textures.iter().chain(&y.textures).map(|t| t.id).collect();
    tex.dedup();
    for t in tex {
        let tx = x.textures.iter().find(|a| a.id == t).unwrap_or(&empty);
        let ty = y.textures.iter().find(|a| a.id == t).unwrap_or(&empty);
        for id in ids(&tx.tracks, &ty.tracks) {
            if id == 10 {
                continue;
            }
            let (rx, ry) = (
                rest_value(sx, x.material, Some(t), id),
                rest_value(sy, y.material, Some(t), id),
            );
            if !(0..frames).all(|f| close(at(&tx.tracks, id, f, rx), at(&ty.tracks, id, f, ry))) {
                return false;
            }
        }
        let drawn = |s: &Scene, sw: &(Vec<usize>, Vec<u32>), f: usize| {
            let k = *sw.1.get(f).or(sw.1.last())? as usize;
            s.images().get(*sw.0.get(k)?).cloned()
        };
        if tx.swap.1.is_empty() != ty.swap.1.is_empty()
            || !(0..frames).all(|f| drawn(sx, &tx.swap, f) == drawn(sy, &ty.swap, f))
        {
            return false;
        }
    }
    true
}

/// Every material clip of `a` has one in `c` (in order) with the same frame count whose
/// animated materials match one to one ([`same`]). Returns the materials compared.
pub fn same_clips(a: &Scene, c: &Scene) -> usize {
    let (ca, cc) = (material_clips(a), material_clips(c));
    assert_eq!(ca.len(), cc.len(), "material animations");
    let mut compared = 0;
    for (x, y) in ca.iter().zip(&cc) {
        // Frames sampled: the longest track or image swap (a clip may keep only a swap when
        // its other tracks hold rest values).
        let frames = |s: &Scene, clip| {
            material_tracks(s, clip)
                .iter()
                .flat_map(|m| {
                    let textures = m.textures.iter();
                    m.tracks
                        .iter()
                        .chain(textures.clone().flat_map(|t| &t.tracks))
                        .map(|t| t.1.len())
                        .chain(textures.map(|t| t.swap.1.len()))
                })
                .max()
                .unwrap_or(0)
        };
        let n = frames(a, x);
        assert_eq!(n, frames(c, y), "{}: frames", x.name);
        let (mx, mut my) = (material_tracks(a, x), material_tracks(c, y));
        assert_eq!(mx.len(), my.len(), "{}: animated materials", x.name);
        for m in &mx {
            let k = my
                .iter()
                .position(|o| same(a, m, c, o, n))
                .unwrap_or_else(|| {
                    panic!(
                        "{}: material {} has no match: {m:?} vs {my:?}",
                        x.name, m.material
                    )
                });
            my.remove(k);
            compared += 1;
        }
    }
    compared
}

/// The archive's first struct of `kind` (in graph order).
pub fn first_of<T: hsd_dat::Struct<u32>>(a: &hsd_dat::Archive<'_>, kind: hsd_dat::Kind) -> T {
    let g = a.graph();
    let n = g.nodes.iter().find(|n| n.kind == kind).unwrap();
    a.read(n.offset).unwrap()
}

/// The archive's first ModelSet (in graph order).
pub fn first_model_set(a: &hsd_dat::Archive<'_>) -> hsd_dat::ModelSet {
    first_of(a, hsd_dat::Kind::ModelSet)
}

/// World matrices of the scene's nodes as glTF poses them at time `t` (seconds) under the
/// clip named `clip` (the rest pose without it): each node's local from the clip's channels,
/// composed through the node tree.
pub fn gltf_pose(scene: &Scene, clip: &str, t: f32) -> Vec<gx::mtx::Mtx34> {
    let mut posed = scene.clone();
    if let Some(clip) = scene.clips.iter().find(|c| c.name == clip) {
        for (node, l) in posed.nodes.iter_mut().zip(scene.clip_locals(clip, &[t])) {
            node.local = l[0];
        }
    }
    posed.world_matrices()
}

/// Whether each matrix of `want` and `got` agrees within `tol` of its largest entry (at
/// least 1); the first that does not, with its index, when one does not.
pub fn poses_agree(
    want: &[gx::mtx::Mtx34],
    got: &[gx::mtx::Mtx34],
    tol: f32,
) -> Result<(), String> {
    for (j, (x, y)) in want.iter().zip(got).enumerate() {
        let scale = x.iter().flatten().fold(1.0f32, |m, v| m.max(v.abs()));
        if x.iter()
            .flatten()
            .zip(y.iter().flatten())
            .any(|(u, v)| (u - v).abs() >= tol * scale)
        {
            return Err(format!("joint {j}: {x:?} {y:?}"));
        }
    }
    Ok(())
}
