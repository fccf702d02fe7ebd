//! Wii TPL texture libraries: the crate's contract (`tpl::Format`: the magic and a table offset
//! inside the file, parse, write, the TPL-* rules) presented with `info` (the images), survey
//! facts, `convert x.tpl DIR` (one PNG per image with a manifest, `tpl::folder`) and
//! `convert DIR x.tpl` (rebuilt byte for byte while the PNGs are unchanged).

use std::fmt::Write as _;

use gcio::Result;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Folder, Notices, Options, Outputs, extension, is_folder_name};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The TPL format's presentation.
pub struct Tpl;

/// The registry entry.
pub static ENTRY: Registered<tpl::Format, Tpl> = Registered::new(Tpl);

fn format_name(id: u32) -> String {
    u8::try_from(id)
        .ok()
        .and_then(|b| gx::tex::TexFormat(b).name())
        .map_or_else(|| format!("{id:#x}"), str::to_owned)
}

impl Present<tpl::Format> for Tpl {
    fn info(&self, data: &Input<'_>, t: &tpl::Tpl) -> Result<Info> {
        let mut text = format!("TPL ({} bytes): {} image(s)\n", data.len(), t.images.len());
        let mut images = Vec::new();
        for (i, e) in t.images.iter().enumerate() {
            let h = &e.header;
            let _ = writeln!(
                text,
                "  {i}: {}x{} {}, {} level(s), wrap {}/{}, filters {}/{}, data at {:#x}{}",
                h.width,
                h.height,
                format_name(h.format),
                h.levels(),
                h.wrap_s,
                h.wrap_t,
                h.min_filter,
                h.mag_filter,
                h.data_offset,
                e.palette.as_ref().map_or(String::new(), |p| format!(
                    ", palette {} entries format {}",
                    p.header.entries, p.header.format
                ))
            );
            images.push(serde_json::json!({
                "width": h.width,
                "height": h.height,
                "format": format_name(h.format),
                "levels": h.levels(),
                "wrap": [h.wrap_s, h.wrap_t],
                "filters": [h.min_filter, h.mag_filter],
                "lod": [h.min_lod, h.max_lod, h.lod_bias],
                "data_offset": h.data_offset,
                "palette": e.palette.as_ref().map(|p| serde_json::json!({
                    "entries": p.header.entries, "format": p.header.format,
                })),
            }));
        }
        let json = serde_json::json!({"images": images, "size": data.len()});
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, t: &tpl::Tpl) -> Vec<(String, u64)> {
        let mut f: Vec<(String, u64)> = t
            .images
            .iter()
            .map(|e| (format!("format {}", format_name(e.header.format)), 1))
            .collect();
        f.push((format!("table at {:#x}", t.table_offset), 1));
        f
    }

    #[cfg(feature = "convert")]
    /// `x.tpl DIR`: one PNG per image and the manifest, as files inside the folder.
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, to, limits) = (job.input, job.to, job.limits);
        if !(tpl::sniff(input) && is_folder_name(to)) {
            return Ok(None);
        }
        Ok(Some(tpl::folder::to_folder(&tpl::Tpl::parse_with(
            input, limits,
        )?)?))
    }

    #[cfg(feature = "convert")]
    /// `DIR x.tpl`: the library rebuilt from a folder `convert x.tpl DIR` made (byte for byte
    /// while the PNGs are unchanged).
    fn pack(
        &self,
        folder: &Folder,
        out: &std::path::Path,
        _opts: &Options,
    ) -> Result<Option<Vec<u8>>> {
        if extension(out) != "tpl" {
            return Ok(None);
        }
        tpl::folder::from_folder(|name| folder.files.get(name).cloned())?
            .write()
            .map(Some)
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        vec![("sample.tpl".to_owned(), tpl::build::sample_bytes())]
    }
}
