//! Dumps an IBNK instrument bank: layout, programs, and what each program plays.
//!
//! `cargo run --example ibnk_dump --features ibnk -- [BANK.bnk [WAVES.ws]]`
//! Without arguments it dumps the built-in demo bank (version 1) against a matching WSYS.

use gcformats::ibnk;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (bytes, wsys) = match args.as_slice() {
        [] => {
            let d = ibnk::build::demo();
            let ws = ibnk::wsys::build(0, &[("demo_0.aw", &d.waves())]);
            (d.to_v1(9).write()?, Some(ws))
        }
        [bank, rest @ ..] => (
            std::fs::read(bank)?,
            rest.first().map(std::fs::read).transpose()?,
        ),
    };
    let bank = ibnk::Bank::parse(&bytes)?;
    println!(
        "IBNK version {}, bank {}, {} bytes",
        bank.version(),
        bank.id,
        bytes.len()
    );
    for p in bank.programs() {
        let kind = if p.drums { "drums" } else { "instrument" };
        println!(
            "program {:>3}: {kind}, {} regions/keys",
            p.program, p.regions
        );
        // What plays across the keyboard at a soft and a hard velocity.
        for key in (0..128u8).step_by(12) {
            for vel in [40u8, 127] {
                match bank.play(p.program, key, vel) {
                    Ok(n) => println!(
                        "  key {key:>3} vel {vel:>3} -> wave {:#06x} volume {:.3} pitch {:.3}{}",
                        n.wave,
                        n.volume,
                        n.pitch,
                        n.pan.map_or(String::new(), |pan| format!(" pan {pan:.2}"))
                    ),
                    Err(why) => println!("  key {key:>3} vel {vel:>3} -> nothing: {why}"),
                }
            }
        }
    }
    for d in ibnk::validate(&bytes) {
        println!("{d}");
    }
    if let Some(ws) = wsys {
        let missing = ibnk::wsys::missing_waves(&bank, &ws)?;
        println!(
            "WSYS check: {} program(s) with missing waves",
            missing.len()
        );
        for d in missing {
            println!("{d}");
        }
    }
    Ok(())
}
