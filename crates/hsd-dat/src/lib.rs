//! HAL sysdolphin `.dat` archives (Pokémon Colosseum/XD, Super Smash Bros. Melee, Kirby Air Ride).
#![forbid(unsafe_code)]

mod field;
mod flags;
mod model;
pub mod raw;
mod roots;
mod typed;
mod types;
mod view;
mod write;

pub use field::{Field, Rgba, Struct, Word};
pub use flags::{
    AObjFlags, JointFlags, LightFlags, PObjFlags, PObjKind, PeFlags, RObjFlags, RenderMode,
    TObjFlags,
};
pub use model::{Block, Dat, Extern, Loc, Pointer, Root, Slot, Target};
pub use roots::RootKind;
pub use types::*;
pub use view::{Archive, Extent, Symbol, parse};
