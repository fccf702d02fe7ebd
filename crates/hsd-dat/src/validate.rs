//! The validator: archive rules (HSD-001…007), the runtime limits and invariants the game's loader relies on
//! (HSD-008…031) and graph soundness (HSD-032: cycles, pointers out of the data block, overlapping
//! structs, runaway lists), each finding citing its rule id.

use std::collections::{HashMap, HashSet};

use gcio::{Diagnostic, Limits};
use gx::dl::{DisplayList, matrix_slot};
use gx::tex::SamplingFault;
use gx::vtx::Attr;

use crate::bound_box::BoundBox;
use crate::flags::{JointFlags, PObjKind, RenderMode, TObjFlags};
use crate::graph::{Graph, Kind, PObjRef};
use crate::roots::RootKind;
use crate::types::{AObj, AnimJoint, Image, MObj, Palette, TObj};
use crate::view::{Archive, parse_with};

/// Most matrix-palette slots per PObj (`HSD_Index2PosNrmMtx` asserts index ≤ 9).
pub const MAX_PALETTE: usize = 10;
/// PObj count at which loading starts to fail (236 load, 247–271 crash).
pub const POBJ_CRASH: usize = 240;
/// PObj count that draws a warning.
pub const POBJ_WARN: usize = 200;

/// TObj coordinate kinds whose texgen ignores `src` (flags & 0xF).
const COORD_REFLECTION: u32 = 1;
const COORD_HILIGHT: u32 = 2;
const COORD_SHADOW: u32 = 3;

/// Largest root-joint rotation (radians) still read as identity (HSD-021): exporters leave float
/// noise such as 1e-22 (a retail Chibi-Robo model), far below anything visible.
pub const ROTATION_EPSILON: f32 = 1e-6;

/// Validates a file; a file that does not parse is one `HSD-001` error.
pub fn validate(bytes: &[u8]) -> Vec<Diagnostic> {
    validate_with(bytes, &Limits::default())
}

/// [`validate`] with caller limits (also bounding the graph walk).
pub fn validate_with(bytes: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    match parse_with(bytes, limits) {
        Ok(a) => validate_view(&a),
        Err(e) => vec![Diagnostic::error(
            "HSD-001",
            e.offset(),
            format!("does not parse: {e}"),
        )],
    }
}

/// Every finding of a parsed archive, archive rules first.
pub fn validate_view(a: &Archive<'_>) -> Vec<Diagnostic> {
    a.findings()
}

