//! WSYS wave systems, read-only: the header, `WINF` wave archives with their waves, and the
//! `WBCT` → `SCNE` → control-list chain whose wave ids IBNK velocity regions use
//! (`JASWSParser`, EXT Petari). Plus [`missing_waves`], the bank ↔ wave-system check, and
//! [`build`] for test fixtures.

use std::collections::BTreeSet;

use gcio::{Context, Diagnostic, Reader, Result, Writer};
use zerocopy::byteorder::big_endian::U32;

use crate::{Bank, raw};

/// Length of a wave archive's `.aw` file-name field.
pub const NAME_LEN: usize = 0x70;

/// A parsed WSYS header over the file bytes.
#[derive(Debug, Clone, Copy)]
pub struct Wsys<'a> {
    r: Reader<'a>,
    header: &'a raw::WsysHeader,
}

/// Parses a WSYS header.
pub fn parse(data: &[u8]) -> Result<Wsys<'_>> {
    let r = Reader::new(data);
    r.expect_magic(0, b"WSYS").context("WSYS header")?;
    let header = r.get(0).context("WSYS header")?;
    Ok(Wsys { r, header })
}

/// One wave archive (`TWaveArchive`): an `.aw` file and its waves.
#[derive(Debug, Clone, Copy)]
pub struct Archive<'a> {
    r: Reader<'a>,
    /// The `.aw` file name (up to the first NUL).
    pub name: &'a [u8],
    /// Offsets of its waves.
    pub waves: &'a [U32],
}

impl<'a> Archive<'a> {
    /// Wave `i` of the archive.
    pub fn wave(&self, i: usize) -> Result<&'a raw::Wave> {
        let off = self
            .waves
            .get(i)
            .ok_or_else(|| gcio::Error::invalid(self.r.base(), format!("no wave {i}")))?;
        self.r.get(off.get() as usize)
    }
}

impl<'a> Wsys<'a> {
    /// The raw header.
    pub fn header(&self) -> &'a raw::WsysHeader {
        self.header
    }

    /// Wave-system id.
    pub fn id(&self) -> u32 {
        self.header.id.get()
    }

    fn counted(&self, at: usize, magic: &[u8; 4], count_at: usize) -> Result<&'a [U32]> {
        self.r.expect_magic(at, magic)?;
        let n = self.r.u32(at + count_at)? as usize;
        self.r.table::<U32>(at + count_at + 4, n)
    }

    /// Wave archives (`WINF`).
    pub fn archives(&self) -> impl Iterator<Item = Result<Archive<'a>>> + 'a {
        let (r, list) = (
            self.r,
            self.counted(self.header.winf.get() as usize, b"WINF", 4),
        );
        let (list, err) = match list {
            Ok(l) => (l, None),
            Err(e) => (&[][..], Some(Err(e.context("WINF")))),
        };
        err.into_iter()
            .chain(list.iter().enumerate().map(move |(i, off)| {
                let at = off.get() as usize;
                (|| {
                    let name = r.fixed_str(at, NAME_LEN)?;
                    let n = r.u32(at + NAME_LEN)? as usize;
                    let waves = r.table::<U32>(at + NAME_LEN + 4, n)?;
                    Ok(Archive { r, name, waves })
                })()
                .with_context(|| format!("WINF > archive {i}"))
            }))
    }

    /// Control lists (`WBCT` → `SCNE` → `C-DF`): per group, the wave ids in archive order.
    pub fn groups(&self) -> impl Iterator<Item = Result<&'a [U32]>> + 'a {
        let (r, list) = (
            self.r,
            self.counted(self.header.wbct.get() as usize, b"WBCT", 8),
        );
        let (list, err) = match list {
            Ok(l) => (l, None),
            Err(e) => (&[][..], Some(Err(e.context("WBCT")))),
        };
        err.into_iter()
            .chain(list.iter().enumerate().map(move |(i, off)| {
                let scne = off.get() as usize;
                (|| {
                    r.expect_magic(scne, b"SCNE")?;
                    let ctrl = r.u32(scne + 0xC)? as usize;
                    let n = r.u32(ctrl + 4)? as usize;
                    r.table::<U32>(ctrl + 8, n)
                })()
                .with_context(|| format!("WBCT > group {i}"))
            }))
    }

    /// Every wave id the control lists define (low 16 bits of each control word).
    pub fn wave_ids(&self) -> Result<BTreeSet<u16>> {
        let mut ids = BTreeSet::new();
        for g in self.groups() {
            for &off in g? {
                let word = self.r.u32(off.get() as usize).context("control wave")?;
                ids.insert(word as u16);
            }
        }
        Ok(ids)
    }
}

