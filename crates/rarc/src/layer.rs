//! Compression layers around an archive (a Galaxy `.arc` is a Yaz0 stream holding a RARC) and
//! around compressed members: peeled to reach the bytes inside, then put back with the encoder the
//! original used, so an unchanged archive re-compresses byte for byte.

use std::sync::Arc;

use gcio::{Error, Limits, Result};
use yaz0::{Encoder, Matching};

/// The stream format of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `Yaz0` (SZS): the usual one.
    Yaz0,
    /// `Yay0` (SZP): three-stream variant, older games.
    Yay0,
}

impl Kind {
    /// `yaz0` or `yay0`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Yaz0 => "yaz0",
            Kind::Yay0 => "yay0",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        [Kind::Yaz0, Kind::Yay0]
            .into_iter()
            .find(|k| k.name() == name)
    }

    /// The kind whose magic starts `data`.
    pub fn of(data: &[u8]) -> Option<Kind> {
        if yaz0::is_yaz0(data) {
            Some(Kind::Yaz0)
        } else if yaz0::yay0::is_yay0(data) {
            Some(Kind::Yay0)
        } else {
            None
        }
    }
}

/// One compression layer: what is needed to compress a payload again the way the original was.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layer {
    /// Stream format.
    pub kind: Kind,
    /// The encoder that reproduces the original stream exactly; `None` when no known encoder
    /// does (the stream is then given back from [`Layer::original`], or rebuilt with Nintendo's,
    /// decoding to the same bytes).
    pub encoder: Option<Encoder>,
    /// Yaz0 header bytes 0x08..0x10 (zero except in some Wii U streams).
    pub reserved: [u8; 8],
    /// For a Yaz0 stream no known encoder reproduces, what gives it back (kept by
    /// [`peel_all_keeping`] for the extract manifest).
    pub original: Option<Arc<Original>>,
}

/// A Yaz0 stream no known encoder reproduces, kept so that its unchanged payload compresses to
/// the original bytes: the stream's decisions (a token file beside the manifest) and, for an
/// edited payload, the named encoder nearest it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Original {
    /// The token file's name in the extracted folder.
    pub file: String,
    /// The stream's decisions ([`yaz0::Stream::decisions`]); empty when the file is missing.
    pub decisions: Vec<u8>,
    /// FNV-1a (32 bits) of the payload they encode: another payload is an edit.
    pub sum: u32,
    /// What compresses an edited payload: [`Encoder::closest`] to the original stream.
    pub closest: Encoder,
}

