//! MObjs, TObjs and images: from our export's typed extras (render mode, colours, pixel
//! engine, each TObj with its image and palette format) where a material has them, else made
//! to look like the glTF material (base colour, base-colour texture, alpha mask or blend).

use std::collections::HashMap;

use gcio::{Error, Result};
use gx::scene::{AlphaMode, Scene};
use gx::tex::cmpr::Flat;
use gx::tex::{EncodeOptions, PaletteFormat, TexFormat};

use super::ImportOptions;
use crate::build::Builder;
use crate::build::parts::{material, mobj, pixel_engine, tobj};
use crate::compile::Order;
use crate::extras::{self, ImageExtras, MaterialExtras, ModelExtras};
use crate::flags::{PeFlags, RenderMode, TObjFlags};
use crate::matanim::TextureSrt;
use crate::model::Target;
use crate::types::{Image, MatAnim, MatAnimJoint, Palette, TexAnim};

/// GX's `GX_GEQUAL` and `GX_ALWAYS` alpha compares, `GX_AOP_AND`.
const GEQUAL: u8 = 6;

/// The TObj source that reads texture coordinate set 0 (`GX_TEXCOORD0` + 4).
const SRC_TEX0: u32 = 4;

/// Texture coordinate sets GX has (TEX0..TEX7).
pub(super) const UV_SETS: usize = 8;

/// TObj coordinate modes generated at draw time (reflection, highlight, shadow).
const GENERATED: [u32; 3] = [1, 2, 3];

/// How an image is stored: scene image, GX format, palette (format, most entries), levels.
/// An image's encoding: scene image, GX format, palette (format, entries), levels, and whether
/// its TObj repeats or mirrors along S and T (GX wraps only power-of-two sizes).
/// Scene image, GX format, palette (format, entries), mip levels, repeat (S, T) and the CMPR
/// flat form: one encoding.
type ImageKey = (usize, u8, Option<(u8, u16)>, u32, [bool; 2], Flat);

/// The materials built so far (one MObj per glTF material, one image per distinct encoding).
pub(super) struct Materials<'a> {
    scene: &'a Scene,
    opts: &'a ImportOptions,
    mobjs: HashMap<Option<usize>, Target>,
    /// Per encoding: the Image struct to copy (pixels set) and the palette.
    images: HashMap<ImageKey, (Image<Target>, Option<Target>)>,
    /// CMPR sub-blocks that could not be re-encoded exactly.
    pub inexact_blocks: usize,
    /// Images stored at another size than glTF's: (scene image, glTF size, stored size).
    pub resized: Vec<(usize, [u32; 2], [u32; 2])>,
    /// Whether our extras' image indices name this document's images ([`images_trusted`]),
    /// decided once for the whole import.
    pub trusted: bool,
}

impl<'a> Materials<'a> {
    pub(super) fn new(scene: &'a Scene, opts: &'a ImportOptions) -> Self {
        Materials {
            scene,
            opts,
            mobjs: HashMap::new(),
            images: HashMap::new(),
            inexact_blocks: 0,
            resized: Vec::new(),
            trusted: images_trusted(scene),
        }
    }

    /// How many texture coordinate sets glTF material `m` reads (its meshes then need TEX0 up
    /// to the last): a plain material with a texture reads TEX0; a recorded TObj whose
    /// coordinates are not generated (reflection, highlight and shadow maps are, from normals
    /// or positions) reads the set its source names (`GX_TEXCOORDn` + 4).
    pub(super) fn uv_sets(&self, m: Option<usize>) -> usize {
        let mat = m.and_then(|m| self.scene.materials.get(m));
        match mat.and_then(|x| extras_of(x, self.trusted)) {
            Some(x) => x
                .textures
                .iter()
                .filter(|t| {
                    let coord = t.flags & TObjFlags::COORD.bits();
                    t.image.is_some() && t.src >= SRC_TEX0 && !GENERATED.contains(&coord)
                })
                .map(|t| (t.src - SRC_TEX0) as usize + 1)
                .max()
                .unwrap_or(0)
                .min(UV_SETS),
            None => mat
                .filter(|x| x.texture.is_some())
                .map_or(0, |x| x.texcoord.min(UV_SETS - 1) + 1),
        }
    }

