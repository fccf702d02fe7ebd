//! A synthetic GameCube disc image, built with nod's builder around the generated samples, surveyed
//! end to end: every sample is found inside the image and round-trips.
#![cfg(feature = "disc")]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

/// A GameCube disc image (GCM) laid out by hand — nod keeps its image builder private: boot block
/// with the GameCube magic and the BB2 offsets, an empty BI2, an apploader declaring no code, a DOL
/// with one 0x20-byte text section, the FST (root + one file node per file, names after the nodes), then the files
/// at 32-byte aligned offsets.
fn build_gcm(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    build_gcm_with(files, &[])
}

/// [`build_gcm`] plus file nodes that declare a range of their own without data of their own:
/// (name, offset from the first file's data, length).
fn build_gcm_with(files: &[(String, Vec<u8>)], extra: &[(String, u32, u32)]) -> Vec<u8> {
    const DOL: usize = 0x2460;
    const FST: usize = 0x2580;
    let mut names = Vec::new();
    let count = files.len() + extra.len();
    let mut nodes = vec![0u8; 12 * (count + 1)];
    nodes[0] = 1;
    nodes[8..12].copy_from_slice(&(count as u32 + 1).to_be_bytes());
    let fst_size = nodes.len()
        + files.iter().map(|(n, _)| n.len() + 1).sum::<usize>()
        + extra.iter().map(|(n, _, _)| n.len() + 1).sum::<usize>();
    let user = (FST + fst_size).next_multiple_of(0x8000);
    let mut data = Vec::new();
    let mut node_at = |i: usize, name: &str, offset: usize, len: u32, names: &mut Vec<u8>| {
        let node = &mut nodes[12 * (i + 1)..12 * (i + 2)];
        node[..4].copy_from_slice(&(names.len() as u32).to_be_bytes());
        node[4..8].copy_from_slice(&(offset as u32).to_be_bytes());
        node[8..12].copy_from_slice(&len.to_be_bytes());
        names.extend_from_slice(name.as_bytes());
        names.push(0);
    };
    for (i, (name, bytes)) in files.iter().enumerate() {
        node_at(i, name, user + data.len(), bytes.len() as u32, &mut names);
        data.extend_from_slice(bytes);
        data.resize(data.len().next_multiple_of(32), 0);
    }
    for (i, (name, offset, len)) in extra.iter().enumerate() {
        node_at(
            files.len() + i,
            name,
            user + *offset as usize,
            *len,
            &mut names,
        );
    }
    let mut img = vec![0u8; user];
    img[..6].copy_from_slice(b"GCFT01");
    img[0x1C..0x20].copy_from_slice(&0xC233_9F3Du32.to_be_bytes());
    img[0x20..0x2A].copy_from_slice(b"gcf survey");
    let bb2 = [DOL, FST, fst_size, fst_size, 0x8170_0000, user, data.len()];
    for (i, v) in bb2.iter().enumerate() {
        img[0x420 + 4 * i..0x424 + 4 * i].copy_from_slice(&(*v as u32).to_be_bytes());
    }
    img[0x2440..0x244A].copy_from_slice(b"2026/11/30");
    img[DOL..DOL + 4].copy_from_slice(&0x100u32.to_be_bytes());
    img[DOL + 0x90..DOL + 0x94].copy_from_slice(&0x20u32.to_be_bytes());
    img[FST..FST + nodes.len()].copy_from_slice(&nodes);
    img[FST + nodes.len()..FST + fst_size].copy_from_slice(&names);
    img.extend_from_slice(&data);
    img
}

#[test]
fn survey_of_a_built_gamecube_image() {
    let samples = gcf::samples();
    assert!(!samples.is_empty(), "formats provide samples");
    let files: Vec<(String, Vec<u8>)> = samples
        .iter()
        .map(|(n, b)| (n.replace('/', "_"), b.clone()))
        .collect();
    let dir = std::env::temp_dir().join(format!("gcf-disc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let iso = dir.join("test.iso");
    std::fs::write(&iso, build_gcm(&files)).unwrap();

    assert!(gcf::disc::is_disc_image(&iso));
    let report = gcf::survey::survey(&iso, &gcf::survey::SurveyOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(report.unreadable.is_empty(), "{:?}", report.unreadable);
    let recognised: u64 = report
        .formats
        .iter()
        .filter(|(k, _)| k.as_str() != gcf::UNKNOWN)
        .map(|(_, s)| s.files)
        .sum();
    assert!(recognised >= samples.len() as u64, "{}", report.table());
    assert!(report.all_identical(), "{}", report.table());
    let some_member = report
        .formats
        .values()
        .flat_map(|s| s.failures.keys())
        .next();
    assert!(some_member.is_none());
    // Members are named through the image.
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains("\"path\""));
}

#[test]
fn a_malformed_image_is_reported_not_fatal() {
    let mut img = build_gcm(&[("a.bin".to_owned(), vec![1, 2, 3])]);
    img[0x2460..0x2560].fill(0); // a DOL without sections makes nod slice out of range
    let dir = std::env::temp_dir().join(format!("gcf-bad-disc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.iso"), &img).unwrap();
    let report = gcf::survey::survey(&dir, &gcf::survey::SurveyOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(report.unreadable.len(), 1, "{}", report.table());
    assert!(report.has_errors());
}

/// A hostile FST: 2,000 entries over the same bytes are surveyed once, and an entry declaring
/// 3.75 GiB is reported without being read (the image is a few KiB).
#[test]
fn aliased_and_oversized_entries_are_bounded() {
    let table = gcf::samples()
        .into_iter()
        .find(|(n, _)| n.ends_with(".bcsv"))
        .unwrap();
    let files = vec![("table.bcsv".to_owned(), table.1.clone())];
    let mut extra: Vec<(String, u32, u32)> = (0..2000)
        .map(|i| (format!("alias{i}.bcsv"), 0, table.1.len() as u32))
        .collect();
    extra.push(("huge.bin".to_owned(), 0x20, 0xF000_0000));
    let dir = std::env::temp_dir().join(format!("gcf-alias-disc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let iso = dir.join("alias.iso");
    std::fs::write(&iso, build_gcm_with(&files, &extra)).unwrap();
    let t = std::time::Instant::now();
    let report = gcf::survey::survey(&iso, &gcf::survey::SurveyOptions::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    let bcsv = report.formats.get("bcsv").map_or(0, |s| s.files);
    assert_eq!(bcsv, 1, "aliases are surveyed once: {}", report.table());
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains("larger than the survey reads"), "{json}");
}
