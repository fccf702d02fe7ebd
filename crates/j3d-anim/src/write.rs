//! The writer: tables in the recorded order with the recorded padding; counts and offsets derived.

use gcio::{Error, Result, Writer};

use crate::layout::write_gap;
use crate::model::{Anim, ChunkSize, Data, FileSize, FullTrack, Gap, KeyTrack, Place};
use crate::schema::{Len, Role};

fn key(w: &mut Writer, t: &KeyTrack) {
    w.u16(t.count).u16(t.index).u16(t.tangent);
}

fn full(w: &mut Writer, t: &FullTrack) {
    w.u16(t.count).u16(t.index);
}

fn write_data(w: &mut Writer, d: &Data) -> Result<()> {
    match d {
        Data::KeySrt(v) => v.iter().flatten().for_each(|t| key(w, t)),
        Data::FullSrt(v) => v.iter().flatten().for_each(|t| full(w, t)),
        Data::TevColor(v) => {
            for e in v {
                e.tracks.iter().for_each(|t| key(w, t));
                w.u8(e.id).bytes(&e.fill);
            }
        }
        Data::KeyColor(v) => v.iter().flatten().for_each(|t| key(w, t)),
        Data::Pattern(v) => {
            for e in v {
                full(w, &e.track);
                w.u8(e.tex_map).bytes(&e.fill);
            }
        }
        Data::Key(v) => v.iter().for_each(|t| key(w, t)),
        Data::Full(v) => v.iter().for_each(|t| full(w, t)),
        Data::F32(v) => v.iter().for_each(|&x| {
            w.f32(x);
        }),
        Data::I16(v) => v.iter().for_each(|&x| {
            w.i16(x);
        }),
        Data::U16(v) => v.iter().for_each(|&x| {
            w.u16(x);
        }),
        Data::U8(v) => {
            w.bytes(v);
        }
        Data::Vec3(v) => v.iter().flatten().for_each(|&x| {
            w.f32(x);
        }),
        Data::Names(n) => match n.kept_strings() {
            // Strings as stored: the entries keep their offsets.
            Some(st) => {
                let count = u16::try_from(n.entries.len())
                    .map_err(|_| Error::message(format!("{} names", n.entries.len())))?;
                w.u16(count).u16(n.marker);
                for (e, &off) in n.entries.iter().zip(&st.offsets) {
                    w.u16(e.key).u16(off);
                }
                w.bytes(&st.bytes);
            }
            None => j3d_bmd::NameTable {
                marker: n.marker,
                entries: n
                    .entries
                    .iter()
                    .map(|e| j3d_bmd::NameEntry {
                        key: e.key,
                        name: e.name.clone(),
                    })
                    .collect(),
            }
            .write(w)?,
        },
    }
    Ok(())
}

