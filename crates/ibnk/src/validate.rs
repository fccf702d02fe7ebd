//! Validator: findings citing `IBNK-*` rules (`docs/rules/ibnk.md`). Rules whose breach breaks
//! playback are errors; conventions and EXT-sourced rules are warnings until real banks confirm
//! them.

use std::fmt::{self, Display};

use gcio::{Diagnostic, Findings, Limits};

use crate::model::*;
use crate::view::{self, HEADER_SIZE};

/// Validates file bytes: header rules, then (if the bank parses) the model rules. A bank that
/// does not parse yields one error finding naming the structural problem.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a bank over them gives the structure error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    match view::parse_with(data, limits) {
        Err(e) => {
            let rule = if data.get(..4) == Some(b"IBNK") && data.len() >= HEADER_SIZE {
                "IBNK-002"
            } else {
                "IBNK-001"
            };
            out.push(Diagnostic::error(rule, e.offset(), e.to_string()));
        }
        Ok(v) => match Bank::from_view(&v, limits) {
            Ok(bank) => out.extend(validate_model(&bank)),
            Err(e) => out.push(Diagnostic::error(
                // Version 0 is an offset graph (IBNK-011), version 1 sized chunks (IBNK-004).
                if data.get(0xC..0x10) == Some(&[0; 4]) {
                    "IBNK-011"
                } else {
                    "IBNK-004"
                },
                e.offset(),
                format!("structure unreadable: {e}"),
            )),
        },
    }
    out
}

/// A structure named in findings ("Inst 3"), formatted only when a finding is made.
struct Name(&'static str, usize);

impl Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.0, self.1)
    }
}

/// Checks ascending high values ≤ 0x7F (IBNK-005) for key or velocity regions.
fn ascending(out: &mut Findings, what: &dyn Display, highs: impl IntoIterator<Item = u8>) {
    let mut prev: Option<u8> = None;
    for (i, h) in highs.into_iter().enumerate() {
        if h > 0x7F {
            out.error(
                "IBNK-005",
                format!("{what} region {i}: high value {h:#x} > 0x7F"),
            );
        }
        if let Some(p) = prev.filter(|&p| h <= p) {
            out.error(
                "IBNK-005",
                format!("{what} region {i}: high value {h} not above the previous ({p})"),
            );
        }
        prev = Some(h);
    }
}

/// Validates a parsed or built bank.
pub fn validate_model(bank: &Bank) -> Vec<Diagnostic> {
    let mut out = Findings::new();
    out.at(4u64);
    if bank.size_delta != 8 {
        out.error(
            "IBNK-001",
            format!(
                "size field is file size − {} (expected file size − 8)",
                bank.size_delta
            ),
        );
    }
    out.at(0x10);
    if bank.reserved != [0; 16] {
        out.warning("IBNK-003", "header bytes 0x10..0x20 are not zero");
    }
    match &bank.body {
        Body::V1(b) => v1(b, &mut out),
        Body::V0(b) => v0(b, &mut out),
    }
    out.into_vec()
}

fn effects(out: &mut Findings, owner: &dyn Display, links: &[Link], rands: usize, senses: usize) {
    for l in links {
        let ok = match *l {
            Link::Rand(i) => (i as usize) < rands,
            Link::Sens(i) => (i as usize) < senses,
            _ => false,
        };
        if !ok {
            out.error(
                "IBNK-006",
                format!("{owner}: effect {l:?} is not a Rand/Sens object"),
            );
        }
    }
}

