//! A layout drawn to an RGBA image, so a screen can be looked at without the game.
//!
//! What follows NW4R (`nw4r::lyt`): the pane tree in drawing order, pane SRT composed with the
//! parents, base position, visibility and inherited alpha ([`crate::place`]); the canvas is
//! `lyt1`'s screen with its origin at the centre (`GetLayoutRect`; a layout with `centered` 0
//! has it at the top left, y still up: no real layout is so, unverified);
//! texture coordinates through each map's coordinate generator and texture SRT
//! (`CalcTextureMtx`: scale and rotation about the centre (0.5, 0.5), then translation), GX
//! wrap modes (clamp, repeat, mirror); the TEV set-up `Material::SetupGX` makes when a material
//! stores no TEV stages: no texture gives TEV colour 1 × raster, one texture lerps TEV colours
//! 0 → 1 by the texel, two lerp the textures by konst 3's alpha, more add them weighted by the
//! konst selections, then × raster; the raster colour is the vertex colour (corners interpolated
//! bilinearly), or the material colour where the channel control selects the register, its alpha
//! times the pane's; blending is source alpha over; windows draw their content inflated from
//! the frames inward and the 1, 4 or 8 frame pieces with their flips (`Window::DrawSelf`);
//! bounding and null panes draw nothing.
//!
//! A material's own TEV stages are evaluated as GX does (inputs, add/subtract, bias, scale,
//! clamp, output registers, konst selections), on the texel of each stage's map and generator.
//!
//! The alpha test (`GXSetAlphaCompare`) discards what it fails.
//!
//! TEV swap tables pick the texel's and raster colour's components (the stage's selections;
//! entry 0 for the default set-up).
//!
//! What is approximated: the TEV's comparison operations are taken as additions, its 8-bit
//! rounding is not modelled, indirect stages and blend modes other than source-alpha blending
//! are ignored; a quad's attributes are interpolated bilinearly over
//! the quad where GX interpolates over its two triangles (equal for the parallelograms panes
//! make); rotations about x and y are left out; texture levels other than the first are not used.
//! Text is laid out line by line from the glyph widths a [`GlyphSource`] gives (no tags, no
//! kerning); without a font a text pane is its rectangle's outline in its top colour.

use gx::tex::Image;

use crate::model::{Brlyt, Combiner, Material, Rgba, Section, TexCoords, Text, Window};
use crate::place::{Mtx, Placed, apply};

/// How textures are sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// The texel under the sample point.
    Nearest,
    /// The four nearest texels weighted (what GX does for the layouts' linear filters).
    #[default]
    Bilinear,
}

/// Rendering options.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Options {
    /// Texture sampling.
    pub filter: Filter,
    /// The canvas before anything is drawn (transparent black by default).
    pub background: Rgba,
}

/// One glyph of a font, as a font reader hands it out.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// The glyph's cell (the font's cell height tall): alpha is coverage, the colour tints the
    /// text colour (white for plain glyphs).
    pub image: Image,
    /// Space before the cell (font pixels; negative overlaps the previous glyph).
    pub left: f32,
    /// How far the pen moves after the glyph (font pixels).
    pub advance: f32,
}

/// A font's cell size and line spacing (font pixels), what a text pane's font size scales
/// (BRFNT `FINF`: width, height, line feed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Cell width: a text pane's font width divided by it is the horizontal scale.
    pub width: f32,
    /// Cell height: the vertical scale's divisor, and a glyph image's height.
    pub height: f32,
    /// Distance between lines before scaling.
    pub line_feed: f32,
}

/// Where text panes get their glyphs (a BRFNT reader implements it).
pub trait GlyphSource {
    /// The metrics of the font of this file name (`fnl1`); `None` when the font is not
    /// available, and the text pane is drawn as its outline.
    fn metrics(&self, font: &str) -> Option<Metrics>;
    /// The glyph of a code point in that font; `None` draws nothing and advances nothing.
    fn glyph(&self, font: &str, code: u32) -> Option<Glyph>;
}

/// What [`render`] drew and what it could not.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The canvas, `lyt1`'s screen size.
    pub image: Image,
    /// Panes drawn (visible pictures, windows and text boxes).
    pub drawn: usize,
    /// Visible panes whose materials name a texture the lookup did not give, as
    /// `pane: texture`, once each (drawn with a white texel instead).
    pub missing_textures: Vec<String>,
    /// Visible text panes drawn as outlines because their font was not available, as
    /// `pane: font`.
    pub text_without_font: Vec<String>,
    /// Drawing stopped after [`MAX_WORK`] canvases' worth of pixels: the image is incomplete.
    pub exhausted: bool,
}

/// Largest canvas side drawn (a layout declaring more is refused rather than allocated; the
/// Wii's screens are at most 640 × 528, the real layouts 608 × 456).
pub const MAX_SIDE: u32 = 4096;

/// Most pixels visited per render, in canvases: a hostile layout (thousands of full-screen
/// panes, huge glyphs) stops there rather than running for hours. The real layouts visit
/// fewer than 10.
pub const MAX_WORK: u64 = 256;

/// A colour with components in 0–1.
type Color = [f32; 4];

const WHITE: Color = [1.0; 4];

fn color(c: Rgba) -> Color {
    c.map(|v| f32::from(v) / 255.0)
}

