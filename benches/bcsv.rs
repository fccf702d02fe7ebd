//! BCSV throughput on a 50,000-row table with every type (plus packed fields and Shift-JIS
//! strings): the zero-copy view reading every cell, the owned model's parse, the byte-exact write,
//! the golden cases, and the crates.io `lib-bcsv-jmap` parse/write on the same bytes for comparison.
//!
//! Real tables (`../shared/corpus/real/rarc`: every member with a BCSV extension that both readers
//! take, Yaz0 expanded): `bcsv ratio` lines, interleaved with lib-bcsv-jmap in the same run — the
//! view reading every cell (numbers), the same with every string decoded to text, the owned parse
//! per table (the slowest ratio is the one to read) and the byte-exact write.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]

#[path = "common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gcformats::bcsv::{self, Cell, Table};
use std::hint::black_box;

const ROWS: usize = 50_000;

/// Every cell, row by row: strings as bytes, or (`DECODE`) each string (pool or inline) decoded to
/// text in the table's encoding (through the view's `Strings`: the pool's text validated once).
fn read_cells<const DECODE: bool>(data: &[u8]) -> u64 {
    let view = bcsv::parse(data).unwrap();
    let strings = if DECODE { Some(view.strings()) } else { None };
    let fields: Vec<_> = view.fields().collect();
    let mut acc = 0u64;
    for row in view.rows() {
        for f in &fields {
            acc = acc.wrapping_add(match row.cell(f).unwrap() {
                Cell::Long(v) => v as u64,
                Cell::Long2(v) => u64::from(v),
                Cell::Float(v) => u64::from(v.to_bits()),
                Cell::Short(v) => v as u64,
                Cell::Char(v) => v as u64,
                Cell::StringOffset(s) if DECODE => {
                    let text = strings.as_ref().unwrap().decode(s);
                    text.map_or(0, |t| t.len() as u64)
                }
                Cell::StringOffset(s) => s.len() as u64,
                Cell::InlineString(b) if DECODE => {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(32);
                    let text = strings.as_ref().unwrap().decode(&b[..end]);
                    text.map_or(0, |t| t.len() as u64)
                }
                Cell::InlineString(b) => u64::from(b[0]),
            });
        }
    }
    acc
}

/// Every cell, a column at a time through the view's bulk readers (`View::numbers`,
/// `View::pool_strings`, `View::inline_strings`: each field's type, offset, mask and shift resolved
/// once): numbers decoded, strings as bytes, or (`DECODE`) each string decoded to text as in
/// [`read_cells`].
fn read_columns<const DECODE: bool>(data: &[u8]) -> u64 {
    use gcformats::bcsv::FieldType;
    let view = bcsv::parse(data).unwrap();
    let strings = if DECODE { Some(view.strings()) } else { None };
    let mut acc = 0u64;
    for f in view.fields() {
        let sum = match f.kind {
            FieldType::STRING_OFFSET => view.pool_strings(&f).unwrap().fold(0u64, |a, s| {
                let s = s.unwrap();
                a.wrapping_add(if DECODE {
                    text_len(strings.as_ref().unwrap(), s)
                } else {
                    s.len() as u64
                })
            }),
            FieldType::STRING => view.inline_strings(&f).unwrap().fold(0u64, |a, b| {
                a.wrapping_add(if DECODE {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(32);
                    text_len(strings.as_ref().unwrap(), &b[..end])
                } else {
                    u64::from(b[0])
                })
            }),
            // Sign-extended as the cells' `i32`/`i16`/`i8` values.
            FieldType::SHORT => view
                .numbers(&f)
                .unwrap()
                .fold(0u64, |a, v| a.wrapping_add(v as u16 as i16 as u64)),
            FieldType::CHAR => view
                .numbers(&f)
                .unwrap()
                .fold(0u64, |a, v| a.wrapping_add(v as u8 as i8 as u64)),
            FieldType::LONG => view
                .numbers(&f)
                .unwrap()
                .fold(0u64, |a, v| a.wrapping_add(v as i32 as u64)),
            _ => view
                .numbers(&f)
                .unwrap()
                .fold(0u64, |a, v| a.wrapping_add(u64::from(v))),
        };
        acc = acc.wrapping_add(sum);
    }
    acc
}

