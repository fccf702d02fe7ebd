//! Builders: one version-neutral [`Design`] (envelopes, oscillators, effects, instruments with
//! layered velocity regions, drum kits) turned into a bank of either version. Used by tests,
//! benches, the example and `samples/`.
//!
//! Version-1 banks use the chunk order of the game's tools (ENVT, OSCT, RAND, SENS, INST, PMAP,
//! PERC, LIST; an empty chunk is a count of 0, an empty ENVT four zero bytes). Version-0 banks
//! place each program's objects depth-first after the bank block, shared objects at their first
//! use, every object 4-byte aligned; drum kits move to programs 0xE4 + n, where the runtime reads
//! them.

use std::collections::HashMap;

use crate::F32;
use crate::model::*;

/// One velocity layer of a key region or drum key.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Highest velocity of the layer.
    pub velocity: u8,
    /// Wave id.
    pub wave: u16,
    /// Volume factor.
    pub volume: f32,
    /// Pitch factor.
    pub pitch: f32,
}

/// Shorthand for a [`Layer`].
pub fn layer(velocity: u8, wave: u16, volume: f32, pitch: f32) -> Layer {
    Layer {
        velocity,
        wave,
        volume,
        pitch,
    }
}

/// An effect shared by instruments and drum keys.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Random variation.
    Rand(Rand),
    /// Key / velocity sensitivity.
    Sense(Sense),
}

/// An oscillator naming envelopes by index into [`Design::envelopes`].
#[derive(Debug, Clone, PartialEq)]
pub struct OscDesign {
    /// Parameter driven (0 volume, 1 pitch).
    pub target: u8,
    /// Rate.
    pub rate: f32,
    /// Attack envelope index.
    pub attack: usize,
    /// Release envelope index.
    pub release: usize,
    /// Width.
    pub width: f32,
    /// Vertex.
    pub vertex: f32,
}

/// A melodic instrument.
#[derive(Debug, Clone, PartialEq)]
pub struct InstDesign {
    /// Volume factor.
    pub volume: f32,
    /// Pitch factor.
    pub pitch: f32,
    /// Oscillator indices (at most 2).
    pub oscillators: Vec<usize>,
    /// Effect indices into [`Design::effects`].
    pub effects: Vec<usize>,
    /// Key regions: (high key, velocity layers), ascending.
    pub keys: Vec<(u8, Vec<Layer>)>,
}

/// One key of a drum kit.
#[derive(Debug, Clone, PartialEq)]
pub struct DrumKey {
    /// Key number (< 0x80).
    pub key: u8,
    /// Volume factor.
    pub volume: f32,
    /// Pitch factor.
    pub pitch: f32,
    /// Pan 0..=127.
    pub pan: u8,
    /// Release time.
    pub release: u16,
    /// Effect indices (version 0 keeps the first two random effects).
    pub effects: Vec<usize>,
    /// Velocity layers.
    pub layers: Vec<Layer>,
}

/// A program: an instrument or a drum kit.
#[derive(Debug, Clone, PartialEq)]
pub enum ProgramDesign {
    /// Melodic instrument.
    Inst(InstDesign),
    /// Drum kit (keys ascending).
    Drums(Vec<DrumKey>),
}

/// A version-neutral bank description.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Design {
    /// Envelope tables (each ends with a terminator point).
    pub envelopes: Vec<Vec<EnvPoint>>,
    /// Oscillators.
    pub oscillators: Vec<OscDesign>,
    /// Effects.
    pub effects: Vec<Effect>,
    /// (program number, program), ascending by program.
    pub programs: Vec<(u32, ProgramDesign)>,
}

fn pt(mode: u16, time: u16, value: i16) -> EnvPoint {
    EnvPoint { mode, time, value }
}

fn region(l: &Layer) -> VelocityRegion {
    VelocityRegion {
        velocity: l.velocity,
        wave: l.wave,
        volume: F32::new(l.volume),
        pitch: F32::new(l.pitch),
        ..VelocityRegion::default()
    }
}

fn osc(o: &OscDesign, attack: Link, release: Link) -> Oscillator {
    Oscillator {
        target: o.target,
        rate: F32::new(o.rate),
        attack,
        release,
        width: F32::new(o.width),
        vertex: F32::new(o.vertex),
        ..Oscillator::default()
    }
}

