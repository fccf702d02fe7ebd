//! `gcf` on TPL and camera animations: identify, check, roundtrip, `convert x.tpl DIR` and back
//! (byte-identical while untouched), `convert x.canm x.json` and back. Fixtures built in code.
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
fn tpl_and_canm_through_the_cli() {
    let dir = scratch("tpl-canm");
    let t = dir.join("lib.tpl");
    let bytes = tpl::build::sample_bytes();
    std::fs::write(&t, &bytes).unwrap();
    let c = dir.join("cam.canm");
    let cam = canm::build::sample().write().unwrap();
    std::fs::write(&c, &cam).unwrap();

    let id = ok(&gcf(&[Path::new("identify"), &t, &c]));
    assert!(
        id.contains("lib.tpl\ttpl") && id.contains("cam.canm\tcanm\tCKAN"),
        "{id}"
    );
    ok(&gcf(&[Path::new("check"), &t, &c]));
    let rt = ok(&gcf(&[Path::new("roundtrip"), &t, &c]));
    assert_eq!(rt.matches("identical").count(), 2, "{rt}");

    let folder = dir.join("lib");
    ok(&gcf(&[Path::new("convert"), &t, &folder]));
    assert!(folder.join("tpl.json").is_file() && folder.join("0.png").is_file());
    let back = dir.join("back.tpl");
    ok(&gcf(&[Path::new("convert"), &folder, &back]));
    assert_eq!(std::fs::read(&back).unwrap(), bytes);

    let json = dir.join("cam.json");
    ok(&gcf(&[Path::new("convert"), &c, &json]));
    let again = dir.join("again.canm");
    ok(&gcf(&[Path::new("convert"), &json, &again]));
    assert_eq!(std::fs::read(&again).unwrap(), cam);
    let _ = std::fs::remove_dir_all(&dir);
}
