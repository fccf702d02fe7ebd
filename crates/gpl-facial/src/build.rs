//! Builders for realistic synthetic model blocks with retail-like shapes: a Birdo-like rigid head
//! (two objects mapping 199 and 451 positions and 247 and 520 normals, five poses) and a
//! Luigi-like skinned body (interleaved records, kind-0 SKAcc attributes, pose counts 2–6), with
//! mirrored SKN sources. Used by tests, benches and `samples/`.

use gcio::{Result, Writer};

use crate::mesh::{ACT_VERSION, GPL_VERSION, SKIN_STRIDE};
use crate::model::{AttrFormat, Attribute, Descriptor, FacialObject, FacialSection, Run, encode};

/// A small deterministic generator (xorshift), so samples are reproducible.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// Next raw value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A value in `-span..=span`.
    pub fn small(&mut self, span: i16) -> i16 {
        let m = 2 * u64::from(span.unsigned_abs()) + 1;
        ((self.next_u64() % m) as i64 - i64::from(span.unsigned_abs())) as i16
    }
}

/// One GPL display object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmeshSpec {
    /// Name string.
    pub name: String,
    /// Quantisation byte of both arrays (format 3 = int16).
    pub quantize: u8,
    /// Components per position (3, or 6 = interleaved position + normal on the skinned body).
    pub comp_count: u8,
    /// Position array, `comp_count` components per entry.
    pub positions: Vec<i16>,
    /// Normal array (rigid submeshes).
    pub normals: Option<Vec<[i16; 3]>>,
}

impl SubmeshSpec {
    /// Entry `i` of the position array.
    pub fn position(&self, i: usize) -> &[i16] {
        let n = usize::from(self.comp_count);
        self.positions.get(i * n..(i + 1) * n).unwrap_or_default()
    }
    /// Positions as triplets (rigid submeshes).
    pub fn triplets(&self) -> Vec<[i16; 3]> {
        self.positions
            .chunks_exact(3)
            .map(|c| {
                [
                    c.first().copied().unwrap_or(0),
                    c.get(1).copied().unwrap_or(0),
                    c.get(2).copied().unwrap_or(0),
                ]
            })
            .collect()
    }
    /// Positions as interleaved sextuplets (the skinned body).
    pub fn sextuplets(&self) -> Vec<[i16; 6]> {
        self.positions
            .chunks_exact(6)
            .map(|c| {
                let mut e = [0i16; 6];
                for (d, s) in e.iter_mut().zip(c) {
                    *d = *s;
                }
                e
            })
            .collect()
    }
}

/// One SK1 (one bone) or SK2 (two bones) entry over consecutive slots of submesh 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkinRange {
    /// Bones (one for SK1, two for SK2).
    pub bones: [u16; 2],
    /// First slot (a multiple of 8 so the destination is 32-aligned).
    pub first: u16,
    /// Number of slots.
    pub count: u16,
    /// Bytes added to the source pointer (0 = on the mirror; a test knob for GPL-016).
    pub skew: u32,
}

/// The SKN section of a skinned block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SkinSpec {
    /// SK1 entries (the first one starts at slot 0: the mirror base).
    pub sk1: Vec<SkinRange>,
    /// SK2 entries.
    pub sk2: Vec<SkinRange>,
    /// SKAcc entries: bone and destination slots.
    pub skacc: Vec<(u16, Vec<u16>)>,
}

/// A whole model block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockSpec {
    /// GPL display objects; submesh 0 is the skinned body when `skin` is set.
    pub submeshes: Vec<SubmeshSpec>,
    /// SKN section.
    pub skin: Option<SkinSpec>,
    /// Facial pose section (ptr7).
    pub facial: Option<FacialSection>,
    /// An opaque trailing section at ptr8, after the facial section.
    pub ptr8: Option<Vec<u8>>,
}

