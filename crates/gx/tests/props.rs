#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! Property tests: arbitrary display lists never panic; quantised values round-trip.

use gx::dl::{DisplayList, Opcode, PrimitiveBuf, VertexDesc, fuzz_display_list};
use gx::vtx::{Attr, AttrType, CompCount, CompType, VertexFormat};
use proptest::prelude::*;

proptest! {
    #[test]
    fn display_list_never_panics(data in proptest::collection::vec(any::<u8>(), 0..256)) {
        fuzz_display_list(&data);
    }

    #[test]
    fn primitives_round_trip(verts in proptest::collection::vec((any::<u8>(), any::<u16>()), 0..50), op in 0x80u8..0xC0) {
        let mut desc = VertexDesc::new();
        desc.push(Attr::PNMTXIDX, AttrType::DIRECT).unwrap();
        desc.push(Attr::POS, AttrType::INDEX16).unwrap();
        let mut b = PrimitiveBuf::new(Opcode(op));
        for (m, p) in &verts {
            b.push(&desc, &[u32::from(*m), u32::from(*p)]);
        }
        let mut w = gcio::Writer::new();
        b.write(&mut w, &desc).unwrap();
        let bytes = w.into_vec();
        let p = DisplayList::new(gcio::Reader::new(&bytes), &desc).next();
        let got = p.map(|p| p.unwrap().to_buf());
        prop_assert_eq!(got.unwrap_or_default().data, b.data);
    }

    #[test]
    fn quantised_values_round_trip(raw in proptest::collection::vec(any::<u8>(), 12), ty in 0u32..5, frac in 0u8..16) {
        let f = VertexFormat { attr: Attr::POS, count: CompCount::POS_XYZ, ty: CompType(ty), frac };
        let size = f.element_size().unwrap();
        let vals = f.decode(&raw[..size]).unwrap();
        let mut out = Vec::new();
        f.encode(vals.as_slice(), &mut out).unwrap();
        if ty == 4 {
            let back = f.decode(&out).unwrap();
            prop_assert!(back.as_slice().iter().zip(vals.as_slice()).all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())));
        } else {
            prop_assert_eq!(&out[..], &raw[..size]);
        }
    }

    #[test]
    fn colors_round_trip(raw in proptest::collection::vec(any::<u8>(), 4), ty in 0u32..6) {
        let f = VertexFormat { attr: Attr::CLR0, count: CompCount::CLR_RGBA, ty: CompType(ty), frac: 0 };
        let size = f.element_size().unwrap();
        let c = f.decode_color(&raw[..size]).unwrap();
        let mut out = Vec::new();
        f.encode_color(c, &mut out).unwrap();
        // RGBX8's unused byte is written as 0xFF.
        if ty != 2 { prop_assert_eq!(&out[..], &raw[..size]); }
        prop_assert_eq!(f.decode_color(&out).unwrap(), c);
    }
}