/// Bytes of `b` decoded to text (0 when it does not decode).
#[inline(always)]
fn text_len(strings: &bcsv::Strings<'_>, b: &[u8]) -> u64 {
    strings.decode(b).map_or(0, |t| t.len() as u64)
}

/// Every real table both readers take, with its name.
fn real_tables() -> Vec<(String, Vec<u8>)> {
    #[cfg(feature = "rarc")]
    {
        let opts = lib_bcsv_jmap::IoOptions::default();
        common::real_files("rarc")
            .into_iter()
            .filter(|f| bcsv::has_bcsv_extension(&f.name))
            .filter(|f| Table::parse(&f.bytes).is_ok())
            .filter(|f| {
                lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), &f.bytes, &opts).is_ok()
            })
            .map(|f| (f.name, f.bytes))
            .collect()
    }
    #[cfg(not(feature = "rarc"))]
    Vec::new()
}

fn real(_: &mut Criterion) {
    let tables = real_tables();
    if tables.is_empty() {
        return;
    }
    let total: usize = tables.iter().map(|(_, b)| b.len()).sum();
    let cells: usize = tables
        .iter()
        .map(|(_, b)| {
            let v = bcsv::parse(b).unwrap();
            v.len() * v.fields().len()
        })
        .sum();
    eprintln!(
        "real bcsv: {} tables, {total} bytes, {cells} cells",
        tables.len()
    );
    if std::env::var_os("BCSV_STATS").is_some() {
        for (name, b) in &tables {
            let v = bcsv::parse(b).unwrap();
            let kinds: String = v.fields().map(|f| f.kind.0.to_string()).collect();
            eprintln!(
                "table {name}: {} bytes, {} rows, entry {}, fields {kinds}, pool {} (ascii {})",
                b.len(),
                v.len(),
                v.entry_size(),
                v.pool().data().len(),
                v.pool().data().is_ascii()
            );
        }
    }
    // `BCSV_PROFILE=NAME`: the owned parse of the tables whose name ends with NAME in a loop (for perf).
    if let Ok(want) = std::env::var("BCSV_PROFILE") {
        let picked: Vec<&[u8]> = tables
            .iter()
            .filter(|(name, _)| name.ends_with(&want))
            .map(|(_, b)| b.as_slice())
            .collect();
        let write = std::env::var_os("BCSV_PROFILE_WRITE").is_some();
        let jmap_too = std::env::var_os("BCSV_PROFILE_JMAP").is_some();
        let view = std::env::var_os("BCSV_PROFILE_VIEW").is_some();
        let columns = std::env::var_os("BCSV_PROFILE_COLUMNS").is_some();
        let model = Table::parse(picked[0]).unwrap();
        let c0 = thread_cpu().unwrap();
        let mut n = 0usize;
        while thread_cpu().unwrap() - c0 < 2.0 {
            for _ in 0..1000 {
                for b in &picked {
                    if view && columns {
                        black_box(if std::env::var_os("BCSV_PROFILE_DECODE").is_some() {
                            read_columns::<true>(black_box(b))
                        } else {
                            read_columns::<false>(black_box(b))
                        });
                    } else if view {
                        black_box(if std::env::var_os("BCSV_PROFILE_DECODE").is_some() {
                            read_cells::<true>(black_box(b))
                        } else {
                            read_cells::<false>(black_box(b))
                        });
                    } else if jmap_too {
                        black_box(
                            lib_bcsv_jmap::from_buffer(
                                lib_bcsv_jmap::smg_hash_table(),
                                black_box(b),
                                &lib_bcsv_jmap::IoOptions::default(),
                            )
                            .unwrap(),
                        );
                    } else if write {
                        black_box(black_box(&model).write().unwrap());
                    } else {
                        black_box(Table::parse(black_box(b)).unwrap());
                    }
                    n += 1;
                }
            }
        }
        let cpu = thread_cpu().unwrap() - c0;
        eprintln!("profiled: {:.1} ns CPU per table", cpu * 1e9 / n as f64);
        return;
    }
    let opts = lib_bcsv_jmap::IoOptions::default();
    let jmap =
        |b: &[u8]| lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), b, &opts).unwrap();
    let models: Vec<Table> = tables
        .iter()
        .map(|(_, b)| Table::parse(b).unwrap())
        .collect();
    for ((name, b), m) in tables.iter().zip(&models) {
        assert_eq!(&m.write().unwrap(), b, "{name}: byte-exact write");
        assert_eq!(
            read_columns::<false>(b),
            read_cells::<false>(b),
            "{name}: columns"
        );
        assert_eq!(
            read_columns::<true>(b),
            read_cells::<true>(b),
            "{name}: columns"
        );
    }
    let theirs: Vec<_> = tables.iter().map(|(_, b)| jmap(b)).collect();
    common::ratios(
        "bcsv",
        "real all tables",
        total,
        30,
        &[
            ("lib-bcsv-jmap parse", &|| {
                tables
                    .iter()
                    .map(|(_, b)| jmap(black_box(b)).len())
                    .sum::<usize>()
            }),
            ("view every cell", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_cells::<false>(black_box(b)) as usize)
                    .sum::<usize>()
            }),
            ("view + strings decoded", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_cells::<true>(black_box(b)) as usize)
                    .sum::<usize>()
            }),
            ("view columns", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_columns::<false>(black_box(b)) as usize)
                    .sum::<usize>()
            }),
            ("view columns + decoded", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_columns::<true>(black_box(b)) as usize)
                    .sum::<usize>()
            }),
            ("owned parse", &|| {
                tables
                    .iter()
                    .map(|(_, b)| Table::parse(black_box(b)).unwrap().len())
                    .sum::<usize>()
            }),
            ("write", &|| {
                models
                    .iter()
                    .map(|m| black_box(m).write().unwrap().len())
                    .sum::<usize>()
            }),
            ("lib-bcsv-jmap write", &|| {
                theirs
                    .iter()
                    .map(|t| lib_bcsv_jmap::to_buffer(black_box(t), &opts).unwrap().len())
                    .sum::<usize>()
            }),
        ],
    );
    // `BCSV_CPU_TIME=1`: the same operations over all real tables by thread CPU time (steady
    // on a loaded machine, where wall-clock best-of-N still counts other jobs' time slices).
    if std::env::var_os("BCSV_CPU_TIME").is_some() {
        let ops: [(&str, &dyn Fn() -> usize); 7] = [
            ("lib-bcsv-jmap parse", &|| {
                tables.iter().map(|(_, b)| jmap(black_box(b)).len()).sum()
            }),
            ("view every cell", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_cells::<false>(black_box(b)) as usize)
                    .sum()
            }),
            ("view + strings decoded", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_cells::<true>(black_box(b)) as usize)
                    .sum()
            }),
            ("view columns", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_columns::<false>(black_box(b)) as usize)
                    .sum()
            }),
            ("view columns + decoded", &|| {
                tables
                    .iter()
                    .map(|(_, b)| read_columns::<true>(black_box(b)) as usize)
                    .sum()
            }),
            ("owned parse", &|| {
                tables
                    .iter()
                    .map(|(_, b)| Table::parse(black_box(b)).unwrap().len())
                    .sum()
            }),
            ("write", &|| {
                models
                    .iter()
                    .map(|m| black_box(m).write().unwrap().len())
                    .sum()
            }),
        ];
        for (name, op) in ops {
            if let Some(rate) = cpu_rate(total, || {
                black_box(op());
            }) {
                eprintln!(
                    "bcsv cpu-time real all tables {name:24} {:9.1} MB/s",
                    rate * f64::from(1 << 20) / 1e6
                );
            }
        }
    }
    // The owned parse per table, largest first: the target is every table.
    let mut order: Vec<usize> = (0..tables.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(tables[i].1.len()));
    let mut worst = f64::MAX;
    for i in order {
        let (name, b) = &tables[i];
        let short = name.rsplit(['/', ':']).next().unwrap_or(name);
        // Small tables parse in well under a microsecond: each timing covers about 64 KB of
        // calls, so the clock's own cost stays out of the ratio.
        let reps = (65_536 / b.len()).max(1);
        let best = common::ratios(
            "bcsv",
            &format!("parse {short}"),
            b.len() * reps,
            if b.len() > 4096 { 30 } else { 100 },
            &[
                ("lib-bcsv-jmap", &|| {
                    (0..reps).map(|_| jmap(black_box(b)).len()).sum::<usize>()
                }),
                ("gcformats", &|| {
                    (0..reps)
                        .map(|_| Table::parse(black_box(b)).unwrap().len())
                        .sum::<usize>()
                }),
            ],
        );
        worst = worst.min(best[0] / best[1]);
    }
    eprintln!("bcsv ratio: owned parse, slowest table {worst:.2}x lib-bcsv-jmap");
}