/// A small realistic bank: piano (3 key regions × 2 velocity layers), strings (2 oscillators
/// sharing a release envelope), bass (3 layers), and a drum kit at program 3.
pub fn demo() -> Design {
    let rand = Rand {
        target: 1,
        base: F32::ONE,
        range: F32::new(0.02),
        ..Rand::default()
    };
    let sense = Sense {
        target: 0,
        register: 1,
        key: 0x7F,
        start: F32::new(0.6),
        end: F32::ONE,
        ..Sense::default()
    };
    let drum = |key, pan, release, layers| DrumKey {
        key,
        volume: 1.0,
        pitch: 1.0,
        pan,
        release,
        effects: if key == 38 { vec![0] } else { vec![] },
        layers,
    };
    Design {
        envelopes: vec![
            vec![pt(0, 2, 0x7FFF), pt(0, 400, 0x5000), pt(0xF, 0, 0)],
            vec![pt(0, 60, 0), pt(0xF, 0, 0)],
            vec![pt(1, 300, 0x7FFF), pt(0xE, 0, 0)],
        ],
        oscillators: vec![
            OscDesign {
                target: 0,
                rate: 1.0,
                attack: 0,
                release: 1,
                width: 1.0,
                vertex: 0.0,
            },
            OscDesign {
                target: 0,
                rate: 1.0,
                attack: 2,
                release: 1,
                width: 1.0,
                vertex: 0.0,
            },
        ],
        effects: vec![Effect::Rand(rand), Effect::Sense(sense)],
        programs: vec![
            (
                0,
                ProgramDesign::Inst(InstDesign {
                    volume: 1.0,
                    pitch: 1.0,
                    oscillators: vec![0],
                    effects: vec![1],
                    keys: vec![
                        (
                            47,
                            vec![layer(63, 0x01, 0.7, 1.0), layer(127, 0x02, 1.0, 1.0)],
                        ),
                        (
                            71,
                            vec![layer(63, 0x10, 0.7, 1.0), layer(127, 0x11, 1.0, 1.0)],
                        ),
                        (
                            127,
                            vec![layer(63, 0x20, 0.7, 1.0), layer(127, 0x21, 1.0, 1.0)],
                        ),
                    ],
                }),
            ),
            (
                1,
                ProgramDesign::Inst(InstDesign {
                    volume: 0.9,
                    pitch: 1.0,
                    oscillators: vec![1, 0],
                    effects: vec![0],
                    keys: vec![
                        (59, vec![layer(127, 0x30, 1.0, 1.0)]),
                        (127, vec![layer(127, 0x31, 1.0, 0.5)]),
                    ],
                }),
            ),
            (
                2,
                ProgramDesign::Inst(InstDesign {
                    volume: 0.8,
                    pitch: 2.0,
                    oscillators: vec![0],
                    effects: vec![],
                    keys: vec![(
                        127,
                        vec![
                            layer(40, 0x40, 0.5, 1.0),
                            layer(90, 0x41, 0.75, 1.0),
                            layer(127, 0x42, 1.0, 1.0),
                        ],
                    )],
                }),
            ),
            (
                3,
                ProgramDesign::Drums(vec![
                    drum(36, 64, 1000, vec![layer(127, 0x50, 1.0, 1.0)]),
                    drum(
                        38,
                        64,
                        1000,
                        vec![layer(80, 0x51, 0.8, 1.0), layer(127, 0x52, 1.0, 1.0)],
                    ),
                    drum(42, 40, 300, vec![layer(127, 0x53, 0.6, 1.0)]),
                    drum(46, 40, 2000, vec![layer(127, 0x54, 0.6, 1.0)]),
                    drum(49, 90, 4000, vec![layer(127, 0x55, 0.9, 0.98)]),
                ]),
            ),
        ],
    }
}

