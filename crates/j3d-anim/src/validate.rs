//! The validator. Rule ids `J3DA-xxx` are catalogued in `docs/rules/j3da.md`.

use gcio::{Diagnostic, Findings, Limits};

use crate::model::{Anim, Data, FullTrack, KeyTrack};
use crate::view::{FILE_HEADER, View};

/// Validates file bytes: a parse failure is `J3DA-000`, then every model rule.
pub fn validate(data: &[u8]) -> Vec<Diagnostic> {
    validate_with(data, &Limits::default())
}

/// [`validate`] with caller limits (a file over them gives the `J3DA-000` error).
pub fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
    let view = match View::parse_with(data, limits) {
        Ok(v) => v,
        Err(e) => return vec![Diagnostic::error("J3DA-000", e.offset(), e.to_string())],
    };
    match Anim::from_view(&view, limits) {
        Ok(a) => check(&a, Some(&view)),
        Err(e) => vec![Diagnostic::error("J3DA-000", e.offset(), e.to_string())],
    }
}

/// Validates a model (findings carry no offsets).
pub fn validate_model(anim: &Anim) -> Vec<Diagnostic> {
    check(anim, None)
}

struct Out<'v> {
    view: Option<&'v View<'v>>,
    found: Findings,
}

impl Out<'_> {
    /// Absolute offset of element `i` (of `size` bytes) of table `t`.
    fn at(&self, t: usize, i: usize, size: usize) -> Option<u64> {
        let s = self.view?.span(t)?;
        Some((FILE_HEADER + s.offset + i * size) as u64)
    }
}

