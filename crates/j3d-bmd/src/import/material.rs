//! Materials and textures. A material our export wrote comes back from its typed extras (the whole
//! MAT3 material: TEV stages, channels, tex gens, blend …) with its TEX1 textures re-encoded from
//! the glTF images in their recorded formats and sampler words. A plain glTF material becomes a
//! standard setup that looks like it in game: one TEV stage multiplying the base-colour texture by
//! the rasterised colour (lit by the game's lights unless the material is unlit, taken from the
//! vertex colours when the meshes have them, else from the base-colour factor), alpha test for
//! `MASK`, blending for `BLEND`, no culling when double-sided.

use std::collections::HashMap;

use gcio::{Error, Result};
use gx::scene::{AlphaMode, Scene};
use gx::tex::{Image, PaletteFormat, TexFormat};

use super::ImportOptions;
use super::extras::{self, MaterialExtras, ModelExtras};
use crate::mat3::{
    AlphaCompare, Blend, ColorChannel, Material, NbtScale, SwapMode, SwapTable, TevOrder, TevStage,
    TexCoordGen, ZMode, cull,
};
use crate::nametab::NameTable;
use crate::record::Record;
use crate::tex1::{BtiHeader, Segment, Tex1, TextureSet};

/// What importing textures found worth telling.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextureReport {
    /// CMPR 4×4 blocks whose pixels no endpoint pair among their own colours reproduces, per
    /// texture name (re-encoded by the ordinary encoder, so they differ slightly).
    pub inexact_blocks: Vec<(String, usize)>,
    /// Textures stored at another size than the glTF image's, as GX samples them
    /// ([`gx::tex::sampled_size`]: sides at most 1024, powers of two where the texture
    /// wraps): texture name, glTF size, stored size.
    pub resized: Vec<(String, [u32; 2], [u32; 2])>,
}

/// TEX1, MAT3 materials and the J3D material of every scene mesh.
pub(super) struct Materials {
    pub tex1: Tex1,
    pub materials: Vec<Material>,
    /// J3D material per scene mesh.
    pub of_mesh: Vec<u16>,
    pub report: TextureReport,
}