/// A larger bank for benches: `programs` instruments derived from [`demo`]'s, with
/// `regions` key regions of three velocity layers each, plus the drum kit.
pub fn orchestra(programs: u32, regions: u8) -> Design {
    let mut d = demo();
    let drums = d.programs.pop();
    d.programs.clear();
    let regions = regions.clamp(1, 0x80);
    let step = 0x80 / u16::from(regions);
    for p in 0..programs {
        let keys = (0..regions)
            .map(|r| {
                let high = if r + 1 == regions {
                    0x7F
                } else {
                    ((u16::from(r) + 1) * step - 1) as u8
                };
                let wave = (p as u16)
                    .wrapping_mul(0x100)
                    .wrapping_add(u16::from(r) * 3);
                let layers = vec![
                    layer(40, wave, 0.5, 1.0),
                    layer(90, wave.wrapping_add(1), 0.75, 1.0),
                    layer(127, wave.wrapping_add(2), 1.0, 1.0),
                ];
                (high, layers)
            })
            .collect();
        d.programs.push((
            p,
            ProgramDesign::Inst(InstDesign {
                volume: 1.0,
                pitch: 1.0,
                oscillators: vec![(p % 2) as usize],
                effects: vec![(p % 2) as usize],
                keys,
            }),
        ));
    }
    if let Some((_, kit)) = drums {
        d.programs.push((programs, kit));
    }
    d
}

fn header(id: i32, body: Body) -> Bank {
    Bank {
        id,
        reserved: [0; 16],
        size_delta: 8,
        body,
    }
}

impl Design {
    /// Every wave id the design uses, ascending and deduplicated.
    pub fn waves(&self) -> Vec<u16> {
        let mut w: Vec<u16> = self
            .programs
            .iter()
            .flat_map(|(_, p)| -> Vec<u16> {
                match p {
                    ProgramDesign::Inst(i) => i
                        .keys
                        .iter()
                        .flat_map(|(_, l)| l.iter().map(|l| l.wave))
                        .collect(),
                    ProgramDesign::Drums(d) => d
                        .iter()
                        .flat_map(|k| k.layers.iter().map(|l| l.wave))
                        .collect(),
                }
            })
            .collect();
        w.sort_unstable();
        w.dedup();
        w
    }

    /// A version-1 bank.
    pub fn to_v1(&self, id: i32) -> Bank {
        let (mut rands, mut senses, mut effect_links) = (Vec::new(), Vec::new(), Vec::new());
        for e in &self.effects {
            match e {
                Effect::Rand(r) => {
                    effect_links.push(Link::Rand(rands.len() as u32));
                    rands.push(r.clone());
                }
                Effect::Sense(s) => {
                    effect_links.push(Link::Sens(senses.len() as u32));
                    senses.push(s.clone());
                }
            }
        }
        let effects = |ix: &[usize]| -> Vec<Link> {
            ix.iter()
                .filter_map(|&i| effect_links.get(i).copied())
                .collect()
        };
        let (mut insts, mut pmaps, mut percs) = (Vec::new(), Vec::new(), Vec::new());
        let last = self.programs.iter().map(|(p, _)| *p + 1).max().unwrap_or(0);
        let mut list = vec![Link::Empty; last as usize];
        for (p, prog) in &self.programs {
            let link = match prog {
                ProgramDesign::Inst(i) => {
                    insts.push(Inst {
                        oscillators: i.oscillators.iter().map(|&o| o as u32).collect(),
                        effects: effects(&i.effects),
                        keys: i
                            .keys
                            .iter()
                            .map(|(high, layers)| KeyRegion {
                                high_key: *high,
                                pad: [0; 3],
                                velocities: layers.iter().map(region).collect(),
                            })
                            .collect(),
                        volume: F32::new(i.volume),
                        pitch: F32::new(i.pitch),
                    });
                    Link::Inst(insts.len() as u32 - 1)
                }
                ProgramDesign::Drums(keys) => {
                    let n = keys
                        .iter()
                        .map(|k| usize::from(k.key) + 1)
                        .max()
                        .unwrap_or(0);
                    let mut links = vec![Link::Empty; n];
                    for k in keys {
                        if let Some(slot) = links.get_mut(usize::from(k.key)) {
                            *slot = Link::Pmap(pmaps.len() as u32);
                        }
                        pmaps.push(Pmap {
                            volume: F32::new(k.volume),
                            pitch: F32::new(k.pitch),
                            pan: k.pan,
                            unused: 0,
                            release: k.release,
                            effects: effects(&k.effects),
                            velocities: k.layers.iter().map(region).collect(),
                        });
                    }
                    percs.push(Perc { keys: links });
                    Link::Perc(percs.len() as u32 - 1)
                }
            };
            if let Some(slot) = list.get_mut(*p as usize) {
                *slot = link;
            }
        }
        let envt = Envt {
            tables: self
                .envelopes
                .iter()
                .map(|p| Envelope { points: p.clone() })
                .collect(),
            tail: if self.envelopes.is_empty() {
                vec![0; 4]
            } else {
                Vec::new()
            },
        };
        let oscs = self
            .oscillators
            .iter()
            .map(|o| osc(o, Link::Env(o.attack as u32), Link::Env(o.release as u32)))
            .collect();
        let chunks = vec![
            ChunkData::Envt(envt),
            ChunkData::Osct(Table::new(oscs)),
            ChunkData::Rand(Table::new(rands)),
            ChunkData::Sens(Table::new(senses)),
            ChunkData::Inst(Table::new(insts)),
            ChunkData::Pmap(Table::new(pmaps)),
            ChunkData::Perc(Table::new(percs)),
            ChunkData::List(Table::new(list)),
        ];
        header(
            id,
            Body::V1(Bank1 {
                chunks: chunks.into_iter().map(Chunk::new).collect(),
                tail: Vec::new(),
            }),
        )
    }

