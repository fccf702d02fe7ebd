//! The owned, editable facial pose section. Pointers, counts and record sizes are derived on
//! write (the packing rule in `write.rs`); everything else is kept as read.

use gcio::{Context, Error, Limits, Result};

pub use crate::attr::{AttrFormat, AttrKind, Descriptor};
use crate::view::FacialView;

/// One run of consecutive target indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize))]
pub struct Run {
    /// First target-array index.
    pub first: u16,
    /// Number of indices; 0 ends the list.
    pub len: u16,
}

impl Run {
    /// The `(0, 0)` pair every run list ends with.
    pub const TERMINATOR: Run = Run { first: 0, len: 0 };

    /// Runs covering sorted, unique `indices`, followed by the terminator.
    pub fn from_sorted(indices: &[u16]) -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for &i in indices {
            match runs.last_mut() {
                Some(r)
                    if u32::from(r.first) + u32::from(r.len) == u32::from(i)
                        && r.len < u16::MAX =>
                {
                    r.len += 1
                }
                _ => runs.push(Run { first: i, len: 1 }),
            }
        }
        runs.push(Run::TERMINATOR);
        runs
    }
}

/// One attribute record with its run list and pose arrays.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// Mapped entries per pose.
    pub entries: u32,
    /// Format bytes.
    pub format: AttrFormat,
    /// Runs as stored, the terminating pair included (a list without one keeps it missing).
    pub runs: Vec<Run>,
    /// Pose arrays as raw big-endian bytes, `entries × stride` each; pose 0 is absolute, later
    /// poses are deltas.
    pub poses: Vec<Vec<u8>>,
}

impl Attribute {
    /// Target indices named by the runs (terminator and anything after it excluded), capped at
    /// `entries` and at the default [`Limits`]' `max_elements`, so hostile counts cannot blow up.
    pub fn indices(&self) -> Vec<u16> {
        self.indices_with(&Limits::default())
    }

    /// [`Attribute::indices`] capped at `limits.max_elements` instead of the default.
    pub fn indices_with(&self, limits: &Limits) -> Vec<u16> {
        let max = usize::try_from(limits.max_elements).unwrap_or(usize::MAX);
        expand_runs(self.runs.iter().copied(), (self.entries as usize).min(max))
    }

    /// Pose `p` as signed components (`None` for widths other than 1 and 2, or a missing pose).
    pub fn values(&self, p: usize) -> Option<Vec<i16>> {
        decode(self.poses.get(p)?, self.format.width)
    }

    /// Replaces pose `p` with signed components (encoded at the record's width).
    pub fn set_values(&mut self, p: usize, values: &[i16]) -> Result<()> {
        let bytes = encode(values, self.format.width)?;
        let slot = self
            .poses
            .get_mut(p)
            .ok_or_else(|| Error::message(format!("no pose {p}")))?;
        *slot = bytes;
        Ok(())
    }
}

/// Expands runs into indices until a zero-length run or `cap` indices.
pub(crate) fn expand_runs(runs: impl Iterator<Item = Run>, cap: usize) -> Vec<u16> {
    let mut out = Vec::new();
    for r in runs {
        if r.len == 0 {
            break;
        }
        for k in 0..r.len {
            if out.len() >= cap {
                return out;
            }
            out.push(r.first.wrapping_add(k));
        }
    }
    out
}

/// Big-endian components of width 1 or 2 as i16.
pub(crate) fn decode(bytes: &[u8], width: u8) -> Option<Vec<i16>> {
    match width {
        1 => Some(bytes.iter().map(|&b| i16::from(b as i8)).collect()),
        2 => Some(
            bytes
                .chunks_exact(2)
                .map(|c| {
                    i16::from_be_bytes([
                        c.first().copied().unwrap_or(0),
                        c.get(1).copied().unwrap_or(0),
                    ])
                })
                .collect(),
        ),
        _ => None,
    }
}

/// Encodes i16 components at width 1 (must fit i8) or 2.
pub(crate) fn encode(values: &[i16], width: u8) -> Result<Vec<u8>> {
    match width {
        1 => values
            .iter()
            .map(|&v| {
                i8::try_from(v)
                    .map(|b| b as u8)
                    .map_err(|_| Error::message(format!("{v} does not fit int8")))
            })
            .collect(),
        2 => Ok(values.iter().flat_map(|v| v.to_be_bytes()).collect()),
        w => Err(Error::invalid(
            0,
            format!("component width {w} is not editable"),
        )),
    }
}

