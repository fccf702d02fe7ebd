//! Model → bytes. Offsets, counts and sizes are recomputed from the model; everything else
//! (object order, padding, unknown words, trailing bytes) is written as stored, so an unedited
//! parsed bank comes back byte for byte.

use gcio::{Error, Result, Writer, padding_for};

use crate::model::*;
use crate::view::{BANK0_END, HEADER_SIZE};
use crate::{F32, raw};

impl Bank {
    /// Serialises the bank.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut w = Writer::new();
        w.bytes(b"IBNK");
        let size = w.reserve_u32();
        w.i32(self.id).u32(self.version()).bytes(&self.reserved);
        match &self.body {
            Body::V0(b) => write0(b, &mut w)?,
            Body::V1(b) => write1(b, &mut w)?,
        }
        let len = w.position() as i64;
        let stored = u32::try_from(len - self.size_delta).map_err(|_| {
            Error::invalid(4, format!("size delta {} does not fit", self.size_delta))
        })?;
        w.fix(size, u64::from(stored))?;
        Ok(w.into_vec())
    }
}

fn bad(what: String) -> Error {
    Error::without_offset(gcio::ErrorKind::Invalid(what))
}

fn count(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| bad(format!("count {n} does not fit in 32 bits")))
}

fn pick(table: &[u32], i: u32, what: &str) -> Result<u32> {
    table
        .get(i as usize)
        .copied()
        .ok_or_else(|| bad(format!("link to {what} {i}, but there are {}", table.len())))
}

fn fl(w: &mut Writer, v: F32) {
    w.u32(v.bits());
}

fn velocity(w: &mut Writer, v: &VelocityRegion) {
    w.u8(v.velocity).bytes(&v.pad).u16(v.bank).u16(v.wave);
    fl(w, v.volume);
    fl(w, v.pitch);
}

fn oscillator(w: &mut Writer, o: &Oscillator, attack: u32, release: u32) {
    w.u8(o.target).bytes(&o.pad);
    fl(w, o.rate);
    w.u32(attack).u32(release);
    fl(w, o.width);
    fl(w, o.vertex);
}

fn rand(w: &mut Writer, r: &Rand) {
    w.u8(r.target).bytes(&r.pad);
    fl(w, r.base);
    fl(w, r.range);
}

fn sense(w: &mut Writer, s: &Sense) {
    w.u8(s.target).u8(s.register).u8(s.key).u8(s.pad);
    fl(w, s.start);
    fl(w, s.end);
}

fn envelope(w: &mut Writer, e: &Envelope) {
    for p in &e.points {
        w.u16(p.mode).u16(p.time).i16(p.value);
    }
}

// ---------------------------------------------------------------- version 1

/// File offsets of every version-1 object, by kind, in file order.
#[derive(Default)]
pub(crate) struct Layout1 {
    pub(crate) inst: Vec<u32>,
    pub(crate) perc: Vec<u32>,
    pub(crate) pmap: Vec<u32>,
    rand: Vec<u32>,
    sens: Vec<u32>,
    /// Table offsets relative to the first `ENVT`'s data.
    pub(crate) env: Option<Vec<u32>>,
}

impl Layout1 {
    fn offset(&self, l: &Link) -> Result<u32> {
        match *l {
            Link::Empty => Ok(0),
            Link::Raw(x) => Ok(x),
            Link::Inst(i) => pick(&self.inst, i, "Inst"),
            Link::Perc(i) => pick(&self.perc, i, "Perc"),
            Link::Pmap(i) => pick(&self.pmap, i, "Pmap"),
            Link::Rand(i) => pick(&self.rand, i, "Rand"),
            Link::Sens(i) => pick(&self.sens, i, "Sens"),
            Link::Env(i) => pick(self.env.as_deref().unwrap_or_default(), i, "envelope"),
            Link::Object(i) => Err(bad(format!(
                "version-0 object link {i} in a version-1 bank"
            ))),
        }
    }
}

