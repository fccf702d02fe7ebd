#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Generated samples round-trip and validate clean; broken variants fire exactly their rules.

use hsd_dat::build::{XdOptions, melee_joint, mextk_minimal, xd_model};
use hsd_dat::{Dat, parse};

fn rules(bytes: &[u8]) -> Vec<String> {
    let mut r: Vec<String> = hsd_dat::validate_view(&parse(bytes).unwrap())
        .into_iter()
        .filter(|d| d.severity > gcio::Severity::Info)
        .map(|d| {
            eprintln!("{d}");
            d.rule
        })
        .collect();
    r.sort();
    r.dedup();
    r
}

fn roundtrip(bytes: &[u8]) {
    let dat = Dat::parse(bytes).unwrap();
    assert_eq!(dat.write().unwrap(), bytes);
}

#[test]
fn valid_samples_roundtrip_and_validate_clean() {
    for bytes in [
        mextk_minimal().write().unwrap(),
        xd_model(XdOptions::default()).unwrap().write().unwrap(),
        melee_joint().unwrap().write().unwrap(),
    ] {
        roundtrip(&bytes);
        assert_eq!(rules(&bytes), Vec::<String>::new());
        assert!(parse(&bytes).unwrap().graph().errors.is_empty());
    }
}

#[test]
fn mextk_shape() {
    let bytes = mextk_minimal().write().unwrap();
    let a = parse(&bytes).unwrap();
    assert_eq!(a.relocations().collect::<Vec<_>>(), [0xC, 0, 4]);
    assert_eq!(a.roots().next().unwrap().name, b"mySymbol");
    assert_eq!(*bytes.last().unwrap(), 0, "ends at the symbol's NUL");
    assert_eq!(a.header().file_size.get() as usize, bytes.len());
}

#[test]
fn broken_variants_fire_exactly_their_rules() {
    let cases = [
        (
            XdOptions {
                extra_palette_slots: 8,
                ..XdOptions::default()
            },
            "HSD-008",
        ),
        (
            XdOptions {
                pnmtxidx_override: Some(4),
                ..XdOptions::default()
            },
            "HSD-009",
        ),
        (
            XdOptions {
                weight_mesh_owner: true,
                ..XdOptions::default()
            },
            "HSD-020",
        ),
        (
            XdOptions {
                trailing_padding: 0x20,
                ..XdOptions::default()
            },
            "HSD-001",
        ),
    ];
    for (o, rule) in cases {
        let bytes = xd_model(o).unwrap().write().unwrap();
        roundtrip(&bytes);
        assert_eq!(rules(&bytes), [rule], "{o:?}");
    }
}

#[test]
fn xd_model_graph_and_mesh() {
    let bytes = xd_model(XdOptions::default()).unwrap().write().unwrap();
    let a = parse(&bytes).unwrap();
    let g = a.graph();
    assert_eq!(g.joints.len(), 4);
    assert_eq!(g.pobjs.len(), 1);
    assert_eq!(g.images.len(), 2);
    assert_eq!(g.palettes.len(), 1);
    let tex = a.textures(&g);
    assert_eq!(tex.len(), 2);
    let i8 = a.decode_texture(&tex[0]).unwrap();
    assert_eq!((i8.width(), i8.height()), (8, 8));
    assert_eq!(i8.pixel(1, 0), Some([37, 37, 37, 37]));
    let c4 = a.decode_texture(&tex[1]).unwrap();
    // Pixel (0, 0) is index 0 → RGB5A3 0x8000 (opaque black); (1, 0) is index 15 → 0xFBDE.
    assert_eq!(c4.pixel(0, 0), Some([0, 0, 0, 255]));
    assert_eq!(c4.pixel(1, 0).map(|p| p[3]), Some(255));
    assert_eq!(g.lights.len(), 4);
    let m = a.mesh(&g, &g.pobjs[0]).unwrap();
    assert_eq!(m.vertices.len(), 6);
    assert_eq!(m.triangles.len(), 4);
    assert_eq!(m.palette.len(), 3);
    assert_eq!(m.vertices[2].position, [-1.0, 1.0, 0.0]);
    assert_eq!(m.vertices[3].uvs[0], Some([1.0, 0.5]));
    let world = a.world_matrices(&g);
    let ibm = a.inverse_binds(&g);
    let p = m.world_positions(&g, &world, &ibm);
    // Slot 0 is bone A at weight 1.0 with no coord: world only (the IBM short-circuit), so the
    // vertex moves by A's bind translation (0, 1, 0).
    assert_eq!(p[0], [-1.0, 1.0, 0.0]);
    // Slot 1 blends A and B (each world · IBM = identity at rest): unchanged.
    assert_eq!(p[2], [-1.0, 1.0, 0.0]);
    let obj = hsd_dat::export::to_obj(&a).unwrap();
    assert!(obj.contains("f 1/1/1 2/2/2 3/3/3"), "{obj}");
}
