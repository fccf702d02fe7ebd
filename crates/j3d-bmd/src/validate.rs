//! Validator: the `J3D-*` rules (`docs/rules/j3d.md`) that concern the container, INF1,
//! VTX1, EVP1, DRW1, JNT1 (with the joint bounds against the geometry), SHP1, MAT3, MDL3 (against
//! MAT3 + TEX1) and TEX1. It reports what it can read and never fails.

use gcio::{Diagnostic, Findings, Limits, Severity};
use gx::dl::{DisplayList, matrix_slot};
use gx::vtx::{Attr, AttrType, CompType};

use crate::bounds::{Bounds, joint_vertices};
use crate::chunk::off;
use crate::drw1::{Drw1View, DrwKind};
use crate::evp1::Evp1View;
use crate::file::{BmdView, MAGIC_BDL4, MAGIC_BMD2, MAGIC_BMD3, MAGIC_BMT3};
use crate::inf1::{Inf1View, LoaderFlags, NodeKind, tree_of};
use crate::jnt1::Jnt1View;
use crate::mat3::{Mat3, Mat3View};
use crate::mdl3::{Mdl3, first_mismatch};
use crate::nametab::{NameTable, name_hash};
use crate::record::Record;
use crate::shp1::{IndexAttr, ShapeMatrixType, Shp1View};
use crate::tex1::{BtiHeader, Tex1};
use crate::vtx1::{BUFFER_ATTRS, Vtx1View, buffer_slot};

/// Validates file bytes (a file that does not parse yields one J3D-006 finding).
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (the view keeps them for every chunk it reads).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match crate::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("J3D-006", e.offset(), e.to_string())],
    }
}

/// A chunk that does not parse at all.
fn broken(o: &mut Findings, e: gcio::Error) {
    o.push(Diagnostic::error("J3D-006", e.offset(), e.to_string()));
}

/// Element counts the cross-chunk rules need.
#[derive(Default)]
struct Counts {
    joints: Option<usize>,
    envelopes: Option<usize>,
    drw: Option<usize>,
    materials: Option<usize>,
    shapes: Option<usize>,
    /// Entries per VTX1 buffer slot (`None` = no buffer).
    buffers: [Option<usize>; 13],
    /// Whole elements up to the next buffer per slot: what an index can reach (trailing
    /// elements that look like padding are still data to the game).
    capacity: [Option<usize>; 13],
    has_vtx1: bool,
}

/// Validates a parsed view.
pub fn validate_view(v: &BmdView<'_>) -> Vec<Diagnostic> {
    let mut o = Findings::new();
    container(v, &mut o);
    let vtx = v.vtx1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let evp = v.evp1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let drw = v.drw1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let jnt = v.jnt1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let shp = v.shp1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let inf = v.inf1().and_then(|r| r.map_err(|e| broken(&mut o, e)).ok());
    let mut c = Counts {
        joints: jnt.map(|j| j.len()),
        envelopes: evp.map(|e| e.len()),
        drw: drw.map(|d| d.len()),
        materials: v
            .chunk(b"MAT3")
            .and_then(|m| m.data.u16(8).ok())
            .map(usize::from),
        shapes: shp.map(|s| s.len()),
        ..Counts::default()
    };
    if let Some(x) = &vtx {
        vtx1(x, &mut o, &mut c);
    }
    if let Some(x) = &inf {
        inf1(x, &mut o, &c, shp.as_ref());
    }
    if let Some(x) = &evp {
        evp1(x, &mut o, &c);
    }
    if let Some(x) = &drw {
        drw1(x, &mut o, &c);
    }
    if let Some(x) = &jnt {
        jnt1(x, &mut o);
    }
    if let Some(x) = &shp {
        shp1(x, &mut o, &c);
    }
    if let Some(x) = &jnt {
        joint_bounds(v, x, &mut o);
    }
    let textures = v.chunk(b"TEX1").map(|t| tex1(t.data, &mut o));
    let mat = match v.mat3() {
        // The typed chunk knows the padding style and alignment, so padding never reads as values.
        Some(Ok(m)) => {
            match typed_mat3(v).map_or_else(|| Mat3::from_view(&m, crate::Pad::Nintendo, 4), Ok) {
                Ok(x) => {
                    mat3(&m, &x, textures, &mut o);
                    Some(x)
                }
                Err(e) => {
                    broken(&mut o, e);
                    None
                }
            }
        }
        Some(Err(e)) => {
            broken(&mut o, e);
            None
        }
        None => None,
    };
    if let Some(m) = v.chunk(b"MDL3") {
        mdl3(v, m.data, mat.as_ref(), &mut o);
    }
    o.into_vec()
}

/// MAT3 as the owned model reads it (padding style and alignment detected), when it is typed.
fn typed_mat3(v: &BmdView<'_>) -> Option<Mat3> {
    match crate::Chunk::from_view(&v.chunk(b"MAT3")?) {
        crate::Chunk::Mat3(m) => Some(m),
        _ => None,
    }
}