fn v1(b: &Bank1, out: &mut Findings) {
    let (spans, layout) = crate::write::layout1(b);
    let first = |id: &[u8; 4]| {
        b.chunks
            .iter()
            .zip(&spans)
            .find(|(c, _)| &c.data.id() == id)
            .map_or(0, |(_, s)| s.0)
    };
    let at_index = |t: &[u32], i: usize| t.get(i).map_or(0, |&o| o as usize);
    out.clear_at();
    let has = |id: &[u8; 4]| b.chunk(id).is_some();
    for id in [b"ENVT", b"OSCT", b"LIST"] {
        if !has(id) {
            out.warning(
                "IBNK-008",
                format!(
                    "no {} chunk (the game reads it unconditionally)",
                    String::from_utf8_lossy(id)
                ),
            );
        }
    }
    let env_starts = layout.env.as_deref().unwrap_or_default();
    for (i, e) in b.envelopes().iter().enumerate() {
        out.at(first(b"ENVT") + 8 + at_index(env_starts, i));
        envelope(out, &Name("ENVT table", i), e);
    }
    let envs = b.envelopes().len();
    let oscs = b.oscillators().len();
    let (rands, senses) = (b.rands().count(), b.senses().count());
    let (insts, percs, pmaps) = (b.insts().count(), b.percs().count(), b.pmaps().count());
    for (c, &(start, end)) in b.chunks.iter().zip(&spans) {
        let name = String::from_utf8_lossy(&c.data.id()).into_owned();
        out.at(start);
        if start % 4 != 0 {
            out.warning(
                "IBNK-008",
                format!("{name} at {start:#x} is not 4-byte aligned"),
            );
        }
        if let Some(p) = &c.pad
            && p.len() == gcio::padding_for(end, 4)
        {
            out.info("IBNK-008", format!("{name}: padding bytes are not zero"));
        }
        let tail = match &c.data {
            ChunkData::Envt(e) => {
                if !e.tail.is_empty() {
                    out.warning(
                        "IBNK-009",
                        format!(
                            "ENVT: {} bytes after the last terminated table",
                            e.tail.len()
                        ),
                    );
                }
                0
            }
            ChunkData::Osct(t) => t.tail.len(),
            ChunkData::Rand(t) => t.tail.len(),
            ChunkData::Sens(t) => t.tail.len(),
            ChunkData::Inst(t) => t.tail.len(),
            ChunkData::Pmap(t) => t.tail.len(),
            ChunkData::Perc(t) => t.tail.len(),
            ChunkData::List(t) => t.tail.len(),
            ChunkData::Unknown { .. } => 0,
        };
        if tail > 0 {
            out.warning(
                "IBNK-004",
                format!("{name}: {tail} bytes after the counted entries"),
            );
        }
    }
    for (i, o) in b.oscillators().iter().enumerate() {
        out.at(first(b"OSCT") + 12 + 0x1C * i);
        for (which, l) in [("attack", &o.attack), ("release", &o.release)] {
            match *l {
                Link::Env(e) if (e as usize) < envs => {}
                Link::Raw(x) => out.warning(
                    "IBNK-009",
                    format!(
                        "oscillator {i}: {which} offset {x:#x} is not the start of an ENVT table"
                    ),
                ),
                other => out.error(
                    "IBNK-009",
                    format!("oscillator {i}: {which} links to {other:?}, not an envelope table"),
                ),
            }
        }
    }
    for (n, inst) in b.insts().enumerate() {
        out.at(at_index(&layout.inst, n));
        let owner = Name("Inst", n);
        if inst.oscillators.len() > 2 {
            out.error(
                "IBNK-010",
                format!(
                    "{owner}: {} oscillators (the runtime holds 2)",
                    inst.oscillators.len()
                ),
            );
        }
        for &o in &inst.oscillators {
            if o as usize >= oscs {
                out.error(
                    "IBNK-010",
                    format!("{owner}: oscillator index {o} ≥ OSCT count {oscs}"),
                );
            }
        }
        effects(out, &owner, &inst.effects, rands, senses);
        ascending(
            out,
            &format_args!("{owner} key"),
            inst.keys.iter().map(|k| k.high_key),
        );
        for (k, key) in inst.keys.iter().enumerate() {
            ascending(
                out,
                &format_args!("{owner} key region {k} velocity"),
                key.velocities.iter().map(|v| v.velocity),
            );
        }
    }
    for (n, p) in b.pmaps().enumerate() {
        out.at(at_index(&layout.pmap, n));
        let owner = Name("Pmap", n);
        effects(out, &owner, &p.effects, rands, senses);
        ascending(
            out,
            &format_args!("{owner} velocity"),
            p.velocities.iter().map(|v| v.velocity),
        );
    }
    for (n, p) in b.percs().enumerate() {
        out.at(at_index(&layout.perc, n));
        if p.keys.len() > 0x80 {
            out.error(
                "IBNK-006",
                format!("Perc {n}: {} keys (at most 0x80)", p.keys.len()),
            );
        }
        for (k, l) in p.keys.iter().enumerate() {
            match *l {
                Link::Empty => {}
                Link::Pmap(i) if (i as usize) < pmaps => {}
                other => out.error(
                    "IBNK-006",
                    format!("Perc {n} key {k}: {other:?} is not a Pmap"),
                ),
            }
        }
    }
    let list = b.list();
    out.at(first(b"LIST"));
    if list.len() > 0xF0 {
        out.error(
            "IBNK-007",
            format!("LIST has {} programs (at most 0xF0)", list.len()),
        );
    }
    for (p, l) in list.iter().enumerate() {
        out.at(first(b"LIST") + 12 + 4 * p);
        match *l {
            Link::Empty => {}
            Link::Inst(i) if (i as usize) < insts => {}
            Link::Perc(i) if (i as usize) < percs => {}
            other => out.error(
                "IBNK-006",
                format!("LIST program {p}: {other:?} is not an Inst or Perc"),
            ),
        }
    }
}

