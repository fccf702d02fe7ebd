//! The zero-copy view: the header and where each resource, block and texture lies, borrowed
//! from the input; [`to_model`] types the blocks.

use gcio::{Context, Error, F32, Limits, Reader, Result};

use crate::model::{
    BLOCK_HEADER_SIZE, Block, ColorKey, HEADER_SIZE, Jpc, Part, RESOURCE_HEADER_SIZE, Resource,
    TEX1_HEADER_SIZE, TEX1_NAME_SIZE, Texture, Ty, VERSION, Value, schema,
};

/// A block's place: its tag and bytes (header included).
#[derive(Debug, Clone, PartialEq)]
pub struct BlockView<'a> {
    /// File offset of the block.
    pub offset: usize,
    /// The tag.
    pub tag: [u8; 4],
    /// The block's bytes, header included.
    pub bytes: &'a [u8],
}

/// A resource's place: its header fields and blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceView<'a> {
    /// File offset of the resource header.
    pub offset: usize,
    /// Effect id.
    pub id: u16,
    /// FLD1 count of the header.
    pub field_count: u8,
    /// KFA1 count of the header.
    pub key_count: u8,
    /// TDB1 index count of the header.
    pub texture_count: u8,
    /// The header's last byte.
    pub pad: u8,
    /// The blocks.
    pub blocks: Vec<BlockView<'a>>,
}

/// A parsed container over borrowed bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct View<'a> {
    /// The texture table's offset (header word at 0x0C).
    pub texture_offset: usize,
    /// The effects.
    pub resources: Vec<ResourceView<'a>>,
    /// Bytes between the last effect and the texture table.
    pub gap: &'a [u8],
    /// Each TEX1 block (offset, bytes).
    pub textures: Vec<(usize, &'a [u8])>,
    /// Bytes after the last texture.
    pub trailer: &'a [u8],
}

/// True when `data` starts with the `JPAC2-10` version tag.
pub fn sniff(data: &[u8]) -> bool {
    data.get(..8) == Some(&VERSION[..])
}

/// A `tag, size` block header at `at`: the size counts the header, and the block must end by
/// `end`.
fn block<'a>(r: &Reader<'a>, at: usize, end: usize, what: &str) -> Result<([u8; 4], &'a [u8])> {
    let tag: [u8; 4] = r.array(at).with_context(|| what.to_owned())?;
    let size = r.u32(at + 4).with_context(|| what.to_owned())? as usize;
    if size < BLOCK_HEADER_SIZE || at.saturating_add(size) > end {
        return Err(Error::invalid(
            at as u64,
            format!(
                "{} block of {size} bytes at {at:#x} does not fit between 8 bytes and {end:#x}",
                String::from_utf8_lossy(&tag)
            ),
        )
        .context(what.to_owned()));
    }
    Ok((tag, r.bytes(at, size).with_context(|| what.to_owned())?))
}

