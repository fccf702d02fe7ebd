//! HAL sysdolphin archives (`.dat`): the crate's contract (`hsd_dat::Format`: detection by the
//! header's arithmetic, no magic; parse, write) presented with `info`, survey facts and `check`.
//! `convert x.dat x.glb` exports the models as glTF 2.0 (meshes, joints, skin, textures decoded
//! through `gx::tex` with their palettes); `convert x.dat dir/` (or `y.obj`) as OBJ with a
//! material library and one PNG per distinct image. `Format::compare` (BNB/NBN) and
//! `Format::rebuild` (HAL's compiler order, `-o order=xd|melee`) serve `gcf compare` and
//! `gcf rebuild`, which know no format.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use gcio::{Diagnostic, Result};
use hsd_dat::{Dat, Kind, parse_with};
use serde_json::json;

#[cfg(feature = "convert")]
use crate::export::scene_files;
#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices};
use crate::format::{Info, Input, Options, Outputs, extension_of, file_stem, is_folder_name};
use crate::{Present, Registered};

/// The sysdolphin archive format's presentation.
pub struct HsdDat;

/// The registry entry.
pub static ENTRY: Registered<hsd_dat::Format, HsdDat> = Registered::new(HsdDat);

impl Present<hsd_dat::Format> for HsdDat {
    fn info(&self, data: &Input<'_>, _dat: &Dat) -> Result<Info> {
        let a = parse_with(data, data.limits())?;
        let h = a.header();
        let g = a.graph();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "data {:#x} bytes, {} relocations, {} roots, {} externs",
            a.data_size(),
            h.nb_reloc.get(),
            h.nb_public.get(),
            h.nb_extern.get()
        );
        let mut roots = Vec::new();
        for r in a.roots() {
            let name = String::from_utf8_lossy(r.name).into_owned();
            let _ = writeln!(text, "root {name} @ {:#x} ({:?})", r.offset, r.kind());
            roots
                .push(json!({"name": name, "offset": r.offset, "kind": format!("{:?}", r.kind())}));
        }
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for n in &g.nodes {
            *counts.entry(format!("{:?}", n.kind)).or_default() += 1;
        }
        let _ = writeln!(
            text,
            "structs: {}",
            counts
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut triangles = 0usize;
        for p in &g.pobjs {
            if let Ok(m) = a.mesh(&g, p) {
                triangles += m.triangles.len();
            }
        }
        let _ = writeln!(
            text,
            "{} joints, {} meshes ({} triangles), {} textures, {} palettes, {} lights",
            g.joints.len(),
            g.pobjs.len(),
            triangles,
            g.images.len(),
            g.palettes.len(),
            g.lights.len()
        );
        let mut textures = Vec::new();
        for &i in &g.images {
            if let Ok(img) = a.read::<hsd_dat::Image>(i) {
                let _ = writeln!(
                    text,
                    "  image @ {i:#x}: {}x{} format {}",
                    img.width, img.height, img.format
                );
                textures.push(json!({"offset": i, "width": img.width, "height": img.height, "format": img.format}));
            }
        }
        for e in &g.errors {
            let _ = writeln!(text, "graph error: {e}");
        }
        Ok(Info {
            text,
            json: json!({
                "file_size": h.file_size.get(),
                "data_size": a.data_size(),
                "relocations": h.nb_reloc.get(),
                "externs": h.nb_extern.get(),
                "roots": roots,
                "struct_counts": counts,
                "joints": g.joints.len(),
                "meshes": g.pobjs.len(),
                "triangles": triangles,
                "textures": textures,
                "lights": g.lights.len(),
                "graph_errors": g.errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
            }),
        })
    }

