#![allow(clippy::unwrap_used, clippy::indexing_slicing, missing_docs)]
//! The stripifier: winding and multiset of triangles kept, vertex limits, speed on a big grid,
//! and the measurement against Nintendo's display lists in the corpus's J3D models.

use std::collections::HashMap;

use gx::dl::{DisplayList, Opcode, VertexDesc};
use gx::strip::{MAX_VERTICES, Primitive, Strips, stripify, stripify_with};
use proptest::prelude::*;

/// A triangle rotated to start at its smallest index: the same triangle, winding kept.
fn norm([a, b, c]: [u32; 3]) -> [u32; 3] {
    if a <= b && a <= c {
        [a, b, c]
    } else if b <= a && b <= c {
        [b, c, a]
    } else {
        [c, a, b]
    }
}

fn sorted(tris: impl IntoIterator<Item = [u32; 3]>) -> Vec<[u32; 3]> {
    let mut v: Vec<_> = tris.into_iter().map(norm).collect();
    v.sort_unstable();
    v
}

/// Checks `s` against its input: same triangles as a multiset, valid commands within `max`.
fn check(input: &[[u32; 3]], s: &Strips, max: usize) {
    let kept: Vec<_> = input
        .iter()
        .copied()
        .filter(|&[a, b, c]| a != b && b != c && a != c)
        .collect();
    assert_eq!(s.degenerate, input.len() - kept.len());
    let got = s.primitives.iter().flat_map(Primitive::triangles);
    assert_eq!(sorted(got), sorted(kept));
    for p in &s.primitives {
        assert!(p.op == Opcode::TRIANGLE_STRIP || p.op == Opcode::TRIANGLES);
        assert!(p.op.count_fits(p.indices.len()) && !p.indices.is_empty());
        assert!(p.indices.len() <= max, "{} > {max}", p.indices.len());
    }
    // Lone triangles share as few triangle lists as the limit allows.
    let lists: Vec<_> = s
        .primitives
        .iter()
        .filter(|p| p.op == Opcode::TRIANGLES)
        .collect();
    let listed: usize = lists.iter().map(|p| p.indices.len()).sum();
    assert_eq!(lists.len(), listed.div_ceil(max / 3 * 3));
}

/// A `w` × `h` grid of quads, two triangles each, all wound the same way.
fn grid(w: u32, h: u32) -> Vec<[u32; 3]> {
    let at = |x: u32, y: u32| y * (w + 1) + x;
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .flat_map(|(x, y)| {
            [
                [at(x, y), at(x, y + 1), at(x + 1, y)],
                [at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)],
            ]
        })
        .collect()
}

#[test]
fn small_cases() {
    assert!(stripify(&[]).is_empty());
    let s = stripify_with(&[[1, 1, 2], [3, 4, 3]], MAX_VERTICES);
    assert_eq!((s.primitives.len(), s.degenerate), (0, 2));
    // A lone triangle goes into the triangle list, in its own rotation.
    let p = stripify(&[[5, 6, 7]]);
    assert_eq!(
        p,
        [Primitive {
            op: Opcode::TRIANGLES,
            indices: vec![5, 6, 7]
        }]
    );
    // A fan of 4 consistently wound triangles around 0 (a closed one would strip in one go).
    let fan = [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]];
    check(&fan, &stripify_with(&fan, MAX_VERTICES), MAX_VERTICES);
    // Opposite windings never share a strip edge: two separate triangles.
    let flipped = [[0, 1, 2], [1, 2, 3]];
    let p = stripify(&flipped);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].indices.len(), 6);
    // One row of quads is one strip: 2 + 2 per quad vertices.
    let row = grid(10, 1);
    let p = stripify(&row);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].indices.len(), 22);
}

#[test]
fn long_strips_split_at_the_vertex_limit() {
    // 40,000 quads in a row: one strip of 80,002 vertices, cut into two commands.
    let row = grid(40_000, 1);
    let s = stripify_with(&row, MAX_VERTICES);
    check(&row, &s, MAX_VERTICES);
    assert_eq!(s.primitives.len(), 2);
    assert_eq!(s.primitives[0].indices.len(), 65_534);
    // Small limits: odd ones round down for strips (even cuts keep the winding).
    for max in [0, 4, 5, 7, 9, 64] {
        let g = grid(7, 3);
        let s = stripify_with(&g, max);
        check(&g, &s, max.max(4));
    }
}

