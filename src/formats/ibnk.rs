//! IBNK instrument banks (JAudio, versions 0 and 1): the crate's contract (`ibnk::Format`:
//! detection by the `IBNK` magic, parse, write, the IBNK-* rules) presented with `info` (the
//! layout and every program with its waves), survey facts, `check` with `--wsys waves.ws`
//! (option `wsys`: programs whose waves the wave system lacks) and `convert` bank ⇄ JSON
//! (identical bytes for unedited JSON).

use std::fmt::Write as _;

#[cfg(feature = "convert")]
use gcio::Error;
use gcio::{Diagnostic, Result};
use ibnk::model::{Body, ChunkData};

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input, Options};
use crate::{Present, Registered};

/// The IBNK format's presentation.
pub struct Ibnk;

/// The registry entry.
pub static ENTRY: Registered<ibnk::Format, Ibnk> = Registered::new(Ibnk);

fn chunk_summary(c: &ChunkData) -> String {
    let id = String::from_utf8_lossy(&c.id()).into_owned();
    let n = match c {
        ChunkData::Envt(e) => e.tables.len(),
        ChunkData::Osct(t) => t.items.len(),
        ChunkData::Rand(t) => t.items.len(),
        ChunkData::Sens(t) => t.items.len(),
        ChunkData::Inst(t) => t.items.len(),
        ChunkData::Pmap(t) => t.items.len(),
        ChunkData::Perc(t) => t.items.len(),
        ChunkData::List(t) => t.items.len(),
        ChunkData::Unknown { data, .. } => data.len(),
    };
    format!("{id}({n})")
}

impl Present<ibnk::Format> for Ibnk {
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "wsys",
            "X.ws: the wave system the bank plays from (its waves must exist)",
        )]
    }

    fn info(&self, data: &Input<'_>, bank: &ibnk::Bank) -> Result<Info> {
        let layout = match &bank.body {
            Body::V1(b) => b.chunks.iter().map(|c| chunk_summary(&c.data)).collect(),
            Body::V0(b) => vec![format!("{} objects", b.objects.len())],
        };
        let programs = bank.programs();
        let mut text = format!(
            "IBNK version {}, bank {}, {} bytes\nlayout: {}\n{} programs:\n",
            bank.version(),
            bank.id,
            data.len(),
            layout.join(" "),
            programs.len()
        );
        let mut rows = Vec::new();
        for p in &programs {
            let waves: Vec<String> = p.waves.iter().map(|w| format!("{w:#06x}")).collect();
            let kind = if p.drums { "drums" } else { "inst" };
            let unit = if p.drums { "keys" } else { "key regions" };
            let _ = writeln!(
                text,
                "  {:>3}  {kind:<5} {} {unit}, waves {}",
                p.program,
                p.regions,
                waves.join(" ")
            );
            rows.push(serde_json::json!({
                "program": p.program, "kind": kind, "regions": p.regions, "waves": p.waves,
            }));
        }
        let json = serde_json::json!({
            "version": bank.version(),
            "bank": bank.id,
            "bytes": data.len(),
            "layout": layout,
            "programs": rows,
        });
        Ok(Info { text, json })
    }

    /// Survey facts: bank version, instruments vs drum sets.
    fn facts(&self, _data: &Input<'_>, bank: &ibnk::Bank) -> Vec<(String, u64)> {
        let programs = bank.programs();
        let drums = programs.iter().filter(|p| p.drums).count() as u64;
        vec![
            (format!("version {}", bank.version()), 1),
            (
                "instrument programs".to_owned(),
                programs.len() as u64 - drums,
            ),
            ("drum-set programs".to_owned(), drums),
        ]
    }

    /// `wsys` ([`Input::companion`]): the wave system the bank plays from.
    fn companions(&self) -> &'static [&'static str] {
        &["wsys"]
    }

    /// The validator, and with a `wsys` companion the waves the bank's programs lack.
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<Diagnostic>> {
        let mut found = ibnk::validate_with(data, data.limits());
        if let Some(ws) = data.companion("wsys") {
            let bank = data.parsed::<ibnk::Bank>()?;
            found.extend(ibnk::wsys::missing_waves(bank, ws).map_err(|e| e.context("WSYS"))?);
        }
        Ok(found)
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, limits) = (job.input, job.from, job.to, job.limits);
        let is_bank = input.starts_with(b"IBNK");
        let out = match (
            is_bank,
            extension_of(from).as_str(),
            extension_of(to).as_str(),
        ) {
            (true, _, "json") => ibnk::Bank::parse_with(input, limits).and_then(|b| {
                serde_json::to_string_pretty(&b)
                    .map(|s| (s + "\n").into_bytes())
                    .map_err(|e| Error::message(format!("JSON: {e}")))
            }),
            (false, "json", "bnk" | "ibnk") => serde_json::from_slice::<ibnk::Bank>(input)
                .map_err(|e| Error::message(format!("{}: {e}", from)))
                .and_then(|b| b.write()),
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        ibnk::build::samples()
    }
}

#[cfg(all(test, feature = "convert"))]
mod tests {
    use super::*;
    use crate::formats::Ask;
    use crate::{Companions, Detection, Format};

    #[test]
    fn detect_info_check_wsys_and_json() {
        let d = ibnk::build::demo();
        for bank in [d.to_v0(9), d.to_v1(9)] {
            let bytes = bank.write().unwrap();
            assert_eq!(ENTRY.detect(&bytes, "x.bnk"), Some(Detection::new("ibnk")));
            assert_eq!(ENTRY.roundtrip_of(&bytes).unwrap(), bytes.clone().into());
            let info = ENTRY.info_of(&bytes).unwrap();
            assert_eq!(info.json["programs"].as_array().unwrap().len(), 4);
            assert!(ENTRY.check_of(&bytes, &Options::new()).unwrap().is_empty());

            let waves: Vec<u16> = d.waves().into_iter().filter(|w| *w != 0x31).collect();
            let ws = ibnk::wsys::build(1, &[("a.aw", &waves)]);
            let files = crate::Companions::from([("wsys".to_owned(), ws)]);
            let file = crate::open_with(&bytes, &crate::OpenOptions::named("x.bnk")).unwrap();
            let found = file.validate_with(&Options::new(), &files).unwrap();
            assert_eq!(found.len(), 1);
            assert_eq!(
                found[0].message,
                "program 1: wave(s) 0x0031 missing from WSYS 1"
            );

            let (opts, none) = (Options::new(), Companions::new());
            let json = ENTRY.convert(&Conversion {
                input: &bytes,
                from: "a.bnk",
                to: "a.json",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default(),
            });
            let [(name, text)] = &json.unwrap().unwrap()[..] else {
                panic!("one file")
            };
            assert_eq!(name, "a.json");
            let back = ENTRY.convert(&Conversion {
                input: text,
                from: "a.json",
                to: "b.bnk",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default(),
            });
            assert_eq!(back.unwrap(), Some(one_file("b.bnk", bytes)));
        }
        let none = Companions::new();
        assert!(matches!(
            ENTRY.convert(&Conversion {
                input: b"IBNK",
                from: "a.bnk",
                to: "a.txt",
                opts: &Options::new(),
                companions: &none,
                limits: &gcio::Limits::default()
            }),
            Ok(None)
        ));
    }
}
