//! JSON summaries: the block's sections for `info`, and the facial poses for
//! `gcf convert block.gpl poses.json` (each object's mapped vertices and per-pose deltas).

use gcio::Limits;
use serde_json::{Value, json};

use crate::block::{BlockView, slot};
use crate::model::{Attribute, FacialSection};

fn attribute_json(a: &Attribute, limits: &Limits) -> Value {
    let n = usize::from(a.format.count).max(1);
    let group = |p: usize| -> Value {
        match a.values(p) {
            Some(v) => Value::Array(v.chunks(n).map(|c| json!(c)).collect()),
            None => json!(a.poses.get(p).map(|b| hex(b))),
        }
    };
    json!({
        "format": hex(&a.format.to_bytes()),
        "target": a.format.target,
        "kind": a.format.kind.0,
        "components": a.format.count,
        "width": a.format.width,
        "entries": a.entries,
        "runs": a.runs.iter().map(|r| [r.first, r.len]).collect::<Vec<_>>(),
        "vertices": a.indices_with(limits),
        "rest": group(0),
        "deltas": (1..a.poses.len()).map(group).collect::<Vec<_>>(),
    })
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The facial section as JSON: per object its pose count and, per attribute, the mapped target
/// indices, pose 0 (rest) and the deltas of poses ≥ 1.
pub fn poses_json(s: &FacialSection) -> Value {
    poses_json_with(s, &Limits::default())
}

/// [`poses_json`] with the caller's limits bounding each attribute's mapped vertex list.
pub fn poses_json_with(s: &FacialSection, limits: &Limits) -> Value {
    json!({
        "max_pose_count": s.max_pose_count,
        "descriptors": s.descriptors.iter().map(|d| json!({"target": d.target, "kind": d.kind.0, "format": format!("{:#04x}", d.format)})).collect::<Vec<_>>(),
        "objects": s.objects.iter().enumerate().map(|(i, o)| json!({
            "index": i,
            "submesh": o.submesh(),
            "pose_count": o.pose_count,
            "attributes": o.attributes.iter().map(|a| attribute_json(a, limits)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// Section extents, submesh arrays and facial summary of a block, the facial section parsed
/// with the default [`Limits`].
pub fn block_json(v: &BlockView<'_>) -> Value {
    block_json_with(v, &Limits::default())
}

/// [`block_json`] with the caller's limits bounding the facial section's parse.
pub fn block_json_with(v: &BlockView<'_>, limits: &Limits) -> Value {
    let sections: Vec<Value> = (1..8)
        .filter_map(|i| {
            let (s, e) = v.extent(i)?;
            Some(json!({"name": slot::NAMES.get(i), "offset": s, "size": e - s}))
        })
        .collect();
    let mesh = v.mesh().ok();
    let submeshes: Vec<Value> = mesh
        .iter()
        .flat_map(|m| &m.submeshes)
        .map(|s| {
            json!({
                "positions": s.positions.map(|a| json!({"count": a.count, "components": a.comp_count, "quantize": a.quantize})),
                "normals": s.normals.map(|a| json!({"count": a.count, "components": a.comp_count, "quantize": a.quantize})),
            })
        })
        .collect();
    let skin = mesh.as_ref().and_then(|m| m.skin.as_ref()).map(|s| {
        json!({"entries": s.entries.len(), "skacc": s.skacc_counts.len(), "mirror_base": s.mirror_base()})
    });
    let facial = match v.facial() {
        Some(Ok(f)) => FacialSection::from_view(&f, limits)
            .map(|s| {
                json!({
                    "objects": s.objects.iter().map(|o| json!({
                        "submesh": o.submesh(),
                        "pose_count": o.pose_count,
                        "attributes": o.attributes.iter().map(|a| json!({"format": hex(&a.format.to_bytes()), "entries": a.entries, "runs": a.runs.len()})).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                    "descriptors": s.descriptors.len(),
                    "max_pose_count": s.max_pose_count,
                })
            })
            .unwrap_or_else(|e| json!({"error": e.to_string()})),
        Some(Err(e)) => json!({"error": e.to_string()}),
        None => Value::Null,
    };
    json!({"sections": sections, "submeshes": submeshes, "skin": skin, "facial": facial})
}