impl BlockSpec {
    /// Writes the block: header, GPL, ACT, TEX, SKN, facial, ptr8; every section 32-aligned.
    pub fn build(&self) -> Result<Vec<u8>> {
        let mut words = [0u32; 8];
        let mut w = Writer::new();
        w.fill(0, 0x20);
        words[1] = w.position() as u32;
        w.bytes(&self.gpl()?);
        words[2] = w.position() as u32;
        w.u32(ACT_VERSION).u16(0).u16(0).u32(0).u32(0).u32(0);
        w.u16(if self.skin.is_some() { 0 } else { 0xFFFF })
            .u16(0)
            .u32(0)
            .u32(0)
            .align(32, 0);
        words[3] = w.position() as u32;
        w.u16(0).u16(0).align(32, 0);
        if let Some(s) = &self.skin {
            words[4] = w.position() as u32;
            w.bytes(&self.skn(s)?);
        }
        if let Some(f) = &self.facial {
            words[6] = w.position() as u32;
            w.bytes(&f.write()?);
        }
        if let Some(t) = &self.ptr8 {
            words[7] = w.position() as u32;
            w.bytes(t).align(32, 0);
        }
        for (i, v) in words.iter().enumerate() {
            w.patch_u32(4 * i, *v)?;
        }
        Ok(w.into_vec())
    }

    fn gpl(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        let n = self.submeshes.len();
        w.u32(GPL_VERSION).u32(0).u32(0).u32(n as u32).u32(0x14);
        let slots: Vec<_> = (0..n).map(|_| (w.reserve_u32(), w.reserve_u32())).collect();
        for (s, (_, name)) in self.submeshes.iter().zip(&slots) {
            w.fix_here(*name)?;
            w.cstr(s.name.as_bytes());
        }
        for (s, (layout, _)) in self.submeshes.iter().zip(&slots) {
            w.align(32, 0);
            let at = w.position();
            w.fix_here(*layout)?;
            let has_n = s.normals.is_some();
            w.u32(0x18)
                .u32(0)
                .u32(0)
                .u32(if has_n { 0x20 } else { 0 })
                .u32(0)
                .u32(0);
            let pos = w.reserve_u32();
            let count = s.positions.len() / usize::from(s.comp_count.max(1));
            w.u16(count as u16).u8(s.quantize).u8(s.comp_count);
            let nrm = has_n.then(|| w.reserve_u32());
            if let (Some(_), Some(ns)) = (nrm, &s.normals) {
                w.u16(ns.len() as u16).u8(s.quantize).u8(3).f32(0.5);
            }
            w.align(32, 0);
            w.fix(pos, (w.position() - at) as u64)?;
            for v in &s.positions {
                w.i16(*v);
            }
            if let (Some(slot), Some(ns)) = (nrm, &s.normals) {
                w.align(32, 0);
                w.fix(slot, (w.position() - at) as u64)?;
                for v in ns.iter().flatten() {
                    w.i16(*v);
                }
            }
        }
        w.align(32, 0);
        Ok(w.into_vec())
    }