fn check(anim: &Anim, view: Option<&View<'_>>) -> Vec<Diagnostic> {
    let mut o = Out {
        view: view.map(|v| v as &View<'_>),
        found: Findings::new(),
    };
    let s = anim.kind.schema();
    let lm = anim.loop_mode();
    if lm > 4 {
        o.found.warning_at(
            "J3DA-001",
            Some(0x28),
            format!("loop mode {lm} (0–4 known)"),
        );
    }
    if anim.duration() > 0x7FFF {
        o.found.warning_at(
            "J3DA-010",
            None,
            format!("duration {} is negative as the game's s16", anim.duration()),
        );
    }
    for (ti, def) in s.tables.iter().enumerate() {
        let Some(data) = anim.table(ti) else { continue };
        let table = |k: usize| {
            def.values
                .get(k)
                .and_then(|&v| anim.table(v).map(|d| (v, d)))
        };
        let size = def.elem.size();
        let keyed =
            |o: &mut Out<'_>, i: usize, tracks: &[KeyTrack], group: &dyn Fn(usize) -> usize| {
                for (c, t) in tracks.iter().enumerate() {
                    let Some((vi, values)) = table(group(c)) else {
                        continue;
                    };
                    let vname = s.tables.get(vi).map_or("?", |d| d.name);
                    key_track(o, o.at(ti, i, size), def.name, i, c, *t, values, vname);
                }
            };
        match data {
            Data::KeySrt(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, e)| keyed(&mut o, i, e, &|c| c % 3)),
            Data::KeyColor(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, e)| keyed(&mut o, i, e, &|c| c)),
            Data::Key(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, e)| keyed(&mut o, i, std::slice::from_ref(e), &|_| 0)),
            Data::TevColor(v) => v
                .iter()
                .enumerate()
                .for_each(|(i, e)| keyed(&mut o, i, &e.tracks, &|c| c)),
            Data::FullSrt(v) => {
                for (i, e) in v.iter().enumerate() {
                    for (c, t) in e.iter().enumerate() {
                        if let Some((_, values)) = table(c % 3) {
                            let at = o.at(ti, i, size);
                            full_track(&mut o, at, def.name, i, *t, values);
                        }
                    }
                }
            }
            Data::Pattern(v) => {
                for (i, e) in v.iter().enumerate() {
                    if let Some((_, values)) = table(0) {
                        let at = o.at(ti, i, size);
                        full_track(&mut o, at, def.name, i, e.track, values);
                    }
                }
            }
            Data::Full(v) => {
                for (i, e) in v.iter().enumerate() {
                    if anim.kind == crate::schema::Kind::Bla && e.count == 0 {
                        let at = o.at(ti, i, size);
                        o.found.error_at(
                            "J3DA-012",
                            at,
                            format!(
                                "{} {i}: no frames (the game reads the weight before index {})",
                                def.name, e.index
                            ),
                        );
                    }
                    if let Some((_, values)) = table(0) {
                        let at = o.at(ti, i, size);
                        full_track(&mut o, at, def.name, i, *e, values);
                    }
                }
            }
            Data::Names(n) => {
                if n.strings.is_some() {
                    o.found.info_at(
                        "J3DA-018",
                        o.at(ti, 0, 0),
                        format!(
                            "{}: strings not packed after the entries in entry order (kept as \
                             stored; the game reads each through its offset)",
                            def.name
                        ),
                    );
                }
                for (i, e) in n.entries.iter().enumerate() {
                    let want = j3d_bmd::name_hash(&e.name);
                    if e.key != want {
                        o.found.warning_at(
                            "J3DA-008",
                            o.at(ti, 0, 0).map(|a| a + 4 + 4 * i as u64),
                            format!(
                                "{} {i} {:?}: key {:#06x}, hash is {want:#06x}",
                                def.name,
                                gcio::text::Encoding::ShiftJis.to_text(&e.name),
                                e.key
                            ),
                        );
                    }
                }
            }
            _ => {}
        }
        // Parallel tables (material ids, names, texture-matrix ids, centres) per entry.
        if let crate::schema::Len::Table(main) = def.len {
            let n = anim.table(main).map_or(0, Data::len);
            if data.len() != n {
                o.found.error_at(
                    "J3DA-007",
                    o.at(ti, 0, 0),
                    format!("{}: {} entries for {n} animations", def.name, data.len()),
                );
            }
        }
        if def.elem == crate::schema::Elem::Names {
            // One name per entry of the entry table it labels (TRK1's konst names label table 1).
            let partner = usize::from(s.kind == crate::schema::Kind::Brk && ti == 5);
            let n = anim.table(partner).map_or(0, Data::len);
            if data.len() != n {
                o.found.error_at(
                    "J3DA-007",
                    o.at(ti, 0, 0),
                    format!("{}: {} names for {n} animations", def.name, data.len()),
                );
            }
        }
    }
    layout(&mut o, anim);
    let guessed = cluster_end_guessed(anim);
    if let Some(gap) = &guessed {
        o.found.warning_at(
            "J3DA-013",
            None,
            format!(
                "clusters: the {gap} is not padding; the file stores no cluster count, so the \
                 count read (whole entries up to the next table) may be wrong (bytes kept verbatim)"
            ),
        );
    }
    for what in anim.raw_parts() {
        if guessed
            .as_ref()
            .is_some_and(|g| what.starts_with(g.as_str()))
        {
            continue;
        }
        o.found.push(Diagnostic::info(
            "J3DA-009",
            None,
            format!("{what} kept verbatim (not padding)"),
        ));
    }
    for (what, n) in anim.stale_parts() {
        o.found.push(Diagnostic::info(
            "J3DA-011",
            None,
            format!("{what}: {n} bytes of stale padding (not the fill; the game never reads them)"),
        ));
    }
    o.found.into_vec()
}