/// MDL3 consistent with MAT3 (J3D-081, `docs/RULES.md`): one packet per material, and each
/// packet leaves the registers [`Mdl3::from_materials`] derives from its material and TEX1 with the
/// same values ([`first_mismatch`] says what is compared and why decoded values, not bytes). On the
/// BDL path the game sends these packets instead of building the state from MAT3, so a difference
/// shows in game but not in tools that read MAT3. The count is an error; a value is a warning, as
/// the regenerator derives only part of a material's state.
fn mdl3(v: &BmdView<'_>, r: gcio::Reader<'_>, mat: Option<&Mat3>, o: &mut Findings) {
    let Ok(count) = r.u16(8) else {
        o.error_at("J3D-006", r.abs(0), "MDL3 header cut short");
        return;
    };
    if let Some(mt) = v.chunk(b"MAT3").and_then(|c| c.data.u16(8).ok())
        && count != mt
    {
        o.error_at(
            "J3D-081",
            r.abs(8),
            format!("MDL3 has {count} packets for {mt} MAT3 materials"),
        );
    }
    let Some(mat) = mat else { return };
    let stored = match Mdl3::parse_with(r, crate::Pad::Nintendo, v.limits()) {
        Ok(m) => m,
        Err(e) => return broken(o, e),
    };
    let textures = v
        .chunk(b"TEX1")
        .and_then(|t| Tex1::parse_with(t.data, crate::Pad::Nintendo, v.limits()).ok())
        .map(|t| t.set)
        .unwrap_or_default();
    let table = r.u32(0x0C).map_or(0, |t| t as usize);
    for (i, p) in stored.packets.iter().enumerate() {
        let Some(material) = mat.material(i) else {
            continue;
        };
        let Some(miss) = Mdl3::from_materials(std::slice::from_ref(&material), &textures)
            .ok()
            .and_then(|m| m.packets.into_iter().next())
            .and_then(|expected| first_mismatch(&p.commands, &expected.commands))
        else {
            continue;
        };
        let entry = table + 8 * i;
        let at = r
            .u32(entry)
            .map_or(r.abs(entry), |x| r.abs(entry + x as usize));
        let found = miss
            .found
            .map_or_else(|| "does not set it".to_string(), |f| format!("has {f:#x}"));
        o.warning_at(
            "J3D-081",
            at,
            format!(
                "material {i} ({}): MDL3 packet {i} register {}: MAT3 + TEX1 give {:#x}, the packet {found}",
                gcio::text::Encoding::ShiftJis.to_text(&material.name),
                miss.register,
                miss.expected
            ),
        );
    }
}

/// Material indices resolve (J3D-080: indices into absent tables are not required to), texture
/// numbers exist in TEX1 (J3D-076).
fn mat3(v: &Mat3View<'_>, m: &Mat3, textures: Option<usize>, o: &mut Findings) {
    let at = v.reader().abs(0);
    let entries = m.entries.as_ref().map_or(0, Vec::len);
    for (i, &e) in m.remap.iter().flatten().enumerate() {
        if usize::from(e) >= entries {
            o.error_at(
                "J3D-080",
                at,
                format!("material {i} uses entry {e} of {entries}"),
            );
        }
    }
    for (i, e) in m.entries.iter().flatten().enumerate() {
        let mut bad = Vec::new();
        m.tables.check_indices(e, |table, index, len| {
            bad.push(format!("{table} index {index} of {len}"))
        });
        for b in bad {
            o.error_at("J3D-080", at, format!("material entry {i}: {b}"));
        }
    }
    // Only slots a material uses: the game never reads the others.
    let used: std::collections::BTreeSet<usize> = m
        .entries
        .iter()
        .flatten()
        .flat_map(|e| e.textures)
        .filter(|&k| k != u16::MAX)
        .map(usize::from)
        .collect();
    if let (Some(n), Some(t)) = (textures, m.tables.textures.as_ref()) {
        for (i, &tex) in t.iter().enumerate() {
            if used.contains(&i) && usize::from(tex) >= n {
                o.error_at(
                    "J3D-076",
                    at + v.offset(15) as u64 + 2 * i as u64,
                    format!("texture number {tex} of {n} TEX1 textures"),
                );
            }
        }
    }
}

/// One texture header at `hp` of `r` (offsets relative to it): known format, image of the
/// format's size for its mip count and palette of a valid size inside the data (J3D-079).
fn texture(r: gcio::Reader<'_>, hp: usize, i: usize, o: &mut Findings) {
    let at = r.abs(0);
    let here = at + hp as u64;
    let Ok(h) = BtiHeader::read(&r, hp) else {
        o.error_at("J3D-079", here, format!("texture {i}: header cut short"));
        return;
    };
    let Some(size) = h.image_size() else {
        o.error_at(
            "J3D-079",
            here,
            format!("texture {i}: unknown format {:#x}", h.format),
        );
        return;
    };
    if r.bytes(hp + h.image_offset as usize, size).is_err() {
        o.error_at(
            "J3D-079",
            here + 0x1C,
            format!(
                "texture {i}: {size} image bytes ({} levels) at +{:#x} leave TEX1",
                h.image_count.max(1),
                h.image_offset
            ),
        );
    }
    sampled_size(&h, here, i, o);
    let max_palette = match h.format {
        0x8 => Some(16),
        0x9 => Some(256),
        0xA => Some(16384),
        _ => None,
    };
    if let Some(max) = max_palette {
        if h.palette_count == 0 || h.palette_count > max {
            o.error_at(
                "J3D-079",
                here + 0x0A,
                format!(
                    "texture {i}: {} palette entries (1..={max} for this format)",
                    h.palette_count
                ),
            );
        } else if r
            .bytes(hp + h.palette_offset as usize, h.palette_size())
            .is_err()
        {
            o.error_at(
                "J3D-079",
                here + 0x0C,
                format!(
                    "texture {i}: palette at +{:#x} leaves TEX1",
                    h.palette_offset
                ),
            );
        }
    }
}

/// J3D-082: GX samples at most 1024 texels a side (`TX_SETIMAGE0` holds the size − 1 in 10
/// bits) and repeats or mirrors only power-of-two sides.
fn sampled_size(h: &BtiHeader, here: u64, i: usize, o: &mut Findings) {
    let (w, ht) = (u32::from(h.width), u32::from(h.height));
    let wrap = [h.wrap_s, h.wrap_t].map(u32::from);
    for fault in gx::tex::sampling_faults(w, ht, wrap) {
        match fault {
            gx::tex::SamplingFault::TooLarge => o.error_at(
                "J3D-082",
                here + 2,
                format!("texture {i}: {w}×{ht} texels: GX samples at most 1024 a side"),
            ),
            gx::tex::SamplingFault::Wraps { axis, side, wrap } => o.warning_at(
                "J3D-082",
                here + if axis == 'S' { 6 } else { 7 },
                format!(
                    "texture {i} wraps along {axis} (mode {wrap}) over {side} texels: GX repeats \
                     and mirrors only power-of-two sides"
                ),
            ),
        }
    }
}

