//! `.pa` attribute tables: the JMap (BCSV) table beside a Galaxy `.kcl`, one row per attribute
//! value a prism can carry. Its columns are bit fields of one word; `bcsv` already reads the table
//! and names the fields (`camera_id`, `Sound_code`, `Floor_code`, `Wall_code`, `Camera_through`).

use gcio::{Error, ErrorKind, Result};

/// One decoded row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Attribute {
    /// Collision camera id (0xFF: none).
    pub camera_id: i64,
    /// Sound code (footstep and impact sound).
    pub sound_code: i64,
    /// Floor code (ground behaviour: normal, slippery, damage, death …).
    pub floor_code: i64,
    /// Wall code (wall behaviour).
    pub wall_code: i64,
    /// Whether the camera passes through.
    pub camera_through: i64,
}

/// The field names a Galaxy `.pa` table carries, in column order.
pub const FIELDS: [&str; 5] = [
    "camera_id",
    "Sound_code",
    "Floor_code",
    "Wall_code",
    "Camera_through",
];

/// Reads a `.pa` table into one [`Attribute`] per row; fails when the table lacks a named field.
pub fn read(data: &[u8]) -> Result<Vec<Attribute>> {
    let table = bcsv::Table::parse(data)?;
    let col = |name: &str| -> Result<usize> {
        let hash = bcsv::jgadget_hash(name.as_bytes());
        table
            .fields
            .iter()
            .position(|f| f.hash == hash)
            .ok_or_else(|| {
                Error::without_offset(ErrorKind::Invalid(format!("PA table has no field {name}")))
            })
    };
    let cols = FIELDS.map(col);
    let [a, b, c, d, e] = cols;
    let cols = [a?, b?, c?, d?, e?];
    let mut out = Vec::new();
    for row in table.rows() {
        let v = cols.map(|c| row.get(c).and_then(bcsv_int).unwrap_or(0));
        out.push(Attribute {
            camera_id: v[0],
            sound_code: v[1],
            floor_code: v[2],
            wall_code: v[3],
            camera_through: v[4],
        });
    }
    Ok(out)
}

fn bcsv_int(v: &bcsv::Value) -> Option<i64> {
    match *v {
        bcsv::Value::Long(x) => Some(i64::from(x)),
        bcsv::Value::Long2(x) => Some(i64::from(x)),
        bcsv::Value::Short(x) => Some(i64::from(x)),
        bcsv::Value::Char(x) => Some(i64::from(x)),
        _ => None,
    }
}
