//! GX (the GameCube/Wii graphics processor) data shared by the model formats.
//!
//! Module plan, filled in by the J3D and HSD issues so both formats share one implementation:
//! - `curve`: cubic Hermite key curves as J3D and HSD animations evaluate them, and the key fitter
//!   their importers share;
//! - `vtx`: vertex attributes (`GXAttr`), component counts and types (`GXCompCnt`, `GXCompType`),
//!   fraction shifts and dequantisation to `f32`/RGBA, and the inverse for writing;
//! - `dl`: display lists — primitive opcodes (quads, triangles, strips, fans, lines, points), parsing
//!   them given a vertex descriptor (direct/index8/index16 per attribute), PNMTXIDX handling, and
//!   strip/fan expansion to triangles;
//! - `mtx`: 3×4 affine matrices (product, point transform, inverse, `T·Rz·Ry·Rx·S` joint matrices
//!   and their decomposition back to scale, Euler angles and translation) shared by J3D skeletons
//!   and HSD joints;
//! - `tex`: texture formats (I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8, C4, C8, C14X2, CMPR) with
//!   palettes, block tiling, mip levels, decode to RGBA8 and encode back (exact for the lossless
//!   formats; a fitting CMPR encoder; palettes by quantisation).
//! - `strip`: triangle lists to GX triangle strips (model import), winding kept as GX decodes it;
//! - `png` and `scene` (feature `export`): the PNG codec and the format-neutral model scene with its
//!   glTF 2.0 binary and OBJ + MTL writers, which the J3D and sysdolphin exporters both build on.
//!   Feature `import` adds `Scene::from_glb`, the glTF reader model importers start from.
//!
//! ```
//! use gx::dl::{DisplayList, Opcode, VertexDesc};
//! use gx::vtx::{Attr, AttrType};
//!
//! let mut desc = VertexDesc::new();
//! desc.push(Attr::POS, AttrType::INDEX16).unwrap();
//! let list = [0x98, 0, 4, 0, 0, 0, 1, 0, 2, 0, 3, 0];
//! let prims: Vec<_> = DisplayList::new(gcio::Reader::new(&list), &desc).collect::<Result<_, _>>().unwrap();
//! assert_eq!(prims[0].opcode(), Opcode::TRIANGLE_STRIP);
//! assert_eq!(prims[0].triangles().collect::<Vec<_>>(), [[0, 1, 2], [2, 1, 3]]);
//! ```
#![forbid(unsafe_code)]

#[cfg(feature = "export")]
pub mod compare;
pub mod curve;
pub mod dl;
#[cfg(feature = "import")]
pub mod jpeg;
pub mod mtx;
#[cfg(feature = "export")]
pub mod png;
#[cfg(feature = "export")]
pub mod scene;
pub mod strip;
pub mod tex;
pub mod vtx;
