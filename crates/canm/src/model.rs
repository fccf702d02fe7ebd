//! The owned model: header words, the eight component tracks, the shared value table and the
//! bytes around it. Offsets are derived by the writer; what is not structure (a gap before the
//! values, the trailer after them) is kept as bytes.

/// File magic.
pub const MAGIC: [u8; 4] = *b"ANDO";
/// Bytes of the file header; track offsets and the value offset count from its end.
pub const HEADER_SIZE: usize = 0x20;
/// Names of the eight tracks in file order.
pub const TRACK_NAMES: [&str; 8] = [
    "pos_x", "pos_y", "pos_z", "watch_x", "watch_y", "watch_z", "twist", "fovy",
];

/// How values are stored: one per frame, or keyframes interpolated with Hermite curves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub enum Kind {
    /// `CANM`: a value for every frame (track entries of 8 bytes).
    Canm,
    /// `CKAN`: keyframes (track entries of 12 bytes, with a key layout word).
    Ckan,
}

impl Kind {
    /// The type tag at offset 4.
    pub fn tag(self) -> [u8; 4] {
        match self {
            Kind::Canm => *b"CANM",
            Kind::Ckan => *b"CKAN",
        }
    }

    /// The kind a type tag names.
    pub fn from_tag(tag: &[u8]) -> Option<Kind> {
        match tag {
            b"CANM" => Some(Kind::Canm),
            b"CKAN" => Some(Kind::Ckan),
            _ => None,
        }
    }

    /// Bytes of one track entry.
    pub fn entry_size(self) -> usize {
        match self {
            Kind::Canm => 8,
            Kind::Ckan => 12,
        }
    }
}

/// One component track: where its values sit in the shared table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Track {
    /// Number of frames (CANM) or keys (CKAN); 1 means a constant.
    pub count: u32,
    /// Index of its first value in the value table.
    pub offset: u32,
    /// CKAN key layout: 0 = (time, value, tangent), anything else = (time, value, in, out).
    /// Always 0 for CANM, which has no such word.
    pub layout: u32,
}

impl Track {
    /// Floats per key: 3 or 4 for CKAN, 1 for CANM.
    pub fn stride(&self, kind: Kind) -> usize {
        match kind {
            Kind::Canm => 1,
            Kind::Ckan if self.layout == 0 => 3,
            Kind::Ckan => 4,
        }
    }

    /// Floats the track's values take (a constant takes one).
    pub fn len(&self, kind: Kind) -> usize {
        if self.count == 1 {
            1
        } else {
            (self.count as usize).saturating_mul(self.stride(kind))
        }
    }

    /// True for a track with no values.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// A camera animation.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Canm {
    /// Per-frame or keyed.
    pub kind: Kind,
    /// The words at 0x08, 0x0C, 0x10, 0x14: `1, 0, 1, 4` in every file seen. The game refuses a
    /// file whose first word is 0 and copies the next two into the camera; their meaning is not
    /// known.
    pub header: [u32; 4],
    /// Length in frames.
    pub frames: u32,
    /// The tracks in [`TRACK_NAMES`] order.
    pub tracks: [Track; 8],
    /// Bytes between the track table and the value block (none in every file seen).
    pub gap: Vec<u8>,
    /// The value table: every track's floats, and whatever else the tool stored (every real file
    /// ends it with 0.1 and 1e9, which no track reads).
    #[cfg_attr(feature = "json", serde(with = "gcio::json_f32s"))]
    pub values: Vec<f32>,
    /// Bytes after the value table (`FF FF FF FF` in every file seen).
    pub trailer: Vec<u8>,
}

impl Canm {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Canm> {
        Canm::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the copied bytes.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Canm> {
        Canm::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Canm> {
        limits.check_alloc(
            (v.gap.len() + v.values.len() + v.trailer.len()) as u64,
            1,
            0,
        )?;
        Ok(v.to_model())
    }

    /// The floats of track `i` (`None` when `i` is not a track or the values run past the
    /// table).
    pub fn track_values(&self, i: usize) -> Option<&[f32]> {
        let t = self.tracks.get(i)?;
        let start = t.offset as usize;
        self.values.get(start..start.checked_add(t.len(self.kind))?)
    }

    /// Offset of the value block from the end of the header (the header's last word).
    pub fn value_offset(&self) -> usize {
        self.kind.entry_size() * self.tracks.len() + self.gap.len()
    }

    /// Parts kept as bytes rather than structure: the gap before the value block (empty on
    /// every real file; the trailer is a known terminator and not counted), named like every
    /// model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        if self.gap.is_empty() {
            Vec::new()
        } else {
            vec![format!("gap before the values ({} bytes)", self.gap.len())]
        }
    }
}
