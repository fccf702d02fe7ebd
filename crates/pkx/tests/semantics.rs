#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Semantics: polarity, triggers, names, resolution to the DAT, conversion, and the advisory
//! rules each firing on its own edit.

use pkx::names::{COLOSSEUM_TRAINER_SLOTS, XD_TRAINER_SLOTS};
use pkx::{BODY_PARTS, DatFacts, Game, Header, ModelKind, Pkx, SubAnim, Timing, build, json};

fn rules(p: &Pkx) -> Vec<String> {
    let mut r: Vec<String> = pkx::validate_model(p).into_iter().map(|d| d.rule).collect();
    r.dedup();
    r
}

#[test]
fn polarity_decides_real_and_padding_slots() {
    let xd = build::xd_pokemon().unwrap();
    let colo = build::colosseum_pokemon().unwrap();
    let active =
        |p: &Pkx| -> Vec<bool> { p.entries.iter().map(|e| e.is_active(p.game())).collect() };
    let mut want = vec![true; 13];
    want.extend([false; 4]);
    assert_eq!(active(&xd), want);
    want[16] = true; // Colosseum flyer: Take Flight after the padding
    assert_eq!(active(&colo), want);
    assert_eq!(
        colo.entries[13].sub_anims[0],
        SubAnim {
            motion_type: 1,
            anim_index: 0
        }
    );
    assert_eq!(colo.entries[0].sub_anims[0].motion_type, 0);
    assert_eq!(xd.entries[0].sub_anims[0].motion_type, 2);
    assert_eq!(xd.entries[1].sub_anims[0].motion_type, 1);
}

#[test]
fn triggers_names_and_head_bone_in_both_layouts() {
    let xd = build::xd_pokemon().unwrap();
    let colo = build::colosseum_pokemon().unwrap();
    let refs = |p: &Pkx| -> Vec<(usize, i64)> {
        p.triggers()
            .iter()
            .filter(|t| t.active)
            .map(|t| (t.index, t.anim_index))
            .collect()
    };
    assert_eq!(refs(&xd), vec![(0, 9), (1, 10), (2, 11)]);
    assert_eq!(refs(&colo), vec![(0, 9), (1, 10), (2, 11)]);
    assert_eq!(xd.head_bone(), Some(4));
    assert_eq!(colo.head_bone(), Some(i64::from(build::POKEMON_BODY[1])));
    assert_eq!(
        ModelKind::Pokemon.slot_name(Game::Colosseum, 16),
        "Take Flight"
    );
    assert_eq!(ModelKind::Trainer.slot_name(Game::Xd, 10), "Defeat");
    assert_eq!(ModelKind::Trainer.slot_name(Game::Colosseum, 11), "Defeat");
    assert_eq!(ModelKind::Trainer.slot_name(Game::Colosseum, 20), "Slot 20");
    assert_eq!(
        (XD_TRAINER_SLOTS[3], COLOSSEUM_TRAINER_SLOTS[6]),
        ("Battle Intro", "Battle Intro")
    );
    assert_eq!(build::xd_trainer().unwrap().kind(), ModelKind::Trainer);
    assert_eq!(
        build::colosseum_trainer().unwrap().kind(),
        ModelKind::Trainer
    );
}

#[test]
fn slots_resolve_to_the_dat_animations() {
    let p = build::xd_pokemon().unwrap();
    let a = hsd_dat::parse(&p.dat).unwrap();
    let f = DatFacts::read(&a).unwrap();
    assert_eq!((f.bones, f.anims.len(), f.has_model), (24, 12, true));
    let r = p.resolve(&f);
    assert_eq!(r[0], vec![Some(f.anims[0])]);
    assert_eq!(r[9], vec![Some(f.anims[5]), Some(f.anims[6])]);
    assert!(r[13].is_empty());
    assert_eq!(r[2], r[4], "physical slots share an animation");
}

