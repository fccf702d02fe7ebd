//! Deterministic inputs for tests and benches: data shaped like game files (many short
//! back-references) and a large mixed input.

/// Xorshift generator: the builders must give the same bytes everywhere.
fn rng(mut seed: u32) -> impl FnMut() -> u32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    }
}

/// Data shaped like SMG stage files: big-endian float tables (frame, sine, rounded slope), name
/// strings, small integer records with flag words, zero padding and bits of noise. Compresses to
/// about 42 % with many short back-references.
pub fn real_looking(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 4096);
    let mut rnd = rng(0x1234_5678);
    let words = [
        "Galaxy", "Stage", "Obj", "Info", "Path", "Camera", "Area", "Switch", "Layer", "Common",
        "Map", "Start", "Mario", "Kinopio", "Coin",
    ];
    while out.len() < len {
        match rnd() % 4 {
            0 => {
                for f in 0..(64 + rnd() % 256) {
                    let v = (f as f32 / 64.0).sin() * 100.0;
                    out.extend_from_slice(&(f as f32).to_be_bytes());
                    out.extend_from_slice(&v.to_be_bytes());
                    out.extend_from_slice(&((v * 100.0).round() / 100.0).to_be_bytes());
                    out.extend_from_slice(&(if f % 8 == 0 { 0.0f32 } else { 1.5 }).to_be_bytes());
                }
            }
            1 => {
                for _ in 0..(16 + rnd() % 64) {
                    for _ in 0..2 {
                        let w = words.get((rnd() % 15) as usize).copied().unwrap_or("");
                        out.extend_from_slice(w.as_bytes());
                    }
                    out.push(0);
                }
            }
            2 => {
                for i in 0..(8 + rnd() % 64) {
                    out.extend_from_slice(&i.to_be_bytes());
                    out.extend_from_slice(&(rnd() % 16).to_be_bytes());
                    out.extend_from_slice(&[0xFF, 0xFF, 0, 0, 0x3F, 0x80, 0, 0]);
                }
            }
            _ => {
                let n = (rnd() % 96) as usize;
                out.resize(out.len() + n, 0);
                out.extend((0..(rnd() % 64)).map(|_| rnd() as u8));
            }
        }
    }
    out.truncate(len);
    out
}

/// A mixed input (the benches use 16 MiB): 4–68 KiB blocks of random bytes, zeros, repeated text
/// and [`real_looking`] data.
pub fn mixed(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    let mut rnd = rng(0x9E37_79B9);
    let real = real_looking(1 << 20);
    while out.len() < len {
        let n = 4096 + (rnd() % 65536) as usize;
        match rnd() % 4 {
            0 => out.extend((0..n).map(|_| rnd() as u8)),
            1 => out.resize(out.len() + n, 0),
            2 => out.extend(
                b"The quick brown fox jumps over the lazy dog. "
                    .iter()
                    .cycle()
                    .take(n),
            ),
            _ => {
                let s = (rnd() as usize) % (real.len() - n);
                out.extend_from_slice(real.get(s..s + n).unwrap_or_default());
            }
        }
    }
    out.truncate(len);
    out
}
