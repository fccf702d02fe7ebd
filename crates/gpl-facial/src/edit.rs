//! Edit operations: apply a base-mesh edit, replace a pose delta, unpatch, rebuild
//! the section for a rebuilt rigid or skinned submesh, neutralize. (Detaching the section is
//! [`crate::Block::detach_facial`]; a new section length moves the block's trailing pointers on
//! [`crate::Block::write`].)

use std::collections::BTreeMap;

use gcio::{Error, Result};

use crate::model::{AttrFormat, AttrKind, Attribute, FacialObject, FacialSection, Run, encode};

/// Per object on a rebuilt rigid submesh: what its poses move (from the exporter's shape keys).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RigidPoses {
    /// Rebuilt vertices a pose moves, each with one x y z delta per pose ≥ 1.
    pub positions: Vec<(u16, Vec<[i16; 3]>)>,
    /// Rebuilt normal entries a pose tilts, each with one nx ny nz delta per pose ≥ 1
    /// (see [`pool_normals`]).
    pub normals: Vec<(u16, Vec<[i16; 3]>)>,
}

/// Per object on a rebuilt skinned submesh: mesh vertices any pose moves, each with one
/// `x y z nx ny nz` delta per pose ≥ 1.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkinnedPoses {
    /// (mesh vertex, deltas).
    pub vertices: Vec<(u32, Vec<[i16; 6]>)>,
}

/// Pools per-vertex normal deltas onto normal entries: every normal entry of an animated vertex
/// gets that vertex's delta, once. An entry shared by several animated vertices takes the delta
/// of the lowest vertex, so each entry has exactly one delta (deterministic; how the game's
/// exporter breaks ties is not known).
pub fn pool_normals(
    vertex_normals: &[Vec<u16>],
    deltas: &[(u16, Vec<[i16; 3]>)],
) -> Result<Vec<(u16, Vec<[i16; 3]>)>> {
    let mut pooled: BTreeMap<u16, Vec<[i16; 3]>> = BTreeMap::new();
    let mut sorted: Vec<&(u16, Vec<[i16; 3]>)> = deltas.iter().collect();
    sorted.sort_by_key(|(v, _)| *v);
    for (v, d) in sorted {
        let entries = vertex_normals
            .get(usize::from(*v))
            .ok_or_else(|| Error::message(format!("vertex {v} has no normal entries")))?;
        for &e in entries {
            pooled.entry(e).or_insert_with(|| d.clone());
        }
    }
    Ok(pooled.into_iter().collect())
}

/// An attribute mapping sorted `(index, deltas)` onto `rest` entries: runs from the sorted indices
/// plus the terminator, pose 0 copied from `rest`, the deltas in index order.
fn mapped<const N: usize>(
    format: AttrFormat,
    pose_count: u16,
    rest: &[[i16; N]],
    items: &[(u16, Vec<[i16; N]>)],
) -> Result<Attribute> {
    let mut items: Vec<&(u16, Vec<[i16; N]>)> = items.iter().collect();
    items.sort_by_key(|(i, _)| *i);
    if items.windows(2).any(|w| matches!(w, [a, b] if a.0 == b.0)) {
        return Err(Error::message("duplicate index in facial pose input"));
    }
    let indices: Vec<u16> = items.iter().map(|(i, _)| *i).collect();
    let mut pose0 = Vec::with_capacity(items.len() * N);
    for &i in &indices {
        let v = rest.get(usize::from(i)).ok_or_else(|| {
            Error::message(format!(
                "index {i} past the rebuilt array ({} entries)",
                rest.len()
            ))
        })?;
        pose0.extend_from_slice(v);
    }
    let mut poses = vec![encode(&pose0, format.width)?];
    for p in 1..usize::from(pose_count) {
        let mut vals = Vec::with_capacity(items.len() * N);
        for (i, d) in &items {
            let delta = d.get(p - 1).ok_or_else(|| {
                Error::message(format!(
                    "index {i}: {} deltas for {pose_count} poses",
                    d.len()
                ))
            })?;
            vals.extend_from_slice(delta);
        }
        poses.push(encode(&vals, format.width)?);
    }
    if let Some((i, d)) = items
        .iter()
        .find(|(_, d)| d.len() + 1 != usize::from(pose_count))
    {
        return Err(Error::message(format!(
            "index {i}: {} deltas for {pose_count} poses",
            d.len()
        )));
    }
    Ok(Attribute {
        entries: indices.len() as u32,
        format,
        runs: Run::from_sorted(&indices),
        poses,
    })
}

