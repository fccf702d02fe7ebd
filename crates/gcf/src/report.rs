//! The survey as a self-contained HTML page: tables and small inline-SVG charts (format share,
//! round-trip pass rates, rule hits), no scripts and no network, so it opens anywhere.

use std::fmt::Write as _;

use crate::survey::Survey;

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A horizontal bar chart: one labelled bar per (label, value), scaled to the largest value.
fn bars(title: &str, rows: &[(String, f64, String)]) -> String {
    let max = rows.iter().map(|r| r.1).fold(0.0_f64, f64::max);
    let height = 22 * rows.len() + 30;
    let mut svg = format!(
        "<figure><figcaption>{}</figcaption><svg role=\"img\" width=\"520\" height=\"{height}\" \
         xmlns=\"http://www.w3.org/2000/svg\">",
        escape(title)
    );
    for (i, (label, value, text)) in rows.iter().enumerate() {
        let y = 10 + 22 * i;
        let w = if max > 0.0 {
            (value / max * 300.0).round()
        } else {
            0.0
        };
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{}\" font-size=\"13\">{}</text><rect x=\"120\" y=\"{y}\" width=\"{w}\" \
             height=\"16\" fill=\"#4a7bd0\"/><text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>",
            y + 13,
            escape(label),
            125.0 + w,
            y + 13,
            escape(text)
        );
    }
    svg + "</svg></figure>"
}

/// A table whose cells are text (escaped here).
fn table(head: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    html_table(
        head,
        rows.into_iter()
            .map(|r| r.iter().map(|c| escape(c)).collect()),
    )
}

/// A table whose cells are HTML already (escaped by the caller).
fn html_table(head: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut t = String::from("<table><thead><tr>");
    for h in head {
        let _ = write!(t, "<th>{}</th>", escape(h));
    }
    t += "</tr></thead><tbody>";
    for row in rows {
        t += "<tr>";
        for cell in row {
            let _ = write!(t, "<td>{cell}</td>");
        }
        t += "</tr>";
    }
    t + "</tbody></table>"
}

