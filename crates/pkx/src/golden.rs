//! Golden tables: (value, bytes) pairs that drive the read tests, the write tests and the bench.

use crate::model::{PartAnim, Shiny, SubAnim, Timing};
use crate::view::Game;

/// Sub-animation references and their 8 stored bytes.
pub const SUB_ANIMS: &[(SubAnim, [u8; 8])] = &[
    (
        SubAnim {
            motion_type: 2,
            anim_index: 0,
        },
        [0, 0, 0, 2, 0, 0, 0, 0],
    ),
    (
        SubAnim {
            motion_type: 1,
            anim_index: 11,
        },
        [0, 0, 0, 1, 0, 0, 0, 0x0B],
    ),
    (
        SubAnim {
            motion_type: 0,
            anim_index: 0x0102,
        },
        [0, 0, 0, 0, 0, 0, 1, 2],
    ),
];

/// Timings in each game's unit and their 16 stored bytes.
pub const TIMINGS: &[(Game, Timing, [u8; 16])] = &[
    (
        Game::Xd,
        Timing::Seconds([2.0, 0.5, 0.0, -1.0]),
        [0x40, 0, 0, 0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xBF, 0x80, 0, 0],
    ),
    (
        Game::Colosseum,
        Timing::Frames([140, 78, 0x0100, 0]),
        [0, 0, 0, 0x8C, 0, 0, 0, 0x4E, 0, 0, 1, 0, 0, 0, 0, 0],
    ),
];

/// XD PartAnimData blocks and their 19 stored bytes.
pub const PART_ANIMS: &[(PartAnim, [u8; 19])] = &[
    (
        PartAnim::NONE,
        [
            0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xFF, 0xFF, 0xFF, 0,
        ],
    ),
    (
        PartAnim {
            has_data: 2,
            sub_param: 2,
            parts: [13, 14, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            selectors: [1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            anim_index: 9,
        },
        [
            2, 2, 13, 14, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xFF, 9,
        ],
    ),
];

/// Shiny filters and their 20-byte Colosseum trailer (brightness packed ARGB).
pub const COLOSSEUM_SHINY: &[(Shiny, [u8; 20])] = &[
    (
        Shiny {
            route: [0, 2, 1, 3],
            brightness: [0xAF, 0x7F, 0x5F, 0xFF],
        },
        [
            0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0xFF, 0xAF, 0x7F, 0x5F,
        ],
    ),
    (
        Shiny::IDENTITY,
        [
            0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0xFF, 0x7F, 0x7F, 0x7F,
        ],
    ),
];