fn lerp(a: Color, b: Color, t: Color) -> Color {
    let mut out = a;
    for ((o, b), t) in out.iter_mut().zip(b).zip(t) {
        *o += (b - *o) * t;
    }
    out
}

fn mul(a: Color, b: Color) -> Color {
    let mut out = a;
    for (o, b) in out.iter_mut().zip(b) {
        *o *= b;
    }
    out
}

/// Bilinear blend of four corners (top left, top right, bottom left, bottom right).
fn corners<const N: usize>(c: &[[f32; N]; 4], u: f32, v: f32) -> [f32; N] {
    let [tl, tr, bl, br] = c;
    let mut out = *tl;
    for (((o, tr), bl), br) in out.iter_mut().zip(tr).zip(bl).zip(br) {
        let top = *o + (tr - *o) * u;
        let bottom = bl + (br - bl) * u;
        *o = top + (bottom - top) * v;
    }
    out
}

/// A texture map ready to sample.
struct Map<'a> {
    image: Option<&'a Image>,
    wrap: [u8; 2],
}

/// GX texture wrap: 0 clamp, 1 repeat, 2 mirror (low two bits).
fn wrap(i: i64, n: i64, mode: u8) -> i64 {
    match mode & 3 {
        1 => i.rem_euclid(n),
        2 => {
            let m = i.rem_euclid(2 * n);
            if m >= n { 2 * n - 1 - m } else { m }
        }
        _ => i.clamp(0, n - 1),
    }
}

impl Map<'_> {
    fn texel(img: &Image, x: i64, y: i64, wrap_mode: [u8; 2]) -> Color {
        let (w, h) = (i64::from(img.width()), i64::from(img.height()));
        let (x, y) = (wrap(x, w, wrap_mode[0]), wrap(y, h, wrap_mode[1]));
        let p = img.pixel(x as u32, y as u32).unwrap_or([255; 4]);
        color(p)
    }

    fn sample(&self, st: [f32; 2], filter: Filter) -> Color {
        let Some(img) = self.image.filter(|i| i.width() > 0 && i.height() > 0) else {
            return WHITE;
        };
        let (x, y) = (st[0] * img.width() as f32, st[1] * img.height() as f32);
        if !x.is_finite() || !y.is_finite() {
            return WHITE;
        }
        match filter {
            Filter::Nearest => Map::texel(img, x.floor() as i64, y.floor() as i64, self.wrap),
            Filter::Bilinear => {
                let (fx, fy) = (x - 0.5, y - 0.5);
                let (x0, y0) = (fx.floor(), fy.floor());
                let (tx, ty) = (fx - x0, fy - y0);
                let (x0, y0) = (x0 as i64, y0 as i64);
                let t = |dx, dy| Map::texel(img, x0 + dx, y0 + dy, self.wrap);
                corners(&[t(0, 0), t(1, 0), t(0, 1), t(1, 1)], tx, ty)
            }
        }
    }
}

/// A material's default TEV set-up (see the module documentation).
struct Shader<'a> {
    maps: Vec<Map<'a>>,
    c0: Color,
    c1: Color,
    /// The konst colour each map's stage selects when several maps are added.
    konst: Vec<f32>,
    /// The material's own TEV stages (at most 16, as GX has), evaluated instead of the
    /// default set-up when there are any.
    stages: Vec<crate::model::TevStage>,
    /// TEV colour registers 0–2 and the konst colours, for the material's own stages.
    regs: [Color; 3],
    kcolors: [Color; 4],
    /// The material's alpha test (`GXSetAlphaCompare`); `None` passes every pixel.
    alpha_test: Option<crate::model::AlphaCompare>,
    /// The TEV swap table: per entry the source component of red, green, blue and alpha, two
    /// bits each from the low end (the material's, else GX's default).
    swaps: [u8; 4],
}

/// GX's default swap table (what `SetupGX` loads without a stored one): RGBA, RRRA, GGGA, BBBA.
const DEFAULT_SWAPS: [u8; 4] = [0xE4, 0xC0, 0xD5, 0xEA];

/// `c` with its components picked by swap-table entry `sel`.
fn swap(c: Color, swaps: &[u8; 4], sel: u8) -> Color {
    let entry = swaps.get(usize::from(sel & 3)).copied().unwrap_or(0xE4);
    if entry == 0xE4 {
        return c;
    }
    std::array::from_fn(|k| {
        let from = usize::from((entry >> (2 * k)) & 3);
        c.get(from).copied().unwrap_or(0.0)
    })
}

/// `GXCompare` of an 8-bit alpha with a reference: never, less, equal, less or equal, greater,
/// not equal, greater or equal, always.
fn compare(f: u8, a: u8, r: u8) -> bool {
    match f & 7 {
        0 => false,
        1 => a < r,
        2 => a == r,
        3 => a <= r,
        4 => a > r,
        5 => a != r,
        6 => a >= r,
        _ => true,
    }
}

/// A konst colour selection (`GXTevKColorSel`/`GXTevKAlphaSel`): 0–7 the fractions 8/8…1/8,
/// 12–15 konst colours 0–3 (colour only), then their red, green, blue and alpha, four each.
fn konst_sel(k: &[Color; 4], sel: u8) -> Color {
    let reg = |i: u8| k.get(usize::from(i & 3)).copied().unwrap_or(WHITE);
    let one = |v: f32| [v; 4];
    match sel {
        0..=7 => one(f32::from(8 - sel) / 8.0),
        12..=15 => reg(sel),
        16..=19 => one(reg(sel)[0]),
        20..=23 => one(reg(sel)[1]),
        24..=27 => one(reg(sel)[2]),
        28..=31 => one(reg(sel)[3]),
        _ => WHITE,
    }
}