    /// Whether glTF material `m` bump-maps: a recorded TObj with `TEX_BUMP`, whose emboss
    /// texgen (`GX_TG_BUMPn`) reads each vertex's binormal and tangent, so its meshes need NBT
    /// normals. A plain glTF material has no bump TObj.
    pub(super) fn bump(&self, m: Option<usize>) -> bool {
        m.and_then(|m| self.scene.materials.get(m))
            .and_then(|x| extras_of(x, self.trusted))
            .is_some_and(|x| {
                x.textures
                    .iter()
                    .any(|t| t.flags & TObjFlags::BUMP.bits() != 0)
            })
    }

    /// The MObj of glTF material `m` (`None`: a plain white one), built once.
    pub(super) fn mobj(&mut self, b: &mut Builder, m: Option<usize>) -> Result<Target> {
        if let Some(&t) = self.mobjs.get(&m) {
            return Ok(t);
        }
        let mat = m.and_then(|m| self.scene.materials.get(m));
        let t = match (mat, mat.and_then(|x| extras_of(x, self.trusted))) {
            (_, Some(x)) => self.recorded(b, &x)?,
            (Some(mat), _) => self.plain(b, mat)?,
            (None, _) => {
                let c = b.put(&material(0x80));
                b.put(&mobj(
                    RenderMode::CONSTANT | RenderMode::DIFFUSE | RenderMode::ALPHA_MAT,
                    None,
                    c,
                    None,
                ))
            }
        };
        self.mobjs.insert(m, t);
        Ok(t)
    }

    /// Images no material or image swap draws (texture-animation frames of our export that no
    /// animation selects) kept in the model:
    /// one MatAnimJoint whose MatAnim lists them in TexAnims (indexed ones with their
    /// palettes), without AObj so nothing animates. `None` when every image is drawn.
    pub(super) fn loose(&mut self, b: &mut Builder) -> Result<Option<Target>> {
        if !self.trusted {
            return Ok(None);
        }
        let model: ModelExtras = extras::read(self.scene.extras.as_ref()).unwrap_or_default();
        let drawn: Vec<usize> = self.images.keys().map(|k| k.0).collect();
        let mut direct = Vec::new();
        let mut indexed = Vec::new();
        for i in 0..self.scene.images().len() {
            if drawn.contains(&i) {
                continue;
            }
            let key = self.frame_key(&model, i)?;
            let (image, pal) = self.image(b, i, key)?;
            match pal {
                Some(p) => indexed.push((image, p)),
                None => direct.push(image),
            }
        }
        if direct.is_empty() && indexed.is_empty() {
            return Ok(None);
        }
        let count = |n: usize| u16::try_from(n).map_err(|_| Error::message("too many images"));
        let mut next = None;
        if !direct.is_empty() {
            let table = b.ptr_table(&direct);
            next = Some(b.put(&TexAnim {
                next,
                id: 0,
                aobj: None,
                image_table: Some(table),
                palette_table: None,
                n_images: count(direct.len())?,
                n_palettes: 0,
            }));
        }
        if !indexed.is_empty() {
            let (images, palettes): (Vec<Target>, Vec<Target>) = indexed.into_iter().unzip();
            let n = count(images.len())?;
            let image_table = b.ptr_table(&images);
            let palette_table = b.ptr_table(&palettes);
            next = Some(b.put(&TexAnim {
                next,
                id: 0,
                aobj: None,
                image_table: Some(image_table),
                palette_table: Some(palette_table),
                n_images: n,
                n_palettes: n,
            }));
        }
        let anim = b.put(&MatAnim {
            next: None,
            aobj: None,
            texanim: next,
            render_anim: None,
        });
        Ok(Some(b.put(&MatAnimJoint {
            child: None,
            next: None,
            matanim: Some(anim),
        })))
    }

    /// Scene image `i` stored as our export recorded it (else in the chosen format), encoded
    /// once: an image-swap frame.
    pub(super) fn frame_image(
        &mut self,
        b: &mut Builder,
        i: usize,
    ) -> Result<(Target, Option<Target>)> {
        let model: ModelExtras = extras::read(self.scene.extras.as_ref()).unwrap_or_default();
        let key = self.frame_key(&model, i)?;
        self.image(b, i, key)
    }

    /// How scene image `i` is stored when no material says: as our export recorded it, else
    /// in the chosen format.
    fn frame_key(&self, model: &ModelExtras, i: usize) -> Result<ImageKey> {
        Ok(match model.images.get(i).cloned().flatten() {
            Some(x) => texture_key(i, &x, [false; 2]),
            None => {
                let img = self
                    .scene
                    .images()
                    .get(i)
                    .ok_or_else(|| Error::message(format!("texture image {i} missing")))?;
                let f = self
                    .opts
                    .texture_format
                    .unwrap_or_else(|| gx::tex::choose_format(img));
                (i, f.0, None, 1, [false; 2], Flat::Hal)
            }
        })
    }

