//! BMS (JAudio2 sequences). The format has no header, so detection is strict: a `.bms` name AND a
//! control-flow walk from offset 0 that finds code and no structural error. The entry sits last in
//! `FORMATS`, so every format with a signature is asked first. `convert` disassembles to text
//! (`.txt`), assembles text back (`.txt` → `.bms`) and exports MIDI (`.mid`, `-o loops=N`).

use std::fmt::Write as _;
use std::path::Path;

use gcio::{Diagnostic, Error, ErrorKind, Result, Severity};

use crate::format::{Detection, Format, Info, Options, extension, io_error};

/// The BMS format.
pub struct Bms;

fn invalid(m: String) -> Error {
    Error::without_offset(ErrorKind::Invalid(m))
}

/// True when the walk from offset 0 reaches code and meets no error.
fn sane(data: &[u8]) -> bool {
    bms::parse(data).is_ok_and(|v| {
        v.flow().instruction_count() > 0
            && v.flow()
                .findings()
                .iter()
                .all(|d| d.severity != Severity::Error)
    })
}

impl Format for Bms {
    fn name(&self) -> &'static str {
        "bms"
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        (extension(Path::new(path)) == "bms" && sane(data)).then(|| Detection::new("bms"))
    }

    fn info(&self, data: &[u8]) -> Result<Info> {
        let view = bms::parse(data)?;
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

    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>> {
        bms::Program::disassemble(data)?.write()
    }

    fn check(&self, data: &[u8], _opts: &Options) -> Result<Vec<Diagnostic>> {
        Ok(bms::validate(data))
    }

    fn convert(&self, input: &[u8], from: &Path, to: &Path, opts: &Options) -> Option<Result<()>> {
        let (src, dst) = (extension(from), extension(to));
        let out = match (src.as_str(), dst.as_str()) {
            ("bms", "txt") => {
                bms::Program::disassemble(input).map(|p| bms::to_text(&p).into_bytes())
            }
            ("txt", "bms") => std::str::from_utf8(input)
                .map_err(|e| invalid(format!("text is not UTF-8: {e}")))
                .and_then(bms::from_text)
                .and_then(|p| p.write()),
            ("bms", "mid" | "midi") => {
                let mut o = bms::midi::ExportOptions::default();
                match opts.get("loops").map(|v| v.parse::<u32>()) {
                    Some(Ok(n)) => o.loops = n,
                    Some(Err(e)) => return Some(Err(invalid(format!("loops: {e}")))),
                    None => {}
                }
                bms::midi::export(input, &o)
            }
            _ => return None,
        };
        Some(out.and_then(|bytes| std::fs::write(to, bytes).map_err(|e| io_error(to, e))))
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
