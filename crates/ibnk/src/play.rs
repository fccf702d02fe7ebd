//! "What plays": the runtime's lookup of (program, key, velocity) → wave, volume and pitch.
//!
//! Follows `JASBasicInst::getParam` / `JASDrumSet::getParam` (EXT Petari): the first key region
//! whose high key ≥ key, then the first velocity region whose high velocity ≥ velocity; volume
//! and pitch are the instrument's (or drum key's) factor times the region's; the wave id is the
//! low 16 bits of the region's wave word. Drum sets index keys directly (key < 0x80). Random and
//! sense effects, which the runtime applies on top, are only counted in [`Note::effects`].

use std::fmt;

use crate::model::*;

/// What the runtime plays for one note.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Wave id in the bank's WSYS.
    pub wave: u16,
    /// High half of the wave word (stored, ignored by the runtime).
    pub bank: u16,
    /// Volume factor (instrument or drum key × velocity region).
    pub volume: f32,
    /// Pitch factor (instrument or drum key × velocity region).
    pub pitch: f32,
    /// Drum keys: pan 0..1 (version 1 `pan / 127`; version 0 `PER2` pan / 127, else 0.5).
    pub pan: Option<f32>,
    /// Drum keys: release (version 0 without `PER2`: 1000).
    pub release: Option<u32>,
    /// Random / sense effects the runtime applies on top of `volume` and `pitch`.
    pub effects: usize,
}

/// Why a note plays nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Silence {
    /// The program is past the program table or its entry is empty.
    NoProgram {
        /// The program asked for.
        program: u32,
    },
    /// Version 0 programs 0x80..0xE4: the runtime never reads these slots.
    UnusedSlot {
        /// The program asked for.
        program: u32,
    },
    /// A link in the chain names nothing usable (the game would read garbage or crash).
    Broken {
        /// What is wrong.
        reason: String,
    },
    /// No key region reaches the key.
    KeyAboveRegions {
        /// The key asked for.
        key: u8,
        /// The highest key mapped, if any region exists.
        highest: Option<u8>,
    },
    /// No velocity region reaches the velocity.
    VelocityAboveRegions {
        /// The velocity asked for.
        velocity: u8,
        /// The highest velocity mapped, if any region exists.
        highest: Option<u8>,
    },
    /// The drum set has nothing at this key.
    NoDrum {
        /// The key asked for.
        key: u8,
    },
}

impl fmt::Display for Silence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Silence::NoProgram { program } => write!(f, "program {program} is empty or missing"),
            Silence::UnusedSlot { program } => {
                write!(
                    f,
                    "program {program:#x} is in the unused slot range 0x80..0xE4"
                )
            }
            Silence::Broken { reason } => write!(f, "broken bank: {reason}"),
            Silence::KeyAboveRegions { key, highest } => match highest {
                Some(h) => write!(f, "key {key} is above the highest key region ({h})"),
                None => write!(f, "key {key}: the instrument has no key regions"),
            },
            Silence::VelocityAboveRegions { velocity, highest } => match highest {
                Some(h) => write!(f, "velocity {velocity} is above the highest region ({h})"),
                None => write!(
                    f,
                    "velocity {velocity}: the key region has no velocity regions"
                ),
            },
            Silence::NoDrum { key } => write!(f, "the drum set has nothing at key {key}"),
        }
    }
}

impl std::error::Error for Silence {}

/// First region whose high value ≥ `x`; on failure, the highest value seen.
fn first_covering<T>(regions: impl IntoIterator<Item = (u8, T)>, x: u8) -> Result<T, Option<u8>> {
    let mut highest = None;
    for (high, item) in regions {
        if x <= high {
            return Ok(item);
        }
        highest = Some(highest.map_or(high, |h: u8| h.max(high)));
    }
    Err(highest)
}

fn broken(reason: impl Into<String>) -> Silence {
    Silence::Broken {
        reason: reason.into(),
    }
}

fn note(base_volume: F32, base_pitch: F32, v: &VelocityRegion, effects: usize) -> Note {
    Note {
        wave: v.wave,
        bank: v.bank,
        volume: base_volume.get() * v.volume.get(),
        pitch: base_pitch.get() * v.pitch.get(),
        pan: None,
        release: None,
        effects,
    }
}

fn pick_velocity<'a>(
    regions: impl IntoIterator<Item = (u8, &'a VelocityRegion)>,
    velocity: u8,
) -> Result<&'a VelocityRegion, Silence> {
    first_covering(regions, velocity)
        .map_err(|highest| Silence::VelocityAboveRegions { velocity, highest })
}

use crate::F32;