pub(super) fn materials(
    scene: &Scene,
    model: &ModelExtras,
    opts: &ImportOptions,
) -> Result<Materials> {
    let mut set = TextureSet::default();
    let mut names: Vec<String> = Vec::new();
    let mut report = TextureReport::default();
    for t in &model.textures {
        let image = t
            .image
            .and_then(|i| scene.images().get(i))
            .ok_or_else(|| Error::message(format!("texture {}: its image is missing", t.name)))?;
        // A recorded texture keeps its sides (its file had them), capped at 1024.
        let (header, data, palette) = encode(
            image,
            &t.header,
            &t.palette,
            &t.name,
            [false; 2],
            &mut report,
        )?;
        set.push(header, &data, palette.as_deref());
        names.push(t.name.clone());
    }
    // Materials our export recorded, by MAT3 index.
    let mut recorded: Vec<Option<Material>> = Vec::new();
    let mut of_scene: HashMap<usize, usize> = HashMap::new();
    for (i, m) in scene.materials.iter().enumerate() {
        if let Some(x) = extras::read::<MaterialExtras>(m.extras.as_ref()) {
            if x.index >= 0x10000 {
                continue;
            }
            if recorded.len() <= x.index {
                recorded.resize(x.index + 1, None);
            }
            if let Some(slot) = recorded.get_mut(x.index)
                && slot.is_none()
            {
                *slot = Some(x.material);
            }
            of_scene.insert(i, x.index);
        }
    }
    let mut materials: Vec<Material> = recorded
        .into_iter()
        .enumerate()
        .map(|(i, m)| {
            m.unwrap_or_else(|| standard(&format!("material_{i}"), None, &Look::default()))
        })
        .collect();
    // Plain materials: a standard setup, textures chosen per image.
    let mut image_texture: HashMap<(usize, [u8; 2]), u16> = HashMap::new();
    let coloured = |mat: usize| {
        scene
            .meshes
            .iter()
            .any(|m| m.material == Some(mat) && m.colors.first().is_some_and(|c| !c.is_empty()))
    };
    for (i, m) in scene.materials.iter().enumerate() {
        if of_scene.contains_key(&i) {
            continue;
        }
        let texture = match m
            .texture
            .and_then(|t| scene.images().get(t).map(|img| (t, img)))
        {
            Some((t, img)) => {
                // The glTF sampler's wrap modes (GX_CLAMP 0, GX_REPEAT 1, GX_MIRROR 2): a
                // texture per image and modes.
                let wrap = m.wrap.map(gx::scene::Wrap::gx);
                Some(match image_texture.get(&(t, wrap)) {
                    Some(&k) => k,
                    None => {
                        let format = opts
                            .texture_format
                            .unwrap_or_else(|| gx::tex::choose_format(img));
                        let name = format!("{}_tex", ascii(&m.name, i));
                        let max = 1 + img.width().max(img.height()).max(1).ilog2();
                        let header = BtiHeader {
                            format: format.0,
                            palette_format: gx::tex::EncodeOptions::default().palette_format.0,
                            wrap_s: wrap[0],
                            wrap_t: wrap[1],
                            ..BtiHeader::new_texture(opts.mipmaps.clamp(1, max) as u8)
                        };
                        // The exact CMPR encoder where it can: a flat-coloured image comes back
                        // pixel for pixel.
                        let repeat = [header.wrap_s, header.wrap_t].map(|w| w != 0);
                        let (header, data, palette) =
                            encode(img, &header, &[], &name, repeat, &mut report)?;
                        set.push(header, &data, palette.as_deref());
                        names.push(name);
                        let k = crate::chunk::u16_of(set.textures.len() - 1, "texture index")?;
                        image_texture.insert((t, wrap), k);
                        k
                    }
                })
            }
            None => None,
        };
        let look = Look {
            color: m.color.map(linear_to_srgb),
            alpha: m.alpha_mode,
            double_sided: m.double_sided,
            unlit: m.unlit,
            vertex_colors: coloured(i),
            texcoord: m.texcoord.min(7) as u8,
        };
        of_scene.insert(i, materials.len());
        materials.push(standard(&ascii(&m.name, i), texture, &look));
    }
    let mut fallback = None;
    let mut of_mesh = Vec::with_capacity(scene.meshes.len());
    for m in &scene.meshes {
        let j = match m.material.and_then(|i| of_scene.get(&i)) {
            Some(&j) => j,
            None => *fallback.get_or_insert_with(|| {
                materials.push(standard("default", None, &Look::default()));
                materials.len() - 1
            }),
        };
        of_mesh.push(crate::chunk::u16_of(j, "material index")?);
    }
    // Nintendo's tools point a texture without a palette at the start of the data (where
    // palettes would go).
    let n = set.textures.len();
    for (i, t) in set.textures.iter_mut().enumerate() {
        if t.palette.is_none() {
            t.header.palette_offset = crate::chunk::u32_of((n - i) * BtiHeader::SIZE, "offset")?;
        }
    }
    set.segments.push(Segment::Names);
    let tex1 = Tex1 {
        marker: 0xFFFF,
        set,
        names: Some(NameTable::new(
            names.iter().map(|n| crate::nametab::name_bytes(n)),
        )),
        empty_offset: 0,
        names_align: 0,
        pad: crate::Pad::Nintendo,
    };
    Ok(Materials {
        tex1,
        materials,
        of_mesh,
        report,
    })
}

/// A name J3D's name tables hold (ASCII; anything else replaced), or one made from `i`.
fn ascii(name: &str, i: usize) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        format!("material_{i}")
    } else {
        s
    }
}

