//! Fuzz body shared by `fuzz/fuzz_targets/pkx.rs` and the seed replay in `cargo test`.

use crate::{Game, Pkx, json};

/// Detects and parses arbitrary bytes; whatever parses must write back exactly, validate,
/// survive the JSON round trip and the conversion to the other game without panicking.
pub fn fuzz_pkx(data: &[u8]) {
    let _ = crate::detect(data);
    for game in [Game::Xd, Game::Colosseum] {
        if let Ok(v) = crate::View::parse_as(data, game, &gcio::Limits::default()) {
            let _ = v.archive().map(|a| crate::DatFacts::read(&a));
            let _ = (v.gpt1().len(), v.trailer().len());
        }
    }
    let Ok(p) = Pkx::parse(data) else { return };
    assert_eq!(
        p.write().ok().as_deref(),
        Some(data),
        "parse -> write must reproduce the input"
    );
    let _ = p.validate();
    let s = json::to_string(&p);
    if let Ok(q) = json::from_str(&s, p.dat.clone()) {
        assert_eq!(
            json::to_string(&q),
            s,
            "json -> pkx -> json must be identical"
        );
    }
    let other = match p.game() {
        Game::Xd => Game::Colosseum,
        Game::Colosseum => Game::Xd,
    };
    let _ = p.to_game(other).write();
}
