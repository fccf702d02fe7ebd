//! The owned, editable bank. It keeps everything a byte-exact rewrite needs: object order, shared
//! objects (two links with the same index), unknown words, padding bytes and trailing data.
//! File offsets are replaced by [`Link`]s; the writer recomputes them.

use crate::F32;

#[cfg(feature = "json")]
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A whole IBNK file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Bank {
    /// Bank number (header 0x08).
    pub id: i32,
    /// Header bytes 0x10..0x20 (zero in known banks, IBNK-003).
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub reserved: [u8; 16],
    /// File length minus the header's size field: 8 (IBNK-001). Kept so a bank
    /// written with another convention still round-trips.
    #[cfg_attr(
        feature = "json",
        serde(default = "eight", skip_serializing_if = "is_eight")
    )]
    pub size_delta: i64,
    /// The version-specific body; its variant is the header's version word.
    pub body: Body,
}

#[cfg(feature = "json")]
fn eight() -> i64 {
    8
}
#[cfg(feature = "json")]
fn is_eight(v: &i64) -> bool {
    *v == 8
}

impl Bank {
    /// The parts this model keeps as stored bytes rather than typed values: chunks of an unknown
    /// id (version 1). Empty when every byte went through the typed model, which is what the
    /// round-trip checks require of the known banks.
    pub fn raw_parts(&self) -> Vec<String> {
        match &self.body {
            Body::V0(_) => Vec::new(),
            Body::V1(b) => b
                .chunks
                .iter()
                .filter_map(|c| match &c.data {
                    ChunkData::Unknown { id, .. } => {
                        Some(format!("chunk {}", String::from_utf8_lossy(id)))
                    }
                    _ => None,
                })
                .collect(),
        }
    }

    /// The header's version word (0 or 1).
    pub fn version(&self) -> u32 {
        match self.body {
            Body::V0(_) => 0,
            Body::V1(_) => 1,
        }
    }
}

/// Version-specific contents.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum Body {
    /// Version 0: a table of 240 program offsets and a graph of objects.
    V0(Bank0),
    /// Version 1: chunks (`ENVT`, `OSCT`, `RAND`, `SENS`, `INST`, `PMAP`, `PERC`, `LIST`).
    V1(Bank1),
}

/// A reference that the file stores as an offset. Version 1 links name an object by its index
/// among all objects of that kind in file order; version 0 links name an entry of
/// [`Bank0::objects`]. An offset that lands on no object is kept as `Raw`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum Link {
    /// Offset 0: nothing.
    #[default]
    Empty,
    /// Version 1: an `Inst` object.
    Inst(u32),
    /// Version 1: a `Perc` object.
    Perc(u32),
    /// Version 1: a `Pmap` object.
    Pmap(u32),
    /// Version 1: a `Rand` effect.
    Rand(u32),
    /// Version 1: a `Sens` effect.
    Sens(u32),
    /// Version 1: an envelope table of the first `ENVT` chunk (oscillator links only).
    Env(u32),
    /// Version 0: an entry of [`Bank0::objects`].
    Object(u32),
    /// An offset that names no parsed object (validators report it).
    Raw(u32),
}

/// One envelope point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct EnvPoint {
    /// Mode; a signed value > 10 ends the table (this point included).
    pub mode: u16,
    /// Duration.
    pub time: u16,
    /// Level.
    pub value: i16,
}

impl EnvPoint {
    /// Whether this point ends its table (`Ver0::getOscTableEndPtr`: signed mode > 10).
    pub fn ends_table(&self) -> bool {
        (self.mode as i16) > 10
    }
}

/// An envelope table: points up to and including the first terminator.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(transparent))]
pub struct Envelope {
    /// The points.
    pub points: Vec<EnvPoint>,
}

