//! The owned model: header values, typed tables as found (shared value runs stay shared because
//! tracks keep their table indices) and the layout facts the writer needs to reproduce the file.

use crate::schema::Kind;

/// A keyed track: `count` keys starting at `index` of its value table; `count == 1` is a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct KeyTrack {
    /// Number of keys (1 = constant value).
    pub count: u16,
    /// First value-table index.
    pub index: u16,
    /// Tangent mode: 0 = one tangent per key (in = out, 3 values a key), 1 = in and out (4 values).
    pub tangent: u16,
}

/// A per-frame track: `count` consecutive values starting at `index` (1 = constant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct FullTrack {
    /// Number of frames stored (1 = constant).
    pub count: u16,
    /// First value-table index.
    pub index: u16,
}

/// TRK1 colour entry: R, G, B, A tracks and the register (or konst) slot it drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct TevColor {
    /// R, G, B, A.
    pub tracks: [KeyTrack; 4],
    /// Colour register / konst colour id.
    pub id: u8,
    /// The three bytes after the id (0xFF in retail files).
    pub fill: [u8; 3],
}

/// TPT1 entry: a per-frame track of texture indices and the texture map it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Pattern {
    /// The frames.
    pub track: FullTrack,
    /// Texture map slot of the material.
    pub tex_map: u8,
    /// The three bytes after it (0xFF in retail files).
    pub fill: [u8; 3],
}

/// One name with its stored key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Name {
    /// Stored key (normally `j3d_bmd::name_hash` of the name).
    pub key: u16,
    /// The name (ASCII in every file seen; other bytes are kept as Latin-1 code points).
    #[cfg_attr(feature = "json", serde(with = "latin1"))]
    pub name: Vec<u8>,
}

/// A J3D name table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Names {
    /// The u16 after the count (0xFFFF).
    pub marker: u16,
    /// Entries in order.
    pub entries: Vec<Name>,
    /// The strings as stored when they are not packed after the entries in entry order (the
    /// game reads each through its entry's offset); `None` for packed tables, as every tool
    /// writes them. The writer keeps them while every entry's name is still at its offset and
    /// packs the table otherwise.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub strings: Option<Strings>,
}

/// A name table's strings as stored, when they are not packed in entry order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Strings {
    /// Each entry's string offset (from the table start).
    pub offsets: Vec<u16>,
    /// The bytes from the end of the entries to the end of the last string.
    pub bytes: Vec<u8>,
}

impl Names {
    /// A packed table of `names` with their keys (`j3d_bmd::name_hash`) and the 0xFFFF marker,
    /// as every tool writes it.
    pub fn of<'a>(names: impl IntoIterator<Item = &'a [u8]>) -> Names {
        Names {
            marker: 0xFFFF,
            entries: names
                .into_iter()
                .map(|n| Name {
                    key: j3d_bmd::name_hash(n),
                    name: n.to_vec(),
                })
                .collect(),
            strings: None,
        }
    }

    /// The stored strings when every entry's name (and its NUL) is still at its stored offset.
    pub(crate) fn kept_strings(&self) -> Option<&Strings> {
        let st = self.strings.as_ref()?;
        let base = 4 + 4 * self.entries.len();
        let fits = st.offsets.len() == self.entries.len()
            && self.entries.iter().zip(&st.offsets).all(|(e, &off)| {
                usize::from(off)
                    .checked_sub(base)
                    .and_then(|at| st.bytes.get(at..at + e.name.len() + 1))
                    .is_some_and(|b| b.split_last() == Some((&0, &e.name[..])))
            });
        fits.then_some(st)
    }
}

/// `Vec<[f32; 3]>` in JSON: each float in `gcio::F32`'s form (a number when finite, else its hex
/// bits), so NaNs and infinities convert to JSON and back with their bits.
#[cfg(feature = "json")]
mod json_vec3 {
    use gcio::F32;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[[f32; 3]], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|t| t.map(F32::new)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[f32; 3]>, D::Error> {
        Vec::<[F32; 3]>::deserialize(d).map(|v| v.into_iter().map(|t| t.map(F32::get)).collect())
    }
}