#[test]
fn big_grid_is_fast_and_long_stripped() {
    let g = grid(317, 317); // 200,978 triangles
    let t = std::time::Instant::now();
    let s = stripify_with(&g, MAX_VERTICES);
    let took = t.elapsed();
    check(&g, &s, MAX_VERTICES);
    let strips = s.primitives.len();
    eprintln!(
        "grid {} triangles: {strips} commands, {} vertices, {took:?}",
        g.len(),
        s.vertex_count()
    );
    // Row by row at worst: one strip per row of quads.
    assert!(strips <= 2 * 317, "{strips} commands");
    assert!(s.vertex_count() <= g.len() * 11 / 10 + 2 * 317);
    // Debug build on a shared machine: generous, but catches quadratic behaviour.
    assert!(took.as_secs() < 30, "{took:?}");
}

proptest! {
    #[test]
    fn every_triangle_back_once_with_its_winding(
        soup in proptest::collection::vec([0u32..8, 0u32..8, 0u32..8], 0..80),
        max in 4usize..40,
    ) {
        let s = stripify_with(&soup, max);
        check(&soup, &s, max);
    }

    #[test]
    fn meshes_with_duplicates(w in 1u32..6, h in 1u32..6, dups in proptest::collection::vec(0usize..50, 0..10)) {
        let mut g = grid(w, h);
        for d in dups {
            let t = g[d % g.len()];
            g.push(t);
            g.push([t[2], t[1], t[0]]);
        }
        check(&g, &stripify_with(&g, MAX_VERTICES), MAX_VERTICES);
    }
}

/// Per model: (Nintendo's commands, vertices; ours; triangles; commands by type).
#[derive(Debug, Default)]
struct Tally {
    prims: usize,
    verts: usize,
    our_prims: usize,
    our_verts: usize,
    tris: usize,
    degenerate: usize,
    by_type: HashMap<&'static str, usize>,
    three_vertex_strips: usize,
}

impl Tally {
    /// Decodes one display list to triangles of vertex ids (one id per distinct vertex bytes),
    /// stripifies them and tallies both.
    fn add(&mut self, list: gcio::Reader<'_>, desc: &VertexDesc) {
        let mut ids: HashMap<&[u8], u32> = HashMap::new();
        let mut tris = Vec::new();
        for p in DisplayList::new(list, desc) {
            let p = p.unwrap();
            self.prims += 1;
            self.verts += p.len();
            *self.by_type.entry(p.opcode().name().unwrap()).or_default() += 1;
            if p.opcode().primitive() == Opcode::TRIANGLE_STRIP && p.len() == 3 {
                self.three_vertex_strips += 1;
            }
            let v: Vec<u32> = p
                .vertices()
                .map(|v| {
                    let n = ids.len() as u32;
                    *ids.entry(v.bytes()).or_insert(n)
                })
                .collect();
            tris.extend(p.triangles().map(|[a, b, c]| [v[a], v[b], v[c]]));
        }
        let s = stripify_with(&tris, MAX_VERTICES);
        check(&tris, &s, MAX_VERTICES);
        self.tris += tris.len() - s.degenerate;
        self.degenerate += s.degenerate;
        self.our_prims += s.primitives.len();
        self.our_verts += s.vertex_count();
    }

    fn print(&self, name: &str) {
        let mut types: Vec<_> = self.by_type.iter().collect();
        types.sort();
        eprintln!(
            "{name} | {} ({}) | {} / {} | {} / {} | {types:?}, 3-vertex strips {}",
            self.tris,
            self.degenerate,
            self.prims,
            self.verts,
            self.our_prims,
            self.our_verts,
            self.three_vertex_strips
        );
    }
}

/// Every matrix group of every shape of a J3D model.
fn measure(data: &[u8]) -> Tally {
    let view = j3d_bmd::parse(data).unwrap();
    let shp1 = view.shp1().unwrap().unwrap();
    let mut t = Tally::default();
    for i in 0..shp1.len() {
        let desc = shp1.shape_desc(i).unwrap();
        let groups = usize::from(shp1.shape(i).unwrap().group_count.get());
        for k in 0..groups {
            t.add(shp1.group(i, k).unwrap().prims, &desc);
        }
    }
    t
}