/// An oscillator (version 1 `Osci` entry of `OSCT`, version 0 `TOsc`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Oscillator {
    /// Parameter driven.
    pub target: u8,
    /// Bytes after `target`.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: [u8; 3],
    /// Rate.
    pub rate: F32,
    /// Attack table: version 1 [`Link::Env`] (offset 0 is the first table, not "none"),
    /// version 0 [`Link::Object`] or [`Link::Empty`].
    pub attack: Link,
    /// Release table, like `attack`.
    pub release: Link,
    /// Width / scale.
    pub width: F32,
    /// Vertex / offset.
    pub vertex: F32,
}

/// A random effect.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Rand {
    /// Parameter affected.
    pub target: u8,
    /// Bytes after `target`.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: [u8; 3],
    /// Base value.
    pub base: F32,
    /// Range.
    pub range: F32,
}

/// A sense effect (level follows key or velocity).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Sense {
    /// Parameter affected.
    pub target: u8,
    /// Register / sense type.
    pub register: u8,
    /// Key / max point.
    pub key: u8,
    /// Unused byte.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: u8,
    /// Start level.
    pub start: F32,
    /// End level.
    pub end: F32,
}

/// A velocity region: the wave a key plays up to `velocity`.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct VelocityRegion {
    /// Highest velocity answered (≤ 0x7F).
    pub velocity: u8,
    /// Bytes after `velocity`.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: [u8; 3],
    /// High half of the wave word (stored, ignored by the runtime).
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub bank: u16,
    /// Wave id in the WSYS.
    pub wave: u16,
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
}

// ---------------------------------------------------------------- version 1

/// A version-1 bank: its chunks in file order and any bytes after the last one.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Bank1 {
    /// Chunks in file order (the game looks them up by id).
    pub chunks: Vec<Chunk>,
    /// Bytes after the last chunk (fewer than a chunk header).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub tail: Vec<u8>,
}

/// One chunk and its alignment padding.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Chunk {
    /// Contents.
    pub data: ChunkData,
    /// `None`: zero padding to the next multiple of 4 (the normal case). `Some`: the padding
    /// bytes exactly as found — not all zero, or cut short by the end of the file.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pad: Option<Vec<u8>>,
}

impl Chunk {
    /// A chunk with zero padding.
    pub fn new(data: ChunkData) -> Self {
        Chunk { data, pad: None }
    }

    /// Padding length after data ending at file offset `end`.
    pub fn pad_len(&self, end: usize) -> usize {
        self.pad
            .as_ref()
            .map_or_else(|| gcio::padding_for(end, 4), Vec::len)
    }
}

/// A counted table (`u32 count`, entries) and any bytes after its last entry.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Table<T> {
    /// Entries.
    pub items: Vec<T>,
    /// Bytes between the last entry and the chunk end (IBNK-004 when present).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub tail: Vec<u8>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            items: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    /// A table without trailing bytes.
    pub fn new(items: Vec<T>) -> Self {
        Table {
            items,
            tail: Vec::new(),
        }
    }
}

/// Envelope tables (`ENVT`, no count word).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Envt {
    /// Tables, each ending with its terminator.
    pub tables: Vec<Envelope>,
    /// Bytes after the last terminated table (IBNK-009 when present).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub tail: Vec<u8>,
}

/// Chunk contents by id.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum ChunkData {
    /// `ENVT`.
    Envt(Envt),
    /// `OSCT`: `Osci` entries.
    Osct(Table<Oscillator>),
    /// `RAND`: `Rand` effects.
    Rand(Table<Rand>),
    /// `SENS`: `Sens` effects.
    Sens(Table<Sense>),
    /// `INST`: instruments.
    Inst(Table<Inst>),
    /// `PMAP`: percussion key maps.
    Pmap(Table<Pmap>),
    /// `PERC`: drum sets.
    Perc(Table<Perc>),
    /// `LIST`: program → `Inst`/`Perc`.
    List(Table<Link>),
    /// Any other chunk, verbatim.
    Unknown {
        /// Chunk id.
        id: [u8; 4],
        /// Chunk data.
        data: Vec<u8>,
    },
}

