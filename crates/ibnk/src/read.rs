//! View → owned model: the version-1 chunk walk with offset → [`Link`] resolution, and the
//! version-0 object-graph walk (bounded by `gcio::Visited`) that lays objects out in file order.

use std::collections::HashMap;

use gcio::{Context, Error, Limits, Reader, Result, Visited};
use zerocopy::byteorder::big_endian::U32;

use crate::model::*;
use crate::view::{self, BANK0_END, ChunkView, InstView, PercView, PmapView, View};
use crate::{F32, raw};

impl Bank {
    /// Parses a bank into the owned model with default [`Limits`].
    pub fn parse(data: &[u8]) -> Result<Bank> {
        Bank::parse_with(data, &Limits::default())
    }

    /// Parses a bank into the owned model, bounding element counts and graph size by `limits`.
    pub fn parse_with(data: &[u8], limits: &Limits) -> Result<Bank> {
        Bank::from_view(&view::parse_with(data, limits)?, limits)
    }

    /// The owned model of a parsed view (walks every object).
    pub fn from_view(v: &View<'_>, limits: &Limits) -> Result<Bank> {
        from_view(v, limits)
    }
}

fn from_view(v: &View<'_>, limits: &Limits) -> Result<Bank> {
    let data = v.reader().data();
    // What the model keeps as bytes (gaps, padding, unknown chunks, the tail) are disjoint
    // regions of the file, so the file's size bounds them together.
    limits.check_alloc(data.len() as u64, 1, 0)?;
    let h = v.header();
    let body = if v.version() == 0 {
        Body::V0(read0(v, limits).context("version 0")?)
    } else {
        Body::V1(read1(v, limits).context("version 1")?)
    };
    Ok(Bank {
        id: h.id.get(),
        reserved: h.reserved,
        size_delta: data.len() as i64 - i64::from(h.size.get()),
        body,
    })
}

fn f(v: zerocopy::byteorder::big_endian::F32) -> F32 {
    F32::from_bits(v.get().to_bits())
}

/// Chunk padding as the model keeps it: `None` when it is the normal zero padding.
fn padding(b: &[u8], end: usize) -> Option<Vec<u8>> {
    let normal = b.len() == gcio::padding_for(end, 4) && b.iter().all(|&x| x == 0);
    (!normal).then(|| b.to_vec())
}

pub(crate) fn velocity(v: &raw::VeloRegion) -> VelocityRegion {
    VelocityRegion {
        velocity: v.velocity,
        pad: v.pad,
        bank: v.bank.get(),
        wave: v.wave.get(),
        volume: f(v.volume),
        pitch: f(v.pitch),
    }
}

fn oscillator(o: &raw::Osc, attack: Link, release: Link) -> Oscillator {
    Oscillator {
        target: o.target,
        pad: o.pad,
        rate: f(o.rate),
        attack,
        release,
        width: f(o.width),
        vertex: f(o.vertex),
    }
}

fn rand(r: &raw::Rand) -> Rand {
    Rand {
        target: r.target,
        pad: r.pad,
        base: f(r.base),
        range: f(r.range),
    }
}

fn sense(s: &raw::Sense) -> Sense {
    Sense {
        target: s.target,
        register: s.register,
        key: s.key,
        pad: s.pad,
        start: f(s.start),
        end: f(s.end),
    }
}

fn envelope(points: &[raw::EnvPoint]) -> Envelope {
    Envelope {
        points: points
            .iter()
            .map(|p| EnvPoint {
                mode: p.mode.get(),
                time: p.time.get(),
                value: p.value.get(),
            })
            .collect(),
    }
}

fn raw_links(t: &[U32]) -> Vec<Link> {
    t.iter().map(|o| Link::Raw(o.get())).collect()
}

// ---------------------------------------------------------------- version 1

/// Object starts found so far: file offset → typed link.
#[derive(Default)]
struct Starts {
    objects: HashMap<u32, Link>,
    counts: [u32; 6],
}

impl Starts {
    fn add(&mut self, offset: u64, make: fn(u32) -> Link, kind: usize) {
        let n = self.counts.get(kind).copied().unwrap_or(0);
        if let Some(c) = self.counts.get_mut(kind) {
            *c += 1;
        }
        if let Ok(off) = u32::try_from(offset) {
            self.objects.entry(off).or_insert(make(n));
        }
    }

    fn resolve(&self, link: &mut Link) {
        if let Link::Raw(off) = *link {
            *link = match off {
                0 => Link::Empty,
                _ => self.objects.get(&off).copied().unwrap_or(Link::Raw(off)),
            };
        }
    }
}

