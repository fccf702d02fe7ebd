//! `gcf` on NW4R layouts and layout animations: identify, check, roundtrip, info, and
//! `convert x.brlyt x.json` / `x.brlan x.json` and back (byte-identical, and the JSON of the
//! rebuilt file identical to the first). Fixtures built in code.
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
fn layouts_and_animations_through_the_cli() {
    let dir = scratch("lyt");
    let l = dir.join("screen.brlyt");
    let lyt = brlyt::build::sample().write().unwrap();
    std::fs::write(&l, &lyt).unwrap();
    let a = dir.join("appear.brlan");
    let anim = brlan::build::sample().write().unwrap();
    std::fs::write(&a, &anim).unwrap();

    let id = ok(&gcf(&[Path::new("identify"), &l, &a]));
    assert!(
        id.contains("screen.brlyt\tbrlyt") && id.contains("appear.brlan\tbrlan"),
        "{id}"
    );
    ok(&gcf(&[Path::new("check"), &l, &a]));
    let rt = ok(&gcf(&[Path::new("roundtrip"), &l, &a]));
    assert_eq!(rt.matches("identical").count(), 2, "{rt}");
    let info = ok(&gcf(&[Path::new("info"), &l]));
    assert!(
        info.contains("picture Pic") && info.contains("Sample.tpl"),
        "{info}"
    );

    for (file, bytes, ext) in [(&l, &lyt, "brlyt"), (&a, &anim, "brlan")] {
        let json = dir.join(format!("{ext}.json"));
        ok(&gcf(&[Path::new("convert"), file, &json]));
        let again = dir.join(format!("again.{ext}"));
        ok(&gcf(&[Path::new("convert"), &json, &again]));
        assert_eq!(&std::fs::read(&again).unwrap(), bytes, "{ext}");
        let json2 = dir.join(format!("{ext}2.json"));
        ok(&gcf(&[Path::new("convert"), &again, &json2]));
        assert_eq!(
            std::fs::read(&json).unwrap(),
            std::fs::read(&json2).unwrap()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
