//! How bytes look in the JSON form: names as Latin-1 text (every byte one character, so any
//! name survives), unknown bytes as hex. Public so the `brlan` crate writes the same form.

#[cfg(feature = "json")]
use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

/// `Vec<u8>` as a lower-case hex string.
#[cfg(feature = "json")]
pub mod hex {
    use super::*;

    /// Serializes as lower-case hex.
    pub fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&gcio::text::to_hex(b))
    }

    /// Parses a hex string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        gcio::text::from_hex(&String::deserialize(d)?).ok_or_else(|| D::Error::custom("bad hex"))
    }
}

/// `Option<Vec<u8>>` as a hex string or null.
#[cfg(feature = "json")]
pub mod hex_opt {
    use super::*;

    /// Serializes as lower-case hex or null.
    pub fn serialize<S: Serializer>(b: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match b {
            Some(b) => s.serialize_str(&gcio::text::to_hex(b)),
            None => s.serialize_none(),
        }
    }

    /// Parses a hex string or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|s| gcio::text::from_hex(&s).ok_or_else(|| D::Error::custom("bad hex")))
            .transpose()
    }
}

/// UTF-16 code units as text when they decode (and hold no NUL), else as the numbers.
#[cfg(feature = "json")]
pub mod utf16 {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(untagged)]
    enum Form {
        Text(String),
        Units(Vec<u16>),
    }

    /// Serializes as text or code units (null without a string).
    pub fn serialize<S: Serializer>(u: &Option<Vec<u16>>, s: S) -> Result<S::Ok, S::Error> {
        let Some(u) = u else {
            return s.serialize_none();
        };
        match String::from_utf16(u) {
            Ok(t) if !t.contains('\0') => serde::Serialize::serialize(&Form::Text(t), s),
            _ => serde::Serialize::serialize(&Form::Units(u.clone()), s),
        }
    }

    /// Parses text or code units.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u16>>, D::Error> {
        Ok(Option::<Form>::deserialize(d)?.map(|f| match f {
            Form::Text(t) => t.encode_utf16().collect(),
            Form::Units(u) => u,
        }))
    }
}

/// True for a value equal to its default (zero padding): JSON leaves such fields out.
pub fn is_zero<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A name or string stored as bytes (ASCII in every real file); JSON shows it as Latin-1 text.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(pub Vec<u8>);

impl Name {
    /// The name of a fixed-size field: its bytes without the trailing NULs (bytes after an
    /// inner NUL are kept, so the field comes back as it was).
    pub fn from_field(field: &[u8]) -> Name {
        let end = field.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        Name(field.get(..end).unwrap_or_default().to_vec())
    }

    /// The field of `n` bytes: the name padded with NULs (`None` when it is longer).
    pub fn to_field(&self, n: usize) -> Option<Vec<u8>> {
        (self.0.len() <= n).then(|| {
            let mut v = self.0.clone();
            v.resize(n, 0);
            v
        })
    }

    /// The bytes up to the first NUL: what the game compares.
    pub fn key(&self) -> &[u8] {
        self.0.split(|&b| b == 0).next().unwrap_or_default()
    }

    /// The name as text (Latin-1).
    pub fn text(&self) -> String {
        self.0.iter().map(|&b| char::from(b)).collect()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(s.as_bytes().to_vec())
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.text())
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

#[cfg(feature = "json")]
impl serde::Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text())
    }
}

#[cfg(feature = "json")]
impl<'de> serde::Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        let s = String::deserialize(d)?;
        s.chars()
            .map(|c| u8::try_from(u32::from(c)).map_err(D::Error::custom))
            .collect::<Result<Vec<u8>, _>>()
            .map(Name)
    }
}
