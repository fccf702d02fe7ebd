#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! One broken variant per rule: for every rule id the validator emits (container `BCSV-*` and the
//! schema rules `TBL-*` of `data/schemas.txt`), the smallest table that triggers it. Each case
//! names the finding (severity and id) it must give, and no other rule may report an error. The
//! workspace test `tests/rules_catalogue.rs` checks that every id `src/` and `data/` emit has a
//! row here.

use bcsv::{FieldType, Table, Tail, Value};
use gcio::Severity::{Error, Info, Warning};
use gcio::{RuleCase, check_rule_cases};

const LONG: FieldType = FieldType::LONG;
const FLOAT: FieldType = FieldType::FLOAT;
const STR: FieldType = FieldType::STRING_OFFSET;

fn s(v: &str) -> Value {
    Value::StringOffset(v.into())
}

/// A table with `cols`, one row per entry of `rows`: zero values except the cells named.
fn table(cols: &[(&str, FieldType)], rows: &[&[(&str, Value)]]) -> Table {
    let mut t = Table::new(cols);
    for cells in rows {
        let r = t.push_default_row();
        for (name, v) in *cells {
            t.set(r, *name, v.clone()).unwrap();
        }
    }
    t
}

fn bytes(t: &Table) -> Vec<u8> {
    t.write().unwrap()
}

/// `SoundId` (LONG), `Volume` (LONG), `Name` (STRING_OFFSET): one row 1, 2, "a" (clean).
fn base() -> Table {
    table(
        &[("SoundId", LONG), ("Volume", LONG), ("Name", STR)],
        &[&[("SoundId", Value::Long(1)), ("Name", s("a"))]],
    )
}

fn edit(f: impl FnOnce(&mut Table)) -> Vec<u8> {
    let mut t = base();
    f(&mut t);
    bytes(&t)
}

fn poke(at: usize, v: u32) -> Vec<u8> {
    let mut b = bytes(&base());
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
    b
}

/// A table of `cols` with one row: zero values except `cells`.
fn one_row(cols: &[(&str, FieldType)], cells: &[(&str, Value)]) -> Vec<u8> {
    bytes(&table(cols, &[cells]))
}

const CAMERA: &[(&str, FieldType)] = &[
    ("version", LONG),
    ("camtype", STR),
    ("id", STR),
    ("fovy", FLOAT),
    ("evpriority", LONG),
];

fn camera(cells: &[(&str, Value)]) -> Vec<(&'static str, Value)> {
    let mut row = vec![
        ("version", Value::Long(196631)),
        ("camtype", s("CAM_TYPE_XZ_PARA")),
        ("id", s("c:0000")),
        ("fovy", Value::Float(45.0)),
        ("evpriority", Value::Long(1)),
    ];
    for (name, v) in cells {
        row.iter_mut().find(|(n, _)| n == name).unwrap().1 = v.clone();
    }
    row
}

fn camera_table(rows: &[&[(&str, Value)]]) -> Vec<u8> {
    let rows: Vec<Vec<(&str, Value)>> = rows.iter().map(|r| camera(r)).collect();
    let refs: Vec<&[(&str, Value)]> = rows.iter().map(Vec::as_slice).collect();
    bytes(&table(CAMERA, &refs))
}

const SHADOW: &[&str] = &[
    "Name",
    "GroupName",
    "Joint",
    "DropStart",
    "DropLength",
    "FollowScale",
    "SyncShow",
    "Gravity",
    "Collision",
    "DropOffsetX",
    "DropOffsetY",
    "DropOffsetZ",
    "VolumeStart",
    "VolumeEnd",
    "VolumeCut",
    "Type",
    "SizeX",
    "SizeY",
    "SizeZ",
    "Radius",
    "LineStart",
    "LineEnd",
    "LineStartRadius",
    "LineEndRadius",
    "Model",
    "LocalRotateX",
    "LocalRotateY",
    "LocalRotateZ",
];

