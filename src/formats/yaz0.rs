//! `yaz0` and `yay0`: compressed streams (`.szs`; Galaxy's `.arc` files are Yaz0 too). Detection
//! names the decompressed payload's format; the payload is the stream's one member, so
//! `roundtrip`, `check` and `survey` descend into the archive inside (and `gcf extract` goes
//! through to it). A damaged stream is still identified as one, with the offset where decoding failed.
//!
//! The names, extensions, conversions offered, stream detection, token parse, write-back and
//! rules are the crate's contracts (`yaz0::Yaz0Format`, `yaz0::Yay0Format`); these adapters stay
//! hand-written rather than [`crate::Registered`] because their parse state is the facade's, not
//! a contract model: the payload that detection already decoded to name the format inside
//! (handed over by [`Format::detect_parsed`], shared with the member), with the token model
//! parsed only when a question needs it.

use std::sync::OnceLock;

use bytes::Bytes;
use gcio::{Error, FileFormat, Limits, Result};
use yaz0::{Encoder, Matching, Stream, Yay0Format, Yaz0Format};

use crate::{Detection, Format, Info, Input, Member, Options, Rewrite};

/// The Yaz0 format.
pub struct Yaz0;

/// Payload bytes `identify` decodes to name the format inside (every real game file's payload
/// fits, so their detail is the whole payload's).
const DETECT_PREFIX: usize = 16 << 20;

/// Largest payload `info` names the encoder of (real streams: under 3 MiB in the corpus).
const IDENTIFY_MAX: usize = 64 << 20;

/// Name of the single member (the decompressed payload).
const PAYLOAD: &str = "payload";

/// A Yaz0 file parsed once: the payload (decoded by detection when it fits its prefix, and
/// shared with the member, not copied) and, parsed when a question needs it, the stream model
/// (every token, for the write-back and the checks).
struct Parsed {
    payload: Bytes,
    stream: OnceLock<Result<Stream>>,
}

impl Parsed {
    fn new(payload: Vec<u8>) -> Parsed {
        Parsed {
            payload: Bytes::from(payload),
            stream: OnceLock::new(),
        }
    }

    fn stream(&self, data: &Input<'_>) -> Result<&Stream> {
        self.stream
            .get_or_init(|| Yaz0Format::parse_with(data, data.limits()))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The payload's format, or `damaged: ERROR` (with the offset) when the stream does not decode.
fn payload_detail(decoded: &Result<Vec<u8>>, path: &str) -> String {
    match decoded {
        Ok(inner) => crate::identify_named(inner, path)
            .map_or(crate::UNKNOWN, |d| d.format)
            .to_owned(),
        Err(e) => format!("damaged: {e}"),
    }
}

/// The payload's format, named from its first [`DETECT_PREFIX`] bytes as `identify` does (a
/// detector may scan all it is given; a bomb's gigabyte of zeros is not worth it).
fn payload_format(payload: &[u8]) -> &'static str {
    crate::identify(payload.get(..DETECT_PREFIX).unwrap_or(payload))
        .map_or(crate::UNKNOWN, |d| d.format)
}

/// The encoder chosen by `-o yaz0=NAME` / `--yaz0 NAME` (default: Nintendo's).
pub(crate) fn encoder(opts: &Options) -> Result<Encoder> {
    match opts.get("yaz0").map(String::as_str) {
        None | Some("") | Some("true") => Ok(rarc::layer::DEFAULT_ENCODER),
        Some(name) => rarc::layer::encoder_named(name),
    }
}

impl Format for Yaz0 {
    fn name(&self) -> &'static str {
        Yaz0Format::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        Yaz0Format::ALIASES
    }

