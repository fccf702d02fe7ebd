//! The writer: every section from its typed form with offsets, counts and sizes derived, in
//! the layout the NW4R tools use (tables right after their headers, strings NUL-terminated,
//! sections padded to 4 bytes).

use gcio::{Error, ErrorKind, F32, Result, Writer};

use crate::frame::section;
use crate::json::Name;
use crate::model::*;

impl Brlyt {
    /// Writes the layout; a parsed file comes back byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let sections = self
            .sections
            .iter()
            .map(encode)
            .collect::<Result<Vec<_>>>()?;
        self.frame.write(&MAGIC, &sections)
    }
}

fn too_big(what: &str, n: usize) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!(
        "{n} {what}: more than the field holds"
    )))
}

fn count16(what: &str, n: usize) -> Result<u16> {
    u16::try_from(n).map_err(|_| too_big(what, n))
}

fn count8(what: &str, n: usize) -> Result<u8> {
    u8::try_from(n).map_err(|_| too_big(what, n))
}

fn offset(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::without_offset(ErrorKind::Overflow("section offset")))
}

fn field(w: &mut Writer, name: &Name, n: usize, what: &str) -> Result<()> {
    let b = name.to_field(n).ok_or_else(|| {
        Error::without_offset(ErrorKind::Invalid(format!(
            "{what} `{name}` is longer than {n} bytes"
        )))
    })?;
    w.bytes(&b);
    Ok(())
}

fn floats(w: &mut Writer, v: &[F32]) {
    for f in v {
        w.u32(f.bits());
    }
}

/// One section's bytes, header included.
pub(crate) fn encode(s: &Section) -> Result<Vec<u8>> {
    // Offsets inside a section count from its magic: start the body writer 8 bytes in.
    let mut w = Writer::new();
    w.fill(0, 8);
    match s {
        Section::Layout(l) => {
            w.u8(l.centered).bytes(&l.pad);
            floats(&mut w, &l.size);
        }
        Section::Textures(n) | Section::Fonts(n) => names(&mut w, n)?,
        Section::Materials(m) => materials(&mut w, m)?,
        Section::Pane(p) | Section::Bounding(p) => pane(&mut w, p)?,
        Section::Picture(p) => {
            pane(&mut w, &p.pane)?;
            quad(&mut w, &p.vertex_colors, p.material, p.pad, &p.tex_coords)?;
        }
        Section::Text(t) => text(&mut w, t)?,
        Section::Window(win) => window(&mut w, win)?,
        Section::Group(g) => {
            field(&mut w, &g.name, 16, "group name")?;
            w.u16(count16("group members", g.panes.len())?)
                .bytes(&g.pad);
            for p in &g.panes {
                field(&mut w, p, 16, "group member")?;
            }
        }
        Section::PaneStart | Section::PaneEnd | Section::GroupStart | Section::GroupEnd => {}
        Section::Raw(r) => {
            let magic: [u8; 4] = r.magic.0.as_slice().try_into().map_err(|_| {
                Error::without_offset(ErrorKind::Invalid(format!(
                    "section magic `{}` is not 4 bytes",
                    r.magic
                )))
            })?;
            return section(&magic, &r.body);
        }
    }
    let body = w.into_vec();
    section(&s.magic(), body.get(8..).unwrap_or_default())
}

fn names(w: &mut Writer, names: &[Name]) -> Result<()> {
    w.u16(count16("names", names.len())?).u16(0);
    let table = w.position();
    let mut at = 8 * names.len();
    for n in names {
        w.u32(offset(at)?).u32(0);
        at += n.0.len() + 1;
    }
    debug_assert_eq!(w.position(), table + 8 * names.len());
    for n in names {
        if n.0.contains(&0) {
            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                "name `{n}` contains a NUL"
            ))));
        }
        w.cstr(&n.0);
    }
    w.align(4, 0);
    Ok(())
}

fn pane(w: &mut Writer, p: &Pane) -> Result<()> {
    w.u8(p.flags).u8(p.origin).u8(p.alpha).u8(p.pad);
    field(w, &p.name, 16, "pane name")?;
    field(w, &p.user_data, 8, "pane user data")?;
    floats(w, &p.translate);
    floats(w, &p.rotate);
    floats(w, &p.scale);
    floats(w, &p.size);
    Ok(())
}

fn quad(
    w: &mut Writer,
    vc: &[Rgba; 4],
    material: u16,
    pad: u8,
    coords: &[TexCoords],
) -> Result<()> {
    for c in vc {
        w.bytes(c);
    }
    w.u16(material)
        .u8(count8("texture coordinate sets", coords.len())?)
        .u8(pad);
    for q in coords {
        for p in q {
            floats(w, p);
        }
    }
    Ok(())
}