/// Sizes and overlaps the game never checks (it reads each table through its own offset and
/// count): `J3DA-014` file size, `J3DA-015` overlapping tables, `J3DA-016` chunk size,
/// `J3DA-017` a count of several per entry that is not a whole number of entries, `J3DA-019` the
/// chunk count (`J3DA-018`,
/// name strings as stored, is reported with the other name checks).
fn layout(o: &mut Out<'_>, anim: &Anim) {
    let l = &anim.layout;
    match l.file_size {
        crate::FileSize::Actual => {}
        crate::FileSize::Cut(n) => o.found.info_at(
            "J3DA-014",
            Some(8),
            format!(
                "the file ends {n} bytes before its stated size: its end padding was not stored"
            ),
        ),
        crate::FileSize::Stored(v) => o.found.warning_at(
            "J3DA-014",
            Some(8),
            format!("stated file size {v:#x} is not the file's length"),
        ),
    }
    let s = anim.kind.schema();
    for p in &l.order {
        if let crate::Gap::Overlap(n) = p.gap {
            let name = s.tables.get(p.table).map_or("?", |d| d.name);
            o.found.warning_at(
                "J3DA-015",
                o.at(p.table, 0, 0),
                format!(
                    "{name} starts {n} bytes inside the table(s) before it (they share those bytes)"
                ),
            );
        }
    }
    if l.count_extra > 0 {
        let counted = s.tables.iter().find_map(|d| match d.len {
            crate::schema::Len::Field { field, mul } if mul > 1 => {
                Some((s.fields.get(field).map_or("?", |f| f.name), mul, d.name))
            }
            _ => None,
        });
        let (field, mul, table) = counted.unwrap_or(("?", 1, "?"));
        let n = anim
            .tables
            .iter()
            .find(|t| t.name == table)
            .map_or(0, |t| t.data.len());
        o.found.warning_at(
            "J3DA-017",
            None,
            format!(
                "{field} is {n} × {mul} + {}: the game reads {n} {table} entries and never the rest",
                l.count_extra
            ),
        );
    }
    if let Some(n) = l.chunk_count {
        o.found.warning_at(
            "J3DA-019",
            Some(12),
            format!(
                "chunk count {n}: the game reads that many chunks (none animates nothing, more \
                 read past this one)"
            ),
        );
    }
    if let crate::ChunkSize::InsideData(n) = l.size {
        o.found.warning_at(
            "J3DA-016",
            Some(FILE_HEADER as u64 + 4),
            format!("chunk size ends {n} bytes before the end of the last table"),
        );
    }
}

/// Where a table whose count is not stored (CLK1/CLF1 clusters) is followed by bytes that are not
/// padding, so where it ends is a guess: the gap's name as [`Anim::raw_parts`] words it.
fn cluster_end_guessed(anim: &Anim) -> Option<String> {
    let s = anim.kind.schema();
    let order = &anim.layout.order;
    order.iter().enumerate().find_map(|(n, p)| {
        let uncounted = s
            .tables
            .get(p.table)
            .is_some_and(|d| d.len == crate::schema::Len::Until);
        let (name, gap) = match order.get(n + 1) {
            Some(q) => (
                format!(
                    "gap before {}",
                    s.tables.get(q.table).map_or("?", |d| d.name)
                ),
                &q.gap,
            ),
            None => ("chunk end".to_owned(), &anim.layout.end),
        };
        let guessed = matches!(
            gap,
            crate::model::Gap::Raw(_) | crate::model::Gap::Stale { .. }
        );
        (uncounted && guessed).then_some(name)
    })
}

#[allow(clippy::too_many_arguments)]
fn key_track(
    o: &mut Out<'_>,
    at: Option<u64>,
    table: &str,
    i: usize,
    c: usize,
    t: KeyTrack,
    values: &Data,
    vname: &str,
) {
    let len = values.len();
    let idx = usize::from(t.index);
    if t.count == 0 {
        return;
    }
    if t.count > 1 && t.tangent > 1 {
        o.found.error_at(
            "J3DA-003",
            at,
            format!("{table} {i} track {c}: tangent mode {}", t.tangent),
        );
        return;
    }
    let stride = if t.count == 1 {
        1
    } else if t.tangent == 0 {
        3
    } else {
        4
    };
    let end = idx + usize::from(t.count) * stride;
    if end > len {
        o.found.error_at(
            "J3DA-002",
            at,
            format!("{table} {i} track {c}: values {idx}..{end} past the {len} of {vname}"),
        );
        return;
    }
    if t.count > 1 {
        let mut prev = f32::NEG_INFINITY;
        for k in 0..usize::from(t.count) {
            let time = crate::eval::value(values, idx + k * stride).unwrap_or(0.0);
            if time < prev {
                o.found.warning_at(
                    "J3DA-004",
                    at,
                    format!("{table} {i} track {c}: key {k} at frame {time} before {prev}"),
                );
                return;
            }
            prev = time;
        }
    }
}

fn full_track(
    o: &mut Out<'_>,
    at: Option<u64>,
    table: &str,
    i: usize,
    t: FullTrack,
    values: &Data,
) {
    let end = usize::from(t.index) + usize::from(t.count);
    if end > values.len() {
        o.found.error_at(
            "J3DA-005",
            at,
            format!(
                "{table} {i}: frames {}..{end} past the {} values",
                t.index,
                values.len()
            ),
        );
    }
}
