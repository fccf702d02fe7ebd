//! An animation applied to its layout at a frame, as the game binds and animates it: each
//! pane content to the first pane of its name, each material content to the first material of
//! its name; pane SRT, visibility, vertex colours and alpha, material and TEV colours, texture
//! and indirect SRTs, and texture patterns (the pattern's file found by name in the layout's
//! texture list) written into the layout's model.

use brlyt::model::{Material, Section as L};
use gcio::F32;

use crate::eval::{Value, target};
use crate::model::Brlan;

/// What [`apply`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Values written.
    pub values: usize,
    /// Contents whose pane or material the layout does not have (the game binds nothing).
    pub unbound: Vec<String>,
}

fn set_srt(srt: &mut brlyt::model::TexSrt, t: u8, v: f32) {
    let v = F32::new(v);
    match t {
        0 => srt.translate[0] = v,
        1 => srt.translate[1] = v,
        2 => srt.rotate = v,
        3 => srt.scale[0] = v,
        4 => srt.scale[1] = v,
        _ => {}
    }
}

fn set_material(
    m: &mut Material,
    tag: &[u8],
    id: u8,
    t: u8,
    v: Value,
    files: &[brlyt::Name],
    textures: &[brlyt::Name],
) {
    let i = usize::from(t);
    match tag {
        b"RLMC" => match i {
            0..=3 => {
                if let Some(c) = m.mat_color.as_mut().and_then(|c| c.get_mut(i)) {
                    *c = v.to_u8();
                }
            }
            4..=15 => {
                if let Some(c) = m
                    .tev_colors
                    .get_mut((i - 4) / 4)
                    .and_then(|c| c.get_mut(i % 4))
                {
                    *c = v.to_color10();
                }
            }
            16..=31 => {
                if let Some(c) = m
                    .tev_kcolors
                    .get_mut((i - 16) / 4)
                    .and_then(|c| c.get_mut(i % 4))
                {
                    *c = v.to_u8();
                }
            }
            _ => {}
        },
        b"RLTS" => {
            if let Some(s) = m.tex_srts.get_mut(usize::from(id)) {
                set_srt(s, t, v.to_f32());
            }
        }
        b"RLIM" => {
            if let Some(s) = m.ind_srts.get_mut(usize::from(id)) {
                set_srt(s, t, v.to_f32());
            }
        }
        b"RLTP" => {
            let file = match v {
                Value::Step(k) => files.get(usize::from(k)),
                Value::Float(_) => None,
            };
            let found = file.and_then(|f| textures.iter().position(|x| x.key() == f.key()));
            if let (Some(map), Some(tex)) = (m.tex_maps.get_mut(usize::from(id)), found) {
                map.texture = u16::try_from(tex).unwrap_or(u16::MAX);
            }
        }
        _ => {}
    }
}

fn set_pane(s: &mut L, tag: &[u8], t: u8, v: Value) {
    let i = usize::from(t);
    if tag == b"RLVC" && i < 16 {
        let vertex = match s {
            L::Picture(p) => Some(&mut p.vertex_colors),
            L::Window(w) => Some(&mut w.content.vertex_colors),
            _ => None,
        };
        if let Some(c) = vertex
            .and_then(|c| c.get_mut(i / 4))
            .and_then(|c| c.get_mut(i % 4))
        {
            *c = v.to_u8();
        }
        return;
    }
    let Some(p) = pane_mut(s) else { return };
    let f = F32::new(v.to_f32());
    let slot = match (tag, i) {
        (b"RLPA", 0..=2) => p.translate.get_mut(i),
        (b"RLPA", 3..=5) => p.rotate.get_mut(i - 3),
        (b"RLPA", 6..=7) => p.scale.get_mut(i - 6),
        (b"RLPA", 8..=9) => p.size.get_mut(i - 8),
        (b"RLVI", 0) => {
            p.flags = if matches!(v, Value::Step(0)) {
                p.flags & !1
            } else {
                p.flags | 1
            };
            None
        }
        (b"RLVC", 16) => {
            p.alpha = v.to_u8();
            None
        }
        _ => None,
    };
    if let Some(slot) = slot {
        *slot = f;
    }
}

fn pane_mut(s: &mut L) -> Option<&mut brlyt::Pane> {
    match s {
        L::Pane(p) | L::Bounding(p) => Some(p),
        L::Picture(p) => Some(&mut p.pane),
        L::Text(t) => Some(&mut t.pane),
        L::Window(w) => Some(&mut w.pane),
        _ => None,
    }
}

/// Applies `anim` at `frame` to `lyt`.
pub fn apply(anim: &Brlan, lyt: &mut brlyt::Brlyt, frame: f32) -> Applied {
    let mut out = Applied::default();
    let Some(a) = anim.anim() else {
        return out;
    };
    let textures = lyt.textures().to_vec();
    for c in &a.contents {
        let key = c.name.key();
        let bound = if c.kind == 0 {
            lyt.sections
                .iter()
                .position(|s| s.pane().is_some_and(|p| p.name.key() == key))
        } else {
            lyt.materials().iter().position(|m| m.name.key() == key)
        };
        let Some(idx) = bound else {
            out.unbound.push(c.name.text());
            continue;
        };
        for info in &c.infos {
            for t in &info.targets {
                let Some(v) = target(t, frame) else { continue };
                out.values += 1;
                if c.kind == 0 {
                    if let Some(s) = lyt.sections.get_mut(idx) {
                        set_pane(s, &info.tag.0, t.target, v);
                    }
                } else if let Some(m) = lyt.sections.iter_mut().find_map(|s| match s {
                    L::Materials(m) => m.get_mut(idx),
                    _ => None,
                }) {
                    set_material(m, &info.tag.0, t.id, t.target, v, &a.files, &textures);
                }
            }
        }
    }
    out
}
