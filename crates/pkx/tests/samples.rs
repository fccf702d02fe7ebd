#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Generated samples: byte-exact round trips, clean validation, each broken variant fires
//! exactly its rule, and the semantics the builders put in.

use pkx::build::{self, BREAKS};
use pkx::{Game, ModelKind, Pkx};

fn rules(p: &Pkx) -> Vec<String> {
    let mut r: Vec<String> = pkx::validate_model(p).into_iter().map(|d| d.rule).collect();
    r.dedup();
    r
}

#[test]
fn valid_samples_round_trip_and_validate_clean() {
    let want = [
        ("xd-pokemon.pkx", Game::Xd, ModelKind::Pokemon, 17),
        (
            "colosseum-pokemon.pkx",
            Game::Colosseum,
            ModelKind::Pokemon,
            17,
        ),
        ("xd-trainer.pkx", Game::Xd, ModelKind::Trainer, 17),
        (
            "colosseum-trainer.pkx",
            Game::Colosseum,
            ModelKind::Trainer,
            16,
        ),
    ];
    let samples = build::samples().unwrap();
    for (name, game, kind, slots) in want {
        let bytes = &samples.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(pkx::game(bytes), Some(game), "{name}");
        let p = Pkx::parse(bytes).unwrap();
        assert_eq!(&p.write().unwrap(), bytes, "{name}");
        assert_eq!((p.kind(), p.entries.len()), (kind, slots), "{name}");
        let d = pkx::validate_model(&p);
        assert!(d.is_empty(), "{name}: {d:#?}");
    }
}

#[test]
fn each_broken_variant_fires_exactly_its_rule() {
    // The crash rules the broken samples cover (named here so the rules catalogue test sees them).
    let covered: Vec<&str> = BREAKS.iter().map(|b| b.1).collect();
    assert_eq!(covered, ["PKX-007", "PKX-008", "PKX-006", "PKX-005"]);
    let samples = build::samples().unwrap();
    for game in ["xd", "colosseum"] {
        for (_, rule, name) in BREAKS {
            let file = format!("broken/{game}-{name}.pkx");
            let bytes = &samples.iter().find(|(n, _)| *n == file).unwrap().1;
            let p = Pkx::parse(bytes).unwrap();
            assert_eq!(&p.write().unwrap(), bytes, "{file}");
            assert_eq!(
                rules(&p),
                vec![rule.to_owned()],
                "{file}: {:#?}",
                pkx::validate_model(&p)
            );
        }
    }
}

/// The embedded DATs are laid out in HAL's compiler order, so rebuilding one from its model
/// (`gcf rebuild`) reproduces it byte for byte (issue 8: BNB 100 % for compiler-order archives).
#[test]
fn embedded_dats_rebuild_identically() {
    for (name, bytes) in build::samples().unwrap() {
        if name.starts_with("broken/") {
            continue;
        }
        let dat = pkx::parse(&bytes).unwrap().dat().to_vec();
        let model = hsd_dat::Dat::parse(&dat).unwrap();
        let rebuilt = hsd_dat::compile::compile(&model).unwrap().write().unwrap();
        assert_eq!(rebuilt, dat, "{name}");
    }
}