/// One TEV operation on one component: `(d ± lerp(a, b, c) + bias) × scale`, the inputs a–c
/// as 8-bit values, clamped to 0–1 when the stage clamps (else to the signed 10-bit range).
/// The comparison operations (op 8 and up) are taken as additions.
fn tev_op(a: f32, b: f32, c: f32, d: f32, k: &Combiner) -> f32 {
    let (a, b, c) = (a.clamp(0.0, 1.0), b.clamp(0.0, 1.0), c.clamp(0.0, 1.0));
    let v = a + (b - a) * c;
    let bias = match k.bias {
        1 => 0.5,
        2 => -0.5,
        _ => 0.0,
    };
    let scale = match k.scale {
        1 => 2.0,
        2 => 4.0,
        3 => 0.5,
        _ => 1.0,
    };
    let r = (d + if k.op == 1 { -v } else { v } + bias) * scale;
    if k.clamp {
        r.clamp(0.0, 1.0)
    } else {
        r.clamp(-1024.0 / 255.0, 1023.0 / 255.0)
    }
}

impl Shader<'_> {
    /// The material's own TEV stages ([`TevStage::color`], [`TevStage::alpha`]), on the texels
    /// each stage samples (`texels[i]` for stage `i`).
    fn tev(&self, texels: &[Color], ras: Color) -> Color {
        // PREV, then registers 0–2.
        let mut regs = [[0.0; 4], self.regs[0], self.regs[1], self.regs[2]];
        let mut last = [0.0; 4];
        for (i, st) in self.stages.iter().enumerate() {
            let texel = texels.get(i).copied().unwrap_or([0.0; 4]);
            let tex = swap(texel, &self.swaps, st.tex_swap());
            let ras = if st.color_channel == 0xFF {
                [0.0; 4]
            } else {
                swap(ras, &self.swaps, st.ras_swap())
            };
            let (cm, am) = (st.color(), st.alpha());
            let kc = konst_sel(&self.kcolors, cm.konst);
            let ka = konst_sel(&self.kcolors, am.konst)[3];
            let reg = |k: usize| regs.get(k).copied().unwrap_or([0.0; 4]);
            let carg = |n: u8| -> Color {
                let alpha = |c: Color| [c[3]; 4];
                match n {
                    0 | 2 | 4 | 6 => reg(usize::from(n / 2)),
                    1 | 3 | 5 | 7 => alpha(reg(usize::from(n / 2))),
                    8 => tex,
                    9 => alpha(tex),
                    10 => ras,
                    11 => alpha(ras),
                    12 => WHITE,
                    13 => [0.5; 4],
                    14 => kc,
                    _ => [0.0; 4],
                }
            };
            let aarg = |n: u8| -> f32 {
                match n {
                    0..=3 => reg(usize::from(n))[3],
                    4 => tex[3],
                    5 => ras[3],
                    6 => ka,
                    _ => 0.0,
                }
            };
            let [ca, cb, cc, cd] = cm.args.map(carg);
            let mut out = [0.0; 4];
            for (k, o) in out.iter_mut().enumerate().take(3) {
                let at = |c: Color| c.get(k).copied().unwrap_or(0.0);
                *o = tev_op(at(ca), at(cb), at(cc), at(cd), &cm);
            }
            let [a, b, c, d] = am.args;
            let [aa, ab, ac, ad] = [a & 7, b, c & 7, d].map(aarg);
            out[3] = tev_op(aa, ab, ac, ad, &am);
            // Colour and alpha may name different registers.
            if let Some(r) = regs.get_mut(usize::from(cm.out)) {
                r[..3].copy_from_slice(&out[..3]);
            }
            if let Some(r) = regs.get_mut(usize::from(am.out)) {
                r[3] = out[3];
            }
            last = out;
        }
        last.map(|v| v.clamp(0.0, 1.0))
    }

    /// The shaded pixel, transparent when the alpha test discards it.
    fn pixel(&self, texels: &[Color], ras: Color) -> Color {
        let c = self.shade(texels, ras);
        let Some(t) = self.alpha_test else {
            return c;
        };
        let a = (c[3] * 255.0).round() as u8;
        let (p0, p1) = (compare(t.comp, a, t.ref0), compare(t.comp >> 4, a, t.ref1));
        let pass = match t.op {
            1 => p0 || p1,
            2 => p0 != p1,
            3 => p0 == p1,
            _ => p0 && p1,
        };
        if pass { c } else { [0.0; 4] }
    }

    fn shade(&self, texels: &[Color], ras: Color) -> Color {
        if !self.stages.is_empty() {
            return self.tev(texels, ras);
        }
        // The default stages use swap-table entry 0 for texels and raster alike (GX has at most
        // 8 texture maps; more are not sampled).
        let mut swapped = [[0.0; 4]; 8];
        let texels = if self.swaps.first() == Some(&0xE4) {
            texels.get(..texels.len().min(8)).unwrap_or_default()
        } else {
            for (d, t) in swapped.iter_mut().zip(texels) {
                *d = swap(*t, &self.swaps, 0);
            }
            swapped.get(..texels.len().min(8)).unwrap_or_default()
        };
        let ras = swap(ras, &self.swaps, 0);
        let combined = match texels {
            [] => self.c1,
            [t] => lerp(self.c0, self.c1, *t),
            [a, b] => {
                let k = self.konst.first().copied().unwrap_or(1.0);
                lerp(self.c0, self.c1, lerp(*a, *b, [k; 4]))
            }
            many => {
                let mut sum = [0.0; 4];
                for (t, k) in many.iter().zip(&self.konst) {
                    for (s, v) in sum.iter_mut().zip(t) {
                        *s = (*s + v * k).min(1.0);
                    }
                }
                lerp(self.c0, self.c1, sum)
            }
        };
        mul(combined, ras).map(|v| v.clamp(0.0, 1.0))
    }
}