fn v0(b: &Bank0, out: &mut Findings) {
    out.at(HEADER_SIZE);
    if &b.magic != b"BANK" {
        out.warning(
            "IBNK-011",
            format!("bank block magic {:?}, expected \"BANK\"", b.magic),
        );
    }
    let is = |l: &Link, want: fn(&Object) -> bool| b.object(l).is_some_and(want);
    for (p, l) in b.slots.iter().enumerate() {
        if *l == Link::Empty {
            continue;
        }
        out.at(HEADER_SIZE + 4 + 4 * p);
        let ok = match p {
            0..0x80 => is(l, |o| matches!(o, Object::Inst(_))),
            FIRST_PERC0.. => is(l, |o| matches!(o, Object::Perc(_))),
            _ => false,
        };
        if !ok {
            out.error(
                "IBNK-011",
                format!(
                    "program {p:#x}: {l:?} does not fit the slot (0..0x80 Inst, 0xE4..0xF0 Perc, the rest unused)"
                ),
            );
        }
    }
    let offsets = crate::write::layout0(b);
    for (n, placed) in b.objects.iter().enumerate() {
        out.at(offsets.get(n).copied().unwrap_or(0));
        let owner = Name("object", n);
        let must = |out: &mut Findings, l: &Link, what: &str, want: fn(&Object) -> bool| {
            if *l != Link::Empty && !is(l, want) {
                out.error("IBNK-011", format!("{owner}: {l:?} is not a {what}"));
            }
        };
        match &placed.object {
            Object::Inst(i) => {
                if &i.magic != b"INST" {
                    out.warning("IBNK-011", format!("{owner}: Inst magic {:?}", i.magic));
                }
                i.osc
                    .iter()
                    .for_each(|l| must(out, l, "TOsc", |o| matches!(o, Object::Osc(_))));
                i.rand
                    .iter()
                    .for_each(|l| must(out, l, "TRand", |o| matches!(o, Object::Rand(_))));
                i.sense
                    .iter()
                    .for_each(|l| must(out, l, "TSense", |o| matches!(o, Object::Sense(_))));
                let mut highs = Vec::new();
                for l in &i.keys {
                    match b.object(l) {
                        Some(Object::Keymap(k)) => highs.push(k.high_key),
                        _ => out.error(
                            "IBNK-011",
                            format!("{owner}: key region {l:?} is not a TKeymap"),
                        ),
                    }
                }
                ascending(out, &format_args!("{owner} key"), highs);
            }
            Object::Keymap(k) => vmaps(b, out, &owner, &k.velocities),
            Object::Pmap(p) => {
                p.rand
                    .iter()
                    .for_each(|l| must(out, l, "TRand", |o| matches!(o, Object::Rand(_))));
                vmaps(b, out, &owner, &p.velocities);
            }
            Object::Perc(p) => {
                for (k, l) in p.keys.iter().enumerate() {
                    if *l != Link::Empty && !is(l, |o| matches!(o, Object::Pmap(_))) {
                        out.error("IBNK-006", format!("{owner} key {k}: {l:?} is not a TPmap"));
                    }
                }
            }
            Object::Osc(o) => {
                for l in [&o.attack, &o.release] {
                    must(out, l, "envelope table", |o| matches!(o, Object::Env(_)));
                }
            }
            Object::Env(e) => envelope(out, &owner, e),
            Object::Vmap(_) | Object::Rand(_) | Object::Sense(_) => {}
        }
    }
}

fn vmaps(b: &Bank0, out: &mut Findings, owner: &dyn Display, links: &[Link]) {
    let mut highs = Vec::new();
    for l in links {
        match b.object(l) {
            Some(Object::Vmap(v)) => highs.push(v.velocity),
            _ => out.error(
                "IBNK-011",
                format!("{owner}: velocity region {l:?} is not a TVmap"),
            ),
        }
    }
    ascending(out, &format_args!("{owner} velocity"), highs);
}

/// IBNK-009: a table ends with its only terminator (an earlier one would cut it short).
fn envelope(out: &mut Findings, owner: &dyn Display, e: &Envelope) {
    let ends: Vec<usize> = (0..e.points.len())
        .filter(|&i| e.points.get(i).is_some_and(EnvPoint::ends_table))
        .collect();
    if ends != [e.points.len().saturating_sub(1)] || e.points.is_empty() {
        out.error(
            "IBNK-009",
            format!("{owner}: envelope must end with exactly one point whose mode > 10"),
        );
    }
}
