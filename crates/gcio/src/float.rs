//! Floats kept bit-exact: [`F32`] stores a big-endian `f32` field by its bits so every value
//! (NaN payloads, -0.0, infinities) survives a round trip. With the `serde` feature it is
//! written to JSON as a number when finite and as `"0x7fc00000"`-style hex bits otherwise
//! (JSON has no NaN); [`json_f32`] does the same for a plain `f32` field.

use std::fmt;

/// A big-endian `f32` field kept bit-exact.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct F32(u32);

impl F32 {
    /// 1.0, the neutral factor.
    pub const ONE: F32 = F32(0x3F80_0000);

    /// From raw bits.
    pub const fn from_bits(bits: u32) -> Self {
        F32(bits)
    }

    /// From a float.
    pub fn new(v: f32) -> Self {
        F32(v.to_bits())
    }

    /// The float value.
    pub fn get(self) -> f32 {
        f32::from_bits(self.0)
    }

    /// The raw bits.
    pub fn bits(self) -> u32 {
        self.0
    }
}

impl From<f32> for F32 {
    fn from(v: f32) -> Self {
        F32::new(v)
    }
}

impl fmt::Debug for F32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use std::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::F32;

    impl Serialize for F32 {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let v = self.get();
            if v.is_finite() {
                s.serialize_f32(v)
            } else {
                s.serialize_str(&format!("{:#010x}", self.0))
            }
        }
    }

    impl<'de> Deserialize<'de> for F32 {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = F32;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a number or a \"0x…\" string of f32 bits")
                }
                fn visit_f64<E: de::Error>(self, v: f64) -> Result<F32, E> {
                    Ok(F32::new(v as f32))
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<F32, E> {
                    Ok(F32::new(v as f32))
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<F32, E> {
                    Ok(F32::new(v as f32))
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<F32, E> {
                    let hex = v
                        .strip_prefix("0x")
                        .ok_or_else(|| E::custom("float string must start with 0x"))?;
                    u32::from_str_radix(hex, 16)
                        .map(F32)
                        .map_err(|e| E::custom(format!("float bits {v:?}: {e}")))
                }
            }
            d.deserialize_any(V)
        }
    }
}

/// `#[serde(with = "gcio::json_f32")]` for a plain `f32` field: the [`F32`] JSON form, so a
/// NaN or infinity converts to JSON and back with its bits.
#[cfg(feature = "serde")]
pub mod json_f32 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::F32;

    /// Writes `v` as a number when finite, else as its hex bits.
    pub fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
        F32::new(*v).serialize(s)
    }

    /// Reads a number or hex bits.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        F32::deserialize(d).map(F32::get)
    }
}

/// `#[serde(with = "gcio::json_f32s")]` for a `Vec<f32>` field: each value in the [`F32`] JSON
/// form, so NaNs and infinities in a float table convert to JSON and back with their bits.
#[cfg(feature = "serde")]
pub mod json_f32s {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::F32;

    /// Writes each value as a number when finite, else as its hex bits.
    pub fn serialize<S: Serializer>(v: &[f32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|&x| F32::new(x)))
    }

    /// Reads numbers or hex bits.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        Vec::<F32>::deserialize(d).map(|v| v.into_iter().map(F32::get).collect())
    }
}