impl<'a> View<'a> {
    /// Walks the header, every resource's blocks and the TEX1 table; `limits` bound the
    /// resource, block and texture lists.
    pub(crate) fn parse_with(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
        let r = Reader::new(data);
        r.expect_magic(0, &VERSION).context("JPC header")?;
        let resource_count = r.u16(8).context("JPC header")?;
        let texture_count = r.u16(0x0A).context("JPC header")?;
        let texture_offset = r.u32(0x0C).context("JPC header")? as usize;
        if texture_offset < HEADER_SIZE || texture_offset > data.len() {
            return Err(Error::invalid(
                0x0C,
                format!(
                    "texture table offset {texture_offset:#x} outside 0x10..={:#x}",
                    data.len()
                ),
            )
            .context("JPC header"));
        }
        limits.check_elements(u64::from(resource_count), 8)?;
        let mut resources = Vec::with_capacity(usize::from(resource_count));
        let mut at = HEADER_SIZE;
        for i in 0..resource_count {
            let what = format!("resource {i}");
            if at + RESOURCE_HEADER_SIZE > texture_offset {
                return Err(Error::invalid(
                    at as u64,
                    format!(
                        "resource header at {at:#x} runs into the textures at {texture_offset:#x}"
                    ),
                )
                .context(what));
            }
            let id = r.u16(at).context(&what)?;
            let count = r.u16(at + 2).context(&what)?;
            limits.check_elements(u64::from(count), at as u64 + 2)?;
            let mut blocks = Vec::with_capacity(usize::from(count));
            let start = at;
            at += RESOURCE_HEADER_SIZE;
            for j in 0..count {
                let (tag, bytes) =
                    block(&r, at, texture_offset, &format!("resource {i} block {j}"))?;
                blocks.push(BlockView {
                    offset: at,
                    tag,
                    bytes,
                });
                at += bytes.len();
            }
            resources.push(ResourceView {
                offset: start,
                id,
                field_count: r.u8(start + 4).context(&what)?,
                key_count: r.u8(start + 5).context(&what)?,
                texture_count: r.u8(start + 6).context(&what)?,
                pad: r.u8(start + 7).context(&what)?,
                blocks,
            });
        }
        let gap = r.bytes(at, texture_offset - at).context("gap")?;
        limits.check_elements(u64::from(texture_count), 0x0A)?;
        let mut textures = Vec::with_capacity(usize::from(texture_count));
        let mut at = texture_offset;
        for i in 0..texture_count {
            let what = format!("texture {i}");
            let (tag, bytes) = block(&r, at, data.len(), &what)?;
            if &tag != b"TEX1" || bytes.len() < TEX1_HEADER_SIZE {
                return Err(Error::invalid(
                    at as u64,
                    format!(
                        "expected a TEX1 block of at least 32 bytes, found {} of {}",
                        String::from_utf8_lossy(&tag),
                        bytes.len()
                    ),
                )
                .context(what));
            }
            textures.push((at, bytes));
            at += bytes.len();
        }
        let trailer = r.rest(at).context("trailer")?;
        Ok(View {
            texture_offset,
            resources,
            gap,
            textures,
            trailer,
        })
    }
}

/// The head values of `bytes` (a block's body) per `schema`.
fn head(body: &[u8], schema: &[(&str, Ty)]) -> Option<(Vec<Value>, usize)> {
    let r = Reader::new(body);
    let mut at = 0;
    let mut out = Vec::with_capacity(schema.len());
    for (_, ty) in schema {
        out.push(match ty {
            Ty::U8 => Value::U8(r.u8(at).ok()?),
            Ty::I8 => Value::I8(r.i8(at).ok()?),
            Ty::U16 => Value::U16(r.u16(at).ok()?),
            Ty::I16 => Value::I16(r.u16(at).ok()? as i16),
            Ty::U32 => Value::U32(r.u32(at).ok()?),
            Ty::F32 => Value::F32(F32::from_bits(r.u32(at).ok()?)),
        });
        at += ty.size();
    }
    Some((out, at))
}

fn f32s(b: &[u8]) -> Vec<F32> {
    b.chunks_exact(4)
        .filter_map(|c| {
            c.try_into()
                .ok()
                .map(|w| F32::from_bits(u32::from_be_bytes(w)))
        })
        .collect()
}

/// The parts after a BSP1 head: texture-matrix and texture-index animations, then the colour
/// tables at their offsets, with alignment between; `None` when the tables do not fit in order.
fn bsp1_parts(block: &Block, bytes: &[u8], head_end: usize) -> Option<Vec<Part>> {
    let get = |n: &str| block.field(n).map(Value::as_u32).unwrap_or(0) as usize;
    let mut parts = Vec::new();
    let mut cur = head_end;
    let take = |cur: usize, n: usize| bytes.get(cur..cur.checked_add(n)?);
    if get("flags") & 0x0100_0000 != 0 {
        parts.push(Part::F32s(f32s(take(cur, 40)?)));
        cur += 40;
    }
    if get("tex_flags") & 1 != 0 {
        let n = get("tex_anim_count");
        parts.push(Part::U8s(take(cur, n)?.to_vec()));
        cur += n;
    }
    let mut tables = Vec::new();
    if get("color_flags") & 2 != 0 {
        tables.push((get("color_prm_anim_offset"), get("color_prm_anim_count")));
    }
    if get("color_flags") & 8 != 0 {
        tables.push((get("color_env_anim_offset"), get("color_env_anim_count")));
    }
    tables.sort_unstable();
    for (off, count) in tables {
        let pad = take(cur, off.checked_sub(cur)?)?;
        if !pad.is_empty() {
            parts.push(Part::Pad(pad.to_vec()));
        }
        let keys = take(off, count * 6)?
            .chunks_exact(6)
            .map(|c| {
                let w = |i: usize| c.get(i).copied().unwrap_or(0);
                ColorKey {
                    frame: u16::from_be_bytes([w(0), w(1)]),
                    rgba: u32::from_be_bytes([w(2), w(3), w(4), w(5)]),
                }
            })
            .collect();
        parts.push(Part::Colors(keys));
        cur = off + count * 6;
    }
    let rest = bytes.get(cur..)?;
    if !rest.is_empty() {
        parts.push(Part::Pad(rest.to_vec()));
    }
    Some(parts)
}