#[cfg(feature = "json")]
mod latin1 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&b.iter().map(|&c| char::from(c)).collect::<String>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        s.chars()
            .map(|c| u8::try_from(u32::from(c)).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// A table's contents.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Data {
    /// Keyed SRT entries (joints, texture matrices): sx rx tx sy ry ty sz rz tz.
    KeySrt(Vec<[KeyTrack; 9]>),
    /// Per-frame SRT entries, same order.
    FullSrt(Vec<[FullTrack; 9]>),
    /// TRK1 colour entries.
    TevColor(Vec<TevColor>),
    /// PAK1 colour entries (R, G, B, A).
    KeyColor(Vec<[KeyTrack; 4]>),
    /// TPT1 entries.
    Pattern(Vec<Pattern>),
    /// Keyed tracks, one per entry (CLK1).
    Key(Vec<KeyTrack>),
    /// Per-frame tracks (VAF1, CLF1).
    Full(Vec<FullTrack>),
    /// f32 values.
    F32(#[cfg_attr(feature = "json", serde(with = "gcio::json_f32s"))] Vec<f32>),
    /// i16 values.
    I16(Vec<i16>),
    /// u16 values.
    U16(Vec<u16>),
    /// Bytes.
    U8(Vec<u8>),
    /// f32 triples.
    Vec3(#[cfg_attr(feature = "json", serde(with = "json_vec3"))] Vec<[f32; 3]>),
    /// A name table.
    Names(Names),
}

impl Data {
    /// Number of elements (names: entries).
    pub fn len(&self) -> usize {
        match self {
            Data::KeySrt(v) => v.len(),
            Data::FullSrt(v) => v.len(),
            Data::TevColor(v) => v.len(),
            Data::KeyColor(v) => v.len(),
            Data::Pattern(v) => v.len(),
            Data::Key(v) => v.len(),
            Data::Full(v) => v.len(),
            Data::F32(v) => v.len(),
            Data::I16(v) => v.len(),
            Data::U16(v) => v.len(),
            Data::U8(v) => v.len(),
            Data::Vec3(v) => v.len(),
            Data::Names(n) => n.entries.len(),
        }
    }

    /// True when the table has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Padding before an item: the alignments the tool applied, in order, each filled with a prefix of
/// the file's fill pattern (`[4, 32]` = pad to 4, then restart the sentence and pad to 32).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Gap {
    /// Alignments, applied in order.
    Align(Vec<u8>),
    /// Bytes that are no padding the tools write: kept verbatim and listed by
    /// [`Anim::raw_parts`].
    Raw(Vec<u8>),
    /// Padding of the right length for `align` whose bytes are not the fill: leftovers of the
    /// tool's buffer (SMG2-era BTK/BTP files). The game never reads them; they are kept so the file
    /// round-trips and listed by [`Anim::stale_parts`], not [`Anim::raw_parts`].
    Stale {
        /// The alignment the gap pads to.
        align: u8,
        /// The bytes found.
        bytes: Vec<u8>,
    },
    /// The table starts this many bytes before the end of what precedes it: it shares those bytes
    /// with the earlier table(s). The game reads each table through its own offset and count and
    /// never checks that tables are disjoint (one retail BTP's material ids start inside its
    /// texture indices). The writer overlaps the table again while the shared bytes agree, and
    /// places it after the others when an edit made them differ.
    Overlap(u32),
    /// Nothing.
    #[default]
    None,
}

/// How the chunk header's size relates to the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum ChunkSize {
    /// The chunk runs to the end of the file (after the end padding): retail SMG1 files.
    #[default]
    ToFileEnd,
    /// End of the last table plus this many bytes (SMG2-era BTK files: +4, even when that passes
    /// the end of the file).
    AfterData(u32),
    /// End of the last table minus this many bytes: a size that ends inside the tables. The game
    /// uses a chunk's size only to step to the next chunk, and an animation has one.
    InsideData(u32),
}

/// How the file header's size word (offset 8) relates to the bytes written. The game never reads
/// it: it reads each table through its own offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum FileSize {
    /// The length of the file.
    #[default]
    Actual,
    /// The file was stored without its last this-many bytes of end padding (archives that dropped
    /// it): the sizes count them, the bytes are not there. The writer writes the whole file, then
    /// leaves them off.
    Cut(u32),
    /// Any other value, kept as stored.
    Stored(u32),
}

