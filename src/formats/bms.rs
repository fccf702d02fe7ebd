//! BMS (JAudio2 sequences): the crate's contract (`bms::Format`: detection, parse, write, the
//! BMS-* rules) presented with `info` (the walk's totals and tracks), survey facts and `convert`.
//! The format has no header, so detection is strict: a `.bms` name AND a control-flow walk from
//! offset 0 that finds code and no structural error (a weak detection). The entry sits last in
//! `FORMATS`, so every format with a signature is asked first. `convert` disassembles to text
//! (`.txt`), assembles text back (`.txt` → `.bms`) and exports MIDI (`.mid`, `-o loops=N`).

use std::fmt::Write as _;

#[cfg(feature = "convert")]
use gcio::Error;
use gcio::Result;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices, Outputs, extension_of, one_file};
use crate::format::{Info, Input};
use crate::{Present, Registered};

/// The BMS format's presentation.
pub struct Bms;

/// The registry entry.
pub static ENTRY: Registered<bms::Format, Bms> = Registered::new(Bms);

impl Present<bms::Format> for Bms {
    /// The walk's totals and tracks, from the zero-copy view (made under the same limits).
    fn info(&self, data: &Input<'_>, _: &bms::Program) -> Result<Info> {
        let view = bms::parse_with(data, data.limits())?;
        let flow = view.flow();
        let code = (0..data.len())
            .filter(|&o| {
                matches!(
                    flow.class(o),
                    bms::flow::Class::Code | bms::flow::Class::CodeTail
                )
            })
            .count();
        let mut text = format!(
            "{} bytes: {} instructions ({code} bytes of code), {} tables, {} labels, {} findings\n",
            data.len(),
            flow.instruction_count(),
            flow.tables().len(),
            flow.labels().len(),
            flow.findings().len()
        );
        let mut tracks = Vec::new();
        for t in view.tracks() {
            let n = t.number.map_or("root".to_owned(), |n| n.to_string());
            let _ = writeln!(text, "  track {n:<4} entry {:#08x}", t.entry);
            tracks.push(
                serde_json::json!({"number": t.number, "entry": t.entry, "opened_at": t.opened_at}),
            );
        }
        let json = serde_json::json!({
            "bytes": data.len(),
            "instructions": flow.instruction_count(),
            "code_bytes": code,
            "tables": flow.tables().len(),
            "labels": flow.labels().len(),
            "findings": flow.findings().len(),
            "tracks": tracks,
        });
        Ok(Info { text, json })
    }

    #[cfg(feature = "convert")]
    fn convert_noting(&self, job: &Conversion<'_>, _: &mut Notices) -> Result<Option<Outputs>> {
        let (input, from, to, opts, limits) = (job.input, job.from, job.to, job.opts, job.limits);
        let (src, dst) = (extension_of(from), extension_of(to));
        let out = match (src.as_str(), dst.as_str()) {
            ("bms", "txt") => {
                bms::Program::parse_with(input, limits).map(|p| bms::to_text(&p).into_bytes())
            }
            ("txt", "bms") => std::str::from_utf8(input)
                .map_err(|e| Error::message(format!("text is not UTF-8: {e}")))
                .and_then(bms::from_text)
                .and_then(|p| p.write()),
            ("bms", "mid" | "midi") => {
                let mut o = bms::midi::ExportOptions::default();
                match opts.get("loops").map(|v| v.parse::<u32>()) {
                    Some(Ok(n)) => o.loops = n,
                    Some(Err(e)) => return Err(Error::message(format!("loops: {e}"))),
                    None => {}
                }
                bms::midi::export(input, &o)
            }
            _ => return Ok(None),
        };
        out.map(|bytes| Some(one_file(to, bytes)))
    }

