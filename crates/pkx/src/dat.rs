//! What the PKX rules need from the embedded model, read through `hsd-dat`'s typed API: the first
//! ModelSet's animation list (PKX `anim_index` indexes it) and its skeleton size (body-map bone
//! indices count joints depth first, child before next, as the runtime's JObj walk does).

use gcio::{Context, Limits, Result, Visited};
use hsd_dat::{Archive, Joint, JointFlags, ModelSet, SceneData};

/// Facts about the embedded DAT's first model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DatFacts {
    /// The file has `scene_data` with a ModelSet.
    pub has_model: bool,
    /// `ModelSet.anims[]`: the AnimJoint tree of each animation (data offsets).
    pub anims: Vec<u32>,
    /// Joints in the ModelSet's skeleton.
    pub bones: usize,
    /// Data offset of the root joint.
    pub root_joint: Option<u32>,
}

impl DatFacts {
    /// Reads the facts; a DAT without `scene_data` or ModelSet yields empty facts.
    pub fn read(a: &Archive<'_>) -> Result<DatFacts> {
        let limits = a.limits();
        let mut f = DatFacts::default();
        let Some(scene) = a.root("scene_data") else {
            return Ok(f);
        };
        let s: SceneData = a.read(scene.offset).context("scene_data")?;
        let Some(models) = s.models else { return Ok(f) };
        let Some(m) = a.pointer(models).context("model list")? else {
            return Ok(f);
        };
        let ms: ModelSet = a.read(m).context("ModelSet")?;
        f.has_model = true;
        if let Some(list) = ms.anims {
            let mut at = list;
            while let Some(p) = a.pointer(at).context("anim list")? {
                limits.check_elements(f.anims.len() as u64 + 1, u64::from(at))?;
                f.anims.push(p);
                at = at.saturating_add(4);
            }
        }
        f.root_joint = ms.joint;
        f.bones = count_joints(a, ms.joint, &limits)?;
        Ok(f)
    }
}

fn count_joints(a: &Archive<'_>, root: Option<u32>, limits: &Limits) -> Result<usize> {
    let mut seen = Visited::new(*limits);
    let mut stack: Vec<u32> = root.into_iter().collect();
    while let Some(off) = stack.pop() {
        seen.visit_once(u64::from(off)).context("joint tree")?;
        let j: Joint = a.read(off).context("joint")?;
        stack.extend(j.next);
        if !j.flags.contains(JointFlags::INSTANCE) {
            stack.extend(j.child);
        }
    }
    Ok(seen.len())
}