/// One mapped program, for summaries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramSummary {
    /// Program number.
    pub program: u32,
    /// Drum set (`Perc`) rather than instrument.
    pub drums: bool,
    /// Key regions (instrument) or mapped keys (drum set).
    pub regions: usize,
    /// Distinct wave ids, ascending.
    pub waves: Vec<u16>,
}

impl Bank {
    /// Every non-empty program that names an instrument or a drum set.
    pub fn programs(&self) -> Vec<ProgramSummary> {
        let mut out: Vec<ProgramSummary> = Vec::new();
        let mut add = |program: u32, drums: bool, regions: usize| {
            out.push(ProgramSummary {
                program,
                drums,
                regions,
                waves: Vec::new(),
            })
        };
        match &self.body {
            Body::V1(b) => {
                for (p, link) in (0u32..).zip(b.list()) {
                    match *link {
                        Link::Inst(i) => {
                            if let Some(inst) = b.inst(i) {
                                add(p, false, inst.keys.len());
                            }
                        }
                        Link::Perc(i) => {
                            if let Some(perc) = b.perc(i) {
                                add(
                                    p,
                                    true,
                                    perc.keys.iter().filter(|k| **k != Link::Empty).count(),
                                );
                            }
                        }
                        _ => {}
                    }
                }
            }
            Body::V0(b) => {
                for (p, slot) in (0u32..).zip(&b.slots) {
                    match b.object(slot) {
                        Some(Object::Inst(i)) => add(p, false, i.keys.len()),
                        Some(Object::Perc(d)) => add(
                            p,
                            true,
                            d.keys.iter().filter(|k| **k != Link::Empty).count(),
                        ),
                        _ => {}
                    }
                }
            }
        }
        for (p, wave) in self.wave_uses() {
            if let Some(s) = out.iter_mut().find(|s| s.program == p) {
                s.waves.push(wave);
            }
        }
        for s in &mut out {
            s.waves.sort_unstable();
            s.waves.dedup();
        }
        out
    }

    /// What the runtime plays for `program`, `key` and `velocity`, or why nothing plays.
    pub fn play(&self, program: u32, key: u8, velocity: u8) -> Result<Note, Silence> {
        match &self.body {
            Body::V1(b) => play1(b, program, key, velocity),
            Body::V0(b) => play0(b, program, key, velocity),
        }
    }

