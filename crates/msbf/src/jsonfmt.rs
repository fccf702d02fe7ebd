//! How raw bytes look in the JSON form of the model: padding and unknown data as hex strings,
//! names as text (or `hex:…` when they are not UTF-8), so every byte survives a JSON round trip.

use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn from_hex<E: serde::de::Error>(s: &str) -> Result<Vec<u8>, E> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return Err(E::custom("odd number of hex digits"));
    }
    s.chunks(2)
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| E::custom("bad hex digit"))
        })
        .collect()
}

/// `Vec<u8>` as a hex string.
pub mod hex {
    use super::*;

    /// Serializes as lower-case hex.
    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_hex(b))
    }

    /// Parses a hex string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        from_hex(&String::deserialize(d)?)
    }
}

/// `Option<Vec<u8>>` as a hex string or null.
pub mod hex_opt {
    use super::*;

    /// Serializes as lower-case hex or null.
    pub fn serialize<S: Serializer>(b: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match b {
            Some(b) => s.serialize_str(&to_hex(b)),
            None => s.serialize_none(),
        }
    }

    /// Parses a hex string or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|s| from_hex(&s))
            .transpose()
    }
}

/// `[u8; N]` as a hex string.
pub mod hex_array {
    use super::*;

    /// Serializes as lower-case hex.
    pub fn serialize<S: Serializer, const N: usize>(b: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_hex(b))
    }

    /// Parses exactly `N` hex bytes.
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[u8; N], D::Error> {
        let v = from_hex::<D::Error>(&String::deserialize(d)?)?;
        <[u8; N]>::try_from(v).map_err(|_| D::Error::custom(format!("expected {N} bytes")))
    }
}

/// Byte strings as text when they are UTF-8 (and do not start with `hex:`), else `hex:<digits>`.
pub mod text {
    use super::*;

    const PREFIX: &str = "hex:";

    /// Serializes as text or `hex:…`.
    pub fn serialize<S: Serializer, B: AsRef<[u8]>>(b: &B, s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(b.as_ref()) {
            Ok(t) if !t.starts_with(PREFIX) => s.serialize_str(t),
            _ => s.serialize_str(&format!("{PREFIX}{}", to_hex(b.as_ref()))),
        }
    }

    /// Parses text or `hex:…` into bytes.
    pub fn deserialize<'de, D: Deserializer<'de>, B: TryFrom<Vec<u8>>>(
        d: D,
    ) -> Result<B, D::Error> {
        let s = String::deserialize(d)?;
        let v = match s.strip_prefix(PREFIX) {
            Some(h) => from_hex(h)?,
            None => s.into_bytes(),
        };
        let n = v.len();
        B::try_from(v).map_err(|_| D::Error::custom(format!("unexpected length {n}")))
    }
}

/// For `skip_serializing_if`: all bytes zero.
pub fn is_zero<const N: usize>(b: &[u8; N]) -> bool {
    b.iter().all(|&x| x == 0)
}

/// For `skip_serializing_if`: false.
pub fn is_false(b: &bool) -> bool {
    !*b
}
