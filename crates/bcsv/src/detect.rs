//! Recognising a BCSV without a magic number: the header arithmetic must hold exactly, so files of
//! other formats are not claimed. The file extension only breaks ties (see [`Confidence`]).

use crate::types::FieldType;
use crate::view::parse;

/// How sure [`sniff`] is: [`Confidence::Weak`] when structurally readable but loose (no fields,
/// odd data offset, odd entry size or length), so claimed only when the file name says BCSV;
/// [`Confidence::Strong`] when every check holds (data offset = 0x10 + 12 × fields, at least one
/// field, entry size a multiple of 4 covering the fields, length a multiple of 16, the first
/// rows' strings resolve).
pub use gcio::Confidence;

/// File extensions BCSV tables use (`.bcam` camera tables, `.tbl` name tables, `.banmt`, `.pa`).
pub const EXTENSIONS: [&str; 5] = ["bcsv", "bcam", "tbl", "banmt", "pa"];

/// Rows whose cells `sniff` reads (bounded work on large files).
const SNIFF_ROWS: usize = 64;

/// Judges whether `data` is a BCSV table.
pub fn sniff(data: &[u8]) -> Option<Confidence> {
    let view = parse(data).ok()?;
    let readable = view
        .rows()
        .take(SNIFF_ROWS)
        .all(|row| view.fields().all(|f| row.cell(&f).is_ok()));
    if !readable {
        return None;
    }
    let h = view.header();
    let strong = h.fields > 0
        && u64::from(h.data_offset) == h.field_table_end()
        && h.entry_size.is_multiple_of(4)
        && h.entry_size <= 0x1_0000
        && data.len().is_multiple_of(16)
        && view
            .fields()
            .all(|f| f.kind != FieldType::STRING || f.mask == 0 || f.mask == u32::MAX)
        && view.fields().any(|f| f.kind != FieldType::STRING);
    Some(if strong {
        Confidence::Strong
    } else {
        Confidence::Weak
    })
}

/// Judges whether `data` is a BCSV table (the workspace's name for [`sniff`]).
pub fn detect(data: &[u8]) -> Option<Confidence> {
    sniff(data)
}

/// True when `path` ends in a BCSV extension.
pub fn has_bcsv_extension(path: &str) -> bool {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    ext.is_some_and(|e| EXTENSIONS.contains(&e.as_str()))
}
