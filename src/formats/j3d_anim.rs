//! J3D animations (BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA): the crate's contract
//! (`j3d_anim::Format`: `J3D1` + the type tag and the matching chunk magic, one `identify` name
//! per kind, `j3d-bck` …; parse, write, the J3DA-* validator) presented with `info` (the header
//! and tables), survey facts, `check -o model=X.bdl` (also the binding to that model) and
//! `convert anim.bck anim.json` and back.

use std::fmt::Write as _;

#[cfg(feature = "convert")]
use gcio::Error;
use gcio::{Diagnostic, Result};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input, Options};
use crate::{Present, Registered};

/// The J3D animation family's presentation.
pub struct J3dAnim;

/// The registry entry.
pub static ENTRY: Registered<j3d_anim::Format, J3dAnim> = Registered::new(J3dAnim);

/// Whether `path` names an animation file (one of the kinds' extensions).
#[cfg(feature = "convert")]
fn is_anim_path(path: &str) -> bool {
    j3d_anim::SCHEMAS
        .iter()
        .any(|s| s.ext == extension_of(path))
}

impl Present<j3d_anim::Format> for J3dAnim {
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "model",
            "X.bdl: the model the animation binds to (J3DA-020…022)",
        )]
    }

    fn info(&self, data: &Input<'_>, a: &j3d_anim::Anim) -> Result<Info> {
        let mut text = format!(
            "{} ({} bytes): loop mode {}, duration {} frames\n",
            a.kind.format_name(),
            data.len(),
            a.loop_mode(),
            a.duration()
        );
        text.push_str("header values:\n");
        for (k, v) in &a.values {
            let _ = writeln!(text, "  {k:<26} {v}");
        }
        text.push_str("tables:\n");
        let mut tables = Vec::new();
        for t in &a.tables {
            let _ = writeln!(text, "  {:<26} {} entries", t.name, t.data.len());
            tables.push(serde_json::json!({"name": t.name, "entries": t.data.len()}));
        }
        for t in &a.tables {
            if let j3d_anim::Data::Names(n) = &t.data {
                let names: Vec<_> = n
                    .entries
                    .iter()
                    .map(|e| String::from_utf8_lossy(&e.name).into_owned())
                    .collect();
                let _ = writeln!(text, "  {}: {}", t.name, names.join(", "));
            }
        }
        let json = serde_json::json!({
            "kind": a.kind.format_name(),
            "loop_mode": a.loop_mode(),
            "duration": a.duration(),
            "values": a.values,
            "tables": tables,
            "stale_padding": a.stale_parts().len(),
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, a: &j3d_anim::Anim) -> Vec<(String, u64)> {
        let mut f = vec![
            (format!("loop mode {}", a.loop_mode()), 1),
            (format!("chunk size {:?}", a.layout.size), 1),
        ];
        if !a.stale_parts().is_empty() {
            f.push(("stale padding".to_owned(), 1));
        }
        f
    }

    /// `model` ([`Input::companion`]): the J3D model the animation binds to.
    fn companions(&self) -> &'static [&'static str] {
        &["model"]
    }

    /// The J3DA-* rules, and with a `model` companion the binding to it.
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        let mut out = j3d_anim::validate_with(data, data.limits());
        if let Some(model) = data.companion("model") {
            let target = j3d_anim::Target::from_model_with(model, data.limits())?;
            out.extend(j3d_anim::bind::check_binding(
                data.parsed::<j3d_anim::Anim>()?,
                &target,
            ));
        }
        Ok(out)
    }

    #[cfg(feature = "convert")]
    /// `anim.bck anim.json` and back (any kind's extension).
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        if matches!(extension_of(from).as_str(), "glb" | "gltf")
            && matches!(extension_of(to).as_str(), "bck" | "btk" | "brk")
        {
            return import_anim(job, notices).map(|bytes| Some(one_file(to, bytes)));
        }
        let out = match (j3d_anim::sniff(input).is_some(), extension_of(to).as_str()) {
            (true, "json") => j3d_anim::Anim::parse_with(input, limits)
                .and_then(|a| j3d_anim::to_json(&a))
                .and_then(|j| {
                    serde_json::to_vec_pretty(&j).map_err(|e| Error::message(e.to_string()))
                }),
            (false, _) if extension_of(from) == "json" && is_anim_path(to) => {
                serde_json::from_slice(input)
                    .map_err(|e| Error::message(format!("JSON: {e}")))
                    .and_then(|j| j3d_anim::from_json(&j))
                    .and_then(|a| a.write())
            }
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        j3d_anim::build::samples()
    }
}

/// Option keys `convert x.glb y.bck|btk|brk` takes.
#[cfg(feature = "convert")]
const IMPORT_KEYS: [&str; 3] = ["anim", "tol", "fps"];

/// `convert model.glb take.bck|btk|brk` ([`j3d_anim::import`]): `-o anim=NAME` (default the
/// first animation), `-o fps=N` (60), `-o tol=X` (BCK, BTK: scale and rotation in radians within
/// X, translation within 10·X; default 0.001. BRK: colour units, default 0.6).
#[cfg(feature = "convert")]
fn import_anim(job: &Conversion<'_>, notices: &mut Notices) -> Result<Vec<u8>> {
    crate::format::check_option_keys(job.opts, &IMPORT_KEYS, "glTF to J3D animation")?;
    let number = |key: &str, default: f32| -> Result<f32> {
        match job.opts.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| Error::message(format!("{key}={v:?} is not a positive number"))),
        }
    };
    let kind = extension_of(job.to);
    let tol = number("tol", if kind == "brk" { 0.6 } else { 1e-3 })?;
    let opts = j3d_anim::import::BckOptions {
        fps: number("fps", 60.0)?,
        tolerance: j3d_anim::fit::Tolerance {
            scale: tol,
            rotation: tol,
            translation: 10.0 * tol,
        },
        ..j3d_anim::import::BckOptions::default()
    };
    let scene = crate::format::read_scene(job, notices)?;
    let clip = j3d_anim::import::clip_index(&scene, job.opts.get("anim").map(String::as_str))?;
    match kind.as_str() {
        "btk" => j3d_anim::import::btk(&scene, clip, &opts),
        "brk" => j3d_anim::import::brk(&scene, clip, &opts, tol),
        _ => j3d_anim::import::bck(&scene, clip, &opts),
    }?
    .write()
}