/// glTF's linear colour factor to the gamma-encoded 8-bit value GX registers hold.
fn linear_to_srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// Encodes `img` (level 0; lower levels are generated) as `header` says, at the size GX samples
/// it (`repeat`: whether sides must be powers of two, S and T); returns the header with its
/// size and palette fields set, the image bytes and the palette bytes.
fn encode(
    img: &Image,
    header: &BtiHeader,
    palette: &[[u8; 4]],
    name: &str,
    repeat: [bool; 2],
    report: &mut TextureReport,
) -> Result<(BtiHeader, Vec<u8>, Option<Vec<u8>>)> {
    let mut h = *header;
    let sampled = img.sampled(repeat)?;
    if let Some(r) = &sampled {
        let sizes = [[img.width(), img.height()], [r.width(), r.height()]];
        report.resized.push((name.to_owned(), sizes[0], sizes[1]));
    }
    let img = sampled.as_ref().unwrap_or(img);
    h.width = u16::try_from(img.width()).map_err(|_| Error::message("texture too wide"))?;
    h.height = u16::try_from(img.height()).map_err(|_| Error::message("texture too tall"))?;
    h.image_offset = 0;
    h.palette_offset = 0;
    let format = TexFormat(h.format);
    let levels = img.mip_chain(u32::from(h.image_count.max(1)));
    if format.is_indexed() {
        let pf = PaletteFormat(h.palette_format);
        let colors: Vec<gx::tex::Rgba> = palette.to_vec();
        let (data, pal) = if colors.is_empty() {
            let e = gx::tex::encode_mips(
                format,
                &levels,
                &gx::tex::EncodeOptions {
                    palette_format: pf,
                    max_palette_entries: None,
                },
            )?;
            (e.data, e.palette)
        } else {
            let mut data = Vec::new();
            for l in &levels {
                let ix: Vec<u16> = l.pixels().iter().map(|p| nearest(&colors, *p)).collect();
                data.extend(gx::tex::encode_indices(format, l.width(), l.height(), &ix)?);
            }
            (data, gx::tex::encode_palette(pf, &colors)?)
        };
        h.palette_enable = 1;
        h.palette_count = crate::chunk::u16_of(pal.len() / 2, "palette entries")?;
        return Ok((h, data, Some(pal)));
    }
    let mut data = Vec::new();
    for (k, l) in levels.iter().enumerate() {
        if format == TexFormat::CMPR {
            let exact = gx::tex::cmpr::encode_exact(l)?;
            if k == 0 && !exact.inexact.is_empty() {
                report
                    .inexact_blocks
                    .push((name.to_owned(), exact.inexact.len()));
            }
            data.extend(exact.data);
        } else {
            data.extend(gx::tex::encode(format, l)?);
        }
    }
    h.palette_enable = 0;
    h.palette_count = 0;
    Ok((h, data, None))
}

/// Index of the palette colour closest to `p` (exact matches first).
fn nearest(colors: &[gx::tex::Rgba], p: gx::tex::Rgba) -> u16 {
    let d = |c: &gx::tex::Rgba| -> u32 {
        c.iter()
            .zip(p)
            .map(|(a, b)| u32::from(a.abs_diff(b)).pow(2))
            .sum()
    };
    colors
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| d(c))
        .map_or(0, |(i, _)| i as u16)
}

/// What a plain glTF material asks for.
pub(super) struct Look {
    color: [f32; 4],
    alpha: AlphaMode,
    double_sided: bool,
    unlit: bool,
    vertex_colors: bool,
    texcoord: u8,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            color: [1.0; 4],
            alpha: AlphaMode::Opaque,
            double_sided: false,
            unlit: false,
            vertex_colors: false,
            texcoord: 0,
        }
    }
}

/// GX constants of the standard setup.
mod gxc {
    pub const TEXCOORD0: u8 = 4;
    pub const IDENTITY: u8 = 0x3C;
    pub const COLOR0A0: u8 = 4;
    pub const CC_TEXC: u8 = 8;
    pub const CC_RASC: u8 = 10;
    pub const CC_ZERO: u8 = 0xF;
    pub const CA_TEXA: u8 = 4;
    pub const CA_RASA: u8 = 5;
    pub const CA_ZERO: u8 = 7;
    pub const ALWAYS: u8 = 7;
    pub const GEQUAL: u8 = 6;
    pub const LEQUAL: u8 = 3;
}

