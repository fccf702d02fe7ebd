//! J3D animations (BCK, BCA, BTK, BRK, BPK, BTP, BVA, BLK, BLA): detected by `J3D1` + the type tag and the
//! matching chunk magic, one `identify` name per kind (`j3d-bck` …); `info` lists the header and
//! tables, `check` runs the J3DA-* validator (`-o model=X.bdl` also checks the binding to that
//! model), `roundtrip` writes the model back, `convert anim.bck anim.json` and back.

use std::fmt::Write as _;
use std::path::Path;

use gcio::{Diagnostic, Error, Result};

use crate::format::{Detection, Format, Info, Input, Options, Rewrite, extension, io_error};

/// The J3D animation family.
pub struct J3dAnim;

fn is_anim_path(path: &Path) -> bool {
    j3d_anim::SCHEMAS.iter().any(|s| s.ext == extension(path))
}

impl Format for J3dAnim {
    fn name(&self) -> &'static str {
        "j3d-anim"
    }

    fn detect(&self, data: &[u8], _path: &str) -> Option<Detection> {
        j3d_anim::detect(data)?;
        j3d_anim::sniff(data).map(|k| Detection::new(k.format_name()))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let a = j3d_anim::Anim::parse(data)?;
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

    fn facts(&self, data: &Input<'_>) -> Vec<(String, u64)> {
        let Ok(a) = j3d_anim::Anim::parse(data) else {
            return Vec::new();
        };
        let mut f = vec![
            (format!("loop mode {}", a.loop_mode()), 1),
            (format!("chunk size {:?}", a.layout.size), 1),
        ];
        if !a.stale_parts().is_empty() {
            f.push(("stale padding".to_owned(), 1));
        }
        f
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        let a = j3d_anim::Anim::parse(data)?;
        Ok(Rewrite {
            bytes: a.write()?,
            raw: a.raw_parts(),
        })
    }

    /// `model` ([`Input::companion`]): the J3D model the animation binds to.
    fn companions(&self) -> &'static [&'static str] {
        &["model"]
    }

    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        let mut out = j3d_anim::validate(data);
        if let Some(model) = data.companion("model") {
            let target = j3d_anim::Target::from_model(model)?;
            out.extend(j3d_anim::bind::check_binding(
                &j3d_anim::Anim::parse(data)?,
                &target,
            ));
        }
        Ok(out)
    }

    #[cfg(feature = "convert")]
    fn convert(&self, input: &[u8], from: &Path, to: &Path, _opts: &Options) -> Option<Result<()>> {
        let out = match (j3d_anim::sniff(input).is_some(), extension(to).as_str()) {
            (true, "json") => j3d_anim::Anim::parse(input)
                .and_then(|a| j3d_anim::to_json(&a))
                .and_then(|j| {
                    serde_json::to_vec_pretty(&j).map_err(|e| Error::message(e.to_string()))
                }),
            (false, _) if extension(from) == "json" && is_anim_path(to) => {
                serde_json::from_slice(input)
                    .map_err(|e| Error::message(format!("JSON: {e}")))
                    .and_then(|j| j3d_anim::from_json(&j))
                    .and_then(|a| a.write())
            }
            _ => return None,
        };
        Some(out.and_then(|b| std::fs::write(to, b).map_err(|e| io_error(to, e))))
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        j3d_anim::build::samples()
    }
}