impl ChunkData {
    /// The chunk's four-character id.
    pub fn id(&self) -> [u8; 4] {
        match self {
            ChunkData::Envt(_) => *b"ENVT",
            ChunkData::Osct(_) => *b"OSCT",
            ChunkData::Rand(_) => *b"RAND",
            ChunkData::Sens(_) => *b"SENS",
            ChunkData::Inst(_) => *b"INST",
            ChunkData::Pmap(_) => *b"PMAP",
            ChunkData::Perc(_) => *b"PERC",
            ChunkData::List(_) => *b"LIST",
            ChunkData::Unknown { id, .. } => *id,
        }
    }
}

/// A version-1 instrument.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Inst {
    /// Indices into `OSCT` (at most 2, IBNK-010).
    pub oscillators: Vec<u32>,
    /// `Rand`/`Sens` effects.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub effects: Vec<Link>,
    /// Key regions, ascending by high key.
    pub keys: Vec<KeyRegion>,
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
}

/// A version-1 key region.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct KeyRegion {
    /// Highest key (top byte of the region word).
    pub high_key: u8,
    /// Low three bytes of the region word.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: [u8; 3],
    /// Velocity regions, ascending.
    pub velocities: Vec<VelocityRegion>,
}

/// A version-1 percussion key (`Pmap`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Pmap {
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Pan 0..=127 (÷127 at runtime).
    pub pan: u8,
    /// Unused byte.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub unused: u8,
    /// Release time.
    pub release: u16,
    /// `Rand`/`Sens` effects.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub effects: Vec<Link>,
    /// Velocity regions, ascending.
    pub velocities: Vec<VelocityRegion>,
}

/// A version-1 drum set: one [`Link::Pmap`] (or [`Link::Empty`]) per key.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Perc {
    /// Per-key links (at most 0x80).
    pub keys: Vec<Link>,
}

// ---------------------------------------------------------------- version 0

/// Number of program slots in a version-0 bank block.
pub const SLOTS0: usize = 0xF0;
/// First version-0 drum-set program (`bank->setInst(i + 0xE4, …)`).
pub const FIRST_PERC0: usize = 0xE4;

/// A version-0 bank: the program table and every object reachable from it, in file order.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Bank0 {
    /// Bank-block magic (`BANK`).
    pub magic: [u8; 4],
    /// 240 program slots: 0..0x80 instruments, 0xE4..0xF0 drum sets.
    pub slots: Vec<Link>,
    /// Objects in file order.
    pub objects: Vec<Placed>,
    /// Bytes after the last object.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub tail: Vec<u8>,
}

/// An object and the bytes between the previous object's end and its start.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Placed {
    /// Filler before the object (alignment padding).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub gap: Vec<u8>,
    /// The object.
    pub object: Object,
}

/// A version-0 object.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
pub enum Object {
    /// `TInst`.
    Inst(Inst0),
    /// `TPerc`.
    Perc(Perc0),
    /// `TPmap`.
    Pmap(Pmap0),
    /// `TKeymap`.
    Keymap(Keymap0),
    /// `TVmap`.
    Vmap(VelocityRegion),
    /// `TOsc`.
    Osc(Oscillator),
    /// `TRandEffect`.
    Rand(Rand),
    /// `TSenseEffect`.
    Sense(Sense),
    /// An envelope table.
    Env(Envelope),
}

/// A version-0 instrument (`TInst`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Inst0 {
    /// Magic (`INST` in known banks).
    pub magic: [u8; 4],
    /// Unknown word at 0x04.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub unknown: u32,
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Oscillators.
    pub osc: [Link; 2],
    /// Random effects.
    pub rand: [Link; 2],
    /// Sense effects.
    pub sense: [Link; 2],
    /// Key maps, ascending by high key.
    pub keys: Vec<Link>,
}

/// A version-0 key map (`TKeymap`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Keymap0 {
    /// Highest key.
    pub high_key: u8,
    /// Bytes after `high_key`.
    #[cfg_attr(feature = "json", serde(default, skip_serializing_if = "is_default"))]
    pub pad: [u8; 3],
    /// Velocity regions (`Vmap` objects).
    pub velocities: Vec<Link>,
}

