//! The owned model: the frame and the sections in file order — `pat1` (the animation's tag:
//! name, frame range, groups), `pai1` (the animation: length, loop flag, texture files, and per
//! pane or material the animated targets with their keys) — or kept as bytes when the magic is
//! unknown (`pah1` among them) or the layout is not the writer's. Offsets, counts and sizes are
//! derived by the writer.

use brlyt::Name;
use brlyt::frame::{Frame, SECTION_HEADER, SectionRef};
use gcio::{Context, Cursor, Error, F32, Reader, Result};

/// File magic.
pub const MAGIC: [u8; 4] = *b"RLAN";

/// A layout animation.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Brlan {
    /// What of the file header is not derived.
    pub frame: Frame,
    /// The sections in file order.
    pub sections: Vec<Section>,
}

/// One section.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Section {
    /// `pat1`: the tag (name, frame range, bound groups).
    Tag(Tag),
    /// `pai1`: the animation.
    Anim(Anim),
    /// A section kept as bytes.
    Raw(brlyt::model::Raw),
}

/// `pat1`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Tag {
    /// Order of the tag among the layout's animations.
    pub order: u16,
    /// Name of the animation.
    pub name: Name,
    /// Bytes the name takes before the groups when not the length + NUL padded to 4 (the
    /// tools write a 12-character name without its NUL); `None` derives it.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub name_field: Option<u32>,
    /// First frame of the tag's range.
    pub start: i16,
    /// Last frame.
    pub end: i16,
    /// Bit 0: bind to the groups' descendants too.
    pub flags: u8,
    /// Bytes after the flags.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: [u8; 3],
    /// The groups the animation binds to.
    pub groups: Vec<GroupRef>,
}

/// A group the tag binds to (20 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct GroupRef {
    /// Group name (16 bytes).
    pub name: Name,
    /// Flags byte.
    pub flags: u8,
    /// Bytes after it.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: [u8; 3],
}

/// `pai1`.
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Anim {
    /// Length in frames.
    pub frame_size: u16,
    /// Non-zero: the animation loops.
    pub looped: u8,
    /// Byte after the loop flag.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: u8,
    /// Texture files a texture pattern (`RLTP`) switches between, by index.
    pub files: Vec<Name>,
    /// What is animated, per pane or material.
    pub contents: Vec<Content>,
}

/// The animations of one pane or material.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Content {
    /// Pane or material name (20 bytes).
    pub name: Name,
    /// 0 pane, 1 material (the loader takes anything but 0 as a material).
    pub kind: u8,
    /// Bytes after the kind.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: [u8; 2],
    /// One entry per animation tag.
    pub infos: Vec<Info>,
}

/// One kind of animation of a pane or material.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Info {
    /// The tag: `RLPA` pane SRT, `RLVI` visibility, `RLVC` vertex colours, `RLMC` material
    /// colours, `RLTS` texture SRT, `RLTP` texture pattern, `RLIM` indirect SRT.
    pub tag: Name,
    /// Bytes after the target count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: [u8; 3],
    /// The animated targets.
    pub targets: Vec<Target>,
}

/// One animated value: which element and its keys.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct Target {
    /// Which matrix or texture map (texture SRT, pattern, indirect SRT); 0 otherwise.
    pub id: u8,
    /// Which element ([`crate::eval::target_name`]).
    pub target: u8,
    /// Byte after the curve type.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: u8,
    /// Bytes after the key count.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad2: [u8; 2],
    /// The keys.
    pub keys: Keys,
}

/// A target's keys: their curve type decides their form.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "json", serde(rename_all = "snake_case"))]
pub enum Keys {
    /// Curve type 1: held values (visibility, texture index).
    Step(Vec<StepKey>),
    /// Curve type 2: Hermite curves.
    Hermite(Vec<HermiteKey>),
}

impl Keys {
    /// The curve type word.
    pub fn curve(&self) -> u8 {
        match self {
            Keys::Step(_) => 1,
            Keys::Hermite(_) => 2,
        }
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        match self {
            Keys::Step(k) => k.len(),
            Keys::Hermite(k) => k.len(),
        }
    }

    /// True without keys.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The key frames in order.
    pub fn frames(&self) -> Vec<f32> {
        match self {
            Keys::Step(k) => k.iter().map(|k| k.frame.get()).collect(),
            Keys::Hermite(k) => k.iter().map(|k| k.frame.get()).collect(),
        }
    }
}

/// A step key (8 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct StepKey {
    /// Frame.
    pub frame: F32,
    /// Value held from this frame.
    pub value: u16,
    /// Bytes after the value.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "brlyt::json::is_zero")
    )]
    pub pad: u16,
}