impl Anim {
    /// Writes the file: byte-identical to the input for a parsed, unedited model.
    pub fn write(&self) -> Result<Vec<u8>> {
        let s = self.kind.schema();
        if self.tables.len() != s.tables.len() {
            return Err(Error::message(format!(
                "{} tables, {:?} has {}",
                self.tables.len(),
                self.kind,
                s.tables.len()
            )));
        }
        for (t, def) in self.tables.iter().zip(s.tables) {
            if t.name != def.name {
                return Err(Error::message(format!(
                    "table {:?} where {:?} belongs",
                    t.name, def.name
                )));
            }
            if let Len::Table(other) = def.len {
                let n = self.tables.get(other).map_or(0, |o| o.data.len());
                if t.data.len() != n {
                    return Err(Error::message(format!(
                        "{}: {} entries but {n} animations (J3DA-007)",
                        def.name,
                        t.data.len()
                    )));
                }
            }
        }
        let mul = s.tables.iter().find_map(|d| match d.len {
            Len::Field { mul, .. } if mul > 1 => Some(mul),
            _ => None,
        });
        if self.layout.count_extra >= mul.unwrap_or(1) {
            return Err(Error::message(format!(
                "count_extra {} for counts of {} per entry",
                self.layout.count_extra,
                mul.unwrap_or(1)
            )));
        }
        let mut w = Writer::new();
        w.bytes(b"J3D1").bytes(&s.tag);
        let file_size = w.reserve_u32();
        w.u32(self.layout.chunk_count.unwrap_or(1))
            .bytes(&self.reserved);
        let cs = w.position();
        w.bytes(&s.magic);
        let chunk_size = w.reserve_u32();
        w.fill(0, s.header.saturating_sub(8));
        // Tables in the recorded order; tables with data but no place go last, 4-aligned.
        let mut order: Vec<Place> = self.layout.order.clone();
        for (i, t) in self.tables.iter().enumerate() {
            if !t.data.is_empty() && !order.iter().any(|p| p.table == i) {
                order.push(Place {
                    table: i,
                    gap: Gap::Align(vec![4]),
                });
            }
        }
        let mut offsets = vec![0usize; s.tables.len()];
        for p in &order {
            let t = self
                .tables
                .get(p.table)
                .ok_or_else(|| Error::message(format!("layout names table {}", p.table)))?;
            let at = match p.gap {
                Gap::Overlap(n) => overlap(&mut w, (cs, s.header), n as usize, &t.data)?,
                _ => None,
            };
            let at = match at {
                Some(at) => at,
                None => {
                    // An overlap whose shared bytes an edit changed goes after the others.
                    let gap = match &p.gap {
                        Gap::Overlap(_) => &Gap::Align(vec![4]),
                        g => g,
                    };
                    write_gap(&mut w, cs, gap, self.layout.fill);
                    let at = w.position();
                    write_data(&mut w, &t.data)?;
                    at
                }
            };
            if let Some(o) = offsets.get_mut(p.table) {
                *o = at - cs;
            }
        }
        let data_end = w.position() - cs;
        write_gap(&mut w, cs, &self.layout.end, self.layout.fill);
        let end = w.position();
        let size = match self.layout.size {
            ChunkSize::ToFileEnd => Some(end - cs),
            ChunkSize::AfterData(n) => Some(data_end + n as usize),
            ChunkSize::InsideData(n) => data_end.checked_sub(n as usize),
        }
        .ok_or_else(|| Error::message("chunk size before the chunk start"))?;
        w.fix(chunk_size, size as u64)?;
        let (stored, cut) = match self.layout.file_size {
            FileSize::Actual => (end as u64, 0),
            FileSize::Cut(n) => (end as u64, n as usize),
            FileSize::Stored(v) => (u64::from(v), 0),
        };
        if cut > end - (cs + data_end) {
            return Err(Error::message(format!(
                "{cut} bytes left off the end, but the end padding is {} bytes",
                end - (cs + data_end)
            )));
        }
        w.fix(file_size, stored)?;
        // Header fields.
        for (fi, f) in s.fields.iter().enumerate() {
            let v: u64 =
                match f.role {
                    Role::Value => u64::from(*self.values.get(f.name).ok_or_else(|| {
                        Error::message(format!("missing header value {:?}", f.name))
                    })?),
                    Role::Offset(t) => offsets.get(t).copied().unwrap_or(0) as u64,
                    Role::Count => s
                        .tables
                        .iter()
                        .zip(&self.tables)
                        .find_map(|(d, t)| match d.len {
                            Len::Field { field, mul } if field == fi => {
                                let extra = if mul > 1 { self.layout.count_extra } else { 0 };
                                Some(t.data.len() as u64 * u64::from(mul) + u64::from(extra))
                            }
                            _ => None,
                        })
                        .unwrap_or(0),
                };
            let at = cs + f.at;
            let fits = match f.width {
                1 => u8::try_from(v).map(|x| w.overwrite(at, &[x])).is_ok(),
                2 => u16::try_from(v)
                    .map(|x| w.overwrite(at, &x.to_be_bytes()))
                    .is_ok(),
                _ => u32::try_from(v)
                    .map(|x| w.overwrite(at, &x.to_be_bytes()))
                    .is_ok(),
            };
            if !fits {
                return Err(Error::message(format!(
                    "header field {} = {v} does not fit {} bytes",
                    f.name, f.width
                )));
            }
        }
        let mut out = w.into_vec();
        out.truncate(end - cut);
        Ok(out)
    }
}

/// Writes `data` `back` bytes before the end of what is written (an overlapping table) when the
/// bytes it shares with the earlier tables are the ones written there: its start, else `None`
/// (nothing written). Only an empty table may start inside the chunk header (`cs` its start,
/// `header` its size).
fn overlap(
    w: &mut Writer,
    (cs, header): (usize, usize),
    back: usize,
    data: &Data,
) -> Result<Option<usize>> {
    let mut t = Writer::new();
    write_data(&mut t, data)?;
    let bytes = t.into_vec();
    let Some(at) = w
        .position()
        .checked_sub(back)
        .filter(|&a| a >= cs + header || (bytes.is_empty() && a > cs))
    else {
        return Ok(None);
    };
    let shared = w.as_slice().get(at..).unwrap_or_default();
    if !shared.iter().zip(&bytes).all(|(a, b)| a == b) {
        return Ok(None);
    }
    w.bytes(bytes.get(back..).unwrap_or_default());
    Ok(Some(at))
}