/// One facial object: its pose count and attributes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FacialObject {
    /// Poses per attribute (pose 0 absolute, then deltas).
    pub pose_count: u16,
    /// Attribute records.
    pub attributes: Vec<Attribute>,
}

impl FacialObject {
    /// The submesh this object animates (its first non-SKAcc attribute's target).
    pub fn submesh(&self) -> Option<u8> {
        self.attributes
            .iter()
            .find(|a| a.format.kind != AttrKind::SKACC)
            .map(|a| a.format.target)
    }
}

/// The facial pose section (model header +0x18).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FacialSection {
    /// Maximum pose count advertised by the section.
    pub max_pose_count: u16,
    /// Header +0x06 (0 in vanilla).
    pub pad: u16,
    /// Header +0x10 (0 in vanilla).
    pub reserved: u32,
    /// Type descriptors.
    pub descriptors: Vec<Descriptor>,
    /// Facial objects.
    pub objects: Vec<FacialObject>,
}

impl FacialSection {
    /// Parses a section (strict: every pointer must resolve inside `data`).
    pub fn parse(data: &[u8]) -> Result<Self> {
        Self::parse_with(data, &Limits::default())
    }

    /// [`FacialSection::parse`]; `limits` bound the descriptor, object and record tables.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Self> {
        Self::from_view(&FacialView::parse(data)?, limits)
    }

    /// Copies a view into the owned model. The data copied cannot exceed the section's size, so
    /// overlapping pointers cannot multiply the work.
    pub fn from_view(v: &FacialView<'_>, limits: &Limits) -> Result<Self> {
        let h = v.header();
        let descriptors = v
            .descriptors()
            .context("type descriptors")?
            .iter()
            .map(|d| Descriptor {
                target: d.target.get(),
                kind: AttrKind(d.kind),
                format: d.format,
                reserved: d.reserved,
            })
            .collect();
        let mut budget = v.len();
        let mut take = |n: usize, at: u64| -> Result<()> {
            budget = budget.checked_sub(n).ok_or_else(|| {
                Error::invalid(
                    at,
                    "facial data overlaps: more bytes referenced than the section holds",
                )
            })?;
            Ok(())
        };
        let table = v.object_table().context("object table")?;
        let mut objects = Vec::with_capacity(table.len());
        for i in 0..table.len() {
            let o = v.object(i).with_context(|| format!("facial object {i}"))?;
            let n = usize::from(o.attr_count());
            take(n.saturating_mul(o.record_stride()), o.data_abs())?;
            let mut attributes = Vec::with_capacity(n);
            for j in 0..n {
                let rec = o
                    .record(j)
                    .with_context(|| format!("facial object {i} > attribute {j}"))?;
                let ctx = || format!("facial object {i} > attribute {j}");
                let runs = v.runs(&rec).with_context(ctx)?;
                take(runs.len() * 4, rec.abs())?;
                let stride = rec.format().stride();
                let len = limits.check_alloc(u64::from(rec.entries()), stride as u64, rec.abs())?;
                let mut poses = Vec::with_capacity(usize::from(o.pose_count()));
                for p in 0..usize::from(o.pose_count()) {
                    take(len, rec.abs())?;
                    poses.push(
                        rec.pose(p)
                            .with_context(|| format!("{} > pose {p}", ctx()))?
                            .to_vec(),
                    );
                }
                attributes.push(Attribute {
                    entries: rec.entries(),
                    format: rec.format(),
                    runs: runs
                        .iter()
                        .map(|r| Run {
                            first: r.first.get(),
                            len: r.len.get(),
                        })
                        .collect(),
                    poses,
                });
            }
            objects.push(FacialObject {
                pose_count: o.pose_count(),
                attributes,
            });
        }
        Ok(FacialSection {
            max_pose_count: h.max_pose_count.get(),
            pad: h.pad.get(),
            reserved: h.reserved.get(),
            descriptors,
            objects,
        })
    }
}