    /// A version-0 bank (drum kits at programs 0xE4 + n).
    pub fn to_v0(&self, id: i32) -> Bank {
        let mut b = Layout0 {
            objects: Vec::new(),
            shared: HashMap::new(),
        };
        let mut slots = vec![Link::Empty; SLOTS0];
        let mut drums = FIRST_PERC0;
        for (p, prog) in &self.programs {
            match prog {
                ProgramDesign::Inst(i) => {
                    let me = b.push(Object::Inst(Inst0::default()));
                    let mut inst = Inst0 {
                        magic: *b"INST",
                        volume: F32::new(i.volume),
                        pitch: F32::new(i.pitch),
                        ..Inst0::default()
                    };
                    for (slot, &o) in inst.osc.iter_mut().zip(&i.oscillators) {
                        *slot = self.osc0(&mut b, o);
                    }
                    let (mut r, mut s) = (0, 0);
                    for &e in &i.effects {
                        match self.effects.get(e) {
                            Some(Effect::Rand(_)) if r < 2 => {
                                let l = self.effect0(&mut b, e);
                                if let Some(slot) = inst.rand.get_mut(r) {
                                    *slot = l;
                                }
                                r += 1;
                            }
                            Some(Effect::Sense(_)) if s < 2 => {
                                let l = self.effect0(&mut b, e);
                                if let Some(slot) = inst.sense.get_mut(s) {
                                    *slot = l;
                                }
                                s += 1;
                            }
                            _ => {}
                        }
                    }
                    for (high, layers) in &i.keys {
                        let km = b.push(Object::Keymap(Keymap0::default()));
                        let velocities = layers
                            .iter()
                            .map(|l| b.push(Object::Vmap(region(l))))
                            .collect();
                        b.set(
                            km,
                            Object::Keymap(Keymap0 {
                                high_key: *high,
                                pad: [0; 3],
                                velocities,
                            }),
                        );
                        inst.keys.push(km);
                    }
                    b.set(me, Object::Inst(inst));
                    if let Some(s) = slots.get_mut(*p as usize) {
                        *s = me;
                    }
                }
                ProgramDesign::Drums(keys) => {
                    let me = b.push(Object::Perc(Perc0::default()));
                    let mut perc = Perc0 {
                        magic: *b"PER2",
                        unknown: vec![0; 0x84],
                        keys: vec![Link::Empty; 128],
                        pan: vec![0; 128],
                        release: vec![0; 128],
                    };
                    for k in keys {
                        let pm = b.push(Object::Pmap(Pmap0::default()));
                        let mut pmap = Pmap0 {
                            volume: F32::new(k.volume),
                            pitch: F32::new(k.pitch),
                            ..Pmap0::default()
                        };
                        let rands = k
                            .effects
                            .iter()
                            .filter(|&&e| matches!(self.effects.get(e), Some(Effect::Rand(_))));
                        for (slot, &e) in pmap.rand.iter_mut().zip(rands) {
                            *slot = self.effect0(&mut b, e);
                        }
                        pmap.velocities = k
                            .layers
                            .iter()
                            .map(|l| b.push(Object::Vmap(region(l))))
                            .collect();
                        b.set(pm, Object::Pmap(pmap));
                        let i = usize::from(k.key);
                        if let Some(slot) = perc.keys.get_mut(i) {
                            *slot = pm;
                        }
                        if let Some(x) = perc.pan.get_mut(i) {
                            *x = k.pan as i8;
                        }
                        if let Some(x) = perc.release.get_mut(i) {
                            *x = k.release;
                        }
                    }
                    b.set(me, Object::Perc(perc));
                    if let Some(s) = slots.get_mut(drums) {
                        *s = me;
                    }
                    drums += 1;
                }
            }
        }
        header(
            id,
            Body::V0(Bank0 {
                magic: *b"BANK",
                slots,
                objects: b.aligned(),
                tail: Vec::new(),
            }),
        )
    }

