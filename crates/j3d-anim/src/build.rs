//! Builders: small valid files of every kind, laid out the way Nintendo's tools lay them out
//! (tables after a 32-aligned header, 4-aligned tables — 32 in ANK1/ANF1/CLK1/CLF1 — chunk end
//! on 32).
//! Tests, the bench and `gcf`'s samples use them.

use crate::model::{Anim, Data, FullTrack, KeyTrack, Names, Pattern, TevColor};
use crate::schema::{Kind, SCHEMAS};

fn names(list: &[&str]) -> Data {
    Data::Names(Names::of(list.iter().map(|n| n.as_bytes())))
}

const fn k(count: u16, index: u16, tangent: u16) -> KeyTrack {
    KeyTrack {
        count,
        index,
        tangent,
    }
}

/// Two joints: joint 0 moves X from 0 to 10 over frames 0–10 in a straight line (slope 1) and
/// turns Y by 90° (decimal 1: 8192 units); joint 1 is the identity. Scale 1 is shared by all.
pub fn sample_bck_model() -> Anim {
    let one = k(1, 0, 0);
    let zero_r = k(1, 0, 0);
    let zero_t = k(1, 0, 0);
    let j0 = [
        one,
        zero_r,
        k(2, 1, 0),
        one,
        k(1, 1, 0),
        zero_t,
        one,
        zero_r,
        zero_t,
    ];
    let j1 = [
        one, zero_r, zero_t, one, zero_r, zero_t, one, zero_r, zero_t,
    ];
    Anim::with_tool_layout(
        Kind::Bck,
        &[("loop_mode", 2), ("rotation_decimal", 1), ("duration", 10)],
        vec![
            Data::KeySrt(vec![j0, j1]),
            Data::F32(vec![1.0]),
            Data::I16(vec![0, 8192]),
            Data::F32(vec![0.0, 0.0, 0.0, 1.0, 10.0, 10.0, 1.0]),
        ],
    )
}

/// [`sample_bck_model`] as bytes.
pub fn sample_bck() -> Vec<u8> {
    sample_bck_model().write().unwrap_or_default()
}

/// A small valid model of each kind.
pub fn sample(kind: Kind) -> Anim {
    let head = [
        ("loop_mode", 0),
        ("rotation_decimal", 0xFF),
        ("duration", 4),
    ];
    match kind {
        Kind::Bck => sample_bck_model(),
        Kind::Bca => {
            let c = FullTrack { count: 1, index: 0 };
            let moving = FullTrack { count: 4, index: 1 };
            Anim::with_tool_layout(
                Kind::Bca,
                &[("loop_mode", 2), ("rotation_decimal", 1), ("duration", 4)],
                vec![
                    Data::FullSrt(vec![[c, c, moving, c, c, c, c, c, c]]),
                    Data::F32(vec![1.0]),
                    Data::I16(vec![0]),
                    Data::F32(vec![0.0, 0.0, 1.0, 2.0, 3.0]),
                ],
            )
        }
        Kind::Btk => {
            let c = k(1, 0, 0);
            Anim::with_tool_layout(
                Kind::Btk,
                &[
                    ("loop_mode", 2),
                    ("rotation_decimal", 0),
                    ("duration", 60),
                    ("tex_mtx_calc", 1),
                ],
                vec![
                    Data::KeySrt(vec![[c, c, k(2, 0, 1), c, c, c, c, c, c]]),
                    Data::U16(vec![0]),
                    names(&["water"]),
                    Data::U8(vec![0]),
                    Data::Vec3(vec![[0.5, 0.5, 0.5]]),
                    Data::F32(vec![1.0]),
                    Data::I16(vec![0]),
                    Data::F32(vec![0.0, 0.0, 0.0, 0.0, 60.0, 1.0, 0.0, 0.0]),
                ],
            )
        }
        Kind::Brk => {
            let e = TevColor {
                tracks: [k(2, 0, 0), k(1, 0, 0), k(1, 0, 0), k(1, 0, 0)],
                id: 1,
                fill: [0xFF; 3],
            };
            Anim::with_tool_layout(
                Kind::Brk,
                &head,
                vec![
                    Data::TevColor(vec![e]),
                    Data::TevColor(Vec::new()),
                    Data::U16(vec![0]),
                    Data::U16(Vec::new()),
                    names(&["mat"]),
                    names(&[]),
                    Data::I16(vec![0, 0, 0, 4, 255, 0]),
                    Data::I16(vec![0]),
                    Data::I16(vec![0]),
                    Data::I16(vec![255]),
                    Data::I16(Vec::new()),
                    Data::I16(Vec::new()),
                    Data::I16(Vec::new()),
                    Data::I16(Vec::new()),
                ],
            )
        }
        Kind::Bpk => Anim::with_tool_layout(
            Kind::Bpk,
            &[
                ("loop_mode", 0),
                ("fill_9", 0xFF),
                ("fill_a", 0xFFFF),
                ("duration", 4),
            ],
            vec![
                Data::KeyColor(vec![[k(1, 0, 0), k(1, 0, 0), k(1, 0, 0), k(1, 0, 0)]]),
                Data::U16(vec![0]),
                names(&["mat"]),
                Data::I16(vec![255]),
                Data::I16(vec![128]),
                Data::I16(vec![0]),
                Data::I16(vec![255]),
            ],
        ),
        Kind::Btp => Anim::with_tool_layout(
            Kind::Btp,
            &head,
            vec![
                Data::Pattern(vec![Pattern {
                    track: FullTrack { count: 2, index: 0 },
                    tex_map: 0,
                    fill: [0xFF; 3],
                }]),
                Data::U16(vec![1, 2]),
                Data::U16(vec![0]),
                names(&["mat"]),
            ],
        ),
        Kind::Bva => Anim::with_tool_layout(
            Kind::Bva,
            &head,
            vec![
                Data::Full(vec![
                    FullTrack { count: 1, index: 0 },
                    FullTrack { count: 3, index: 1 },
                ]),
                Data::U8(vec![1, 0, 1, 0]),
            ],
        ),
        Kind::Blk => Anim::with_tool_layout(
            Kind::Blk,
            &[
                ("loop_mode", 2),
                ("fill_9", 0),
                ("duration", 10),
                ("field_c", 1),
            ],
            vec![
                Data::Key(vec![k(2, 0, 0), k(1, 6, 0)]),
                Data::F32(vec![0.0, 0.0, 0.0, 10.0, 1.0, 0.0, 0.5]),
            ],
        ),
        Kind::Bla => Anim::with_tool_layout(
            Kind::Bla,
            &[
                ("loop_mode", 0),
                ("fill_9", 0xFF),
                ("duration", 4),
                ("field_c", 1),
            ],
            vec![
                Data::Full(vec![
                    FullTrack { count: 4, index: 0 },
                    FullTrack { count: 1, index: 3 },
                ]),
                Data::F32(vec![0.0, 0.25, 0.5, 1.0]),
            ],
        ),
    }
}

/// Sample files for `gcf`'s `samples/` (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    SCHEMAS
        .iter()
        .filter_map(|s| Some((format!("sample.{}", s.ext), sample(s.kind).write().ok()?)))
        .collect()
}
