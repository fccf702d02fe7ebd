//! NW4R fonts (`.brfnt`): the crate's contract (`brfnt::Format`: detection, parse, write, the
//! BRFNT-* rules) presented with `info` (metrics, sheets, code maps), survey facts,
//! `convert x.brfnt x.json` (the JSON and each sheet as `x_sheet<i>.png` beside it) and back.

use std::fmt::Write as _;

use gcio::{Error, ErrorKind, Result};

#[cfg(feature = "convert")]
use crate::format::{
    Conversion, Folder, Notices, Options, Outputs, extension, extension_of, file_name, file_stem,
};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The font format's presentation.
pub struct Brfnt;

/// The registry entry.
pub static ENTRY: Registered<brfnt::Format, Brfnt> = Registered::new(Brfnt);

fn sheet_format(g: &brfnt::Glyphs) -> String {
    g.tex_format()
        .and_then(|f| f.name())
        .map_or_else(|| format!("{:#06x}", g.sheet_format), str::to_owned)
}

fn method(m: &brfnt::Mapping) -> &'static str {
    match m {
        brfnt::Mapping::Direct { .. } => "direct",
        brfnt::Mapping::Table { .. } => "table",
        brfnt::Mapping::Scan { .. } => "scan",
        brfnt::Mapping::Other { .. } => "other",
    }
}

impl Present<brfnt::Format> for Brfnt {
    fn info(&self, data: &Input<'_>, f: &brfnt::Brfnt) -> Result<Info> {
        let mut text = format!(
            "NW4R font ({} bytes, version {:#06x}): {} blocks\n",
            data.len(),
            f.frame.version,
            f.blocks.len()
        );
        let info = f.info().map(|(_, i)| i);
        if let Some(i) = info {
            let _ = writeln!(
                text,
                "  line feed {}, encoding {}, alternate glyph {}, metrics {:?}",
                i.line_feed, i.encoding, i.alternate_index, i.metrics
            );
        }
        let glyphs = f.glyphs();
        if let Some(g) = glyphs {
            let _ = writeln!(
                text,
                "  {} sheets {}x{} {}, cells {}x{} ({} x {} per sheet): {} glyphs",
                g.sheets.len(),
                g.sheet_width,
                g.sheet_height,
                sheet_format(g),
                g.cell_width,
                g.cell_height,
                g.sheet_row,
                g.sheet_line,
                g.glyph_count()
            );
        }
        let maps: Vec<serde_json::Value> = f
            .code_maps()
            .map(|m| {
                let _ = writeln!(
                    text,
                    "  codes {:#06x}..={:#06x} {}",
                    m.code_begin,
                    m.code_end,
                    method(&m.mapping)
                );
                serde_json::json!({"begin": m.code_begin, "end": m.code_end, "method": method(&m.mapping)})
            })
            .collect();
        let json = serde_json::json!({
            "version": f.frame.version,
            "blocks": f.blocks.len(),
            "line_feed": info.map(|i| i.line_feed),
            "encoding": info.map(|i| i.encoding),
            "sheets": glyphs.map(|g| serde_json::json!({
                "count": g.sheets.len(), "width": g.sheet_width, "height": g.sheet_height,
                "format": sheet_format(g), "glyphs": g.glyph_count(),
            })),
            "code_maps": maps,
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, f: &brfnt::Brfnt) -> Vec<(String, u64)> {
        let mut out = vec![(format!("version {:#06x}", f.frame.version), 1)];
        if let Some(g) = f.glyphs() {
            out.push((format!("sheet format {}", sheet_format(g)), 1));
        }
        for m in f.code_maps() {
            out.push((format!("mapping {}", method(&m.mapping)), 1));
        }
        out
    }

    #[cfg(feature = "convert")]
    /// `x.brfnt x.json`: the model as JSON (sheets as stored texels) and each sheet as
    /// `x_sheet<i>.png` beside it; `x.json x.brfnt`: the font back, byte for byte.
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        match (brfnt::sniff(input), extension_of(to).as_str()) {
            (true, "json") => {
                let font = brfnt::Brfnt::parse_with(input, limits)?;
                let json = serde_json::to_vec_pretty(&brfnt::to_json(&font)?)
                    .map_err(|e| invalid(e.to_string()))?;
                let mut out = vec![(file_name(to), json)];
                let stem = file_stem(to);
                for i in 0..font.glyphs().map_or(0, |g| g.sheets.len()) {
                    let img = font.sheet_rgba(i)?;
                    out.push((format!("{stem}_sheet{i}.png"), gx::png::encode(&img)?));
                }
                Ok(Some(out))
            }
            (false, "brfnt") if extension_of(from) == "json" => {
                let font = serde_json::from_slice(input)
                    .map_err(|e| invalid(format!("JSON: {e}")))
                    .and_then(|j| brfnt::from_json(&j))?;
                Ok(Some(vec![(file_name(to), font.write()?)]))
            }
            _ => Ok(None),
        }
    }

    #[cfg(feature = "convert")]
    /// `DIR x.brfnt`: the font of the folder's one JSON file, each sheet taken from the
    /// `<stem>_sheet<i>.png` beside it when present (re-encoded where it was edited; byte for
    /// byte while the PNGs are unchanged).
    fn pack(
        &self,
        folder: &Folder,
        out: &std::path::Path,
        _opts: &Options,
    ) -> Result<Option<Vec<u8>>> {
        if extension(out) != "brfnt" {
            return Ok(None);
        }
        let invalid = |m: String| Error::without_offset(ErrorKind::Invalid(m));
        let jsons: Vec<(&String, &Vec<u8>)> = folder
            .files
            .iter()
            .filter(|(n, _)| extension_of(n) == "json")
            .collect();
        let [(name, text)] = jsons[..] else {
            return Err(invalid(format!(
                "the folder holds {} JSON files; a font needs exactly one",
                jsons.len()
            )));
        };
        let mut font = serde_json::from_slice(text)
            .map_err(|e| invalid(format!("{name}: JSON: {e}")))
            .and_then(|j| brfnt::from_json(&j))?;
        let base = name.strip_suffix(".json").unwrap_or(name);
        for i in 0..font.glyphs().map_or(0, |g| g.sheets.len()) {
            let png_name = format!("{base}_sheet{i}.png");
            if let Some(png) = folder.files.get(&png_name) {
                let img = gx::png::decode(png).map_err(|e| e.context(png_name.clone()))?;
                font.set_sheet_rgba(i, &img)
                    .map_err(|e| e.context(png_name))?;
            }
        }
        font.write().map(Some)
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        brfnt::build::samples()
    }
}

#[cfg(all(test, feature = "convert"))]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;
    use crate::formats::Ask;
    use crate::{Companions, Format, Options};