fn read1(v: &View<'_>, limits: &Limits) -> Result<Bank1> {
    let mut chunks = Vec::new();
    let mut starts = Starts::default();
    let mut env_starts: Option<HashMap<u32, u32>> = None;
    let mut it = v.chunks();
    for c in &mut it {
        let c = c?;
        limits.check_elements(chunks.len() as u64 + 1, c.offset as u64)?;
        let name = String::from_utf8_lossy(&c.id).into_owned();
        let data = chunk1(&c, &mut starts, &mut env_starts, limits).context(&name)?;
        chunks.push(Chunk {
            data,
            pad: padding(c.pad, c.data_offset() + c.data.len()),
        });
    }
    let tail = v.reader().rest(it.position())?.to_vec();
    let env = env_starts.unwrap_or_default();
    let env_link = |l: &mut Link| {
        if let Link::Raw(off) = *l
            && let Some(&i) = env.get(&off)
        {
            *l = Link::Env(i);
        }
    };
    for c in &mut chunks {
        match &mut c.data {
            ChunkData::Osct(t) => t.items.iter_mut().for_each(|o| {
                env_link(&mut o.attack);
                env_link(&mut o.release);
            }),
            ChunkData::Inst(t) => t
                .items
                .iter_mut()
                .flat_map(|i| i.effects.iter_mut())
                .for_each(|l| starts.resolve(l)),
            ChunkData::Pmap(t) => t
                .items
                .iter_mut()
                .flat_map(|p| p.effects.iter_mut())
                .for_each(|l| starts.resolve(l)),
            ChunkData::Perc(t) => t
                .items
                .iter_mut()
                .flat_map(|p| p.keys.iter_mut())
                .for_each(|l| starts.resolve(l)),
            ChunkData::List(t) => t.items.iter_mut().for_each(|l| starts.resolve(l)),
            _ => {}
        }
    }
    Ok(Bank1 { chunks, tail })
}

const K_INST: usize = 0;
const K_PERC: usize = 1;
const K_PMAP: usize = 2;
const K_RAND: usize = 3;
const K_SENS: usize = 4;

