//! J3D models (BMD/BDL, and BMT material files) from Super Mario Galaxy 1/2, Sunshine, Wind Waker
//! and Twilight Princess: read, validate, edit and write them byte for byte.
//!
//! Layers:
//! - [`parse`] gives a zero-copy [`BmdView`]: the header, the chunk list and typed views of INF1,
//!   VTX1, EVP1, DRW1, JNT1 and SHP1 ([`Inf1View`], …), from which [`geometry`] decodes triangles
//!   with attributes and resolved skinning, and [`skeleton`] the joint matrices; [`bounds`]
//!   places each vertex in the space of the joints that move it (joint radius and AABB).
//! - [`Bmd`] is the owned model; each typed chunk has an owned form ([`Inf1`], [`Vtx1`], …,
//!   [`Mat3`]) with a writer that recomputes offsets, counts and padding. MAT3 keeps its value
//!   tables verbatim and resolves them into [`Material`]s; [`Mat3::from_materials`] deduplicates
//!   edited materials the way Nintendo's tools do. Chunks without a typed form (MAT2)
//!   or in a layout the writers do not reproduce stay [`RawChunk`]s, so every file round-trips.
//! - [`Tex1`] / [`Bti`] keep texture headers and shared image data; [`TextureSet::decode`] and
//!   [`Bti::encode`] go through `gx::tex`. [`Mdl3`] decodes packets into BP/XF commands and
//!   regenerates them from materials; after a MAT3 or TEX1 edit, [`Bmd::sync_mdl3`] patches the
//!   register values a BDL's packets derive from them (the game draws a BDL from MDL3, not MAT3),
//!   changing no other byte. [`to_scene`] builds the shared export scene
//!   (`gx::scene`), which [`to_glb`] writes as glTF 2.0 and [`to_obj`] as Wavefront OBJ.
//! - [`validate()`] reports the `J3D-*` rules catalogued in the repository's `docs/rules/j3d.md`.
//! - [`build`] makes Nintendo-looking sample models.
//! - [`BmdFormat`] and [`BtiFormat`] are the crate's contracts with a registry
//!   ([`gcio::FileFormat`]): the `gcformats` facade lists both through them.
//!
//! ```
//! use j3d_bmd::{build, parse, Bmd};
//!
//! let bytes = build::skinned_bmd().write().unwrap();
//! let view = parse(&bytes).unwrap();
//! let mesh = j3d_bmd::geometry(&view).unwrap();
//! assert!(mesh.triangle_count() > 0);
//! assert_eq!(Bmd::parse(&bytes).unwrap().write().unwrap(), bytes);
//! assert!(j3d_bmd::validate(&bytes).iter().all(|d| d.severity != gcio::Severity::Error));
//!
//! // Materials: resolve, edit, re-deduplicate; textures decode through gx::tex; glTF export.
//! let mut model = Bmd::parse(&bytes).unwrap();
//! let mat3 = model.mat3_mut().unwrap();
//! let mut materials = mat3.materials();
//! materials[0].konst_colors[0] = Some([255, 0, 0, 255]);
//! mat3.set_materials(&materials).unwrap();
//! assert_eq!(model.mat3().unwrap().materials(), materials);
//! let levels = model.tex1().unwrap().set.decode(0).unwrap();
//! assert_eq!(levels[0].width(), 32);
//! let glb = j3d_bmd::to_glb(&view).unwrap();
//! assert_eq!(&glb[..4], b"glTF");
//! ```
#![forbid(unsafe_code)]

pub mod bounds;
pub mod build;
mod chunk;
pub mod drw1;
pub mod evp1;
#[cfg(feature = "json")]
pub mod extras;
mod file;
mod format;
mod fuzz;
mod geometry;
#[cfg(feature = "import")]
pub mod import;
pub mod inf1;
pub mod jnt1;
pub mod mat3;
pub mod mdl3;
mod nametab;
mod pad;
pub mod raw;
mod record;
#[cfg(feature = "export")]
mod scene;
pub mod shp1;
pub mod tex1;
mod validate;
pub mod vtx1;

pub use bounds::{Bounds, JointVertex, fit_joint_bounds, joint_vertices};
pub use chunk::CHUNK_ALIGN;
pub use drw1::{Drw1, Drw1View, DrwEntry, DrwKind};
pub use evp1::{Envelope, Evp1, Evp1View, Mtx34};
pub use file::{
    Bmd, BmdView, Chunk, ChunkView, MAGIC_BDL4, MAGIC_BMD2, MAGIC_BMD3, MAGIC_BMT3, RawChunk,
    SVR3_TAG, parse, parse_with,
};
pub use format::{BmdFormat, BtiFormat};
#[cfg(feature = "import")]
pub use fuzz::fuzz_import;
#[cfg(feature = "export")]
pub use fuzz::fuzz_png_bti;
pub use fuzz::{fuzz_bmd, fuzz_bti, fuzz_mat3};
pub use geometry::{Mesh, MeshShape, MeshVertex, Skeleton, geometry, skeleton};
/// The GX vertex and display-list types this crate's API uses.
pub use gx;
pub use inf1::{Inf1, Inf1View, LoaderFlags, Node, NodeKind, SceneNode};
pub use jnt1::{Jnt1, Jnt1View, Joint};
pub use mat3::{Mat3, Mat3View, Material, MaterialEntry};
pub use mdl3::{Command, Mdl3, Packet};
pub use nametab::{NameEntry, NameTable, name_hash};
pub use pad::{NINTENDO_PAD, Pad, SUPERBMD_PAD};
pub use record::Record;
#[cfg(feature = "export")]
pub use scene::{to_glb, to_obj, to_scene};
pub use shp1::{GroupPrims, IndexAttr, MatrixData, Shape, ShapeMatrixType, Shp1, Shp1View, Tail};
pub use tex1::{Bti, BtiHeader, Segment, Tex1, Texture, TextureSet, loses_colour};
pub use validate::{validate, validate_bti, validate_view, validate_with};
pub use vtx1::{AttrFormat, Buffer, Vtx1, Vtx1View};

/// Recognises a J3D model or material file (magic `J3D2bdl`, `J3D2bmd` or `J3D2bmt`); every
/// format crate has this `detect` (the registry in the `gcformats` facade calls it).
pub fn detect(data: &[u8]) -> Option<gcio::Confidence> {
    matches!(data.get(..7), Some(b"J3D2bdl" | b"J3D2bmd" | b"J3D2bmt"))
        .then_some(gcio::Confidence::Strong)
}

/// Recognises a standalone BTI texture: no magic, so at best [`gcio::Confidence::Weak`] (a
/// registry claims it only for a `.bti` name) when the header parses with a non-empty size and
/// the first image fits.
pub fn detect_bti(data: &[u8]) -> Option<gcio::Confidence> {
    // The header alone first: a registry asks this of every file it has not claimed, and the
    // parse below copies the data. No size or no known format can never give an image.
    let r = gcio::Reader::new(data);
    let h = record::read_vec::<BtiHeader>(&r, 0, 1, &gcio::Limits::default()).ok()?;
    let h = h.first()?;
    if h.width == 0 || h.height == 0 || h.image_size().is_none() {
        return None;
    }
    let b = Bti::parse(data).ok()?;
    let h = b.header()?;
    (h.width > 0 && h.height > 0 && b.set.image(0).is_some()).then_some(gcio::Confidence::Weak)
}