/// Byte size of a version-1 `Inst`.
pub(crate) fn inst_size(i: &Inst) -> usize {
    let keys: usize = i.keys.iter().map(|k| 8 + 16 * k.velocities.len()).sum();
    4 + 4 + 4 * i.oscillators.len() + 4 + 4 * i.effects.len() + 4 + keys + 8
}

fn pmap_size(p: &Pmap) -> usize {
    size_of::<raw::PmapHead1>() + 4 + 4 * p.effects.len() + 4 + 16 * p.velocities.len()
}

fn perc_size(p: &Perc) -> usize {
    8 + 4 * p.keys.len()
}

/// Data size of a chunk, recording its objects' file offsets (`data` = file offset of the data).
fn layout_chunk(c: &ChunkData, data: usize, l: &mut Layout1) -> usize {
    fn objects<T>(items: &[T], data: usize, out: &mut Vec<u32>, size: fn(&T) -> usize) -> usize {
        let mut pos = 4;
        for it in items {
            out.push((data + pos) as u32);
            pos += size(it);
        }
        pos
    }
    match c {
        ChunkData::Envt(e) => {
            let mut pos = 0;
            let mut starts = Vec::with_capacity(e.tables.len());
            for t in &e.tables {
                starts.push(pos as u32);
                pos += 6 * t.points.len();
            }
            l.env.get_or_insert(starts);
            pos + e.tail.len()
        }
        ChunkData::Osct(t) => 4 + size_of::<raw::Osci>() * t.items.len() + t.tail.len(),
        ChunkData::Rand(t) => objects(&t.items, data, &mut l.rand, |_| 16) + t.tail.len(),
        ChunkData::Sens(t) => objects(&t.items, data, &mut l.sens, |_| 16) + t.tail.len(),
        ChunkData::Inst(t) => objects(&t.items, data, &mut l.inst, inst_size) + t.tail.len(),
        ChunkData::Pmap(t) => objects(&t.items, data, &mut l.pmap, pmap_size) + t.tail.len(),
        ChunkData::Perc(t) => objects(&t.items, data, &mut l.perc, perc_size) + t.tail.len(),
        ChunkData::List(t) => 4 + 4 * t.items.len() + t.tail.len(),
        ChunkData::Unknown { data: d, .. } => d.len(),
    }
}

/// File offset of each chunk and of the end of its data, and every object's offset, as
/// [`Bank::write`] lays them out.
pub(crate) fn layout1(b: &Bank1) -> (Vec<(usize, usize)>, Layout1) {
    let mut l = Layout1::default();
    let mut pos = HEADER_SIZE;
    let spans = b
        .chunks
        .iter()
        .map(|c| {
            let end = pos + 8 + layout_chunk(&c.data, pos + 8, &mut l);
            let span = (pos, end);
            pos = end + c.pad_len(end);
            span
        })
        .collect();
    (spans, l)
}

/// File offset of `program`'s entry in the program table (version 1 `LIST`, version 0 slots).
pub(crate) fn program_entry(bank: &Bank, program: u32) -> Option<u64> {
    let p = u64::from(program);
    match &bank.body {
        Body::V0(_) => Some(HEADER_SIZE as u64 + 4 + 4 * p),
        Body::V1(b) => {
            let (spans, _) = layout1(b);
            b.chunks
                .iter()
                .zip(spans)
                .find(|(c, _)| matches!(c.data, ChunkData::List(_)))
                .map(|(_, (start, _))| start as u64 + 12 + 4 * p)
        }
    }
}

/// File offset of every version-0 object, as [`Bank::write`] lays them out.
pub(crate) fn layout0(b: &Bank0) -> Vec<usize> {
    let mut pos = BANK0_END;
    b.objects
        .iter()
        .map(|p| {
            let at = pos + p.gap.len();
            pos = at + object_size(&p.object);
            at
        })
        .collect()
}