/// Image and palette blocks of the `count` headers at `table` that start inside another block
/// (J3D-074, info): a texture using another's mip level, a palette inside an image. The game
/// reads each through its offset and the model keeps it there; writers store each block whole.
fn nested_data(r: gcio::Reader<'_>, table: usize, count: usize, o: &mut Findings) {
    // (start, length, texture, what)
    let mut blocks: Vec<(usize, usize, usize, &str)> = Vec::new();
    for i in 0..count {
        let hp = table + i * BtiHeader::SIZE;
        let Ok(h) = BtiHeader::read(&r, hp) else {
            continue;
        };
        if let Some(n) = h.image_size().filter(|_| h.image_offset != 0) {
            blocks.push((hp + h.image_offset as usize, n, i, "image"));
        }
        if h.palette_count != 0 && h.palette_offset != 0 {
            blocks.push((
                hp + h.palette_offset as usize,
                h.palette_size(),
                i,
                "palette",
            ));
        }
    }
    blocks.sort_unstable_by_key(|b| (b.0, std::cmp::Reverse(b.1)));
    // The block reaching furthest so far: (start, end, texture, what).
    let mut outer: Option<(usize, usize, usize, &str)> = None;
    for &(start, len, i, what) in &blocks {
        match outer {
            Some((s, end, j, w)) if start > s && start < end => o.info_at(
                "J3D-074",
                r.abs(start),
                format!(
                    "texture {i}'s {what} starts {:#x} bytes into texture {j}'s {w}",
                    start - s
                ),
            ),
            _ => {}
        }
        if outer.is_none_or(|(_, end, _, _)| start + len > end) {
            outer = Some((start, start + len, i, what));
        }
    }
}

/// Validates a standalone `.bti` file (its one header at 0).
pub fn validate_bti(data: &[u8]) -> Vec<Diagnostic> {
    let mut o = Findings::new();
    texture(gcio::Reader::new(data), 0, 0, &mut o);
    nested_data(gcio::Reader::new(data), 0, 1, &mut o);
    o.into_vec()
}

/// TEX1 headers, names and data (J3D-007, J3D-073, J3D-074, J3D-075, J3D-079); returns the
/// texture count.
fn tex1(r: gcio::Reader<'_>, o: &mut Findings) -> usize {
    let at = r.abs(0);
    let (Ok(count), Ok(marker), Ok(table), Ok(names)) = (r.u16(8), r.u16(10), r.u32(12), r.u32(16))
    else {
        o.error_at("J3D-006", at, "TEX1 header cut short");
        return 0;
    };
    if marker != 0xFFFF {
        o.warning_at("J3D-007", at + 10, format!("TEX1 marker {marker:#06x}"));
    }
    let count = usize::from(count);
    let table = table as usize;
    if count > 0 && r.bytes(table, count * BtiHeader::SIZE).is_err() {
        o.error_at(
            "J3D-073",
            at + 12,
            format!("{count} headers at {table:#x} run past the chunk"),
        );
        return count;
    }
    if names != 0 {
        match NameTable::parse(r, names as usize) {
            Ok(t) if t.entries.len() != count => o.error_at(
                "J3D-075",
                at + u64::from(names),
                format!("{} names for {count} textures", t.entries.len()),
            ),
            Err(e) => broken(o, e),
            _ => {}
        }
    }
    for i in 0..count {
        texture(r, table + i * BtiHeader::SIZE, i, o);
    }
    nested_data(r, table, count, o);
    count
}

fn container(v: &BmdView<'_>, o: &mut Findings) {
    let h = v.header();
    let magic = &h.magic;
    if ![MAGIC_BMD2, MAGIC_BMD3, MAGIC_BDL4, MAGIC_BMT3].contains(&magic) {
        o.error_at(
            "J3D-001",
            0,
            format!(
                "magic {:?} is not J3D2bmd2/bmd3/bdl4",
                String::from_utf8_lossy(magic)
            ),
        );
    }
    if h.size.get() as usize != v.reader().len() {
        o.warning_at(
            "J3D-002",
            8,
            format!(
                "stored file size {:#x}, actual {:#x}",
                h.size.get(),
                v.reader().len()
            ),
        );
    }
    if !h.tag.starts_with(b"SVR3") {
        o.info_at(
            "J3D-005",
            0x10,
            format!(
                "tag block {:?} (new files use SVR3; the game ignores it)",
                String::from_utf8_lossy(&h.tag)
            ),
        );
    }
    let bdl = magic == MAGIC_BDL4;
    let expect = if bdl { 9 } else { 8 };
    if magic != MAGIC_BMT3 && h.chunk_count.get() != expect {
        o.error_at(
            "J3D-003",
            0x0C,
            format!("chunk count {} (expected {expect})", h.chunk_count.get()),
        );
    }
    let mdl3 = v.chunks().iter().filter(|c| &c.magic == b"MDL3").count();
    if magic != MAGIC_BMT3 && mdl3 != usize::from(bdl) {
        o.error_at(
            "J3D-004",
            0,
            format!(
                "{mdl3} MDL3 chunk(s) in a {}",
                if bdl { "BDL" } else { "BMD" }
            ),
        );
    }
    let order: &[&[u8; 4]] = &[
        b"INF1", b"VTX1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"MAT3", b"MAT2", b"MDL3", b"TEX1",
    ];
    let mut last = 0;
    for c in v.chunks() {
        if let Some(p) = order.iter().position(|m| **m == c.magic) {
            if p < last {
                o.warning_at(
                    "J3D-008",
                    c.offset(),
                    format!("{} after a later chunk", c.name()),
                );
            }
            last = p;
        }
        if [b"INF1", b"EVP1", b"DRW1", b"JNT1", b"SHP1", b"TEX1"].contains(&&c.magic)
            && let Ok(m) = c.data.u16(0x0A)
            && m != 0xFFFF
        {
            o.warning_at(
                "J3D-007",
                c.offset() + 0x0A,
                format!("{} marker {m:#06x}", c.name()),
            );
        }
        if !c.data.len().is_multiple_of(32) {
            o.warning_at(
                "J3D-077",
                c.offset() + 4,
                format!(
                    "{} size {:#x} not a multiple of 0x20",
                    c.name(),
                    c.data.len()
                ),
            );
        }
    }
    if v.chunks().iter().filter(|c| &c.magic == b"JNT1").count() > 1 {
        o.error_at("J3D-041", 0, "more than one JNT1 (one skeleton per model)");
    }
}

