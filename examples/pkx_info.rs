//! Prints a `.pkx`'s game, slots (named, active vs padding by the game's polarity, resolved to
//! the DAT's animations), triggers and validator findings. Without an argument it builds the XD
//! sample Pokémon, converts it to Colosseum and breaks one slot the way that crashes on send-out.
//!
//! `cargo run --example pkx_info --features pkx [FILE.pkx]`

use gcformats::pkx::build::{self, Break};
use gcformats::pkx::{DatFacts, Game, Pkx, names::TRIGGERS};

fn show(p: &Pkx) -> Result<(), gcformats::gcio::Error> {
    let game = p.game();
    let kind = p.kind();
    let facts = DatFacts::read(&gcformats::hsd_dat::parse(&p.dat)?)?;
    println!(
        "{} {kind:?}: {} slots, DAT {} bytes ({} joints, {} animations), GPT1 {} bytes",
        game.format_name(),
        p.entries.len(),
        p.dat.len(),
        facts.bones,
        facts.anims.len(),
        p.gpt1.len()
    );
    for (i, (e, anims)) in p.entries.iter().zip(p.resolve(&facts)).enumerate() {
        let resolved: Vec<String> = anims
            .iter()
            .map(|a| a.map_or("missing".into(), |o| format!("AnimJoint@{o:#x}")))
            .collect();
        println!(
            "  {i:2} {:<16} {:<7} frames {:?} -> {}",
            kind.slot_name(game, i),
            if e.is_active(game) {
                "active"
            } else {
                "padding"
            },
            e.timing.frames(),
            resolved.join(", ")
        );
    }
    for t in p.triggers().iter().filter(|t| t.active) {
        println!(
            "  trigger {}: anim {}",
            TRIGGERS.get(t.index).unwrap_or(&"?"),
            t.anim_index
        );
    }
    for d in gcformats::pkx::validate_model(p) {
        println!("  {d}");
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(path) = std::env::args().nth(1) {
        show(&Pkx::parse(&std::fs::read(path)?)?)?;
        return Ok(());
    }
    let xd = build::xd_pokemon()?;
    show(&xd)?;
    let colo = Pkx::parse(&xd.to_game(Game::Colosseum).write()?)?;
    show(&colo)?;
    let mut broken = colo;
    Break::TimingZero.apply(&mut broken);
    println!("after zeroing timing_1 of slot 1:");
    show(&broken)?;
    Ok(())
}
