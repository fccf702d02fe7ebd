//! CSV written by pyjmap (Nintendo's leftover `Name:Type:Default` header syntax) reads back: types
//! by their CSV names, empty cells take the column default, the layout is the auto layout.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use bcsv::{FieldType, Table, Value, from_csv};

#[test]
fn pyjmap_csv() {
    let csv = "name:String:0,l_id:Int:0,pos_x:Float:0.0,ObjName:EmbeddedString:0,Obj_arg0:UnsignedInt:0,SW_A:Short:7,ShapeModelNo:Char:0\n\
               Kuribo,1,-0.0,a,1,1,1\n\
               ,,,,,,\n";
    let t = from_csv(csv).unwrap();
    let kinds: Vec<FieldType> = t.fields.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [6, 0, 2, 1, 3, 4, 5].map(FieldType));
    let offsets: Vec<u16> = t.fields.iter().map(|f| f.offset).collect();
    assert_eq!(offsets, [47, 36, 32, 0, 40, 44, 46]);
    assert_eq!(t.entry_size, 52);
    assert_eq!(
        t.get(0, "name"),
        Some(&Value::StringOffset(b"Kuribo".into()))
    );
    assert_eq!(
        t.get(1, "SW_A"),
        Some(&Value::Short(7)),
        "empty cell takes the default"
    );
    assert_eq!(
        t.get(1, "name"),
        Some(&Value::StringOffset(bcsv::Str::EMPTY))
    );
    let bytes = t.write().unwrap();
    assert_eq!(Table::parse(&bytes).unwrap().write().unwrap(), bytes);
}

#[test]
fn bad_csv_is_an_error_with_a_line() {
    for (csv, want) in [
        ("", "no header"),
        ("a:LONG\n1,2\n", "line 2"),
        ("a:NOPE\n", "unknown type"),
        ("a:LONG\nx\n", "not an integer"),
        ("a:SHORT\n70000\n", "does not fit"),
        ("a:STRING\n\"unterminated\n", "unterminated"),
        (
            "a:STRING\n0123456789012345678901234567890123\n",
            "exceeds 32",
        ),
        ("#bcsv endian=middle\na:LONG\n", "endian"),
    ] {
        let e = from_csv(csv).unwrap_err().to_string();
        assert!(e.contains(want), "{csv:?}: {e}");
    }
}
