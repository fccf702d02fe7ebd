//! Builders of valid containers for tests, samples and examples.

use gcio::F32;

use crate::model::{Block, ColorKey, Jpc, Part, Resource, Texture, Ty, Value, schema};

/// A block of `tag` whose head is every schema field at zero (floats 0.0) but the named
/// `(field, value)` pairs, followed by `parts`.
pub fn block(tag: &[u8; 4], set: &[(&str, Value)], parts: Vec<Part>) -> Block {
    let fields = schema(tag)
        .iter()
        .map(|(name, ty)| {
            set.iter()
                .find(|(n, _)| n == name)
                .map(|&(_, v)| v)
                .unwrap_or(match ty {
                    Ty::U8 => Value::U8(0),
                    Ty::I8 => Value::I8(0),
                    Ty::U16 => Value::U16(0),
                    Ty::I16 => Value::I16(0),
                    Ty::U32 => Value::U32(0),
                    Ty::F32 => Value::F32(F32::new(0.0)),
                })
        })
        .collect();
    Block {
        tag: *tag,
        fields,
        parts,
    }
}

fn f(v: f32) -> Value {
    Value::F32(F32::new(v))
}

/// An 8 × 8 I4 texture named `name` (a diagonal gradient).
pub fn texture(name: &str) -> Texture {
    let header = j3d_bmd::BtiHeader {
        format: 0,
        width: 8,
        height: 8,
        image_count: 1,
        ..j3d_bmd::BtiHeader::default()
    };
    let image: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(0x11)).collect();
    let mut field = name.as_bytes().to_vec();
    field.resize(crate::model::TEX1_NAME_SIZE, 0);
    let nul = name.len().min(field.len());
    let (n, rest) = field.split_at(nul);
    Texture {
        unknown_08: 0,
        name: n.to_vec(),
        name_rest: rest.to_vec(),
        bti: j3d_bmd::Bti::new(header, &image, None),
    }
}

/// A container of two effects and two textures: effect 0 a spark burst (BEM1, BSP1 with an
/// animated texture and a colour table, ESP1, a gravity FLD1, a rate KFA1 curve, TDB1 of two
/// textures); effect 1 a plain billboard (BEM1, BSP1, TDB1 of one).
pub fn sample() -> Jpc {
    let spark = Resource {
        id: 0,
        field_count: 1,
        key_count: 1,
        texture_count: 2,
        pad: 0,
        blocks: vec![
            block(
                b"BEM1",
                &[
                    ("flags", Value::U32(0x408)),
                    ("scale_x", f(1.0)),
                    ("scale_y", f(1.0)),
                    ("scale_z", f(1.0)),
                    ("direction_y", f(1.0)),
                    ("rate", f(4.0)),
                    ("max_frame", Value::I16(30)),
                    ("life_time", Value::I16(20)),
                ],
                Vec::new(),
            ),
            block(
                b"BSP1",
                &[
                    ("flags", Value::U32(0x2)),
                    ("color_prm_anim_offset", Value::U16(0x38)),
                    ("scale_2d_x", f(1.0)),
                    ("scale_2d_y", f(1.0)),
                    ("tex_flags", Value::U8(1)),
                    ("tex_anim_count", Value::U8(2)),
                    ("color_flags", Value::U8(2)),
                    ("color_prm_anim_count", Value::U8(2)),
                    ("color_anim_max_frame", Value::U16(20)),
                    ("color_prm", Value::U32(0xFFFF_FFFF)),
                    ("color_env", Value::U32(0x8080_80FF)),
                ],
                vec![
                    Part::U8s(vec![0, 1]),
                    Part::Pad(vec![0, 0]),
                    Part::Colors(vec![
                        ColorKey {
                            frame: 0,
                            rgba: 0xFFFF_00FF,
                        },
                        ColorKey {
                            frame: 20,
                            rgba: 0xFF00_00FF,
                        },
                    ]),
                    Part::Pad(vec![0, 0, 0, 0]),
                ],
            ),
            block(
                b"ESP1",
                &[("scale_in_x", f(1.0)), ("alpha_base", f(1.0))],
                Vec::new(),
            ),
            block(
                b"FLD1",
                &[("direction_y", f(-1.0)), ("param_1", f(0.5))],
                Vec::new(),
            ),
            block(
                b"KFA1",
                &[("key_count", Value::U8(2))],
                vec![Part::F32s(
                    [0.0, 4.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0.0]
                        .map(F32::new)
                        .to_vec(),
                )],
            ),
            block(b"TDB1", &[], vec![Part::U16s(vec![0, 1])]),
        ],
    };
    let plain = Resource {
        id: 1,
        field_count: 0,
        key_count: 0,
        texture_count: 1,
        pad: 0,
        blocks: vec![
            block(b"BEM1", &[("rate", f(1.0))], Vec::new()),
            block(b"BSP1", &[("flags", Value::U32(0x2))], Vec::new()),
            block(
                b"TDB1",
                &[],
                vec![Part::U16s(vec![1]), Part::Pad(vec![0, 0])],
            ),
        ],
    };
    let mut jpc = Jpc {
        resources: vec![spark, plain],
        gap: Vec::new(),
        textures: vec![texture("spark_i4"), texture("glow_i4")],
        trailer: Vec::new(),
    };
    // The texture table starts on a 32-byte boundary, as in the game's files.
    let end = 0x10 + jpc.resources.iter().map(Resource::size).sum::<usize>();
    jpc.gap = vec![0; end.next_multiple_of(32) - end];
    jpc
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    sample()
        .write()
        .ok()
        .map(|b| ("sparks.jpc".to_owned(), b))
        .into_iter()
        .collect()
}
