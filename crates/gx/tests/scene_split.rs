#![cfg(feature = "export")]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! `Mesh::split`: parts within both bounds that draw the mesh's triangles, in order, with
//! each corner's attributes.

use gx::scene::Mesh;
use proptest::prelude::*;

/// One triangle corner's (position, uv, colour, skin).
type Corner = ([f32; 3], [f32; 2], [u8; 4], [(u16, f32); 4]);

/// Every corner of every triangle, `None` past the lists.
fn corners(m: &Mesh) -> Vec<Option<Corner>> {
    m.triangles
        .iter()
        .flatten()
        .map(|&i| {
            let i = i as usize;
            Some((
                *m.positions.get(i)?,
                *m.uvs[0].get(i)?,
                *m.colors[0].get(i)?,
                *m.skin.get(i)?,
            ))
        })
        .collect()
}

proptest! {
    #[test]
    fn parts_draw_the_mesh(
        n in 0usize..40,
        tris in prop::collection::vec((0u32..44, 0u32..44, 0u32..44), 0..60),
        max_vertices in 0usize..12,
        max_triangles in 0usize..8,
    ) {
        let mut m = Mesh::new("m");
        for k in 0..n {
            let f = k as f32;
            m.positions.push([f, 2.0 * f, 3.0 * f]);
            m.skin.push([(k as u16, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]);
        }
        m.uvs.push(m.positions.iter().map(|p| [p[0], p[1]]).collect());
        m.colors.push((0..n).map(|k| [k as u8; 4]).collect());
        m.triangles = tris.into_iter().map(|(a, b, c)| [a, b, c]).collect();
        m.material = Some(3);
        let parts = m.split(max_vertices, max_triangles);
        let whole = m.positions.len() <= max_vertices.max(3) && m.triangles.len() <= max_triangles.max(1);
        if whole {
            // The whole mesh, borrowed.
            prop_assert!(matches!(parts.as_slice(), [std::borrow::Cow::Borrowed(p)] if **p == m));
        }
        let mut drawn = Vec::new();
        for p in &parts {
            prop_assert!(p.triangles.len() <= max_triangles.max(1));
            let used: std::collections::BTreeSet<u32> = p.triangles.iter().flatten().copied().collect();
            if !whole {
                prop_assert!(used.len() <= max_vertices.max(3));
            }
            prop_assert_eq!(p.material, Some(3));
            prop_assert_eq!(p.uvs[0].len(), p.positions.len());
            drawn.extend(corners(p));
        }
        prop_assert_eq!(drawn, corners(&m));
    }
}
