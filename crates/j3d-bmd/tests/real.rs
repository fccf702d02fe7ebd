#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Real game models under `../shared/corpus/real` (top-level files and archive members): every
//! chunk typed, no `error`, byte-identical round trip. Passes (skips) without the corpus.

mod common;

use gcio::Severity;
use j3d_bmd::{Bmd, Chunk};

#[test]
fn real_models_are_typed_valid_and_round_trip() {
    let models = common::real_models();
    for (name, data) in &models {
        let m = Bmd::parse(data).unwrap();
        let raw: Vec<String> = j3d_bmd::parse(data)
            .unwrap()
            .chunks()
            .iter()
            .filter_map(|c| Chunk::raw_reason(c).map(|r| format!("{}: {r}", c.name())))
            .collect();
        assert!(raw.is_empty(), "{name}: raw chunks {raw:?}");
        assert!(
            m.chunks.iter().all(|c| !matches!(c, Chunk::Raw(_))),
            "{name}"
        );
        assert_eq!(m.write().unwrap(), *data, "{name}: round trip");
        let errors: Vec<_> = j3d_bmd::validate(data)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert!(
            j3d_bmd::geometry(&j3d_bmd::parse(data).unwrap()).is_ok(),
            "{name}"
        );
    }
}

/// Moving one vertex, changing one texture's wrap mode or one material colour in a real model
/// and writing it back changes exactly those bytes.
#[test]
fn edits_on_real_models_change_only_their_bytes() {
    for (name, data) in common::real_models() {
        common::check_edits(&name, &data);
    }
}

#[test]
#[ignore = "measurement: prints every raw chunk of the real models and why"]
fn report_raw_chunks() {
    let dump = std::env::var_os("J3D_DUMP");
    for (name, data) in common::real_models() {
        if let Some(d) = &dump {
            let f = std::path::Path::new(d).join(name.replace('/', "__"));
            std::fs::write(f, &data).unwrap();
        }
        let v = j3d_bmd::parse(&data).unwrap();
        let mut line = format!("{name} ({} bytes)", data.len());
        for c in v.chunks() {
            match j3d_bmd::Chunk::raw_reason(c) {
                None => line += &format!(" {}", c.name()),
                Some(why) => line += &format!("\n    RAW {} @{:#x}: {why}", c.name(), c.offset()),
            }
        }
        println!("{line}");
    }
}

#[test]
#[ignore = "debug"]
fn debug_one() {
    let f = std::env::var("J3D_FILE").unwrap();
    let magic = std::env::var("J3D_CHUNK").unwrap();
    let data = std::fs::read(f).unwrap();
    let v = j3d_bmd::parse(&data).unwrap();
    let c = v.chunks().iter().find(|c| c.name() == magic).unwrap();
    let p = j3d_bmd::Pad::Nintendo;
    let bytes = match magic.as_str() {
        "MAT3" => j3d_bmd::Mat3::from_view(&j3d_bmd::Mat3View::parse(c.data).unwrap(), p, 4)
            .unwrap()
            .write()
            .unwrap(),
        "MDL3" => j3d_bmd::Mdl3::parse(c.data, p).unwrap().write().unwrap(),
        "SHP1" => j3d_bmd::Shp1::from_view(&j3d_bmd::Shp1View::parse(c.data).unwrap())
            .unwrap()
            .write()
            .unwrap(),
        "EVP1" => j3d_bmd::Evp1::from_view(&j3d_bmd::Evp1View::parse(c.data).unwrap())
            .unwrap()
            .write()
            .unwrap(),
        _ => unreachable!(),
    };
    std::fs::write("/tmp/j3d_mine.bin", &bytes).unwrap();
    std::fs::write("/tmp/j3d_theirs.bin", c.data.data()).unwrap();
}

#[test]
#[ignore = "measurement: prints every validator finding on the real models"]
fn report_findings() {
    for (name, data) in common::real_models() {
        for d in j3d_bmd::validate(&data) {
            println!("{name}\t{:?}\t{}\t{}", d.severity, d.rule, d.message);
        }
    }
}

#[test]
#[ignore = "debug: MDL3 packet registers against the regenerated ones"]
fn debug_mdl3() {
    let f = std::env::var("J3D_FILE").unwrap();
    let data = std::fs::read(f).unwrap();
    let m = Bmd::parse(&data).unwrap();
    let mats = m.mat3().unwrap().materials();
    let tex = &m.tex1().unwrap().set;
    let regen = j3d_bmd::Mdl3::from_materials(&mats, tex).unwrap();
    for (i, (p, q)) in m
        .mdl3()
        .unwrap()
        .packets
        .iter()
        .zip(&regen.packets)
        .enumerate()
    {
        println!(
            "material {i}: tev_colors {:?} konst {:?}",
            mats[i].tev_colors, mats[i].konst_colors
        );
        for (r, v, _) in j3d_bmd::mdl3::registers(&p.commands) {
            if let j3d_bmd::mdl3::Register::Bp(0xE0..=0xE7) | j3d_bmd::mdl3::Register::Konst(_) = r
            {
                println!("  stored {r} = {v:#x}");
            }
        }
        for (r, v, _) in j3d_bmd::mdl3::registers(&q.commands) {
            if let j3d_bmd::mdl3::Register::Bp(0xE0..=0xE7) | j3d_bmd::mdl3::Register::Konst(_) = r
            {
                println!("  regen  {r} = {v:#x}");
            }
        }
    }
}
