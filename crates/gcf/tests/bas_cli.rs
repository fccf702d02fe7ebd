//! `gcf` on sound animation tables: identify (by the `.bas` name only), check, roundtrip and
//! `convert x.bas x.json` and back, byte-identical. Fixtures built in code.
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;
use std::process::Output;

use support::{gcf, scratch};

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn bas_through_the_cli() {
    let dir = scratch("bas");
    let b = dir.join("Walk.bas");
    let bytes = bas::build::sample().write().unwrap();
    std::fs::write(&b, &bytes).unwrap();
    let other = dir.join("walk.bin");
    std::fs::write(&other, &bytes).unwrap();

    let id = ok(&gcf(&[Path::new("identify"), &b, &dir]));
    assert!(id.contains("Walk.bas\tbas"), "{id}");
    assert!(!id.contains("walk.bin\tbas"), "{id}");
    ok(&gcf(&[Path::new("check"), &b]));
    let rt = ok(&gcf(&[Path::new("roundtrip"), &b]));
    assert!(rt.contains("identical"), "{rt}");
    let info = ok(&gcf(&[Path::new("info"), &b]));
    assert!(info.contains("3 sounds"), "{info}");
    // The crate describes itself (`gcio::Describe`): JSON = the summary's lines and the facts.
    let v: serde_json::Value =
        serde_json::from_str(&ok(&gcf(&[Path::new("info"), Path::new("--json"), &b]))).unwrap();
    assert!(
        v["info"]["summary"][0]
            .as_str()
            .unwrap()
            .contains("3 sounds"),
        "{v}"
    );
    assert_eq!(v["info"]["facts"]["sounds 3"], 1, "{v}");

    let json = dir.join("walk.json");
    ok(&gcf(&[Path::new("convert"), &b, &json]));
    let again = dir.join("again.bas");
    ok(&gcf(&[Path::new("convert"), &json, &again]));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}
