//! Validator: block rules (GPL-001/002/003/016/017/018) and the facial section rules of the
//! game's block validator (GPL-004 … GPL-014, GPL-016), each finding citing its rule id.

use gcio::{Diagnostic, Limits, Reader};

use crate::block::{BlockView, slot};
use crate::mesh::{ACT_VERSION, GPL_VERSION, Mesh, Skin};
use crate::model::{AttrFormat, AttrKind, Run, expand_runs};
use crate::view::{FacialView, HEADER_SIZE, RecordView};
use crate::write::SECTION_ALIGN;

/// Descriptor format bytes seen in vanilla: 3 × int16, 6 × int16, 6 × int8 (GPL-013).
pub const DESCRIPTOR_FORMATS: [u8; 3] = [0x32, 0x62, 0x61];

/// Record formats seen in vanilla for each kind (GPL-013): (kind, count, width).
const RECORD_FORMATS: [(u8, u8, u8); 4] = [(1, 3, 2), (2, 3, 2), (1, 6, 2), (0, 6, 1)];

/// Validates a model block; one whose header does not parse is one `GPL-001` error.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits.
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match crate::parse_with(data, limits) {
        Ok(v) => validate_view(&v),
        Err(e) => vec![Diagnostic::error("GPL-001", e.offset(), e.to_string())],
    }
}

/// Every finding for a parsed block: header, section versions, SKN mirror and alignment, and
/// the facial section checked against the mesh.
pub fn validate_view(v: &BlockView<'_>) -> Vec<Diagnostic> {
    v.findings()
}

impl BlockView<'_> {
    fn findings(&self) -> Vec<Diagnostic> {
        let mut d = Vec::new();
        if self.word(0) != 0 {
            d.push(Diagnostic::error(
                "GPL-001",
                Some(0),
                format!("header +0x00 is {:#x}, not 0", self.word(0)),
            ));
        }
        if self.word(slot::GPL) != 0x20 {
            d.push(Diagnostic::info(
                "GPL-001",
                Some(4),
                format!("GPL pointer {:#x} (0x20 in vanilla)", self.word(slot::GPL)),
            ));
        }
        for (i, name) in slot::NAMES.iter().enumerate().skip(1) {
            let p = self.word(i);
            if !p.is_multiple_of(32) {
                d.push(Diagnostic::warning(
                    "GPL-001",
                    Some(4 * i as u64),
                    format!("{name} section at {p:#x} is not 32-aligned"),
                ));
            }
        }
        let versions = [
            (slot::GPL, GPL_VERSION, "GPL"),
            (slot::ACT, ACT_VERSION, "ACT"),
        ];
        for (i, want, name) in versions {
            match self.section(i).map(|r| r.u32(0)) {
                Some(Ok(v)) if v == want => {}
                Some(Ok(v)) => d.push(Diagnostic::error(
                    "GPL-002",
                    Some(u64::from(self.word(i))),
                    format!("{name} version {v:#010x}, expected {want:#010x}"),
                )),
                _ => d.push(Diagnostic::error(
                    "GPL-002",
                    Some(4 * i as u64),
                    format!("{name} section missing or too short for its version word"),
                )),
            }
        }
        let leading = (slot::GPL..=slot::SKN)
            .map(|i| self.word(i))
            .max()
            .unwrap_or(0);
        for i in slot::PTR6..=slot::PTR8 {
            let p = self.word(i);
            if p != 0 && p <= leading {
                d.push(Diagnostic::error(
                    "GPL-003",
                    Some(4 * i as u64),
                    format!(
                        "{} pointer {p:#x} does not follow the GPL/ACT/TEX/SKN sections",
                        slot::NAMES.get(i).unwrap_or(&"?")
                    ),
                ));
            }
        }
        let mesh = match self.mesh() {
            Ok(m) => Some(m),
            Err(e) => {
                d.push(Diagnostic::error(
                    "GPL-001",
                    e.offset(),
                    format!("GPL/SKN sections do not parse: {e}"),
                ));
                None
            }
        };
        if let Some(skin) = mesh.as_ref().and_then(|m| m.skin.as_ref()) {
            validate_skin(skin, &mut d);
        }
        match self.facial() {
            Some(Ok(v)) => {
                d.extend(validate_facial(&v, mesh.as_ref()));
                if let Some(skn) = self.extent(slot::SKN) {
                    check_no_skn_pointers(&v, skn, &mut d);
                }
            }
            Some(Err(e)) => d.push(Diagnostic::error(
                "GPL-014",
                e.offset(),
                format!("facial section unreadable: {e}"),
            )),
            None => {}
        }
        d
    }
}