    /// Opcode counts, tracks, tables and walk findings, from the zero-copy view.
    fn facts(&self, data: &Input<'_>, _: &bms::Program) -> Vec<(String, u64)> {
        let Ok(view) = bms::parse_with(data, data.limits()) else {
            return Vec::new();
        };
        let mut counts = std::collections::BTreeMap::<String, u64>::new();
        for (_, insn) in view.instructions() {
            let key = match &insn {
                bms::Instruction::Note { gate: Some(_), .. } => "note (gate)".to_owned(),
                bms::Instruction::Note { .. } => "note (voice)".to_owned(),
                bms::Instruction::VoiceOff(n) => format!("opcode {:#04x}", 0x80 | n),
                bms::Instruction::Command(c) => {
                    if c.prefix.is_some() {
                        *counts.entry("register prefix".to_owned()).or_insert(0) += 1;
                    }
                    format!("opcode {:#04x}", c.opcode)
                }
            };
            *counts.entry(key).or_insert(0) += 1;
        }
        let flow = view.flow();
        counts.insert("tracks".to_owned(), view.tracks().len() as u64);
        counts.insert("tables".to_owned(), flow.tables().len() as u64);
        for d in flow.findings() {
            *counts
                .entry(format!("walk finding {}", d.rule))
                .or_insert(0) += 1;
        }
        counts.into_iter().collect()
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        bms::build::samples()
            .map(|v| {
                v.into_iter()
                    .map(|s| (s.name.to_owned(), s.bytes))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(all(test, feature = "convert"))]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::formats::Ask;
    use crate::{Companions, Format, Options};

    fn sample() -> Vec<u8> {
        bms::build::demo_song()
    }

    #[test]
    fn detection_needs_extension_and_a_clean_walk() {
        let song = sample();
        assert!(ENTRY.detect(&song, "a/song.BMS").is_some());
        assert!(ENTRY.detect(&song, "song.bin").is_none());
        // Code that jumps past the end or never ends is not claimed.
        assert!(ENTRY.detect(&[0xC7, 0x12, 0x34, 0x56], "x.bms").is_none());
        assert!(ENTRY.detect(&[0xFE, 0xFE], "x.bms").is_none());
        assert!(ENTRY.detect(b"", "x.bms").is_none());
        assert!(ENTRY.detect(b"RARC\0\0\0\0", "x.bms").is_none());
        // One bad offset in an otherwise clean sequence: still a BMS, and `check` says why.
        let mut broken = song.clone();
        let at = broken
            .windows(2)
            .position(|w| w == [0xC8, 0x01])
            .unwrap_or(0);
        broken.splice(at + 2..at + 5, [0xFF, 0xFF, 0xFF]);
        assert!(ENTRY.detect(&broken, "x.bms").is_some());
        let d = ENTRY.check_of(&broken, &Options::new()).unwrap_or_default();
        assert!(d.iter().any(|d| d.rule == "BMS-005"), "{d:?}");
    }

    #[test]
    fn samples_match_builders_and_round_trip() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/bms");
        for (name, bytes) in ENTRY.samples() {
            assert_eq!(
                ENTRY.roundtrip_of(&bytes).ok().map(|r| r.bytes),
                Some(bytes.clone()),
                "{name}"
            );
            assert!(
                ENTRY
                    .check_of(&bytes, &Options::new())
                    .is_ok_and(|d| d.is_empty()),
                "{name}"
            );
            if let Ok(on_disk) = std::fs::read(dir.join(&name)) {
                assert_eq!(on_disk, bytes, "samples/bms/{name} is stale");
            }
        }
    }

    /// The one file each conversion returns, named as the target.
    fn one(r: Result<Option<Outputs>>) -> Result<Vec<u8>> {
        let mut files = r?.unwrap_or_default();
        assert_eq!(files.len(), 1);
        Ok(files.remove(0).1)
    }

    #[test]
    fn convert_text_and_midi() {
        let song = sample();
        let (opts, none) = (Options::new(), Companions::new());
        let text = one(ENTRY.convert(&Conversion {
            input: &song,
            from: "s.bms",
            to: "s.txt",
            opts: &opts,
            companions: &none,
            limits: &gcio::Limits::default(),
        }))
        .unwrap_or_default();
        let back = ENTRY.convert(&Conversion {
            input: &text,
            from: "s.txt",
            to: "t.bms",
            opts: &opts,
            companions: &none,
            limits: &gcio::Limits::default(),
        });
        assert_eq!(back.ok().flatten(), Some(one_file("t.bms", song.clone())));
        let loops: Options = [("loops".to_owned(), "2".to_owned())].into();
        let mid = one(ENTRY.convert(&Conversion {
            input: &song,
            from: "s.bms",
            to: "s.mid",
            opts: &loops,
            companions: &none,
            limits: &gcio::Limits::default(),
        }));
        assert!(mid.is_ok_and(|m| m.starts_with(b"MThd")));
        let bad: Options = [("loops".to_owned(), "x".to_owned())].into();
        assert!(
            ENTRY
                .convert(&Conversion {
                    input: &song,
                    from: "s.bms",
                    to: "s.mid",
                    opts: &bad,
                    companions: &none,
                    limits: &gcio::Limits::default()
                })
                .is_err()
        );
        assert!(matches!(
            ENTRY.convert(&Conversion {
                input: &song,
                from: "s.bms",
                to: "s.wav",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default()
            }),
            Ok(None)
        ));
        assert!(
            ENTRY
                .info_of(&song)
                .is_ok_and(|i| i.json["tracks"].as_array().map(Vec::len) == Some(4))
        );
    }
}
