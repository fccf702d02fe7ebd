//! Binding an animation to a model: what the game matches by index (joints, shapes) and by name
//! (materials), checked against the facts of a BMD/BDL.

use gcio::{Diagnostic, Limits, Result};

use crate::model::{Anim, Data};
use crate::schema::{Elem, Kind};

/// The model facts a binding check needs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Target {
    /// Joint count (JNT1).
    pub joints: usize,
    /// Material names (MAT3), in material order.
    pub materials: Vec<Vec<u8>>,
    /// Shape count (SHP1), which BVA entries drive.
    pub shapes: usize,
}

impl Target {
    /// Reads the facts from BMD/BDL bytes with the default [`Limits`].
    pub fn from_model(data: &[u8]) -> Result<Target> {
        Target::from_model_with(data, &Limits::default())
    }

    /// Reads the facts from BMD/BDL bytes; `limits` bound the model's parse (its chunk list,
    /// joint, shape and material name tables).
    pub fn from_model_with(data: &[u8], limits: &Limits) -> Result<Target> {
        let m = j3d_bmd::parse_with(data, limits)?;
        let joints = m.jnt1().transpose()?.map_or(0, |j| j.len());
        let shapes = m.shp1().transpose()?.map_or(0, |s| s.len());
        let materials = match m.mat3().transpose()? {
            Some(mat) => match mat.names() {
                Some(n) => n?.entries.into_iter().map(|e| e.name).collect(),
                None => Vec::new(),
            },
            None => Vec::new(),
        };
        Ok(Target {
            joints,
            materials,
            shapes,
        })
    }
}

/// Checks `anim` against `target`: `J3DA-020` joint count, `J3DA-021` material names,
/// `J3DA-022` shape count.
pub fn check_binding(anim: &Anim, target: &Target) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let n = anim.table(0).map_or(0, Data::len);
    match anim.kind {
        Kind::Bck | Kind::Bca if n != target.joints => out.push(Diagnostic::warning(
            "J3DA-020",
            None,
            format!(
                "{n} joint animations for a model with {} joints",
                target.joints
            ),
        )),
        Kind::Bva if n > target.shapes => out.push(Diagnostic::warning(
            "J3DA-022",
            None,
            format!(
                "{n} visibility tracks for a model with {} shapes",
                target.shapes
            ),
        )),
        _ => {}
    }
    // The game resolves names with searchUpdateMaterialID and skips entries whose material is
    // missing: a few missing names are information, none found at all means the wrong model.
    let s = anim.kind.schema();
    let mut missing: Vec<&[u8]> = Vec::new();
    let mut found = 0;
    for (def, t) in s.tables.iter().zip(&anim.tables) {
        if let (Elem::Names, Data::Names(names)) = (def.elem, &t.data) {
            for e in &names.entries {
                if target.materials.contains(&e.name) {
                    found += 1;
                } else if !missing.contains(&e.name.as_slice()) {
                    missing.push(&e.name);
                }
            }
        }
    }
    if !missing.is_empty() {
        let list: Vec<_> = missing
            .iter()
            .map(|m| gcio::text::Encoding::ShiftJis.to_text(m))
            .collect();
        let m = format!(
            "materials not in the model (their entries are skipped): {}",
            list.join(", ")
        );
        out.push(if found == 0 {
            Diagnostic::warning("J3DA-021", None, m)
        } else {
            Diagnostic::info("J3DA-021", None, m)
        });
    }
    out
}
