//! Structure-aware fuzz input for text → binary converters (JSON, CSV, assembler text).
//!
//! Random bytes almost never form valid JSON, so a fuzzer fed raw bytes spends its time in the
//! JSON parser. [`mutate_text`] instead starts from a valid document (a sample converted to text)
//! and applies edits the fuzz input chooses: characters replaced by the ones that change meaning
//! in such documents (digits, signs, exponents, quotes, brackets), so declared sizes, counts and
//! offsets become huge, negative, fractional or malformed while the rest stays parseable.

/// Characters edits write: what makes numbers extreme and structure break.
const ALPHABET: &[u8] = b"0123456789-+.eE\"[]{},:9999999999 \\nultrfa";

/// `template` with the edits encoded in `edits`: each 3-byte group is a big-endian position
/// (modulo the length) and a choice of replacement character; a choice of 0xFF inserts a run of
/// nines there instead (a number with many digits). At most 64 edits are applied.
pub fn mutate_text(template: &str, edits: &[u8]) -> String {
    let mut bytes = template.as_bytes().to_vec();
    for e in edits.chunks_exact(3).take(64) {
        if bytes.is_empty() {
            break;
        }
        let (hi, lo, choice) = match e {
            [a, b, c] => (*a, *b, *c),
            _ => break,
        };
        let at = usize::from(u16::from_be_bytes([hi, lo])) % bytes.len();
        if choice == 0xFF {
            bytes.splice(at..at, std::iter::repeat_n(b'9', 12));
        } else if let Some(slot) = bytes.get_mut(at) {
            *slot = ALPHABET
                .get(usize::from(choice) % ALPHABET.len())
                .copied()
                .unwrap_or(b'0');
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `count` reproducible pseudo-random inputs of 1 to 97 bytes (a template choice and up to 32
/// edits), for replaying a text fuzz body under `cargo test` without a fuzzer.
#[cfg(feature = "test-support")]
pub fn replay_inputs(count: usize) -> Vec<Vec<u8>> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..count)
        .map(|_| {
            let len = 1 + (next() % 97) as usize;
            (0..len).map(|_| (next() >> 24) as u8).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_at_chosen_places() {
        assert_eq!(mutate_text("{\"n\": 1}", &[0, 6, 9]), "{\"n\": 9}");
        assert_eq!(mutate_text("[1]", &[0, 1, 0xFF]), "[9999999999991]");
        assert_eq!(mutate_text("", &[0, 0, 0]), "");
        assert_eq!(
            mutate_text("ab", &[0, 0]),
            "ab",
            "an incomplete group is ignored"
        );
    }
}