    fn extensions(&self) -> &'static [&'static str] {
        Yaz0Format::EXTENSIONS
    }

    fn conversions(&self) -> &'static [gcio::ConversionSpec] {
        Yaz0Format::CONVERSIONS
    }

    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        self.detect_parsed(data, path).map(|(d, _)| d)
    }

    /// Naming the payload needs its first bytes only, so a bomb is never expanded whole; a
    /// payload that fits the prefix is decoded whole, and kept as the parse.
    fn detect_parsed(&self, data: &[u8], path: &str) -> Option<(Detection, Option<crate::Parsed>)> {
        let found = Yaz0Format::detect(data)?;
        let prefix = yaz0::decode_prefix(data, DETECT_PREFIX);
        let whole = yaz0::Header::parse(data)
            .is_ok_and(|h| prefix.as_ref().is_ok_and(|p| p.len() == h.size as usize));
        let detail = payload_detail(&prefix, path);
        let state: Option<crate::Parsed> = match prefix {
            Ok(p) if whole => Some(Box::new(Parsed::new(p))),
            _ => None,
        };
        Some((
            Detection {
                format: found.name,
                detail: Some(detail),
            },
            state,
        ))
    }

    /// The header's payload size.
    fn expands_to(&self, data: &[u8]) -> Option<u64> {
        yaz0::Header::parse(data).ok().map(|h| u64::from(h.size))
    }

    /// The payload, decoded once for every question (the stream's tokens on first need).
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<crate::Parsed> {
        Ok(Box::new(Parsed::new(yaz0::decode_with(data, limits)?)))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let p = data.parsed::<Parsed>()?;
        let (s, payload) = (p.stream(data)?, &p.payload);
        let stats = s.stats();
        // Naming the encoder re-encodes the payload (up to the first token that differs, per
        // encoder), so it is skipped past a size no real stream comes near.
        let encoders: Vec<&str> = if payload.len() <= IDENTIFY_MAX {
            s.identify(payload).iter().map(|e| e.name()).collect()
        } else {
            Vec::new()
        };
        let encoder = match encoders.first() {
            Some(e) => e,
            None if payload.len() > IDENTIFY_MAX => "not identified (payload over 64 MiB)",
            None => "unknown",
        };
        let inner = payload_format(payload);
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
    fn facts(&self, data: &Input<'_>) -> Vec<(String, u64)> {
        let Ok(p) = data.parsed::<Parsed>() else {
            return Vec::new();
        };
        let (Ok(stream), payload) = (p.stream(data), &p.payload) else {
            return Vec::new();
        };
        vec![
            (format!("payload {}", payload_format(payload)), 1),
            (format!("trailing bytes={}", !stream.trailing.is_empty()), 1),
        ]
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        Ok(Yaz0Format::write(data.parsed::<Parsed>()?.stream(data)?)?.into())
    }

    /// The `YAZ0-*` rules on the parsed stream; a stream that does not parse is validated from
    /// its bytes (the finding names the rule it breaks and the offset).
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<gcio::Diagnostic>> {
        Ok(match data.parsed::<Parsed>().and_then(|p| p.stream(data)) {
            Ok(s) => yaz0::validate_model(s),
            Err(_) => Yaz0Format::validate_with(data, data.limits()),
        })
    }

    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        Ok(vec![Member {
            name: PAYLOAD.to_owned(),
            data: data.parsed::<Parsed>()?.payload.clone(),
        }])
    }

    #[cfg(feature = "convert")]
    /// `x.arc → x.szs` compresses with `-o yaz0=ENCODER` (default `nintendo`); `x.szs → x.arc`
    /// decompresses through [`crate::convert`].
    fn convert(&self, job: &crate::Conversion<'_>) -> Result<Option<crate::Outputs>> {
        let (input, to, opts) = (job.input, job.to, job.opts);
        // Decompression is the registry's (`crate::convert`: the payload, decoded once).
        if yaz0::is_yaz0(input) || !crate::archive::is_compressed_name(to) {
            return Ok(None);
        }
        Ok(Some(crate::one_file(
            to,
            yaz0::encode(input, encoder(opts)?),
        )))
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

/// The Yay0 format (SZP): the older three-stream variant of Yaz0.
pub struct Yay0;

impl Format for Yay0 {
    fn name(&self) -> &'static str {
        Yay0Format::NAME
    }

    fn aliases(&self) -> &'static [&'static str] {
        Yay0Format::ALIASES
    }

    fn extensions(&self) -> &'static [&'static str] {
        Yay0Format::EXTENSIONS
    }

    fn conversions(&self) -> &'static [gcio::ConversionSpec] {
        Yay0Format::CONVERSIONS
    }

    /// The magic and a header whose stream offsets fall inside the file.
    fn detect(&self, data: &[u8], path: &str) -> Option<Detection> {
        self.detect_parsed(data, path).map(|(d, _)| d)
    }

    /// The header's payload size (word 4).
    fn expands_to(&self, data: &[u8]) -> Option<u64> {
        gcio::Reader::new(data).u32(4).ok().map(u64::from)
    }

    /// Naming the payload needs its first bytes only (as for Yaz0); a payload that fits the
    /// prefix is decoded whole, and kept as the parse.
    fn detect_parsed(&self, data: &[u8], path: &str) -> Option<(Detection, Option<crate::Parsed>)> {
        let found = Yay0Format::detect(data)?;
        let decoded = yaz0::yay0::decode_prefix(data, DETECT_PREFIX);
        let detail = payload_detail(&decoded, path);
        let whole = self
            .expands_to(data)
            .is_some_and(|n| decoded.as_ref().is_ok_and(|p| p.len() as u64 == n));
        let state = decoded
            .ok()
            .filter(|_| whole)
            .map(|p| -> crate::Parsed { Box::new(Bytes::from(p)) });
        Some((
            Detection {
                format: found.name,
                detail: Some(detail),
            },
            state,
        ))
    }

    fn info(&self, data: &Input<'_>) -> Result<Info> {
        let (layer, payload) = rarc::layer::Layer::peel(data)
            .unwrap_or_else(|| Err(Error::message("not a Yay0 stream")))?;
        let inner = payload_format(&payload);
        let encoder = layer.encoder.map_or("unknown", |e| e.name());
        Ok(Info {
            text: format!(
                "decompressed size: {} bytes\ninner format: {inner}\nencoder: {encoder}\n",
                payload.len()
            ),
            json: serde_json::json!({
                "uncompressed_size": payload.len(),
                "inner_format": inner,
                "encoder": encoder,
            }),
        })
    }

    /// The payload, decoded once (the check and the member).
    fn parse(&self, data: &[u8], limits: &Limits) -> Result<crate::Parsed> {
        Ok(Box::new(Bytes::from(yaz0::yay0::decode_with(
            data, limits,
        )?)))
    }

    fn roundtrip(&self, data: &Input<'_>) -> Result<Rewrite> {
        Ok(Yay0Format::write(&Yay0Format::parse_with(data, data.limits())?)?.into())
    }

    /// Decoding is the check: a stream that does not decode is an error with its offset.
    fn check(&self, data: &Input<'_>, _opts: &Options) -> Result<Vec<gcio::Diagnostic>> {
        data.parsed::<Bytes>().map(|_| Vec::new())
    }

    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        Ok(vec![Member {
            name: PAYLOAD.to_owned(),
            data: data.parsed::<Bytes>()?.clone(),
        }])
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::formats::Ask;

    #[test]
    fn damaged_streams_are_yaz0_with_an_offset() {
        let good = yaz0::encode(&[7u8; 300], Encoder::Matching(Matching::Nintendo));
        let mut bad = good.clone();
        bad.truncate(good.len() - 1);
        let d = Yaz0.detect(&bad, "x.szs").unwrap();
        let detail = d.detail.unwrap();
        assert!(
            detail.starts_with("damaged:") && detail.contains("0x"),
            "{detail}"
        );
        assert!(Yaz0.detect(b"Yaz0 member inside a RARC.", "x").is_none());
        let e = Yaz0.roundtrip_of(&bad).unwrap_err().to_string();
        assert!(e.contains("0x"), "{e}");
        let yay0 =
            yaz0::yay0::Stream::encode(&[1u8; 100], Encoder::Matching(Matching::Nintendo)).write();
        let d = Yay0.detect(&yay0, "x.szp").unwrap();
        assert_eq!(d.detail.as_deref(), Some("unknown"));
        assert_eq!(Yay0.roundtrip_of(&yay0).unwrap(), yay0.into());
    }
}