fn inf1(x: &Inf1View<'_>, o: &mut Findings, c: &Counts, shp: Option<&Shp1View<'_>>) {
    let base = x.reader().base();
    let flags = x.flags();
    let unknown = flags.bits() & !LoaderFlags::all().bits();
    if unknown != 0 {
        o.warning_at(
            "J3D-017",
            base + 8,
            format!("unknown loader flag bits {unknown:#06x}"),
        );
    }
    if let Some(pos) = c.buffers.first().copied().flatten()
        && x.header().vertex_count.get() as usize != pos
    {
        o.warning_at(
            "J3D-009",
            base + 0x10,
            format!(
                "vertex count {} but {pos} positions",
                x.header().vertex_count.get()
            ),
        );
    }
    if let Some(s) = shp
        && x.header().matrix_group_count.get() as usize != s.matrix_data_count()
    {
        o.warning_at(
            "J3D-010",
            base + 0x0C,
            format!(
                "matrix group count {} but {} SHP1 matrix data entries",
                x.header().matrix_group_count.get(),
                s.matrix_data_count()
            ),
        );
    }
    let mut nodes = Vec::new();
    let mut ended = false;
    for (i, n) in x.nodes().enumerate() {
        let at = base + (x.hierarchy_offset() + 4 * i) as u64;
        let Ok(n) = n else { break };
        nodes.push(n);
        let (limit, what) = match n.kind {
            NodeKind::END => {
                ended = true;
                continue;
            }
            NodeKind::OPEN | NodeKind::CLOSE => continue,
            NodeKind::JOINT => (c.joints, "JNT1"),
            NodeKind::MATERIAL => (c.materials, "MAT3"),
            NodeKind::SHAPE => (c.shapes, "SHP1"),
            k => {
                o.error_at("J3D-011", at, format!("node type {:#x}", k.0));
                continue;
            }
        };
        if let Some(l) = limit
            && usize::from(n.index) >= l
        {
            o.error_at(
                "J3D-014",
                at,
                format!("node {i} index {} ≥ {what} count {l}", n.index),
            );
        }
    }
    if !ended {
        o.error_at("J3D-012", base, "hierarchy has no END node");
    }
    if let Err(e) = tree_of(&nodes, &x.limits) {
        o.error_at(
            "J3D-013",
            e.offset()
                .map_or(base, |r| base + x.hierarchy_offset() as u64 + r),
            e.to_string(),
        );
    }
    if let Some(j) = c.joints {
        let mut seen = vec![0u32; j];
        for n in nodes.iter().filter(|n| n.kind == NodeKind::JOINT) {
            if let Some(s) = seen.get_mut(usize::from(n.index)) {
                *s += 1;
            }
        }
        if let Some(k) = seen.iter().position(|&s| s != 1) {
            o.warning_at(
                "J3D-015",
                base,
                format!(
                    "joint {k} appears {} times in the hierarchy",
                    seen.get(k).copied().unwrap_or(0)
                ),
            );
        }
    }
    if !x.reader().len().is_multiple_of(32) {
        o.error_at(
            "J3D-016",
            base + 4,
            "node list not padded to a multiple of 32",
        );
    }
}

fn vtx1(x: &Vtx1View<'_>, o: &mut Findings, c: &mut Counts) {
    let base = x.reader().base();
    c.has_vtx1 = true;
    // A set: hostile format lists can be long.
    let mut seen = std::collections::HashSet::new();
    let mut ended = false;
    for (i, f) in x.formats().enumerate() {
        let at = base + off(x.header().formats) as u64 + 16 * i as u64;
        let f = match f {
            Ok(f) => f.format,
            Err(e) => {
                o.error_at("J3D-006", e.offset().unwrap_or(at), e.to_string());
                break;
            }
        };
        if f.attr == Attr::NULL {
            ended = true;
            break;
        }
        if !seen.insert(f.attr) {
            o.error_at(
                "J3D-018",
                at,
                format!("second format for attribute {}", f.attr.0),
            );
        }
        let Some(slot) = buffer_slot(f.attr) else {
            o.error_at(
                "J3D-020",
                at,
                format!("attribute {:#x} has no VTX1 buffer", f.attr.0),
            );
            continue;
        };
        let valid_count = match f.attr {
            Attr::POS | Attr::CLR0 | Attr::CLR1 => f.count.0 <= 1,
            Attr::NRM => f.count.0 <= 2,
            _ => f.count.0 <= 1,
        };
        if !valid_count {
            o.error_at(
                "J3D-023",
                at + 4,
                format!("component count {} for attribute {}", f.count.0, f.attr.0),
            );
        }
        if f.attr.is_color() {
            if f.ty.0 > 5 {
                o.error_at("J3D-024", at + 8, format!("colour type {}", f.ty.0));
            } else if f.ty != CompType::RGBA8 {
                let sev = if f.ty.color_size() == Some(4) {
                    Severity::Warning
                } else {
                    Severity::Error
                };
                o.add_at(
                    sev,
                    "J3D-025",
                    at + 8,
                    format!(
                        "colour type {} is not RGBA8 (both games need 4-byte colours)",
                        f.ty.0
                    ),
                );
            }
        } else if f.ty.0 > 4 {
            o.error_at("J3D-024", at + 8, format!("component type {}", f.ty.0));
        }
        if x.buffer_offset(slot) == 0 {
            o.error_at(
                "J3D-021",
                at,
                format!("attribute {} has a format but no buffer", f.attr.0),
            );
        }
        if x.buffer_offset(slot) != 0
            && f.element_size().is_some()
            && let Some(b) = c.buffers.get_mut(slot)
        {
            *b = Some(x.count(f.attr));
            if let Some(k) = c.capacity.get_mut(slot) {
                *k = Some(x.capacity(f.attr));
            }
        }
    }
    if !ended {
        o.error_at(
            "J3D-019",
            base + off(x.header().formats) as u64,
            "format list does not end with attribute 0xFF",
        );
    }
    for (slot, a) in BUFFER_ATTRS.iter().enumerate() {
        if x.buffer_offset(slot) != 0 && !seen.contains(a) {
            o.error_at(
                "J3D-021",
                base + 0x0C + 4 * slot as u64,
                format!("buffer {slot} without a format"),
            );
        }
        if x.buffer_offset(slot) > x.reader().len() {
            o.error_at(
                "J3D-006",
                base + 0x0C + 4 * slot as u64,
                format!("buffer {slot} offset past the chunk"),
            );
        }
    }
    if !seen.contains(&Attr::POS) {
        o.error_at("J3D-022", base, "no POSITION data");
    }
}