/// CPU seconds used by this thread (utime + stime of /proc/thread-self/stat, 10 ms ticks). On the
/// shared 2-core machine wall time also counts other jobs' time slices; CPU time does not.
fn thread_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// MiB/s of `f` over `bytes`, by CPU time, repeating until 3 CPU seconds have passed.
fn cpu_rate(bytes: usize, mut f: impl FnMut()) -> Option<f64> {
    let start = thread_cpu()?;
    let mut n = 0u32;
    loop {
        f();
        n += 1;
        let t = thread_cpu()? - start;
        if t >= 3.0 {
            return Some(bytes as f64 * f64::from(n) / t / f64::from(1 << 20));
        }
    }
}

/// `BCSV_CPU_TIME=1`: prints CPU-time throughputs of every operation (ours and lib-bcsv-jmap's).
fn cpu_report(data: &[u8], model: &Table) {
    let opts = lib_bcsv_jmap::IoOptions::default();
    let theirs = lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), data, &opts).unwrap();
    type Op<'a> = (&'static str, Box<dyn Fn() + 'a>);
    let ops: [Op<'_>; 6] = [
        (
            "view_read_every_cell",
            Box::new(|| {
                black_box(read_cells::<false>(black_box(data)));
            }),
        ),
        (
            "model_parse",
            Box::new(|| drop(black_box(Table::parse(black_box(data)).unwrap()))),
        ),
        (
            "model_write",
            Box::new(|| drop(black_box(model.write().unwrap()))),
        ),
        ("to_csv", Box::new(|| drop(black_box(bcsv::to_csv(model))))),
        (
            "lib_bcsv_jmap_parse",
            Box::new(|| {
                drop(black_box(
                    lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), data, &opts)
                        .unwrap(),
                ))
            }),
        ),
        (
            "lib_bcsv_jmap_write",
            Box::new(|| drop(black_box(lib_bcsv_jmap::to_buffer(&theirs, &opts).unwrap()))),
        ),
    ];
    for (name, op) in &ops {
        if let Some(rate) = cpu_rate(data.len(), op) {
            println!("cpu-time bcsv/{name}: {rate:.1} MiB/s");
        }
    }
}