    fn skn(&self, s: &SkinSpec) -> Result<Vec<u8>> {
        let body = self
            .submeshes
            .first()
            .map(|b| b.positions.as_slice())
            .unwrap_or_default();
        let mut w = Writer::new();
        w.u16(s.sk1.len() as u16)
            .u16(s.sk2.len() as u16)
            .u16(s.skacc.len() as u16)
            .u8(0)
            .u8(0);
        let (p1, p2, pa) = (w.reserve_u32(), w.reserve_u32(), w.reserve_u32());
        w.u32(0).u32(0).u32(0).u32(0).align(32, 0);
        // Sources mirror the body array at base + slot × stride; the base follows the three tables
        // (96 bytes cover their alignment padding).
        let tables = 0x40 * s.sk1.len() + 0x74 * s.sk2.len() + 0x44 * s.skacc.len() + 96;
        let mut mirror = w.position() + tables;
        mirror += gcio::padding_for(mirror, 32);
        w.fix_here(p1)?;
        for r in &s.sk1 {
            let dst = u32::from(r.first) * SKIN_STRIDE;
            w.fill(0, 0x30)
                .u32(mirror as u32 + dst + r.skew)
                .u32(dst)
                .u16(r.bones[0])
                .u16(r.count)
                .u8(0)
                .fill(0, 3);
        }
        w.align(32, 0);
        w.fix_here(p2)?;
        let mut wslots = Vec::new();
        for r in &s.sk2 {
            let dst = u32::from(r.first) * SKIN_STRIDE;
            w.fill(0, 0x60).u32(mirror as u32 + dst + r.skew);
            wslots.push(w.reserve_u32());
            w.u32(dst)
                .u16(r.bones[0])
                .u16(r.bones[1])
                .u16(r.count)
                .u8(0)
                .u8(0);
        }
        w.align(32, 0);
        w.fix_here(pa)?;
        let mut acc_slots = Vec::new();
        for (bone, dests) in &s.skacc {
            w.fill(0, 0x30);
            let (src, idx) = (w.reserve_u32(), w.reserve_u32());
            w.u32(0);
            let wt = w.reserve_u32();
            w.u16(*bone).u16(dests.len() as u16);
            acc_slots.push((src, idx, wt));
        }
        w.align(32, 0);
        while w.position() < mirror {
            w.u8(0);
        }
        for v in body {
            w.i16(*v);
        }
        w.align(32, 0);
        for (r, slot) in s.sk2.iter().zip(wslots) {
            w.fix_here(slot)?;
            for _ in 0..r.count {
                w.u8(128).u8(128);
            }
            w.align(32, 0);
        }
        for ((_, dests), (src, idx, wt)) in s.skacc.iter().zip(acc_slots) {
            w.fix_here(idx)?;
            for d in dests {
                w.u16(*d);
            }
            w.align(32, 0);
            w.fix_here(wt)?;
            w.fill(64, dests.len()).align(32, 0);
            w.fix_here(src)?;
            for d in dests {
                let e = usize::from(*d) * 6;
                for c in 0..6 {
                    w.i16(body.get(e + c).copied().unwrap_or(0));
                }
            }
            w.align(32, 0);
        }
        Ok(w.into_vec())
    }
}

/// An array of `n` entries of `comps` random components.
pub fn random_array(rng: &mut Rng, n: usize, comps: usize, span: i16) -> Vec<i16> {
    (0..n * comps).map(|_| rng.small(span)).collect()
}

/// Indices `0..limit` where `i % period < keep`, the first `n` of them: clustered runs like a
/// real head's mapped vertices.
pub fn clustered(limit: u16, period: u16, keep: u16, offset: u16, n: usize) -> Vec<u16> {
    (offset..limit)
        .filter(|i| (i - offset) % period < keep)
        .take(n)
        .collect()
}

/// An attribute over `indices` of `rest` (`format.count` components per entry): pose 0 copied
/// from `rest` (random for kind 0, whose rest lives in SKAcc sources), later poses random deltas
/// with every fourth entry left at rest (zero triplet).
pub fn attribute(
    rng: &mut Rng,
    format: AttrFormat,
    rest: &[i16],
    indices: &[u16],
    pose_count: u16,
) -> Attribute {
    let n = usize::from(format.count);
    let span = if format.width == 1 { 100 } else { 300 };
    let mut pose0 = Vec::with_capacity(indices.len() * n);
    for &i in indices {
        let i = usize::from(i) * n;
        for c in 0..n {
            pose0.push(if format.kind.0 == 0 {
                rng.small(span)
            } else {
                rest.get(i + c).copied().unwrap_or(0)
            });
        }
    }
    let mut poses = vec![encode(&pose0, format.width).unwrap_or_default()];
    for _ in 1..pose_count {
        let d: Vec<i16> = (0..indices.len() * n)
            .map(|k| {
                if (k / n) % 4 == 3 {
                    0
                } else {
                    rng.small(span / 3)
                }
            })
            .collect();
        poses.push(encode(&d, format.width).unwrap_or_default());
    }
    Attribute {
        entries: indices.len() as u32,
        format,
        runs: Run::from_sorted(indices),
        poses,
    }
}

