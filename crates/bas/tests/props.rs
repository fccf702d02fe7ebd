//! Properties: parse(write(m)) == m for generated tables; arbitrary bytes never panic.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;

fn sound() -> impl Strategy<Value = bas::Sound> {
    (
        any::<u32>(),
        prop::array::uniform3(-1e4f32..1e4),
        any::<u32>(),
        prop::array::uniform7(any::<u8>()),
        prop::array::uniform5(any::<u8>()),
    )
        .prop_map(
            |(sound_id, [on, off, pitch], flags, b, padding)| bas::Sound {
                sound_id,
                note_on: on,
                note_off: off,
                pitch,
                flags,
                volume: b[0],
                pitch_delta: b[1] as i8,
                play_time: b[2],
                pan: b[3],
                volume_delta: b[4] as i8,
                repeat_interval: b[5],
                unknown_1a: b[6] as i8,
                padding,
            },
        )
}

fn table() -> impl Strategy<Value = bas::Bas> {
    (
        any::<u16>(),
        any::<u32>(),
        prop::collection::vec(sound(), 0..12),
        prop::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(pad, control, sounds, trailer)| bas::Bas {
            pad,
            control,
            sounds,
            trailer,
        })
}

/// NaN (with its payload), infinities and -0.0 survive JSON as bits.
#[test]
fn non_finite_values_survive_json() {
    let mut t = bas::build::sample();
    t.sounds[0].note_on = f32::from_bits(0x7FC0_1234);
    t.sounds[1].note_off = f32::INFINITY;
    t.sounds[2].pitch = -0.0;
    let bytes = t.write().unwrap();
    let text = serde_json::to_string(&bas::to_json(&t).unwrap()).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(bas::from_json(&back).unwrap().write().unwrap(), bytes);
    bas::fuzz_bas(&bytes);
}

/// Golden bytes of one entry: every field at its offset.
#[test]
fn entry_layout() {
    let s = bas::Sound {
        sound_id: 0x0009_002E,
        note_on: 24.0,
        note_off: 30.0,
        pitch: 1.0,
        flags: 0x48,
        volume: 0x7F,
        pitch_delta: -2,
        play_time: 3,
        pan: 0x40,
        volume_delta: -1,
        repeat_interval: 5,
        unknown_1a: 6,
        padding: [7, 8, 9, 10, 11],
    };
    let b = s.to_bytes();
    assert_eq!(
        b,
        [
            0x00, 0x09, 0x00, 0x2E, 0x41, 0xC0, 0, 0, 0x41, 0xF0, 0, 0, 0x3F, 0x80, 0, 0, 0, 0, 0,
            0x48, 0x7F, 0xFE, 3, 0x40, 0xFF, 5, 6, 7, 8, 9, 10, 11
        ]
    );
    assert_eq!(bas::Sound::from_bytes(&b), s);
    assert_eq!(
        s.flag_names(),
        [
            "plays only once",
            "sets a life time (sounds between note on and note off)"
        ]
    );
}

#[test]
fn start_index_walks_note_on_frames() {
    let t = bas::build::sample();
    assert_eq!(t.start_index(0.0), 0);
    assert_eq!(t.start_index(10.0), 1);
    assert_eq!(t.start_index(10.5), 2);
    assert_eq!(t.start_index(28.0), 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn model_round_trips(t in table()) {
        let bytes = t.write().unwrap();
        prop_assert_eq!(&bas::Bas::parse(&bytes).unwrap(), &t);
        let j = bas::to_json(&t).unwrap();
        prop_assert_eq!(&bas::from_json(&j).unwrap(), &t);
        bas::fuzz_bas(&bytes);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..200)) {
        bas::fuzz_bas(&data);
    }

    #[test]
    fn mutated_sample_never_panics(at in 0usize..200, byte in any::<u8>()) {
        let mut b = bas::build::sample().write().unwrap();
        let n = b.len();
        b[at % n] = byte;
        bas::fuzz_bas(&b);
    }
}
