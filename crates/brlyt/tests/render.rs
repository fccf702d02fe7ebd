//! `render`: small layouts built here with golden pixels (vertex colours, textures through their
//! SRT and wrap modes, inherited alpha, visibility, window frames, text with and without a
//! font), and the real Galaxy 2 layouts (`../shared/corpus/real/rarc`, skipped when absent):
//! each renders with every picture's texture found in its archive, and each picture pane drawn
//! alone covers the rectangle computed here from the pane fields (nothing when hidden).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use brlyt::model::{Layout, Picture, Rgba, Section, TexMap, Text, Window, WindowContent};
use brlyt::model::{Material, TevStage, WindowFrame};
use brlyt::render::{Filter, Glyph, GlyphSource, Metrics, Options, render};
use brlyt::{Brlyt, Pane, build};
use gcio::F32;
use gx::tex::Image;

fn f(v: f32) -> F32 {
    F32::new(v)
}

/// A `w` × `h` centred screen holding `materials` and, under a root pane, `panes` (each with
/// its children's sections already nested).
fn layout(w: f32, h: f32, materials: Vec<Material>, panes: Vec<Section>) -> Brlyt {
    let mut sections = vec![
        Section::Layout(Layout {
            centered: 1,
            pad: [0; 3],
            size: [f(w), f(h)],
        }),
        Section::Textures(vec!["a.tpl".into(), "b.tpl".into()]),
        Section::Materials(materials),
        Section::Pane(build::pane("RootPane", 0.0, 0.0, w, h)),
        Section::PaneStart,
    ];
    sections.extend(panes);
    sections.push(Section::PaneEnd);
    Brlyt {
        frame: build::sample().frame,
        sections,
    }
}

fn picture(name: &str, x: f32, y: f32, w: f32, h: f32, vc: [Rgba; 4], material: u16) -> Section {
    Section::Picture(Picture {
        pane: build::pane(name, x, y, w, h),
        vertex_colors: vc,
        material,
        pad: 0,
        tex_coords: vec![build::unit_coords()],
    })
}

/// A material without TEV stages (the default set-up) and, with `texture`, one map on it.
fn plain(texture: Option<u16>, wrap: u8) -> Material {
    let mut m = build::material("m", None);
    if let Some(t) = texture {
        let full = build::material("t", Some(t));
        m.tex_maps = vec![TexMap {
            texture: t,
            wrap_s: wrap,
            wrap_t: wrap,
        }];
        m.tex_srts = full.tex_srts;
        m.tex_coord_gens = full.tex_coord_gens;
    }
    m
}

const WHITE: Rgba = [255; 4];

fn px(img: &Image, x: u32, y: u32) -> Rgba {
    img.pixel(x, y).unwrap()
}

fn no_textures(_: &str) -> Option<Image> {
    None
}

/// 2 × 2 texels: red, green / blue, white.
fn checker(_: &str) -> Option<Image> {
    Image::new(
        2,
        2,
        vec![[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], WHITE],
    )
    .ok()
}

#[test]
fn vertex_colours_blend_bilinearly() {
    let vc = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], WHITE];
    let lyt = layout(
        8.0,
        8.0,
        vec![plain(None, 0)],
        vec![picture("P", 0.0, 0.0, 8.0, 8.0, vc, 0)],
    );
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    assert_eq!((r.image.width(), r.image.height()), (8, 8));
    assert_eq!(r.drawn, 1);
    // Pixel centres at u, v = 1/16: top = red→green, bottom = blue→white, then down.
    assert_eq!(px(&r.image, 0, 0), [225, 16, 16, 255]);
    assert_eq!(px(&r.image, 7, 0), [30, 239, 16, 255]);
    assert_eq!(px(&r.image, 0, 7), [30, 16, 239, 255]);
    assert_eq!(px(&r.image, 7, 7), [225, 239, 239, 255]);
    // TEV colour 1 scales the raster colour when there is no texture.
    let mut m = plain(None, 0);
    m.tev_colors[1] = [128, 255, 0, 255];
    let lyt = layout(
        8.0,
        8.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 8.0, 8.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    assert_eq!(px(&r.image, 3, 3), [128, 255, 0, 255]);
}

