//! Lists the members of a RARC archive (`.arc`, or Yaz0-compressed `.szs`): path, size, attributes
//! and file ID, like `ls -R`.
//!
//! ```sh
//! cargo run --example rarc_ls --features rarc -- samples/yaz0/stage.szs
//! ```

use gcformats::{rarc, yaz0};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: rarc_ls FILE.arc|FILE.szs");
        std::process::exit(2);
    };
    let raw = std::fs::read(&path)?;
    let data = if yaz0::is_yaz0(&raw) {
        yaz0::decode(&raw)?
    } else {
        raw
    };
    let archive = rarc::parse(&data)?;
    let (dirs, files) = archive.walk()?;
    println!(
        "{path}: {} folders, {} files, sync IDs {}",
        dirs.len(),
        files.len(),
        archive.info.sync_ids
    );
    for f in &files {
        let e = &f.entry;
        let note = if e.attr.contains(rarc::Attr::COMPRESSED) {
            format!(" ({} bytes unpacked)", archive.decompressed(e)?.len())
        } else {
            String::new()
        };
        println!(
            "{:>8}  {:<28} id {:>5}  {}{note}",
            e.size,
            e.attr.names(),
            e.id,
            f.path
        );
    }
    Ok(())
}
