//! `gcf` on NW4R fonts: identify, check, roundtrip, info, `convert x.brfnt x.json` (the JSON and
//! one PNG per sheet beside it), back from the JSON alone and from the folder of the JSON and its
//! PNGs (byte-identical). Fixtures built in code (no real font is shared).
#![allow(clippy::unwrap_used)]

mod support;

use std::path::Path;
use std::process::Output;

use gcformats::brfnt;
use support::{gcf, scratch};

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn fonts_through_the_cli() {
    let dir = scratch("fnt");
    let f = dir.join("font.brfnt");
    let font = brfnt::build::latin();
    let bytes = font.write().unwrap();
    std::fs::write(&f, &bytes).unwrap();

    let id = ok(&gcf(&[Path::new("identify"), &f]));
    assert!(id.contains("font.brfnt\tbrfnt\tversion 1.4"), "{id}");
    ok(&gcf(&[Path::new("check"), &f]));
    let rt = ok(&gcf(&[Path::new("roundtrip"), &f]));
    assert!(rt.contains("identical"), "{rt}");
    let info = ok(&gcf(&[Path::new("info"), &f]));
    assert!(
        info.contains("2 sheets 32x32 I4") && info.contains("24 glyphs"),
        "{info}"
    );

    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let json = out.join("font.json");
    ok(&gcf(&[Path::new("convert"), &f, &json]));
    for i in 0..2 {
        let png = std::fs::read(out.join(format!("font_sheet{i}.png"))).unwrap();
        assert_eq!(gx::png::decode(&png).unwrap(), font.sheet_rgba(i).unwrap());
    }
    let again = dir.join("again.brfnt");
    ok(&gcf(&[Path::new("convert"), &json, &again]));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    let packed = dir.join("packed.brfnt");
    ok(&gcf(&[Path::new("convert"), &out, &packed]));
    assert_eq!(std::fs::read(&packed).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}