fn text(w: &mut Writer, t: &Text) -> Result<()> {
    pane(w, &t.pane)?;
    let str_bytes = match &t.text {
        Some(u) => count16("text bytes", (u.len() + usize::from(!t.unterminated)) * 2)?,
        None => 0,
    };
    w.u16(t.buffer_bytes)
        .u16(str_bytes)
        .u16(t.material)
        .u16(t.font)
        .u8(t.position)
        .u8(t.alignment)
        .bytes(&t.pad);
    let at = w.reserve_u32();
    for c in &t.colors {
        w.bytes(c);
    }
    floats(w, &t.font_size);
    floats(w, &[t.char_space, t.line_space]);
    w.fix_here(at)?;
    if let Some(u) = &t.text {
        for c in u {
            w.u16(*c);
        }
        if !t.unterminated {
            w.u16(0);
        }
        match &t.tail {
            Some(b) => w.bytes(b),
            None => w.align(4, 0),
        };
    }
    Ok(())
}

fn window(w: &mut Writer, win: &Window) -> Result<()> {
    pane(w, &win.pane)?;
    floats(w, &win.inflation);
    w.u8(count8("window frames", win.frames.len())?)
        .bytes(&win.pad);
    let content = w.reserve_u32();
    let table = w.reserve_u32();
    w.fix_here(content)?;
    let c = &win.content;
    quad(w, &c.vertex_colors, c.material, c.pad, &c.tex_coords)?;
    w.fix_here(table)?;
    let first = w.position() + 4 * win.frames.len();
    for i in 0..win.frames.len() {
        w.u32(offset(first + 4 * i)?);
    }
    for f in &win.frames {
        w.u16(f.material).u8(f.flip).u8(f.pad);
    }
    Ok(())
}

fn materials(w: &mut Writer, mats: &[Material]) -> Result<()> {
    w.u16(count16("materials", mats.len())?).u16(0);
    let slots: Vec<_> = mats.iter().map(|_| w.reserve_u32()).collect();
    for (m, slot) in mats.iter().zip(slots) {
        w.fix_here(slot)?;
        material(w, m)?;
    }
    Ok(())
}

fn srt(w: &mut Writer, s: &TexSrt) {
    floats(w, &s.translate);
    floats(w, &[s.rotate]);
    floats(w, &s.scale);
}

fn material(w: &mut Writer, m: &Material) -> Result<()> {
    field(w, &m.name, 20, "material name")?;
    for c in &m.tev_colors {
        for v in c {
            w.i16(*v);
        }
    }
    for c in &m.tev_kcolors {
        w.bytes(c);
    }
    if m.extra_flags & !EXTRA_FLAGS != 0 {
        return Err(Error::without_offset(ErrorKind::Invalid(format!(
            "material `{}`: extra flags {:#x} overlap the counted bits",
            m.name, m.extra_flags
        ))));
    }
    let n = |what: &str, len: usize, bits: u32, lo: u32| -> Result<u32> {
        let v = u32::try_from(len).unwrap_or(u32::MAX);
        if v >= 1 << bits {
            return Err(Error::without_offset(ErrorKind::Invalid(format!(
                "material `{}`: {len} {what}, more than {} bits count",
                m.name, bits
            ))));
        }
        Ok(v << lo)
    };
    let flags = m.extra_flags
        | n("texture maps", m.tex_maps.len(), 4, 0)?
        | n("texture matrices", m.tex_srts.len(), 4, 4)?
        | n("coordinate generators", m.tex_coord_gens.len(), 4, 8)?
        | u32::from(m.tev_swap.is_some()) << 12
        | n("indirect matrices", m.ind_srts.len(), 2, 13)?
        | n("indirect stages", m.ind_stages.len(), 3, 15)?
        | n("TEV stages", m.tev_stages.len(), 5, 18)?
        | u32::from(m.alpha_compare.is_some()) << 23
        | u32::from(m.blend_mode.is_some()) << 24
        | u32::from(m.chan_ctrl.is_some()) << 25
        | u32::from(m.mat_color.is_some()) << 27;
    w.u32(flags);
    for t in &m.tex_maps {
        w.u16(t.texture).u8(t.wrap_s).u8(t.wrap_t);
    }
    for s in &m.tex_srts {
        srt(w, s);
    }
    for g in &m.tex_coord_gens {
        w.bytes(&[g.kind, g.source, g.matrix, g.pad]);
    }
    if let Some(c) = &m.chan_ctrl {
        w.u8(c.color_source).u8(c.alpha_source).bytes(&c.pad);
    }
    if let Some(c) = &m.mat_color {
        w.bytes(c);
    }
    if let Some(c) = &m.tev_swap {
        w.bytes(c);
    }
    for s in &m.ind_srts {
        srt(w, s);
    }
    for s in &m.ind_stages {
        w.bytes(&[s.tex_coord_gen, s.tex_map, s.scale_s, s.scale_t]);
    }
    for s in &m.tev_stages {
        w.bytes(&[s.tex_coord_gen, s.color_channel, s.tex_map, s.swap_sel])
            .bytes(&s.color_in)
            .bytes(&s.alpha_in)
            .bytes(&[s.ind_stage, s.ind_bias_matrix, s.ind_wrap, s.ind_flags]);
    }
    if let Some(a) = &m.alpha_compare {
        w.bytes(&[a.comp, a.op, a.ref0, a.ref1]);
    }
    if let Some(b) = &m.blend_mode {
        w.bytes(&[b.kind, b.src, b.dst, b.op]);
    }
    Ok(())
}
