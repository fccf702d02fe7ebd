//! Root typing by symbol name, the convention every reader uses (names are all a root says about
//! its type).

/// What a root's symbol name says it points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RootKind {
    /// `scene_data` (and Melee `Sc*` scene roots): a [`crate::SceneData`].
    SceneData,
    /// `bound_box` (Colosseum/XD): per-frame AABBs.
    BoundBox,
    /// `*_joint`: a [`crate::Joint`] tree.
    Joint,
    /// `*_animjoint`: an [`crate::AnimJoint`] tree.
    AnimJoint,
    /// `*matanim_joint`: a [`crate::MatAnimJoint`] tree.
    MatAnimJoint,
    /// `*shapeanim_joint`: a [`crate::ShapeAnimJoint`] tree.
    ShapeAnimJoint,
    /// `*_texanim`: a [`crate::TexAnim`] list.
    TexAnim,
    /// `*_figatree` (Melee fighter animation; kept untyped).
    FigaTree,
    /// `*_camanim` (a camera animation: AObj and eye / interest WObj animations; kept
    /// untyped). Melee's title screen names one `ScTitle_cam_int1_camanim`.
    CameraAnim,
    /// `*_camera`: a [`crate::Camera`].
    Camera,
    /// `*_scene_lights`: a NULL-terminated array of [`crate::LightSet`] pointers.
    SceneLights,
    /// `*_scene_models`: a NULL-terminated array of [`crate::ModelSet`] pointers.
    SceneModels,
    /// `*_model_set`: a [`crate::ModelSet`].
    ModelSet,
    /// `*_fog`: a [`crate::Fog`].
    Fog,
    /// `map_head` (a Melee stage): a [`crate::MapHead`].
    MapHead,
    /// Anything else: untyped bytes.
    Unknown,
}

impl RootKind {
    /// Types a root by its name. Longer suffixes are tested first (`matanim_joint` before `_joint`).
    pub fn from_name(name: &[u8]) -> RootKind {
        const SUFFIXES: &[(&[u8], RootKind)] = &[
            (b"shapeanim_joint", RootKind::ShapeAnimJoint),
            (b"matanim_joint", RootKind::MatAnimJoint),
            (b"_animjoint", RootKind::AnimJoint),
            (b"_joint", RootKind::Joint),
            (b"_texanim", RootKind::TexAnim),
            (b"_figatree", RootKind::FigaTree),
            (b"_camanim", RootKind::CameraAnim),
            (b"_camera", RootKind::Camera),
            (b"_scene_lights", RootKind::SceneLights),
            (b"_scene_models", RootKind::SceneModels),
            (b"_model_set", RootKind::ModelSet),
            (b"_fog", RootKind::Fog),
        ];
        match name {
            b"scene_data" => return RootKind::SceneData,
            b"bound_box" => return RootKind::BoundBox,
            b"map_head" => return RootKind::MapHead,
            _ => {}
        }
        if let Some(&(_, k)) = SUFFIXES.iter().find(|(s, _)| name.ends_with(s)) {
            return k;
        }
        if name.starts_with(b"Sc") {
            RootKind::SceneData
        } else {
            RootKind::Unknown
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for (n, k) in [
            ("scene_data", RootKind::SceneData),
            ("bound_box", RootKind::BoundBox),
            ("PlyPikachu5K_Share_joint", RootKind::Joint),
            ("x_matanim_joint", RootKind::MatAnimJoint),
            ("x_shapeanim_joint", RootKind::ShapeAnimJoint),
            ("x_animjoint", RootKind::AnimJoint),
            ("ScGamTtl_scene_data", RootKind::SceneData),
            ("a_texanim", RootKind::TexAnim),
            ("a_figatree", RootKind::FigaTree),
            ("ScTitle_cam_int1_camanim", RootKind::CameraAnim),
            ("a_camera", RootKind::Camera),
            ("a_scene_lights", RootKind::SceneLights),
            ("a_scene_models", RootKind::SceneModels),
            ("a_model_set", RootKind::ModelSet),
            ("a_fog", RootKind::Fog),
            ("map_head", RootKind::MapHead),
            ("mySymbol", RootKind::Unknown),
        ] {
            assert_eq!(RootKind::from_name(n.as_bytes()), k, "{n}");
        }
    }
}