    /// An MObj from our export's extras.
    fn recorded(&mut self, b: &mut Builder, x: &MaterialExtras) -> Result<Target> {
        let colors = b.put(&x.material().unwrap_or_else(|| material(0x80)));
        let pe = x.pixel_engine().map(|p| b.put(&p));
        let mut next = None;
        for t in x.textures.iter().rev() {
            let Some(image) = t.image else { continue };
            // A recorded texture keeps its sides (its file had them), capped at 1024.
            let (img, pal) = self.image(b, image, texture_key(image, &t.stored, [false; 2]))?;
            // Every coordinate set comes through glTF (TEXCOORD_n), so the source is kept.
            let mut tobj = t.tobj::<Target>();
            tobj.image = Some(img);
            tobj.palette = pal;
            tobj.tev = t.tev.map(|x| b.put(&x.tev()));
            tobj.lod = t.lod.map(|x| b.put(&x.lod()));
            tobj.next = next;
            next = Some(b.put(&tobj));
        }
        let mut m = mobj(
            RenderMode::from_bits_retain(x.render_mode),
            next,
            colors,
            pe,
        );
        // Translucent materials draw nothing in Colosseum/XD (seed 003); Melee's XLU pass draws
        // them under joints that keep their XLU bit (TyBSword's beam).
        if self.opts.order == Order::ColosseumXd {
            m.render_mode.remove(RenderMode::XLU);
        }
        Ok(b.put(&m))
    }

    /// An MObj that looks like a plain glTF material.
    fn plain(&mut self, b: &mut Builder, mat: &gx::scene::Material) -> Result<Target> {
        let colors = b.put(&plain_colors(mat));
        let mut mode = RenderMode::CONSTANT | RenderMode::DIFFUSE | RenderMode::ALPHA_MAT;
        let mut tobj_at = None;
        if let Some(i) = mat.texture {
            let img = self.scene.images().get(i).ok_or_else(|| {
                Error::message(format!("material {} texture {i} missing", mat.name))
            })?;
            let format = self
                .opts
                .texture_format
                .unwrap_or_else(|| gx::tex::choose_format(img));
            let palette = format.is_indexed().then(|| {
                (
                    PaletteFormat::RGB5A3.0,
                    format.max_palette_entries().min(256) as u16,
                )
            });
            // The glTF sampler's wrap modes (GX_CLAMP 0, GX_REPEAT 1, GX_MIRROR 2); a side that
            // repeats or mirrors needs a power-of-two size.
            let wrap = mat.wrap.map(|w| u32::from(w.gx()));
            let repeat = wrap.map(|w| w != 0);
            let (image, pal) = self.image(b, i, (i, format.0, palette, 1, repeat, Flat::Hal))?;
            let mut t = tobj(0, None, image, pal);
            [t.wrap_s, t.wrap_t] = wrap;
            // The glTF texture's coordinate set (`texCoord`) is the TObj's source.
            t.src = SRC_TEX0 + mat.texcoord.min(UV_SETS - 1) as u32;
            tobj_at = Some(b.put(&t));
            mode |= RenderMode::TEX0;
        }
        let pe = match mat.alpha_mode {
            AlphaMode::Opaque => None,
            AlphaMode::Mask(cutoff) => {
                let mut p = pixel_engine(
                    PeFlags::COLOR_UPDATE
                        | PeFlags::ALPHA_UPDATE
                        | PeFlags::COMPARE
                        | PeFlags::ZUPDATE,
                );
                p.blend_type = 0;
                p.ref0 = (cutoff.clamp(0.0, 1.0) * 255.0).round() as u8;
                p.alpha_comp0 = GEQUAL;
                Some(b.put(&p))
            }
            AlphaMode::Blend => Some(b.put(&pixel_engine(
                PeFlags::COLOR_UPDATE | PeFlags::ALPHA_UPDATE | PeFlags::COMPARE | PeFlags::ZUPDATE,
            ))),
        };
        Ok(b.put(&mobj(mode, tobj_at, colors, pe)))
    }