    /// Every wave a program can play, as (program, wave id), in program order.
    pub fn wave_uses(&self) -> Vec<(u32, u16)> {
        let mut out = Vec::new();
        match &self.body {
            Body::V1(b) => {
                let insts: Vec<&Inst> = b.insts().collect();
                let percs: Vec<&Perc> = b.percs().collect();
                let pmaps: Vec<&Pmap> = b.pmaps().collect();
                for (p, link) in (0u32..).zip(b.list()) {
                    match *link {
                        Link::Inst(i) => {
                            let regions = insts.get(i as usize).into_iter().flat_map(|i| &i.keys);
                            for v in regions.flat_map(|k| &k.velocities) {
                                out.push((p, v.wave));
                            }
                        }
                        Link::Perc(i) => {
                            let keys = percs.get(i as usize).into_iter().flat_map(|p| &p.keys);
                            for k in keys {
                                if let Link::Pmap(m) = *k {
                                    for v in pmaps
                                        .get(m as usize)
                                        .into_iter()
                                        .flat_map(|m| &m.velocities)
                                    {
                                        out.push((p, v.wave));
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Body::V0(b) => {
                let vmaps = |links: &[Link], out: &mut Vec<(u32, u16)>, p: u32| {
                    for l in links {
                        if let Some(Object::Vmap(v)) = b.object(l) {
                            out.push((p, v.wave));
                        }
                    }
                };
                for (p, slot) in (0u32..).zip(&b.slots) {
                    match b.object(slot) {
                        Some(Object::Inst(i)) => {
                            for k in &i.keys {
                                if let Some(Object::Keymap(k)) = b.object(k) {
                                    vmaps(&k.velocities, &mut out, p);
                                }
                            }
                        }
                        Some(Object::Perc(d)) => {
                            for k in &d.keys {
                                if let Some(Object::Pmap(m)) = b.object(k) {
                                    vmaps(&m.velocities, &mut out, p);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }
}

fn play1(b: &Bank1, program: u32, key: u8, velocity: u8) -> Result<Note, Silence> {
    let link = b
        .list()
        .get(program as usize)
        .ok_or(Silence::NoProgram { program })?;
    match *link {
        Link::Empty => Err(Silence::NoProgram { program }),
        Link::Inst(i) => {
            let inst = b
                .inst(i)
                .ok_or_else(|| broken(format!("program {program} names missing Inst {i}")))?;
            let region = first_covering(inst.keys.iter().map(|k| (k.high_key, k)), key)
                .map_err(|highest| Silence::KeyAboveRegions { key, highest })?;
            let v = pick_velocity(region.velocities.iter().map(|v| (v.velocity, v)), velocity)?;
            Ok(note(inst.volume, inst.pitch, v, inst.effects.len()))
        }
        Link::Perc(i) => {
            let perc = b
                .perc(i)
                .ok_or_else(|| broken(format!("program {program} names missing Perc {i}")))?;
            if key >= 0x80 {
                return Err(Silence::NoDrum { key });
            }
            let pmap = match perc.keys.get(usize::from(key)) {
                None | Some(Link::Empty) => return Err(Silence::NoDrum { key }),
                Some(Link::Pmap(m)) => b
                    .pmap(*m)
                    .ok_or_else(|| broken(format!("drum key {key} names missing Pmap {m}")))?,
                Some(other) => return Err(broken(format!("drum key {key} links to {other:?}"))),
            };
            let v = pick_velocity(pmap.velocities.iter().map(|v| (v.velocity, v)), velocity)?;
            Ok(Note {
                pan: Some(f32::from(pmap.pan) / 127.0),
                release: Some(u32::from(pmap.release)),
                ..note(pmap.volume, pmap.pitch, v, pmap.effects.len())
            })
        }
        other => Err(broken(format!(
            "program {program} links to {other:?}, not an Inst or Perc"
        ))),
    }
}

/// Version-0 velocity pick; like the runtime, links after the chosen region are never read.
fn velocity0<'a>(
    b: &'a Bank0,
    links: &[Link],
    velocity: u8,
) -> Result<&'a VelocityRegion, Silence> {
    let mut bad = None;
    let regions = links.iter().map_while(|l| match b.object(l) {
        Some(Object::Vmap(v)) => Some((v.velocity, v)),
        _ => {
            bad = Some(*l);
            None
        }
    });
    let picked = pick_velocity(regions, velocity);
    match bad {
        Some(l) => Err(broken(format!("velocity region link {l:?} is not a Vmap"))),
        None => picked,
    }
}

fn play0(b: &Bank0, program: u32, key: u8, velocity: u8) -> Result<Note, Silence> {
    let p = program as usize;
    let slot = b.slots.get(p).ok_or(Silence::NoProgram { program })?;
    if (0x80..FIRST_PERC0).contains(&p) {
        return Err(Silence::UnusedSlot { program });
    }
    if *slot == Link::Empty {
        return Err(Silence::NoProgram { program });
    }
    match (b.object(slot), p < 0x80) {
        (Some(Object::Inst(inst)), true) => {
            let mut bad = None;
            let keys = inst.keys.iter().map_while(|l| match b.object(l) {
                Some(Object::Keymap(k)) => Some((k.high_key, k)),
                _ => {
                    bad = Some(*l);
                    None
                }
            });
            let region = first_covering(keys, key);
            if let Some(l) = bad {
                return Err(broken(format!("key region link {l:?} is not a Keymap")));
            }
            let region = region.map_err(|highest| Silence::KeyAboveRegions { key, highest })?;
            let v = velocity0(b, &region.velocities, velocity)?;
            let effects = inst
                .rand
                .iter()
                .chain(&inst.sense)
                .filter(|l| **l != Link::Empty)
                .count();
            Ok(note(inst.volume, inst.pitch, v, effects))
        }
        (Some(Object::Perc(perc)), false) => {
            let k = usize::from(key);
            let pmap = match perc.keys.get(k) {
                None | Some(Link::Empty) => return Err(Silence::NoDrum { key }),
                Some(l) => match b.object(l) {
                    Some(Object::Pmap(m)) => m,
                    _ => return Err(broken(format!("drum key {key} links to {l:?}"))),
                },
            };
            let v = velocity0(b, &pmap.velocities, velocity)?;
            let effects = pmap.rand.iter().filter(|l| **l != Link::Empty).count();
            let (pan, release) = if perc.has_pan_release() {
                (
                    perc.pan.get(k).map_or(0.5, |&x| f32::from(x) / 127.0),
                    perc.release.get(k).map_or(1000, |&x| u32::from(x)),
                )
            } else {
                (0.5, 1000)
            };
            Ok(Note {
                pan: Some(pan),
                release: Some(release),
                ..note(pmap.volume, pmap.pitch, v, effects)
            })
        }
        (Some(Object::Inst(_)), false) => Err(broken(format!(
            "program {program:#x} is a drum-set slot but holds an instrument"
        ))),
        (Some(Object::Perc(_)), true) => Err(broken(format!(
            "program {program} is an instrument slot but holds a drum set"
        ))),
        _ => Err(broken(format!("program {program} links to {slot:?}"))),
    }
}
