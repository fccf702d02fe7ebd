//! The import's round trip over archives you have: every file given goes `m.dat → a.glb →
//! b.dat → c.glb` in the compiler order `m` detects as, and a line per file says whether a.glb
//! and c.glb hold the same model (`gx::compare`), how many validator errors `b` has, its BNB
//! against `m` and, indented, each compiler-phase region whose size differs (where the layouts
//! part). The last line averages BNB. How the import was checked on archives outside the corpus
//! (docs/HSD-ORDER.md).
//!
//! `cargo run --release -p gcformats-hsd-dat --example round_trip -- FILE...`

use hsd_dat::compile::detect;
use hsd_dat::import::{ImportOptions, import};
use hsd_dat::{Dat, export, parse};

/// One file's round trip: its report line and BNB, or why it stopped.
fn round_trip(m: &[u8]) -> Result<(String, f64), String> {
    let a = parse(m).map_err(|e| format!("parse: {e}"))?;
    let glb = export::to_glb(&a).map_err(|e| format!("export: {e}"))?;
    let order = Dat::parse(m)
        .and_then(|d| detect(&d))
        .map_err(|e| format!("detect: {e}"))?
        .order();
    let sa = gx::scene::Scene::from_glb(&glb).map_err(|e| format!("read: {e}"))?;
    let opts = ImportOptions {
        order,
        ..ImportOptions::default()
    };
    let b = import(&sa, &opts)
        .map_err(|e| format!("import: {e}"))?
        .bytes;
    let errors = hsd_dat::validate(&b)
        .iter()
        .filter(|d| d.severity == gcio::Severity::Error)
        .count();
    let back = parse(&b).map_err(|e| format!("parse b: {e}"))?;
    let glc = export::to_glb(&back).map_err(|e| format!("export b: {e}"))?;
    let sc = gx::scene::Scene::from_glb(&glc).map_err(|e| format!("read c: {e}"))?;
    let d = gx::compare::compare(&sa, &sc, 1e-3);
    let c = hsd_dat::compare::compare(m, &b).map_err(|e| format!("compare: {e}"))?;
    let mut line = format!(
        "{order:?}\tBNB {:.2}\t{}\t{errors} errors",
        c.bnb,
        if d.is_same() {
            "same".to_string()
        } else {
            format!("differs: {d:?}")
        }
    );
    for r in c.regions.iter().filter(|r| r.bytes.0 != r.bytes.1) {
        line.push_str(&format!(
            "\n    {:?}: {} → {} bytes",
            r.phase, r.bytes.0, r.bytes.1
        ));
    }
    Ok((line, c.bnb))
}

fn main() {
    let (mut files, mut sum) = (0usize, 0.0);
    for path in std::env::args().skip(1) {
        let result = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|m| round_trip(&m));
        match result {
            Ok((line, bnb)) => {
                println!("{path}\t{line}");
                files += 1;
                sum += bnb;
            }
            Err(e) => println!("{path}\t{e}"),
        }
    }
    if files > 0 {
        println!("average BNB {:.2} % over {files} files", sum / files as f64);
    }
}