/// The konst selections of the default stages: K3 a, b, g, r, then K2 a, b, g, r.
fn konst(m: &Material, i: usize) -> f32 {
    let (reg, comp) = (3 - i / 4, 3 - i % 4);
    m.tev_kcolors
        .get(reg)
        .and_then(|c| c.get(comp))
        .map_or(1.0, |&v| f32::from(v) / 255.0)
}

/// A TEV colour register (signed 10-bit) as a 0–1 colour.
fn tev_color(c: [i16; 4]) -> Color {
    c.map(|v| f32::from(v.clamp(0, 255)) / 255.0)
}

/// The 2×3 matrix `CalcTextureMtx` makes of a texture SRT.
fn tex_mtx(srt: &crate::model::TexSrt) -> Mtx {
    let (s, c) = srt.rotate.get().to_radians().sin_cos();
    let (sx, sy) = (srt.scale[0].get(), srt.scale[1].get());
    let (a0, a1, b0, b1) = (c * sx, -s * sy, s * sx, c * sy);
    [
        [a0, a1, srt.translate[0].get() + 0.5 - a0 * 0.5 - a1 * 0.5],
        [b0, b1, srt.translate[1].get() + 0.5 - b0 * 0.5 - b1 * 0.5],
    ]
}

/// The coordinates map `i` of `m` samples at the quad's corners, from the quad's coordinate
/// sets: the map's generator picks the set (source 4 + n) and the matrix (texture matrix
/// `(matrix - 30) / 3`, or 60 identity).
fn map_coords(m: &Material, i: usize, sets: &[[[f32; 2]; 4]]) -> [[f32; 2]; 4] {
    let generator = m.tex_coord_gens.get(i);
    let set = generator.map_or(i, |g| usize::from(g.source.saturating_sub(4)));
    let coords = sets.get(set).copied().unwrap_or([[0.0; 2]; 4]);
    let srt = generator
        .filter(|g| g.kind == 1 && g.matrix != 60 && g.matrix >= 30)
        .and_then(|g| m.tex_srts.get(usize::from((g.matrix - 30) / 3)));
    match srt {
        Some(srt) => {
            let t = tex_mtx(srt);
            coords.map(|[s, tc]| apply(&t, s, tc))
        }
        None => coords,
    }
}

fn stored(c: &TexCoords) -> [[f32; 2]; 4] {
    c.map(|p| p.map(|v| v.get()))
}

/// The canvas: premultiplied colours, row-major, top row first.
struct Canvas {
    width: usize,
    height: usize,
    px: Vec<Color>,
    /// Screen position of the canvas's top left corner.
    left: f32,
    top: f32,
    /// Pixels visited so far, and whether [`MAX_WORK`] stopped the drawing.
    work: u64,
    exhausted: bool,
}

impl Canvas {
    /// Pixel centre (x, y) in screen units (y up).
    fn screen(&self, x: usize, y: usize) -> [f32; 2] {
        [self.left + x as f32 + 0.5, self.top - y as f32 - 0.5]
    }

    /// Source-alpha blending of a straight colour onto pixel (x, y).
    fn blend(&mut self, x: usize, y: usize, c: Color) {
        if let Some(d) = self.px.get_mut(y * self.width + x) {
            let a = c[3];
            let src = [c[0] * a, c[1] * a, c[2] * a, a];
            for (d, s) in d.iter_mut().zip(src) {
                *d = s + *d * (1.0 - a);
            }
        }
    }

