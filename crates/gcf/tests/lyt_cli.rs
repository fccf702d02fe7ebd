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

/// `gcf render`: a layout member of an archive with its texture in `timg/` (found), the same
/// layout as a lone file (its texture reported missing), an animation applied, the text pane
/// reported as drawn without a font, and an existing output refused without `--force`.
#[test]
fn render_draws_layouts_to_png() {
    let dir = scratch("lyt-render");
    let lyt = brlyt::build::sample().write().unwrap();
    let tree = rarc::Dir {
        name: b"Screen".to_vec(),
        children: vec![
            rarc::Item::Dir(rarc::Dir {
                name: b"blyt".to_vec(),
                children: vec![support::file("screen.brlyt", lyt.clone())],
            }),
            rarc::Item::Dir(rarc::Dir {
                name: b"timg".to_vec(),
                children: vec![support::file("Sample.tpl", tpl::build::sample_bytes())],
            }),
        ],
    };
    let arc = dir.join("Screen.arc");
    std::fs::write(&arc, support::pack(&tree)).unwrap();
    let anim = dir.join("appear.brlan");
    std::fs::write(&anim, brlan::build::sample().write().unwrap()).unwrap();
    let member = format!("{}:blyt/screen.brlyt", arc.display());
    let png = dir.join("screen.png");
    let out = ok(&gcf(&[
        "render",
        member.as_str(),
        png.to_str().unwrap(),
        "--anim",
        anim.to_str().unwrap(),
        "--frame",
        "10",
    ]));
    assert!(
        out.contains("608x456") && out.contains("panes drawn in"),
        "{out}"
    );
    assert!(out.contains("animation at frame 10"), "{out}");
    assert!(!out.contains("texture not found"), "{out}");
    assert!(
        out.contains("no font, outline drawn: Txt: Sample.brfnt"),
        "{out}"
    );
    let img = gx::png::decode(&std::fs::read(&png).unwrap()).unwrap();
    assert_eq!((img.width(), img.height()), (608, 456));
    assert!(img.pixels().iter().any(|p| p[3] > 0));

    // Again: refused without --force; a lone layout file finds no texture and says so (JSON).
    let again = gcf(&["render", member.as_str(), png.to_str().unwrap()]);
    assert!(!again.status.success());
    let lone = dir.join("screen.brlyt");
    std::fs::write(&lone, &lyt).unwrap();
    let out = ok(&gcf(&[
        "render",
        "--json",
        "--force",
        lone.to_str().unwrap(),
        png.to_str().unwrap(),
    ]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["size"], serde_json::json!([608, 456]));
    assert_eq!(
        v["missing_textures"],
        serde_json::json!(["Pic: Sample.tpl", "Win: Sample.tpl"])
    );
    assert_eq!(
        v["text_without_font"],
        serde_json::json!(["Txt: Sample.brfnt"])
    );
    let outline = std::fs::read(&png).unwrap();

    // With the font the layout names (`--font`, matched by file name), the text is drawn in
    // glyphs: no outline reported, and the picture changes.
    let font = dir.join("Sample.brfnt");
    std::fs::write(&font, brfnt::build::latin().write().unwrap()).unwrap();
    let out = ok(&gcf(&[
        "render",
        "--json",
        "--force",
        "--font",
        font.to_str().unwrap(),
        lone.to_str().unwrap(),
        png.to_str().unwrap(),
    ]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["text_without_font"], serde_json::json!([]));
    assert_eq!(v["fonts"], serde_json::json!([font.to_str().unwrap()]));
    assert_ne!(std::fs::read(&png).unwrap(), outline);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `gcf render ARCHIVE:blyt/X.brlyt` on every real Galaxy 2 layout archive
/// (`../shared/corpus/real/rarc`, skipped when absent): each renders, every texture is found in
/// its archive, and the PNG is the layout's screen.
#[test]
fn render_draws_the_real_layouts() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "gcf render real")
    else {
        return;
    };
    let out = scratch("lyt-render-real");
    let mut seen = 0;
    for arc in gcio::corpus::files(&dir) {
        let name = arc.file_name().unwrap().to_string_lossy().into_owned();
        let Some(screen) = name
            .strip_prefix("LayoutData-")
            .and_then(|n| n.strip_suffix(".arc"))
        else {
            continue;
        };
        seen += 1;
        let member = format!("{}:blyt/{screen}.brlyt", arc.display());
        let png = out.join(format!("{screen}.png"));
        let o = ok(&gcf(&[
            "render",
            "--json",
            member.as_str(),
            png.to_str().unwrap(),
        ]));
        let v: serde_json::Value = serde_json::from_str(&o).unwrap();
        assert_eq!(v["missing_textures"], serde_json::json!([]), "{name}");
        assert!(v["drawn"].as_u64().unwrap() > 0, "{name}");
        let img = gx::png::decode(&std::fs::read(&png).unwrap()).unwrap();
        assert_eq!((img.width(), img.height()), (608, 456), "{name}");
    }
    assert_eq!(seen, 4, "the shared layout archives");
    let _ = std::fs::remove_dir_all(&out);
}
