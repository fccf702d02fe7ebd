//! yaz0 and rarc through the registry: extract → pack reproduces a retail-layout archive byte for
//! byte (plain and Yaz0-compressed), convert .arc ⇄ .szs, deep round trips through szs → arc →
//! members, and a text payload that merely starts with "Yaz0" is not taken for a stream.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use std::path::Path;

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gcf-rarc-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sample(name: &str) -> Vec<u8> {
    gcf::samples()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap()
        .1
}

#[test]
fn extract_then_pack_reproduces_retail_archives() {
    let rarc = gcf::format_by_name("rarc").unwrap();
    let arc = sample("rarc/stage.arc");
    let szs = sample("yaz0/stage.szs");
    let dir = scratch("extract");
    let n = rarc.extract(&arc, &dir).unwrap().unwrap();
    assert_eq!(n, 6);
    let opts = gcf::Options::new();
    assert_eq!(
        rarc.pack(&dir, Path::new("out.arc"), &opts)
            .unwrap()
            .unwrap(),
        arc
    );
    assert_eq!(
        rarc.pack(&dir, Path::new("out.szs"), &opts)
            .unwrap()
            .unwrap(),
        szs
    );
    // Other encoders still decode to the same archive.
    for enc in ["fast", "best", "whitehole", "gclib"] {
        let mut o = gcf::Options::new();
        o.insert("yaz0".into(), enc.into());
        let s = rarc.pack(&dir, Path::new("out.szs"), &o).unwrap().unwrap();
        assert_eq!(gcformats_yaz0_decode(&s), arc, "{enc}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn gcformats_yaz0_decode(s: &[u8]) -> Vec<u8> {
    let yaz0 = gcf::format_by_name("yaz0").unwrap();
    yaz0.members(s).unwrap().remove(0).data
}

#[test]
fn convert_arc_szs_and_back() {
    let yaz0 = gcf::format_by_name("yaz0").unwrap();
    let arc = sample("rarc/stage.arc");
    let dir = scratch("convert");
    let (szs, back) = (dir.join("x.szs"), dir.join("y.arc"));
    yaz0.convert(&arc, Path::new("x.arc"), &szs, &gcf::Options::new())
        .unwrap()
        .unwrap();
    let s = std::fs::read(&szs).unwrap();
    assert_eq!(s, sample("yaz0/stage.szs"));
    yaz0.convert(&s, &szs, &back, &gcf::Options::new())
        .unwrap()
        .unwrap();
    assert_eq!(std::fs::read(&back).unwrap(), arc);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_round_trip_and_detection() {
    let szs = sample("yaz0/stage.szs");
    let d = gcf::identify(&szs, "stage.szs");
    assert_eq!((d.format, d.detail.as_deref()), ("yaz0", Some("rarc")));
    let mut out = Vec::new();
    gcf::examine("stage.szs", &szs, true, &gcf::Options::new(), &mut out);
    assert_eq!(out[0].roundtrip, gcf::RoundTrip::Identical);
    assert_eq!(out[1].path, "stage.szs:payload");
    assert_eq!(out[1].format, "rarc");
    assert_eq!(out[1].roundtrip, gcf::RoundTrip::Identical);
    assert!(
        out.iter()
            .any(|e| e.path == "stage.szs:payload:camera/CameraParam.bcam")
    );
    // Text that starts with "Yaz0" but is no stream.
    assert_eq!(
        gcf::identify(b"Yaz0 member inside a RARC.", "x").format,
        gcf::UNKNOWN
    );
}