#[test]
fn conversion_between_games() {
    let xd = build::xd_pokemon().unwrap();
    let colo = Pkx::parse(&xd.to_game(Game::Colosseum).write().unwrap()).unwrap();
    assert_eq!(colo.entries[0].timing, Timing::Frames([130, 0, 0, 0]));
    assert_eq!(
        colo.entries[13].sub_anims[0],
        SubAnim::padding(Game::Colosseum)
    );
    assert!(colo.entries.iter().all(|e| e.terminator == 1));
    let Header::Colosseum(h) = colo.header else {
        panic!()
    };
    assert_eq!(h.part_anim_refs, [9, 10, 11]);
    assert!(
        pkx::validate_model(&colo).is_empty(),
        "{:#?}",
        pkx::validate_model(&colo)
    );
    let back = Pkx::parse(&colo.to_game(Game::Xd).write().unwrap()).unwrap();
    assert_eq!(
        back.entries[0].timing,
        Timing::Seconds([130.0 / 60.0, 0.0, 0.0, 0.0])
    );
    assert_eq!(
        back.entries[0].sub_anims[0].motion_type, 2,
        "loop slots play looped"
    );
    assert_eq!(back.entries[1].sub_anims[0].motion_type, 1);
    assert_eq!(back.shiny(), xd.shiny());
    let t = Pkx::parse(
        &build::colosseum_trainer()
            .unwrap()
            .to_game(Game::Xd)
            .write()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(t.entries.len(), 17);
    assert!(
        pkx::validate_model(&t).is_empty(),
        "{:#?}",
        pkx::validate_model(&t)
    );
}

#[test]
fn advisory_rules_fire_on_their_own_edit() {
    let base = build::xd_pokemon().unwrap();
    let cbase = build::colosseum_pokemon().unwrap();
    let case = |p: &Pkx, f: &dyn Fn(&mut Pkx), rule: &str| {
        let mut q = p.clone();
        f(&mut q);
        assert_eq!(
            rules(&q),
            vec![rule.to_owned()],
            "{rule}: {:#?}",
            pkx::validate_model(&q)
        );
    };
    case(&base, &|p| p.entries[0].body_map[15] = 30, "PKX-009");
    case(&base, &|p| p.entries[0].body_map[15] = -5, "PKX-009");
    case(
        &base,
        &|p| p.entries[0].sub_anims[0].motion_type = 7,
        "PKX-010",
    );
    case(
        &cbase,
        &|p| p.entries[14].sub_anims[0].anim_index = 3,
        "PKX-010",
    );
    case(&base, &|p| p.entries[3].terminator = 1, "PKX-011");
    case(
        &base,
        &|p| p.entries[3].damage_flags = 0xCDCD_CDCD,
        "PKX-013",
    );
    case(
        &base,
        &|p| p.entries[3].timing = Timing::Frames([1, 2, 3, 4]),
        "PKX-014",
    );
    case(&base, &|p| p.gpt1[0] = b'X', "PKX-002");
    case(&base, &|p| p.trailer.clear(), "PKX-004");
    case(
        &cbase,
        &|p| {
            if let Header::Colosseum(h) = &mut p.header {
                h.unknown_10 = 4
            }
        },
        "PKX-003",
    );
    case(
        &cbase,
        &|p| {
            if let Header::Colosseum(h) = &mut p.header {
                h.shiny.route[0] = 9
            }
        },
        "PKX-012",
    );
    case(
        &base,
        &|p| {
            if let Header::Xd(h) = &mut p.header {
                h.part_anims[0].anim_index = 99
            }
        },
        "PKX-006",
    );
    case(
        &base,
        &|p| {
            if let Header::Xd(h) = &mut p.header {
                h.type_id = 0x0D
            }
        },
        "PKX-001",
    );
    // Trainers keep −1 in unused slots; the same map on a Pokémon is PKX-008.
    let t = build::xd_trainer().unwrap();
    assert!(pkx::validate_model(&t).is_empty());
    assert!(
        pkx::validate_model_as(&t, ModelKind::Pokemon)
            .iter()
            .all(|d| d.rule == "PKX-008")
    );
}

#[test]
fn hsd_rules_run_on_the_embedded_model_at_pkx_offsets() {
    let mut p = build::colosseum_pokemon().unwrap();
    let mut dat = p.dat.clone();
    dat.extend([0; 8]); // trailing bytes past the archive's file_size: HSD-001
    p.set_dat(dat);
    let d = pkx::validate_model(&p);
    let hsd: Vec<_> = d.iter().filter(|x| x.rule.starts_with("HSD")).collect();
    assert_eq!(hsd.len(), 1, "{d:#?}");
    assert_eq!(
        (hsd[0].rule.as_str(), hsd[0].offset),
        ("HSD-001", Some(0x40))
    );
}

#[test]
fn json_names_body_parts_in_slot_order() {
    let p = build::colosseum_pokemon().unwrap();
    let v: serde_json::Value = serde_json::from_str(&json::to_string(&p)).unwrap();
    let keys: Vec<&str> = v["entries"][0]["body_map"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut sorted = BODY_PARTS.to_vec();
    sorted.sort_unstable();
    let mut k = keys.clone();
    k.sort_unstable();
    assert_eq!(k, sorted);
    assert_eq!(v["game"], "colosseum");
    assert_eq!(v["entries"][16]["name"], "Take Flight");
    assert_eq!(v["entries"][16]["active"], true);
    assert_eq!(v["entries"][0]["frames"][0], 130);
    // Output-only fields are ignored on import; a bad document is an error, not a panic.
    assert!(json::from_str("{}", p.dat.clone()).is_err());
    assert!(json::from_str("[1]", Vec::new()).is_err());
}

#[test]
fn rotated_root_joint_fires_hsd_021_inside_the_pkx() {
    let mut p = build::xd_pokemon().unwrap();
    let root = DatFacts::read(&hsd_dat::parse(&p.dat).unwrap())
        .unwrap()
        .root_joint
        .unwrap() as usize;
    let at = 0x20 + root + 0x14; // DAT header, then Joint.rotation[0]
    p.dat[at..at + 4].copy_from_slice(&0.5f32.to_be_bytes());
    let d = pkx::validate_model(&p);
    assert_eq!(
        d.iter().map(|x| x.rule.as_str()).collect::<Vec<_>>(),
        vec!["HSD-021"],
        "{d:#?}"
    );
}

#[test]
fn unreadable_embedded_dat_fires_hsd_002_alone() {
    let mut p = build::xd_pokemon().unwrap();
    p.set_dat(vec![0xFF; 0x20]);
    let d = pkx::validate_model(&p);
    assert!(d.iter().any(|x| x.rule == "HSD-002"), "{d:#?}");
    assert!(
        d.iter()
            .all(|x| x.rule == "HSD-002" || x.severity != gcio::Severity::Error),
        "{d:#?}"
    );
}
