//! The writer: each section from its typed form with offsets, counts and sizes derived, in the
//! layout of the NW4R tools (name tables right after their headers, strings padded to 4 bytes,
//! each content followed by its tags, each tag by its targets, each target by its keys).

use brlyt::Name;
use brlyt::frame::section;
use gcio::{Error, ErrorKind, Result, Writer};

use crate::model::*;

impl Brlan {
    /// Writes the animation; a parsed file comes back byte for byte.
    pub fn write(&self) -> Result<Vec<u8>> {
        let sections = self
            .sections
            .iter()
            .map(encode)
            .collect::<Result<Vec<_>>>()?;
        self.frame.write(&MAGIC, &sections)
    }
}

fn invalid(m: String) -> Error {
    Error::without_offset(ErrorKind::Invalid(m))
}

fn count<T: TryFrom<usize>>(what: &str, n: usize) -> Result<T> {
    T::try_from(n).map_err(|_| invalid(format!("{n} {what}: more than the field holds")))
}

fn field(w: &mut Writer, name: &Name, n: usize, what: &str) -> Result<()> {
    let b = name
        .to_field(n)
        .ok_or_else(|| invalid(format!("{what} `{name}` is longer than {n} bytes")))?;
    w.bytes(&b);
    Ok(())
}

fn cstr(w: &mut Writer, name: &Name) -> Result<()> {
    if name.0.contains(&0) {
        return Err(invalid(format!("name `{name}` contains a NUL")));
    }
    w.cstr(&name.0);
    Ok(())
}

/// One section's bytes, header included.
pub(crate) fn encode(s: &Section) -> Result<Vec<u8>> {
    let mut w = Writer::new();
    w.fill(0, 8);
    match s {
        Section::Tag(t) => {
            w.u16(t.order).u16(count("groups", t.groups.len())?);
            let name = w.reserve_u32();
            let groups = w.reserve_u32();
            w.i16(t.start).i16(t.end).u8(t.flags).bytes(&t.pad);
            w.fix_here(name)?;
            let size = t
                .name_field
                .map_or(name_field_size(&t.name), |n| n as usize);
            field(&mut w, &t.name, size, "tag name")?;
            w.fix_here(groups)?;
            for g in &t.groups {
                field(&mut w, &g.name, 16, "group name")?;
                w.u8(g.flags).bytes(&g.pad);
            }
        }
        Section::Anim(a) => anim(&mut w, a)?,
        Section::Raw(r) => {
            let magic: [u8; 4] = r
                .magic
                .0
                .as_slice()
                .try_into()
                .map_err(|_| invalid(format!("section magic `{}` is not 4 bytes", r.magic)))?;
            return section(&magic, &r.body);
        }
    }
    let magic: [u8; 4] = s.magic().try_into().unwrap_or(*b"????");
    let body = w.into_vec();
    section(&magic, body.get(8..).unwrap_or_default())
}

fn anim(w: &mut Writer, a: &Anim) -> Result<()> {
    w.u16(a.frame_size)
        .u8(a.looped)
        .u8(a.pad)
        .u16(count("files", a.files.len())?)
        .u16(count("contents", a.contents.len())?);
    let contents = w.reserve_u32();
    let table = w.position();
    let mut at = 4 * a.files.len();
    for f in &a.files {
        w.u32(count("file name offset", at)?);
        at += f.0.len() + 1;
    }
    for f in &a.files {
        cstr(w, f)?;
    }
    w.align(4, 0);
    debug_assert!(w.position() >= table);
    w.fix_here(contents)?;
    let slots: Vec<_> = a.contents.iter().map(|_| w.reserve_u32()).collect();
    for (c, slot) in a.contents.iter().zip(slots) {
        w.fix_here(slot)?;
        let base = w.position();
        field(w, &c.name, 20, "content name")?;
        w.u8(count("tags", c.infos.len())?).u8(c.kind).bytes(&c.pad);
        let islots: Vec<_> = c.infos.iter().map(|_| w.reserve_u32()).collect();
        for (info, slot) in c.infos.iter().zip(islots) {
            w.fix(slot, (w.position() - base) as u64)?;
            let ibase = w.position();
            let tag: [u8; 4] = info
                .tag
                .0
                .as_slice()
                .try_into()
                .map_err(|_| invalid(format!("animation tag `{}` is not 4 bytes", info.tag)))?;
            w.bytes(&tag)
                .u8(count("targets", info.targets.len())?)
                .bytes(&info.pad);
            let tslots: Vec<_> = info.targets.iter().map(|_| w.reserve_u32()).collect();
            for (t, slot) in info.targets.iter().zip(tslots) {
                w.fix(slot, (w.position() - ibase) as u64)?;
                w.u8(t.id)
                    .u8(t.target)
                    .u8(t.keys.curve())
                    .u8(t.pad)
                    .u16(count("keys", t.keys.len())?)
                    .bytes(&t.pad2)
                    .u32(12);
                match &t.keys {
                    Keys::Step(k) => {
                        for k in k {
                            w.u32(k.frame.bits()).u16(k.value).u16(k.pad);
                        }
                    }
                    Keys::Hermite(k) => {
                        for k in k {
                            w.u32(k.frame.bits())
                                .u32(k.value.bits())
                                .u32(k.slope.bits());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