/// What fills alignment gaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Fill {
    /// `"This is padding data to alignme"`, restarted at every alignment.
    #[default]
    Nintendo,
    /// Zero bytes.
    Zero,
}

impl Fill {
    /// The pattern (empty = zeros).
    pub fn pattern(self) -> &'static [u8] {
        match self {
            Fill::Nintendo => j3d_bmd::NINTENDO_PAD,
            Fill::Zero => b"",
        }
    }
}

/// A table placed in the chunk, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Place {
    /// Table index (schema order).
    pub table: usize,
    /// Padding written before it.
    pub gap: Gap,
}

/// How the chunk is laid out: table order and padding as found. Tables missing from `order`
/// have offset 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// Gap fill.
    pub fill: Fill,
    /// Tables in file order.
    pub order: Vec<Place>,
    /// Padding from the last table to the end of the file.
    pub end: Gap,
    /// What the chunk header's size counts.
    pub size: ChunkSize,
    /// What the file header's size counts.
    #[cfg_attr(feature = "json", serde(default))]
    pub file_size: FileSize,
    /// What the count that holds several per entry (TTK1's track count, three per texture matrix)
    /// holds beyond them: the game uses count / 3 and never reads the rest. 0 in every file seen.
    #[cfg_attr(feature = "json", serde(default))]
    pub count_extra: u32,
    /// The file header's chunk count when it is not 1 (`None` writes 1). The game reads that many
    /// chunks, each after the previous one's size: none animates nothing, more read past this
    /// chunk (an unknown chunk type is skipped).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub chunk_count: Option<u32>,
}

/// One table: its schema name and contents.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Table {
    /// Schema name (`joints`, `scales`, …).
    pub name: String,
    /// Contents.
    pub data: Data,
}

/// A J3D animation file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Anim {
    /// Which kind.
    pub kind: Kind,
    /// File header bytes 0x10..0x20 (`SVR1` + 0xFF × 12, or 0xFF × 16).
    pub reserved: [u8; 16],
    /// Plain header values by name (`loop_mode`, `rotation_decimal`, `duration`, …); counts and
    /// offsets are derived from the tables when writing.
    pub values: std::collections::BTreeMap<String, u32>,
    /// Tables in schema order.
    pub tables: Vec<Table>,
    /// Layout facts.
    pub layout: Layout,
}

impl Kind {
    /// The name `gcf identify` prints (`j3d-bck`).
    pub fn format_name(self) -> &'static str {
        match self {
            Kind::Bck => "j3d-bck",
            Kind::Bca => "j3d-bca",
            Kind::Btk => "j3d-btk",
            Kind::Brk => "j3d-brk",
            Kind::Bpk => "j3d-bpk",
            Kind::Btp => "j3d-btp",
            Kind::Bva => "j3d-bva",
            Kind::Blk => "j3d-blk",
            Kind::Bla => "j3d-bla",
        }
    }
}

/// The order Nintendo's tools write tables in (schema indices).
fn tool_order(kind: Kind) -> Vec<usize> {
    match kind {
        // Entry tables, value tables, then material ids and names.
        Kind::Brk => vec![0, 1, 6, 7, 8, 9, 10, 11, 12, 13, 2, 3, 4, 5],
        _ => (0..kind.schema().tables.len()).collect(),
    }
}

