//! Standalone GX textures (`.bti`): no magic, so detected by the extension plus a header that
//! makes sense (known format, non-zero size, image data inside the file). `info` prints the
//! header, `check` runs the texture rules (J3D-079), `roundtrip` writes the parsed file back;
//! `convert x.bti x.png` decodes the first level through `gx::tex`, `convert x.png x.bti
//! --format cmpr` encodes (format names as `gx::tex::TexFormat::from_name`, default CMPR), and
//! `-o like=orig.bti` keeps the original's format, mip count (regenerated), wrap, filters and
//! LOD settings instead of the defaults (`--format` still overrides the format). Other option
//! keys are refused.

use std::fmt::Write as _;

use gcio::{Diagnostic, Limits, Result};
use j3d_bmd::Bti as BtiFile;

#[cfg(feature = "convert")]
use crate::export::{png, read_png};
#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, check_option_keys, companion};
use crate::format::{
    Detection, Format, Info, Input, Options, Outputs, Rewrite, extension_of, one_file,
};
use j3d_bmd::gx::tex::TexFormat;

/// The BTI texture format.
pub struct Bti;

const FORMAT_NAMES: [(u8, &str); 11] = [
    (0x0, "I4"),
    (0x1, "I8"),
    (0x2, "IA4"),
    (0x3, "IA8"),
    (0x4, "RGB565"),
    (0x5, "RGB5A3"),
    (0x6, "RGBA8"),
    (0x8, "C4"),
    (0x9, "C8"),
    (0xA, "C14X2"),
    (0xE, "CMPR"),
];

/// Option keys `convert x.png y.bti` takes: the texture format and the original to keep.
#[cfg(feature = "convert")]
const PNG_TO_BTI_KEYS: [&str; 2] = ["format", "like"];

/// The GX texture format named `name` (`gx::tex::TexFormat::from_name`).
#[cfg(feature = "convert")]
fn texture_format(name: &str) -> Result<TexFormat> {
    TexFormat::from_name(name)
        .ok_or_else(|| gcio::Error::message(format!("unknown texture format {name:?}")))
}

fn format_name(f: u8) -> String {
    FORMAT_NAMES
        .iter()
        .find(|(id, _)| *id == f)
        .map_or_else(|| format!("{f:#x}"), |(_, n)| (*n).to_string())
}

impl Format for Bti {
    fn name(&self) -> &'static str {
        "bti"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["bti"]
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        // Weak at best: claimed for a `.bti` name only, tested first so other files cost nothing.
        if !path.to_ascii_lowercase().ends_with(".bti") {
            return None;
        }
        j3d_bmd::detect_bti(data)?
            .claims(true)
            .then(|| Detection::new("bti"))
    }

    /// The owned model, parsed once under the caller's [`Limits`] for every question.
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<crate::Parsed> {
        Ok(Box::new(BtiFile::parse_with(data, limits)?))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let b = data.parsed::<BtiFile>()?;
        let h = b.header().copied().unwrap_or_default();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "BTI {}×{} {}, {} level(s), wrap {}/{}, filters {}/{}",
            h.width,
            h.height,
            format_name(h.format),
            h.image_count.max(1),
            h.wrap_s,
            h.wrap_t,
            h.min_filter,
            h.mag_filter
        );
        if h.palette_count > 0 {
            let _ = writeln!(
                text,
                "palette: {} entries, format {}",
                h.palette_count, h.palette_format
            );
        }
        let json = serde_json::json!({
            "format": format_name(h.format),
            "format_id": h.format,
            "width": h.width,
            "height": h.height,
            "levels": h.image_count.max(1),
            "wrap": [h.wrap_s, h.wrap_t],
            "filters": [h.min_filter, h.mag_filter],
            "lod": [h.min_lod, h.max_lod, h.lod_bias],
            "palette": {"entries": h.palette_count, "format": h.palette_format},
            "image_bytes": b.set.image(0).map_or(0, <[u8]>::len),
        });
        Ok(Info { text, json })
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        Ok(data.parsed::<BtiFile>()?.write()?.into())
    }

    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(j3d_bmd::validate_bti(data))
    }

    #[cfg(feature = "convert")]
    fn convert(&self, job: &Conversion<'_>) -> Result<Option<Outputs>> {
        self.convert_noting(job, &mut Notices::new())
    }

    #[cfg(feature = "convert")]
    /// [`Format::convert`], noting colour that a greyscale target format drops.
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let (input, from, to, opts, limits) = (job.input, job.from, job.to, job.opts, job.limits);
        let out = match (extension_of(from).as_str(), extension_of(to).as_str()) {
            ("bti", "png") => {
                let levels = BtiFile::parse_with(input, limits)?.decode()?;
                let img = levels
                    .first()
                    .ok_or_else(|| gcio::Error::message("no image level"))?;
                png(img)?
            }
            ("png", "bti") => {
                check_option_keys(opts, &PNG_TO_BTI_KEYS, "PNG to BTI")?;
                let img = read_png(from, input)?;
                let bti = match companion(job.companions, "like") {
                    Some(orig) => {
                        let orig = BtiFile::parse_with(orig, limits)?;
                        let mut like = *orig.header().ok_or_else(|| {
                            gcio::Error::message("like=: the original BTI has no header")
                        })?;
                        if let Some(name) = opts.get("format") {
                            like.format = texture_format(name)?.0;
                        }
                        BtiFile::encode_like(&img, &like)?
                    }
                    None => {
                        let name = opts.get("format").map_or("cmpr", String::as_str);
                        BtiFile::encode(&img, texture_format(name)?, 1)?
                    }
                };
                if let Some(h) = bti.header().filter(|h| j3d_bmd::loses_colour(&img, h)) {
                    notices.push(format!(
                        "{from}: colour stored as grey ({} keeps one intensity per pixel)",
                        format_name(h.format)
                    ));
                }
                bti.write()?
            }
            _ => return Ok(None),
        };
        Ok(Some(one_file(to, out)))
    }

    /// `like`: the BTI a PNG replaces (`convert x.png y.bti -o like=orig.bti`), whose format,
    /// level count and sampling settings the new texture keeps.
    fn companions(&self) -> &'static [&'static str] {
        &["like"]
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        let (set, names) = j3d_bmd::build::textures();
        (0..set.textures.len())
            .filter_map(|i| {
                let t = set.textures.get(i)?;
                let b = BtiFile::new(t.header, set.image(i)?, set.palette(i))
                    .write()
                    .ok()?;
                Some((format!("{}.bti", names.name(i)?), b))
            })
            .collect()
    }
}
