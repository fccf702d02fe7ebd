//! Shared by the benches: the real files inside the Galaxy archives of the shared corpus.

use gcformats::{rarc, yaz0};

/// Every archive member whose name ends with `ext`, decompressed.
#[allow(clippy::unwrap_used)]
pub fn members(ext: &str) -> Vec<Vec<u8>> {
    let Some(dir) = gcformats::gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "bench")
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for p in std::fs::read_dir(&d).unwrap().flatten().map(|e| e.path()) {
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            let raw = yaz0::decode(&bytes).unwrap_or(bytes);
            let Ok(arc) = rarc::parse(&raw) else { continue };
            for f in arc.walk().unwrap().1 {
                if f.path.to_ascii_lowercase().ends_with(ext) {
                    out.push(arc.decompressed(&f.entry).unwrap().into_owned());
                }
            }
        }
    }
    out
}
