//! What the game's loader accepts and we must too (JSystem `J3DAnmLoader` reads each table
//! through its own offset and count and never checks the sizes or that tables are disjoint): a
//! file stored without its end padding, tables that share bytes, a chunk size inside the tables.
//! Each parses, gives its finding and writes back byte for byte; a sweep of moved header words
//! checks that whatever parses writes back the same.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gcio::Severity;
use j3d_anim::{Anim, ChunkSize, Data, FileSize, Gap, Kind, Strings, build};
use proptest::prelude::*;

/// (rule, severity) of every finding.
fn findings(bytes: &[u8]) -> Vec<(String, Severity)> {
    j3d_anim::validate(bytes)
        .into_iter()
        .map(|d| (d.rule, d.severity))
        .collect()
}

/// A BCA with `extra` more translation values (each moves the end by 4 bytes): its bytes and
/// the length of its end padding.
fn bca(extra: usize) -> (Vec<u8>, usize) {
    let mut a = build::sample(Kind::Bca);
    if let Data::F32(t) = &mut a.tables[3].data {
        t.extend((0..extra).map(|i| i as f32));
    }
    let bytes = a.write().unwrap();
    a.layout.end = Gap::None;
    let pad = bytes.len() - a.write().unwrap().len();
    (bytes, pad)
}

