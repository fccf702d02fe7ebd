//! Fuzz body shared by `fuzz/fuzz_targets/ibnk.rs` and the seed replay in `cargo test`.

/// Runs every entry point on arbitrary bytes: view, chunk walk, model read, write, re-read,
/// "what plays", validation and the WSYS reader. Must never panic, hang or allocate without bound.
pub fn fuzz_ibnk(data: &[u8]) {
    let _ = crate::validate(data);
    if let Ok(v) = crate::parse(data) {
        for c in v.chunks().take(64) {
            let _ = c.map(|c| c.counted::<crate::raw::Rand1>());
        }
        let _ = v.program_offset(0);
    }
    if let Ok(bank) = crate::read(data) {
        if let Ok(bytes) = bank.write() {
            let _ = crate::read(&bytes);
        }
        for (p, k, v) in [(0, 60, 100), (1, 0, 0), (3, 38, 127), (0xE4, 36, 64)] {
            let _ = bank.play(p, k, v);
        }
        let _ = bank.wave_uses();
        let _ = crate::validate_model(&bank);
    }
    if let Ok(ws) = crate::wsys::parse(data) {
        let _ = ws.wave_ids();
        for a in ws.archives().take(64).flatten() {
            let _ = a.wave(0);
        }
    }
}
