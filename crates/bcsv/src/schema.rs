//! Table schemas from the project's seed, kept as data (`data/schemas.txt`): which columns a known
//! table has, their types, allowed values and the table rules (`TBL-*`, docs/rules/bcsv.md). The validator applies the
//! schema that recognises a table.

use std::collections::HashSet;
use std::sync::OnceLock;

use gcio::{Diagnostic, Severity};

use crate::convert::{float_text, int_text};
use crate::hash::jgadget_hash;
use crate::model::{Table, Value};
use crate::types::{Field, FieldType};
use crate::view::{FIELD_SIZE, HEADER_SIZE};

const SCHEMAS: &str = include_str!("../data/schemas.txt");

/// The types a schema column accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeClass {
    /// Exactly this JMap type.
    Exact(FieldType),
    /// Schema type `string`: STRING or STRING_OFFSET (C-16).
    String,
    /// Schema type `int`: LONG, LONG_2, SHORT or CHAR.
    Int,
    /// Schema type `float`: FLOAT.
    Float,
}

impl TypeClass {
    fn parse(s: &str) -> Option<TypeClass> {
        Some(match s {
            "string" => TypeClass::String,
            "int" => TypeClass::Int,
            "float" => TypeClass::Float,
            other => TypeClass::Exact(FieldType::from_name(other)?),
        })
    }

    /// True when a field of type `t` fits.
    pub fn accepts(self, t: FieldType) -> bool {
        match self {
            TypeClass::Exact(e) => e == t,
            TypeClass::String => matches!(t, FieldType::STRING | FieldType::STRING_OFFSET),
            TypeClass::Int => matches!(
                t,
                FieldType::LONG | FieldType::LONG_2 | FieldType::SHORT | FieldType::CHAR
            ),
            TypeClass::Float => t == FieldType::FLOAT,
        }
    }
}

/// One column of a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// Field name.
    pub name: String,
    /// Accepted types.
    pub kind: TypeClass,
    /// Required for recognition (false: may be absent, as CameraParam's optional fields).
    pub required: bool,
}

/// What a rule checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// The value is one of these.
    OneOf(Vec<String>),
    /// In rows where `field` equals `value`, the value is one of `allowed`.
    When {
        /// The condition column.
        field: String,
        /// The condition value.
        value: String,
        /// Allowed values of the rule's column.
        allowed: Vec<String>,
    },
    /// Numeric bounds (`min_exclusive` makes the lower bound strict).
    Range {
        /// Lower bound.
        min: Option<f64>,
        /// Whether `min` itself is excluded.
        min_exclusive: bool,
        /// Upper bound (inclusive).
        max: Option<f64>,
    },
    /// Rows ascend by this column.
    Sorted,
    /// No two rows share a value.
    Unique,
    /// CameraParam ID syntax (TBL-009).
    CameraId,
}

/// One rule of a schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The column it applies to.
    pub field: String,
    /// Rule id (catalogued in `docs/rules/bcsv.md`).
    pub id: String,
    /// Severity of a finding.
    pub severity: Severity,
    /// What is checked.
    pub check: Check,
}

/// A known table.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    /// Table name (file name without extension).
    pub name: String,
    /// Columns.
    pub columns: Vec<Column>,
    /// Rules.
    pub rules: Vec<Rule>,
}

fn values(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .map(|w| {
            if *w == "\"\"" {
                String::new()
            } else {
                (*w).to_owned()
            }
        })
        .collect()
}

fn parse_schemas(text: &str) -> Vec<Schema> {
    let mut out: Vec<Schema> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (Some(&verb), Some(&arg)) = (w.first(), w.get(1)) else {
            continue;
        };
        if verb == "schema" {
            out.push(Schema {
                name: arg.to_owned(),
                columns: Vec::new(),
                rules: Vec::new(),
            });
            continue;
        }
        let Some(s) = out.last_mut() else { continue };
        let rest = w.get(2..).unwrap_or_default();
        let sev = |i: usize| match rest.get(i) {
            Some(&"error") => Severity::Error,
            _ => Severity::Warning,
        };
        let rule = |field: &str, id: &str, severity, check| Rule {
            field: field.to_owned(),
            id: id.to_owned(),
            severity,
            check,
        };
        let id = rest.first().copied().unwrap_or("");
        match verb {
            "field" | "optional" => {
                if let Some(kind) = rest.first().and_then(|t| TypeClass::parse(t)) {
                    s.columns.push(Column {
                        name: arg.to_owned(),
                        kind,
                        required: verb == "field",
                    });
                }
            }
            "oneof" => s.rules.push(rule(
                arg,
                id,
                sev(1),
                Check::OneOf(values(rest.get(2..).unwrap_or_default())),
            )),
            "when" => {
                let (field, value) = arg.split_once('=').unwrap_or((arg, ""));
                let target = id;
                let id = rest.get(1).copied().unwrap_or("");
                s.rules.push(rule(
                    target,
                    id,
                    sev(2),
                    Check::When {
                        field: field.to_owned(),
                        value: value.to_owned(),
                        allowed: values(rest.get(3..).unwrap_or_default()),
                    },
                ));
            }
            "range" => {
                let bound = |i: usize| {
                    rest.get(i)
                        .and_then(|b| b.trim_start_matches('>').parse::<f64>().ok())
                };
                s.rules.push(rule(
                    arg,
                    id,
                    sev(1),
                    Check::Range {
                        min: bound(2),
                        min_exclusive: rest.get(2).is_some_and(|b| b.starts_with('>')),
                        max: bound(3),
                    },
                ));
            }
            "sorted" => s.rules.push(rule(arg, id, sev(1), Check::Sorted)),
            "unique" => s.rules.push(rule(arg, id, sev(1), Check::Unique)),
            "camera_id" => s.rules.push(rule(arg, id, sev(1), Check::CameraId)),
            _ => {}
        }
    }
    out
}

