//! Opens any GameCube/Wii file through the library's registry and prints its tree: a Yaz0
//! stream, the RARC archive inside, its BCSV tables and BDL models, each validated and written
//! back without edits (`identical` when the written bytes equal the file's).
//!
//! ```text
//! cargo run --example open_tree -F full -- stage.szs
//! cargo run --example open_tree -F full          # a small archive made by the builders
//! ```
//!
//! A downstream program: it uses `gcformats::open` and `Opened` only (no code from `gcf`).

use std::fmt::Write as _;

use gcformats::Opened;

/// What one walk saw.
#[derive(Debug, Default)]
pub struct Walk {
    /// The printed tree, one line per file.
    pub text: String,
    /// Every file's format, in walk order (the container first).
    pub formats: Vec<&'static str>,
    /// Files whose write-back differs from their bytes (or fails), with why.
    pub differs: Vec<String>,
    /// Validator findings over the whole tree.
    pub findings: usize,
}

/// Walks `file` and its members, depth first.
pub fn walk(file: &Opened<'_>, out: &mut Walk) -> gcformats::gcio::Result<()> {
    let indent = "  ".repeat(file.depth() as usize);
    let name = if file.name().is_empty() {
        "(input)"
    } else {
        file.name()
    };
    let findings = file.validate()?;
    let rewrite = file.rewrite()?;
    let written = if rewrite.bytes != file.bytes() {
        out.differs.push(format!("{name}: written bytes differ"));
        "differs".to_owned()
    } else if rewrite.raw.is_empty() {
        "identical".to_owned()
    } else {
        format!("identical (raw: {})", rewrite.raw.join(", "))
    };
    let detail = file.detail().map_or(String::new(), |d| format!(" ({d})"));
    let _ = writeln!(
        out.text,
        "{indent}{name}  {}{detail}  {} bytes  findings: {}  write-back: {written}",
        file.format(),
        file.bytes().len(),
        findings.len(),
    );
    out.formats.push(file.format());
    out.findings += findings.len();
    for member in file.members()? {
        walk(&member, out)?;
    }
    Ok(())
}

/// A Yaz0-compressed RARC holding a BCSV table and a BDL model, made by the format crates'
/// builders.
pub fn built_archive() -> Vec<u8> {
    use gcformats::rarc::{Dir, Item, PackOptions};
    let first = |v: Vec<(String, Vec<u8>)>, ext: &str| {
        v.into_iter()
            .find(|(n, _)| n.ends_with(ext))
            .map(|(_, b)| b)
            .unwrap_or_default()
    };
    let file = |name: &str, data: Vec<u8>| Item::File {
        name: name.as_bytes().to_vec(),
        attr: None,
        data,
        id: None,
    };
    let root = Dir {
        name: b"stage".to_vec(),
        children: vec![
            file(
                "table.bcsv",
                first(gcformats::bcsv::build::samples(), ".bcsv"),
            ),
            Item::Dir(Dir {
                name: b"model".to_vec(),
                children: vec![file(
                    "rigid.bdl",
                    first(gcformats::j3d_bmd::build::samples(), ".bdl"),
                )],
            }),
        ],
    };
    let arc = gcformats::rarc::pack(&root, PackOptions::default())
        .write()
        .unwrap_or_default();
    gcformats::yaz0::encode(&arc, gcformats::rarc::layer::DEFAULT_ENCODER)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (bytes, name) = match std::env::args_os().nth(1) {
        Some(path) => (std::fs::read(&path)?, path.to_string_lossy().into_owned()),
        None => (built_archive(), "built.szs".to_owned()),
    };
    let file = gcformats::open_with(&bytes, &gcformats::OpenOptions::named(&name))?;
    let mut w = Walk::default();
    walk(&file, &mut w)?;
    print!("{}", w.text);
    println!(
        "{} files, {} findings, {} written back differently",
        w.formats.len(),
        w.findings,
        w.differs.len()
    );
    Ok(())
}