/// A big-endian u32 of the chunk header at chunk offset `at`.
fn chunk_u32(b: &[u8], at: usize) -> u32 {
    let at = j3d_anim::FILE_HEADER + at;
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// A BTP whose material ids start `2 * (n - j)` bytes before the end of its `n` texture indices:
/// the material id is texture index `j`, so the bytes agree.
fn overlapping_btp(indices: &[u16], j: usize) -> Anim {
    let mut a = build::sample(Kind::Btp);
    if let Data::Pattern(p) = &mut a.tables[0].data {
        p[0].track.count = indices.len() as u16;
    }
    a.tables[1].data = Data::U16(indices.to_vec());
    a.tables[2].data = Data::U16(vec![indices[j]]);
    a.layout.order[2].gap = Gap::Overlap(2 * (indices.len() - j) as u32);
    a
}

proptest! {
    /// Cut 1..=padding bytes off a BCA's end padding (the 65 retail BCAs lack 4–28): it parses,
    /// reports J3DA-014 (info) only and writes back exactly the stored bytes.
    #[test]
    fn bca_without_its_end_padding(extra in 0usize..8, seed in any::<usize>()) {
        let (full, pad) = bca(extra);
        prop_assume!(pad > 0);
        let cut = 1 + seed % pad;
        let stored = &full[..full.len() - cut];
        let a = Anim::parse(stored).unwrap();
        prop_assert_eq!(a.layout.file_size, FileSize::Cut(cut as u32));
        prop_assert_eq!(a.layout.size, ChunkSize::ToFileEnd);
        prop_assert_eq!(a.write().unwrap(), stored);
        prop_assert_eq!(findings(stored), [("J3DA-014".to_owned(), Severity::Info)]);
        let json = j3d_anim::to_json(&a).unwrap();
        prop_assert_eq!(j3d_anim::from_json(&json).unwrap().write().unwrap(), stored);
    }

    /// Material ids that start inside the texture indices (ending with them or inside them):
    /// parse, J3DA-015 (warning) only, the same bytes back, the offsets as built.
    #[test]
    fn btp_material_ids_inside_the_texture_indices(
        indices in proptest::collection::vec(0u16..8, 1..6),
        seed in any::<usize>(),
    ) {
        let j = seed % indices.len();
        let bytes = overlapping_btp(&indices, j).write().unwrap();
        // TPT1: texture indices at 0x14, material ids at 0x18.
        prop_assert_eq!(chunk_u32(&bytes, 0x18), chunk_u32(&bytes, 0x14) + 2 * j as u32);
        let a = Anim::parse(&bytes).unwrap();
        prop_assert_eq!(&a.layout.order[2].gap, &Gap::Overlap(2 * (indices.len() - j) as u32));
        prop_assert_eq!(a.table(2), Some(&Data::U16(vec![indices[j]])));
        prop_assert_eq!(a.write().unwrap(), bytes.clone());
        prop_assert_eq!(findings(&bytes), [("J3DA-015".to_owned(), Severity::Warning)]);
    }
}

/// A cut past the end padding leaves a table without its bytes: an error naming the table, as
/// the bytes are not there to read.
#[test]
fn a_table_past_the_stored_end_is_an_error() {
    let (full, pad) = bca(1);
    let stored = &full[..full.len() - pad - 4];
    let e = Anim::parse(stored).unwrap_err();
    assert!(e.to_string().contains("translations"), "{e}");
    assert_eq!(findings(stored)[0].0, "J3DA-000");
}

/// A size word that is no cut padding (here 4 short of the file) is kept as stored: J3DA-014 as
/// a warning.
#[test]
fn another_file_size_is_kept() {
    let mut b = build::sample_bck();
    let n = (b.len() - 4) as u32;
    b[8..12].copy_from_slice(&n.to_be_bytes());
    let a = Anim::parse(&b).unwrap();
    assert_eq!(a.layout.file_size, FileSize::Stored(n));
    assert_eq!(a.write().unwrap(), b);
    assert_eq!(findings(&b), [("J3DA-014".to_owned(), Severity::Warning)]);
}

/// An edit that makes the shared bytes differ places the material ids after the other tables:
/// a valid file with no overlap.
#[test]
fn an_edited_overlap_is_written_apart() {
    let bytes = overlapping_btp(&[1, 2, 3], 2).write().unwrap();
    let mut a = Anim::parse(&bytes).unwrap();
    a.tables[2].data = Data::U16(vec![7]);
    let edited = a.write().unwrap();
    let back = Anim::parse(&edited).unwrap();
    assert_eq!(back.table(2), Some(&Data::U16(vec![7])));
    assert_eq!(back.table(1), Some(&Data::U16(vec![1, 2, 3])));
    assert!(
        !back
            .layout
            .order
            .iter()
            .any(|p| matches!(p.gap, Gap::Overlap(_)))
    );
    assert!(findings(&edited).is_empty(), "{:?}", findings(&edited));
}

/// A chunk size that ends inside the tables (the game steps to a next chunk by it, and there is
/// none): J3DA-016, the same bytes back.
#[test]
fn a_chunk_size_inside_the_tables_is_kept() {
    let mut a = build::sample(Kind::Bva);
    a.layout.size = ChunkSize::InsideData(6);
    let bytes = a.write().unwrap();
    let back = Anim::parse(&bytes).unwrap();
    assert_eq!(back.layout.size, ChunkSize::InsideData(6));
    assert_eq!(back.write().unwrap(), bytes);
    assert_eq!(
        findings(&bytes),
        [("J3DA-016".to_owned(), Severity::Warning)]
    );
}

/// A TTK1 track count of 3 per texture matrix plus 1 or 2 (the game uses count / 3): the count is
/// kept, J3DA-017; an extra of a whole entry is refused by the writer.
#[test]
fn a_track_count_beyond_whole_entries_is_kept() {
    for extra in 1..3 {
        let mut a = build::sample(Kind::Btk);
        a.layout.count_extra = extra;
        let bytes = a.write().unwrap();
        // TTK1: track count at chunk offset 0x0C.
        let at = j3d_anim::FILE_HEADER + 0x0C;
        let count = u16::from_be_bytes([bytes[at], bytes[at + 1]]);
        assert_eq!(u32::from(count), 3 * a.tables[0].data.len() as u32 + extra);
        let back = Anim::parse(&bytes).unwrap();
        assert_eq!(back.layout.count_extra, extra);
        assert_eq!(back.tables, a.tables);
        assert_eq!(back.write().unwrap(), bytes);
        assert_eq!(
            findings(&bytes),
            [("J3DA-017".to_owned(), Severity::Warning)]
        );
    }
    let mut a = build::sample(Kind::Btk);
    a.layout.count_extra = 3;
    assert!(a.write().is_err());
    let mut b = build::sample(Kind::Bck);
    b.layout.count_extra = 1;
    assert!(b.write().is_err(), "BCK counts are one per entry");
}

/// Every sample with each header word moved (a table offset, a count, the chunk count or size,
/// the file size, by -40..40 in steps of 6) and its end cut by 0 or 13 bytes: whatever parses must write
/// back the same bytes, JSON too (`fuzz_anim` asserts it), so every layout fact the parser accepts
/// is one the writer keeps. Counts which facts the sweep reached, so it cannot pass vacuously.
#[test]
fn moved_header_words_round_trip() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for schema in j3d_anim::SCHEMAS {
        let sample = build::sample(schema.kind).write().unwrap();
        // File size (8), chunk count (12), chunk size (0x24), then the chunk header's words.
        let words = [8, 12, 0x24]
            .into_iter()
            .chain((0x28..0x20 + schema.header).step_by(2));
        for at in words {
            for delta in (-40i64..40).step_by(6) {
                for cut in [0, 13] {
                    let mut b = sample.clone();
                    let v = i64::from(u32::from_be_bytes(b[at..at + 4].try_into().unwrap()));
                    b[at..at + 4].copy_from_slice(&((v + delta).max(0) as u32).to_be_bytes());
                    b.truncate(b.len() - cut);
                    let Ok(a) = Anim::parse(&b) else {
                        *seen.entry("error").or_default() += 1;
                        continue;
                    };
                    j3d_anim::fuzz_anim(&b);
                    let l = &a.layout;
                    let facts = [
                        ("cut", matches!(l.file_size, FileSize::Cut(_))),
                        ("stored size", matches!(l.file_size, FileSize::Stored(_))),
                        ("chunk inside", matches!(l.size, ChunkSize::InsideData(_))),
                        ("chunk after", matches!(l.size, ChunkSize::AfterData(_))),
                        ("count extra", l.count_extra > 0),
                        ("chunk count", l.chunk_count.is_some()),
                        (
                            "overlap",
                            l.order.iter().any(|p| matches!(p.gap, Gap::Overlap(_))),
                        ),
                    ];
                    for (name, _) in facts.iter().filter(|f| f.1) {
                        *seen.entry(name).or_default() += 1;
                    }
                }
            }
        }
    }
    for fact in [
        "cut",
        "stored size",
        "chunk inside",
        "chunk after",
        "count extra",
        "chunk count",
        "overlap",
        "error",
    ] {
        assert!(seen.get(fact).is_some_and(|&n| n > 0), "{fact}: {seen:?}");
    }
}