/// A Hermite key (12 bytes): frame, value, slope per frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
pub struct HermiteKey {
    /// Frame.
    pub frame: F32,
    /// Value.
    pub value: F32,
    /// Slope (value change per frame) on both sides.
    pub slope: F32,
}

/// Why a section is kept as bytes.
#[derive(Debug, Clone, PartialEq)]
pub enum Kept {
    /// Typed.
    No,
    /// Its magic is not one the loader reads as typed here.
    Unknown,
    /// A known section that does not parse (the error).
    Broken(Error),
    /// A known section that parses but is not laid out as the writer lays it out.
    Layout,
}

impl Brlan {
    /// Parses `data` into the owned model with the default [`gcio::Limits`].
    pub fn parse(data: &[u8]) -> Result<Brlan> {
        Brlan::parse_with(data, &gcio::Limits::default())
    }

    /// Parses `data` into the owned model; `limits` bound the copied bytes.
    pub fn parse_with(data: &[u8], limits: &gcio::Limits) -> Result<Brlan> {
        Brlan::from_view(&crate::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view.
    pub fn from_view(v: &crate::View<'_>, limits: &gcio::Limits) -> Result<Brlan> {
        limits.check_alloc(v.data_len as u64, 1, 0)?;
        Ok(Brlan {
            frame: v.frame.to_frame(v.data_len),
            sections: v.frame.sections.iter().map(|s| decode(s).0).collect(),
        })
    }

    /// Parts kept as bytes rather than structure (raw sections, the header's extra bytes, the
    /// trailer), named like every model's `raw_parts()` in the workspace.
    pub fn raw_parts(&self) -> Vec<String> {
        self.frame.raw_parts(
            self.sections
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s {
                    Section::Raw(r) => Some((i, r)),
                    _ => None,
                }),
        )
    }

    /// The animation block (`pai1`).
    pub fn anim(&self) -> Option<&Anim> {
        self.sections.iter().find_map(|s| match s {
            Section::Anim(a) => Some(a),
            _ => None,
        })
    }

    /// The tag (`pat1`).
    pub fn tag(&self) -> Option<&Tag> {
        self.sections.iter().find_map(|s| match s {
            Section::Tag(t) => Some(t),
            _ => None,
        })
    }
}

impl Section {
    /// The section's magic.
    pub fn magic(&self) -> Vec<u8> {
        match self {
            Section::Tag(_) => b"pat1".to_vec(),
            Section::Anim(_) => b"pai1".to_vec(),
            Section::Raw(r) => r.magic.0.clone(),
        }
    }
}

/// Decodes one section: typed when it parses and the writer gives its bytes back, else kept.
pub(crate) fn decode(s: &SectionRef<'_>) -> (Section, Kept) {
    let raw = || {
        Section::Raw(brlyt::model::Raw {
            magic: Name(s.magic.to_vec()),
            body: s.bytes.get(SECTION_HEADER..).unwrap_or_default().to_vec(),
        })
    };
    match typed(s) {
        None => (raw(), Kept::Unknown),
        Some(Err(e)) => (raw(), Kept::Broken(e)),
        Some(Ok(t)) if crate::write::encode(&t).ok().as_deref() == Some(s.bytes) => (t, Kept::No),
        Some(Ok(_)) => (raw(), Kept::Layout),
    }
}

/// The typed form of a section whatever its layout (`None` for another magic).
pub(crate) fn typed(s: &SectionRef<'_>) -> Option<Result<Section>> {
    let r = Reader::with_base(s.bytes, s.offset as u64);
    let t = match &s.magic {
        b"pat1" => tag(&r).map(Section::Tag),
        b"pai1" => anim(&r).map(Section::Anim),
        _ => return None,
    };
    let name = String::from_utf8_lossy(&s.magic).into_owned();
    Some(t.map_err(|e| e.context(format!("`{name}` at {:#x}", s.offset))))
}

/// Bytes a tag name takes by default: itself and a NUL, padded to 4.
pub(crate) fn name_field_size(name: &Name) -> usize {
    (name.0.len() + 4) & !3
}

fn array<const N: usize>(c: &mut Cursor<'_>) -> Result<[u8; N]> {
    let mut out = [0; N];
    out.copy_from_slice(c.bytes(N)?);
    Ok(out)
}

fn at(base: usize, off: u32, r: &Reader<'_>, slot: usize) -> Result<usize> {
    base.checked_add(off as usize)
        .ok_or_else(|| Error::invalid(r.abs(slot), "offset overflows"))
}

fn tag(r: &Reader<'_>) -> Result<Tag> {
    let mut c = r.cursor(SECTION_HEADER);
    let order = c.u16()?;
    let n = usize::from(c.u16()?);
    let name_at = c.u32()? as usize;
    let groups_at = c.u32()? as usize;
    let start = c.i16()?;
    let end = c.i16()?;
    let flags = c.u8()?;
    let pad = array(&mut c)?;
    // The name runs to the groups (or the section end): NUL-padded, not always terminated.
    let stop = if groups_at > name_at {
        groups_at
    } else {
        r.len()
    };
    let field = r
        .bytes(name_at, stop.saturating_sub(name_at))
        .context("tag name")?;
    let name = Name::from_field(field);
    let name_field = (field.len() != name_field_size(&name)).then_some(field.len() as u32);
    let mut g = r.cursor(groups_at);
    let mut groups = Vec::with_capacity(n.min(r.len() / 20));
    for i in 0..n {
        let ctx = || format!("group {i}");
        groups.push(GroupRef {
            name: Name::from_field(g.bytes(16).with_context(ctx)?),
            flags: g.u8().with_context(ctx)?,
            pad: array(&mut g).with_context(ctx)?,
        });
    }
    Ok(Tag {
        order,
        name,
        name_field,
        start,
        end,
        flags,
        pad,
        groups,
    })
}

fn anim(r: &Reader<'_>) -> Result<Anim> {
    let mut c = r.cursor(SECTION_HEADER);
    let frame_size = c.u16()?;
    let looped = c.u8()?;
    let pad = c.u8()?;
    let nfiles = usize::from(c.u16()?);
    let ncont = usize::from(c.u16()?);
    let cont_at = c.u32()? as usize;
    let table = c.pos();
    let mut files = Vec::with_capacity(nfiles.min(r.len() / 4));
    for i in 0..nfiles {
        let slot = table + 4 * i;
        let off = r.u32(slot).with_context(|| format!("file {i}"))?;
        let s = r
            .cstr(at(table, off, r, slot)?)
            .with_context(|| format!("file {i}"))?;
        files.push(Name(s.to_vec()));
    }
    let mut contents = Vec::with_capacity(ncont.min(r.len() / 4));
    for i in 0..ncont {
        let slot = cont_at + 4 * i;
        let off = r.u32(slot).with_context(|| format!("content {i} offset"))? as usize;
        contents.push(content(r, off).with_context(|| format!("content {i}"))?);
    }
    Ok(Anim {
        frame_size,
        looped,
        pad,
        files,
        contents,
    })
}

fn content(r: &Reader<'_>, base: usize) -> Result<Content> {
    let mut c = r.cursor(base);
    let name = Name::from_field(c.bytes(20)?);
    let n = usize::from(c.u8()?);
    let kind = c.u8()?;
    let pad = array(&mut c)?;
    let mut infos = Vec::with_capacity(n);
    for i in 0..n {
        let slot = c.pos();
        let off = c.u32()?;
        infos.push(info(r, at(base, off, r, slot)?).with_context(|| format!("tag {i}"))?);
    }
    Ok(Content {
        name,
        kind,
        pad,
        infos,
    })
}

fn info(r: &Reader<'_>, base: usize) -> Result<Info> {
    let mut c = r.cursor(base);
    let tag = Name(c.bytes(4)?.to_vec());
    let n = usize::from(c.u8()?);
    let pad = array(&mut c)?;
    let mut targets = Vec::with_capacity(n);
    for i in 0..n {
        let slot = c.pos();
        let off = c.u32()?;
        targets.push(target(r, at(base, off, r, slot)?).with_context(|| format!("target {i}"))?);
    }
    Ok(Info { tag, pad, targets })
}

fn target(r: &Reader<'_>, base: usize) -> Result<Target> {
    let mut c = r.cursor(base);
    let id = c.u8()?;
    let target = c.u8()?;
    let curve = c.u8()?;
    let pad = c.u8()?;
    let n = usize::from(c.u16()?);
    let pad2 = array(&mut c)?;
    let slot = c.pos();
    let off = c.u32()?;
    let mut k = r.cursor(at(base, off, r, slot)?);
    let keys = match curve {
        1 => Keys::Step(
            (0..n)
                .map(|_| {
                    Ok(StepKey {
                        frame: F32::from_bits(k.u32()?),
                        value: k.u16()?,
                        pad: k.u16()?,
                    })
                })
                .collect::<Result<_>>()
                .context("step keys")?,
        ),
        2 => Keys::Hermite(
            (0..n)
                .map(|_| {
                    Ok(HermiteKey {
                        frame: F32::from_bits(k.u32()?),
                        value: F32::from_bits(k.u32()?),
                        slope: F32::from_bits(k.u32()?),
                    })
                })
                .collect::<Result<_>>()
                .context("Hermite keys")?,
        ),
        t => {
            return Err(Error::invalid(
                r.abs(base + 2),
                format!("curve type {t} is neither 1 (step) nor 2 (Hermite)"),
            ));
        }
    };
    Ok(Target {
        id,
        target,
        pad,
        pad2,
        keys,
    })
}