impl Anim {
    /// A model of `kind` holding `tables` (schema order) and the header `values` given (the
    /// others 0), laid out as Nintendo's tools lay files out: tables in the tool's order after a
    /// 32-aligned header, 4-aligned (32 in ANK1/ANF1/CLK1/CLF1), the chunk end on 32, the
    /// padding sentence as fill. What builders and importers start from.
    pub fn with_tool_layout(kind: Kind, values: &[(&str, u32)], tables: Vec<Data>) -> Anim {
        let s = kind.schema();
        let mut vals: std::collections::BTreeMap<String, u32> = s
            .fields
            .iter()
            .filter(|f| f.role == crate::schema::Role::Value)
            .map(|f| (f.name.to_owned(), 0))
            .collect();
        for (k, v) in values {
            vals.insert((*k).to_owned(), *v);
        }
        let align = if matches!(kind, Kind::Bck | Kind::Bca | Kind::Blk | Kind::Bla) {
            32
        } else {
            4
        };
        let order = tool_order(kind)
            .into_iter()
            .enumerate()
            .map(|(n, table)| Place {
                table,
                gap: Gap::Align(vec![if n == 0 { 32 } else { align }]),
            })
            .collect();
        Anim {
            kind,
            reserved: [0xFF; 16],
            values: vals,
            tables: s
                .tables
                .iter()
                .zip(tables)
                .map(|(d, data)| Table {
                    name: d.name.to_owned(),
                    data,
                })
                .collect(),
            layout: Layout {
                fill: Fill::Nintendo,
                order,
                end: Gap::Align(vec![32]),
                size: ChunkSize::ToFileEnd,
                file_size: FileSize::Actual,
                count_extra: 0,
                chunk_count: None,
            },
        }
    }
}

impl Anim {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> gcio::Result<Anim> {
        Anim::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound each table's element count.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> gcio::Result<Anim> {
        Anim::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view (reads every table).
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> gcio::Result<Anim> {
        v.to_model(limits)
    }

    /// A header value (0 when absent).
    pub fn value(&self, name: &str) -> u32 {
        self.values.get(name).copied().unwrap_or(0)
    }

    /// Loop mode: 0 once, 1 once and reset, 2 repeat, 3 mirrored once, 4 mirrored repeat.
    pub fn loop_mode(&self) -> u8 {
        self.value("loop_mode") as u8
    }

    /// Last frame (the header's frame count, a signed 16-bit value in the game).
    pub fn duration(&self) -> u16 {
        self.value("duration") as u16
    }

    /// Rotation exponent: a stored rotation unit is `2^decimal × 180 / 32768` degrees.
    pub fn rotation_decimal(&self) -> u8 {
        self.value("rotation_decimal") as u8
    }

    /// Table `i`'s data.
    pub fn table(&self, i: usize) -> Option<&Data> {
        self.tables.get(i).map(|t| &t.data)
    }

    /// Table by schema name.
    pub fn table_named(&self, name: &str) -> Option<&Data> {
        self.tables.iter().find(|t| t.name == name).map(|t| &t.data)
    }

    /// The parts this model keeps as stored bytes rather than typed values: gaps that are not
    /// padding, as `where (N bytes)`. Empty on every retail file seen.
    pub fn raw_parts(&self) -> Vec<String> {
        let s = self.kind.schema();
        let mut out = Vec::new();
        let mut note = |what: String, g: &Gap| {
            if let Gap::Raw(b) = g {
                out.push(format!("{what} ({} bytes)", b.len()));
            }
        };
        for p in &self.layout.order {
            let name = s.tables.get(p.table).map_or("?", |t| t.name);
            note(format!("gap before {name}"), &p.gap);
        }
        note("chunk end".into(), &self.layout.end);
        out
    }

    /// Padding gaps holding stale bytes instead of the fill: `(where, bytes)`.
    pub fn stale_parts(&self) -> Vec<(String, usize)> {
        let s = self.kind.schema();
        let gaps = self
            .layout
            .order
            .iter()
            .map(|p| (s.tables.get(p.table).map_or("?", |t| t.name), &p.gap));
        gaps.chain([("end", &self.layout.end)])
            .filter_map(|(name, g)| match g {
                Gap::Stale { bytes, .. } => Some((format!("gap before {name}"), bytes.len())),
                _ => None,
            })
            .collect()
    }
}
