//! Dumps a BMS sequence: tracks, validator findings, the disassembly, and optionally a MIDI file.
//!
//! `cargo run --example bms_dump --features bms -- FILE.bms [OUT.mid]` (without FILE it dumps the
//! built-in sample song).
#![allow(clippy::unwrap_used)]

use gcformats::bms;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let data = match args.next() {
        Some(path) => std::fs::read(path)?,
        None => bms::build::song()?.bytes,
    };
    let view = bms::parse(&data)?;
    println!(
        "{} bytes, {} instructions",
        data.len(),
        view.flow().instruction_count()
    );
    for t in view.tracks() {
        let n = t.number.map_or("root".to_owned(), |n| n.to_string());
        println!("track {n}: entry {:#08x}", t.entry);
    }
    for d in bms::validate(&data) {
        println!("{d}");
    }
    let program = bms::Program::from_view(&view, &gcformats::gcio::Limits::default())?;
    assert_eq!(program.write()?, data, "byte-exact round trip");
    print!("{}", bms::to_text(&program));
    if let Some(out) = args.next() {
        std::fs::write(
            &out,
            bms::midi::export(&data, &bms::midi::ExportOptions::default())?,
        )?;
        println!("wrote {out}");
    }
    Ok(())
}