    /// The HSD-* rules; an archive that does not parse under the caller's limits is the check's
    /// error (as `gcf check` reported it before the contract), not an HSD-001 finding.
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(hsd_dat::validate_view(&parse_with(data, data.limits())?))
    }

    #[cfg(feature = "convert")]
    /// `x.dat x.glb`: glTF 2.0 binary; `x.dat y.obj`: `y.obj`, `y.mtl` and `y_img<i>.png` per
    /// distinct image; `x.dat dir`: the same as `dir/x.*` ([`hsd_dat::export`]). A mesh or
    /// texture that fails to decode is an error (the first such problem), so no partial
    /// export is written; so is a file without a model (no joint, no mesh: fighter data,
    /// effects), which would convert to an empty scene. `x.glb y.dat` imports ([`import`]).
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        if matches!(extension_of(from).as_str(), "glb" | "gltf") && extension_of(to) == "dat" {
            return import(job, notices).map(Some);
        }
        let ext = extension_of(to);
        if !(is_folder_name(to) || ext == "obj" || ext == "glb") || !hsd_dat::sniff(input) {
            return Ok(None);
        }
        let mut scene = export_scene(input, limits)?;
        add_animations(&mut scene, job, notices)?;
        scene_files(&scene, to, &file_stem(from)).map(Some)
    }

    /// `anim`: animation-only archives (motion files) whose AnimJoint trees pose the model in a
    /// `.glb` export ([`crate::Companions`]: `anim:NAME` each).
    fn companions(&self) -> &'static [&'static str] {
        &["anim"]
    }

    fn facts(&self, data: &Input<'_>, _dat: &Dat) -> Vec<(String, u64)> {
        let Ok(a) = parse_with(data, data.limits()) else {
            return Vec::new();
        };
        let g = a.graph();
        let mut facts: Vec<(String, u64)> = a
            .roots()
            .map(|r| (format!("root kind {:?}", r.kind()), 1))
            .collect();
        facts.push(("pobj".into(), g.count(Kind::PObj) as u64));
        facts.push(("joint".into(), g.count(Kind::Joint) as u64));
        facts.push(("extern".into(), a.externs().len() as u64));
        facts
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        hsd_dat::build::samples().unwrap_or_default()
    }

    fn compare(&self, a: &[u8], b: &[u8]) -> Option<Result<String>> {
        Some(compare(a, b))
    }

    /// `-o order=xd|melee` (default: the order the input's layout follows).
    fn rebuild(&self, data: &[u8], opts: &Options) -> Option<Result<(Vec<u8>, Vec<Diagnostic>)>> {
        let order = opts
            .get("order")
            .map(|o| parse_order(o).map_err(gcio::Error::message))
            .transpose();
        Some(order.and_then(|o| rebuild(data, o)))
    }
}

/// The archive's models as a glTF scene ([`hsd_dat::export`]); a mesh or texture that fails to
/// decode is an error (the first such problem), so is a file without a model.
#[cfg(feature = "convert")]
pub(crate) fn export_scene(data: &[u8], limits: &gcio::Limits) -> Result<gx::scene::Scene> {
    let a = parse_with(data, limits)?;
    let e = hsd_dat::export::to_scene(&a);
    hsd_dat::export::require_model(&a, &e.scene)?;
    if let Some(problem) = e.problems.into_iter().next() {
        return Err(problem);
    }
    Ok(e.scene)
}

/// The companion motion files under `anim` (`gcf convert --anim FILE`, repeatable) added to a
/// `.glb` export as animations named by each file's stem ([`hsd_dat::export::add_animations_from`]).
/// A file that does not parse or does not fit the skeleton is left out with a notice naming
/// it; the model is still exported.
#[cfg(feature = "convert")]
fn add_animations(
    scene: &mut gx::scene::Scene,
    job: &Conversion<'_>,
    notices: &mut Notices,
) -> Result<()> {
    let anims = crate::format::companion_files(job.companions, "anim");
    if anims.is_empty() {
        return Ok(());
    }
    if extension_of(job.to) != "glb" {
        return Err(gcio::Error::message("animations are written to .glb only"));
    }
    let model = parse_with(job.input, job.limits)?;
    for (path, data) in anims {
        let added = parse_with(data, job.limits).and_then(|source| {
            hsd_dat::export::add_animations_from(scene, &model, &source, &file_stem(path))
        });
        if let Err(e) = added {
            notices.push(format!("{path}: animation left out: {e}"));
        }
    }
    Ok(())
}

/// Option keys `convert x.glb y.dat` takes.
#[cfg(feature = "convert")]
const IMPORT_KEYS: [&str; 4] = ["order", "texfmt", "name", "tol"];

