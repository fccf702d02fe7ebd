//! Builders of valid layouts for tests, samples and examples.

use gcio::F32;

use crate::frame::Frame;
use crate::json::Name;
use crate::model::*;

fn f(v: f32) -> F32 {
    F32::new(v)
}

/// A pane record named `name` of `w` × `h` at (`x`, `y`), visible, opaque.
pub fn pane(name: &str, x: f32, y: f32, w: f32, h: f32) -> Pane {
    Pane {
        flags: 1,
        origin: 4,
        alpha: 255,
        pad: 0,
        name: name.into(),
        user_data: Name::default(),
        translate: [f(x), f(y), f(0.0)],
        rotate: [f(0.0); 3],
        scale: [f(1.0); 2],
        size: [f(w), f(h)],
    }
}

/// The unit quad's texture coordinates.
pub fn unit_coords() -> TexCoords {
    [
        [f(0.0), f(0.0)],
        [f(1.0), f(0.0)],
        [f(0.0), f(1.0)],
        [f(1.0), f(1.0)],
    ]
}

/// A material named `name`; with `texture`, one texture map, matrix and generator, one TEV
/// stage, alpha compare and blend mode.
pub fn material(name: &str, texture: Option<u16>) -> Material {
    let mut m = Material {
        name: name.into(),
        tev_colors: [[0; 4], [255; 4], [255; 4]],
        tev_kcolors: [[255; 4]; 4],
        extra_flags: 0,
        tex_maps: Vec::new(),
        tex_srts: Vec::new(),
        tex_coord_gens: Vec::new(),
        chan_ctrl: None,
        mat_color: None,
        tev_swap: None,
        ind_srts: Vec::new(),
        ind_stages: Vec::new(),
        tev_stages: Vec::new(),
        alpha_compare: None,
        blend_mode: None,
    };
    if let Some(t) = texture {
        m.tex_maps.push(TexMap {
            texture: t,
            wrap_s: 0,
            wrap_t: 0,
        });
        m.tex_srts.push(TexSrt {
            translate: [f(0.0); 2],
            rotate: f(0.0),
            scale: [f(1.0); 2],
        });
        m.tex_coord_gens.push(TexCoordGen {
            kind: 1,
            source: 4,
            matrix: 0x1E,
            pad: 0,
        });
        m.chan_ctrl = Some(ChanCtrl {
            color_source: 1,
            alpha_source: 1,
            pad: [0; 2],
        });
        m.mat_color = Some([255; 4]);
        m.tev_swap = Some([0x1B, 0x1B, 0x1B, 0x1B]);
        m.tev_stages.push(TevStage {
            tex_coord_gen: 0,
            color_channel: 4,
            tex_map: 0,
            swap_sel: 0,
            color_in: [0xF8, 0xFA, 0, 0x40],
            alpha_in: [0x74, 0x75, 0, 0x40],
            ind_stage: 0,
            ind_bias_matrix: 0,
            ind_wrap: 0,
            ind_flags: 0,
        });
        m.alpha_compare = Some(AlphaCompare {
            comp: 0x77,
            op: 0,
            ref0: 0,
            ref1: 0,
        });
        m.blend_mode = Some(BlendMode {
            kind: 1,
            src: 4,
            dst: 5,
            op: 0,
        });
    }
    m
}

/// A 608 × 456 screen: a root pane with a picture, a text box, a window and a bounding pane
/// as children; a root group of the picture and the text, with a sub-group of the window.
pub fn sample() -> Brlyt {
    let text: Vec<u16> = "Hi!".encode_utf16().collect();
    let sections = vec![
        Section::Layout(Layout {
            centered: 1,
            pad: [0; 3],
            size: [f(608.0), f(456.0)],
        }),
        Section::Textures(vec!["Sample.tpl".into()]),
        Section::Fonts(vec!["Sample.brfnt".into()]),
        Section::Materials(vec![
            material("PicMat", Some(0)),
            material("TxtMat", None),
            material("WinMat", Some(0)),
        ]),
        Section::Pane(pane("RootPane", 0.0, 0.0, 608.0, 456.0)),
        Section::PaneStart,
        Section::Picture(Picture {
            pane: pane("Pic", -100.0, 50.0, 64.0, 64.0),
            vertex_colors: [[255; 4]; 4],
            material: 0,
            pad: 0,
            tex_coords: vec![unit_coords()],
        }),
        Section::Text(Text {
            pane: pane("Txt", 100.0, 50.0, 120.0, 30.0),
            buffer_bytes: 8,
            material: 1,
            font: 0,
            position: 4,
            alignment: 0,
            pad: [0; 2],
            colors: [[255; 4]; 2],
            font_size: [f(24.0), f(24.0)],
            char_space: f(0.0),
            line_space: f(0.0),
            text: Some(text),
            unterminated: false,
            tail: None,
        }),
        Section::Window(Window {
            pane: pane("Win", 0.0, -100.0, 200.0, 80.0),
            inflation: [f(0.0); 4],
            pad: [0; 3],
            content: WindowContent {
                vertex_colors: [[255; 4]; 4],
                material: 2,
                pad: 0,
                tex_coords: vec![unit_coords()],
            },
            frames: vec![WindowFrame {
                material: 2,
                flip: 0,
                pad: 0,
            }],
        }),
        Section::Bounding(pane("Bnd", 0.0, 0.0, 608.0, 456.0)),
        Section::PaneEnd,
        Section::Group(Group {
            name: "RootGroup".into(),
            pad: [0; 2],
            panes: vec!["Pic".into(), "Txt".into()],
        }),
        Section::GroupStart,
        Section::Group(Group {
            name: "Windows".into(),
            pad: [0; 2],
            panes: vec!["Win".into()],
        }),
        Section::GroupEnd,
    ];
    Brlyt {
        frame: Frame {
            version: 0x000A,
            ..Frame::default()
        },
        sections,
    }
}

/// The samples' bytes (file name, bytes).
pub fn samples() -> Vec<(String, Vec<u8>)> {
    [("sample.brlyt", sample())]
        .into_iter()
        .filter_map(|(n, l)| Some((n.to_owned(), l.write().ok()?)))
        .collect()
}