    /// Detection, info, check, and `x.brfnt x.json` (JSON + one PNG per sheet, the PNGs the
    /// decoded sheets) and back byte for byte.
    #[test]
    fn detect_info_check_and_convert() {
        let font = brfnt::build::latin();
        let bytes = font.write().unwrap();
        let d = ENTRY.detect(&bytes, "x.brfnt").unwrap();
        assert_eq!(d.format, "brfnt");
        assert_eq!(ENTRY.roundtrip_of(&bytes).unwrap(), bytes.clone().into());
        let info = ENTRY.info_of(&bytes).unwrap();
        assert_eq!(info.json["sheets"]["glyphs"], 24);
        assert_eq!(info.json["code_maps"].as_array().unwrap().len(), 3);
        assert!(ENTRY.check_of(&bytes, &Options::new()).unwrap().is_empty());

        let (opts, none) = (Options::new(), Companions::new());
        let job = |input: &[u8], from: &str, to: &str| {
            ENTRY
                .convert(&Conversion {
                    input,
                    from,
                    to,
                    opts: &opts,
                    companions: &none,
                    limits: &gcio::Limits::default(),
                })
                .unwrap()
                .unwrap()
        };
        let out = job(&bytes, "font.brfnt", "dir/font.json");
        let names: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["font.json", "font_sheet0.png", "font_sheet1.png"]);
        for (i, (_, png)) in out[1..].iter().enumerate() {
            assert_eq!(gx::png::decode(png).unwrap(), font.sheet_rgba(i).unwrap());
        }
        let back = job(&out[0].1, "font.json", "font.brfnt");
        assert_eq!(back, vec![("font.brfnt".to_owned(), bytes.clone())]);

        // The folder of the JSON and its PNGs packs back; an edited PNG is re-encoded.
        let mut folder = crate::Folder::default();
        for (n, b) in &out {
            folder.files.insert(n.clone(), b.clone());
        }
        let out_path = std::path::Path::new("x.brfnt");
        let packed = ENTRY.pack(&folder, out_path, &opts).unwrap().unwrap();
        assert_eq!(packed, bytes);
        let blank = gx::tex::Image::filled(32, 32, [0; 4]).unwrap();
        folder.files.insert(
            "font_sheet1.png".to_owned(),
            gx::png::encode(&blank).unwrap(),
        );
        let packed = ENTRY.pack(&folder, out_path, &opts).unwrap().unwrap();
        let edited = brfnt::Brfnt::parse(&packed).unwrap();
        assert_eq!(edited.sheet_rgba(1).unwrap(), blank);
        assert_eq!(edited.sheet_rgba(0).unwrap(), font.sheet_rgba(0).unwrap());
        assert!(
            ENTRY
                .pack(&folder, std::path::Path::new("x.tpl"), &opts)
                .unwrap()
                .is_none()
        );
    }
}