fn evp1(x: &Evp1View<'_>, o: &mut Findings, c: &Counts) {
    let base = x.reader().base();
    let h = x.header();
    if x.is_empty() && off(h.ibms) == 0 {
        if !x.reader().len().is_multiple_of(32) {
            o.error_at("J3D-033", base + 4, "EVP1 not padded to 32");
        }
        return;
    }
    let sizes = match x.sizes() {
        Ok(s) => s,
        Err(e) => {
            o.error_at("J3D-028", e.offset().unwrap_or(base), e.to_string());
            return;
        }
    };
    let pairs: usize = sizes.iter().map(|&s| usize::from(s)).sum();
    let fits = |off_: usize, n: usize| x.reader().bytes(off_, n).is_ok();
    if !fits(off(h.joints), pairs * 2) || !fits(off(h.weights), pairs * 4) {
        o.error_at(
            "J3D-029",
            base + 0x10,
            format!("joint/weight tables do not hold {pairs} entries"),
        );
    }
    for (off_, what) in [(off(h.weights), "weight"), (off(h.ibms), "matrix")] {
        if !off_.is_multiple_of(4) {
            o.error_at(
                "J3D-032",
                base + 0x14,
                format!("{what} table at {off_:#x} not 4-aligned"),
            );
        }
    }
    let Ok(envelopes) = x.envelopes() else { return };
    for (i, pairs) in envelopes.enumerate() {
        let mut sum = 0.0;
        for p in pairs {
            let Ok((j, w)) = p else { break };
            sum += w;
            if let Some(n) = c.joints
                && usize::from(j) >= n
            {
                o.error_at(
                    "J3D-030",
                    base + off(h.joints) as u64,
                    format!("envelope {i} joint {j} ≥ joint count {n}"),
                );
            }
        }
        if (sum - 1.0).abs() > 1e-3 {
            o.warning_at(
                "J3D-034",
                base + off(h.weights) as u64,
                format!("envelope {i} weights sum to {sum}"),
            );
        }
    }
    if let Some(n) = c.joints
        && x.ibm_capacity() < n
    {
        o.error_at(
            "J3D-031",
            base + 0x18,
            format!("{} inverse bind matrices for {n} joints", x.ibm_capacity()),
        );
    }
    if !x.reader().len().is_multiple_of(32) {
        o.error_at("J3D-033", base + 4, "EVP1 not padded to 32");
    }
}

fn drw1(x: &Drw1View<'_>, o: &mut Findings, c: &Counts) {
    let base = x.reader().base();
    let n = x.len();
    let h = x.header();
    if x.reader().bytes(off(h.kinds), n).is_err() || x.reader().bytes(off(h.ids), 2 * n).is_err() {
        o.error_at(
            "J3D-035",
            base + 8,
            format!("type/id lists do not hold {n} entries"),
        );
        return;
    }
    let mut seen_env = false;
    for i in 0..n {
        let Ok(e) = x.get(i) else { break };
        let at = base + off(h.kinds) as u64 + i as u64;
        match e.kind {
            DrwKind::JOINT => {
                if seen_env {
                    o.error_at(
                        "J3D-037",
                        at,
                        format!("joint entry {i} after an envelope entry"),
                    );
                }
                if let Some(j) = c.joints
                    && usize::from(e.id) >= j
                {
                    o.error_at("J3D-038", at, format!("entry {i}: joint {} ≥ {j}", e.id));
                }
            }
            DrwKind::ENVELOPE => {
                seen_env = true;
                if let Some(v) = c.envelopes
                    && usize::from(e.id) >= v
                {
                    o.error_at("J3D-038", at, format!("entry {i}: envelope {} ≥ {v}", e.id));
                }
            }
            k => o.error_at("J3D-036", at, format!("entry {i} type {}", k.0)),
        }
    }
    let env_entries = (0..n)
        .filter_map(|i| x.get(i).ok())
        .filter(|e| e.kind == DrwKind::ENVELOPE)
        .count();
    if let Some(v) = c.envelopes
        && v > 0
        && env_entries != 2 * v
    {
        o.info_at( "J3D-039", base + 8, format!("{env_entries} envelope entries for {v} envelopes (Nintendo's tools list each twice)"));
    }
    if !x.reader().len().is_multiple_of(32) {
        o.error_at("J3D-040", base + 4, "DRW1 not padded to 32");
    }
}

fn names(t: Option<gcio::Result<NameTable>>, count: usize, at: u64, o: &mut Findings) {
    match t {
        None => {}
        Some(Err(e)) => o.error_at("J3D-042", e.offset().unwrap_or(at), e.to_string()),
        Some(Ok(t)) => {
            if t.entries.len() != count {
                o.error_at(
                    "J3D-078",
                    at,
                    format!("{} names for {count} entries", t.entries.len()),
                );
            }
            for (i, e) in t.entries.iter().enumerate() {
                if e.key != name_hash(&e.name) {
                    o.warning_at(
                        "J3D-078",
                        at,
                        format!(
                            "name {i} key {:#06x}, hash {:#06x}",
                            e.key,
                            name_hash(&e.name)
                        ),
                    );
                }
            }
        }
    }
}