fn validate_skin(skin: &Skin, d: &mut Vec<Diagnostic>) {
    if skin.pos_nrm_shift >> 4 != 0 {
        d.push(Diagnostic::warning(
            "GPL-017",
            Some(skin.abs + 6),
            format!(
                "posNrmShift {:#04x}: high nibble must be 0",
                skin.pos_nrm_shift
            ),
        ));
    }
    let base = skin.mirror_base();
    for e in &skin.entries {
        if !e.dst.is_multiple_of(32) || !e.src.is_multiple_of(32) {
            d.push(Diagnostic::warning(
                "GPL-018",
                Some(e.abs),
                format!(
                    "SK{} source {:#x} / destination {:#x} not 32-aligned",
                    e.bones, e.src, e.dst
                ),
            ));
        }
        if let Some(b) = base
            && e.source_shift() != b
        {
            d.push(Diagnostic::error(
                "GPL-016",
                Some(e.abs),
                format!(
                    "SK{} source {:#x} is off the source mirror (expected {:#x})",
                    e.bones,
                    e.src,
                    b + i64::from(e.dst)
                ),
            ));
        }
    }
}

/// GPL-015: the facial section holds no pointers into SKN; the loader resolves targets at load
/// time into each descriptor's +0x8 slot. A file whose slot holds an address inside SKN (as a
/// block-relative or an SKN-relative value) was dumped from memory or written by a tool that
/// resolved targets itself.
fn check_no_skn_pointers(v: &FacialView<'_>, skn: (usize, usize), d: &mut Vec<Diagnostic>) {
    let Ok(descs) = v.descriptors() else { return };
    let (start, end) = skn;
    for (i, t) in descs.iter().enumerate() {
        let [a, b, c, e] = [t.reserved[4], t.reserved[5], t.reserved[6], t.reserved[7]];
        let p = u32::from_be_bytes([a, b, c, e]) as usize;
        if p != 0 && ((start..end).contains(&p) || p < end - start) {
            let off = v.header().descriptors.get() as usize + 16 * i + 8;
            d.push(Diagnostic::error(
                "GPL-015",
                Some(v.abs(off)),
                format!("type descriptor {i}: stored target {p:#x} points into SKN"),
            ));
        }
    }
}