/// FNV-1a (32 bits): tells an edited payload or member from the original.
pub(crate) fn sum(data: &[u8]) -> u32 {
    data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The encoder used when the original one is unknown or a new layer is asked for.
pub const DEFAULT_ENCODER: Encoder = Encoder::Matching(Matching::Nintendo);

impl Layer {
    /// A new layer of `kind` with `encoder`.
    pub fn new(kind: Kind, encoder: Encoder) -> Layer {
        Layer {
            kind,
            encoder: Some(encoder),
            reserved: [0; 8],
            original: None,
        }
    }

    /// Peels one layer: `None` when `data` is not compressed, else the layer (with the encoder
    /// that reproduces it, found by re-encoding) and the payload. A stream that does not decode is
    /// an error with the offset where decoding failed.
    pub fn peel(data: &[u8]) -> Option<Result<(Layer, Vec<u8>)>> {
        let kind = Kind::of(data)?;
        Some(match kind {
            Kind::Yaz0 => yaz0::Stream::parse(data).map(|s| {
                let payload = s.decode();
                let layer = Layer {
                    kind,
                    encoder: s.identify(&payload).first().copied(),
                    reserved: s.header.reserved,
                    original: None,
                };
                (layer, payload)
            }),
            Kind::Yay0 => yaz0::yay0::Stream::parse(data).map(|s| {
                let payload = s.decode();
                // Yay0 has no identification of its own: re-encode with each exact encoder.
                let encoder = Encoder::ALL
                    .into_iter()
                    .filter(|e| matches!(e, Encoder::Matching(_)))
                    .find(|&e| yaz0::yay0::Stream::encode(&payload, e).write() == data);
                let layer = Layer {
                    kind,
                    encoder,
                    reserved: [0; 8],
                    original: None,
                };
                (layer, payload)
            }),
        })
    }

    /// Compresses `payload` as this layer: with the original encoder; else the original stream
    /// when [`Layer::original`] holds its decisions for this very payload, the closest encoder
    /// for another payload; else Nintendo's.
    pub fn wrap(&self, payload: &[u8]) -> Vec<u8> {
        let encoder = match (self.encoder, &self.original) {
            (Some(e), _) => e,
            (None, Some(o)) => match self.original_stream(payload) {
                Some(s) => return s.write(),
                None => o.closest,
            },
            (None, None) => DEFAULT_ENCODER,
        };
        match self.kind {
            Kind::Yaz0 => {
                let mut s = yaz0::Stream::encode(payload, encoder);
                s.header.reserved = self.reserved;
                s.write()
            }
            Kind::Yay0 => yaz0::yay0::Stream::encode(payload, encoder).write(),
        }
    }

    /// The original stream of `payload` from [`Layer::original`]'s decisions: `None` without
    /// them, or when `payload` is not the one they encode (an edit).
    fn original_stream(&self, payload: &[u8]) -> Option<yaz0::Stream> {
        let o = self.original.as_ref()?;
        (self.kind == Kind::Yaz0 && sum(payload) == o.sum)
            .then(|| yaz0::Stream::from_decisions(&o.decisions, payload, &Limits::default()).ok())
            .flatten()
    }

    /// For a layer whose original stream comes from [`Layer::original`]: whether `payload`
    /// gives it back; if not (an edit, or a missing token file), the layer takes the closest
    /// encoder and the returned notice names it. `None` for other layers.
    pub fn settle(&mut self, payload: &[u8]) -> Option<String> {
        let o = self.original.as_ref().filter(|_| self.encoder.is_none())?;
        if self.original_stream(payload).is_some() {
            return None;
        }
        let why = if o.decisions.is_empty() {
            format!("its token file {} is missing", o.file)
        } else {
            "the payload changed".to_owned()
        };
        let notice = format!(
            "original {} encoder unknown and {why}: compressed with {} (the named encoder closest to the original)",
            self.kind.name(),
            o.closest.name()
        );
        self.encoder = Some(o.closest);
        self.original = None;
        Some(notice)
    }

    /// `yaz0 nintendo`, `yay0 unknown`, … with `reserved=HEX` when the header words are not zero,
    /// and for an [`Original`] `tokens=FILE sum=HEX closest=ENCODER`.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{}\t{}",
            self.kind.name(),
            self.encoder.map_or("unknown", |e| e.name())
        );
        if self.reserved != [0; 8] {
            s.push_str(&format!("\treserved={}", hex(&self.reserved)));
        }
        if let Some(o) = &self.original {
            s.push_str(&format!(
                "\ttokens={}\tsum={:08x}\tclosest={}",
                o.file,
                o.sum,
                o.closest.name()
            ));
        }
        s
    }

    /// Reads [`Layer::describe`]'s columns back.
    pub fn parse(cols: &[&str]) -> Result<Layer> {
        let (kind, rest) = cols
            .split_first()
            .ok_or_else(|| Error::message("compression: missing kind"))?;
        let kind = Kind::from_name(kind).ok_or_else(|| {
            Error::message(format!("compression: unknown kind {kind:?} (yaz0, yay0)"))
        })?;
        let mut layer = Layer {
            kind,
            encoder: Some(DEFAULT_ENCODER),
            reserved: [0; 8],
            original: None,
        };
        let (mut file, mut sum, mut closest) = (None, None, None);
        for c in rest {
            if let Some(f) = c.strip_prefix("tokens=") {
                file = Some(f.to_owned());
            } else if let Some(h) = c.strip_prefix("sum=") {
                sum = Some(u32::from_str_radix(h, 16).map_err(|_| {
                    Error::message(format!("compression: sum={h}: need 8 hex digits"))
                })?);
            } else if let Some(e) = c.strip_prefix("closest=") {
                closest = Some(encoder_named(e)?);
            } else if let Some(h) = c.strip_prefix("reserved=") {
                let b = unhex(h)?;
                layer.reserved = b.try_into().map_err(|_| {
                    Error::message(format!("compression: reserved={h}: need 8 bytes"))
                })?;
            } else if *c == "unknown" {
                layer.encoder = None;
            } else {
                layer.encoder = Some(encoder_named(c)?);
            }
        }
        if let Some(file) = file {
            layer.original = Some(Arc::new(Original {
                file,
                decisions: Vec::new(),
                sum: sum.ok_or_else(|| Error::message("compression: tokens= needs sum="))?,
                closest: closest.unwrap_or(DEFAULT_ENCODER),
            }));
        }
        Ok(layer)
    }
}

/// The encoder called `name` (see [`Encoder::name`]); the error lists the names.
pub fn encoder_named(name: &str) -> Result<Encoder> {
    Encoder::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Encoder::ALL.iter().map(|e| e.name()).collect();
        Error::message(format!(
            "unknown Yaz0 encoder {name:?} ({})",
            names.join(", ")
        ))
    })
}

/// Peels every layer (at most `max`): the layers, outermost first, and the innermost payload.
pub fn peel_all(data: &[u8], max: usize) -> Result<(Vec<Layer>, Vec<u8>)> {
    peel_layers(data, max, false)
}

/// [`peel_all`], keeping the [`Original`] of every Yaz0 layer no known encoder reproduces (the
/// token file of layer `i` is `token_file(i)`), so that [`Layer::wrap`] gives it back.
pub fn peel_all_keeping(data: &[u8], max: usize) -> Result<(Vec<Layer>, Vec<u8>)> {
    peel_layers(data, max, true)
}

/// The name of the token file of compression layer `i` in an extracted folder.
pub fn token_file(i: usize) -> String {
    format!(".gcf-rarc-layer{i}.tokens")
}

