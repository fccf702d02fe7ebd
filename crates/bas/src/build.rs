//! Builders of valid tables for tests, samples and examples.

use crate::model::{Bas, Sound};

/// A table of the given sounds, each started at `(frame, sound id)` with the defaults of
/// [`Sound::default`] and no end (note off = note on), as the real files store one-shot sounds.
pub fn one_shots(sounds: &[(f32, u32)]) -> Bas {
    Bas {
        sounds: sounds
            .iter()
            .map(|&(frame, sound_id)| Sound {
                sound_id,
                note_on: frame,
                note_off: frame,
                ..Sound::default()
            })
            .collect(),
        ..Bas::default()
    }
}

/// A walk cycle's footsteps at frames 7.5 and 27.5, and a looped sound between frames 10 and 20
/// that lives only while the animation is in that range, played every second loop.
pub fn sample() -> Bas {
    let mut b = one_shots(&[(7.5, 0x0009_0008), (10.0, 0x0009_0100), (27.5, 0x0009_0009)]);
    if let Some(s) = b.sounds.get_mut(1) {
        s.note_off = 20.0;
        s.flags = 0x40 | 0x80;
        s.repeat_interval = 2;
        s.pitch_delta = -4;
        s.volume_delta = 3;
        s.pan = 32;
    }
    b
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    sample()
        .write()
        .ok()
        .map(|b| ("walk.bas".to_owned(), b))
        .into_iter()
        .collect()
}
