#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The validator on what retail files do (docs/HSD-ORDER.md, "Validator changes"): each case is
//! built in code, once as the game's files have it (no error) and once as the rule still forbids.

use gcio::Severity;
use hsd_dat::build::Builder;
use hsd_dat::build::parts::*;
use hsd_dat::*;

fn findings(dat: Dat) -> Vec<gcio::Diagnostic> {
    hsd_dat::validate_view(&parse(&dat.write().unwrap()).unwrap())
}

fn rules(d: &[gcio::Diagnostic], severity: Severity) -> Vec<&str> {
    d.iter()
        .filter(|x| x.severity == severity)
        .map(|x| x.rule.as_str())
        .collect()
}

/// One joint, one mesh with positions only, and a material whose TObj has `src` 4 (TEX0) and
/// the given flags; the root joint rotated by `rotation`.
fn textured_without_uvs(tobj_flags: u32, render_mode: RenderMode, rotation: f32) -> Dat {
    let mut b = Builder::new();
    let (desc, dl, n) = triangle(&mut b).unwrap();
    let pix = b.bytes(i8_pixels(), 32);
    let img = b.put(&image(pix, 1));
    let t = b.put(&TObj {
        flags: TObjFlags::from_bits_retain(tobj_flags),
        ..tobj(0, None, img, None)
    });
    let mat = b.put(&material(1));
    let m = b.put(&mobj(render_mode, Some(t), mat, None));
    let p = b.put(&pobj(None, desc, PObjFlags::empty(), n, dl, None));
    let d = b.put(&dobj(m, p));
    let mut j = joint(JointFlags::ROOT_OPA | JointFlags::OPA, [0.0; 3]);
    j.data = Some(d);
    j.rotation = [rotation, 0.0, 0.0];
    let j = b.put(&j);
    b.root("model_joint", j);
    b.finish()
}

/// HSD-025: reflection, highlight and shadow maps generate their coordinates from NRM / POS and
/// ignore `src` (Melee and Chibi-Robo models keep `src` 4 on them); a UV map must name a TEX
/// attribute the mesh has.
#[test]
fn texgen_source_depends_on_coordinates() {
    let tex0 = RenderMode::DIFFUSE | RenderMode::TEX0;
    for coord in [1, 2, 3] {
        let d = findings(textured_without_uvs(0x0004_0080 | coord, tex0, 0.0));
        assert!(
            rules(&d, Severity::Error).is_empty(),
            "coord {coord}: {d:?}"
        );
    }
    let d = findings(textured_without_uvs(0x0004_0010, tex0, 0.0));
    assert_eq!(rules(&d, Severity::Error), ["HSD-025"], "{d:?}");
}

/// HSD-021: float noise on the root rotation (1e-22 in a Chibi-Robo model) is identity; a real
/// rotation is not, but outside Colosseum/XD's layout (whose loader turns the model by it,
/// tests/rules.rs) it is a warning: Melee's main menu (MnMaAll.usd) turns a root by 20°.
#[test]
fn root_rotation_has_a_tolerance() {
    let tex0 = RenderMode::DIFFUSE | RenderMode::TEX0;
    let d = findings(textured_without_uvs(0x0004_0081, tex0, -5.03e-22));
    assert!(!d.iter().any(|x| x.rule == "HSD-021"), "{d:?}");
    let d = findings(textured_without_uvs(0x0004_0081, tex0, 0.349_066));
    assert!(rules(&d, Severity::Error).is_empty(), "{d:?}");
    assert_eq!(rules(&d, Severity::Warning), ["HSD-021"], "{d:?}");
}

/// HSD-019: a translucent material is a Colosseum/XD problem; elsewhere it is a note.
#[test]
fn translucent_material_outside_colosseum_xd_is_info() {
    let xlu = RenderMode::DIFFUSE | RenderMode::TEX0 | RenderMode::XLU;
    let d = findings(textured_without_uvs(0x0004_0081, xlu, 0.0));
    assert!(rules(&d, Severity::Warning).is_empty(), "{d:?}");
    assert!(rules(&d, Severity::Info).contains(&"HSD-019"), "{d:?}");
}

/// A scene whose camera is followed `gap` bytes later by the model set, the model set's
/// animation array listing one AnimJoint tree twice.
fn scene(projection: u16, gap: usize) -> Dat {
    let mut b = Builder::new();
    let j = b.put(&joint(JointFlags::empty(), [0.0; 3]));
    let aj = b.put(&anim_joint(None, None, None));
    let anims = b.ptr_array(&[aj, aj]);
    let cam = b.bytes(vec![0; gap], 4);
    let ms = b.slot::<ModelSet<Target>>();
    let camera = Camera {
        class_name: None,
        flags: 0,
        projection,
        viewport: [0, 640, 0, 480],
        scissor: [0, 640, 0, 480],
        eye: None,
        interest: None,
        roll: 0.0,
        up: None,
        near: 0.1,
        far: 32768.0,
        projection_params: [30.0, 1.4, 0.0, 0.0],
    };
    let Target::In(l) = cam else { unreachable!() };
    b.dat.write_struct(l, &camera).unwrap();
    b.set(ms, &model_set(j, Some(anims), None));
    let set = b.put(&CameraSet {
        desc: Some(cam),
        anims: None,
    });
    let models = b.ptr_array(&[ms]);
    let sd = b.put(&scene_data(models, Some(set), None));
    b.root("scene_data", sd);
    b.finish()
}

/// HSD-032: a perspective camera desc is 0x38 bytes (fovy, aspect), so the struct after it does
/// not overlap it; an orthographic one uses all 0x40. An animation tree listed twice is shared,
/// not a cycle.
#[test]
fn perspective_camera_and_shared_animation() {
    let d = findings(scene(1, 0x38));
    assert!(rules(&d, Severity::Error).is_empty(), "{d:?}");
    let d = findings(scene(3, 0x38));
    assert_eq!(rules(&d, Severity::Error), ["HSD-032"], "{d:?}");
    assert!(
        d.iter().any(|x| x.message.contains("overlaps Camera")),
        "{d:?}"
    );
    let d = findings(scene(3, 0x40));
    assert!(rules(&d, Severity::Error).is_empty(), "{d:?}");
}