/// Findings for a facial section; with a mesh, pose 0 and skinned targets are checked too.
pub fn validate_facial(v: &FacialView<'_>, mesh: Option<&Mesh<'_>>) -> Vec<Diagnostic> {
    let mut d = Vec::new();
    let h = v.header();
    let tc = usize::from(h.type_count.get());
    let at = |o: usize| Some(v.abs(o));
    if h.descriptors.get() as usize != HEADER_SIZE {
        d.push(Diagnostic::error(
            "GPL-004",
            at(0xC),
            format!(
                "descriptor pointer {:#x}, expected 0x14",
                h.descriptors.get()
            ),
        ));
    }
    let table = HEADER_SIZE + 16 * tc;
    if h.object_table.get() as usize != table {
        d.push(Diagnostic::error(
            "GPL-004",
            at(8),
            format!(
                "object table pointer {:#x}, expected {table:#x}",
                h.object_table.get()
            ),
        ));
    }
    if h.pad.get() != 0 || h.reserved.get() != 0 {
        d.push(Diagnostic::error(
            "GPL-004",
            at(6),
            "header +0x06 and +0x10 must be 0",
        ));
    }
    let descs = match v.descriptors() {
        Ok(x) => x,
        Err(e) => {
            d.push(Diagnostic::error(
                "GPL-014",
                e.offset(),
                format!("type descriptors past the section: {e}"),
            ));
            &[]
        }
    };
    for (i, t) in descs.iter().enumerate() {
        let off = h.descriptors.get() as usize + 16 * i;
        if t.reserved != [0; 12] {
            d.push(Diagnostic::warning(
                "GPL-005",
                at(off + 4),
                format!("type descriptor {i}: bytes 0x4-0xF not zero"),
            ));
        }
        if t.kind > 2 {
            d.push(Diagnostic::warning(
                "GPL-012",
                at(off + 2),
                format!(
                    "type descriptor {i}: kind {} (vanilla uses 0, 1, 2)",
                    t.kind
                ),
            ));
        }
        if !DESCRIPTOR_FORMATS.contains(&t.format) {
            d.push(Diagnostic::warning(
                "GPL-013",
                at(off + 3),
                format!("type descriptor {i}: format byte {:#04x}", t.format),
            ));
        }
    }
    let objects = match v.object_table() {
        Ok(x) => x,
        Err(e) => {
            d.push(Diagnostic::error(
                "GPL-014",
                e.offset(),
                format!("object table past the section: {e}"),
            ));
            return d;
        }
    };
    // Packing (GPL-014): walk in canonical order; after a mismatch continue from the actual
    // position so one misplaced part is reported once.
    let mut cursor = table + 12 * objects.len();
    let mut budget = v.len();
    for i in 0..objects.len() {
        let Ok(o) = v.object(i) else { break };
        let entry_off = h.object_table.get() as usize + 12 * i;
        let stride = o.record_stride();
        if o.entry().record_size.get() as usize != stride {
            d.push(Diagnostic::error(
                "GPL-007",
                at(entry_off + 4),
                format!(
                    "object {i}: record size {:#x}, expected {stride:#x} for {} poses",
                    o.entry().record_size.get(),
                    o.pose_count()
                ),
            ));
        }
        let n = usize::from(o.attr_count());
        let data = o.entry().data.get() as usize;
        if data != cursor {
            d.push(Diagnostic::warning(
                "GPL-014",
                at(entry_off + 8),
                format!("object {i}: records at {data:#x}, packing puts them at {cursor:#x}"),
            ));
        }
        let Some(left) = budget.checked_sub(n.saturating_mul(stride)) else {
            d.push(Diagnostic::error(
                "GPL-014",
                at(entry_off),
                format!("object {i}: {n} records exceed the section"),
            ));
            break;
        };
        budget = left;
        cursor = data.saturating_add(n * stride);
        let mut recs = Vec::with_capacity(n);
        for j in 0..n {
            match o.record(j) {
                Ok(r) => recs.push(r),
                Err(e) => d.push(Diagnostic::error(
                    "GPL-014",
                    e.offset(),
                    format!("object {i} attribute {j}: record past the section"),
                )),
            }
        }
        let mut runs_of = Vec::with_capacity(recs.len());
        for (j, r) in recs.iter().enumerate() {
            if r.run_ptr() != cursor {
                d.push(Diagnostic::warning("GPL-014", at(r.offset() + 8), format!("object {i} attribute {j}: run list at {:#x}, packing puts it at {cursor:#x}", r.run_ptr())));
            }
            let runs: Vec<Run> = match v.runs(r) {
                Ok(x) => x
                    .iter()
                    .map(|x| Run {
                        first: x.first.get(),
                        len: x.len.get(),
                    })
                    .collect(),
                Err(e) => {
                    d.push(Diagnostic::error("GPL-014", at(r.offset() + 8), format!("object {i} attribute {j}: run list pointer {:#x} outside the section ({e})", r.run_ptr())));
                    runs_of.push(None);
                    continue;
                }
            };
            cursor = r.run_ptr() + 4 * runs.len();
            runs_of.push(Some(runs));
        }
        for (j, r) in recs.iter().enumerate() {
            let len = r.pose_len().unwrap_or(usize::MAX);
            for (p, ptr) in r.pose_ptrs().iter().enumerate() {
                let ptr = ptr.get() as usize;
                let off = r.offset() + 12 + 4 * p;
                if ptr.checked_add(len).is_none_or(|e| e > v.len()) {
                    d.push(Diagnostic::error("GPL-014", at(off), format!("object {i} attribute {j}: pose {p} pointer {ptr:#x} (+{len:#x}) past the section end {:#x}", v.len())));
                    // Assume the array sits where packing puts it, so the rest is checked once.
                    cursor = cursor.saturating_add(len);
                    continue;
                }
                if ptr != cursor {
                    d.push(Diagnostic::warning("GPL-014", at(off), format!("object {i} attribute {j}: pose {p} at {ptr:#x}, packing puts it at {cursor:#x}")));
                }
                cursor = ptr + len;
            }
        }
        for (j, (r, runs)) in recs.iter().zip(&runs_of).enumerate() {
            check_record(v, mesh, descs, i, j, r, runs.as_deref(), &mut d);
        }
    }
    let padded = cursor.saturating_add(gcio::padding_for(cursor, SECTION_ALIGN));
    match v.reader().bytes(cursor, padded.saturating_sub(cursor)) {
        Ok(pad) if pad.iter().all(|&b| b == 0) => {}
        Ok(_) => d.push(Diagnostic::warning(
            "GPL-014",
            at(cursor),
            "section padding is not zero",
        )),
        Err(_) => d.push(Diagnostic::warning(
            "GPL-014",
            at(cursor),
            format!("section not padded to {SECTION_ALIGN} bytes"),
        )),
    }
    d
}