    /// Pixel rows and columns a screen-space box touches, clipped to the canvas.
    fn span(&self, pts: &[[f32; 2]]) -> Option<(usize, usize, usize, usize)> {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for p in pts {
            x0 = x0.min(p[0] - self.left);
            x1 = x1.max(p[0] - self.left);
            y0 = y0.min(self.top - p[1]);
            y1 = y1.max(self.top - p[1]);
        }
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            return None;
        }
        let clip = |v: f32, n: usize| (v.floor().max(0.0) as usize).min(n);
        let (cx0, cx1) = (clip(x0, self.width), clip(x1 + 1.0, self.width));
        let (cy0, cy1) = (clip(y0, self.height), clip(y1 + 1.0, self.height));
        (cx0 < cx1 && cy0 < cy1).then_some((cx0, cx1, cy0, cy1))
    }

    /// Fills the quad with corners `q` (top left, top right, bottom left, bottom right; a
    /// parallelogram as panes make) calling `shade(u, v)` with the quad coordinates of each
    /// pixel centre inside it.
    fn quad(&mut self, q: &[[f32; 2]; 4], mut shade: impl FnMut(f32, f32) -> Color) {
        let [o, r, b, _] = *q;
        let (e1, e2) = ([r[0] - o[0], r[1] - o[1]], [b[0] - o[0], b[1] - o[1]]);
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        if det.abs() < 1e-9 || !det.is_finite() {
            return;
        }
        let Some((x0, x1, y0, y1)) = self.span(q) else {
            return;
        };
        let area = ((x1 - x0) * (y1 - y0)) as u64;
        self.work += area;
        if self.work > MAX_WORK * (self.width * self.height) as u64 {
            self.exhausted = true;
            return;
        }
        for y in y0..y1 {
            for x in x0..x1 {
                let p = self.screen(x, y);
                let d = [p[0] - o[0], p[1] - o[1]];
                let u = (d[0] * e2[1] - d[1] * e2[0]) / det;
                let v = (e1[0] * d[1] - e1[1] * d[0]) / det;
                if (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
                    let c = shade(u, v);
                    if c[3] > 0.0 {
                        self.blend(x, y, c);
                    }
                }
            }
        }
    }

    /// The one-pixel outline of the quad `q`, its corners moved half a pixel inwards so the
    /// lines fall on the quad's own border pixels.
    fn outline(&mut self, q: &[[f32; 2]; 4], c: Color) {
        let mid = corners(q, 0.5, 0.5);
        let inset = q.map(|p| {
            let step = |v: f32, m: f32| {
                if v < m {
                    v + 0.5
                } else if v > m {
                    v - 0.5
                } else {
                    v
                }
            };
            [step(p[0], mid[0]), step(p[1], mid[1])]
        });
        let [a, b, l, r] = inset;
        for (from, to) in [(a, b), (b, r), (r, l), (l, a)] {
            self.line(from, to, c);
        }
    }

    /// A one-pixel line from `a` to `b`.
    fn line(&mut self, a: [f32; 2], b: [f32; 2], c: Color) {
        let (ax, ay) = (a[0] - self.left, self.top - a[1]);
        let (bx, by) = (b[0] - self.left, self.top - b[1]);
        let steps = (bx - ax).abs().max((by - ay).abs()).ceil();
        if !steps.is_finite() || steps > 4.0 * MAX_SIDE as f32 {
            return;
        }
        let n = steps as usize;
        for i in 0..=n {
            let t = if n == 0 { 0.0 } else { i as f32 / n as f32 };
            let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
            if x >= 0.0 && y >= 0.0 && (x as usize) < self.width && (y as usize) < self.height {
                self.blend(x as usize, y as usize, c);
            }
        }
    }

    fn into_image(self) -> gcio::Result<Image> {
        let px = self
            .px
            .into_iter()
            .map(|[r, g, b, a]| {
                let un = |v: f32| {
                    let v = if a > 0.0 { v / a } else { 0.0 };
                    (v.clamp(0.0, 1.0) * 255.0).round() as u8
                };
                [
                    un(r),
                    un(g),
                    un(b),
                    (a.clamp(0.0, 1.0) * 255.0).round() as u8,
                ]
            })
            .collect();
        Image::new(self.width as u32, self.height as u32, px)
    }
}

/// The corners of the local rectangle (`x`, `y` down from the pane's base, `w` × `h`) on the
/// screen: the pane's draw space has y down (`GetVtxPos`), its matrix y up.
fn rect(m: &Mtx, x: f32, y: f32, w: f32, h: f32) -> [[f32; 2]; 4] {
    [
        apply(m, x, -y),
        apply(m, x + w, -y),
        apply(m, x, -(y + h)),
        apply(m, x + w, -(y + h)),
    ]
}

/// The pane's base point (its rectangle's top left in y-down draw space).
fn base(p: &crate::Pane) -> [f32; 2] {
    let (w, h) = (p.size[0].get(), p.size[1].get());
    let frac = |k: u8| f32::from(k.min(2)) / 2.0;
    [-w * frac(p.origin % 3), -h * frac(p.origin / 3 % 3)]
}

struct Renderer<'a> {
    lyt: &'a Brlyt,
    textures: &'a [Option<Image>],
    fonts: Option<&'a dyn GlyphSource>,
    filter: Filter,
    canvas: Canvas,
    out: Rendered,
}