fn peel_layers(data: &[u8], max: usize, keep: bool) -> Result<(Vec<Layer>, Vec<u8>)> {
    let mut layers = Vec::new();
    let mut cur = data.to_vec();
    while let Some(r) = Layer::peel(&cur) {
        if layers.len() >= max {
            return Err(Error::message(format!(
                "more than {max} nested compression layers"
            )));
        }
        let (mut l, p) = r?;
        if keep && l.encoder.is_none() && l.kind == Kind::Yaz0 {
            let s = yaz0::Stream::parse(&cur)?;
            l.original = Some(Arc::new(Original {
                file: token_file(layers.len()),
                decisions: s.decisions(),
                sum: sum(&p),
                closest: Encoder::closest(&p, cur.len()),
            }));
        }
        layers.push(l);
        cur = p;
    }
    Ok((layers, cur))
}

/// The payload under every compression layer of `data` (at most `max`), decoded under `limits`
/// without naming each layer's encoder (the costly part of [`peel_all`], needed only to compress
/// again): what a reader of the bytes inside wants. `None` when `data` is not compressed.
pub fn payload_with(data: &[u8], max: usize, limits: &Limits) -> Result<Option<Vec<u8>>> {
    let mut cur: Option<Vec<u8>> = None;
    let mut depth = 0;
    loop {
        let d = cur.as_deref().unwrap_or(data);
        let Some(kind) = Kind::of(d) else {
            return Ok(cur);
        };
        if depth >= max {
            return Err(Error::message(format!(
                "more than {max} nested compression layers"
            )));
        }
        depth += 1;
        cur = Some(match kind {
            Kind::Yaz0 => yaz0::decode_with(d, limits)?,
            Kind::Yay0 => yaz0::yay0::decode_with(d, limits)?,
        });
    }
}

/// An archive's files as `(path, bytes)`.
pub type Members = Vec<(String, Vec<u8>)>;

/// Every file of the archive inside `data` as `(path, bytes)`, in walk order: compression layers
/// are peeled first (at most four) and compressed members expanded. `Ok(None)` when `data` holds
/// no RARC under its layers.
pub fn members(data: &[u8]) -> Result<Option<Members>> {
    let decoded = payload_with(data, 4, &Limits::default())?;
    let inner = decoded.as_deref().unwrap_or(data);
    if !crate::is_rarc(inner) {
        return Ok(None);
    }
    let v = crate::parse(inner)?;
    let (_, files) = v.walk()?;
    files
        .iter()
        .map(|f| Ok((f.path.clone(), v.decompressed(&f.entry)?.into_owned())))
        .collect::<Result<Members>>()
        .map(Some)
}

/// Wraps `payload` in `layers` (outermost first, as [`peel_all`] returns them).
pub fn wrap_all(layers: &[Layer], payload: Vec<u8>) -> Vec<u8> {
    layers.iter().rev().fold(payload, |inner, l| l.wrap(&inner))
}

pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub(crate) fn unhex(s: &str) -> Result<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return Err(Error::message(format!("odd-length hex {s:?}")));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            s.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| Error::message(format!("bad hex {s:?}")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn layers_peel_and_wrap_back_exactly() {
        let payload: Vec<u8> =
            b"RARC and some repeated text, repeated text, repeated text".repeat(20);
        for enc in [
            Encoder::Matching(Matching::Nintendo),
            Encoder::Matching(Matching::Gclib),
            Encoder::Matching(Matching::Oead(9)),
        ] {
            let mut s = yaz0::Stream::encode(&payload, enc);
            if matches!(enc, Encoder::Matching(Matching::Oead(_))) {
                s.header.reserved = [0, 0, 0, 0x20, 0, 0, 0, 0];
            }
            let bytes = s.write();
            let twice = Layer::new(Kind::Yay0, DEFAULT_ENCODER).wrap(&bytes);
            let (layers, inner) = peel_all(&twice, 4).unwrap();
            assert_eq!(inner, payload);
            let limits = Limits::default();
            assert_eq!(
                payload_with(&twice, 4, &limits).unwrap(),
                Some(payload.clone())
            );
            assert!(
                payload_with(&twice, 1, &limits).is_err(),
                "two layers, one allowed"
            );
            let tiny = Limits {
                max_alloc_bytes: 16,
                ..limits
            };
            assert!(
                payload_with(&twice, 4, &tiny).is_err(),
                "decoded under the caller's limits"
            );
            assert_eq!(layers.len(), 2);
            assert_eq!(layers.first().unwrap().kind, Kind::Yay0);
            assert_eq!(wrap_all(&layers, inner), twice);
            let l = layers.get(1).unwrap();
            let cols: Vec<String> = l.describe().split('\t').map(str::to_owned).collect();
            let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
            assert_eq!(Layer::parse(&cols).unwrap(), *l);
        }
        assert!(peel_all(b"plain", 4).unwrap().0.is_empty());
        assert_eq!(payload_with(b"plain", 4, &Limits::default()).unwrap(), None);
        let damaged = [b"Yaz0".as_slice(), &[0, 0, 1, 0], &[0; 8], &[0x00, 0x10]].concat();
        assert!(Layer::peel(&damaged).unwrap().is_err());
    }
}