fn jnt1(x: &Jnt1View<'_>, o: &mut Findings) {
    let base = x.reader().base();
    let data_len = x.data_len();
    for i in 0..data_len.min(0x10000) {
        let at = base + off(x.header().data) as u64 + 0x40 * i as u64;
        let Ok(j) = x.data(i) else {
            o.error_at("J3D-006", at, format!("joint {i} past the chunk"));
            break;
        };
        if j.pad != 0xFF || j.pad2 != 0xFFFF {
            o.warning_at(
                "J3D-043",
                at,
                format!("joint {i} pad bytes {:#04x}/{:#06x}", j.pad, j.pad2),
            );
        }
        if j.scale_compensate > 1 {
            o.error_at(
                "J3D-044",
                at + 2,
                format!("joint {i} scale inheritance byte {}", j.scale_compensate),
            );
        }
        if j.rotation.contains(&i16::MIN) {
            o.warning_at("J3D-045", at + 0x10, format!("joint {i} rotation −0x8000"));
        }
    }
    for i in 0..x.len() {
        match x.remap(i) {
            Ok(r) if usize::from(r) < data_len => {}
            Ok(r) => o.error_at(
                "J3D-047",
                base + off(x.header().remap) as u64 + 2 * i as u64,
                format!("remap {i} = {r} ≥ {data_len} joints"),
            ),
            Err(e) => {
                o.error_at("J3D-047", e.offset().unwrap_or(base), e.to_string());
                break;
            }
        }
    }
    names(x.names(), x.len(), base + 0x14, o);
}

/// J3D-046: each joint's stored sphere and box hold every vertex it affects, in the joint's own
/// space ([`crate::bounds`] says why that space). Two variants retail files show are named, not
/// warned about: bounds left all zero (the exporter did not compute them; most joints of the
/// retail Pikmin 2, Sunshine and Galaxy 2 models) and bounds that hold the joint's vertices in
/// model (bind) space instead (a Galaxy 2 root joint storing its shape's box). One warning per
/// joint that fits neither, naming its first offending vertex; a model whose geometry does not
/// decode is left to the rules that say why.
fn joint_bounds(v: &BmdView<'_>, x: &Jnt1View<'_>, o: &mut Findings) {
    /// What the vertices of one joint showed.
    #[derive(Default, Clone)]
    struct Seen {
        /// The first vertex outside the bounds in joint space (message).
        outside: Option<String>,
        /// Whether a vertex lies outside them in model space too.
        outside_model: bool,
    }
    let Ok(mesh) = crate::geometry(v) else { return };
    let world = crate::skeleton(v).map(|s| s.world).unwrap_or_default();
    let base = x.reader().base() + off(x.header().data) as u64;
    let stored: Vec<Option<(Bounds, u64)>> = (0..x.len())
        .map(|j| {
            let e = x.remap(j).ok()?;
            let d = x.data(usize::from(e)).ok()?;
            let b = Bounds {
                radius: d.radius,
                bbox: d.bbox,
            };
            Some((b, base + 0x40 * u64::from(e) + 0x24))
        })
        .collect();
    let unset = |b: &Bounds| b.radius == 0.0 && b.bbox.iter().all(|&c| c == 0.0);
    let names = x.names().and_then(Result::ok);
    let mut seen = vec![Seen::default(); stored.len()];
    let mut zero = std::collections::BTreeSet::new();
    // Envelopes may list up to 255 joints for every vertex: a hostile file must not turn its
    // size into that many times the work, so the pairs checked stay proportional to it.
    let mut budget = 16 * v.reader().len();
    let _ = joint_vertices(v, &mesh, |jv| {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            return false;
        }
        let j = usize::from(jv.joint);
        let (Some(Some((b, _))), Some(s)) = (stored.get(j), seen.get_mut(j)) else {
            return true;
        };
        if unset(b) {
            zero.insert(j);
            return true;
        }
        if s.outside_model || b.contains(jv.local) {
            return true;
        }
        let model = world.get(j).map(|m| gx::mtx::apply(m, jv.local));
        s.outside_model |= !model.is_some_and(|p| b.contains(p));
        if s.outside.is_none() {
            let [x0, y0, z0, x1, y1, z1] = b.bbox;
            let [px, py, pz] = jv.local;
            s.outside = Some(format!(
                "shape {} vertex {} at ({px}, {py}, {pz}) in joint space lies outside radius {} / box ({x0}, {y0}, {z0})–({x1}, {y1}, {z1})",
                jv.shape, jv.vertex, b.radius
            ));
        }
        true
    });
    let name = |j: usize| {
        names
            .as_ref()
            .and_then(|t| t.entries.get(j))
            .map(|e| format!(" ({})", gcio::text::Encoding::ShiftJis.to_text(&e.name)))
            .unwrap_or_default()
    };
    for (j, (s, b)) in seen.iter().zip(&stored).enumerate() {
        let (Some(msg), Some((_, at))) = (&s.outside, b) else {
            continue;
        };
        if s.outside_model {
            o.warning_at("J3D-046", *at, format!("joint {j}{}: {msg}", name(j)));
        } else {
            o.info_at(
                "J3D-046",
                *at,
                format!(
                    "joint {j}{}: bounds hold its vertices in model space, not joint space (variant)",
                    name(j)
                ),
            );
        }
    }
    if !zero.is_empty() {
        let list: Vec<String> = zero.iter().map(|&j| format!("{j}{}", name(j))).collect();
        o.info_at(
            "J3D-046",
            base,
            format!(
                "{} joint(s) with vertices store all-zero bounds (not computed by the exporter; variant): {}",
                zero.len(),
                list.join(", ")
            ),
        );
    }
    if budget == 0 {
        o.info_at(
            "J3D-046",
            x.reader().base(),
            "joint bounds checked for part of the vertices only (work limit)",
        );
    }
}