impl<'a> Renderer<'a> {
    /// The shader of material `m`, noting textures the lookup did not give for `pane`.
    fn shader(&mut self, m: Option<&'a Material>, pane: &str) -> Shader<'a> {
        let (lyt, textures) = (self.lyt, self.textures);
        let maps: Vec<Map<'a>> = m.map_or_else(Vec::new, |m| {
            m.tex_maps
                .iter()
                .map(|t| Map {
                    image: textures
                        .get(usize::from(t.texture))
                        .and_then(Option::as_ref),
                    wrap: [t.wrap_s, t.wrap_t],
                })
                .collect()
        });
        for (t, map) in m
            .map(|m| &m.tex_maps[..])
            .unwrap_or_default()
            .iter()
            .zip(&maps)
        {
            if map.image.is_none() {
                let name = lyt.textures().get(usize::from(t.texture));
                let name = name.map_or_else(|| format!("#{}", t.texture), |n| n.text());
                let entry = format!("{pane}: {name}");
                if !self.out.missing_textures.contains(&entry) {
                    self.out.missing_textures.push(entry);
                }
            }
        }
        Shader {
            konst: (0..maps.len())
                .map(|i| m.map_or(1.0, |m| konst(m, i)))
                .collect(),
            maps,
            c0: m.map_or([0.0; 4], |m| tev_color(m.tev_colors[0])),
            c1: m.map_or(WHITE, |m| tev_color(m.tev_colors[1])),
            stages: m.map_or_else(Vec::new, |m| {
                m.tev_stages.iter().take(16).copied().collect()
            }),
            regs: m.map_or([[0.0; 4], WHITE, WHITE], |m| m.tev_colors.map(tev_color)),
            kcolors: m.map_or([WHITE; 4], |m| m.tev_kcolors.map(color)),
            alpha_test: m.and_then(|m| m.alpha_compare),
            swaps: m.and_then(|m| m.tev_swap).unwrap_or(DEFAULT_SWAPS),
        }
    }

    fn material(&self, index: u16) -> Option<&'a Material> {
        self.lyt.materials().get(usize::from(index))
    }

    /// Draws a quad of material `index`: corners `q`, vertex colours `vc` (`None`: white), the
    /// quad's texture coordinate sets, the pane's alpha.
    fn draw(&mut self, quad: Quad<'_>, vc: Option<[Rgba; 4]>, alpha: f32) {
        let m = self.material(quad.material);
        // The raster colour per corner: vertex or material colour per the channel control,
        // alpha times the pane's.
        let mat = color(m.and_then(|m| m.mat_color).unwrap_or([255; 4]));
        let chan = m.and_then(|m| m.chan_ctrl);
        let ras: [Color; 4] = vc.map_or([WHITE; 4], |c| c.map(color)).map(|mut c| {
            if chan.is_some_and(|c| c.color_source == 0) {
                c[..3].copy_from_slice(&mat[..3]);
            }
            if chan.is_some_and(|c| c.alpha_source == 0) {
                c[3] = mat[3];
            }
            c[3] *= alpha / 255.0;
            c
        });
        // (texture map, its corner coordinates) per sampled texel: map i through generator i
        // for the default set-up, each stage's map and generator for a material's own stages.
        let samplers: Vec<(usize, [[f32; 2]; 4])> = match m {
            Some(m) if !m.tev_stages.is_empty() => m
                .tev_stages
                .iter()
                .take(16)
                .map(|st| {
                    let g = usize::from(st.tex_coord_gen);
                    (usize::from(st.tex_map), map_coords(m, g, quad.sets))
                })
                .collect(),
            Some(m) => (0..m.tex_maps.len())
                .map(|i| (i, map_coords(m, i, quad.sets)))
                .collect(),
            None => Vec::new(),
        };
        let shader = self.shader(m, quad.pane);
        if ras.iter().all(|c| c[3] <= 0.0) {
            // Transparent at every corner, so everywhere: nothing to blend.
            return;
        }
        let filter = self.filter;
        let mut texels = vec![[0.0; 4]; samplers.len()];
        self.canvas.quad(&quad.corners, |u, v| {
            for (t, (map, c)) in texels.iter_mut().zip(&samplers) {
                // A stage without a texture map (0xFF) samples nothing.
                *t = shader
                    .maps
                    .get(*map)
                    .map_or([0.0; 4], |m| m.sample(corners(c, u, v), filter));
            }
            shader.pixel(&texels, corners(&ras, u, v))
        });
    }

    /// Width and height of the first texture of material `index` (0 × 0 without one).
    fn texture_size(&self, index: u16) -> [f32; 2] {
        self.material(index)
            .and_then(|m| m.tex_maps.first())
            .and_then(|t| self.textures.get(usize::from(t.texture)))
            .and_then(Option::as_ref)
            .map_or([0.0; 2], |i| [i.width() as f32, i.height() as f32])
    }

    fn window(&mut self, w: &Window, at: &Placed) {
        let p = &w.pane;
        let name = p.name.text();
        let m = &at.matrix;
        let [bx, by] = base(p);
        let (width, height) = (p.size[0].get(), p.size[1].get());
        // Frame sizes: the top-left piece's texture gives left and top, the bottom-right's
        // (the only piece's, with one) right and bottom (`Window::GetFrameSize`).
        let lt = w
            .frames
            .first()
            .map_or([0.0; 2], |f| self.texture_size(f.material));
        let rb = match w.frames.len() {
            4 | 8 => w
                .frames
                .get(3)
                .map_or([0.0; 2], |f| self.texture_size(f.material)),
            1 => lt,
            _ => [0.0; 2],
        };
        let (l, t, r, b) = (lt[0], lt[1], rb[0], rb[1]);
        let inf = w.inflation.map(|v| v.get());
        let sets: Vec<[[f32; 2]; 4]> = w.content.tex_coords.iter().map(stored).collect();
        self.draw(
            Quad {
                material: w.content.material,
                pane: &name,
                corners: rect(
                    m,
                    bx + l - inf[0],
                    by + t - inf[2],
                    width - l + inf[0] - r + inf[1],
                    height - t + inf[2] - b + inf[3],
                ),
                sets: &sets,
            },
            Some(w.content.vertex_colors),
            at.alpha,
        );
        // (frame index, texture coordinates of corner kind, flip, x, y, w, h) per piece.
        let pieces: Vec<(usize, usize, u8, [f32; 4])> = match w.frames.len() {
            1 => vec![
                (0, LT, 0, [bx, by, width - r, t]),
                (0, RT, 1, [bx + width - r, by, r, height - b]),
                (0, RB, 4, [bx + l, by + height - b, width - l, b]),
                (0, LB, 2, [bx, by + t, l, height - t]),
            ],
            4 => vec![
                (0, LT, 0xFF, [bx, by, width - r, t]),
                (1, RT, 0xFF, [bx + width - r, by, r, height - b]),
                (3, RB, 0xFF, [bx + l, by + height - b, width - l, b]),
                (2, LB, 0xFF, [bx, by + t, l, height - t]),
            ],
            8 => vec![
                (0, LT, 0xFF, [bx, by, l, t]),
                (6, LT, 0xFF, [bx + l, by, width - l - r, t]),
                (1, RT, 0xFF, [bx + width - r, by, r, t]),
                (5, RT, 0xFF, [bx + width - r, by + t, r, height - t - b]),
                (3, RB, 0xFF, [bx + width - r, by + height - b, r, b]),
                (7, RB, 0xFF, [bx + l, by + height - b, width - l - r, b]),
                (2, LB, 0xFF, [bx, by + height - b, l, b]),
                (4, LB, 0xFF, [bx, by + t, l, height - t - b]),
            ],
            _ => Vec::new(),
        };
        for (i, kind, flip, [x, y, pw, ph]) in pieces {
            let Some(f) = w.frames.get(i) else { continue };
            if self
                .material(f.material)
                .is_none_or(|m| m.tex_maps.is_empty())
            {
                continue;
            }
            let flip = if flip == 0xFF { f.flip } else { flip };
            let coords = frame_coords(kind, flip, [pw, ph], self.texture_size(f.material));
            self.draw(
                Quad {
                    material: f.material,
                    pane: &name,
                    corners: rect(m, x, y, pw, ph),
                    sets: &[coords],
                },
                None,
                at.alpha,
            );
        }
    }

    fn text(&mut self, t: &Text, at: &Placed) {
        let p = &t.pane;
        let name = p.name.text();
        let font = self
            .lyt
            .fonts()
            .get(usize::from(t.font))
            .map_or_else(|| format!("#{}", t.font), |n| n.text());
        let [top, bottom] = t.colors.map(color).map(|mut c| {
            c[3] *= at.alpha / 255.0;
            c
        });
        let metrics = self.fonts.and_then(|f| Some((f, f.metrics(&font)?)));
        let Some((fonts, fm)) = metrics.filter(|(_, m)| m.width > 0.0 && m.height > 0.0) else {
            self.out.text_without_font.push(format!("{name}: {font}"));
            self.canvas.outline(&at.corners, top);
            return;
        };
        let [fw, fh] = t.font_size.map(|v| v.get());
        let (sx, sy) = (fw / fm.width, fh / fm.height);
        let lines: Vec<Vec<Option<Glyph>>> = t
            .string()
            .split('\n')
            .map(|l| {
                l.chars()
                    .map(|c| fonts.glyph(&font, u32::from(c)))
                    .collect()
            })
            .collect();
        let space = t.char_space.get();
        let width_of = |l: &[Option<Glyph>]| -> f32 {
            l.iter()
                .map(|g| g.as_ref().map_or(0.0, |g| g.advance * sx + space))
                .sum()
        };
        let line_step = fm.line_feed * sy + t.line_space.get();
        let block_h = line_step * (lines.len() as f32 - 1.0) + fh;
        let [bx, by] = base(p);
        let (pw, ph) = (p.size[0].get(), p.size[1].get());
        let frac = |k: u8| f32::from(k.min(2)) / 2.0;
        let block_w = lines.iter().map(|l| width_of(l)).fold(0.0, f32::max);
        let (hx, vy) = (frac(t.position % 3), frac(t.position / 3 % 3));
        let y0 = by + (ph - block_h) * vy;
        let align = match t.alignment {
            1 => 0.0,
            2 => 0.5,
            3 => 1.0,
            _ => hx,
        };
        let m = at.matrix;
        for (k, line) in lines.iter().enumerate() {
            let mut pen = bx + (pw - block_w) * hx + (block_w - width_of(line)) * align;
            let y = y0 + line_step * k as f32;
            for g in line {
                let Some(g) = g else { continue };
                let (gw, gh) = (g.image.width() as f32 * sx, g.image.height() as f32 * sy);
                let q = rect(&m, pen + g.left * sx, y, gw, gh);
                let img = &g.image;
                let map = Map {
                    image: Some(img),
                    wrap: [0, 0],
                };
                let filter = self.filter;
                self.canvas.quad(&q, |u, v| {
                    let c = lerp(top, bottom, [v; 4]);
                    mul(c, map.sample([u, v], filter))
                });
                pen += g.advance * sx + space;
            }
        }
    }
}

