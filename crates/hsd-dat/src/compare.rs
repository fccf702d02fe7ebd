//! Byte-similarity of two archives, to measure a layout against a reference (docs/HSD-ORDER.md):
//! BNB, a fuzzy match of 4-byte words, for the whole file and per [`Phase`] region (offsets
//! relative to the region start, so an upstream size drift does not hide a correct region), and
//! NBN, a per-struct field comparison. Against a rebuild it also gives the figure of the order
//! rules alone ([`RulesAlone`]): Melee's `compile` follows the texture list a file records,
//! which is right for a rewrite but no evidence that the rules find the order.

use std::collections::HashMap;

use gcio::Result;

use crate::compile::{Order, Phase, block_phases};
use crate::graph::Kind;
use crate::model::Dat;

/// Words either side of the same position that still count as a match (shift tolerance).
const WINDOW: usize = 8;

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| c.iter().fold(0u32, |v, &x| v << 8 | u32::from(x)))
        .collect()
}

/// BNB in percent: the share of 4-byte words of `a` equal to the word of `b` at the same index or
/// within ±8 words of it, over the longer of the two word counts (100 for two empty inputs).
pub fn bnb(a: &[u8], b: &[u8]) -> f64 {
    let (wa, wb) = (words(a), words(b));
    let n = wa.len().max(wb.len());
    if n == 0 {
        return 100.0;
    }
    let hit = wa
        .iter()
        .enumerate()
        .filter(|&(i, w)| {
            wb.get(i) == Some(w)
                || wb
                    .get(i.saturating_sub(WINDOW)..(i + WINDOW + 1).min(wb.len()))
                    .is_some_and(|s| s.contains(w))
        })
        .count();
    100.0 * hit as f64 / n as f64
}

/// One phase's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// The phase.
    pub phase: Phase,
    /// Its bytes in `a` and in `b`.
    pub bytes: (usize, usize),
    /// BNB of the two regions, each from its own start.
    pub bnb: f64,
}

/// BNB of the reference against the compared model laid out by the compiler-order rules alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RulesAlone {
    /// The order the reference's layout follows ([`crate::compile::detect`]), the one laid out.
    pub order: Order,
    /// BNB of the reference against `compile_listed(b, order, TextureList::default())`: no
    /// texture list, so Melee's pixels go in the rules' forward first-use order, whatever order
    /// either file records.
    pub bnb: f64,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// BNB of the whole files. For `b` a rebuild of `a` (`gcf rebuild`, [`crate::compile::compile`])
    /// this is the figure with the texture list `a` records.
    pub bnb: f64,
    /// The figure of the order rules alone (see [`RulesAlone`]); `None` when `b`'s model does
    /// not compile (the compile refuses its layout).
    pub rules_alone: Option<RulesAlone>,
    /// Per phase (phases present in either file).
    pub regions: Vec<Region>,
    /// NBN: structs of `a` whose bytes (pointer slots compared as NULL / non-NULL) equal the
    /// struct of the same kind and ordinal in `b`, per kind: (kind name, equal, total in `a`).
    pub nbn: Vec<(String, usize, usize)>,
}

impl Comparison {
    /// NBN over all structs, in percent.
    pub fn nbn_percent(&self) -> f64 {
        let (e, t) = self.nbn.iter().fold((0, 0), |(e, t), x| (e + x.1, t + x.2));
        if t == 0 {
            100.0
        } else {
            100.0 * e as f64 / t as f64
        }
    }
}

/// Struct bytes by (kind, ordinal in graph order).
type Structs = HashMap<(Kind, usize), Vec<u8>>;
/// Each phase's bytes.
type Regions = Vec<(Phase, Vec<u8>)>;

/// Each phase's data bytes concatenated in block order, and per (kind, ordinal) the struct bytes
/// with pointer slots reduced to NULL / non-NULL.
fn regions_and_structs(bytes: &[u8]) -> Result<(Regions, Structs)> {
    let dat = Dat::parse(bytes)?;
    let phases = block_phases(&dat)?;
    let mut regions: Vec<(Phase, Vec<u8>)> = Phase::ALL.iter().map(|&p| (p, Vec::new())).collect();
    for (b, (p, _)) in dat.blocks.iter().zip(&phases) {
        if let Some(r) = regions.iter_mut().find(|r| r.0 == *p) {
            r.1.extend_from_slice(&b.bytes);
        }
    }
    let a = crate::parse(bytes)?;
    let g = a.graph();
    let mut ordinal: HashMap<Kind, usize> = HashMap::new();
    let mut structs = HashMap::new();
    let slots: std::collections::HashSet<u32> = a.relocations().collect();
    for n in &g.nodes {
        let k = ordinal.entry(n.kind).or_insert(0);
        let mut s = a
            .data()
            .bytes(n.offset as usize, n.size as usize)
            .map(<[u8]>::to_vec)
            .unwrap_or_default();
        for at in (0..s.len()).step_by(4) {
            // A relocated slot is a pointer whatever its value (0 is data offset 0); NULL is an
            // unlisted word.
            if slots.contains(&(n.offset + at as u32))
                && let Some(w) = s.get_mut(at..at + 4)
            {
                w.copy_from_slice(&[0, 0, 0, 1]);
            }
        }
        structs.insert((n.kind, *k), s);
        *k += 1;
    }
    Ok((regions, structs))
}

/// Compares archive `a` (the reference) with `b`.
pub fn compare(a: &[u8], b: &[u8]) -> Result<Comparison> {
    let (ra, sa) = regions_and_structs(a)?;
    let (rb, sb) = regions_and_structs(b)?;
    let regions = ra
        .iter()
        .zip(&rb)
        .filter(|(x, y)| !x.1.is_empty() || !y.1.is_empty())
        .map(|(x, y)| Region {
            phase: x.0,
            bytes: (x.1.len(), y.1.len()),
            bnb: bnb(&x.1, &y.1),
        })
        .collect();
    let mut per: HashMap<Kind, (usize, usize)> = HashMap::new();
    for (key, s) in &sa {
        let e = per.entry(key.0).or_insert((0, 0));
        e.1 += 1;
        if sb.get(key) == Some(s) {
            e.0 += 1;
        }
    }
    let mut nbn: Vec<(String, usize, usize)> = per
        .into_iter()
        .map(|(k, (e, t))| (format!("{k:?}"), e, t))
        .collect();
    nbn.sort();
    Ok(Comparison {
        bnb: bnb(a, b),
        rules_alone: rules_alone(a, b)?,
        regions,
        nbn,
    })
}

/// [`RulesAlone`] of `a` against `b`'s model, `None` when that model does not compile.
pub fn rules_alone(a: &[u8], b: &[u8]) -> Result<Option<RulesAlone>> {
    let order = crate::compile::detect(&Dat::parse(a)?)?.order();
    let laid = crate::compile::compile_listed(
        &Dat::parse(b)?,
        order,
        &crate::compile::TextureList::default(),
    );
    Ok(match laid {
        Ok(d) => Some(RulesAlone {
            order,
            bnb: bnb(a, &d.write()?),
        }),
        Err(_) => None,
    })
}