impl Archive<'_> {
    fn findings(&self) -> Vec<Diagnostic> {
        let mut d = Vec::new();
        self.archive_rules(&mut d);
        let g = self.graph();
        for e in &g.errors {
            d.push(Diagnostic::error("HSD-032", e.offset(), e.to_string()));
        }
        self.joint_rules(&g, &mut d);
        self.mesh_rules(&g, &mut d);
        self.material_rules(&g, &mut d);
        self.bound_box_rules(&mut d);
        d
    }

    fn abs(&self, off: u32) -> Option<u64> {
        Some(self.data().abs(off as usize))
    }

    fn archive_rules(&self, d: &mut Vec<Diagnostic>) {
        let len = self.file().len() as u64;
        let file_size = u64::from(self.header().file_size.get());
        if file_size != len {
            d.push(Diagnostic::error("HSD-001", Some(0), format!("file_size {file_size:#x} but the file is {len:#x} bytes (a raw .dat must end at the last symbol)")));
        }
        let sym_end = self.symbol_table().len() as u64;
        for (what, s) in self
            .roots()
            .map(|s| ("root", s))
            .chain(self.externs().map(|s| ("extern", s)))
        {
            if u64::from(s.symbol_offset) >= sym_end || self.symbol_name(s.symbol_offset).is_err() {
                d.push(Diagnostic::error(
                    "HSD-002",
                    Some(self.symbol_table().base()),
                    format!(
                        "{what} {} symbol offset {:#x} is outside the symbol table",
                        s.index, s.symbol_offset
                    ),
                ));
            } else if !s.name.is_ascii() {
                d.push(Diagnostic::warning(
                    "HSD-005",
                    Some(self.symbol_table().abs(s.symbol_offset as usize)),
                    format!("{what} {} name is not ASCII", s.index),
                ));
            }
        }
        let size = self.data_size();
        let table = 0x20 + u64::from(size);
        for (i, slot) in self.relocations().enumerate() {
            let at = Some(table + 4 * i as u64);
            if !slot.is_multiple_of(4) || u64::from(slot) + 4 > u64::from(size) {
                d.push(Diagnostic::error("HSD-003", at, format!("relocation {i}: slot {slot:#x} is not a 4-aligned word inside the data block (size {size:#x})")));
            } else if let Ok(t) = self.data().u32(slot as usize)
                && t >= size
            {
                d.push(Diagnostic::warning(
                    "HSD-003",
                    self.abs(slot),
                    format!("relocated slot {slot:#x} points to {t:#x}, past the data block"),
                ));
            }
        }
        let mut names = HashSet::new();
        for r in self.roots() {
            if !names.insert(r.name) {
                d.push(Diagnostic::error(
                    "HSD-005",
                    None,
                    format!(
                        "root name {:?} is not unique",
                        gcio::text::Encoding::ShiftJis.to_text(r.name)
                    ),
                ));
            }
        }
        for e in self.externs() {
            if let Err(err) = self.extern_chain(e.offset) {
                d.push(Diagnostic::error("HSD-006", err.offset(), err.to_string()));
            }
        }
        let scene = self.root("scene_data").is_some();
        if scene && (self.root("bound_box").is_none() || self.externs().len() > 0) {
            d.push(Diagnostic::info(
                "HSD-007",
                None,
                "scene_data without bound_box, or with externs: not a Colosseum/XD model layout",
            ));
        }
        if !size.is_multiple_of(4) {
            d.push(Diagnostic::warning(
                "HSD-030",
                Some(4),
                format!("data_size {size:#x} is not a multiple of 4"),
            ));
        }
    }

    fn joint_rules(&self, g: &Graph, d: &mut Vec<Diagnostic>) {
        // Which joints own a mesh, and which are weighted by an envelope.
        let mut owners = HashSet::new();
        for p in &g.pobjs {
            owners.insert(p.joint);
        }
        let index: HashMap<u32, usize> = g
            .joints
            .iter()
            .enumerate()
            .map(|(i, j)| (j.offset, i))
            .collect();
        let mut weighted = HashSet::new();
        for p in &g.pobjs {
            if p.pobj.flags.kind() == PObjKind::Envelope
                && let Some(l) = p.pobj.link
                && let Ok(pal) = self.envelope_palette(l)
            {
                for (j, _) in pal.iter().flatten() {
                    if let Some(&i) = index.get(j) {
                        weighted.insert(i);
                    }
                }
            }
        }
        for (i, jr) in g.joints.iter().enumerate() {
            let f = jr.joint.flags;
            let at = self.abs(jr.offset);
            let ibm = jr.joint.inverse_bind.is_some();
            if f.contains(JointFlags::SKELETON) != ibm {
                d.push(Diagnostic::warning(
                    "HSD-017",
                    at,
                    format!(
                        "joint {i}: SKELETON is {} but the IBM is {}",
                        f.contains(JointFlags::SKELETON),
                        if ibm { "present" } else { "NULL" }
                    ),
                ));
            }
            if jr.parent.is_none() {
                let tree_has_skeleton = g
                    .joints
                    .iter()
                    .any(|j| j.root == i && j.joint.flags.contains(JointFlags::SKELETON));
                if tree_has_skeleton && !f.contains(JointFlags::SKELETON_ROOT) {
                    d.push(Diagnostic::warning(
                        "HSD-017",
                        at,
                        "root joint lacks SKELETON_ROOT although the tree has SKELETON joints",
                    ));
                }
                if jr.joint.rotation.iter().any(|r| r.abs() > ROTATION_EPSILON) {
                    // Seed 003: Colosseum/XD's model loader turns the whole model by it. Melee
                    // draws a turned root as laid out (its main menu, MnMaAll.usd, has one at
                    // 20°), so elsewhere it is a warning.
                    let msg = format!(
                        "root joint rotation {:?} is not identity (the game turns the whole model)",
                        jr.joint.rotation
                    );
                    d.push(if self.is_xd_layout() {
                        Diagnostic::error("HSD-021", at, msg)
                    } else {
                        Diagnostic::warning("HSD-021", at, msg)
                    });
                }
            }
            // ROOT_x: set iff a strict descendant has x, or the joint is top-level and has x.
            for (pass, root) in [
                (JointFlags::OPA, JointFlags::ROOT_OPA),
                (JointFlags::XLU, JointFlags::ROOT_XLU),
                (JointFlags::TEXEDGE, JointFlags::ROOT_TEXEDGE),
            ] {
                let desc = self.descendants(g, i).any(|k| {
                    g.joints
                        .get(k)
                        .is_some_and(|j| j.joint.flags.contains(pass))
                });
                let expect = desc || (jr.parent.is_none() && f.contains(pass));
                if f.contains(root) != expect {
                    d.push(Diagnostic::warning(
                        "HSD-017",
                        at,
                        format!(
                            "joint {i}: {root:?} is {} but descendants {} {pass:?}",
                            f.contains(root),
                            if desc { "have" } else { "lack" }
                        ),
                    ));
                }
            }
            if f.contains(JointFlags::USE_QUATERNION) {
                d.push(Diagnostic::warning(
                    "HSD-023",
                    at,
                    format!("joint {i} sets USE_QUATERNION; the runtime has no quaternion track"),
                ));
            }
            if owners.contains(&i) {
                if !f.intersects(JointFlags::PASSES) {
                    d.push(Diagnostic::warning("HSD-018", at, format!("joint {i} owns meshes but has no OPA/XLU/TEXEDGE bit: they render in neither pass")));
                }
                if f.contains(JointFlags::ENVELOPE_MODEL)
                    && (f.contains(JointFlags::SKELETON) || ibm)
                {
                    d.push(Diagnostic::warning("HSD-020", at, format!("joint {i} is both a mesh owner (ENVELOPE_MODEL) and a deformer (SKELETON/IBM)")));
                } else if weighted.contains(&i) {
                    d.push(Diagnostic::warning(
                        "HSD-020",
                        at,
                        format!("joint {i} owns a mesh and is weighted by an envelope"),
                    ));
                }
            }
            if weighted.contains(&i) && !ibm {
                d.push(Diagnostic::error(
                    "HSD-010",
                    at,
                    format!(
                        "joint {i} is referenced by an envelope but has no inverse bind matrix"
                    ),
                ));
            }
        }
    }

    fn descendants<'g>(&self, g: &'g Graph, i: usize) -> impl Iterator<Item = usize> + 'g {
        // Pre-order: descendants of i are the joints after it until depth returns.
        let mut parents: HashSet<usize> = HashSet::from([i]);
        g.joints
            .iter()
            .enumerate()
            .skip(i + 1)
            .take_while(move |(k, j)| {
                let inside = j.parent.is_some_and(|p| parents.contains(&p));
                if inside {
                    parents.insert(*k);
                }
                inside
            })
            .map(|(k, _)| k)
    }

    fn mesh_rules(&self, g: &Graph, d: &mut Vec<Diagnostic>) {
        let mut per_tree: HashMap<usize, usize> = HashMap::new();
        for p in &g.pobjs {
            if let Some(j) = g.joints.get(p.joint) {
                *per_tree.entry(j.root).or_default() += 1;
            }
            self.pobj_rules(p, d);
        }
        for (root, n) in per_tree {
            let at = g.joints.get(root).and_then(|j| self.abs(j.offset));
            if n >= POBJ_CRASH {
                d.push(Diagnostic::error(
                    "HSD-011",
                    at,
                    format!("{n} PObjs in one model: the game crashes on load at about 240"),
                ));
            } else if n >= POBJ_WARN {
                d.push(Diagnostic::warning(
                    "HSD-011",
                    at,
                    format!("{n} PObjs in one model: keep well under 240"),
                ));
            }
        }
    }

    fn pobj_rules(&self, p: &PObjRef, d: &mut Vec<Diagnostic>) {
        let at = self.abs(p.offset);
        let kind = p.pobj.flags.kind();
        if kind == PObjKind::Invalid {
            d.push(Diagnostic::error(
                "HSD-013",
                at,
                "PObj type 3 << 12: the runtime panics",
            ));
        }
        let mut palette_len = None;
        if kind == PObjKind::Envelope
            && let Some(l) = p.pobj.link
            && let Ok(pal) = self.envelope_palette(l)
        {
            if pal.len() > MAX_PALETTE {
                d.push(Diagnostic::error(
                    "HSD-008",
                    at,
                    format!(
                        "{} matrix-palette slots; the runtime allows {MAX_PALETTE}",
                        pal.len()
                    ),
                ));
            }
            for (s, e) in pal.iter().enumerate() {
                if e.iter().filter(|(_, w)| *w != 0.0).count() > 4 {
                    d.push(Diagnostic::error(
                        "HSD-022",
                        at,
                        format!("palette slot {s} has more than 4 non-zero weights"),
                    ));
                }
            }
            palette_len = Some(pal.len());
        }
        let (Some(v), Some(dl)) = (p.pobj.vtx_desc, p.pobj.display_list) else {
            return;
        };
        let Ok((desc, attrs)) = self.vertex_desc(v) else {
            return;
        };
        if let Ok(term) =
            self.read::<crate::types::VtxDesc>(v.wrapping_add(0x18 * attrs.len() as u32))
            && (term.attr_type != 2 || term.comp_type != 4)
        {
            d.push(Diagnostic::info(
                "HSD-015",
                self.abs(v.wrapping_add(0x18 * attrs.len() as u32)),
                "vertex list terminator is not the compiler's (0xFF, 2, 4)",
            ));
        }
        let len = usize::from(p.pobj.n_display) * 32;
        let Ok(r) = self.data().sub(dl as usize, len) else {
            d.push(Diagnostic::error(
                "HSD-012",
                at,
                format!("display list of {len:#x} bytes at {dl:#x} runs past the data block"),
            ));
            return;
        };
        let mut list = DisplayList::new(r, &desc);
        let mut reported = false;
        for prim in list.by_ref() {
            let Ok(prim) = prim else {
                d.push(Diagnostic::error(
                    "HSD-014",
                    self.abs(dl),
                    "display list has an invalid opcode or runs past n_display × 32",
                ));
                return;
            };
            for vtx in prim.vertices() {
                let Some(v) = vtx.index(Attr::PNMTXIDX) else {
                    break;
                };
                if reported {
                    break;
                }
                let slot = matrix_slot(v);
                let bad = match (slot, palette_len) {
                    (None, _) => Some(format!("PNMTXIDX {v} is not slot × 3")),
                    (Some(s), Some(n)) if s as usize >= n => Some(format!(
                        "PNMTXIDX {v} addresses slot {s} of a {n}-slot palette"
                    )),
                    (Some(s), _) if s as usize >= MAX_PALETTE => {
                        Some(format!("PNMTXIDX {v} addresses slot {s} > 9"))
                    }
                    _ => None,
                };
                if let Some(msg) = bad {
                    d.push(Diagnostic::error("HSD-009", Some(prim.offset()), msg));
                    reported = true;
                }
            }
        }
        let used = list.position();
        if used.div_ceil(32) != len / 32 {
            d.push(Diagnostic::warning(
                "HSD-014",
                self.abs(dl),
                format!(
                    "n_display {} but the primitives need {} blocks",
                    p.pobj.n_display,
                    used.div_ceil(32)
                ),
            ));
        }
        if r.data()
            .get(used..)
            .is_some_and(|tail| tail.iter().any(|&b| b != 0))
        {
            d.push(Diagnostic::warning(
                "HSD-014",
                self.abs(dl.wrapping_add(used as u32)),
                "display list padding is not zero",
            ));
        }
    }

    /// Whether the file has the Colosseum/XD model layout (roots `scene_data` and `bound_box`, no
    /// externs: HSD-007).
    pub fn is_xd_layout(&self) -> bool {
        self.root("scene_data").is_some()
            && self.root("bound_box").is_some()
            && self.externs().len() == 0
    }

    fn material_rules(&self, g: &Graph, d: &mut Vec<Diagnostic>) {
        let xd = self.is_xd_layout();
        // TObj sources must name a TEX attribute of the meshes drawn with the material.
        let mut texs_by_mobj: HashMap<u32, HashSet<u32>> = HashMap::new();
        for p in &g.pobjs {
            if let (Some(m), Some(v)) = (p.mobj, p.pobj.vtx_desc)
                && let Ok((_, attrs)) = self.vertex_desc(v)
            {
                let e = texs_by_mobj.entry(m).or_default();
                e.extend(
                    attrs
                        .iter()
                        .filter_map(|(_, f)| f.attr.tex_index())
                        .map(u32::from),
                );
            }
        }
        for n in &g.nodes {
            let at = self.abs(n.offset);
            match n.kind {
                Kind::MObj => {
                    let Ok(m) = self.read::<MObj>(n.offset) else {
                        continue;
                    };
                    if m.render_mode.contains(RenderMode::XLU) {
                        // Only Colosseum/XD's renderer drops the translucent pass; Melee and
                        // Chibi-Robo draw it (retail XLU materials), so elsewhere it is a note.
                        let msg = "translucent (XLU) material: renders invisible in Colosseum/XD";
                        d.push(if xd {
                            Diagnostic::warning("HSD-019", at, msg)
                        } else {
                            Diagnostic::info("HSD-019", at, msg)
                        });
                    }
                    let mut t = m.tobj;
                    let mut guard = 0;
                    while let Some(to) = t
                        && guard < 8
                    {
                        guard += 1;
                        let Ok(tobj) = self.read::<TObj>(to) else {
                            break;
                        };
                        // The runtime reads `src` only for UV-style coordinates; reflection
                        // and highlight maps generate from NRM, shadow maps from POS
                        // (HSD_TObj setupTextureCoordGen), whatever `src` holds.
                        let coord = tobj.flags.bits() & TObjFlags::COORD.bits();
                        let uv = tobj.src.wrapping_sub(4);
                        if let Some(texs) = texs_by_mobj.get(&n.offset)
                            && !matches!(coord, COORD_REFLECTION | COORD_HILIGHT | COORD_SHADOW)
                            && tobj.src >= 4
                            && uv < 8
                            && !texs.contains(&uv)
                        {
                            d.push(Diagnostic::error("HSD-025", self.abs(to), format!("texture source {} reads TEX{uv}, which the mesh's vertex format lacks", tobj.src)));
                        }
                        self.sampled_size_rules(to, &tobj, d);
                        t = tobj.next;
                    }
                }
                Kind::FObj => {
                    if let Err(e) = self.keys(n.offset) {
                        d.push(Diagnostic::error(
                            "HSD-024",
                            e.offset(),
                            format!("FObj at {:#x}: {e}", n.offset),
                        ));
                    }
                }
                Kind::Image => {
                    if let Ok(i) = self.read::<Image>(n.offset)
                        && let Some(p) = i.data
                    {
                        self.payload_rules(p, "image", d);
                    }
                }
                Kind::Palette => {
                    if let Ok(i) = self.read::<Palette>(n.offset)
                        && let Some(p) = i.data
                    {
                        self.payload_rules(p, "palette", d);
                    }
                }
                _ => {}
            }
        }
    }

    /// HSD-033: GX samples at most 1024 texels a side (`TX_SETIMAGE0` holds the size − 1 in 10
    /// bits) and repeats or mirrors only power-of-two sides.
    fn sampled_size_rules(&self, at: u32, tobj: &TObj, d: &mut Vec<Diagnostic>) {
        let Some(Ok(img)) = tobj.image.map(|i| self.read::<Image>(i)) else {
            return;
        };
        let (w, h) = (u32::from(img.width), u32::from(img.height));
        for fault in gx::tex::sampling_faults(w, h, [tobj.wrap_s, tobj.wrap_t]) {
            d.push(match fault {
                SamplingFault::TooLarge => Diagnostic::error(
                    "HSD-033",
                    self.abs(at),
                    format!("texture image {w}×{h}: GX samples at most 1024 texels a side"),
                ),
                SamplingFault::Wraps { axis, side, wrap } => Diagnostic::warning(
                    "HSD-033",
                    self.abs(at),
                    format!(
                        "texture wraps along {axis} (mode {wrap}) over {side} texels: GX repeats \
                         and mirrors only power-of-two sides"
                    ),
                ),
            });
        }
    }

    fn payload_rules(&self, p: u32, what: &str, d: &mut Vec<Diagnostic>) {
        if p == 0 {
            d.push(Diagnostic::warning(
                "HSD-004",
                self.abs(p),
                format!("{what} data at data offset 0 (the NULL alias)"),
            ));
        }
        if !p.is_multiple_of(32) {
            d.push(Diagnostic::warning(
                "HSD-030",
                self.abs(p),
                format!("{what} data at {p:#x} is not 32-aligned"),
            ));
        }
    }

    fn bound_box_rules(&self, d: &mut Vec<Diagnostic>) {
        let Some(r) = self.roots().find(|r| r.kind() == RootKind::BoundBox) else {
            return;
        };
        let Ok(bb) = BoundBox::read(self, r.offset) else {
            return;
        };
        // Frame totals of the first model's animations: max end_frame + 1 per AnimJoint tree.
        let Some(scene) = self.root("scene_data") else {
            return;
        };
        let Ok(s) = self.read::<crate::types::SceneData>(scene.offset) else {
            return;
        };
        let Some(models) = s.models else { return };
        let Ok(Some(m)) = self.pointer(models) else {
            return;
        };
        let Ok(ms) = self.read::<crate::types::ModelSet>(m) else {
            return;
        };
        let Some(anims) = ms.anims else { return };
        let mut expect = Vec::new();
        let mut at = anims;
        while let Ok(Some(a)) = self.pointer(at) {
            expect.push(self.anim_frames(a));
            at += 4;
            if expect.len() > 4096 {
                break;
            }
        }
        let got: Vec<u32> = bb.sets.iter().map(|s| s.len() as u32).collect();
        if got != expect {
            d.push(Diagnostic::error("HSD-026", self.abs(r.offset), format!("bound_box frame counts {got:?} do not match the animations' end_frame + 1 {expect:?}")));
        }
    }

    /// end_frame + 1 of an AnimJoint tree (the largest over its AObjs).
    fn anim_frames(&self, root: u32) -> u32 {
        let mut stack = vec![root];
        let mut seen = HashSet::new();
        let mut end = 0f32;
        while let Some(o) = stack.pop() {
            if !seen.insert(o) || seen.len() > 65536 {
                continue;
            }
            let Ok(a) = self.read::<AnimJoint>(o) else {
                continue;
            };
            if let Some(x) = a.aobj
                && let Ok(ao) = self.read::<AObj>(x)
            {
                end = end.max(ao.end_frame);
            }
            stack.extend(a.child);
            stack.extend(a.next);
        }
        (end as u32).saturating_add(1)
    }
}