fn chunk1(
    c: &ChunkView<'_>,
    starts: &mut Starts,
    env_starts: &mut Option<HashMap<u32, u32>>,
    limits: &Limits,
) -> Result<ChunkData> {
    let d = c.data;
    let tail = |from: usize| d.rest(from).map(<[u8]>::to_vec);
    Ok(match &c.id {
        b"ENVT" => {
            let mut tables = Vec::new();
            let mut pos = 0;
            let mut map = HashMap::new();
            while let Ok(points) = view::envelope_at(d, pos) {
                limits.check_elements(tables.len() as u64 + 1, d.abs(pos))?;
                map.insert(pos as u32, tables.len() as u32);
                tables.push(envelope(points));
                pos += 6 * points.len();
            }
            env_starts.get_or_insert(map);
            ChunkData::Envt(Envt {
                tables,
                tail: tail(pos)?,
            })
        }
        b"OSCT" => {
            let (t, end) = counted::<raw::Osci>(c, limits)?;
            let mut items = Vec::with_capacity(t.len());
            for (i, o) in t.iter().enumerate() {
                if &o.magic != b"Osci" {
                    return Err(Error::invalid(
                        d.abs(4 + i * 0x1C),
                        format!("entry {i}: magic {:?}, expected \"Osci\"", o.magic),
                    ));
                }
                let (a, r) = (o.osc.attack.get(), o.osc.release.get());
                items.push(oscillator(&o.osc, Link::Raw(a), Link::Raw(r)));
            }
            ChunkData::Osct(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"RAND" => {
            let (t, end) = counted::<raw::Rand1>(c, limits)?;
            let mut items = Vec::with_capacity(t.len());
            for (i, o) in t.iter().enumerate() {
                d.expect_magic(4 + i * 0x10, b"Rand")
                    .with_context(|| format!("entry {i}"))?;
                starts.add(d.abs(4 + i * 0x10), Link::Rand, K_RAND);
                items.push(rand(&o.rand));
            }
            ChunkData::Rand(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"SENS" => {
            let (t, end) = counted::<raw::Sens1>(c, limits)?;
            let mut items = Vec::with_capacity(t.len());
            for (i, o) in t.iter().enumerate() {
                d.expect_magic(4 + i * 0x10, b"Sens")
                    .with_context(|| format!("entry {i}"))?;
                starts.add(d.abs(4 + i * 0x10), Link::Sens, K_SENS);
                items.push(sense(&o.sense));
            }
            ChunkData::Sens(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"INST" => {
            let (items, end) = objects(d, limits, |pos| {
                let v = InstView::at(d, pos)?;
                starts.add(d.abs(pos), Link::Inst, K_INST);
                let mut keys = Vec::new();
                for k in v.keys() {
                    let k = k?;
                    let [high_key, a, b, c] = k.word.to_be_bytes();
                    keys.push(KeyRegion {
                        high_key,
                        pad: [a, b, c],
                        velocities: k.velocities.iter().map(velocity).collect(),
                    });
                }
                let inst = Inst {
                    oscillators: v.oscillators.iter().map(|o| o.get()).collect(),
                    effects: raw_links(v.effects),
                    keys,
                    volume: F32::from_bits(v.volume),
                    pitch: F32::from_bits(v.pitch),
                };
                Ok((inst, v.size))
            })?;
            ChunkData::Inst(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"PMAP" => {
            let (items, end) = objects(d, limits, |pos| {
                let v = PmapView::at(d, pos)?;
                starts.add(d.abs(pos), Link::Pmap, K_PMAP);
                let h = v.head;
                let p = Pmap {
                    volume: f(h.volume),
                    pitch: f(h.pitch),
                    pan: h.pan,
                    unused: h.unused,
                    release: h.release.get(),
                    effects: raw_links(v.effects),
                    velocities: v.velocities.iter().map(velocity).collect(),
                };
                Ok((p, v.size))
            })?;
            ChunkData::Pmap(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"PERC" => {
            let (items, end) = objects(d, limits, |pos| {
                let v = PercView::at(d, pos)?;
                starts.add(d.abs(pos), Link::Perc, K_PERC);
                Ok((
                    Perc {
                        keys: raw_links(v.keys),
                    },
                    v.size,
                ))
            })?;
            ChunkData::Perc(Table {
                items,
                tail: tail(end)?,
            })
        }
        b"LIST" => {
            let (t, end) = counted::<U32>(c, limits)?;
            ChunkData::List(Table {
                items: raw_links(t),
                tail: tail(end)?,
            })
        }
        _ => ChunkData::Unknown {
            id: c.id,
            data: d.data().to_vec(),
        },
    })
}

/// A chunk's counted table of fixed-size entries, its count bounded by `limits`.
fn counted<'a, T: zerocopy::FromBytes + zerocopy::Immutable + zerocopy::Unaligned>(
    c: &ChunkView<'a>,
    limits: &Limits,
) -> Result<(&'a [T], usize)> {
    let (t, end) = c.counted::<T>()?;
    limits.check_elements(t.len() as u64, c.data.abs(0))?;
    Ok((t, end))
}

/// Reads `count` back-to-back variable-size objects after a chunk's count word.
fn objects<T>(
    d: Reader<'_>,
    limits: &Limits,
    mut one: impl FnMut(usize) -> Result<(T, usize)>,
) -> Result<(Vec<T>, usize)> {
    let count = limits.check_elements(u64::from(d.u32(0)?), d.abs(0))?;
    // Every object takes at least 8 bytes, so the data length bounds the allocation.
    let mut items = Vec::with_capacity(count.min(d.len() / 8));
    let mut pos = 4;
    for i in 0..count {
        let (item, size) = one(pos).with_context(|| format!("object {i} at {:#x}", d.abs(pos)))?;
        items.push(item);
        pos += size;
    }
    Ok((items, pos))
}

// ---------------------------------------------------------------- version 0

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Inst,
    Perc,
    Pmap,
    Keymap,
    Vmap,
    Osc,
    Rand,
    Sense,
    Env,
}

fn children0(
    r: Reader<'_>,
    off: usize,
    kind: Kind,
    out: &mut std::collections::VecDeque<(u32, Kind)>,
) -> Result<()> {
    let mut add = |t: &[U32], k: Kind| out.extend(t.iter().map(|o| (o.get(), k)));
    match kind {
        Kind::Inst => {
            let v = view::Inst0View::at(r, off)?;
            add(&v.head.osc, Kind::Osc);
            add(&v.head.rand, Kind::Rand);
            add(&v.head.sense, Kind::Sense);
            add(v.keys, Kind::Keymap);
        }
        Kind::Perc => add(&view::Perc0View::at(r, off)?.head.keys, Kind::Pmap),
        Kind::Pmap => {
            let v = view::Pmap0View::at(r, off)?;
            add(&v.head.rand, Kind::Rand);
            add(v.velocities, Kind::Vmap);
        }
        Kind::Keymap => add(view::Keymap0View::at(r, off)?.velocities, Kind::Vmap),
        Kind::Osc => {
            let o = r.get::<raw::Osc>(off)?;
            add(&[o.attack, o.release], Kind::Env);
        }
        Kind::Vmap | Kind::Rand | Kind::Sense | Kind::Env => {}
    }
    Ok(())
}

/// Object kind of a program slot's target, chosen by magic (`PERC`/`PER2` = drum set).
fn slot_kind(r: Reader<'_>, off: usize) -> Result<Kind> {
    Ok(match &r.array::<4>(off)? {
        b"PERC" | b"PER2" => Kind::Perc,
        _ => Kind::Inst,
    })
}

fn read0(v: &View<'_>, limits: &Limits) -> Result<Bank0> {
    let r = v.reader();
    let block = v.bank_block()?;
    let mut found: Vec<(u32, Kind)> = Vec::new();
    let mut visited = Visited::new(*limits);
    // Breadth-first from the slots, so a program object keeps its slot kind.
    let mut work = std::collections::VecDeque::new();
    for (i, s) in block.slots.iter().enumerate() {
        let off = s.get();
        if off != 0 {
            let kind = slot_kind(r, off as usize).with_context(|| format!("program {i}"))?;
            work.push_back((off, kind));
        }
    }
    while let Some((off, kind)) = work.pop_front() {
        if off == 0 {
            continue;
        }
        // An object reached again keeps its first kind; a link expecting another kind is a
        // validator finding (IBNK-006/011), not a read error.
        if !visited.visit(u64::from(off))? {
            continue;
        }
        found.push((off, kind));
        children0(r, off as usize, kind, &mut work).with_context(|| format!("{kind:?}"))?;
    }
    // Objects in file order; a link's index is its target's position in this order.
    found.sort_unstable_by_key(|&(off, _)| off);
    let link = |o: u32| match o {
        0 => Link::Empty,
        _ => found
            .binary_search_by_key(&o, |&(off, _)| off)
            .map_or(Link::Raw(o), |i| Link::Object(i as u32)),
    };
    let links = |t: &[U32]| t.iter().map(|o| link(o.get())).collect::<Vec<_>>();
    let pair = |[a, b]: &[U32; 2]| [link(a.get()), link(b.get())];
    let mut objects = Vec::with_capacity(limits.check_elements(found.len() as u64, 0)?);
    let mut end = BANK0_END;
    for &(off, kind) in &found {
        let at = off as usize;
        let ctx = || format!("{kind:?} at {at:#x}");
        if at < end {
            return Err(Error::invalid(
                at as u64,
                format!("object overlaps the previous one (ends at {end:#x})"),
            ))
            .with_context(ctx);
        }
        let gap = r.bytes(end, at - end)?.to_vec();
        let object = match kind {
            Kind::Inst => {
                let v = view::Inst0View::at(r, at)?;
                let h = v.head;
                Object::Inst(Inst0 {
                    magic: h.magic,
                    unknown: h.unknown.get(),
                    volume: f(h.volume),
                    pitch: f(h.pitch),
                    osc: pair(&h.osc),
                    rand: pair(&h.rand),
                    sense: pair(&h.sense),
                    keys: links(v.keys),
                })
            }
            Kind::Perc => {
                let v = view::Perc0View::at(r, at)?;
                Object::Perc(Perc0 {
                    magic: v.head.magic,
                    unknown: v.head.unknown.to_vec(),
                    keys: links(&v.head.keys),
                    pan: v
                        .ext
                        .map_or(Vec::new(), |e| e.pan.iter().map(|&p| p as i8).collect()),
                    release: v
                        .ext
                        .map_or(Vec::new(), |e| e.release.iter().map(|x| x.get()).collect()),
                })
            }
            Kind::Pmap => {
                let v = view::Pmap0View::at(r, at)?;
                Object::Pmap(Pmap0 {
                    volume: f(v.head.volume),
                    pitch: f(v.head.pitch),
                    rand: pair(&v.head.rand),
                    velocities: links(v.velocities),
                })
            }
            Kind::Keymap => {
                let v = view::Keymap0View::at(r, at)?;
                Object::Keymap(Keymap0 {
                    high_key: v.head.high_key,
                    pad: v.head.pad,
                    velocities: links(v.velocities),
                })
            }
            Kind::Vmap => Object::Vmap(velocity(r.get(at)?)),
            Kind::Osc => {
                let o = r.get::<raw::Osc>(at)?;
                Object::Osc(oscillator(o, link(o.attack.get()), link(o.release.get())))
            }
            Kind::Rand => Object::Rand(rand(r.get(at)?)),
            Kind::Sense => Object::Sense(sense(r.get(at)?)),
            Kind::Env => Object::Env(envelope(view::envelope_at(r, at)?)),
        };
        end = at + crate::write::object_size(&object);
        objects.push(Placed { gap, object });
    }
    Ok(Bank0 {
        magic: block.magic,
        slots: links(&block.slots),
        objects,
        tail: r.rest(end)?.to_vec(),
    })
}