fn table(c: &mut Criterion) {
    let model = bcsv::build::every_type(ROWS);
    let data = model.write().unwrap();
    assert_eq!(Table::parse(&data).unwrap().write().unwrap(), data);
    // The same table for benches/bcsv_pyjmap.py.
    if let Ok(path) = std::env::var("BCSV_BENCH_DUMP") {
        std::fs::write(path, &data).unwrap();
    }
    if std::env::var_os("BCSV_CPU_TIME").is_some() {
        cpu_report(&data, &model);
    }
    let mut g = c.benchmark_group("bcsv");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("view_read_every_cell", |b| {
        b.iter(|| read_cells::<false>(black_box(&data)))
    });
    g.bench_function("model_parse", |b| {
        b.iter(|| Table::parse(black_box(&data)).unwrap())
    });
    g.bench_function("model_write", |b| {
        b.iter(|| black_box(&model).write().unwrap())
    });
    g.bench_function("to_csv", |b| b.iter(|| bcsv::to_csv(black_box(&model))));
    let opts = lib_bcsv_jmap::IoOptions::default();
    g.bench_function("lib_bcsv_jmap_parse", |b| {
        b.iter(|| {
            lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), black_box(&data), &opts)
                .unwrap()
        })
    });
    let theirs = lib_bcsv_jmap::from_buffer(lib_bcsv_jmap::smg_hash_table(), &data, &opts).unwrap();
    g.bench_function("lib_bcsv_jmap_write", |b| {
        b.iter(|| lib_bcsv_jmap::to_buffer(black_box(&theirs), &opts).unwrap())
    });
    g.finish();
}

fn golden(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = bcsv::golden::cases().iter().map(|g| g.file()).collect();
    let mut g = c.benchmark_group("bcsv_golden");
    g.throughput(Throughput::Bytes(
        files.iter().map(|f| f.len() as u64).sum(),
    ));
    g.bench_function("parse_write", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|f| Table::parse(black_box(f)).unwrap().write().unwrap().len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, real, table, golden);
criterion_main!(benches);