/// A version-0 percussion key (`TPmap`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Pmap0 {
    /// Volume factor.
    pub volume: F32,
    /// Pitch factor.
    pub pitch: F32,
    /// Random effects.
    pub rand: [Link; 2],
    /// Velocity regions (`Vmap` objects).
    pub velocities: Vec<Link>,
}

/// A version-0 drum set (`TPerc`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Perc0 {
    /// `PERC`, or `PER2` with pan and release tables.
    pub magic: [u8; 4],
    /// The 0x84 bytes after the magic.
    pub unknown: Vec<u8>,
    /// 128 per-key `Pmap` links.
    pub keys: Vec<Link>,
    /// `PER2` only: 128 signed pans (÷127 at runtime).
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub pan: Vec<i8>,
    /// `PER2` only: 128 release times.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub release: Vec<u16>,
}

impl Perc0 {
    /// Whether the pan and release tables exist (`PER2`).
    pub fn has_pan_release(&self) -> bool {
        &self.magic == b"PER2"
    }
}

macro_rules! kind_items {
    ($($(#[$doc:meta])* $name:ident, $one:ident: $variant:ident => $t:ty;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> impl Iterator<Item = &$t> + '_ {
            self.chunks
                .iter()
                .filter_map(|c| match &c.data {
                    ChunkData::$variant(t) => Some(t.items.iter()),
                    _ => None,
                })
                .flatten()
        }

        #[doc = concat!("Entry `i` of [`Self::", stringify!($name), "`], found chunk by chunk.")]
        pub fn $one(&self, i: u32) -> Option<&$t> {
            let mut i = i as usize;
            for c in &self.chunks {
                if let ChunkData::$variant(t) = &c.data {
                    match t.items.get(i) {
                        Some(x) => return Some(x),
                        None => i -= t.items.len(),
                    }
                }
            }
            None
        }
    )*};
}

impl Bank1 {
    kind_items! {
        /// Every `Inst` in file order ([`Link::Inst`] indexes this sequence).
        insts, inst: Inst => Inst;
        /// Every `Perc` in file order.
        percs, perc: Perc => Perc;
        /// Every `Pmap` in file order.
        pmaps, pmap: Pmap => Pmap;
        /// Every `Rand` effect in file order.
        rands, rand: Rand => Rand;
        /// Every `Sens` effect in file order.
        senses, sense: Sens => Sense;
    }

    /// The first chunk with `id`, as the game's `findChunk` picks it.
    pub fn chunk(&self, id: &[u8; 4]) -> Option<&ChunkData> {
        self.chunks.iter().map(|c| &c.data).find(|d| &d.id() == id)
    }

    /// Program list (first `LIST`).
    pub fn list(&self) -> &[Link] {
        match self.chunk(b"LIST") {
            Some(ChunkData::List(t)) => &t.items,
            _ => &[],
        }
    }

    /// Oscillators (first `OSCT`; `Inst` oscillator indices point here).
    pub fn oscillators(&self) -> &[Oscillator] {
        match self.chunk(b"OSCT") {
            Some(ChunkData::Osct(t)) => &t.items,
            _ => &[],
        }
    }

    /// Oscillators of every `OSCT`, for editing.
    pub fn oscillators_mut(&mut self) -> impl Iterator<Item = &mut Oscillator> + '_ {
        self.chunks
            .iter_mut()
            .filter_map(|c| match &mut c.data {
                ChunkData::Osct(t) => Some(t.items.iter_mut()),
                _ => None,
            })
            .flatten()
    }

    /// Envelope tables (first `ENVT`; [`Link::Env`] indexes these).
    pub fn envelopes(&self) -> &[Envelope] {
        match self.chunk(b"ENVT") {
            Some(ChunkData::Envt(e)) => &e.tables,
            _ => &[],
        }
    }
}

impl Bank0 {
    /// The object a link names, if it is a [`Link::Object`] in range.
    pub fn object(&self, link: &Link) -> Option<&Object> {
        match *link {
            Link::Object(i) => self.objects.get(i as usize).map(|p| &p.object),
            _ => None,
        }
    }
}
