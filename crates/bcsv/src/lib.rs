//! BCSV / JMap tables of Super Mario Galaxy 1/2 (and the older Sunshine / Luigi's Mansion hash):
//! a zero-copy [`View`] with typed getters that decode packed fields exactly as the game, an owned
//! [`Table`] that writes every parsed file back byte for byte, a validator citing `BCSV-*` and
//! `TBL-*` rules, table schemas from the project's seed, and lossless CSV / JSON conversion.
//!
//! ```
//! use bcsv::{FieldType, Table, Value};
//!
//! let mut t = Table::new(&[("name", FieldType::STRING_OFFSET), ("l_id", FieldType::LONG)]);
//! let r = t.push_default_row();
//! t.set(r, "name", Value::StringOffset(b"Kuribo".into())).unwrap();
//! t.set(r, "l_id", Value::Long(-3)).unwrap();
//! let bytes = t.write().unwrap();
//!
//! let view = bcsv::parse(&bytes).unwrap();
//! let row = view.row(0).unwrap();
//! assert_eq!(row.get_i32("l_id").unwrap(), -3);
//! assert_eq!(row.get_str("name").unwrap(), "Kuribo");
//! let table = Table::parse(&bytes).unwrap();
//! assert_eq!(table.row(0).unwrap()[1], Value::Long(-3));
//! assert_eq!(table.write().unwrap(), bytes);
//!
//! let csv = bcsv::to_csv(&Table::parse(&bytes).unwrap());
//! assert_eq!(csv, "name:STRING_OFFSET,l_id:LONG\nKuribo,-3\n");
//! assert_eq!(bcsv::from_csv(&csv).unwrap().write().unwrap(), bytes);
//! ```
#![forbid(unsafe_code)]

#[cfg(any(test, feature = "test-support"))]
pub mod build;
mod cellstr;
mod convert;
mod csv;
mod detect;
mod fasthash;
mod format;
mod fuzz;
#[cfg(any(test, feature = "test-support"))]
pub mod golden;
mod hash;
#[cfg(feature = "json")]
mod json;
mod model;
pub mod names;
pub mod schema;
mod slot;
mod types;
mod validate;
mod view;
mod write;

pub use cellstr::Str;
pub use convert::{int_value as cell_int, value_text as cell_text};
pub use csv::{from_csv, to_csv};
pub use detect::{Confidence, EXTENSIONS, detect, has_bcsv_extension, sniff};
pub use format::Format;
pub use fuzz::fuzz_bcsv;
#[cfg(feature = "test-support")]
pub use fuzz::fuzz_bcsv_csv;
#[cfg(all(feature = "json", feature = "test-support"))]
pub use fuzz::fuzz_bcsv_json;
pub use gcio::text::Encoding;
pub use hash::{FieldKey, jgadget_hash, old_hash, parse_name};
#[cfg(feature = "json")]
pub use json::{from_json, to_json};
pub use model::{Table, Tail, Value};
pub use names::display_name;
pub use types::{Field, FieldType, auto_layout};
pub use validate::{validate, validate_model, validate_with};
pub use view::{
    Cell, FIELD_SIZE, FromCell, HEADER_SIZE, Header, Numbers, PoolStrings, RowView, Strings, View,
    parse, parse_endian, parse_with,
};