    /// The image (and palette) of scene image `key.0` in format `key.1`, encoded once.
    fn image(
        &mut self,
        b: &mut Builder,
        index: usize,
        key: ImageKey,
    ) -> Result<(Target, Option<Target>)> {
        // Pixels and palette once per encoding; an Image struct per TObj (HAL's compiler
        // gives each TObj its own, pointing at shared pixels: TyBSword's two at 0x70c, 0x7d8).
        if let Some((header, pal)) = self.images.get(&key) {
            return Ok((b.put(header), *pal));
        }
        let img = self
            .scene
            .images()
            .get(index)
            .ok_or_else(|| Error::message(format!("texture image {index} missing")))?;
        let (_, format, palette, levels, repeat, flat) = key;
        let format = TexFormat(format);
        // A size GX samples: larger sides scaled down, and power-of-two sides where the TObj
        // wraps (a plain glTF's textures repeat); recorded images already have one.
        let sampled = img.sampled(repeat)?;
        if let Some(r) = &sampled {
            let sizes = [[img.width(), img.height()], [r.width(), r.height()]];
            self.resized.push((index, sizes[0], sizes[1]));
        }
        let img = sampled.as_ref().unwrap_or(img);
        let chain = img.mip_chain(levels.max(1));
        let mut pal = None;
        let mut data = Vec::new();
        if format.is_indexed() {
            let (pf, most) = palette.unwrap_or((PaletteFormat::RGB5A3.0, 256));
            let most = usize::from(most.max(1));
            // An image needing more entries than the recorded count keeps them rather than
            // being quantised: our export widens the table of texels that index past the LUT
            // to what the GPU reads there (the LUT's padding, then zeros:
            // `Archive::decode_texture`), and an editor may add colours.
            let needed = chain.first().map_or(0, |l| match l.table() {
                Some((colors, _)) => colors.len(),
                None => distinct_colors(l, format.max_palette_entries()),
            });
            let e = gx::tex::encode_mips(
                format,
                &chain,
                &EncodeOptions {
                    palette_format: PaletteFormat(pf),
                    max_palette_entries: Some(most.max(needed)),
                },
            )?;
            data = e.data;
            // The LUT holds the recorded entry count (unused entries zero), as the source's
            // did: HAL's palettes keep their size whatever the image uses. A table widened to
            // texels past it stays whole, so the LUT covers every entry drawn in any layout.
            let mut lut = e.palette;
            if palette.is_some() && lut.len() < 2 * most {
                lut.resize(2 * most, 0);
            }
            let n = u16::try_from(lut.len() / 2).map_err(|_| Error::message("palette too long"))?;
            let lut = b.bytes(lut, 32);
            pal = Some(b.put(&Palette {
                data: Some(lut),
                format: u32::from(pf),
                tlut_name: 0,
                n_entries: n,
            }));
        } else {
            for l in &chain {
                if format == TexFormat::CMPR {
                    let exact = gx::tex::cmpr::encode_exact_with(l, flat)?;
                    self.inexact_blocks += exact.inexact.len();
                    data.extend(exact.data);
                } else {
                    data.extend(gx::tex::encode(format, &zero_padded(format, l)?)?);
                }
            }
        }
        let pixels = b.bytes(data, 32);
        let dim = |v: u32| u16::try_from(v).map_err(|_| Error::message("texture too large"));
        let header = Image {
            data: Some(pixels),
            width: dim(img.width())?,
            height: dim(img.height())?,
            format: u32::from(format.0),
            mipmap: u32::from(levels > 1),
            min_lod: 0.0,
            max_lod: levels.saturating_sub(1) as f32,
        };
        let t = (b.put(&header), pal);
        self.images.insert(key, (header, pal));
        Ok(t)
    }
}

/// `img` on the whole blocks `format` stores, texels past its edges 0: HAL's encoder pads with
/// zero bytes where `gx::tex::encode` repeats the edge (`TyDaisy.dat`'s 64×46 RGBA8 image ends
/// in two zero rows, 512 bytes; C4/C8 padding is index 0 in `gx::tex::encode_mips` already).
fn zero_padded(format: TexFormat, img: &gx::tex::Image) -> Result<gx::tex::Image> {
    let (w, h) = format.padded(img.width(), img.height())?;
    if (w, h) == (img.width(), img.height()) {
        return Ok(img.clone());
    }
    gx::tex::Image::from_fn(w, h, |x, y| img.pixel(x, y).unwrap_or([0; 4]))
}