/// `convert model.glb model.dat` ([`hsd_dat::import`]): `-o order=xd|melee` (default xd),
/// `-o texfmt=NAME` for images without a recorded format, `-o name=STEM` for the Melee root
/// (`STEM_joint`, default `model`), `-o tol=X` the animation fitting tolerance (1e-4); notes the PObj count, the validator's warnings, the CMPR
/// blocks that could not come back exactly and the holder joints added.
#[cfg(feature = "convert")]
fn import(job: &Conversion<'_>, notices: &mut Notices) -> Result<Outputs> {
    use hsd_dat::import::{ImportOptions, import};
    crate::format::check_option_keys(job.opts, &IMPORT_KEYS, "glTF to HSD")?;
    let mut opts = ImportOptions::default();
    if let Some(o) = job.opts.get("order") {
        opts.order = parse_order(o).map_err(gcio::Error::message)?;
    }
    if let Some(name) = job.opts.get("texfmt") {
        opts.texture_format = Some(
            gx::tex::TexFormat::from_name(name)
                .ok_or_else(|| gcio::Error::message(format!("unknown texture format {name:?}")))?,
        );
    }
    if let Some(name) = job.opts.get("name") {
        opts.name = name.to_owned();
    }
    if let Some(t) = job.opts.get("tol") {
        opts.tolerance = t
            .parse::<f32>()
            .ok()
            .filter(|t| t.is_finite() && *t > 0.0)
            .ok_or_else(|| gcio::Error::message(format!("tol={t:?} is not a positive number")))?;
    }
    let scene = crate::format::read_scene(job, notices)?;
    let imported = import(&scene, &opts)?;
    import_notices(job, &scene, &imported, notices);
    Ok(crate::format::one_file(job.to, imported.bytes))
}

/// What an import of `job` changed or found, as notices (a `.dat` or a `.pkx` model alike):
/// approximate CMPR blocks, resized images, rounded weights, the PObj count, validator
/// warnings, joints that lost their recorded rest scale, stale extras, holder joints.
#[cfg(feature = "convert")]
pub(crate) fn import_notices(
    job: &Conversion<'_>,
    scene: &gx::scene::Scene,
    imported: &hsd_dat::import::Imported,
    notices: &mut Notices,
) {
    if imported.inexact_blocks > 0 {
        notices.push(format!(
            "{}: {} CMPR blocks re-encoded approximately",
            job.from, imported.inexact_blocks
        ));
    }
    for (i, size, stored) in &imported.resized {
        let what = format!("image {i}");
        notices.push(crate::format::resized_notice(
            job.from, &what, *size, *stored,
        ));
    }
    if let Some(f) = &imported.fitted {
        let mut how = Vec::new();
        if f.joined > 0 {
            how.push(format!("{} meshes sharing a material joined", f.joined));
        }
        if let Some(step) = f.weight_step {
            how.push(format!(
                "vertex weights rounded to {} % steps",
                (step * 1000.0).round() / 10.0
            ));
        }
        notices.push(format!(
            "{}: {}: as given, the model needed {} PObjs (10 weight sets a palette)",
            job.from,
            how.join(", "),
            f.pobjs
        ));
    }
    notices.push(format!(
        "{}: {} PObj{} of the game's limit of about 240 (more crash it on load)",
        job.from,
        imported.pobjs,
        if imported.pobjs == 1 { "" } else { "s" }
    ));
    for d in imported
        .findings
        .iter()
        .filter(|d| d.severity == gcio::Severity::Warning)
    {
        notices.push(format!("{}: {d}", job.to));
    }
    if !imported.scale_dropped.is_empty() {
        let names: Vec<&str> = imported
            .scale_dropped
            .iter()
            .filter_map(|&i| scene.nodes.get(i).map(|n| n.name.as_str()))
            .collect();
        notices.push(format!(
            "{}: {} lost the rest scale our export recorded (now 1): Blender drops a bone's \
             rest scale on export unless \"Use Rest Position Armature\" is off",
            job.from,
            names.join(", ")
        ));
    }
    if imported.stale_extras {
        notices.push(format!(
            "{}: its images are not the ones our extras were written for (an edited glb): \
             materials imported from their glTF form, material animations left out",
            job.from
        ));
    }
    if imported.holders > 0 {
        notices.push(format!(
            "{}: {} holder joint(s) added for meshes whose joints are all weighted",
            job.from, imported.holders
        ));
    }
}