/// One quad to draw: its material, the pane it belongs to (for reports), its corners on the
/// screen and its texture coordinate sets.
struct Quad<'q> {
    material: u16,
    pane: &'q str,
    corners: [[f32; 2]; 4],
    sets: &'q [[[f32; 2]; 4]],
}

/// Corner indices: top left, top right, bottom left, bottom right.
const LT: usize = 0;
const RT: usize = 1;
const LB: usize = 2;
const RB: usize = 3;

/// The texture flips of window frames (`TextureFlipInfo`): texture coordinates of the four
/// corners and which coordinate runs along the quad's x and y: none, horizontal, vertical,
/// 90, 180, 270 degrees.
const FLIPS: [([[f32; 2]; 4], [usize; 2]); 6] = [
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [0, 1]),
    ([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [0, 1]),
    ([[0.0, 1.0], [1.0, 1.0], [0.0, 0.0], [1.0, 0.0]], [0, 1]),
    ([[0.0, 1.0], [0.0, 0.0], [1.0, 1.0], [1.0, 0.0]], [1, 0]),
    ([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]], [0, 1]),
    ([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 1.0]], [1, 0]),
];

/// Texture coordinates of a frame piece anchored at corner `kind` (`Get??TexCoord`): the
/// anchor keeps the flip's coordinates, the texture repeats over the piece at its own size.
fn frame_coords(kind: usize, flip: u8, size: [f32; 2], tex: [f32; 2]) -> [[f32; 2]; 4] {
    let (c, [ix, iy]) = FLIPS.get(usize::from(flip)).copied().unwrap_or(FLIPS[0]);
    // (anchor, its row neighbour, its column neighbour); the opposite corner takes both far
    // coordinates.
    let (a, h, v) = match kind {
        RT => (RT, LT, RB),
        LB => (LB, RB, LT),
        RB => (RB, LB, RT),
        _ => (LT, RT, LB),
    };
    let at = |k: usize, i: usize| c.get(k).and_then(|p| p.get(i)).copied().unwrap_or(0.0);
    let step = |to: f32, from: f32, len: f32, t: f32| {
        let den = (to - from) * t;
        if den == 0.0 { from } else { from + len / den }
    };
    let tex_at = |i: usize| if i == 0 { tex[0] } else { tex[1] };
    let far_x = step(at(h, ix), at(a, ix), size[0], tex_at(ix));
    let far_y = step(at(v, iy), at(a, iy), size[1], tex_at(iy));
    std::array::from_fn(|k| {
        let x = if k == a || k == v { at(a, ix) } else { far_x };
        let y = if k == a || k == h { at(a, iy) } else { far_y };
        // x runs along texture coordinate `ix`.
        if ix == 0 { [x, y] } else { [y, x] }
    })
}