/// Every known table schema (`data/schemas.txt`).
pub fn all() -> &'static [Schema] {
    static ALL: OnceLock<Vec<Schema>> = OnceLock::new();
    ALL.get_or_init(|| parse_schemas(SCHEMAS))
}

/// The schema whose required columns are all present (the one with the most columns wins).
pub fn recognise(table: &Table) -> Option<&'static Schema> {
    let hashes: HashSet<u32> = table.fields.iter().map(|f| f.hash).collect();
    all()
        .iter()
        .filter(|s| {
            s.columns
                .iter()
                .filter(|c| c.required)
                .all(|c| hashes.contains(&jgadget_hash(c.name.as_bytes())))
        })
        .max_by_key(|s| s.columns.iter().filter(|c| c.required).count())
}

/// A cell as comparable text (strings decoded losslessly, integers as the game reads them).
fn text(table: &Table, f: &Field, v: &Value) -> String {
    match v {
        Value::Float(x) => float_text(*x),
        Value::StringOffset(s) => table.encoding.to_text(s),
        Value::InlineString(b) => {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            table.encoding.to_text(b.get(..end).unwrap_or_default())
        }
        v => int_text(f, v.bits().unwrap_or(0)),
    }
}

fn number(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// CameraParam IDs: `c:xxxx`, `s:xxxx` (lowercase hex), `g:<name>`, `o:<name>`, `e:<name>...`.
fn camera_id_ok(id: &str) -> bool {
    let hex4 = |s: &str| {
        s.len() == 4
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    match id.split_once(':') {
        Some(("c" | "s", rest)) => hex4(rest),
        Some(("g" | "o" | "e", rest)) => !rest.is_empty(),
        _ => false,
    }
}

/// Applies the recognised schema's column types and rules.
pub fn check(table: &Table) -> Vec<Diagnostic> {
    let Some(schema) = recognise(table) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let index = |name: &str| table.field_index(name);
    let data_offset =
        (HEADER_SIZE + table.fields.len() * FIELD_SIZE + table.header_gap.len()) as u64;
    let at = |row: usize, f: &Field| {
        Some(data_offset + row as u64 * u64::from(table.entry_size) + u64::from(f.offset))
    };
    for c in &schema.columns {
        let Some(i) = index(&c.name) else { continue };
        if let Some(f) = table.fields.get(i).filter(|f| !c.kind.accepts(f.kind)) {
            out.push(Diagnostic::warning(
                "BCSV-004",
                Some((HEADER_SIZE + i * FIELD_SIZE + 11) as u64),
                format!(
                    "{}: {} is {}, its schema says {:?}",
                    schema.name, c.name, f.kind, c.kind
                ),
            ));
        }
    }
    for rule in &schema.rules {
        let Some(i) = index(&rule.field) else {
            continue;
        };
        let Some(f) = table.fields.get(i) else {
            continue;
        };
        let cells = table
            .rows()
            .enumerate()
            .filter_map(|(r, row)| row.get(i).map(|v| (r, row, text(table, f, v))));
        let mut report = |r: usize, msg: String| {
            out.push(Diagnostic::new(
                rule.severity,
                &rule.id,
                at(r, f),
                format!("{} row {r}: {}", schema.name, msg),
            ));
        };
        let mut previous: Option<f64> = None;
        let mut seen: HashSet<String> = HashSet::new();
        for (r, row, v) in cells {
            match &rule.check {
                Check::OneOf(allowed) if !allowed.contains(&v) => report(
                    r,
                    format!("{} = {v:?} is not one of {allowed:?}", rule.field),
                ),
                Check::When {
                    field,
                    value,
                    allowed,
                } => {
                    let cond = index(field)
                        .and_then(|j| Some((table.fields.get(j)?, row.get(j)?)))
                        .is_some_and(|(g, w)| text(table, g, w) == *value);
                    if cond && !allowed.contains(&v) {
                        report(
                            r,
                            format!(
                                "{} = {v:?} is not allowed with {field} = {value} ({allowed:?})",
                                rule.field
                            ),
                        );
                    }
                }
                Check::Range {
                    min,
                    min_exclusive,
                    max,
                } => {
                    let Some(x) = number(&v) else { continue };
                    let low = min.is_some_and(|m| if *min_exclusive { x <= m } else { x < m });
                    if low || max.is_some_and(|m| x > m) {
                        report(
                            r,
                            format!("{} = {v} is outside {:?}..={:?}", rule.field, min, max),
                        );
                    }
                }
                Check::Sorted => {
                    let x = number(&v);
                    if let (Some(p), Some(x)) = (previous, x)
                        && x < p
                    {
                        report(
                            r,
                            format!(
                                "{} = {v} is below the previous row's {p} (rows must ascend)",
                                rule.field
                            ),
                        );
                    }
                    previous = x.or(previous);
                }
                Check::Unique if !seen.insert(v.clone()) => {
                    report(r, format!("{} = {v:?} repeats an earlier row", rule.field))
                }
                Check::CameraId if !camera_id_ok(&v) => report(
                    r,
                    format!(
                        "{} = {v:?} is not a camera ID (c:xxxx, s:xxxx, g:, o:, e:)",
                        rule.field
                    ),
                ),
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_parse_and_name_known_fields() {
        let all = all();
        assert!(all.len() >= 18, "{}", all.len());
        for s in all {
            assert!(!s.columns.is_empty(), "{}", s.name);
            for c in &s.columns {
                assert!(
                    crate::names::lookup(jgadget_hash(c.name.as_bytes())).is_some(),
                    "{}: {} not in the dictionary",
                    s.name,
                    c.name
                );
            }
            for r in &s.rules {
                assert!(r.id.starts_with("TBL-"), "{}: {r:?}", s.name);
                assert!(
                    s.columns.iter().any(|c| c.name == r.field),
                    "{}: {r:?}",
                    s.name
                );
            }
        }
    }

    fn table(cols: &[(&str, FieldType)], rows: Vec<Vec<Value>>) -> Table {
        let mut t = Table::new(cols);
        for r in rows {
            t.push_row(r).unwrap();
        }
        t
    }

    fn s(v: &str) -> Value {
        Value::StringOffset(v.into())
    }

    #[test]
    fn seed_rules_fire() {
        let cols = [
            ("SoundId", FieldType::LONG),
            ("BankProgNoName", FieldType::STRING_OFFSET),
            ("BankProgNo", FieldType::SHORT),
        ];
        let t = table(
            &cols,
            vec![
                vec![Value::Long(5), s("a"), Value::Short(1)],
                vec![Value::Long(3), s("b"), Value::Short(2)],
            ],
        );
        assert_eq!(
            recognise(&t).map(|s| s.name.as_str()),
            Some("SoundIdToInstList")
        );
        let d = check(&t);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            (d[0].rule.as_str(), d[0].severity),
            ("TBL-001", Severity::Error)
        );

        let bgm = [
            ("SoundIdName", FieldType::STRING_OFFSET),
            ("Volume", FieldType::LONG),
        ];
        let t = table(
            &bgm,
            vec![
                vec![s("BGM_A"), Value::Long(100)],
                vec![s("BGM_B"), Value::Long(129)],
            ],
        );
        let d = check(&t);
        assert_eq!(
            d.iter().map(|d| d.rule.as_str()).collect::<Vec<_>>(),
            ["TBL-003"]
        );

        let sw = [
            ("SwitchName", FieldType::STRING_OFFSET),
            ("Usage", FieldType::STRING_OFFSET),
        ];
        let t = table(
            &sw,
            vec![
                vec![s("SW_APPEAR"), s("NeedRead")],
                vec![s("SW_DEAD"), s("UseRead")],
                vec![s("SW_A"), s("Bogus")],
            ],
        );
        let rules: Vec<_> = check(&t).iter().map(|d| d.rule.clone()).collect();
        assert_eq!(rules, ["TBL-023", "TBL-024", "TBL-024"]);

        let cam = [
            ("version", FieldType::LONG),
            ("camtype", FieldType::STRING_OFFSET),
            ("id", FieldType::STRING_OFFSET),
            ("fovy", FieldType::FLOAT),
        ];
        let t = table(
            &cam,
            vec![
                vec![
                    Value::Long(196631),
                    s("CAM_TYPE_XZ_PARA"),
                    s("c:000f"),
                    Value::Float(45.0),
                ],
                vec![
                    Value::Long(196631),
                    s("CAM_TYPE_XZ_PARA"),
                    s("c:000F"),
                    Value::Float(0.0),
                ],
                vec![
                    Value::Long(1),
                    s("CAM_TYPE_XZ_PARA"),
                    s("c:000f"),
                    Value::Float(45.0),
                ],
            ],
        );
        let mut rules: Vec<_> = check(&t).iter().map(|d| d.rule.clone()).collect();
        rules.sort();
        assert_eq!(rules, ["TBL-008", "TBL-009", "TBL-010", "TBL-014"]);
        assert!(camera_id_ok("e:ベビチコ出会い[part]"));
    }

    #[test]
    fn types_are_checked() {
        let t = table(
            &[
                ("SwitchName", FieldType::LONG),
                ("Usage", FieldType::STRING),
            ],
            vec![vec![Value::Long(0), Value::inline(b"x").unwrap()]],
        );
        let d = check(&t);
        assert!(d.iter().any(|d| d.rule == "BCSV-004"), "{d:?}");
    }
}