/// A Shadow table (28 columns: the schema's string, int and float columns) with one row.
fn shadow(cells: &[(&str, Value)]) -> Vec<u8> {
    let ints = [
        "FollowScale",
        "SyncShow",
        "Gravity",
        "Collision",
        "VolumeCut",
    ];
    let strs = [
        "Name",
        "GroupName",
        "Joint",
        "Type",
        "LineStart",
        "LineEnd",
        "Model",
    ];
    let cols: Vec<(&str, FieldType)> = SHADOW
        .iter()
        .map(|&n| {
            let t = if ints.contains(&n) {
                LONG
            } else if strs.contains(&n) {
                STR
            } else {
                FLOAT
            };
            (n, t)
        })
        .collect();
    let mut row = vec![("Type", s("VolumeSphere"))];
    row.extend(cells.iter().cloned());
    one_row(&cols, &row)
}

const CASES: &[RuleCase<'_, Vec<u8>>] = &[
    (
        "four bytes between the field table and the rows",
        || edit(|t| t.header_gap = vec![0; 4]),
        Warning,
        "BCSV-001",
    ),
    (
        "data offset inside the field table",
        || poke(8, 0x10),
        Error,
        "BCSV-001",
    ),
    (
        "rows cut off",
        || bytes(&base())[..0x10 + 3 * 12 + 4].to_vec(),
        Error,
        "BCSV-002",
    ),
    (
        "entry size 13",
        || edit(|t| t.entry_size = 13),
        Warning,
        "BCSV-003",
    ),
    (
        "field past the entry size",
        || poke(12, 8),
        Error,
        "BCSV-003",
    ),
    (
        "field type 7",
        || {
            let mut b = bytes(&base());
            b[0x10 + 11] = 7;
            b
        },
        Error,
        "BCSV-004",
    ),
    (
        "BgmParam Volume is a float",
        || {
            one_row(
                &[("SoundIdName", STR), ("Volume", FLOAT)],
                &[("SoundIdName", s("BGM_A"))],
            )
        },
        Warning,
        "BCSV-004",
    ),
    (
        "string offset past the pool",
        || {
            let mut b = bytes(&base());
            let name = 0x10 + 3 * 12 + 8; // Name sits after the two LONGs
            b[name..name + 4].copy_from_slice(&0x100u32.to_be_bytes());
            b
        },
        Error,
        "BCSV-005",
    ),
    (
        "string with a lone Shift-JIS lead byte",
        || edit(|t| t.row_mut(0).unwrap()[2] = Value::StringOffset((&[0x81]).into())),
        Warning,
        "BCSV-005",
    ),
    (
        "pool starting with an unused string",
        || edit(|t| t.stored_pool = Some(b"zz\0".to_vec())),
        Info,
        "BCSV-006",
    ),
    (
        "zero padding instead of @",
        || edit(|t| t.tail = Tail::Raw(vec![0; 2])),
        Warning,
        "BCSV-007",
    ),
    (
        "Volume shares SoundId's word",
        || edit(|t| t.fields[1].offset = t.fields[0].offset),
        Warning,
        "BCSV-008",
    ),
    (
        "a field name no list knows",
        || one_row(&[("NoSuchFieldNameZz", LONG)], &[]),
        Info,
        "BCSV-010",
    ),
    (
        "inline string with mask 1",
        || {
            let mut t = table(&[("Name", FieldType::STRING)], &[&[]]);
            t.fields[0].mask = 1;
            bytes(&t)
        },
        Info,
        "BCSV-013",
    ),
    (
        "SoundIdToInstList rows descending",
        || {
            bytes(&table(
                &[
                    ("SoundId", LONG),
                    ("BankProgNoName", STR),
                    ("BankProgNo", FieldType::SHORT),
                ],
                &[
                    &[("SoundId", Value::Long(5))],
                    &[("SoundId", Value::Long(3))],
                ],
            ))
        },
        Error,
        "TBL-001",
    ),
    (
        "BgmParam Volume 129",
        || {
            one_row(
                &[("SoundIdName", STR), ("Volume", LONG)],
                &[("Volume", Value::Long(129))],
            )
        },
        Error,
        "TBL-003",
    ),
    (
        "two cameras c:0000",
        || camera_table(&[&[], &[]]),
        Warning,
        "TBL-008",
    ),
    (
        "camera id c:000F (upper-case hex)",
        || camera_table(&[&[("id", s("c:000F"))]]),
        Error,
        "TBL-009",
    ),
    (
        "camera version 1",
        || camera_table(&[&[("version", Value::Long(1))]]),
        Warning,
        "TBL-010",
    ),
    (
        "evpriority 2",
        || camera_table(&[&[("evpriority", Value::Long(2))]]),
        Warning,
        "TBL-013",
    ),
    (
        "fovy 0",
        || camera_table(&[&[("fovy", Value::Float(0.0))]]),
        Warning,
        "TBL-014",
    ),
    (
        "DemoAction ActionType 21",
        || {
            one_row(
                &[
                    ("PartName", STR),
                    ("CastName", STR),
                    ("CastID", LONG),
                    ("ActionType", LONG),
                    ("PosName", STR),
                    ("AnimName", STR),
                ],
                &[("ActionType", Value::Long(21))],
            )
        },
        Warning,
        "TBL-018",
    ),
    (
        "DemoWipe WipeName empty",
        || {
            one_row(
                &[
                    ("PartName", STR),
                    ("WipeName", STR),
                    ("WipeType", LONG),
                    ("WipeFrame", LONG),
                ],
                &[],
            )
        },
        Error,
        "TBL-019",
    ),
    (
        "DemoSound BgmWipeoutFrame -2",
        || {
            one_row(
                &[
                    ("PartName", STR),
                    ("Bgm", STR),
                    ("SystemSe", STR),
                    ("ActionSe", STR),
                    ("ReturnBgm", LONG),
                    ("BgmWipeoutFrame", LONG),
                    ("AllSoundStopFrame", LONG),
                ],
                &[("BgmWipeoutFrame", Value::Long(-2))],
            )
        },
        Warning,
        "TBL-021",
    ),
    (
        "InitSwitch Usage Bogus",
        || {
            one_row(
                &[("SwitchName", STR), ("Usage", STR)],
                &[("SwitchName", s("SW_PARAM")), ("Usage", s("Bogus"))],
            )
        },
        Error,
        "TBL-023",
    ),
    (
        "SW_APPEAR written",
        || {
            one_row(
                &[("SwitchName", STR), ("Usage", STR)],
                &[("SwitchName", s("SW_APPEAR")), ("Usage", s("UseWrite"))],
            )
        },
        Error,
        "TBL-024",
    ),
    (
        "InitActor function Bogus",
        || {
            one_row(
                &[
                    ("InitFunction", STR),
                    ("Data", STR),
                    ("Param00Int", LONG),
                    ("Param00F32", FLOAT),
                    ("Param01F32", FLOAT),
                    ("Param00Str", STR),
                    ("Param00VecX", FLOAT),
                    ("Param00VecY", FLOAT),
                    ("Param00VecZ", FLOAT),
                ],
                &[("InitFunction", s("Bogus"))],
            )
        },
        Warning,
        "TBL-025",
    ),
    (
        "ItemGenerator item Coinx2",
        || {
            one_row(
                &[
                    ("ActionName", STR),
                    ("ItemInfoName", STR),
                    ("JointName", STR),
                    ("Count", LONG),
                ],
                &[("ItemInfoName", s("Coinx2"))],
            )
        },
        Warning,
        "TBL-026",
    ),
    (
        "Shadow type VolumeCube",
        || shadow(&[("Type", s("VolumeCube"))]),
        Warning,
        "TBL-027",
    ),
    (
        "Shadow SyncShow 2",
        || shadow(&[("SyncShow", Value::Long(2))]),
        Warning,
        "TBL-027",
    ),
    (
        "ProductMapObjDataTable class Bogus",
        || {
            one_row(
                &[("ModelName", STR), ("ClassName", STR)],
                &[("ClassName", s("Bogus"))],
            )
        },
        Warning,
        "TBL-028",
    ),
];

#[test]
fn the_base_tables_are_clean() {
    let found = bcsv::validate(&bytes(&base()));
    assert!(found.is_empty(), "{found:#?}");
    let found = bcsv::validate(&camera_table(&[&[]]));
    assert!(found.is_empty(), "{found:#?}");
    let found = bcsv::validate(&shadow(&[]));
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn every_rule_has_a_broken_variant() {
    if let Err(e) = check_rule_cases(CASES, |b| bcsv::validate(b)) {
        panic!("{e}");
    }
}
