#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The generated samples: disassemble, reassemble identically (binary and text), validate clean
//! and export MIDI that `midly` reads back with the expected notes per track.

use bms::midi::{ExportOptions, export, render};
use bms::{Content, Program, build, from_text, parse, to_text, validate};

#[test]
fn samples_round_trip_and_validate_clean() {
    for s in build::samples().unwrap() {
        let view = parse(&s.bytes).unwrap();
        assert!(
            view.flow().findings().is_empty(),
            "{}: {:?}",
            s.name,
            view.flow().findings()
        );
        let p = bms::Program::from_view(&view, &gcio::Limits::default()).unwrap();
        assert_eq!(p.write().unwrap(), s.bytes, "{}", s.name);
        let text = to_text(&p);
        let back = from_text(&text).unwrap();
        assert_eq!(back, p, "{}: text parses back to the same program", s.name);
        assert_eq!(back.write().unwrap(), s.bytes, "{}", s.name);
        let d = validate(&s.bytes);
        assert!(d.is_empty(), "{}: {d:?}", s.name);
    }
}

#[test]
fn song_structure() {
    let s = build::song().unwrap();
    let view = parse(&s.bytes).unwrap();
    let numbers: Vec<_> = view.tracks().iter().map(|t| t.number).collect();
    assert_eq!(numbers, [None, Some(0), Some(1), Some(2)]);
    assert_eq!(
        view.flow().tables().values().copied().collect::<Vec<_>>(),
        [3]
    );
    let p = bms::Program::from_view(&view, &gcio::Limits::default()).unwrap();
    let kinds: Vec<&str> = p
        .blocks
        .iter()
        .map(|b| match b.content {
            Content::Code(_) => "code",
            Content::Table(_) => "table",
            Content::Data(_) => "data",
        })
        .collect();
    assert!(
        kinds.contains(&"table") && kinds.contains(&"data"),
        "{kinds:?}"
    );
    // The printf and the register-prefixed commands show up in the text.
    let text = to_text(&p);
    for needle in [
        "printf \"song start %d\\\\n\", 3",
        "jmp_table r0x00, L_",
        "wait_byte r0x04",
        "env_set 0, L_",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn midi_export_reads_back_with_midly() {
    for s in build::samples().unwrap() {
        let smf_bytes = export(&s.bytes, &ExportOptions::default()).unwrap();
        let smf = midly::Smf::parse(&smf_bytes).unwrap();
        assert_eq!(smf.tracks.len(), s.notes_per_track.len(), "{}", s.name);
        for (i, (track, want)) in smf.tracks.iter().zip(&s.notes_per_track).enumerate() {
            let (mut on, mut off) = (0, 0);
            for e in track {
                if let midly::TrackEventKind::Midi { message, .. } = e.kind {
                    match message {
                        midly::MidiMessage::NoteOn { vel, .. } if vel > 0 => on += 1,
                        midly::MidiMessage::NoteOff { .. } => off += 1,
                        _ => {}
                    }
                }
            }
            assert_eq!(on, *want, "{} track {i} note-ons", s.name);
            assert_eq!(off, *want, "{} track {i} note-offs balance", s.name);
        }
    }
}

#[test]
fn loops_unroll_as_configured() {
    let s = build::song().unwrap();
    for loops in [0, 1, 3] {
        let song = render(
            &s.bytes,
            &ExportOptions {
                loops,
                ..ExportOptions::default()
            },
        )
        .unwrap();
        // Track 1 is the endless bass loop: one note per pass.
        assert_eq!(song.tracks[2].note_count(), loops as usize + 1);
    }
    let song = render(&s.bytes, &ExportOptions::default()).unwrap();
    assert_eq!(song.timebase, 120);
    let tempo = song.tracks[0]
        .events
        .iter()
        .any(|(_, e)| *e == bms::midi::Event::Tempo(120));
    assert!(tempo);
}

#[test]
fn edited_text_relays_code_and_fixes_offsets() {
    let s = build::song().unwrap();
    let p = Program::parse(&s.bytes).unwrap();
    let text = to_text(&p);
    // Insert an instruction at the very start: every later offset moves by 3 bytes.
    let edited = text.replacen("    tempo 120", "    tempo 120\n    tempo 121", 1);
    let out = from_text(&edited).unwrap().write().unwrap();
    assert_eq!(out.len(), s.bytes.len() + 3);
    assert!(validate(&out).is_empty(), "{:?}", validate(&out));
    let a = render(&s.bytes, &ExportOptions::default()).unwrap();
    let b = render(&out, &ExportOptions::default()).unwrap();
    let notes = |s: &bms::midi::Song| s.tracks.iter().map(|t| t.note_count()).collect::<Vec<_>>();
    assert_eq!(notes(&a), notes(&b));
    // The re-laid program matches the original except for the inserted command.
    let p2 = Program::parse(&out).unwrap();
    assert_eq!(p2.instructions().count(), p.instructions().count() + 1);
    assert_eq!(p2.tracks().len(), 3);
}

#[test]
fn handwritten_text_with_named_labels() {
    let src = r#"
        open_track 1, melody
        wait 100
        finish
    melody:
        loop_s 2
        note 60, 0x01, 100      ; C4 on voice 1
        wait 10
        voice_off 1
        loop_e
        reg_load 0, 1
        jmp_table r0, table
    table:
        .table end, end2
    end:
        finish
    end2:
        note 64, 0x00, 90, 20
        finish
    "#;
    let bytes = from_text(src).unwrap().write().unwrap();
    assert!(validate(&bytes).is_empty(), "{:?}", validate(&bytes));
    let song = render(&bytes, &ExportOptions::default()).unwrap();
    assert_eq!(song.tracks[1].note_count(), 3);
    // Errors carry line numbers.
    let e = from_text("  jmp nowhere").unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
    assert!(from_text("  bogus 1").is_err());
    assert!(from_text("  jmp 1, 2").is_err());
    assert!(from_text("r1:\n  finish").is_err());
}

#[test]
fn model_edits_with_fresh_labels() {
    use bms::{Block, Instruction, opcode::ops};
    let s = build::song().unwrap();
    let mut p = Program::parse(&s.bytes).unwrap();
    // Route track 1's bass loop through a new subroutine appended at the end.
    let sub = p.fresh_label();
    assert!(sub >= bms::FRESH_LABEL);
    p.blocks.push(Block {
        label: Some(sub),
        content: Content::Code(vec![
            Instruction::cmd(ops::WAIT_BYTE, &[5]).unwrap(),
            Instruction::cmd(ops::RET, &[]).unwrap(),
        ]),
    });
    let (_, entry) = p.tracks()[1];
    let Some(Block {
        content: Content::Code(code),
        ..
    }) = p.block_mut(entry)
    else {
        panic!("track 1 block")
    };
    code.insert(0, Instruction::cmd(ops::CALL, &[sub]).unwrap());
    let out = p.write().unwrap();
    assert!(validate(&out).is_empty(), "{:?}", validate(&out));
    let again = Program::parse(&out).unwrap();
    assert_eq!(again.instructions().count(), p.instructions().count());
    assert_eq!(
        render(&out, &ExportOptions::default()).unwrap().tracks[2].note_count(),
        2
    );
}
