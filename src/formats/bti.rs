//! Standalone GX textures (`.bti`): the crate's contract (`j3d_bmd::BtiFormat`: no magic, so a
//! weak detection claimed only under a `.bti` name, from a header that makes sense — known format,
//! non-zero size, image data inside the file; parse, write, the texture rules J3D-079) presented
//! with `info` (the header) and the conversions: `convert x.bti x.png` decodes the first level
//! through `gx::tex`, `convert x.png x.bti --format cmpr` encodes (format names as `gx::tex::TexFormat::from_name`, default CMPR), and
//! `-o like=orig.bti` keeps the original's format, mip count (regenerated), wrap, filters and
//! LOD settings instead of the defaults (`--format` still overrides the format). Other option
//! keys are refused.

use std::fmt::Write as _;

use gcio::Result;
use j3d_bmd::{Bti as BtiFile, BtiFormat};

#[cfg(feature = "convert")]
use crate::export::{png, read_png};
#[cfg(feature = "convert")]
use crate::format::{
    Conversion, Notices, Outputs, check_option_keys, companion, extension_of, one_file,
};
use crate::format::{Info, Input};
use crate::{Present, Registered};
#[cfg(feature = "convert")]
use j3d_bmd::gx::tex::TexFormat;

/// The BTI texture format's presentation.
pub struct Bti;

/// The registry entry.
pub static ENTRY: Registered<BtiFormat, Bti> = Registered::new(Bti);

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

impl Present<BtiFormat> for Bti {
    fn info(&self, _data: &Input<'_>, b: &BtiFile) -> Result<Info> {
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

    #[cfg(feature = "convert")]
    /// `x.bti x.png` decodes, `x.png x.bti` encodes; notes colour that a greyscale target
    /// format drops.
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
        j3d_bmd::build::bti_samples()
    }
}