/// The standard material for `look`, sampling TEX1 texture `texture` when given.
fn standard(name: &str, texture: Option<u16>, look: &Look) -> Material {
    let to8 = |c: f32| (c.clamp(0.0, 1.0) * 255.0).round() as u8;
    let src = u8::from(look.vertex_colors);
    let color_chan = ColorChannel {
        enable: u8::from(!look.unlit),
        mat_src: src,
        light_mask: u8::from(!look.unlit),
        diffuse_fn: if look.unlit { 0 } else { 2 },
        attn_fn: if look.unlit { 2 } else { 1 },
        amb_src: 0,
        pad: 0xFFFF,
    };
    let alpha_chan = ColorChannel {
        enable: 0,
        mat_src: src,
        light_mask: 0,
        diffuse_fn: 0,
        attn_fn: 2,
        amb_src: 0,
        pad: 0xFFFF,
    };
    let (mode, alpha_compare, blend, z_write, z_comp_loc) = match look.alpha {
        AlphaMode::Opaque => (1, always(), no_blend(), 1, 1),
        AlphaMode::Mask(cutoff) => (
            2,
            AlphaCompare {
                comp0: gxc::GEQUAL,
                ref0: to8(cutoff),
                op: 0,
                comp1: gxc::ALWAYS,
                ref1: 0,
                pad: [0xFF; 3],
            },
            no_blend(),
            1,
            0,
        ),
        AlphaMode::Blend => (
            4,
            always(),
            Blend {
                mode: 1,
                src: 4,
                dst: 5,
                logic: 3,
            },
            0,
            1,
        ),
    };
    let mut m = Material {
        name: name.as_bytes().to_vec(),
        mode,
        cull: Some(if look.double_sided {
            cull::NONE
        } else {
            cull::BACK
        }),
        chan_count: Some(1),
        tex_gen_count: Some(u8::from(texture.is_some())),
        tev_count: Some(1),
        z_comp_loc: Some(z_comp_loc),
        z_mode: Some(ZMode {
            test: 1,
            func: gxc::LEQUAL,
            write: z_write,
            pad: 0xFF,
        }),
        dither: Some(1),
        alpha_compare: Some(alpha_compare),
        blend: Some(blend),
        nbt_scale: Some(NbtScale {
            enable: 0,
            pad: [0xFF; 3],
            scale: [1.0; 3],
        }),
        konst_color_sel: [0x0C; 16],
        konst_alpha_sel: [0x1C; 16],
        unknown: [0xFF; 0x18],
        ..Material::default()
    };
    m.mat_colors[0] = Some(look.color.map(to8));
    m.amb_colors[0] = Some([0x40, 0x40, 0x40, 0xFF]);
    m.channels[0] = Some(color_chan);
    m.channels[1] = Some(alpha_chan);
    let stage = |color_in: [u8; 4], alpha_in: [u8; 4]| TevStage {
        mode: 0xFF,
        color_in,
        color_op: 0,
        color_bias: 0,
        color_scale: 0,
        color_clamp: 1,
        color_reg: 0,
        alpha_in,
        alpha_op: 0,
        alpha_bias: 0,
        alpha_scale: 0,
        alpha_clamp: 1,
        alpha_reg: 0,
        pad: 0xFF,
    };
    match texture {
        Some(t) => {
            m.tex_gens[0] = Some(TexCoordGen {
                ty: 1,
                src: gxc::TEXCOORD0 + look.texcoord,
                matrix: gxc::IDENTITY,
                pad: 0xFF,
            });
            m.textures[0] = Some(t);
            m.tev_orders[0] = Some(TevOrder {
                tex_coord: 0,
                tex_map: 0,
                channel: gxc::COLOR0A0,
                pad: 0xFF,
            });
            m.tev_stages[0] = Some(stage(
                [gxc::CC_ZERO, gxc::CC_TEXC, gxc::CC_RASC, gxc::CC_ZERO],
                [gxc::CA_ZERO, gxc::CA_TEXA, gxc::CA_RASA, gxc::CA_ZERO],
            ));
        }
        None => {
            m.tev_orders[0] = Some(TevOrder {
                tex_coord: 0xFF,
                tex_map: 0xFF,
                channel: gxc::COLOR0A0,
                pad: 0xFF,
            });
            m.tev_stages[0] = Some(stage(
                [gxc::CC_ZERO, gxc::CC_ZERO, gxc::CC_ZERO, gxc::CC_RASC],
                [gxc::CA_ZERO, gxc::CA_ZERO, gxc::CA_ZERO, gxc::CA_RASA],
            ));
        }
    }
    m.tev_colors = [Some([0, 0, 0, 0xFF]); 4];
    m.swap_modes[0] = Some(SwapMode {
        ras_sel: 0,
        tex_sel: 0,
        pad: 0xFFFF,
    });
    m.swap_tables = [Some(SwapTable {
        r: 0,
        g: 1,
        b: 2,
        a: 3,
    }); 4];
    m
}

fn always() -> AlphaCompare {
    AlphaCompare {
        comp0: gxc::ALWAYS,
        ref0: 0,
        op: 0,
        comp1: gxc::ALWAYS,
        ref1: 0,
        pad: [0xFF; 3],
    }
}

fn no_blend() -> Blend {
    Blend {
        mode: 0,
        src: 1,
        dst: 0,
        logic: 3,
    }
}