impl FacialObject {
    /// Neutralizes the object: every attribute becomes one run on entry 0 (plus the terminator),
    /// pose 0 = `entry0(format)` (the target's entry 0, so the validator stays clean), zero
    /// deltas. The object stays well-formed, so other objects' poses survive (GPL-023).
    pub fn neutralize(&mut self, entry0: impl Fn(&AttrFormat) -> Vec<i16>) -> Result<()> {
        for a in &mut self.attributes {
            let rest = entry0(&a.format);
            if rest.len() != usize::from(a.format.count) {
                return Err(Error::message(format!(
                    "entry 0 has {} components, the record {}",
                    rest.len(),
                    a.format.count
                )));
            }
            let zero = encode(&vec![0; rest.len()], a.format.width)?;
            a.entries = 1;
            a.runs = vec![Run { first: 0, len: 1 }, Run::TERMINATOR];
            a.poses = (0..self.pose_count).map(|_| zero.clone()).collect();
            if let Some(p0) = a.poses.first_mut() {
                *p0 = encode(&rest, a.format.width)?;
            }
        }
        Ok(())
    }
}

impl FacialSection {
    /// Indices of the objects that animate `submesh`.
    pub fn objects_on(&self, submesh: u8) -> Vec<usize> {
        (0..self.objects.len())
            .filter(|&i| self.objects.get(i).and_then(FacialObject::submesh) == Some(submesh))
            .collect()
    }

    /// Patch rule for a base-mesh edit: for every kind-`kind` attribute on `submesh`, each mapped
    /// entry of pose 0 becomes `original_pose + (edited − original)` (i16, wrapping). Later poses
    /// are deltas and stay. `original` and `edited` are the whole target arrays, `count`
    /// components per entry. Returns the number of entries patched.
    pub fn apply_base_edit(
        &mut self,
        submesh: u8,
        kind: AttrKind,
        original: &[i16],
        edited: &[i16],
    ) -> Result<usize> {
        if original.len() != edited.len() {
            return Err(Error::message(
                "original and edited arrays differ in length",
            ));
        }
        let mut patched = 0;
        for a in self
            .objects
            .iter_mut()
            .flat_map(|o| o.attributes.iter_mut())
        {
            if a.format.target != submesh || a.format.kind != kind {
                continue;
            }
            let n = usize::from(a.format.count);
            let mut pose0 = a
                .values(0)
                .ok_or_else(|| Error::message("pose 0 is not editable"))?;
            for (k, idx) in a.indices().into_iter().enumerate() {
                for c in 0..n {
                    let at = usize::from(idx) * n + c;
                    let (Some(o), Some(e), Some(p)) =
                        (original.get(at), edited.get(at), pose0.get_mut(k * n + c))
                    else {
                        return Err(Error::message(format!("index {idx} past the edited array")));
                    };
                    *p = p.wrapping_add(e.wrapping_sub(*o));
                }
                patched += 1;
            }
            a.set_values(0, &pose0)?;
        }
        Ok(patched)
    }

    /// Replaces one pose's delta buffer (a shape-key edit). The length must stay the same, so the
    /// section re-serializes with only those pose bytes changed.
    pub fn replace_pose_delta(
        &mut self,
        object: usize,
        attribute: usize,
        pose: usize,
        delta: &[i16],
    ) -> Result<()> {
        if pose == 0 {
            return Err(Error::message("pose 0 is absolute; use apply_base_edit"));
        }
        let a = self
            .objects
            .get_mut(object)
            .and_then(|o| o.attributes.get_mut(attribute))
            .ok_or_else(|| {
                Error::message(format!("no attribute {attribute} on object {object}"))
            })?;
        let old = a.poses.get(pose).map(Vec::len);
        let new = encode(delta, a.format.width)?;
        if old != Some(new.len()) {
            return Err(Error::message(format!(
                "pose {pose}: {} bytes given, {old:?} stored",
                new.len()
            )));
        }
        a.set_values(pose, delta)
    }

    /// Unpatch: restores every pose array from `original` (same objects, attributes and sizes).
    pub fn unpatch(&mut self, original: &FacialSection) -> Result<()> {
        let shape = |s: &FacialSection| -> Vec<(AttrFormat, Vec<usize>)> {
            s.objects
                .iter()
                .flat_map(|o| {
                    o.attributes
                        .iter()
                        .map(|a| (a.format, a.poses.iter().map(Vec::len).collect()))
                })
                .collect()
        };
        if shape(self) != shape(original) {
            return Err(Error::message(
                "unpatch: the section's shape differs from the original",
            ));
        }
        for (o, oo) in self.objects.iter_mut().zip(&original.objects) {
            for (a, oa) in o.attributes.iter_mut().zip(&oo.attributes) {
                a.poses.clone_from(&oa.poses);
            }
        }
        Ok(())
    }