/// The colours of a plain glTF material's MObj: grey ambient and specular, the base colour as
/// diffuse and alpha.
fn plain_colors(mat: &gx::scene::Material) -> crate::types::Material {
    let mut c = material(0x80);
    let [r, g, bl, a] = mat.color.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8);
    c.diffuse = crate::Rgba([r, g, bl, 0xFF]);
    c.alpha = f32::from(a) / 255.0;
    c
}

/// What the MObj of a glTF material starts from, as the import builds it (what its animation
/// tracks replace).
pub(super) struct Rest {
    /// Colours.
    pub colors: crate::types::Material,
    /// Pixel engine (recorded materials only).
    pub pe: Option<crate::types::PixelEngine>,
    /// Each TObj's id, texture SRT and descriptions, in chain order.
    pub textures: Vec<(u32, TextureSrt, Descriptions)>,
}

/// Whether a TObj has a LOD and a TEV description: the runtime writes a LOD-bias track to the
/// first and konst and TEV register tracks to the second without a NULL check.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Descriptions {
    /// Has a LOD description.
    pub lod: bool,
    /// Has a TEV description.
    pub tev: bool,
}

/// Whether our extras' image indices still name the document's images. The model extras list
/// one entry per glTF image our export wrote; an editor that rewrites the document (Blender
/// drops images no material draws and renumbers the rest) leaves another count, and its
/// indices would name other images or none. Without model extras, every index the materials'
/// extras hold must at least exist.
pub(super) fn images_trusted(scene: &Scene) -> bool {
    let n = scene.images().len();
    match extras::read::<ModelExtras>(scene.extras.as_ref()) {
        Some(m) => m.images.len() == n,
        None => scene
            .materials
            .iter()
            .filter_map(|m| extras::read::<MaterialExtras>(m.extras.as_ref()))
            .flat_map(|x| x.textures)
            .all(|t| t.image.is_none_or(|i| i < n)),
    }
}

/// Our export's extras of glTF material `mat`, when they are ours and their image indices can
/// be `trusted` ([`images_trusted`]); otherwise the material imports from its glTF form.
fn extras_of(mat: &gx::scene::Material, trusted: bool) -> Option<MaterialExtras> {
    extras::read::<MaterialExtras>(mat.extras.as_ref()).filter(|x| trusted && x.version > 0)
}

/// The [`Rest`] of glTF material `m` (`None` when the scene has no such material); `trusted`
/// as [`images_trusted`] decides for the scene.
pub(super) fn rest(scene: &Scene, m: usize, trusted: bool) -> Option<Rest> {
    let mat = scene.materials.get(m)?;
    Some(match extras_of(mat, trusted) {
        Some(x) => Rest {
            colors: x.material().unwrap_or_else(|| material(0x80)),
            pe: x.pixel_engine(),
            textures: x
                .textures
                .iter()
                .filter(|t| t.image.is_some())
                .map(|t| {
                    let d = Descriptions {
                        lod: t.lod.is_some(),
                        tev: t.tev.is_some(),
                    };
                    (t.id, TextureSrt::of(&t.tobj::<Target>()), d)
                })
                .collect(),
        },
        None => Rest {
            colors: plain_colors(mat),
            pe: None,
            textures: mat
                .texture
                .map(|_| {
                    let srt = TextureSrt::of(&tobj(0, None, Target::End(0), None));
                    (0, srt, Descriptions::default())
                })
                .into_iter()
                .collect(),
        },
    })
}

/// How our export says to store an image: its recorded format, palette, mip levels
/// (`max_lod + 1` when mipmapped) and CMPR flat form (unknown names: [`Flat::Hal`]).
fn texture_key(image: usize, t: &ImageExtras, repeat: [bool; 2]) -> ImageKey {
    let levels = if t.mipmap != 0 {
        (t.lod[1].max(0.0) as u32 + 1).min(11)
    } else {
        1
    };
    let palette = t.palette.map(|(f, n)| (f as u8, n));
    let flat = t
        .cmpr_flat
        .as_deref()
        .and_then(Flat::from_name)
        .unwrap_or(Flat::Hal);
    (image, t.format as u8, palette, levels, repeat, flat)
}

/// The distinct colours of `img`, counted up to `cap` (more: `cap`).
fn distinct_colors(img: &gx::tex::Image, cap: usize) -> usize {
    let mut seen = std::collections::HashSet::new();
    for p in img.pixels() {
        if seen.len() >= cap {
            break;
        }
        seen.insert(p);
    }
    seen.len()
}