/// A BTP whose one material name lies 4 bytes after the entries, behind bytes of no string.
fn btp_with_unpacked_names() -> Anim {
    let mut a = build::sample(Kind::Btp);
    if let Data::Names(n) = &mut a.tables[3].data {
        n.strings = Some(Strings {
            offsets: vec![8 + 4],
            bytes: b"xyz\0mat\0".to_vec(),
        });
    }
    a
}

/// Name strings the game reads through their offsets but no tool packs that way are kept as
/// stored (J3DA-018, info); renaming the entry packs the table again.
#[test]
fn unpacked_name_strings_are_kept() {
    let bytes = btp_with_unpacked_names().write().unwrap();
    let a = Anim::parse(&bytes).unwrap();
    let Some(Data::Names(n)) = a.table(3) else {
        panic!("names")
    };
    assert_eq!(n.entries[0].name, b"mat");
    assert_eq!(
        n.strings.as_ref().map(|s| s.offsets.clone()),
        Some(vec![12])
    );
    assert_eq!(a.write().unwrap(), bytes);
    assert_eq!(findings(&bytes), [("J3DA-018".to_owned(), Severity::Info)]);
    let mut renamed = a.clone();
    if let Some(Data::Names(n)) = renamed.tables.get_mut(3).map(|t| &mut t.data) {
        n.entries[0].name = b"lava".to_vec();
        n.entries[0].key = j3d_bmd::name_hash(b"lava");
    }
    let packed = renamed.write().unwrap();
    let back = Anim::parse(&packed).unwrap();
    let Some(Data::Names(m)) = back.table(3) else {
        panic!("names")
    };
    assert_eq!(
        (m.entries[0].name.as_slice(), m.strings.is_none()),
        (&b"lava"[..], true)
    );
    assert!(findings(&packed).is_empty(), "{:?}", findings(&packed));
}

/// Every sample name string offset moved by -8..=8: whatever parses (strings kept as stored or
/// packed) writes back the same bytes (`fuzz_anim`); some variants keep their strings as stored.
#[test]
fn moved_name_offsets_round_trip() {
    let mut kept = 0;
    for schema in j3d_anim::SCHEMAS {
        let sample = build::sample(schema.kind).write().unwrap();
        let view = j3d_anim::parse(&sample).unwrap();
        for (ti, def) in schema.tables.iter().enumerate() {
            let (Some(span), j3d_anim::schema::Elem::Names) = (view.span(ti), def.elem) else {
                continue;
            };
            for entry in 0..span.len {
                let at = j3d_anim::FILE_HEADER + span.offset + 6 + 4 * entry;
                let off = u16::from_be_bytes([sample[at], sample[at + 1]]);
                for delta in -8i32..=8 {
                    let mut b = sample.clone();
                    let moved = (i32::from(off) + delta).max(0) as u16;
                    b[at..at + 2].copy_from_slice(&moved.to_be_bytes());
                    j3d_anim::fuzz_anim(&b);
                    if let Ok(a) = Anim::parse(&b)
                        && matches!(a.table(ti), Some(Data::Names(n)) if n.strings.is_some())
                    {
                        kept += 1;
                    }
                }
            }
        }
    }
    assert!(kept > 10, "{kept}");
}

/// A chunk count other than 1 (0: the game animates nothing; 2: it reads past the chunk) is kept:
/// J3DA-019, the same bytes back.
#[test]
fn another_chunk_count_is_kept() {
    for n in [0u8, 2, 7] {
        let mut b = build::sample_bck();
        b[15] = n;
        let a = Anim::parse(&b).unwrap();
        assert_eq!(a.layout.chunk_count, Some(u32::from(n)));
        assert_eq!(a.write().unwrap(), b);
        assert_eq!(findings(&b), [("J3DA-019".to_owned(), Severity::Warning)]);
    }
}

/// A size word far past the stored file is no cut padding: it is kept as stored (J3DA-014
/// warning), and reading it allocates nothing sized by it (it once built the "missing" padding,
/// up to 4 GiB).
#[test]
fn size_word_far_past_the_file_is_not_materialised() {
    let mut bytes = j3d_anim::build::sample_bck();
    bytes[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
    let tight = gcio::Limits {
        max_alloc_bytes: 1 << 20,
        ..gcio::Limits::default()
    };
    let anim = j3d_anim::Anim::parse_with(&bytes, &tight).unwrap();
    assert_eq!(anim.write().unwrap(), bytes);
    assert_eq!(anim.layout.file_size, j3d_anim::FileSize::Stored(u32::MAX));
}