/// Findings for every program whose velocity regions name waves the WSYS does not define
/// (`IBNK-012`: the game crashes on them). Fails only when the WSYS cannot be read.
pub fn missing_waves(bank: &Bank, wsys: &[u8]) -> Result<Vec<Diagnostic>> {
    let ws = parse(wsys)?;
    let ids = ws.wave_ids()?;
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut current: Option<(u32, BTreeSet<u16>)> = None;
    let mut flush = |c: Option<(u32, BTreeSet<u16>)>| {
        if let Some((p, waves)) = c.filter(|(_, w)| !w.is_empty()) {
            let list: Vec<String> = waves.iter().map(|w| format!("{w:#06x}")).collect();
            out.push(Diagnostic::error(
                "IBNK-012",
                crate::write::program_entry(bank, p),
                format!(
                    "program {p}: wave(s) {} missing from WSYS {}",
                    list.join(", "),
                    ws.id()
                ),
            ));
        }
    };
    for (p, wave) in bank.wave_uses() {
        if current.as_ref().is_none_or(|(cp, _)| *cp != p) {
            flush(current.take());
            current = Some((p, BTreeSet::new()));
        }
        if !ids.contains(&wave)
            && let Some((_, w)) = current.as_mut()
        {
            w.insert(wave);
        }
    }
    flush(current);
    Ok(out)
}

/// Builds a small WSYS: one wave archive and one control group per `(aw name, wave ids)`,
/// with plausible ADPCM wave descriptions.
pub fn build(id: u32, groups: &[(&str, &[u16])]) -> Vec<u8> {
    let mut w = Writer::new();
    w.bytes(b"WSYS");
    let size = w.reserve_u32();
    w.u32(id).u32(0);
    let winf = w.reserve_u32();
    let wbct = w.reserve_u32();
    w.fill(0, 8);
    let _ = w.fix_here(winf);
    w.bytes(b"WINF").u32(groups.len() as u32);
    let archives: Vec<_> = groups.iter().map(|_| w.reserve_u32()).collect();
    w.align(32, 0);
    let _ = w.fix_here(wbct);
    w.bytes(b"WBCT").u32(0xFFFF_FFFF).u32(groups.len() as u32);
    let scenes: Vec<_> = groups.iter().map(|_| w.reserve_u32()).collect();
    w.align(32, 0);
    let mut aw = 0u32;
    for (g, ((name, waves), (arc, scene))) in
        groups.iter().zip(archives.iter().zip(&scenes)).enumerate()
    {
        let _ = w.fix_here(*arc);
        let mut field = [0u8; NAME_LEN];
        for (d, s) in field.iter_mut().zip(name.bytes().take(NAME_LEN - 1)) {
            *d = s;
        }
        w.bytes(&field).u32(waves.len() as u32);
        let slots: Vec<_> = waves.iter().map(|_| w.reserve_u32()).collect();
        for (slot, _) in slots.into_iter().zip(waves.iter()) {
            let _ = w.fix_here(slot);
            let len = 0x900;
            w.u8(0).u8(0).u8(60).u8(0).f32(32000.0).u32(aw).u32(len);
            w.u32(0).u32(0).u32(0).u32(len / 9 * 16).i16(0).i16(0);
            aw += len;
        }
        w.align(32, 0);
        let _ = w.fix_here(*scene);
        w.bytes(b"SCNE").u32(0).u32(0);
        let cdf = w.reserve_u32();
        let _ = w.fix_here(cdf);
        w.bytes(b"C-DF").u32(waves.len() as u32);
        let ctrl: Vec<_> = waves.iter().map(|_| w.reserve_u32()).collect();
        for (slot, wave) in ctrl.into_iter().zip(waves.iter()) {
            let _ = w.fix_here(slot);
            w.u32(((g as u32) << 16) | u32::from(*wave));
        }
        w.align(32, 0);
    }
    let len = w.position() as u64;
    let _ = w.fix(size, len);
    w.into_vec()
}
