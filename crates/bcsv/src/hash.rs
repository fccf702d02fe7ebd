//! Field-name hashes: the JGadget hash of the Galaxy games, the old hash of Sunshine / Luigi's
//! Mansion, and `[XXXXXXXX]`, how a hash no dictionary knows is written (see
//! `names::display_name`).

/// JGadget hash (`h = h * 31 + c`, `c` the **signed** byte, u32 wrap; BCSV-010). Used by SMG1, SMG2
/// and Donkey Kong Jungle Beat. Signedness only matters for non-ASCII (Shift-JIS) names.
pub fn jgadget_hash(name: &[u8]) -> u32 {
    name.iter().fold(0u32, |h, &c| {
        h.wrapping_mul(31).wrapping_add(i32::from(c as i8) as u32)
    })
}

/// Old hash of Super Mario Sunshine and Luigi's Mansion: `h = ((h << 8) + c) % 33554393`.
pub fn old_hash(name: &[u8]) -> u32 {
    name.iter().fold(0u32, |h, &c| {
        h.wrapping_shl(8).wrapping_add(u32::from(c)) % 33_554_393
    })
}

/// How a column is addressed: by name (hashed with [`jgadget_hash`]) or by a raw hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FieldKey(pub u32);

impl From<u32> for FieldKey {
    fn from(hash: u32) -> Self {
        FieldKey(hash)
    }
}

impl From<&str> for FieldKey {
    /// A name; `[XXXXXXXX]` is read back as that raw hash (how unknown hashes print).
    fn from(name: &str) -> Self {
        FieldKey(parse_name(name))
    }
}

/// The hash a printed name stands for: `[XXXXXXXX]` is a raw hash, anything else is hashed.
pub fn parse_name(name: &str) -> u32 {
    bracketed_hash(name).unwrap_or_else(|| jgadget_hash(name.as_bytes()))
}

fn bracketed_hash(name: &str) -> Option<u32> {
    let hex = name.strip_prefix('[')?.strip_suffix(']')?;
    if hex.len() != 8 {
        return None;
    }
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values() {
        // bcsv.md section 5 check values, observed in public samples.
        assert_eq!(jgadget_hash(b"name"), 0x0033_7A8B);
        assert_eq!(jgadget_hash(b"pos_x"), 0x065E_794D);
        assert_eq!(jgadget_hash(b"ScenarioName"), 0xCDB1_6E5B);
        assert_eq!(jgadget_hash(b""), 0);
    }

    #[test]
    fn signed_bytes() {
        // 0x82 is -126 as a signed byte: h = 1*31 + (-126) wraps.
        assert_eq!(
            jgadget_hash(&[1, 0x82]),
            31u32.wrapping_sub(126).wrapping_add(0)
        );
        assert_eq!(jgadget_hash(&[0x82]), (-126i32) as u32);
    }

    #[test]
    fn old_hash_formula() {
        assert_eq!(old_hash(b"a"), 97);
        assert_eq!(old_hash(b"ab"), (97 << 8) + 98);
        let h = old_hash(b"abcdef");
        let mut want: u64 = 0;
        for c in b"abcdef" {
            want = (((want << 8) & 0xFFFF_FFFF) + u64::from(*c)) % 33_554_393;
        }
        assert_eq!(u64::from(h), want);
    }

    #[test]
    fn names_print_and_parse() {
        assert_eq!(crate::names::display_name(0x0033_7A8B), "name");
        assert_eq!(crate::names::display_name(0xAE37_7161), "[AE377161]");
        assert_eq!(parse_name("[AE377161]"), 0xAE37_7161);
        assert_eq!(parse_name("[ae377161]"), 0xAE37_7161);
        assert_eq!(parse_name("name"), 0x0033_7A8B);
        assert_eq!(parse_name("[AE37]"), jgadget_hash(b"[AE37]"));
        assert_eq!(FieldKey::from("l_id"), FieldKey(0x0032_89CE));
    }
}