    fn osc0(&self, b: &mut Layout0, o: usize) -> Link {
        let Some(d) = self.oscillators.get(o) else {
            return Link::Empty;
        };
        if let Some(l) = b.shared.get(&(0, o)) {
            return *l;
        }
        let me = b.push(Object::Osc(Oscillator::default()));
        b.shared.insert((0, o), me);
        let attack = self.env0(b, d.attack);
        let release = self.env0(b, d.release);
        b.set(me, Object::Osc(osc(d, attack, release)));
        me
    }

    fn env0(&self, b: &mut Layout0, e: usize) -> Link {
        let Some(points) = self.envelopes.get(e) else {
            return Link::Empty;
        };
        if let Some(l) = b.shared.get(&(1, e)) {
            return *l;
        }
        let me = b.push(Object::Env(Envelope {
            points: points.clone(),
        }));
        b.shared.insert((1, e), me);
        me
    }

    fn effect0(&self, b: &mut Layout0, e: usize) -> Link {
        if let Some(l) = b.shared.get(&(2, e)) {
            return *l;
        }
        let object = match self.effects.get(e) {
            Some(Effect::Rand(r)) => Object::Rand(r.clone()),
            Some(Effect::Sense(s)) => Object::Sense(s.clone()),
            None => return Link::Empty,
        };
        let me = b.push(object);
        b.shared.insert((2, e), me);
        me
    }
}

/// Version-0 object placement in push order.
struct Layout0 {
    objects: Vec<Placed>,
    /// (kind, design index) → link, for objects shared between programs.
    shared: HashMap<(u8, usize), Link>,
}

impl Layout0 {
    /// Appends `object` (possibly a placeholder filled by [`Layout0::set`]) and returns its link.
    fn push(&mut self, object: Object) -> Link {
        let me = Link::Object(self.objects.len() as u32);
        self.objects.push(Placed {
            gap: Vec::new(),
            object,
        });
        me
    }

    /// The objects with zero gaps that 4-byte align each one.
    fn aligned(mut self) -> Vec<Placed> {
        let mut pos = crate::view::BANK0_END;
        for p in &mut self.objects {
            p.gap = vec![0; gcio::padding_for(pos, 4)];
            pos += p.gap.len() + crate::write::object_size(&p.object);
        }
        self.objects
    }

    /// Fills a placeholder pushed earlier.
    fn set(&mut self, link: Link, object: Object) {
        if let Link::Object(i) = link
            && let Some(p) = self.objects.get_mut(i as usize)
        {
            p.object = object;
        }
    }
}

/// The files `cargo xtask gen-samples` writes to `samples/ibnk/`: the demo design and a
/// larger orchestra in both versions.
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, design, id) in [("demo", demo(), 9), ("orchestra", orchestra(24, 6), 12)] {
        for (v, bank) in [("v0", design.to_v0(id)), ("v1", design.to_v1(id))] {
            if let Ok(bytes) = bank.write() {
                out.push((format!("{name}_{v}.bnk"), bytes));
            }
        }
    }
    out
}