    /// Rebuild for a rigid submesh whose vertices were rebuilt: each object on `submesh` gets its
    /// position attribute mapped onto `poses[k].positions` and its normal attribute onto
    /// `poses[k].normals` (`k` = its rank among the submesh's objects), pose 0 copied from the
    /// rebuilt arrays. Objects without poses (older export, shape keys deleted) are neutralized;
    /// objects on other submeshes are unchanged.
    pub fn rebuild_rigid(
        &mut self,
        submesh: u8,
        positions: &[[i16; 3]],
        normals: &[[i16; 3]],
        poses: Option<&[RigidPoses]>,
    ) -> Result<()> {
        for (k, i) in self.objects_on(submesh).into_iter().enumerate() {
            let Some(o) = self.objects.get_mut(i) else {
                continue;
            };
            let Some(p) = poses.and_then(|p| p.get(k)) else {
                o.neutralize(|f| first_entry(f, positions, normals))?;
                continue;
            };
            for a in &mut o.attributes {
                *a = match a.format.kind {
                    AttrKind::POSITION => mapped(a.format, o.pose_count, positions, &p.positions)?,
                    AttrKind::NORMAL => mapped(a.format, o.pose_count, normals, &p.normals)?,
                    k => return Err(Error::message(format!("kind {} on a rigid submesh", k.0))),
                };
            }
        }
        Ok(())
    }

    /// Rebuild for the skinned submesh after the skin layout moved its vertices: each object's
    /// body attribute is mapped onto the new slots (`slot_of[vertex]`), pose 0 copied from the
    /// rebuilt interleaved `buffer`, deltas in slot order, runs from the sorted slots. Kind-0
    /// SKAcc attributes of those objects and their now unused type descriptors are dropped;
    /// the returned warnings say which. Objects without poses are neutralized.
    pub fn rebuild_skinned(
        &mut self,
        submesh: u8,
        buffer: &[[i16; 6]],
        slot_of: &[u16],
        poses: &[SkinnedPoses],
    ) -> Result<Vec<String>> {
        let mut warnings = Vec::new();
        for (k, i) in self.objects_on(submesh).into_iter().enumerate() {
            let Some(o) = self.objects.get_mut(i) else {
                continue;
            };
            let before = o.attributes.len();
            o.attributes.retain(|a| a.format.kind != AttrKind::SKACC);
            if o.attributes.len() != before {
                warnings.push(format!("object {i}: dropped {} kind-0 SKAcc attribute(s); third-bone supplements are lost", before - o.attributes.len()));
            }
            let Some(p) = poses.get(k) else {
                o.neutralize(|_| {
                    buffer
                        .first()
                        .map(|e| e.to_vec())
                        .unwrap_or_else(|| vec![0; 6])
                })?;
                continue;
            };
            let mut items = Vec::with_capacity(p.vertices.len());
            for (v, d) in &p.vertices {
                let slot = usize::try_from(*v)
                    .ok()
                    .and_then(|v| slot_of.get(v))
                    .ok_or_else(|| {
                        Error::message(format!("vertex {v} has no slot after the skin layout"))
                    })?;
                items.push((*slot, d.clone()));
            }
            for a in &mut o.attributes {
                *a = mapped(a.format, o.pose_count, buffer, &items)?;
            }
        }
        let used: Vec<AttrFormat> = self
            .objects
            .iter()
            .flat_map(|o| o.attributes.iter().map(|a| a.format))
            .collect();
        let before = self.descriptors.len();
        self.descriptors
            .retain(|d| d.kind != AttrKind::SKACC || used.iter().any(|f| f.matches(d)));
        if self.descriptors.len() != before {
            warnings.push(format!(
                "dropped {} kind-0 type descriptor(s)",
                before - self.descriptors.len()
            ));
        }
        Ok(warnings)
    }
}

fn first_entry(f: &AttrFormat, positions: &[[i16; 3]], normals: &[[i16; 3]]) -> Vec<i16> {
    let src = if f.kind == AttrKind::NORMAL {
        normals
    } else {
        positions
    };
    src.first()
        .map(|e| e.to_vec())
        .unwrap_or_else(|| vec![0; usize::from(f.count)])
}