fn write1(b: &Bank1, w: &mut Writer) -> Result<()> {
    let mut l = Layout1::default();
    let mut pos = HEADER_SIZE;
    let mut sizes = Vec::with_capacity(b.chunks.len());
    for c in &b.chunks {
        let size = layout_chunk(&c.data, pos + 8, &mut l);
        sizes.push(size);
        pos += 8 + size + c.pad_len(pos + 8 + size);
    }
    for (c, size) in b.chunks.iter().zip(sizes) {
        w.bytes(&c.data.id()).u32(count(size)?);
        let start = w.position();
        chunk1(&c.data, &l, w)?;
        debug_assert_eq!(w.position() - start, size);
        match &c.pad {
            Some(p) => w.bytes(p),
            None => w.fill(0, padding_for(w.position(), 4)),
        };
    }
    w.bytes(&b.tail);
    Ok(())
}

fn links(w: &mut Writer, l: &Layout1, links: &[Link]) -> Result<()> {
    w.u32(count(links.len())?);
    for x in links {
        w.u32(l.offset(x)?);
    }
    Ok(())
}

fn chunk1(c: &ChunkData, l: &Layout1, w: &mut Writer) -> Result<()> {
    match c {
        ChunkData::Envt(e) => {
            e.tables.iter().for_each(|t| envelope(w, t));
            w.bytes(&e.tail);
        }
        ChunkData::Osct(t) => {
            w.u32(count(t.items.len())?);
            for o in &t.items {
                w.bytes(b"Osci");
                let (a, r) = (l.offset(&o.attack)?, l.offset(&o.release)?);
                oscillator(w, o, a, r);
            }
            w.bytes(&t.tail);
        }
        ChunkData::Rand(t) => {
            w.u32(count(t.items.len())?);
            for r in &t.items {
                w.bytes(b"Rand");
                rand(w, r);
            }
            w.bytes(&t.tail);
        }
        ChunkData::Sens(t) => {
            w.u32(count(t.items.len())?);
            for s in &t.items {
                w.bytes(b"Sens");
                sense(w, s);
            }
            w.bytes(&t.tail);
        }
        ChunkData::Inst(t) => {
            w.u32(count(t.items.len())?);
            for i in &t.items {
                w.bytes(b"Inst").u32(count(i.oscillators.len())?);
                i.oscillators.iter().for_each(|o| {
                    w.u32(*o);
                });
                links(w, l, &i.effects)?;
                w.u32(count(i.keys.len())?);
                for k in &i.keys {
                    w.u8(k.high_key).bytes(&k.pad);
                    w.u32(count(k.velocities.len())?);
                    k.velocities.iter().for_each(|v| velocity(w, v));
                }
                fl(w, i.volume);
                fl(w, i.pitch);
            }
            w.bytes(&t.tail);
        }
        ChunkData::Pmap(t) => {
            w.u32(count(t.items.len())?);
            for p in &t.items {
                w.bytes(b"Pmap");
                fl(w, p.volume);
                fl(w, p.pitch);
                w.u8(p.pan).u8(p.unused).u16(p.release);
                links(w, l, &p.effects)?;
                w.u32(count(p.velocities.len())?);
                p.velocities.iter().for_each(|v| velocity(w, v));
            }
            w.bytes(&t.tail);
        }
        ChunkData::Perc(t) => {
            w.u32(count(t.items.len())?);
            for p in &t.items {
                w.bytes(b"Perc");
                links(w, l, &p.keys)?;
            }
            w.bytes(&t.tail);
        }
        ChunkData::List(t) => {
            links(w, l, &t.items)?;
            w.bytes(&t.tail);
        }
        ChunkData::Unknown { data, .. } => {
            w.bytes(data);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- version 0

/// Byte size of a version-0 object.
pub(crate) fn object_size(o: &Object) -> usize {
    match o {
        Object::Inst(i) => size_of::<raw::InstHead0>() + 4 * i.keys.len(),
        Object::Perc(p) => {
            size_of::<raw::PercHead0>()
                + if p.has_pan_release() {
                    size_of::<raw::PercExt0>()
                } else {
                    0
                }
        }
        Object::Pmap(p) => size_of::<raw::PmapHead0>() + 4 * p.velocities.len(),
        Object::Keymap(k) => size_of::<raw::KeymapHead0>() + 4 * k.velocities.len(),
        Object::Vmap(_) => size_of::<raw::VeloRegion>(),
        Object::Osc(_) => size_of::<raw::Osc>(),
        Object::Rand(_) => size_of::<raw::Rand>(),
        Object::Sense(_) => size_of::<raw::Sense>(),
        Object::Env(e) => 6 * e.points.len(),
    }
}

fn offset0(offsets: &[u32], l: &Link) -> Result<u32> {
    match *l {
        Link::Empty => Ok(0),
        Link::Raw(x) => Ok(x),
        Link::Object(i) => pick(offsets, i, "object"),
        other => Err(bad(format!("version-1 link {other:?} in a version-0 bank"))),
    }
}

fn exact_len(what: &str, len: usize, want: usize) -> Result<()> {
    if len == want {
        Ok(())
    } else {
        Err(bad(format!("{what} has {len} entries, must have {want}")))
    }
}

fn write0(b: &Bank0, w: &mut Writer) -> Result<()> {
    exact_len("BANK slot table", b.slots.len(), SLOTS0)?;
    let mut offsets = Vec::with_capacity(b.objects.len());
    let mut pos = BANK0_END;
    for p in &b.objects {
        pos += p.gap.len();
        offsets.push(u32::try_from(pos).map_err(|_| bad(format!("offset {pos:#x} too large")))?);
        pos += object_size(&p.object);
    }
    let off = |l: &Link| offset0(&offsets, l);
    w.bytes(&b.magic);
    for s in &b.slots {
        w.u32(off(s)?);
    }
    for p in &b.objects {
        w.bytes(&p.gap);
        match &p.object {
            Object::Inst(i) => {
                w.bytes(&i.magic).u32(i.unknown);
                fl(w, i.volume);
                fl(w, i.pitch);
                for l in i.osc.iter().chain(&i.rand).chain(&i.sense) {
                    w.u32(off(l)?);
                }
                w.u32(count(i.keys.len())?);
                for l in &i.keys {
                    w.u32(off(l)?);
                }
            }
            Object::Perc(p) => {
                exact_len("Perc unknown bytes", p.unknown.len(), 0x84)?;
                exact_len("Perc keys", p.keys.len(), 128)?;
                let ext = if p.has_pan_release() { 128 } else { 0 };
                exact_len("Perc pan", p.pan.len(), ext)?;
                exact_len("Perc release", p.release.len(), ext)?;
                w.bytes(&p.magic).bytes(&p.unknown);
                for l in &p.keys {
                    w.u32(off(l)?);
                }
                p.pan.iter().for_each(|&x| {
                    w.i8(x);
                });
                p.release.iter().for_each(|&x| {
                    w.u16(x);
                });
            }
            Object::Pmap(p) => {
                fl(w, p.volume);
                fl(w, p.pitch);
                for l in &p.rand {
                    w.u32(off(l)?);
                }
                w.u32(count(p.velocities.len())?);
                for l in &p.velocities {
                    w.u32(off(l)?);
                }
            }
            Object::Keymap(k) => {
                w.u8(k.high_key).bytes(&k.pad);
                w.u32(count(k.velocities.len())?);
                for l in &k.velocities {
                    w.u32(off(l)?);
                }
            }
            Object::Vmap(v) => velocity(w, v),
            Object::Osc(o) => {
                let (a, r) = (off(&o.attack)?, off(&o.release)?);
                oscillator(w, o, a, r);
            }
            Object::Rand(r) => rand(w, r),
            Object::Sense(s) => sense(w, s),
            Object::Env(e) => envelope(w, e),
        }
    }
    w.bytes(&b.tail);
    Ok(())
}