#[allow(clippy::too_many_arguments)]
fn check_record(
    v: &FacialView<'_>,
    mesh: Option<&Mesh<'_>>,
    descs: &[crate::raw::TypeDescriptor],
    i: usize,
    j: usize,
    r: &RecordView<'_>,
    runs: Option<&[Run]>,
    d: &mut Vec<Diagnostic>,
) {
    let f = r.format();
    let at = Some(r.abs());
    let name = format!(
        "object {i} attribute {j} ({:02x} {:02x} {:02x} {:02x})",
        f.target, f.kind.0, f.count, f.width
    );
    let matched = descs.iter().any(|t| {
        t.target.get() == u16::from(f.target)
            && t.kind == f.kind.0
            && t.format == f.descriptor_byte()
    });
    if !matched {
        d.push(Diagnostic::error(
            "GPL-006",
            Some(r.abs() + 4),
            format!("{name}: no type descriptor matches the format bytes"),
        ));
    }
    if !RECORD_FORMATS.contains(&(f.kind.0, f.count, f.width)) {
        d.push(Diagnostic::warning(
            "GPL-013",
            Some(r.abs() + 4),
            format!("{name}: unusual format bytes"),
        ));
    }
    let Some(runs) = runs else { return };
    let run_at = Some(v.abs(r.run_ptr()));
    match runs.last() {
        Some(&Run::TERMINATOR) => {}
        Some(t) if t.len == 0 => d.push(Diagnostic::warning(
            "GPL-008",
            run_at,
            format!("{name}: run list ends with ({}, 0), not (0, 0)", t.first),
        )),
        _ => d.push(Diagnostic::error(
            "GPL-008",
            run_at,
            format!(
                "{name}: run list has no (0, 0) terminator; the applier reads on into the pose data"
            ),
        )),
    }
    let body = runs.iter().take_while(|x| x.len != 0);
    let sum: u64 = body.clone().map(|x| u64::from(x.len)).sum();
    if sum != u64::from(r.entries()) {
        d.push(Diagnostic::error(
            "GPL-009",
            run_at,
            format!(
                "{name}: runs add up to {sum}, entries per pose is {}",
                r.entries()
            ),
        ));
    }
    let rigid = f.count == 3 && matches!(f.kind, AttrKind::POSITION | AttrKind::NORMAL);
    let cap = (r.entries() as usize).min(v.len());
    let indices = expand_runs(runs.iter().copied(), cap);
    if rigid && indices.windows(2).any(|w| matches!(w, [a, b] if a >= b)) {
        d.push(Diagnostic::warning(
            "GPL-010",
            run_at,
            format!("{name}: rigid run list is not ascending and unique"),
        ));
    }
    let Some(mesh) = mesh else { return };
    let Ok(pose0) = r.pose(0) else { return };
    check_pose_zero(mesh, f, &indices, pose0, &name, at, d);
    if f.kind == AttrKind::POSITION
        && f.count == 6
        && let Some(skin) = &mesh.skin
    {
        check_mirror(skin, &indices, &name, at, d);
    }
}

