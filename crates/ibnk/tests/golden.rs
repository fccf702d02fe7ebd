#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The golden table drives reading (bytes → model, view) and writing (model → bytes).

use ibnk::golden;

#[test]
fn golden_rows_read() {
    for row in golden::table() {
        let bank = ibnk::Bank::parse(&row.bytes).unwrap_or_else(|e| panic!("{}: {e}", row.name));
        assert_eq!(bank, row.bank, "{}", row.name);
        let v = ibnk::parse(&row.bytes).unwrap();
        assert_eq!(
            (v.id(), v.version()),
            (row.bank.id, row.bank.version()),
            "{}",
            row.name
        );
    }
}

#[test]
fn golden_rows_write() {
    for row in golden::table() {
        let out = row.bank.write().unwrap();
        assert_eq!(
            gcio::first_difference(&out, &row.bytes),
            None,
            "{}: written bytes differ",
            row.name
        );
    }
}

#[test]
fn golden_rows_validate_clean() {
    for row in golden::table() {
        let found = ibnk::validate(&row.bytes);
        // Rows without ENVT/OSCT only get the IBNK-008 warning the game's unconditional reads earn.
        let expected = match row.bank.body {
            ibnk::Body::V1(ref b) if b.chunk(b"OSCT").is_none() => 2,
            _ => 0,
        };
        assert_eq!(found.len(), expected, "{}: {found:?}", row.name);
        assert!(found.iter().all(|d| d.rule == "IBNK-008"), "{}", row.name);
    }
}

#[test]
fn golden_views_see_objects() {
    let rows = golden::table();
    let v = ibnk::parse(&rows[1].bytes).unwrap();
    let ids: Vec<[u8; 4]> = v.chunks().map(|c| c.unwrap().id).collect();
    assert_eq!(ids, [*b"ENVT", *b"OSCT", *b"INST", *b"LIST"]);
    assert_eq!(v.program_offset(0).unwrap(), Some(0x68));
    assert_eq!(v.program_offset(1).unwrap(), None);
    let inst = ibnk::view::InstView::at(v.reader(), 0x68).unwrap();
    assert_eq!(inst.size, 0x34);
    let keys: Vec<_> = inst.keys().map(|k| k.unwrap()).collect();
    assert_eq!(keys[0].word >> 24, 0x7F);
    assert_eq!(keys[0].velocities[0].wave.get(), 0x11);
    let env = ibnk::view::envelope_at(v.chunk(b"ENVT").unwrap().unwrap().data, 0).unwrap();
    assert_eq!(env.len(), 2);

    let v0 = ibnk::parse(&rows[3].bytes).unwrap();
    assert_eq!(v0.program_offset(0).unwrap(), Some(0x3E4));
    assert_eq!(v0.chunks().count(), 0);
    let i = ibnk::view::Inst0View::at(v0.reader(), 0x3E4).unwrap();
    assert_eq!(i.keys[0].get(), 0x414);
}
