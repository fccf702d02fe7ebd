//! Validator findings and round-trip comparison helpers.

use std::fmt;

/// How bad a validator finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Worth knowing (e.g. a convention the game tolerates).
    Info,
    /// Suspicious or unverified; the game may or may not mind.
    Warning,
    /// The game crashes or misbehaves, or the file is structurally broken.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One validator finding, citing a rule id catalogued in `docs/rules/` (e.g. `RARC-003`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The rule id.
    pub rule: String,
    /// Absolute file offset, when the finding has a place in the file.
    pub offset: Option<u64>,
    /// What is wrong, in words.
    pub message: String,
}

impl Diagnostic {
    /// A finding at an offset.
    pub fn new(
        severity: Severity,
        rule: &str,
        offset: Option<u64>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity,
            rule: rule.to_owned(),
            offset,
            message: message.into(),
        }
    }

    /// An error finding.
    pub fn error(rule: &str, offset: Option<u64>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, rule, offset, message)
    }

    /// A warning finding.
    pub fn warning(rule: &str, offset: Option<u64>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, rule, offset, message)
    }

    /// An informational finding.
    pub fn info(rule: &str, offset: Option<u64>, message: impl Into<String>) -> Self {
        Self::new(Severity::Info, rule, offset, message)
    }
}

impl fmt::Display for Diagnostic {
    /// `SEVERITY<TAB>RULE<TAB>0xOFFSET<TAB>MESSAGE`, the `gcf check` line format (`-` when no offset).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(
                f,
                "{}\t{}\t{o:#x}\t{}",
                self.severity, self.rule, self.message
            ),
            None => write!(f, "{}\t{}\t-\t{}", self.severity, self.rule, self.message),
        }
    }
}

/// The findings a validator collects. Checks either name each finding's offset (`*_at`) or set
/// the structure being checked once ([`Findings::at`]) and add findings there.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    list: Vec<Diagnostic>,
    here: Option<u64>,
}

impl Findings {
    /// No findings yet, no current place.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the file offset of the structure being checked (none if it does not fit a `u64`).
    pub fn at(&mut self, offset: impl TryInto<u64>) {
        self.here = offset.try_into().ok();
    }

    /// Findings from now on have no place (model-level checks).
    pub fn clear_at(&mut self) {
        self.here = None;
    }

    /// Adds a finding at an explicit place.
    pub fn add_at(
        &mut self,
        severity: Severity,
        rule: &str,
        at: impl Into<Option<u64>>,
        message: impl Into<String>,
    ) {
        self.list
            .push(Diagnostic::new(severity, rule, at.into(), message));
    }

    /// An error at an explicit place.
    pub fn error_at(&mut self, rule: &str, at: impl Into<Option<u64>>, message: impl Into<String>) {
        self.add_at(Severity::Error, rule, at, message);
    }

    /// A warning at an explicit place.
    pub fn warning_at(
        &mut self,
        rule: &str,
        at: impl Into<Option<u64>>,
        message: impl Into<String>,
    ) {
        self.add_at(Severity::Warning, rule, at, message);
    }

    /// An informational finding at an explicit place.
    pub fn info_at(&mut self, rule: &str, at: impl Into<Option<u64>>, message: impl Into<String>) {
        self.add_at(Severity::Info, rule, at, message);
    }

    /// An error at the current place.
    pub fn error(&mut self, rule: &str, message: impl Into<String>) {
        self.add_at(Severity::Error, rule, self.here, message);
    }

    /// A warning at the current place.
    pub fn warning(&mut self, rule: &str, message: impl Into<String>) {
        self.add_at(Severity::Warning, rule, self.here, message);
    }

    /// An informational finding at the current place.
    pub fn info(&mut self, rule: &str, message: impl Into<String>) {
        self.add_at(Severity::Info, rule, self.here, message);
    }

    /// Adds a finding made elsewhere.
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    /// The findings so far.
    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.list
    }

    /// The findings, in the order they were added.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}

/// One row of a rule crate's broken-variant table: what the input breaks, how to build it, and the
/// finding it must give.
pub type RuleCase<'a, I> = (&'a str, fn() -> I, Severity, &'a str);

/// Runs a broken-variant table (`tests/rules.rs` of the validator crates): every case must give a
/// finding with its rule id at its severity, and no other rule may report an error. `Err` lists
/// every failing case with the findings it gave.
pub fn check_rule_cases<I>(
    cases: &[RuleCase<'_, I>],
    validate: impl Fn(&I) -> Vec<Diagnostic>,
) -> Result<(), String> {
    let mut failures = Vec::new();
    for &(name, build, severity, rule) in cases {
        let found = validate(&build());
        let hit = found
            .iter()
            .any(|d| d.rule == rule && d.severity == severity);
        let stray = found
            .iter()
            .any(|d| d.severity == Severity::Error && d.rule != rule);
        if !hit || stray {
            let why = if hit {
                "another rule reports an error"
            } else {
                "no such finding"
            };
            let shown: Vec<String> = found.iter().map(|d| format!("    {d}")).collect();
            failures.push(format!(
                "{rule} ({severity}) — {name}: {why}; found:\n{}",
                shown.join("\n")
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Offset of the first byte where `a` and `b` differ, or where the shorter one ends; `None` when equal.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"ab", b"abc"), Some(2));
        assert_eq!(first_difference(b"abc", b""), Some(0));
        assert_eq!(first_difference(b"", b""), None);
    }

    #[test]
    fn diagnostic_lines() {
        let d = Diagnostic::error("RULE-1", Some(0x20), "bad");
        assert_eq!(d.to_string(), "error\tRULE-1\t0x20\tbad");
        let d = Diagnostic::warning("X-1", None, "w");
        assert_eq!(d.to_string(), "warning\tX-1\t-\tw");
        assert_eq!(Diagnostic::info("I", None, "").severity, Severity::Info);
        assert!(Severity::Error > Severity::Warning && Severity::Warning > Severity::Info);
    }

    #[test]
    fn rule_cases() {
        let run = |d: &Vec<Diagnostic>| d.clone();
        let cases: &[RuleCase<'_, Vec<Diagnostic>>] = &[(
            "one error, one warning",
            || {
                vec![
                    Diagnostic::error("TEST-1", None, "a"),
                    Diagnostic::warning("TEST-2", None, "b"),
                ]
            },
            Severity::Error,
            "TEST-1",
        )];
        assert_eq!(check_rule_cases(cases, run), Ok(()));
        let wrong: &[RuleCase<'_, Vec<Diagnostic>>] = &[
            (
                "wrong severity",
                || vec![Diagnostic::info("TEST-1", None, "")],
                Severity::Error,
                "TEST-1",
            ),
            (
                "stray error",
                || {
                    vec![
                        Diagnostic::info("TEST-1", None, ""),
                        Diagnostic::error("TEST-2", None, ""),
                    ]
                },
                Severity::Info,
                "TEST-1",
            ),
        ];
        let e = check_rule_cases(wrong, run).unwrap_err();
        assert!(e.contains("wrong severity: no such finding"), "{e}");
        assert!(
            e.contains("stray error: another rule reports an error"),
            "{e}"
        );
    }
}