#[test]
fn textures_sample_through_srt_and_wrap() {
    let nearest = Options {
        filter: Filter::Nearest,
        ..Options::default()
    };
    let lyt = layout(
        4.0,
        4.0,
        vec![plain(Some(0), 0)],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert!(r.missing_textures.is_empty());
    assert_eq!(px(&r.image, 0, 0), [255, 0, 0, 255]);
    assert_eq!(px(&r.image, 3, 0), [0, 255, 0, 255]);
    assert_eq!(px(&r.image, 0, 3), [0, 0, 255, 255]);
    assert_eq!(px(&r.image, 3, 3), WHITE);
    // Scale 2 about the centre: s runs -0.5..1.5. Repeat tiles, clamp holds the edge texel.
    for (wrap, left_column) in [(1u8, [0, 255, 0, 255]), (0, [255, 0, 0, 255])] {
        let mut m = plain(Some(0), wrap);
        m.tex_srts[0].scale = [f(2.0), f(2.0)];
        let lyt = layout(
            4.0,
            4.0,
            vec![m],
            vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
        );
        let r = render(&lyt, checker, None, &nearest).unwrap();
        assert_eq!(px(&r.image, 0, 1), left_column, "wrap {wrap}");
    }
    // Mirror: s in -0.5..0 reflects onto 0..0.5.
    let mut m = plain(Some(0), 2);
    m.tex_srts[0].scale = [f(2.0), f(2.0)];
    let lyt = layout(
        4.0,
        4.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(px(&r.image, 0, 1), [255, 0, 0, 255]);
    // Translation 0.5 shifts by one texel of two: the left half shows the right column.
    let mut m = plain(Some(0), 1);
    m.tex_srts[0].translate = [f(0.5), f(0.0)];
    let lyt = layout(
        4.0,
        4.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(px(&r.image, 0, 0), [0, 255, 0, 255]);
    // TEV colours 0 → 1 remap the texel; vertex colours multiply.
    let mut m = plain(Some(0), 0);
    m.tev_colors[0] = [0, 0, 100, 0];
    m.tev_colors[1] = [200, 200, 200, 255];
    let half = [128, 255, 255, 255];
    let lyt = layout(
        4.0,
        4.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [half; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    // red texel (1, 0, 0): (200, 0, 100) then × (0.5, 1, 1).
    assert_eq!(px(&r.image, 0, 0), [100, 0, 100, 255]);
    // Bilinear at a texel boundary mixes the two texels.
    let lyt = layout(
        4.0,
        4.0,
        vec![plain(Some(0), 0)],
        vec![picture("P", 0.0, 0.0, 4.0, 1.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &Options::default()).unwrap();
    let mid = px(&r.image, 1, 1);
    assert!(mid[0] > 100 && mid[1] > 30 && mid[3] == 255, "{mid:?}");
}

#[test]
fn missing_textures_are_reported() {
    let lyt = layout(
        4.0,
        4.0,
        vec![plain(Some(1), 0), plain(Some(7), 0)],
        vec![
            picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0),
            picture("Q", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 1),
        ],
    );
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    assert_eq!(r.missing_textures, ["P: b.tpl", "Q: #7"]);
}

#[test]
fn alpha_passes_on_only_with_the_influence_flag() {
    for (flags, expect) in [(1u8, 255u8), (3, 128)] {
        let mut parent = build::pane("N", 0.0, 0.0, 4.0, 4.0);
        parent.alpha = 128;
        parent.flags = flags;
        let lyt = layout(
            4.0,
            4.0,
            vec![plain(None, 0)],
            vec![
                Section::Pane(parent),
                Section::PaneStart,
                picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0),
                Section::PaneEnd,
            ],
        );
        let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
        assert_eq!(px(&r.image, 1, 1)[3], expect, "flags {flags}");
    }
}

#[test]
fn hidden_panes_hide_their_subtree() {
    let mut parent = build::pane("N", 0.0, 0.0, 4.0, 4.0);
    parent.flags = 0;
    let lyt = layout(
        4.0,
        4.0,
        vec![plain(None, 0)],
        vec![
            Section::Pane(parent),
            Section::PaneStart,
            picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0),
            Section::PaneEnd,
        ],
    );
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    assert_eq!(r.drawn, 0);
    assert!(r.image.pixels().iter().all(|p| *p == [0; 4]));
}

/// A picture's SRT and base position as NW4R composes them: a 4 × 2 pane with its base at the
/// bottom right, scaled 2 in x, rotated 90 degrees, at (-2, 0) in a 16 × 16 screen.
#[test]
fn pane_srt_and_base_position_place_the_quad() {
    let mut p = build::pane("P", -2.0, 0.0, 4.0, 2.0);
    p.origin = 8;
    p.scale = [f(2.0), f(1.0)];
    p.rotate = [f(0.0), f(0.0), f(90.0)];
    let pic = Section::Picture(Picture {
        pane: p,
        vertex_colors: [WHITE; 4],
        material: 0,
        pad: 0,
        tex_coords: vec![],
    });
    let lyt = layout(16.0, 16.0, vec![plain(None, 0)], vec![pic]);
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    // Local x in -4..0, y in 0..2 (base at the bottom right, y up); scaled: x in -8..0;
    // rotated, (x, y) → (-y, x): x in -2..0, y in -8..0; translated: x in -4..-2. Pixels
    // (origin at the centre, y down): columns 4..6, rows 8..16.
    let drawn: Vec<(u32, u32)> = (0..16)
        .flat_map(|y| (0..16).map(move |x| (x, y)))
        .filter(|&(x, y)| px(&r.image, x, y)[3] > 0)
        .collect();
    let expect: Vec<(u32, u32)> = (8..16).flat_map(|y| (4..6).map(move |x| (x, y))).collect();
    assert_eq!(drawn, expect);
}

#[test]
fn windows_draw_content_and_frames() {
    // Frame texture 2 × 2 (checker); one frame: the corners show its texels flipped per corner.
    let frame = plain(Some(0), 0);
    let content = plain(None, 0);
    let w = Window {
        pane: build::pane("W", 0.0, 0.0, 8.0, 8.0),
        inflation: [f(0.0); 4],
        pad: [0; 3],
        content: WindowContent {
            vertex_colors: [[10, 20, 30, 255]; 4],
            material: 1,
            pad: 0,
            tex_coords: vec![],
        },
        frames: vec![WindowFrame {
            material: 0,
            flip: 0,
            pad: 0,
        }],
    };
    let lyt = layout(8.0, 8.0, vec![frame, content], vec![Section::Window(w)]);
    let nearest = Options {
        filter: Filter::Nearest,
        ..Options::default()
    };
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(r.drawn, 1);
    // Top left piece: unflipped, texel (0, 0) red; top right: flipped horizontally, red at
    // the far right; bottom right: 180 degrees, red at the bottom right corner.
    assert_eq!(px(&r.image, 0, 0), [255, 0, 0, 255]);
    assert_eq!(px(&r.image, 7, 0), [255, 0, 0, 255]);
    assert_eq!(px(&r.image, 7, 7), [255, 0, 0, 255]);
    assert_eq!(px(&r.image, 0, 7), [255, 0, 0, 255]);
    assert_eq!(px(&r.image, 1, 1), WHITE);
    // The content, inside the 2-pixel frames.
    assert_eq!(px(&r.image, 4, 4), [10, 20, 30, 255]);
}

struct Blocks;

impl GlyphSource for Blocks {
    fn metrics(&self, font: &str) -> Option<Metrics> {
        (font == "f.brfnt").then_some(Metrics {
            width: 2.0,
            height: 4.0,
            line_feed: 4.0,
        })
    }
    fn glyph(&self, _: &str, code: u32) -> Option<Glyph> {
        // 'A': a solid 2 × 4 cell advancing 3; others: nothing.
        (code == u32::from('A')).then(|| Glyph {
            image: Image::filled(2, 4, WHITE).unwrap(),
            left: 0.0,
            advance: 3.0,
        })
    }
}

fn text_layout() -> Brlyt {
    let t = Text {
        pane: build::pane("T", 0.0, 0.0, 8.0, 4.0),
        buffer_bytes: 8,
        material: 0,
        font: 0,
        position: 0,
        alignment: 0,
        pad: [0; 2],
        colors: [[0, 255, 0, 255], [0, 0, 255, 255]],
        font_size: [f(2.0), f(4.0)],
        char_space: f(0.0),
        line_space: f(0.0),
        text: Some("AA".encode_utf16().collect()),
        unterminated: false,
        tail: None,
    };
    let mut lyt = layout(8.0, 4.0, vec![plain(None, 0)], vec![Section::Text(t)]);
    lyt.sections
        .insert(1, Section::Fonts(vec!["f.brfnt".into()]));
    lyt
}

#[test]
fn text_without_a_font_is_an_outline() {
    let r = render(&text_layout(), no_textures, None, &Options::default()).unwrap();
    assert_eq!(r.text_without_font, ["T: f.brfnt"]);
    assert_eq!(px(&r.image, 0, 0), [0, 255, 0, 255]);
    assert_eq!(px(&r.image, 7, 3), [0, 255, 0, 255]);
    assert_eq!(px(&r.image, 3, 2), [0; 4]);
}

#[test]
fn text_with_glyphs_is_drawn_in_its_colours() {
    let r = render(
        &text_layout(),
        no_textures,
        Some(&Blocks),
        &Options::default(),
    )
    .unwrap();
    assert!(r.text_without_font.is_empty());
    // Two glyphs at x 0..2 and 3..5, the colour from green (top) to blue (bottom).
    let row = |y| {
        (0..8)
            .map(|x| px(&r.image, x, y)[3] > 0)
            .collect::<Vec<_>>()
    };
    assert_eq!(row(1), [true, true, false, true, true, false, false, false]);
    let top = px(&r.image, 0, 0);
    let bottom = px(&r.image, 0, 3);
    assert!(
        top[1] > top[2] && bottom[2] > bottom[1],
        "{top:?} {bottom:?}"
    );
}

#[test]
fn bad_screens_are_errors() {
    for size in [0.0, -5.0, f32::NAN, 1e9] {
        let lyt = layout(size, 4.0, vec![], vec![]);
        assert!(render(&lyt, no_textures, None, &Options::default()).is_err());
    }
}

/// The real layouts: (archive, member path, bytes) of every member.
fn members(dir: &std::path::Path) -> Vec<(String, String, Vec<u8>)> {
    gcio::corpus::members(dir, |b| rarc::layer::members(b).ok().flatten())
}

fn decode_tpl(data: &[u8]) -> Option<Image> {
    let t = tpl::Tpl::parse(data).ok()?;
    t.images.first()?.texture()?.decode_level(0).ok()
}

/// The corners of pane `i` computed from the pane fields: its rectangle from the base
/// position (y up), then each pane's scale, rotation about z and translation, up the parents.
fn hand_corners(lyt: &Brlyt, tree: &brlyt::Tree, i: usize) -> [[f32; 2]; 4] {
    let p = lyt.pane_of(&tree.panes[i]).unwrap();
    let (w, h) = (p.size[0].get(), p.size[1].get());
    let left = [0.0, -w / 2.0, -w][usize::from(p.origin % 3)];
    let top = [0.0, h / 2.0, h][usize::from(p.origin / 3)];
    let mut pts = [
        [left, top],
        [left + w, top],
        [left, top - h],
        [left + w, top - h],
    ];
    let mut at = Some(i);
    while let Some(k) = at {
        let q: &Pane = lyt.pane_of(&tree.panes[k]).unwrap();
        let (s, c) = q.rotate[2].get().to_radians().sin_cos();
        for pt in &mut pts {
            let (x, y) = (pt[0] * q.scale[0].get(), pt[1] * q.scale[1].get());
            *pt = [
                x * c - y * s + q.translate[0].get(),
                x * s + y * c + q.translate[1].get(),
            ];
        }
        at = tree.panes[k].parent;
    }
    pts
}

/// Whether pane `i` and all its parents are visible.
fn shown(lyt: &Brlyt, tree: &brlyt::Tree, i: usize) -> bool {
    let mut at = Some(i);
    while let Some(k) = at {
        if lyt.pane_of(&tree.panes[k]).unwrap().flags & 1 == 0 {
            return false;
        }
        at = tree.panes[k].parent;
    }
    true
}

/// `lyt` with only picture `only` drawing, as an opaque white quad: every other drawing pane's
/// alpha 0, no pane passing alpha on.
fn isolate(lyt: &Brlyt, only: usize) -> Brlyt {
    let mut l = lyt.clone();
    let solid = l.materials().len() as u16;
    let mut m = plain(None, 0);
    m.tev_colors[1] = [255; 4];
    let mut k = 0;
    for s in &mut l.sections {
        match s {
            Section::Materials(ms) => ms.push(m.clone()),
            Section::Picture(p) => {
                if k == only {
                    p.vertex_colors = [WHITE; 4];
                    p.material = solid;
                    p.pane.alpha = 255;
                } else {
                    p.pane.alpha = 0;
                }
                p.pane.flags &= !2;
            }
            Section::Text(t) => {
                t.pane.alpha = 0;
                t.pane.flags &= !2;
            }
            Section::Window(w) => {
                w.pane.alpha = 0;
                w.pane.flags &= !2;
            }
            Section::Pane(p) | Section::Bounding(p) => {
                p.alpha = 255;
                p.flags &= !2;
            }
            _ => {}
        }
        if s.pane().is_some() {
            k += 1;
        }
    }
    l
}

#[test]
fn real_layouts_render() {
    let Some(dir) = gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real/rarc", "brlyt render")
    else {
        return;
    };
    let all = members(&dir);
    let out = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("brlyt-render");
    std::fs::create_dir_all(&out).unwrap();
    let (mut layouts, mut pictures, mut hidden) = (0, 0, 0);
    for (arc, path, data) in all.iter().filter(|m| m.1.ends_with(".brlyt")) {
        layouts += 1;
        let lyt = Brlyt::parse(data).unwrap();
        // Textures from the same archive, by file name.
        let lookup = |name: &str| {
            all.iter()
                .find(|(a, p, _)| a == arc && p.rsplit('/').next() == Some(name))
                .and_then(|(_, _, d)| decode_tpl(d))
        };
        let r = render(&lyt, lookup, None, &Options::default()).unwrap();
        assert!(
            r.missing_textures.is_empty(),
            "{arc}:{path}: {:?}",
            r.missing_textures
        );
        assert!(r.drawn > 0 && !r.exhausted, "{arc}:{path}");
        assert!(r.image.pixels().iter().any(|p| p[3] > 0), "{arc}:{path}");
        let name = path.rsplit('/').next().unwrap().replace(".brlyt", ".png");
        std::fs::write(out.join(name), gx::png::encode(&r.image).unwrap()).unwrap();

        let tree = lyt.tree();
        let placed = lyt.place(&tree);
        let screen = lyt.layout().unwrap().size.map(|v| v.get());
        for (i, node) in tree.panes.iter().enumerate() {
            if !matches!(lyt.sections[node.section], Section::Picture(_)) {
                continue;
            }
            pictures += 1;
            let q = hand_corners(&lyt, &tree, i);
            for (a, b) in q.iter().flatten().zip(placed[i].corners.iter().flatten()) {
                assert!((a - b).abs() < 1e-3, "{arc}:{path}: pane {i} corners {q:?}");
            }
            let solo = render(&isolate(&lyt, i), |_| None, None, &Options::default()).unwrap();
            let img = &solo.image;
            // Screen → pixel: the origin at the centre, y down.
            let to_px = |p: [f32; 2]| [p[0] + screen[0] / 2.0, screen[1] / 2.0 - p[1]];
            let pts = q.map(to_px);
            let (x0, x1) = (
                pts.iter().map(|p| p[0]).fold(f32::MAX, f32::min),
                pts.iter().map(|p| p[0]).fold(f32::MIN, f32::max),
            );
            let (y0, y1) = (
                pts.iter().map(|p| p[1]).fold(f32::MAX, f32::min),
                pts.iter().map(|p| p[1]).fold(f32::MIN, f32::max),
            );
            let drawn: Vec<[u32; 2]> = (0..img.height())
                .flat_map(|y| (0..img.width()).map(move |x| [x, y]))
                .filter(|&[x, y]| px(img, x, y)[3] > 0)
                .collect();
            if !shown(&lyt, &tree, i) {
                hidden += 1;
                assert!(
                    drawn.is_empty(),
                    "{arc}:{path}: hidden pane {i} drew {} pixels",
                    drawn.len()
                );
                continue;
            }
            for &[x, y] in &drawn {
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                assert!(
                    cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1,
                    "{arc}:{path}: pane {i} drew ({x}, {y}) outside {x0}..{x1} × {y0}..{y1}"
                );
            }
            // The centre is covered, opaque white; the area is the rectangle's (axis-aligned
            // here) within its border pixels, where it lies on the canvas.
            let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
            if mx >= 0.0
                && my >= 0.0
                && mx < screen[0]
                && my < screen[1]
                && x1 - x0 >= 1.0
                && y1 - y0 >= 1.0
            {
                assert_eq!(
                    px(img, mx as u32, my as u32),
                    WHITE,
                    "{arc}:{path}: pane {i} centre"
                );
            }
            let on = x0 >= 0.0 && y0 >= 0.0 && x1 <= screen[0] && y1 <= screen[1];
            if on && q[0][1] == q[1][1] {
                let area = (x1 - x0) * (y1 - y0);
                let border = 2.0 * (x1 - x0 + y1 - y0) + 4.0;
                assert!(
                    (drawn.len() as f32 - area).abs() <= border,
                    "{arc}:{path}: pane {i}: {} pixels for {area}",
                    drawn.len()
                );
            }
        }
    }
    assert_eq!(layouts, 4, "the shared archives hold 4 layouts");
    assert_eq!(pictures, 69, "picture panes of the 4 layouts");
    assert!(hidden > 0, "some pictures are hidden");
}

/// Thousands of full-screen panes: drawing stops at the work limit and says so.
#[test]
fn hostile_layouts_stop_at_the_work_limit() {
    let pics = (0..300)
        .map(|i| picture(&format!("P{i}"), 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0))
        .collect();
    let lyt = layout(4.0, 4.0, vec![plain(None, 0)], pics);
    let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
    assert!(r.exhausted);
    assert_eq!(px(&r.image, 1, 1), WHITE);
    let lyt = layout(
        4.0,
        4.0,
        vec![plain(None, 0)],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    assert!(
        !render(&lyt, no_textures, None, &Options::default())
            .unwrap()
            .exhausted
    );
}

/// A material's own TEV stages (the two of the real pause menu's buttons): stage 0 lerps TEV
/// colours 0 → 1 by the texel, stage 1 multiplies by the raster colour and scales by 2.
#[test]
fn own_tev_stages_are_evaluated() {
    let mut m = plain(Some(0), 0);
    let stage = |tex: u8, chan: u8, color_in: [u8; 4], alpha_in: [u8; 4]| TevStage {
        tex_coord_gen: tex,
        color_channel: chan,
        tex_map: tex,
        swap_sel: 0,
        color_in,
        alpha_in,
        ind_stage: 0,
        ind_bias_matrix: 0,
        ind_wrap: 0,
        ind_flags: 0,
    };
    m.tev_stages = vec![
        stage(0, 0xFF, [0x42, 0xF8, 0x00, 0xF8], [0x21, 0x74, 0x00, 0xF8]),
        stage(0xFF, 4, [0x0F, 0xFA, 0x40, 0x61], [0x07, 0x75, 0x00, 0xE1]),
    ];
    let vc = [[100, 50, 200, 255]; 4];
    let lyt = layout(
        4.0,
        4.0,
        vec![m.clone()],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, vc, 0)],
    );
    let nearest = Options {
        filter: Filter::Nearest,
        ..Options::default()
    };
    let r = render(&lyt, checker, None, &nearest).unwrap();
    // Red texel: (1, 0, 0) × (100, 50, 200) × 2 = (200, 0, 0); blue: (0, 0, 400) clamped.
    assert_eq!(px(&r.image, 0, 0), [200, 0, 0, 255]);
    assert_eq!(px(&r.image, 0, 3), [0, 0, 255, 255]);
    // Scale 1 (the shine's stage): the plain product.
    m.tev_stages[1].color_in[2] = 0;
    let lyt = layout(
        4.0,
        4.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, vc, 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(px(&r.image, 0, 0), [100, 0, 0, 255]);
}

/// The alpha test discards what it fails: a 4 × 8 picture whose alpha runs from 255 (top) to
/// 50 (bottom) keeps 242 in its first row and 63 in its last (pixel centres), each only where
/// the test against 100 passes.
#[test]
fn alpha_compare_discards_pixels() {
    let (opaque, faint) = ([255; 4], [255, 255, 255, 50]);
    let vc = [opaque, opaque, faint, faint];
    // (comparisons: 0 low nibble, 1 high; op; first row; last row)
    let cases = [
        (0x77u8, 0u8, 242u8, 63u8), // always and always
        (0x74, 0, 242, 0),          // greater and always
        (0x04, 1, 242, 0),          // greater or never
        (0x01, 1, 0, 63),           // less or never
        (0x74, 2, 0, 63),           // greater xor always
    ];
    for (comp, op, first, last) in cases {
        let mut m = plain(None, 0);
        m.alpha_compare = Some(brlyt::model::AlphaCompare {
            comp,
            op,
            ref0: 100,
            ref1: 0,
        });
        let lyt = layout(
            4.0,
            8.0,
            vec![m],
            vec![picture("P", 0.0, 0.0, 4.0, 8.0, vc, 0)],
        );
        let r = render(&lyt, no_textures, None, &Options::default()).unwrap();
        assert_eq!(
            px(&r.image, 1, 0)[3],
            first,
            "comp {comp:#x} op {op}: first row"
        );
        assert_eq!(
            px(&r.image, 1, 7)[3],
            last,
            "comp {comp:#x} op {op}: last row"
        );
    }
}

/// TEV swap tables: entry 0 (red and blue exchanged) for the default stages; a stage's own
/// texture selection (entry 1, red to every colour component).
#[test]
fn swap_tables_pick_components() {
    let nearest = Options {
        filter: Filter::Nearest,
        ..Options::default()
    };
    let mut m = plain(Some(0), 0);
    m.tev_swap = Some([0xC6, 0xC0, 0xD5, 0xEA]);
    let lyt = layout(
        4.0,
        4.0,
        vec![m.clone()],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(
        px(&r.image, 0, 0),
        [0, 0, 255, 255],
        "red texel, red and blue exchanged"
    );
    m.tev_swap = None;
    m.tev_stages = vec![TevStage {
        tex_coord_gen: 0,
        color_channel: 0xFF,
        tex_map: 0,
        swap_sel: 1 << 3,
        // colour = texel (d = TEXC), alpha = texel alpha (d = TEXA)
        color_in: [0xFF, 0x8F, 0x00, 0x01],
        alpha_in: [0x77, 0x47, 0x00, 0x01],
        ind_stage: 0,
        ind_bias_matrix: 0,
        ind_wrap: 0,
        ind_flags: 0,
    }];
    let lyt = layout(
        4.0,
        4.0,
        vec![m],
        vec![picture("P", 0.0, 0.0, 4.0, 4.0, [WHITE; 4], 0)],
    );
    let r = render(&lyt, checker, None, &nearest).unwrap();
    assert_eq!(px(&r.image, 0, 0), WHITE, "red texel through RRRA");
    assert_eq!(
        px(&r.image, 3, 0),
        [0, 0, 0, 255],
        "green texel through RRRA"
    );
}