/// A block typed: its head per schema and its parts by tag. What does not fit a known layout
/// is kept as [`Part::Bytes`] (and reported by the validator).
pub(crate) fn type_block(tag: [u8; 4], bytes: &[u8], texture_count: u8) -> Block {
    let body = bytes.get(BLOCK_HEADER_SIZE..).unwrap_or(&[]);
    let (fields, used) = head(body, schema(&tag)).unwrap_or_default();
    let mut block = Block {
        tag,
        fields,
        parts: Vec::new(),
    };
    let head_end = BLOCK_HEADER_SIZE + used;
    let rest = bytes.get(head_end..).unwrap_or(&[]);
    let split = |n: usize, first: Part| -> Option<Vec<Part>> {
        let tail = rest.get(n..)?;
        let mut v = vec![first];
        if !tail.is_empty() {
            v.push(Part::Pad(tail.to_vec()));
        }
        Some(v)
    };
    let typed = match &tag {
        b"BSP1" if !block.fields.is_empty() => bsp1_parts(&block, bytes, head_end),
        b"KFA1" if !block.fields.is_empty() => {
            let n = block.field("key_count").map(Value::as_u32).unwrap_or(0) as usize * 16;
            rest.get(..n).and_then(|k| split(n, Part::F32s(f32s(k))))
        }
        b"TDB1" => {
            let n = (usize::from(texture_count) * 2).min(rest.len() / 2 * 2);
            let idx = rest
                .get(..n)
                .unwrap_or(&[])
                .chunks_exact(2)
                .map(|c| {
                    u16::from_be_bytes([
                        c.first().copied().unwrap_or(0),
                        c.get(1).copied().unwrap_or(0),
                    ])
                })
                .collect();
            split(n, Part::U16s(idx))
        }
        _ if rest.is_empty() => Some(Vec::new()),
        _ => None,
    };
    block.parts = typed.unwrap_or_else(|| vec![Part::Bytes(rest.to_vec())]);
    block
}

/// The owned model of a view (every block typed, every texture's BTI parsed).
pub(crate) fn to_model(v: &View<'_>, limits: &Limits) -> Result<Jpc> {
    let total = v.texture_offset + v.textures.iter().map(|(_, b)| b.len()).sum::<usize>();
    limits.check_alloc((total + v.trailer.len()) as u64, 1, 0)?;
    let resources = v
        .resources
        .iter()
        .map(|r| Resource {
            id: r.id,
            field_count: r.field_count,
            key_count: r.key_count,
            texture_count: r.texture_count,
            pad: r.pad,
            blocks: r
                .blocks
                .iter()
                .map(|b| type_block(b.tag, b.bytes, r.texture_count))
                .collect(),
        })
        .collect();
    let mut textures = Vec::with_capacity(v.textures.len());
    for (i, (at, bytes)) in v.textures.iter().enumerate() {
        let r = Reader::new(bytes);
        let what = || format!("texture {i} at {at:#x}");
        let field = r.bytes(0x0C, TEX1_NAME_SIZE).with_context(what)?;
        let nul = field.iter().position(|&b| b == 0).unwrap_or(field.len());
        let (name, name_rest) = field.split_at(nul);
        let image = bytes.get(TEX1_HEADER_SIZE..).unwrap_or(&[]);
        textures.push(Texture {
            unknown_08: r.u32(8).with_context(what)?,
            name: name.to_vec(),
            name_rest: name_rest.to_vec(),
            bti: j3d_bmd::Bti::parse_with(image, limits).with_context(what)?,
        });
    }
    Ok(Jpc {
        resources,
        gap: v.gap.to_vec(),
        textures,
        trailer: v.trailer.to_vec(),
    })
}
