//! yaz0 and rarc through the registry: a folder packed without a manifest gives Nintendo's own
//! compressed archives (real files, when the shared corpus is present), extract → pack is the
//! identity on our sample, convert .arc ⇄ .szs, deep round trips through szs → arc → members, and
//! a text payload that merely starts with "Yaz0" is not taken for a stream.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use std::path::Path;

use support::{sample, scratch};

/// The independent check of `pack`'s retail layout and default encoder: four real SMG2 archives
/// list their folders and files in name order, so extracting them, dropping the manifest (a
/// modder's fresh folder) and packing to `.szs` with `sync-ids` must give the game's file byte
/// for byte — Nintendo's packer and Yaz0 encoder are the oracle. (The other real archives use
/// another member order or string table, which only the manifest reproduces: `archives.rs`.)
#[test]
fn folder_pack_reproduces_real_archives() {
    let Some(real) = gcio::corpus::dir(
        env!("CARGO_MANIFEST_DIR"),
        "real/rarc/smg2",
        "gcf folder pack (real)",
    ) else {
        return;
    };
    for name in [
        "LayoutData-FileInfo.arc",
        "LayoutData-PauseMenu.arc",
        "ObjectData-Flag.arc",
        "ObjectData-LavaSteam.arc",
    ] {
        let data = std::fs::read(real.join(name)).unwrap();
        let inner = rarc::layer::peel_all(&data, 4).unwrap().1;
        let v = rarc::parse(&inner).unwrap();
        let root = String::from_utf8(v.node_name(0).unwrap().to_vec()).unwrap();
        // The folder's name becomes the root's.
        let dir = scratch(name).join(root);
        std::fs::create_dir(&dir).unwrap();
        gcf::archive::extract_into(&data, name, &dir).unwrap();
        std::fs::remove_file(dir.join(rarc::manifest::MANIFEST)).unwrap();
        let mut opts = gcf::Options::new();
        opts.insert("sync-ids".into(), "true".into());
        let policy = gcf::output::Policy::default();
        let packed = gcf::archive::pack(&dir, Path::new("out.szs"), &opts, &policy).unwrap();
        let got = rarc::layer::peel_all(&packed.bytes, 4).unwrap().1;
        assert_eq!(gcio::first_difference(&got, &inner), None, "{name}: RARC");
        assert!(packed.bytes == data, "{name}: compressed file differs");
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    }
}