/// `gcf compare a.dat b.dat`: first line `BNB <percent>` (whole file, `a` the reference; for `b`
/// a rebuild of `a`, the figure with the texture list `a` records), second line `BNB-rules
/// <percent> (<order> order rules alone, no texture list)`, `b`'s model laid out by the rules
/// alone ([`hsd_dat::compare::RulesAlone`]; `n/a` when it does not compile), then `region <phase>
/// <bytes a> <bytes b> <BNB>` per compiler phase and `nbn <kind> <equal>/<total>` per struct
/// kind, then `NBN <percent>`.
pub fn compare(a: &[u8], b: &[u8]) -> Result<String> {
    let c = hsd_dat::compare::compare(a, b)?;
    let mut s = format!("BNB {:.2}\n", c.bnb);
    let _ = match c.rules_alone {
        Some(r) => writeln!(
            s,
            "BNB-rules {:.2} ({} order rules alone, no texture list)",
            r.bnb,
            order_name(r.order)
        ),
        None => writeln!(s, "BNB-rules n/a (the model does not compile)"),
    };
    for r in &c.regions {
        let _ = writeln!(
            s,
            "region {:?} {} {} {:.2}",
            r.phase, r.bytes.0, r.bytes.1, r.bnb
        );
    }
    for (kind, equal, total) in &c.nbn {
        let _ = writeln!(s, "nbn {kind} {equal}/{total}");
    }
    let _ = writeln!(s, "NBN {:.2}", c.nbn_percent());
    Ok(s)
}

/// `gcf rebuild in.dat out.dat [--order xd|melee]`: the owned model laid out afresh in a HAL
/// compiler's order ([`hsd_dat::compile::compile_as`]; without `order` the one the input's layout
/// follows), with the validator's findings on the result. Findings the input already has never
/// stop the rebuild: any archive that parses is laid out (a file the game loads is ground truth,
/// and the findings say what a game might refuse). A layout with an error the input did not
/// have, or one that does not parse, is refused ([`hsd_dat::compile::verify`]): an error, no
/// bytes.
pub fn rebuild(
    data: &[u8],
    order: Option<hsd_dat::compile::Order>,
) -> Result<(Vec<u8>, Vec<gcio::Diagnostic>)> {
    let built = hsd_dat::compile::compile_as(&Dat::parse(data)?, order)?;
    let findings = hsd_dat::compile::check(&built)?;
    Ok((built.write()?, findings))
}

/// The `--order` name of an order.
fn order_name(o: hsd_dat::compile::Order) -> &'static str {
    match o {
        hsd_dat::compile::Order::ColosseumXd => "xd",
        hsd_dat::compile::Order::Melee => "melee",
    }
}

/// The `--order` names of [`rebuild`].
pub fn parse_order(name: &str) -> std::result::Result<hsd_dat::compile::Order, String> {
    match name {
        "xd" | "colosseum" => Ok(hsd_dat::compile::Order::ColosseumXd),
        "melee" => Ok(hsd_dat::compile::Order::Melee),
        other => Err(format!("unknown order {other:?} (xd, melee)")),
    }
}

#[cfg(test)]
mod tests {
    /// `compare` starts with `BNB <percent>`; `rebuild` writes an archive that compares at 100 %
    /// NBN with its source and is a fixed point.
    #[test]
    fn compare_and_rebuild() {
        let x = hsd_dat::build::xd_model(Default::default())
            .unwrap()
            .write()
            .unwrap();
        let same = super::compare(&x, &x).unwrap();
        assert_eq!(same.lines().next(), Some("BNB 100.00"));
        assert!(same.ends_with("NBN 100.00\n"));
        let (r, findings) = super::rebuild(&x, None).unwrap();
        assert!(findings.iter().all(|d| d.severity != gcio::Severity::Error));
        let c = super::compare(&x, &r).unwrap();
        assert!(c.starts_with("BNB "));
        assert!(c.ends_with("NBN 100.00\n"));
        assert_eq!(super::rebuild(&r, None).unwrap().0, r);
        assert!(super::rebuild(b"not an archive", None).is_err());
        // A model whose checks fail is still laid out, its findings returned.
        let broken = hsd_dat::build::samples().unwrap();
        let (_, bad) = broken
            .iter()
            .find(|(n, _)| n == "broken/palette-11-slots.dat")
            .unwrap();
        let (_, findings) = super::rebuild(bad, None).unwrap();
        assert!(findings.iter().any(|d| d.severity == gcio::Severity::Error));
        // Either order can be chosen.
        for o in ["xd", "melee"] {
            let (m, _) = super::rebuild(&x, Some(super::parse_order(o).unwrap())).unwrap();
            assert_eq!(hsd_dat::Dat::parse(&m).unwrap().write().unwrap(), m);
        }
        assert!(super::parse_order("n64").is_err());
    }
}
