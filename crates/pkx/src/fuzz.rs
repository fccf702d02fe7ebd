//! Fuzz body shared by `fuzz/fuzz_targets/pkx.rs` and the seed replay in `cargo test`.

#[cfg(feature = "json")]
use crate::json;
use crate::{Game, Pkx};

/// Detects and parses arbitrary bytes; whatever parses must write back exactly, validate,
/// survive the JSON round trip and the conversion to the other game without panicking.
pub fn fuzz_pkx(data: &[u8]) {
    let _ = crate::game(data);
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
    let _ = crate::validate_model(&p);
    #[cfg(feature = "json")]
    {
        let s = json::to_string(&p);
        if let Ok(q) = json::from_str(&s, p.dat.clone()) {
            assert_eq!(
                json::to_string(&q),
                s,
                "json -> pkx -> json must be identical"
            );
        }
    }
    let other = match p.game() {
        Game::Xd => Game::Colosseum,
        Game::Colosseum => Game::Xd,
    };
    let _ = p.to_game(other).write();
}

#[cfg(all(feature = "json", feature = "test-support"))]
/// JSON metadata + DAT → PKX, the path of `gcf convert x.json x.pkx --dat model.dat` and of
/// `gcf pack`: a sample's metadata JSON with the edits the input chooses
/// ([`gcio::mutate_text`]) around the sample's own DAT; whatever converts must write a file that
/// parses as its game and writes back the same bytes. (It need not be *detected*: PKX-001 reads
/// the game from header values the metadata sets, such as XD's entry count.) Never panics, hangs
/// or allocates without bound.
pub fn fuzz_pkx_json(data: &[u8]) {
    static TEMPLATES: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    let templates = TEMPLATES.get_or_init(|| {
        crate::build::samples()
            .unwrap_or_default()
            .iter()
            .filter_map(|(_, b)| Pkx::parse(b).ok())
            .map(|p| (json::to_string(&p), p.dat.clone()))
            .collect()
    });
    let (Some(&pick), Some(edits)) = (data.first(), data.get(1..)) else {
        return;
    };
    let Some((template, dat)) = templates.get(usize::from(pick) % templates.len().max(1)) else {
        return;
    };
    let Ok(p) = json::from_str(&gcio::mutate_text(template, edits), dat.clone()) else {
        return;
    };
    let Ok(bytes) = p.write() else { return };
    let back = crate::View::parse_as(&bytes, p.game(), &gcio::Limits::default())
        .and_then(|v| Pkx::from_view(&v, &gcio::Limits::default()));
    assert!(
        back.is_ok(),
        "a written PKX parses: {:?}",
        back.as_ref().err()
    );
    let Ok(back) = back else { return };
    assert_eq!(back.write().ok(), Some(bytes), "written PKX round-trips");
}