fn shp1(x: &Shp1View<'_>, o: &mut Findings, c: &Counts) {
    let base = x.reader().base();
    let h = x.header();
    let nd = x.matrix_data_count();
    let ng = x.group_def_count();
    if nd != ng {
        o.error_at(
            "J3D-051",
            base + 0x24,
            format!("{nd} matrix group data entries, {ng} definitions"),
        );
    }
    let weights = x.weight_count();
    let attr_table = [h.weights, h.prims, h.matrix_data, h.groups]
        .iter()
        .map(|v| off(*v))
        .filter(|&v| v > off(h.attrs))
        .min()
        .unwrap_or(0)
        .saturating_sub(off(h.attrs));
    names(x.names(), x.len(), base + 0x14, o);
    // Twice the chunk: room for weight segments shared between groups.
    let mut budget = 2 * x.reader().len();
    for i in 0..x.len() {
        let Ok(s) = x.shape(i) else {
            o.error_at("J3D-006", base + 0x0C, format!("shape {i} past the chunk"));
            break;
        };
        let at = base + off(h.shapes) as u64 + 0x28 * i as u64;
        let mt = ShapeMatrixType(s.matrix_type);
        if s.matrix_type > 3 {
            o.error_at(
                "J3D-049",
                at,
                format!("shape {i} matrix type {}", s.matrix_type),
            );
        }
        if s.pad != 0xFF || s.pad2.get() != 0xFFFF {
            o.warning_at("J3D-050", at, format!("shape {i} pad values"));
        }
        let (gc, fd, fg) = (
            usize::from(s.group_count.get()),
            usize::from(s.first_data.get()),
            usize::from(s.first_group.get()),
        );
        if fd + gc > nd || fg + gc > ng {
            o.error_at(
                "J3D-052",
                at + 2,
                format!("shape {i} groups [{fd}/{fg} + {gc}) leave the tables ({nd}/{ng})"),
            );
            continue;
        }
        let ao = usize::from(s.attr_offset.get());
        if ao >= attr_table.max(1) {
            o.error_at(
                "J3D-069",
                at + 4,
                format!("shape {i} attribute offset {ao:#x} outside the attribute table"),
            );
            continue;
        }
        // Attribute list.
        let list: Vec<IndexAttr> = x.attr_list(ao).map_while(Result::ok).collect();
        if list.last().map(|a| a.attr) != Some(Attr::NULL) {
            o.error_at(
                "J3D-053",
                at + 4,
                format!("shape {i} attribute list has no 0xFF end"),
            );
        } else if list.last().map(|a| a.ty) != Some(AttrType::NONE) {
            o.error_at(
                "J3D-058",
                at + 4,
                format!(
                    "shape {i} attribute list end has index type {}",
                    list.last().map_or(0, |a| a.ty.0)
                ),
            );
        }
        let body: Vec<IndexAttr> = list
            .iter()
            .copied()
            .take_while(|a| a.attr != Attr::NULL)
            .collect();
        for (k, a) in body.iter().enumerate() {
            if body.iter().take(k).any(|b| b.attr == a.attr) {
                o.error_at(
                    "J3D-054",
                    at + 4,
                    format!("shape {i} attribute {} indexed twice", a.attr.0),
                );
            }
            match a.ty {
                AttrType::NONE => o.error_at(
                    "J3D-058",
                    at + 4,
                    format!("shape {i} attribute {} with index type 0", a.attr.0),
                ),
                AttrType::DIRECT if !a.attr.is_matrix_index() => o.error_at(
                    "J3D-057",
                    at + 4,
                    format!("shape {i} attribute {} direct", a.attr.0),
                ),
                AttrType::INDEX8 | AttrType::INDEX16 if a.attr.is_matrix_index() => o.error_at(
                    "J3D-057",
                    at + 4,
                    format!("shape {i} matrix index attribute {} indexed", a.attr.0),
                ),
                AttrType::INDEX8 | AttrType::INDEX16 => {
                    if buffer_slot(a.attr)
                        .and_then(|s| c.buffers.get(s).copied().flatten())
                        .is_none()
                        && c.has_vtx1
                    {
                        o.error_at(
                            "J3D-057",
                            at + 4,
                            format!("shape {i} attribute {} has no VTX1 buffer", a.attr.0),
                        );
                    }
                }
                AttrType::DIRECT => {}
                t => o.error_at(
                    "J3D-057",
                    at + 4,
                    format!("shape {i} attribute {} index type {}", a.attr.0, t.0),
                ),
            }
            // Retail Pikmin 2 models use them; only Galaxy cannot draw them, and a file does not
            // say which game it is for.
            if (1..=8).contains(&a.attr.0) {
                o.info_at(
                    "J3D-059",
                    at + 4,
                    format!(
                        "shape {i} uses TEX{}MTXIDX (fine in other J3D games, breaks Super Mario Galaxy models)",
                        a.attr.0 - 1
                    ),
                );
            }
        }
        if !body.iter().any(|a| a.attr == Attr::POS) {
            o.error_at(
                "J3D-055",
                at + 4,
                format!("shape {i} has no POSITION indexer"),
            );
        }
        let has_pnmtx = body.iter().any(|a| a.attr == Attr::PNMTXIDX);
        let desc =
            crate::shp1::vertex_desc(body.iter().copied().filter(|a| a.ty != AttrType::NONE)).ok();
        // Matrix groups.
        let mut set = [false; 10];
        let mut multi_matrix_group = false;
        for k in 0..gc {
            let gat = base + off(h.matrix_data) as u64 + 8 * (fd + k) as u64;
            let Ok(d) = x.matrix_data(fd + k) else { break };
            // Each group costs its table entries and weight slots: shapes sharing groups cannot
            // multiply the work.
            match budget.checked_sub(16 + 2 * usize::from(d.count)) {
                Some(b) => budget = b,
                None => {
                    o.error_at("J3D-052", gat, format!("shape {i} group {k}: shapes reference more matrix groups than SHP1 holds"));
                    return;
                }
            }
            if d.count > 10 {
                o.error_at(
                    "J3D-063",
                    gat + 2,
                    format!("shape {i} group {k} loads {} matrices", d.count),
                );
            }
            multi_matrix_group |= d.count > 1;
            if mt == ShapeMatrixType::MULTI {
                if d.start as usize + usize::from(d.count) > weights {
                    o.error_at(
                        "J3D-066",
                        gat + 4,
                        format!(
                            "shape {i} group {k} weights [{}, +{}) past {weights}",
                            d.start, d.count
                        ),
                    );
                } else {
                    for n in 0..usize::from(d.count) {
                        let Ok(w) = x.weight(d.start as usize + n) else {
                            break;
                        };
                        let wat = base + off(h.weights) as u64 + 2 * (d.start as usize + n) as u64;
                        if w == 0xFFFF {
                            if !set.get(n).copied().unwrap_or(false) {
                                o.error_at("J3D-064", wat, format!("shape {i} group {k} slot {n} keeps a matrix no earlier group set"));
                            }
                        } else {
                            if let Some(s) = set.get_mut(n) {
                                *s = true;
                            }
                            if let Some(dn) = c.drw
                                && usize::from(w) >= dn
                            {
                                o.error_at(
                                    "J3D-065",
                                    wat,
                                    format!("weight index {w} ≥ DRW1 count {dn}"),
                                );
                            }
                        }
                    }
                }
            } else if let Some(dn) = c.drw
                && usize::from(d.drw) >= dn
            {
                o.error_at(
                    "J3D-067",
                    gat,
                    format!("shape {i} group {k} DRW1 index {} ≥ {dn}", d.drw),
                );
            }
            let Ok(g) = x.group(i, k) else {
                o.error_at(
                    "J3D-062",
                    base + off(h.groups) as u64 + 8 * (fg + k) as u64,
                    format!("shape {i} group {k} primitives outside the chunk"),
                );
                continue;
            };
            let dat = base + off(h.groups) as u64 + 8 * (fg + k) as u64;
            if !g.size.is_multiple_of(32) {
                o.error_at(
                    "J3D-061",
                    dat,
                    format!(
                        "shape {i} group {k} primitives ({} bytes) not padded to 32",
                        g.size
                    ),
                );
            }
            if !g.offset.is_multiple_of(32) {
                o.error_at(
                    "J3D-062",
                    dat + 4,
                    format!("shape {i} group {k} offset {:#x} not 32-aligned", g.offset),
                );
            }
            let Some(desc) = &desc else { continue };
            // Decoding stays proportional to the input however groups overlap.
            match budget.checked_sub(g.prims.len()) {
                Some(b) => budget = b,
                None => {
                    o.error_at("J3D-062", dat, format!("shape {i} group {k}: matrix groups overlap (more primitive bytes referenced than SHP1 holds)"));
                    return;
                }
            }
            let mut list = DisplayList::new(g.prims, desc);
            let mut decoded = true;
            for p in list.by_ref() {
                let p = match p {
                    Ok(p) => p,
                    Err(e) => {
                        o.error_at(
                            "J3D-062",
                            e.offset().unwrap_or(dat),
                            format!("shape {i} group {k}: {e}"),
                        );
                        decoded = false;
                        break;
                    }
                };
                let op = p.opcode().primitive();
                if op.name().is_none() || op == gx::dl::Opcode::QUAD_STRIP {
                    o.error_at(
                        "J3D-060",
                        p.offset(),
                        format!("primitive type {:#04x}", p.opcode().0),
                    );
                } else if ![
                    gx::dl::Opcode::TRIANGLES,
                    gx::dl::Opcode::TRIANGLE_STRIP,
                    gx::dl::Opcode::TRIANGLE_FAN,
                ]
                .contains(&op)
                {
                    o.warning_at(
                        "J3D-060",
                        p.offset(),
                        format!("primitive type {:#04x} is untested in game", p.opcode().0),
                    );
                }
                if !op.count_fits(p.len()) {
                    o.error_at(
                        "J3D-070",
                        p.offset() + 1,
                        format!(
                            "{} vertices for a {}",
                            p.len(),
                            op.name().unwrap_or("primitive")
                        ),
                    );
                }
                for vx in p.vertices() {
                    for e in body
                        .iter()
                        .filter(|a| matches!(a.ty, AttrType::INDEX8 | AttrType::INDEX16))
                    {
                        let (Some(idx), Some(n)) = (
                            vx.index(e.attr),
                            buffer_slot(e.attr).and_then(|s| c.capacity.get(s).copied().flatten()),
                        ) else {
                            continue;
                        };
                        if idx as usize >= n {
                            o.error_at(
                                "J3D-027",
                                p.offset(),
                                format!(
                                    "shape {i} group {k}: attribute {} index {idx} ≥ {n} entries",
                                    e.attr.0
                                ),
                            );
                        }
                    }
                    if let Some(m) = vx.index(Attr::PNMTXIDX)
                        && matrix_slot(m).is_none_or(|s| {
                            s >= u32::from(d.count.max(u16::from(mt != ShapeMatrixType::MULTI)))
                        })
                    {
                        o.error_at(
                            "J3D-068",
                            p.offset(),
                            format!("shape {i} group {k}: PNMTXIDX {m} for {} matrices", d.count),
                        );
                    }
                }
            }
            if decoded {
                group_extent(
                    g.prims,
                    list.position(),
                    dat,
                    &format!("shape {i} group {k}"),
                    o,
                );
            }
        }
        // Without PNMTXIDX every vertex uses matrix slot 0: a group with one matrix draws exactly
        // as a single-joint shape would (SuperBMD writes such shapes; mods ship them), a group
        // with more cannot reach the others.
        if mt == ShapeMatrixType::MULTI && !has_pnmtx {
            if multi_matrix_group {
                o.error_at(
                    "J3D-056",
                    at,
                    format!("multi-joint shape {i} has no POSITION_MATRIX indexer"),
                );
            } else {
                o.info_at(
                    "J3D-056",
                    at,
                    format!(
                        "multi-joint shape {i} without POSITION_MATRIX indexer, one matrix per group (SuperBMD variant; draws as a single-joint shape)"
                    ),
                );
            }
        }
    }
}

/// J3D-062: a group size that is a multiple of 32 (J3D-061 reports the others) covers exactly the
/// bytes its primitives use rounded up to 32, and that pad is zeros (GX NOPs, as Nintendo's tools
/// and the writer's [`Tail::Align32`](crate::Tail::Align32) emit). `used` is where the display
/// list ended; a primitive run ending on a 32-byte boundary has no pad.
fn group_extent(prims: gcio::Reader<'_>, used: usize, dat: u64, what: &str, o: &mut Findings) {
    let size = prims.len();
    if !size.is_multiple_of(32) {
        return;
    }
    let expect = used + crate::chunk::pad_len(used);
    if size != expect {
        o.error_at(
            "J3D-062",
            dat,
            format!("{what}: size {size:#x}, but its primitives use {used:#x} bytes ({expect:#x} with the pad)"),
        );
    } else if let Some(at) = prims
        .data()
        .get(used..)
        .and_then(|pad| pad.iter().position(|&b| b != 0))
    {
        o.error_at(
            "J3D-062",
            prims.abs(used + at),
            format!("{what}: the pad after the primitives is not zeros"),
        );
    }
}