/// Descriptors for every distinct record format, in first-use order.
pub fn descriptors_for(objects: &[FacialObject]) -> Vec<Descriptor> {
    let mut out: Vec<Descriptor> = Vec::new();
    for a in objects.iter().flat_map(|o| &o.attributes) {
        let d = Descriptor::for_format(a.format);
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

fn section(objects: Vec<FacialObject>) -> FacialSection {
    FacialSection {
        max_pose_count: objects.iter().map(|o| o.pose_count).max().unwrap_or(0),
        pad: 0,
        reserved: 0,
        descriptors: descriptors_for(&objects),
        objects,
    }
}

fn rigid(rng: &mut Rng, name: &str, positions: usize, normals: usize) -> SubmeshSpec {
    let normals = random_array(rng, normals, 3, 0x3FFF)
        .chunks_exact(3)
        .map(|c| {
            [
                c.first().copied().unwrap_or(0),
                c.get(1).copied().unwrap_or(0),
                c.get(2).copied().unwrap_or(0),
            ]
        })
        .collect();
    SubmeshSpec {
        name: name.into(),
        quantize: 0x3A,
        comp_count: 3,
        positions: random_array(rng, positions, 3, 4000),
        normals: Some(normals),
    }
}

fn flat_normals(s: &SubmeshSpec) -> Vec<i16> {
    s.normals.iter().flatten().flatten().copied().collect()
}

/// Birdo-like block: rigid body and head; two facial objects on the head (submesh 1) mapping 199
/// and 451 positions and 247 and 520 normals, five poses each.
pub fn birdo() -> BlockSpec {
    let mut rng = Rng(0x000f_3f2d_8f1e_5dc5);
    let body = rigid(&mut rng, "body", 64, 64);
    let head = rigid(&mut rng, "head", 600, 700);
    let (hn, hp) = (flat_normals(&head), head.positions.clone());
    let objects = vec![
        FacialObject {
            pose_count: 5,
            attributes: vec![
                attribute(
                    &mut rng,
                    AttrFormat::rigid_position(1),
                    &hp,
                    &clustered(600, 12, 7, 0, 199),
                    5,
                ),
                attribute(
                    &mut rng,
                    AttrFormat::rigid_normal(1),
                    &hn,
                    &clustered(700, 10, 6, 20, 247),
                    5,
                ),
            ],
        },
        FacialObject {
            pose_count: 5,
            attributes: vec![
                attribute(
                    &mut rng,
                    AttrFormat::rigid_position(1),
                    &hp,
                    &clustered(600, 13, 10, 0, 451),
                    5,
                ),
                attribute(
                    &mut rng,
                    AttrFormat::rigid_normal(1),
                    &hn,
                    &clustered(700, 4, 3, 1, 520),
                    5,
                ),
            ],
        },
    ];
    BlockSpec {
        submeshes: vec![body, head],
        skin: None,
        facial: Some(section(objects)),
        ptr8: None,
    }
}

/// Luigi-like skinned block: submesh 0 is the skinned body (528 interleaved slots: SK1 bone 51
/// slots 0–383, SK1 bone 18 slots 384–447, SK2 bones 50/51 slots 448–511, two SKAcc entries),
/// submesh 1 a rigid cap. Objects: body 64 vertices in SK1(51) (2 poses); body 356 vertices
/// (341 SK1(51), 3 SK1(18), 12 SK2) plus two kind-0 SKAcc attributes (6 poses); rigid position +
/// normal (3 poses); rigid position only, like Mare (4 poses).
pub fn luigi() -> BlockSpec {
    let mut rng = Rng(0x0005_eed1_0000_0091);
    let mut body = random_array(&mut rng, 528, 6, 4000);
    for e in body.chunks_exact_mut(6) {
        for c in e.iter_mut().skip(3) {
            *c = rng.small(0x3FFF);
        }
    }
    let body = SubmeshSpec {
        name: "body".into(),
        quantize: 0x3A,
        comp_count: 6,
        positions: body,
        normals: None,
    };
    let cap = rigid(&mut rng, "cap", 120, 130);
    let skin = SkinSpec {
        sk1: vec![
            SkinRange {
                bones: [51, 0],
                first: 0,
                count: 256,
                skew: 0,
            },
            SkinRange {
                bones: [18, 0],
                first: 256,
                count: 128,
                skew: 0,
            },
        ],
        sk2: vec![SkinRange {
            bones: [50, 51],
            first: 384,
            count: 64,
            skew: 0,
        }],
        skacc: vec![(12, (448..456).collect()), (13, (456..460).collect())],
    };
    let bp = body.positions.clone();
    let (cp, cn) = (cap.positions.clone(), flat_normals(&cap));
    // Like Luigi's second object: 341 head vertices in SK1(51), 3 in SK1(18), 12 neck vertices
    // in SK2(50, 51).
    let mut big: Vec<u16> = clustered(384, 9, 8, 0, 341);
    big.extend([390, 400, 410]);
    big.extend(448..460u16);
    let objects = vec![
        FacialObject {
            pose_count: 2,
            attributes: vec![attribute(
                &mut rng,
                AttrFormat::body(0),
                &bp,
                &clustered(256, 16, 8, 128, 64),
                2,
            )],
        },
        FacialObject {
            pose_count: 6,
            attributes: vec![
                attribute(&mut rng, AttrFormat::body(0), &bp, &big, 6),
                attribute(
                    &mut rng,
                    AttrFormat::skacc(0),
                    &[],
                    &(0..8).collect::<Vec<_>>(),
                    6,
                ),
                attribute(&mut rng, AttrFormat::skacc(1), &[], &[1, 2, 3], 6),
            ],
        },
        FacialObject {
            pose_count: 3,
            attributes: vec![
                attribute(
                    &mut rng,
                    AttrFormat::rigid_position(1),
                    &cp,
                    &clustered(120, 6, 4, 10, 40),
                    3,
                ),
                attribute(
                    &mut rng,
                    AttrFormat::rigid_normal(1),
                    &cn,
                    &clustered(130, 5, 3, 0, 50),
                    3,
                ),
            ],
        },
        FacialObject {
            pose_count: 4,
            attributes: vec![attribute(
                &mut rng,
                AttrFormat::rigid_position(1),
                &cp,
                &clustered(120, 2, 1, 60, 30),
                4,
            )],
        },
    ];
    BlockSpec {
        submeshes: vec![body, cap],
        skin: Some(skin),
        facial: Some(section(objects)),
        ptr8: None,
    }
}

/// The Birdo-like block's bytes.
pub fn birdo_block() -> Vec<u8> {
    birdo().build().unwrap_or_default()
}

/// The Luigi-like block's bytes.
pub fn luigi_block() -> Vec<u8> {
    luigi().build().unwrap_or_default()
}

/// Sample files for `samples/gpl/`: (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let mut low = birdo();
    low.facial = None;
    let mut trailing = luigi();
    trailing.ptr8 = Some(b"ptr8 trailing section".to_vec());
    vec![
        ("catherine_like.gpl".into(), birdo_block()),
        (
            "L_catherine_like.gpl".into(),
            low.build().unwrap_or_default(),
        ),
        ("luigi_like.gpl".into(), luigi_block()),
        (
            "luigi_like_ptr8.gpl".into(),
            trailing.build().unwrap_or_default(),
        ),
    ]
}
