#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Every RARC of the shared corpus (and every Yaz0-compressed one) round-trips byte for byte and
//! lists the members its expectation names, with their IDs, attributes, offsets and sizes.

use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "", "rarc corpus")
}

/// The values of `"key": value` pairs in order of appearance (enough for the expectation files).
fn values<'a>(json: &'a str, key: &str) -> Vec<&'a str> {
    let pat = format!("\"{key}\": ");
    json.match_indices(&pat)
        .map(|(i, _)| {
            let rest = &json[i + pat.len()..];
            let end = rest.find([',', '\n']).unwrap();
            rest[..end].trim_matches('"')
        })
        .collect()
}

#[test]
fn corpus_archives_round_trip_and_list_members() {
    let Some(root) = corpus() else { return };
    let mut seen = 0;
    for entry in std::fs::read_dir(root.join("rarc")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let data = std::fs::read(&path).unwrap();
        let json = std::fs::read_to_string(root.join(format!("expect/rarc/{name}.json"))).unwrap();
        let model = rarc::Archive::parse(&data).unwrap();
        assert_eq!(model.write().unwrap(), data, "{name}");
        let v = rarc::parse(&data).unwrap();
        let (_, files) = v.walk().unwrap();
        // Expectation members are listed per folder in entry order; compare as sets of rows.
        let paths = values(&json, "path");
        let members: Vec<&str> = paths
            .iter()
            .copied()
            .filter(|p| p.contains('.') && !p.ends_with('/'))
            .collect();
        let mut got: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        let mut want: Vec<String> = members.iter().map(|s| s.to_string()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{name}");
        let ids: Vec<u64> = values(&json, "file_id")
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let sizes: Vec<u64> = values(&json, "size")
            .iter()
            .skip(1)
            .map(|s| s.parse().unwrap())
            .collect();
        let entries: Vec<usize> = values(&json, "entry_index")
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert_eq!(ids.len(), files.len(), "{name}");
        for ((&i, &id), &size) in entries.iter().zip(&ids).zip(&sizes) {
            let e = v.entry(i).unwrap();
            assert_eq!(
                (u64::from(e.id), u64::from(e.size)),
                (id, size),
                "{name} entry {i}"
            );
        }
        assert_eq!(
            values(&json, "next_file_id")[0].parse::<u16>().unwrap(),
            v.info.next_id.get()
        );
        let errors: Vec<_> = rarc::validate(&data)
            .into_iter()
            .filter(|d| d.severity == gcio::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        seen += 1;
    }
    assert_eq!(seen, 7);
}

#[test]
fn corpus_szs_inner_archives_round_trip() {
    let Some(root) = corpus() else { return };
    for name in [
        "gclib-tree.szs",
        "oead-tree.szs",
        "oead-l6-tree.szs",
        "oead-l8-tree.szs",
    ] {
        let data = std::fs::read(root.join("yaz0").join(name)).unwrap();
        let inner = yaz0::decode(&data).unwrap();
        let model = rarc::Archive::parse(&inner).unwrap();
        assert_eq!(model.write().unwrap(), inner, "{name}");
        let v = rarc::parse(&inner).unwrap();
        let e = v.lookup("nest/deeper/packed.szs").unwrap().unwrap();
        assert_eq!(e.attr.bits(), 0x95);
        assert_eq!(v.decompressed(&e).unwrap().len(), 384);
    }
}

/// Unpacking into files + manifest and packing back reproduces every archive of the shared
/// corpus and the real game archives byte for byte: the compressed file with its original Yaz0
/// encoder and the RARC inside it. Counts what it read: an empty folder is no pass.
#[test]
fn manifest_unpack_then_pack_is_exact_on_every_archive() {
    let Some(root) = corpus() else { return };
    let mut paths = gcio::corpus::files(&root.join("rarc"));
    paths.extend(gcio::corpus::files(&root.join("real/rarc")));
    let (mut archives, mut exact) = (0, 0);
    for path in paths {
        let data = std::fs::read(&path).unwrap();
        if !rarc::is_rarc(&data) && !yaz0::is_yaz0(&data) {
            continue;
        }
        archives += 1;
        let name = path.display();
        let u = rarc::manifest::unpack(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        let files = u.files.iter().cloned().collect();
        let p = rarc::manifest::pack(&u.manifest, files, &u.dirs)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let (_, inner) = rarc::layer::peel_all(&data, 4).unwrap();
        if p.archive != inner {
            let at = (0..inner.len()).find(|&i| p.archive.get(i) != inner.get(i));
            panic!(
                "{name}: RARC differs at {at:x?} (len {} vs {})\n{}",
                p.archive.len(),
                inner.len(),
                u.manifest
            );
        }
        if u.layers.iter().all(|l| l.encoder.is_some()) {
            assert!(p.bytes() == data, "{name}: compressed file differs");
            exact += 1;
        } else {
            eprintln!("{name}: Yaz0 encoder unknown; RARC exact only");
        }
    }
    // Every archive, debug builds included (the Yaz0 encoders are optimised in the dev profile:
    // about 4 s for all 35 in a debug build, 2 s of them the 845 KB particle archive). Each
    // archive's Yaz0 encoder is identified, so each is exact at every level.
    assert_eq!((archives, exact), (35, 35), "7 sample and 28 real archives");
}