/// GPL-011: pose 0 equals the mapped mesh entries (kind 0: indices inside the SKAcc entry).
fn check_pose_zero(
    mesh: &Mesh<'_>,
    f: AttrFormat,
    indices: &[u16],
    pose0: &[u8],
    name: &str,
    at: Option<u64>,
    d: &mut Vec<Diagnostic>,
) {
    if f.kind == AttrKind::SKACC {
        let count = mesh
            .skin
            .as_ref()
            .and_then(|s| s.skacc_counts.get(usize::from(f.target)).copied());
        match count {
            None => d.push(Diagnostic::error(
                "GPL-011",
                at,
                format!("{name}: no SKAcc entry {}", f.target),
            )),
            Some(c) => {
                if let Some(bad) = indices.iter().find(|&&i| i >= c) {
                    d.push(Diagnostic::error(
                        "GPL-011",
                        at,
                        format!(
                            "{name}: index {bad} past SKAcc entry {} ({c} vertices)",
                            f.target
                        ),
                    ));
                }
            }
        }
        return;
    }
    let arr = match mesh.target_array(f.target, f.kind.0) {
        Ok(a) => a,
        Err(e) => {
            d.push(Diagnostic::error("GPL-011", at, format!("{name}: {e}")));
            return;
        }
    };
    if !arr.is_s16() || usize::from(arr.comp_count) != usize::from(f.count) || f.width != 2 {
        return; // Not comparable byte for byte (float or differently shaped array).
    }
    let stride = f.stride();
    let mut bad = 0usize;
    let mut first = None;
    for (k, &idx) in indices.iter().enumerate() {
        let want = arr.entry(usize::from(idx));
        let got = pose0.get(k * stride..(k + 1) * stride);
        if want.is_none() || want != got {
            bad += 1;
            first.get_or_insert(idx);
        }
    }
    if let Some(idx) = first {
        d.push(Diagnostic::error(
            "GPL-011",
            at,
            format!(
                "{name}: pose 0 differs from the mesh at {bad} of {} entries (first: index {idx})",
                indices.len()
            ),
        ));
    }
}

/// GPL-016: a skinned target vertex is written at `VAR_DATA_OFF + index × stride`; the entry
/// that skins it must read its source from that same mirrored address.
fn check_mirror(
    skin: &Skin,
    indices: &[u16],
    name: &str,
    at: Option<u64>,
    d: &mut Vec<Diagnostic>,
) {
    let Some(base) = skin.mirror_base() else {
        return;
    };
    let off = indices
        .iter()
        .filter(|&&i| {
            let i = u32::from(i);
            skin.entries
                .iter()
                .find(|e| {
                    (e.first_slot()..e.first_slot().saturating_add(u32::from(e.count))).contains(&i)
                })
                .is_some_and(|e| e.source_shift() != base)
        })
        .count();
    if off > 0 {
        d.push(Diagnostic::error(
            "GPL-016",
            at,
            format!("{name}: {off} mapped vertices are skinned from sources off the mirror"),
        ));
    }
}

/// Validates a standalone facial section (no mesh checks).
pub fn validate_section(data: &[u8]) -> Vec<Diagnostic> {
    match FacialView::from_reader(Reader::new(data)) {
        Ok(v) => validate_facial(&v, None),
        Err(e) => vec![Diagnostic::error(
            "GPL-014",
            e.offset(),
            format!("facial header unreadable: {e}"),
        )],
    }
}