/// Draws `lyt` (pane tree order, see the module documentation). `textures` is asked once per
/// `txl1` name for the decoded texture; `fonts` gives text panes their glyphs.
///
/// Errors: a screen size that is not positive or larger than [`MAX_SIDE`].
pub fn render(
    lyt: &Brlyt,
    mut textures: impl FnMut(&str) -> Option<Image>,
    fonts: Option<&dyn GlyphSource>,
    opts: &Options,
) -> gcio::Result<Rendered> {
    let (size, centered) = lyt.layout().map_or(([0.0; 2], true), |l| {
        ([l.size[0].get(), l.size[1].get()], l.centered != 0)
    });
    let side = |v: f32, what: &str| -> gcio::Result<usize> {
        if v.is_finite() && v >= 1.0 && v <= MAX_SIDE as f32 {
            Ok(v.round() as usize)
        } else {
            Err(gcio::Error::message(format!(
                "layout screen {what} {v} is not within 1..={MAX_SIDE}"
            )))
        }
    };
    let (width, height) = (side(size[0], "width")?, side(size[1], "height")?);
    let (left, top) = if centered {
        (-(width as f32) / 2.0, height as f32 / 2.0)
    } else {
        (0.0, 0.0)
    };
    let mut px = Vec::new();
    px.try_reserve_exact(width * height)
        .map_err(|_| gcio::Error::message(format!("no memory for a {width} x {height} canvas")))?;
    let a = f32::from(opts.background[3]) / 255.0;
    px.resize(width * height, mul(color(opts.background), [a, a, a, 1.0]));
    let images: Vec<Option<Image>> = lyt.textures().iter().map(|n| textures(&n.text())).collect();
    let mut r = Renderer {
        lyt,
        textures: &images,
        fonts,
        filter: opts.filter,
        canvas: Canvas {
            width,
            height,
            px,
            left,
            top,
            work: 0,
            exhausted: false,
        },
        out: Rendered {
            image: Image::default(),
            drawn: 0,
            missing_textures: Vec::new(),
            text_without_font: Vec::new(),
            exhausted: false,
        },
    };
    let tree = lyt.tree();
    for at in lyt.place(&tree) {
        if !at.visible {
            continue;
        }
        let Some(section) = tree
            .panes
            .get(at.pane)
            .and_then(|n| lyt.sections.get(n.section))
        else {
            continue;
        };
        match section {
            Section::Picture(p) => {
                let sets: Vec<[[f32; 2]; 4]> = p.tex_coords.iter().map(stored).collect();
                let name = p.pane.name.text();
                r.draw(
                    Quad {
                        material: p.material,
                        pane: &name,
                        corners: at.corners,
                        sets: &sets,
                    },
                    Some(p.vertex_colors),
                    at.alpha,
                );
            }
            Section::Window(w) => r.window(w, &at),
            Section::Text(t) => r.text(t, &at),
            _ => continue,
        }
        r.out.drawn += 1;
    }
    let mut out = r.out;
    out.exhausted = r.canvas.exhausted;
    out.image = r.canvas.into_image()?;
    Ok(out)
}
