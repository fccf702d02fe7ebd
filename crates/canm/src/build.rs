//! Builders of valid animations for tests, samples and examples.

use crate::model::{Canm, Kind, Track};

/// A keyed (CKAN) animation of `frames` frames from per-track keys `(time, value, tangent)`;
/// a track of one key is a constant. Values are laid out in track order, followed by the two
/// floats (0.1, 1e9) and the `FF FF FF FF` trailer every real file has.
pub fn keyed(frames: u32, tracks: [Vec<[f32; 3]>; 8]) -> Canm {
    let mut values = Vec::new();
    let mut out = [Track {
        count: 0,
        offset: 0,
        layout: 0,
    }; 8];
    for (t, keys) in out.iter_mut().zip(&tracks) {
        t.count = keys.len() as u32;
        t.offset = values.len() as u32;
        if let [k] = keys.as_slice() {
            values.push(k[1]);
        } else {
            values.extend(keys.iter().flatten());
        }
    }
    values.extend([0.1, 1e9]);
    Canm {
        kind: Kind::Ckan,
        header: [1, 0, 1, 4],
        frames,
        tracks: out,
        gap: Vec::new(),
        values,
        trailer: vec![0xFF; 4],
    }
}

/// A small keyed sample: the camera moves along x from 0 to 100 over 60 frames and back,
/// looking at the origin, field of view 45°.
pub fn sample() -> Canm {
    let c = |v: f32| vec![[0.0, v, 0.0]];
    keyed(
        120,
        [
            vec![[0.0, 0.0, 0.0], [60.0, 100.0, 0.0], [120.0, 0.0, 0.0]],
            c(50.0),
            vec![[0.0, 500.0, -30.0], [120.0, 380.0, -30.0]],
            c(0.0),
            c(0.0),
            c(0.0),
            c(0.0),
            c(45.0),
        ],
    )
}

/// The sample as a per-frame (CANM) animation of 4 frames.
pub fn sample_frames() -> Canm {
    let mut values = vec![0.0, 10.0, 20.0, 40.0];
    let mut tracks = [Track {
        count: 1,
        offset: 0,
        layout: 0,
    }; 8];
    tracks[0].count = 4;
    for (i, t) in tracks.iter_mut().enumerate().skip(1) {
        t.offset = values.len() as u32;
        values.push(i as f32);
    }
    values.extend([0.1, 1e9]);
    Canm {
        kind: Kind::Canm,
        header: [1, 0, 1, 4],
        frames: 4,
        tracks,
        gap: Vec::new(),
        values,
        trailer: vec![0xFF; 4],
    }
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    [("keyed.canm", sample()), ("frames.canm", sample_frames())]
        .into_iter()
        .filter_map(|(n, c)| Some((n.to_owned(), c.write().ok()?)))
        .collect()
}
