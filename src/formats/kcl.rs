//! KCL collision: the crate's contract (`kcl::Format`: detection by header arithmetic with no
//! magic — position offset 0x38/0x3C, sections of whole entries in order, an octree that walks —,
//! parse, write, the KCL-* validator) presented with `info` (the header, pools and octree shape),
//! survey facts, `convert x.kcl x.obj` (the triangles, attribute as `usemtl attr_N`) and
//! `convert x.obj x.kcl` (`-o thickness=40`, `-o max_per_leaf=8`, `-o min_cell_shift=3`).

use std::fmt::Write as _;

#[cfg(feature = "convert")]
use gcio::Error;
use gcio::Result;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Options, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// Nintendo KCL collision's presentation.
pub struct Kcl;

/// The registry entry.
pub static ENTRY: Registered<kcl::Format, Kcl> = Registered::new(Kcl);

#[cfg(feature = "convert")]
fn build_options(opts: &Options) -> Result<kcl::build::Options> {
    let mut o = kcl::build::Options::default();
    let num = |k: &str| -> Result<Option<f64>> {
        opts.get(k)
            .map(|v| {
                v.parse::<f64>()
                    .map_err(|e| Error::message(format!("-o {k}={v}: {e}")))
            })
            .transpose()
    };
    if let Some(v) = num("thickness")? {
        o.prism_thickness = v as f32;
    }
    if let Some(v) = num("max_per_leaf")? {
        o.max_per_leaf = v as usize;
    }
    if let Some(v) = num("min_cell_shift")? {
        o.min_cell_shift = v as u32;
    }
    Ok(o)
}

impl Present<kcl::Format> for Kcl {
    fn info(&self, data: &Input<'_>, k: &kcl::Kcl) -> Result<Info> {
        let h = &k.header;
        let cells = k.cells();
        let depth = cells.iter().map(|c| c.depth).max().unwrap_or(0);
        let mut attrs: Vec<u16> = k.prisms.iter().map(|p| p.attribute).collect();
        attrs.sort_unstable();
        attrs.dedup();
        let mut text = format!(
            "kcl ({} bytes): {} positions, {} normals, {} prisms, prism thickness {}\n",
            data.len(),
            k.positions.len(),
            k.normals.len(),
            k.prisms.len(),
            h.prism_thickness
        );
        let counts = h.root_counts().unwrap_or_default();
        let _ = writeln!(
            text,
            "area min {:?}, root grid {}x{}x{} cells of edge {}, masks {:08x} {:08x} {:08x}",
            h.area_min,
            counts[0],
            counts[1],
            counts[2],
            2f64.powi(h.block_width_shift.min(127) as i32),
            h.area_masks[0],
            h.area_masks[1],
            h.area_masks[2]
        );
        if let Some(r) = h.sphere_radius {
            let _ = writeln!(text, "sphere radius {r}");
        }
        let _ = writeln!(
            text,
            "octree: {} branch blocks, {} leaves (deepest {depth}), list stream {} entries",
            k.octree.blocks.len(),
            cells.len(),
            k.octree.lists.len()
        );
        let _ = writeln!(text, "attributes used: {attrs:?}");
        let json = serde_json::json!({
            "positions": k.positions.len(),
            "normals": k.normals.len(),
            "prisms": k.prisms.len(),
            "prism_thickness": h.prism_thickness,
            "area_min": h.area_min,
            "area_masks": h.area_masks,
            "block_width_shift": h.block_width_shift,
            "area_x_blocks_shift": h.area_x_blocks_shift,
            "area_xy_blocks_shift": h.area_xy_blocks_shift,
            "sphere_radius": h.sphere_radius,
            "blocks": k.octree.blocks.len(),
            "leaves": cells.len(),
            "depth": depth,
            "list_entries": k.octree.lists.len(),
            "attributes": attrs,
            "raw_parts": k.raw_parts().len(),
        });
        Ok(Info { text, json })
    }

    fn facts(&self, _data: &Input<'_>, k: &kcl::Kcl) -> Vec<(String, u64)> {
        vec![
            (format!("header {:#x}", k.header.size()), 1),
            (format!("prism thickness {}", k.header.prism_thickness), 1),
            ("prisms".to_owned(), k.prisms.len() as u64),
        ]
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, opts, limits) = (job.input, job.from, job.to, job.opts, job.limits);
        let out = match (extension_of(from).as_str(), extension_of(to).as_str()) {
            (_, "obj") if kcl::sniff(input) => {
                kcl::Kcl::parse_with(input, limits).map(|k| kcl::obj::to_obj(&k).into_bytes())
            }
            ("obj", "kcl") => std::str::from_utf8(input)
                .map_err(|e| Error::message(format!("OBJ is not UTF-8: {e}")))
                .and_then(kcl::obj::from_obj)
                .and_then(|t| kcl::build::build(&t, &build_options(opts)?))
                .and_then(|k| k.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        kcl::build::samples()
    }
}