/// Consistency on our own sample (not an independent check: the sample is `pack` output):
/// extract and pack are inverse, and every other encoder decodes to the same archive.
#[test]
fn extract_then_pack_is_the_identity_on_the_sample() {
    let arc = sample("rarc/stage.arc");
    let szs = sample("yaz0/stage.szs");
    let dir = scratch("extract");
    let n = gcf::archive::extract_into(&arc, "archive", &dir)
        .unwrap()
        .files;
    assert_eq!(n, 6);
    let opts = gcf::Options::new();
    let policy = gcf::output::Policy::default();
    let pack = |out: &str, opts: &gcf::Options| {
        gcf::archive::pack(&dir, Path::new(out), opts, &policy)
            .unwrap()
            .bytes
    };
    assert_eq!(pack("out.arc", &opts), arc);
    assert_eq!(pack("out.szs", &opts), szs);
    // Other encoders still decode to the same archive.
    for enc in ["fast", "best", "whitehole", "gclib"] {
        let mut o = gcf::Options::new();
        o.insert("yaz0".into(), enc.into());
        let s = pack("out.szs", &o);
        assert_eq!(gcformats_yaz0_decode(&s), arc, "{enc}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn gcformats_yaz0_decode(s: &[u8]) -> Vec<u8> {
    let file = gcf::open_with(s, &gcf::OpenOptions::named("x.szs")).unwrap();
    assert_eq!(file.format(), "yaz0");
    file.members().unwrap().remove(0).bytes().to_vec()
}

#[test]
fn convert_arc_szs_and_back() {
    let yaz0 = gcf::format_by_name("yaz0").unwrap();
    let arc = sample("rarc/stage.arc");
    let (opts, none) = (gcf::Options::new(), gcf::Companions::new());
    let szs = yaz0.convert(&gcformats::Conversion {
        input: &arc,
        from: "x.arc",
        to: "dir/x.szs",
        opts: &opts,
        companions: &none,
        limits: &gcio::Limits::default(),
    });
    let s = sample("yaz0/stage.szs");
    assert_eq!(szs.unwrap(), Some(vec![("x.szs".to_owned(), s.clone())]));
    // Decompression is the registry's: the payload, decoded once.
    let back = gcformats::convert(&gcformats::Conversion {
        input: &s,
        from: "dir/x.szs",
        to: "y.arc",
        opts: &opts,
        companions: &none,
        limits: &gcio::Limits::default(),
    });
    assert_eq!(back.unwrap(), Some(vec![("y.arc".to_owned(), arc)]));
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

/// A Yaz0 stream no named encoder makes (Nintendo's tokens, each long reference split in two):
/// `extract` keeps its decisions in a token file the manifest names, so `pack` of the unchanged
/// folder gives the file back byte for byte; an edited member is compressed with the named
/// encoder closest to the original, which the notice names, and reads back.
#[test]
fn unknown_encoder_round_trips_through_its_token_file() {
    let arc = sample("rarc/stage.arc");
    let nintendo = yaz0::Encoder::Matching(yaz0::Matching::Nintendo);
    let mut tokens = Vec::new();
    for t in nintendo.tokens(&arc) {
        match t {
            yaz0::Token::Match { dist, len } if len >= 8 => {
                tokens.push(yaz0::Token::Match { dist, len: len - 3 });
                tokens.push(yaz0::Token::Match { dist, len: 3 });
            }
            t => tokens.push(t),
        }
    }
    let stream = yaz0::Stream {
        header: yaz0::Header {
            size: arc.len() as u32,
            reserved: [0; 8],
        },
        tokens,
        unused_flag_bits: 0,
        trailing: Vec::new(),
    };
    assert!(
        stream.identify(&arc).is_empty(),
        "no named encoder makes it"
    );
    let szs = stream.write();
    assert_eq!(yaz0::decode(&szs).unwrap(), arc);

    let dir = scratch("unknown-encoder");
    let x = gcf::archive::extract_into(&szs, "custom.szs", &dir).unwrap();
    assert!(
        x.layers[0].starts_with("yaz0\tunknown\ttokens="),
        "{:?}",
        x.layers
    );
    let tokens_file = dir.join(rarc::layer::token_file(0));
    assert!(tokens_file.is_file());
    // The decisions without the literals are smaller than the stream.
    assert!(std::fs::metadata(&tokens_file).unwrap().len() < szs.len() as u64);
    let policy = gcf::output::Policy::default();
    let pack = || gcf::archive::pack(&dir, Path::new("out.szs"), &gcf::Options::new(), &policy);
    let same = pack().unwrap();
    assert!(same.bytes == szs, "unchanged folder: the original stream");
    assert!(same.notices.is_empty(), "{:?}", same.notices);

    // An edited member: the closest named encoder, named in the notices.
    let member = dir.join("camera/CameraParam.bcam");
    let mut edited = std::fs::read(&member).unwrap();
    edited.extend_from_slice(b"edited");
    std::fs::write(&member, &edited).unwrap();
    let changed = pack().unwrap();
    let closest = yaz0::Encoder::closest(&arc, szs.len());
    assert!(
        changed
            .notices
            .iter()
            .any(|n| n.contains(&format!("compressed with {}", closest.name()))),
        "{:?}",
        changed.notices
    );
    let (layers, inner) = rarc::layer::peel_all(&changed.bytes, 4).unwrap();
    assert_eq!(layers[0].encoder, Some(closest));
    let members = rarc::layer::members(&inner).unwrap().unwrap();
    let got = members
        .iter()
        .find(|(p, _)| p == "camera/CameraParam.bcam")
        .unwrap();
    assert_eq!(got.1, edited);
    let _ = std::fs::remove_dir_all(&dir);
}
