//! No command writes wrong data (issue 33): each case is a way a modder got a wrong file from an
//! earlier `gcf` with exit 0, now a refusal naming the problem (or the right file), with nothing
//! written half. Fixtures are built in code.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod support;

use support::{gcf_in, listing, sample, scratch, table_archive};

/// The member `path` of the archive file `arc` (decompressed).
fn member(arc: &std::path::Path, path: &str) -> Vec<u8> {
    gcf::archive::member(&std::fs::read(arc).unwrap(), path).unwrap()
}

#[test]
fn replace_converts_an_export_and_refuses_another_kind() {
    let d = scratch("replace");
    std::fs::write(d.join("a.arc"), table_archive()).unwrap();
    let table = bcsv::Table::parse(&sample("bcsv/every_type.bcsv")).unwrap();
    let csv = bcsv::to_csv(&table);
    let edited = csv.replacen("Kuribo0,", "Kuribo1,", 1);
    assert_ne!(edited, csv, "the fixture's CSV has a cell to edit");
    std::fs::write(d.join("edited.csv"), &edited).unwrap();
    gcf_in(
        &d,
        &[
            "replace",
            "a.arc",
            "jmp/ObjInfo",
            "edited.csv",
            "--out",
            "b.arc",
        ],
    )
    .succeeds();
    let stored = member(&d.join("b.arc"), "jmp/ObjInfo");
    assert_eq!(
        stored,
        bcsv::from_csv(&edited).unwrap().write().unwrap(),
        "the CSV is stored as the table it describes, not as text"
    );
    // A file of another format, or text that is no table, is refused; nothing is written.
    std::fs::write(d.join("tex.bti"), sample("bti/spec_i8.bti")).unwrap();
    std::fs::write(d.join("notes.txt"), "remember the coins\n").unwrap();
    let before = std::fs::read(d.join("a.arc")).unwrap();
    gcf_in(&d, &["replace", "a.arc", "jmp/ObjInfo", "tex.bti"])
        .fails_with(&["tex.bti is bti", "jmp/ObjInfo is bcsv"]);
    gcf_in(&d, &["replace", "a.arc", "jmp/ObjInfo", "notes.txt"])
        .fails_with(&["notes.txt", "bcsv"]);
    assert_eq!(std::fs::read(d.join("a.arc")).unwrap(), before);
    // An opaque member takes any bytes; a table takes a table.
    gcf_in(&d, &["replace", "a.arc", "jmp/Other", "notes.txt"]).succeeds();
    std::fs::write(d.join("t.bcsv"), sample("bcsv/empty.bcsv")).unwrap();
    gcf_in(&d, &["replace", "a.arc", "jmp/ObjInfo", "t.bcsv"]).succeeds();
    assert_eq!(
        member(&d.join("a.arc"), "jmp/ObjInfo"),
        sample("bcsv/empty.bcsv")
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_archive_is_never_converted_to_an_export_name() {
    let d = scratch("convert-arc");
    std::fs::write(d.join("stage.szs"), sample("yaz0/stage.szs")).unwrap();
    for out in ["out.glb", "out.png", "out.obj", "out.csv"] {
        gcf_in(&d, &["convert", "stage.szs", out]).fails_with(&["no conversion", "rarc"]);
    }
    assert_eq!(listing(&d), ["stage.szs"], "nothing written");
    // Decompression to an archive name still works, into folders that do not exist yet.
    gcf_in(&d, &["convert", "stage.szs", "new/sub/stage.arc"]).succeeds();
    assert_eq!(
        std::fs::read(d.join("new/sub/stage.arc")).unwrap(),
        sample("rarc/stage.arc")
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn output_errors_name_the_output_not_a_temporary() {
    let d = scratch("out-name");
    std::fs::write(d.join("stage.szs"), sample("yaz0/stage.szs")).unwrap();
    std::fs::write(d.join("file"), b"a file, not a folder").unwrap();
    let r = gcf_in(&d, &["convert", "stage.szs", "file/stage.arc"]);
    r.fails_with(&["file"]);
    assert!(!r.stderr.contains(".gcf-tmp"), "{}", r.stderr);
}

#[test]
fn pack_refuses_files_the_manifest_does_not_list() {
    let d = scratch("pack-stray");
    std::fs::write(d.join("stage.szs"), sample("yaz0/stage.szs")).unwrap();
    gcf_in(&d, &["extract", "stage.szs", "x"]).succeeds();
    std::fs::write(d.join("x/notes.txt"), "todo").unwrap();
    gcf_in(&d, &["pack", "x", "out.szs"]).fails_with(&["notes.txt", "--add"]);
    assert!(!d.join("out.szs").exists());
    gcf_in(&d, &["pack", "x", "out.szs", "--add"]).succeeds();
    assert!(member(&d.join("out.szs"), "notes.txt") == b"todo");
    // Without the stray file the folder packs back to the original bytes.
    std::fs::remove_file(d.join("x/notes.txt")).unwrap();
    gcf_in(&d, &["pack", "x", "again.szs"]).succeeds();
    assert_eq!(
        std::fs::read(d.join("again.szs")).unwrap(),
        sample("yaz0/stage.szs")
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn extract_refuses_a_used_folder_and_force_replaces_it_whole() {
    let d = scratch("extract-force");
    std::fs::write(d.join("stage.szs"), sample("yaz0/stage.szs")).unwrap();
    std::fs::write(d.join("t.arc"), table_archive()).unwrap();
    gcf_in(&d, &["extract", "t.arc", "x"]).succeeds();
    gcf_in(&d, &["extract", "stage.szs", "x"]).fails_with(&["--force"]);
    assert!(
        d.join("x/after.bin").exists(),
        "the refused extract changed nothing"
    );
    // A failing extract leaves the old folder as it was, and no temporary.
    gcf_in(
        &d,
        &["--budget", "16", "--force", "extract", "stage.szs", "x"],
    )
    .fails_with(&["budget"]);
    assert!(d.join("x/after.bin").exists());
    assert_eq!(listing(&d), ["stage.szs", "t.arc", "x"]);
    gcf_in(&d, &["--force", "extract", "stage.szs", "x"]).succeeds();
    assert!(
        !d.join("x/after.bin").exists(),
        "--force replaced the folder: no member of the other archive is left"
    );
    gcf_in(&d, &["pack", "x", "back.szs"]).succeeds();
    assert_eq!(
        std::fs::read(d.join("back.szs")).unwrap(),
        sample("yaz0/stage.szs")
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A Colosseum PKX whose reserved word 0x0C is set (as on real files) reads as a BCSV header
/// too (DAT size rows of that many bytes, no fields): the conversion must still be the PKX's,
/// the format `identify` reports, and its JSON must convert back to the same file.
#[test]
fn convert_uses_the_identified_format() {
    let d = scratch("pkx-json");
    for name in [
        "colosseum-trainer.pkx",
        "colosseum-pokemon.pkx",
        "xd-trainer.pkx",
    ] {
        let mut pkx = sample(&format!("pkx/{name}"));
        if name == "colosseum-trainer.pkx" {
            pkx[0x0F] = 1;
            assert!(
                bcsv::sniff(&pkx).is_some(),
                "{name}: the fixture reads as BCSV"
            );
        }
        assert!(gcf::identify(&pkx, name).format.starts_with("pkx"));
        std::fs::write(d.join(name), &pkx).unwrap();
        let json = format!("{name}.json");
        gcf_in(&d, &["--force", "convert", name, &json]).succeeds();
        gcf_in(&d, &["--force", "extract", name, "x"]).succeeds();
        let back = format!("back-{name}");
        gcf_in(
            &d,
            &["--force", "convert", &json, &back, "--dat", "x/model.dat"],
        )
        .succeeds();
        assert_eq!(std::fs::read(d.join(&back)).unwrap(), pkx, "{name}");
    }
    let _ = std::fs::remove_dir_all(&d);
}
