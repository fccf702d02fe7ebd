//! Builders of valid animations for tests, samples and examples.

use brlyt::Name;
use brlyt::frame::Frame;
use gcio::F32;

use crate::model::*;

/// Hermite keys from (frame, value, slope) triples.
pub fn hermite(keys: &[[f32; 3]]) -> Keys {
    Keys::Hermite(
        keys.iter()
            .map(|&[frame, value, slope]| HermiteKey {
                frame: F32::new(frame),
                value: F32::new(value),
                slope: F32::new(slope),
            })
            .collect(),
    )
}

/// Step keys from (frame, value) pairs.
pub fn step(keys: &[(f32, u16)]) -> Keys {
    Keys::Step(
        keys.iter()
            .map(|&(frame, value)| StepKey {
                frame: F32::new(frame),
                value,
                pad: 0,
            })
            .collect(),
    )
}

/// A target `target` of map/matrix `id` with `keys`.
pub fn target(id: u8, target: u8, keys: Keys) -> Target {
    Target {
        id,
        target,
        pad: 0,
        pad2: [0; 2],
        keys,
    }
}

/// An animation entry of `tag` with `targets`.
pub fn info(tag: &str, targets: Vec<Target>) -> Info {
    Info {
        tag: tag.into(),
        pad: [0; 3],
        targets,
    }
}

/// A 60-frame animation of the `brlyt` sample: the picture `Pic` moves right and fades out,
/// the text `Txt` blinks, the material `PicMat` switches textures and shifts its texture.
pub fn sample() -> Brlan {
    let content = |name: &str, kind: u8, infos: Vec<Info>| Content {
        name: name.into(),
        kind,
        pad: [0; 2],
        infos,
    };
    Brlan {
        frame: Frame {
            version: 0x000A,
            ..Frame::default()
        },
        sections: vec![
            Section::Tag(Tag {
                order: 1,
                name: "Appear".into(),
                name_field: None,
                start: 0,
                end: 59,
                flags: 1,
                pad: [0; 3],
                groups: vec![GroupRef {
                    name: "RootGroup".into(),
                    flags: 0,
                    pad: [0; 3],
                }],
            }),
            Section::Anim(Anim {
                frame_size: 60,
                looped: 0,
                pad: 0,
                files: vec![Name::from("Sample.tpl"), Name::from("Other.tpl")],
                contents: vec![
                    content(
                        "Pic",
                        0,
                        vec![
                            info(
                                "RLPA",
                                vec![target(
                                    0,
                                    0,
                                    hermite(&[[0.0, -100.0, 0.0], [30.0, 100.0, 0.0]]),
                                )],
                            ),
                            info(
                                "RLVC",
                                vec![target(
                                    0,
                                    16,
                                    hermite(&[[0.0, 255.0, 0.0], [59.0, 0.0, -4.0]]),
                                )],
                            ),
                        ],
                    ),
                    content(
                        "Txt",
                        0,
                        vec![info(
                            "RLVI",
                            vec![target(0, 0, step(&[(0.0, 1), (30.0, 0), (45.0, 1)]))],
                        )],
                    ),
                    content(
                        "PicMat",
                        1,
                        vec![
                            info("RLTP", vec![target(0, 0, step(&[(0.0, 0), (20.0, 1)]))]),
                            info(
                                "RLTS",
                                vec![target(0, 0, hermite(&[[0.0, 0.0, 0.1], [59.0, 5.9, 0.1]]))],
                            ),
                            info(
                                "RLMC",
                                vec![target(
                                    0,
                                    3,
                                    hermite(&[[0.0, 255.0, 0.0], [59.0, 128.0, 0.0]]),
                                )],
                            ),
                        ],
                    ),
                ],
            }),
        ],
    }
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    [("sample.brlan", sample())]
        .into_iter()
        .filter_map(|(n, a)| Some((n.to_owned(), a.write().ok()?)))
        .collect()
}