/// HAL's strips: every PObj of an HSD file (its display list runs `n_display` × 32 bytes).
#[test]
fn close_to_hal_on_real_hsd_models() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/hsd", "gx strip hsd")
    else {
        return;
    };
    let files = gcio::corpus::files(&dir);
    assert_eq!(files.len(), 6);
    let mut total = Tally::default();
    for p in &files {
        let data = std::fs::read(p).unwrap();
        let a = hsd_dat::parse(&data).unwrap();
        let mut t = Tally::default();
        for r in &a.graph().pobjs {
            let (Some(v), Some(dl)) = (r.pobj.vtx_desc, r.pobj.display_list) else {
                continue;
            };
            let (desc, _) = a.vertex_desc(v).unwrap();
            let len =
                (usize::from(r.pobj.n_display) * 32).min(a.data_size() as usize - dl as usize);
            t.add(a.data().sub(dl as usize, len).unwrap(), &desc);
        }
        t.print(&p.file_name().unwrap().to_string_lossy());
        // HAL joins strips through degenerate triangles (a repeated vertex): fewer commands
        // for more vertices. Ours makes more commands but not more vertices.
        assert!(t.our_verts * 10 <= t.verts * 11);
        total.prims += t.prims;
        total.verts += t.verts;
        total.our_prims += t.our_prims;
        total.our_verts += t.our_verts;
        total.tris += t.tris;
    }
    total.print("total");
}

#[test]
fn close_to_nintendo_on_real_models() {
    let mut models: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/j3d", "gx strip j3d") {
        for p in gcio::corpus::files(&dir) {
            models.push((
                p.file_name().unwrap().to_string_lossy().into(),
                std::fs::read(&p).unwrap(),
            ));
        }
        assert_eq!(models.len(), 4);
    }
    if let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "gx strip bdl") {
        let before = models.len();
        for (file, member, data) in
            gcio::corpus::members(&dir, |b| rarc::layer::members(b).ok().flatten())
        {
            if j3d_bmd::detect(&data).is_some()
                && j3d_bmd::parse(&data).is_ok_and(|v| v.shp1().is_some())
            {
                let file = file.rsplit('/').next().unwrap_or_default().to_string();
                models.push((format!("{file}:{member}"), data));
            }
        }
        eprintln!("{} models from archives", models.len() - before);
        assert_eq!(models.len() - before, 15);
    }
    let mut total = Tally::default();
    eprintln!(
        "model | triangles (degenerate) | Nintendo commands / vertices | ours | Nintendo types"
    );
    for (name, data) in &models {
        let t = measure(data);
        t.print(name);
        assert!(
            t.our_prims * 2 <= t.prims * 3,
            "{name}: {} vs {}",
            t.our_prims,
            t.prims
        );
        assert!(
            t.our_verts * 10 <= t.verts * 11,
            "{name}: {} vs {}",
            t.our_verts,
            t.verts
        );
        total.prims += t.prims;
        total.verts += t.verts;
        total.our_prims += t.our_prims;
        total.our_verts += t.our_verts;
        total.tris += t.tris;
    }
    eprintln!(
        "total {} models: {} triangles; Nintendo {} commands / {} vertices; ours {} / {}",
        models.len(),
        total.tris,
        total.prims,
        total.verts,
        total.our_prims,
        total.our_verts
    );
}

/// `in_order` gives back the commands a triangle sequence was decoded from: strips of either
/// parity, quads (consecutive ones in one command), a triangle list of lone triangles; a
/// strip's next triangle wound the wrong way starts a new strip.
#[test]
fn in_order_recovers_the_decoded_commands() {
    use gx::strip::in_order;
    let prim = |op, indices: Vec<u32>| Primitive { op, indices };
    let commands = vec![
        prim(Opcode::TRIANGLE_STRIP, vec![0, 1, 2, 3, 4, 5]),
        prim(Opcode::QUADS, vec![6, 7, 8, 9, 10, 11, 12, 13]),
        prim(Opcode::TRIANGLE_STRIP, vec![14, 15, 16, 17, 18]),
        prim(Opcode::TRIANGLES, vec![19, 20, 21, 22, 23, 24]),
        prim(Opcode::TRIANGLE_STRIP, vec![25, 26, 27, 28]),
    ];
    let tris: Vec<[u32; 3]> = commands
        .iter()
        .flat_map(|p| p.triangles().collect::<Vec<_>>())
        .collect();
    assert_eq!(in_order(&tris), commands);
    // (1, 2, 3) is the strip's second triangle wound as an even one: a new strip.
    let split = in_order(&[[0, 1, 2], [1, 2, 3]]);
    assert_eq!(split.len(), 1);
    assert_eq!(split[0].op, Opcode::TRIANGLES);
}