/// Renders the whole report page.
pub fn html(s: &Survey) -> String {
    let mut body = format!(
        "<h1>gcformats survey of {}</h1><p>{} files and members, {}, {:.3} s, {} thread(s){}.</p>",
        escape(&s.path),
        s.files,
        size(s.bytes),
        s.seconds,
        s.threads,
        if s.interrupted {
            " — <strong>interrupted: partial report</strong>"
        } else {
            ""
        }
    );
    body += "<h2>Formats</h2>";
    body += &table(
        &[
            "format",
            "files",
            "bytes",
            "parsed",
            "identical",
            "typed",
            "pass rate",
            "rule hits",
            "MB/s",
        ],
        s.formats.iter().map(|(name, f)| {
            vec![
                name.clone(),
                f.files.to_string(),
                size(f.bytes),
                f.parsed.to_string(),
                f.identical.to_string(),
                f.typed.to_string(),
                format!("{:.1} %", pct(f.identical, f.files)),
                f.rules.values().sum::<u64>().to_string(),
                // Nothing parsed (unknown files are only identified): no throughput.
                if f.parsed > 0 {
                    format!("{:.1}", f.mb_per_s())
                } else {
                    "–".to_owned()
                },
            ]
        }),
    );
    body += "<div class=\"charts\">";
    let share: Vec<_> = s
        .formats
        .iter()
        .map(|(n, f)| (n.clone(), f.bytes as f64, size(f.bytes)))
        .collect();
    body += &bars("Format share (bytes)", &share);
    let pass: Vec<_> = s
        .formats
        .iter()
        .filter(|(n, _)| n.as_str() != crate::UNKNOWN)
        .map(|(n, f)| {
            let p = pct(f.identical, f.files);
            (n.clone(), p, format!("{p:.1} %"))
        })
        .collect();
    body += &bars("Round-trip pass rate", &pass);
    let hits: Vec<_> = s
        .formats
        .iter()
        .flat_map(|(n, f)| {
            f.rules
                .iter()
                .map(move |(r, c)| (format!("{n} {r}"), *c as f64, c.to_string()))
        })
        .collect();
    if !hits.is_empty() {
        body += &bars("Rule hits", &hits);
    }
    body += "</div>";
    // Identical outcomes grouped: one row per outcome, with how many files and a few of them.
    let mut grouped: std::collections::BTreeMap<(&str, &str), Vec<&str>> = Default::default();
    for (n, f) in &s.formats {
        for (p, w) in &f.failures {
            grouped.entry((n, w)).or_default().push(p);
        }
    }
    if !grouped.is_empty() {
        body += "<h2>Round-trip failures</h2>";
        body += &table(
            &["format", "outcome", "files", "for example"],
            grouped.into_iter().map(|((n, w), paths)| {
                let shown: Vec<&str> = paths.iter().take(3).copied().collect();
                let more = paths.len().saturating_sub(shown.len());
                let mut example = shown.join(", ");
                if more > 0 {
                    example += &format!(" (+{more} more)");
                }
                vec![n.to_owned(), w.to_owned(), paths.len().to_string(), example]
            }),
        );
    }
    let errors: Vec<_> = s
        .formats
        .iter()
        .flat_map(|(n, f)| {
            f.errors
                .iter()
                .map(move |(m, c)| vec![n.clone(), c.to_string(), m.clone()])
        })
        .collect();
    if !errors.is_empty() {
        body += "<h2>Errors</h2>";
        body += &table(&["format", "count", "message"], errors);
    }
    let rules: Vec<_> = s
        .formats
        .iter()
        .flat_map(|(n, f)| {
            f.rules.iter().map(move |(r, c)| {
                let sev: Vec<&str> = f
                    .severities
                    .get(r)
                    .map(|v| v.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                vec![
                    escape(n),
                    rule_link(r),
                    escape(&sev.join(" / ")),
                    c.to_string(),
                ]
            })
        })
        .collect();
    if !rules.is_empty() {
        body += "<h2>Validator rules hit</h2>";
        body += &html_table(&["format", "rule", "severity", "hits"], rules);
    }
    let facts: Vec<_> = s
        .formats
        .iter()
        .flat_map(|(n, f)| {
            f.facts
                .iter()
                .map(move |(k, c)| vec![n.clone(), k.clone(), c.to_string()])
        })
        .collect();
    if !facts.is_empty() {
        body += "<h2>Facts</h2>";
        body += &table(&["format", "fact", "count"], facts);
    }
    if !s.unreadable.is_empty() {
        body += "<h2>Unreadable</h2>";
        body += &table(
            &["file", "reason"],
            s.unreadable.iter().map(|(p, w)| vec![p.clone(), w.clone()]),
        );
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gcformats survey</title>\
         <style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}\
         th,td{{border:1px solid #bbb;padding:3px 8px;text-align:left}}th{{background:#eef}}\
         .charts{{display:flex;flex-wrap:wrap;gap:2em}}figcaption{{font-weight:bold}}</style></head>\
         <body>{body}</body></html>\n"
    )
}

/// Where the project documents the rules (the catalogue files are named for the family).
const RULES_URL: &str = "https://github.com/gcformats/gcformats/blob/main/docs/rules";

/// A rule id linked to its family's catalogue page (`J3DA-014` → `j3da.md`; the table rules,
/// `TBL-*`, are catalogued with BCSV).
fn rule_link(rule: &str) -> String {
    let family = rule.split('-').next().unwrap_or(rule).to_ascii_lowercase();
    let page = if family == "tbl" { "bcsv" } else { &family };
    format!(
        "<a href=\"{RULES_URL}/{}.md\">{}</a>",
        escape(page),
        escape(rule)
    )
}

/// A byte count for people: `824679` → `805.4 KiB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS.get(unit).copied().unwrap_or("TiB"))
}

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        100.0
    } else {
        a as f64 * 100.0 / b as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_renders() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let mut s = Survey {
            path: "<dir>".into(),
            ..Survey::default()
        };
        s.formats.entry("rarc".into()).or_default().files = 2;
        let page = html(&s);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("&lt;dir&gt;"));
        assert!(page.contains("<table>") && page.contains("<svg"));
        assert!(!page.contains("<script"));
    }

    #[test]
    fn groups_failures_links_rules_and_formats_sizes() {
        let mut s = Survey::default();
        let f = s.formats.entry("bcsv".into()).or_default();
        f.files = 3;
        f.bytes = 3 << 20;
        for p in ["a", "b", "c"] {
            f.failures.insert(p.into(), "differs at 0x10".into());
        }
        f.rules.insert("TBL-003".into(), 2);
        f.severities
            .entry("TBL-003".into())
            .or_default()
            .insert("warning".into());
        let page = html(&s);
        assert_eq!(page.matches("differs at 0x10").count(), 1, "grouped");
        assert!(page.contains("<td>3</td><td>a, b, c</td>"), "{page}");
        assert!(page.contains("docs/rules/bcsv.md\">TBL-003</a>"));
        assert!(page.contains("3.0 MiB") && page.contains("<td>warning</td>"));
        assert!(page.contains("<td>–</td>"), "no MB/s without a parse");
    }
}
