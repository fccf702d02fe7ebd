#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The public PKX corpus (StarsMmd add-on output): byte-exact round trips and agreement with the
//! expectation files. Skips when `../shared/corpus` is absent.

use std::path::PathBuf;

use pkx::{Game, Header, ModelKind, Pkx, Timing};
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "pkx corpus")
}

fn u(v: &Value) -> i64 {
    v.as_i64().unwrap()
}

fn check(name: &str, game: Game) {
    let Some(dir) = corpus() else { return };
    let bytes = std::fs::read(dir.join("pkx").join(name)).unwrap();
    let e: Value = serde_json::from_slice(
        &std::fs::read(dir.join("expect/pkx").join(format!("{name}.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(e["format"], game.format_name());
    assert_eq!(pkx::game(&bytes), Some(game));
    let v = pkx::parse(&bytes).unwrap();
    let c = &e["container"];
    assert_eq!(v.layout.dat as i64, u(&c["dat_offset"]));
    assert_eq!(v.dat().len() as i64, u(&c["dat_size"]));
    assert_eq!(v.gpt1().len() as i64, u(&c["gpt1_size"]));
    assert_eq!(
        (bytes.len() - v.layout.dat_end()) as i64,
        u(&c["bytes_after_dat"])
    );
    let p = Pkx::parse(&bytes).unwrap();
    assert_eq!(
        p.write().unwrap(),
        bytes,
        "{name} must round-trip byte for byte"
    );
    assert_eq!(p.kind(), ModelKind::Pokemon);
    let h = &e["header"];
    assert_eq!(
        p.particle_orientation() as i64,
        u(&h["particle_orientation"])
    );
    let shiny = p.shiny();
    let route: Vec<i64> = h["shiny_route"].as_array().unwrap().iter().map(u).collect();
    let bright: Vec<i64> = h["shiny_brightness"]
        .as_array()
        .unwrap()
        .iter()
        .map(u)
        .collect();
    assert_eq!(shiny.route.map(i64::from).to_vec(), route);
    assert_eq!(shiny.brightness.map(i64::from).to_vec(), bright);
    let refs: Vec<(i64, i64)> = p
        .triggers()
        .iter()
        .filter(|t| t.active)
        .map(|t| (t.index as i64, t.anim_index))
        .collect();
    let want: Vec<(i64, i64)> = h["active_part_anim_refs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (u(&r[0]), u(&r[1])))
        .collect();
    assert_eq!(refs, want);
    match &p.header {
        Header::Xd(x) => {
            assert_eq!(i64::from(x.species_id), u(&h["species_id"]));
            assert_eq!(i64::from(x.type_id), u(&h["type_id"]));
            assert_eq!(i64::from(x.flags.bits()), u(&h["flags"]));
            assert_eq!(i64::from(x.head_bone), u(&h["head_bone_index"]));
            for (i, pa) in x.part_anims.iter().enumerate() {
                let j = &h["part_anim_data"][i];
                assert_eq!(i64::from(pa.has_data), u(&j["has_data"]));
                assert_eq!(i64::from(pa.anim_index), u(&j["anim_index_ref"]));
                let cfg: String = pa
                    .parts
                    .iter()
                    .chain(&pa.selectors)
                    .map(|b| format!("{b:02x}"))
                    .collect();
                assert_eq!(cfg, j["bone_config"].as_str().unwrap());
            }
        }
        Header::Colosseum(x) => {
            assert_eq!(i64::from(x.unknown_10), u(&h["colo_unknown_10"]));
            assert_eq!(i64::from(x.unknown_14), u(&h["colo_unknown_14"]));
            assert_eq!(
                x.part_anim_refs.map(i64::from).to_vec(),
                h["colo_part_anim_refs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(u)
                    .collect::<Vec<_>>()
            );
            assert_eq!(p.head_bone(), Some(u(&h["head_bone_index_derived"])));
        }
    }
    let entries = h["anim_entries"].as_array().unwrap();
    assert_eq!(p.entries.len(), entries.len());
    for (i, (m, j)) in p.entries.iter().zip(entries).enumerate() {
        assert_eq!(
            ModelKind::Pokemon.slot_name(game, i),
            j["slot_name"].as_str().unwrap()
        );
        assert_eq!(i64::from(m.anim_type.0), u(&j["anim_type"]));
        assert_eq!(i64::from(m.sub_anim_count), u(&j["sub_anim_count"]));
        assert_eq!(i64::from(m.damage_flags), u(&j["damage_flags"]));
        assert_eq!(i64::from(m.terminator), u(&j["terminator"]));
        let bm: Vec<i64> = j["body_map_bones"]
            .as_array()
            .unwrap()
            .iter()
            .map(u)
            .collect();
        assert_eq!(m.body_map.map(i64::from).to_vec(), bm);
        let subs: Vec<(i64, i64)> = m
            .used()
            .iter()
            .map(|s| (i64::from(s.motion_type), i64::from(s.anim_index)))
            .collect();
        let want: Vec<(i64, i64)> = j["sub_anims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (u(&s[0]), u(&s[1])))
            .collect();
        assert_eq!(subs, want, "slot {i}");
        let active: Vec<bool> = m.used().iter().map(|s| s.is_active(game)).collect();
        let want: Vec<bool> = j["sub_anims_active"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_bool().unwrap())
            .collect();
        assert_eq!(active, want, "slot {i} polarity");
        let secs: Vec<f64> = j["timing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_f64().unwrap())
            .collect();
        match m.timing {
            Timing::Seconds(s) => assert_eq!(s.map(f64::from).to_vec(), secs),
            Timing::Frames(f) => {
                let frames: Vec<i64> = j["timing_frames"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(u)
                    .collect();
                assert_eq!(f.map(i64::from).to_vec(), frames);
                for (a, b) in m.timing.seconds().iter().zip(&secs) {
                    assert!((a - b).abs() < 1e-9);
                }
            }
        }
    }
    // The payload has no ModelSet: active anim refs are reported (PKX-006), never a crash rule
    // the file does not break.
    let rules: Vec<String> = pkx::validate_model(&p)
        .into_iter()
        .filter(|d| d.severity == gcio::Severity::Error)
        .map(|d| d.rule)
        .collect();
    assert!(rules.iter().all(|r| r == "PKX-006"), "{rules:?}");
    // Metadata JSON survives json -> pkx -> json and rebuilds this very file.
    let s = pkx::json::to_string(&p);
    let q = pkx::json::from_str(&s, p.dat.clone()).unwrap();
    assert_eq!(pkx::json::to_string(&q), s);
    assert_eq!(
        q.write().unwrap(),
        bytes,
        "{name}: JSON + DAT rebuilds the file"
    );
}

#[test]
fn starsmmd_xd() {
    check("starsmmd-xd.pkx", Game::Xd);
}

#[test]
fn starsmmd_colosseum() {
    check("starsmmd-colosseum.pkx", Game::Colosseum);
}
