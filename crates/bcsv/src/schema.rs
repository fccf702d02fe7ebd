//! Table schemas from the project's seed (placeholder until the schema data lands).

use gcio::Diagnostic;

use crate::model::Table;

/// Checks a table against the schema that recognises it.
pub fn check(_table: &Table) -> Vec<Diagnostic> {
    Vec::new()
}
