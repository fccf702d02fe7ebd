//! HAL sysdolphin `.dat` archives (Pokémon Colosseum/XD, Super Smash Bros. Melee, Kirby Air Ride).
#![forbid(unsafe_code)]

pub mod bound_box;
pub mod build;
mod field;
mod flags;
mod graph;
pub mod image;
pub mod mesh;
mod model;
pub mod raw;
mod roots;
mod typed;
mod types;
mod validate;
mod view;
mod write;

pub use field::{Field, Rgba, Struct, Word};
pub use flags::{
    AObjFlags, JointFlags, LightFlags, PObjFlags, PObjKind, PeFlags, RObjFlags, RenderMode,
    TObjFlags,
};
pub use graph::{Graph, JointRef, Kind, Node, PObjRef};
pub use model::{Block, Dat, Extern, Loc, Pointer, Root, Slot, Target};
pub use roots::RootKind;
pub use types::*;
pub use validate::{MAX_PALETTE, POBJ_CRASH, POBJ_WARN, validate_bytes};
pub use view::{Archive, Extent, Symbol, parse};
