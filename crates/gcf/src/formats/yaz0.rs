//! `yaz0`: Yaz0 streams (`.szs`). Detection names the decompressed payload's format; the payload is
//! the stream's one member, so `roundtrip --deep` and `survey` descend into the archive inside.

use std::path::Path;

use gcio::{Error, Limits, Result};
use yaz0::{Encoder, Matching, Stream};

use crate::{Detection, Format, Info, Member, Options, extension, io_error};

/// The Yaz0 format.
pub struct Yaz0;

/// Payload bytes `identify` decodes to name the format inside (every real game file's payload
/// fits, so their detail is the whole payload's).
const DETECT_PREFIX: usize = 16 << 20;

/// Name of the single member (the decompressed payload).
const PAYLOAD: &str = "payload";

fn is_compressed_ext(path: &Path) -> bool {
    matches!(extension(path).as_str(), "szs" | "yaz0" | "carc")
}

/// The encoder chosen by `-o yaz0=NAME` / `--yaz0 NAME` (default: Nintendo's).
pub(crate) fn encoder(opts: &Options) -> Result<Encoder> {
    match opts.get("yaz0").map(String::as_str) {
        None | Some("") | Some("true") => Ok(Encoder::Matching(Matching::Nintendo)),
        Some(name) => Encoder::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Encoder::ALL.iter().map(|e| e.name()).collect();
            Error::without_offset(gcio::ErrorKind::Invalid(format!(
                "unknown Yaz0 encoder {name:?} ({})",
                names.join(", ")
            )))
        }),
    }
}

impl Format for Yaz0 {
    fn name(&self) -> &'static str {
        "yaz0"
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        if !yaz0::is_yaz0(data) || data.len() < yaz0::HEADER_LEN {
            return None;
        }
        // Only streams that decode: text that happens to start with "Yaz0" is not one. Naming
        // the payload needs its first bytes only, so a bomb is never expanded whole.
        let inner = yaz0::decode_prefix(data, DETECT_PREFIX).ok()?;
        Some(Detection {
            format: "yaz0",
            detail: Some(crate::identify(&inner, path).format.to_owned()),
        })
    }

    fn info(&self, data: &[u8]) -> Result<Info> {
        let s = Stream::parse(data)?;
        let payload = s.decode();
        let stats = s.stats();
        let encoders: Vec<&str> = s.identify(&payload).iter().map(|e| e.name()).collect();
        let encoder = encoders.first().copied().unwrap_or("unknown");
        let inner = crate::identify(&payload, "").format;
        let ratio = if payload.is_empty() {
            0.0
        } else {
            data.len() as f64 / payload.len() as f64 * 100.0
        };
        let text = format!(
            "decompressed size: {} bytes ({ratio:.2} % compressed)\ninner format: {inner}\nencoder: {encoder}{}\ngroups: {}, literals: {}, back-references: {}\nend of tokens: {:#x}, trailing bytes: {}\nheader bytes 0x08..0x10: {:02x?}\n",
            s.header.size,
            if encoders.len() > 1 {
                format!(
                    " (also reproduced by: {})",
                    encoders.get(1..).unwrap_or_default().join(", ")
                )
            } else {
                String::new()
            },
            stats.groups,
            stats.literals,
            stats.back_references,
            stats.end_offset,
            s.trailing.len(),
            s.header.reserved,
        );
        let json = serde_json::json!({
            "uncompressed_size": s.header.size,
            "inner_format": inner,
            "encoder": encoder,
            "encoders": encoders,
            "groups": stats.groups,
            "literals": stats.literals,
            "back_references": stats.back_references,
            "end_offset": stats.end_offset,
            "trailing_bytes": s.trailing.len(),
            "reserved": s.header.reserved,
        });
        Ok(Info { text, json })
    }

    /// Survey facts: the payload's format and stream details an encoder leaves behind (trailing
    /// bytes, non-zero reserved header words). Encoder identification stays in `info`: it
    /// re-encodes the payload once per known encoder, too slow for a disc-wide survey.
    fn facts(&self, data: &[u8]) -> Vec<(String, u64)> {
        let Ok(s) = Stream::parse(data) else {
            return Vec::new();
        };
        let payload = s.decode();
        vec![
            (
                format!("payload {}", crate::identify(&payload, "").format),
                1,
            ),
            (format!("trailing bytes={}", !s.trailing.is_empty()), 1),
        ]
    }

    fn roundtrip(&self, data: &[u8]) -> Result<Vec<u8>> {
        Ok(Stream::parse(data)?.write())
    }

    fn check(&self, data: &[u8], _opts: &Options) -> Result<Vec<gcio::Diagnostic>> {
        Ok(yaz0::validate(data, &Limits::default()))
    }

    fn members(&self, data: &[u8]) -> Result<Vec<Member>> {
        Ok(vec![Member {
            name: PAYLOAD.to_owned(),
            data: yaz0::decode(data)?,
        }])
    }

    /// `x.szs → x.arc` (or any other name) decompresses; `x.arc → x.szs` compresses with
    /// `-o yaz0=ENCODER` (default `nintendo`).
    fn convert(&self, input: &[u8], _from: &Path, to: &Path, opts: &Options) -> Option<Result<()>> {
        let out = if yaz0::is_yaz0(input) {
            if is_compressed_ext(to) {
                return None;
            }
            yaz0::decode(input)
        } else if is_compressed_ext(to) {
            encoder(opts).map(|e| yaz0::encode(input, e))
        } else {
            return None;
        };
        Some(out.and_then(|bytes| std::fs::write(to, bytes).map_err(|e| io_error(to, e))))
    }

    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        let arc = rarc::pack(&rarc::sample_tree(), rarc::PackOptions::default()).write();
        arc.map(|a| {
            vec![(
                "stage.szs".to_owned(),
                yaz0::encode(&a, Encoder::Matching(Matching::Nintendo)),
            )]
        })
        .unwrap_or_default()
    }
}
