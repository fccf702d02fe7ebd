//! MDL3 (BDL only): one precompiled display-list packet per material, made of BP register writes
//! (`61 rr vvvvvv`) and XF register loads (`10 nnnn aaaa` + values), plus per-material sub-packet
//! locations, matrix words, pixel-engine bytes, indices and the name table. Layout per gclib:
//! header, padding to 0x40, the packet table, the 32-byte-aligned packets, then the small tables
//! each aligned to 4. [`Mdl3::from_materials`] regenerates packets from MAT3 + TEX1 values;
//! [`registers`] and [`first_mismatch`] compare packets by the register values they leave.

use gcio::{Context, Error, Limits, Reader, Result, Writer};

use crate::Pad;
use crate::chunk::{u16_of, u32_of, write_chunk};
use crate::mat3::Material;
use crate::nametab::NameTable;
use crate::tex1::TextureSet;

/// One display-list command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// BP register write.
    Bp {
        /// Register.
        reg: u8,
        /// 24-bit value.
        value: u32,
    },
    /// XF register load of consecutive words from `addr`.
    Xf {
        /// First XF address.
        addr: u16,
        /// Values.
        values: Vec<u32>,
    },
    /// A NOP byte (0x00): ends the list, repeated as padding.
    Nop,
}

impl Command {
    /// The register's GX name, when known.
    pub fn name(&self) -> Option<&'static str> {
        match self {
            Command::Bp { reg, .. } => bp_name(*reg),
            Command::Xf { addr, .. } => xf_name(*addr),
            Command::Nop => Some("NOP"),
        }
    }
}

/// Names of BP registers MDL3 packets write.
pub fn bp_name(reg: u8) -> Option<&'static str> {
    Some(match reg {
        0x00 => "GEN_MODE",
        0x06..=0x0E => "IND_MTX",
        0x0F => "IND_IMASK",
        0x10..=0x1F => "IND_CMD",
        0x25 | 0x26 => "RAS1_SS",
        0x27 => "RAS1_IREF",
        0x28..=0x2F => "RAS1_TREF",
        0x30..=0x3F => "SU_SSIZE/SU_TSIZE",
        0x40 => "PE_ZMODE",
        0x41 => "PE_CMODE0",
        0x42 => "PE_CMODE1",
        0x43 => "PE_CONTROL",
        0x80..=0x83 | 0xA0..=0xA3 => "TX_SETMODE0",
        0x84..=0x87 | 0xA4..=0xA7 => "TX_SETMODE1",
        0x88..=0x8B | 0xA8..=0xAB => "TX_SETIMAGE0",
        0x8C..=0x8F | 0xAC..=0xAF => "TX_SETIMAGE1",
        0x90..=0x93 | 0xB0..=0xB3 => "TX_SETIMAGE2",
        0x94..=0x97 | 0xB4..=0xB7 => "TX_SETIMAGE3",
        0x98..=0x9B | 0xB8..=0xBB => "TX_SETTLUT",
        0xC0..=0xDF if reg.is_multiple_of(2) => "TEV_COLOR_ENV",
        0xC0..=0xDF => "TEV_ALPHA_ENV",
        0xE0..=0xE7 if reg.is_multiple_of(2) => "TEV_REGISTERL",
        0xE0..=0xE7 => "TEV_REGISTERH",
        0xE8 => "TEV_FOG_RANGE",
        0xE9..=0xED => "TEV_FOG_RANGE_ADJ",
        0xEE..=0xF1 => "TEV_FOG_PARAM",
        0xF2 => "TEV_FOG_COLOR",
        0xF3 => "TEV_ALPHAFUNC",
        0xF4 | 0xF5 => "TEV_Z_ENV",
        0xF6..=0xFD => "TEV_KSEL",
        0xFE => "BP_MASK",
        _ => return None,
    })
}

/// Names of XF registers MDL3 packets load.
pub fn xf_name(addr: u16) -> Option<&'static str> {
    Some(match addr {
        0x0000..=0x00FF => "TEXMTX (matrix memory)",
        0x0400..=0x045F => "NRMMTX (matrix memory)",
        0x0500..=0x05FF => "POSTMTX (matrix memory)",
        0x1009 => "NUMCHAN",
        0x100A | 0x100B => "CHAN_AMBCOLOR",
        0x100C | 0x100D => "CHAN_MATCOLOR",
        0x100E..=0x1011 => "CHAN_CTRL",
        0x103F => "NUMTEX",
        0x1040..=0x1047 => "TEXMTXINFO",
        0x1050..=0x1057 => "POSTMTXINFO",
        _ => return None,
    })
}

/// A register a packet sets. The TEV colour registers (BP 0xE0..0xE7) are one address for two
/// registers: a write with bit 23 set loads the konst colour, without it the TEV colour, so each
/// is its own register here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Register {
    /// BP register.
    Bp(u8),
    /// Konst colour half written through BP 0xE0..0xE7 with bit 23 set.
    Konst(u8),
    /// One XF word address.
    Xf(u16),
}

impl Register {
    /// The register's GX name, when known.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Register::Bp(r) => bp_name(r),
            Register::Konst(r) if r.is_multiple_of(2) => Some("TEV_KREGISTERL"),
            Register::Konst(_) => Some("TEV_KREGISTERH"),
            Register::Xf(a) => xf_name(a),
        }
    }

    /// The register a BP write of `value` to `reg` sets (konst or TEV colour by bit 23).
    fn of_bp(reg: u8, value: u32) -> Register {
        match reg {
            0xE0..=0xE7 if value & 1 << 23 != 0 => Register::Konst(reg),
            _ => Register::Bp(reg),
        }
    }

    /// The bits of this register that [`Mdl3::from_materials`] derives from MAT3 + TEX1 (the
    /// others, such as TX_SETMODE0's diagonal-LOD, anisotropy and LOD-clamp bits, come from
    /// fields it does not model and are not compared).
    pub fn derived_bits(self) -> u32 {
        match self {
            Register::Bp(0x80..=0x83 | 0xA0..=0xA3) => 0x0001_FEFF,
            Register::Bp(0x40) => 0x1F,
            Register::Bp(_) | Register::Konst(_) => 0x00FF_FFFF,
            Register::Xf(_) => u32::MAX,
        }
    }
}

impl std::fmt::Display for Register {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.name().unwrap_or("register");
        match self {
            Register::Bp(r) | Register::Konst(r) => write!(f, "{name} (BP {r:#04x})"),
            Register::Xf(a) => write!(f, "{name} (XF {a:#06x})"),
        }
    }
}

/// The values a command stream leaves in the registers it sets, in first-write order: later
/// writes override earlier ones, a BP_MASK (0xFE) write limits the next BP write to its bits as
/// on hardware. Each entry is (register, value, bits written).
pub fn registers(cmds: &[Command]) -> Vec<(Register, u32, u32)> {
    let mut out: Vec<(Register, u32, u32)> = Vec::new();
    let mut at = std::collections::HashMap::new();
    let mut mask = 0x00FF_FFFF;
    let mut set = |reg: Register, value: u32, bits: u32| {
        let i = *at.entry(reg).or_insert_with(|| {
            out.push((reg, 0, 0));
            out.len() - 1
        });
        if let Some((_, v, known)) = out.get_mut(i) {
            *v = (*v & !bits) | (value & bits);
            *known |= bits;
        }
    };
    for c in cmds {
        match c {
            Command::Bp { reg: 0xFE, value } => mask = value & 0x00FF_FFFF,
            Command::Bp { reg, value } => {
                set(Register::of_bp(*reg, *value), *value, mask);
                mask = 0x00FF_FFFF;
            }
            Command::Xf { addr, values } => {
                for (a, v) in (*addr..=u16::MAX).zip(values) {
                    set(Register::Xf(a), *v, u32::MAX);
                }
            }
            Command::Nop => {}
        }
    }
    out
}

/// A register whose stored value differs from the regenerated one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// The register.
    pub register: Register,
    /// The regenerated value.
    pub expected: u32,
    /// The stored value (`None`: the stored packet does not set the register).
    pub found: Option<u32>,
}

/// The first register (in `expected`'s write order) that `expected` sets and `stored` leaves with
/// a different value. Decoded register values are compared, not bytes, so packets that set the
/// same values in another order, repeat a write (Nintendo's SDK writes TEV_REGISTERH three
/// times), or set registers the regenerator does not derive still match; only
/// [`Register::derived_bits`] are compared.
pub fn first_mismatch(stored: &[Command], expected: &[Command]) -> Option<Mismatch> {
    mismatches(stored, expected).next()
}

/// Every register that `expected` sets and `stored` leaves with a different value, in
/// `expected`'s write order (see [`first_mismatch`]).
pub fn mismatches(stored: &[Command], expected: &[Command]) -> impl Iterator<Item = Mismatch> {
    let found: std::collections::HashMap<Register, (u32, u32)> = registers(stored)
        .into_iter()
        .map(|(r, v, k)| (r, (v, k)))
        .collect();
    registers(expected)
        .into_iter()
        .filter_map(move |(register, want, _)| {
            let bits = register.derived_bits();
            let got = found.get(&register).copied();
            let same = got.is_some_and(|(v, known)| known & bits == bits && (v ^ want) & bits == 0);
            (!same).then_some(Mismatch {
                register,
                expected: want,
                found: got.map(|(v, _)| v),
            })
        })
}

/// Patches `stored` in place so that it leaves the [`Register::derived_bits`] of every register
/// `expected` sets with `expected`'s values: each write to such a register gets those bits
/// (within the BP_MASK in force), the other bits, the command order, repeated writes and
/// registers the regenerator does not derive stay as they are, so the packet keeps its size and
/// its bytes change only where a derived value changed. Returns what patching cannot fix: the
/// registers `expected` sets that `stored` never writes.
pub fn patch(stored: &mut [Command], expected: &[Command]) -> Vec<Mismatch> {
    let want: std::collections::HashMap<Register, u32> = registers(expected)
        .into_iter()
        .map(|(r, v, _)| (r, v))
        .collect();
    let update = |register: Register, value: &mut u32, mask: u32| {
        if let Some(w) = want.get(&register) {
            let bits = register.derived_bits() & mask;
            *value = (*value & !bits) | (w & bits);
        }
    };
    let mut mask = 0x00FF_FFFF;
    for c in stored.iter_mut() {
        match c {
            Command::Bp { reg: 0xFE, value } => mask = *value & 0x00FF_FFFF,
            Command::Bp { reg, value } => {
                update(Register::of_bp(*reg, *value), value, mask);
                mask = 0x00FF_FFFF;
            }
            Command::Xf { addr, values } => {
                for (a, v) in (*addr..=u16::MAX).zip(values.iter_mut()) {
                    update(Register::Xf(a), v, u32::MAX);
                }
            }
            Command::Nop => {}
        }
    }
    mismatches(stored, expected).collect()
}

/// Decodes a packet's commands: BP writes and XF loads up to the first NOP (the rest is
/// padding). The game hands the packet to the GPU as it is and never decodes it, so any other
/// command, or one cut short by the packet's end, also ends the decoded commands; the bytes from
/// there on are the packet's tail, kept as stored. Returns the commands and the bytes they take.
pub fn decode(r: &Reader<'_>) -> Result<(Vec<Command>, usize)> {
    let mut out = Vec::new();
    let mut p = 0;
    while p < r.len() {
        let cmd = match r.u8(p)? {
            0x61 => r.u24(p + 2).and_then(|value| {
                let reg = r.u8(p + 1)?;
                Ok((Command::Bp { reg, value }, 5))
            }),
            0x10 => r.u16(p + 1).and_then(|n| {
                let n = usize::from(n) + 1;
                let addr = r.u16(p + 3)?;
                r.bytes(p + 5, 4 * n)?;
                let values = (0..n)
                    .map(|i| r.u32(p + 5 + 4 * i))
                    .collect::<Result<_>>()?;
                Ok((Command::Xf { addr, values }, 5 + 4 * n))
            }),
            _ => break,
        };
        let Ok((cmd, len)) = cmd else { break };
        out.push(cmd);
        p += len;
    }
    Ok((out, p))
}

/// Encodes commands.
pub fn encode(cmds: &[Command], w: &mut Writer) -> Result<()> {
    for c in cmds {
        match c {
            Command::Bp { reg, value } => {
                w.u8(0x61).u8(*reg).u24(*value);
            }
            Command::Xf { addr, values } => {
                let n = values
                    .len()
                    .checked_sub(1)
                    .and_then(|n| u16::try_from(n).ok())
                    .ok_or_else(|| Error::message("XF load of 0 or > 65536 words"))?;
                w.u8(0x10).u16(n).u16(*addr);
                for v in values {
                    w.u32(*v);
                }
            }
            Command::Nop => {
                w.u8(0);
            }
        }
    }
    Ok(())
}

/// TX_SETMODE0's minification field (bits 5-7) for a TEX1 filter (GXTexFilter: near, linear,
/// near/near-mip, linear/near-mip, near/linear-mip, linear/linear-mip): the hardware splits it
/// into a mip mode (bits 5-6: none, point, linear) and the filter (bit 7: linear), so the enum is
/// not stored as is. Unknown values keep their low three bits.
fn min_filter_bits(filter: u8) -> u32 {
    match filter {
        0 => 0,
        1 => 4,
        2 => 1,
        3 => 5,
        4 => 2,
        5 => 6,
        f => u32::from(f & 7),
    }
}

/// One material's packet: commands and the bytes after them up to the packet's 32-byte end.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Packet {
    /// BP/XF commands.
    pub commands: Vec<Command>,
    /// Padding after the commands (zeros in Nintendo's and gclib's files), kept verbatim.
    pub tail: Vec<u8>,
}

/// Owned MDL3.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mdl3 {
    /// The u16 at 0x0A (0xFFFF).
    pub marker: u16,
    /// Packets, one per material.
    pub packets: Vec<Packet>,
    /// Sub-packet locations per material: channel colour, channel control, tex gen, texture, TEV,
    /// pixel, then a word (−1).
    pub subpackets: Vec<([u16; 6], u32)>,
    /// Matrix words per material (8 bytes).
    pub matrix: Vec<[u8; 8]>,
    /// One byte per material (pixel-engine mode in some tools).
    pub unknown: Vec<u8>,
    /// u16 per material.
    pub indices: Vec<u16>,
    /// Material names.
    pub names: Option<NameTable>,
    /// The name table is stored as its zero count alone, the chunk's padding starting where the
    /// 0xFFFF marker would be (SuperBMD writes MDL3's names this way). Only an empty table is
    /// written so; the game reads MDL3's names only for a BDL without MAT3, and a count of 0
    /// reads no further.
    pub names_count_only: bool,
    /// Padding style.
    pub pad: Pad,
}

fn table<T>(
    r: &Reader<'_>,
    at: usize,
    n: usize,
    size: usize,
    f: impl Fn(usize) -> Result<T>,
) -> Result<Vec<T>> {
    r.bytes(at, n.saturating_mul(size))?;
    (0..n).map(|i| f(at + i * size)).collect()
}

impl Mdl3 {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'_>, pad: Pad) -> Result<Self> {
        Self::parse_with(r, pad, &Limits::default())
    }

    /// Reads the chunk `r`; `limits` bound the packet and name counts.
    pub fn parse_with(r: Reader<'_>, pad: Pad, limits: &Limits) -> Result<Self> {
        r.expect_magic(0, b"MDL3").context("MDL3")?;
        let n = limits.check_elements(u64::from(r.u16(8)?), r.abs(8))?;
        let off = |k: usize| r.u32(0x0C + 4 * k).map(|v| v as usize);
        let (pk, sp, mx, un, ix, nm) = (off(0)?, off(1)?, off(2)?, off(3)?, off(4)?, off(5)?);
        // Packets do not overlap in real files: decoding more bytes than the chunk holds means
        // entries share data, which would multiply the work.
        let budget = std::cell::Cell::new(r.len());
        let packets = table(&r, pk, n, 8, |e| {
            let start = e + r.u32(e)? as usize;
            let size = r.u32(e + 4)? as usize;
            let p = r.sub(start, size)?;
            // Packets that share bytes would decode the same bytes again and again.
            budget.set(budget.get().checked_sub(size).ok_or_else(|| {
                Error::invalid(
                    r.abs(e),
                    format!(
                        "packets overlap: {size} bytes past the {} the chunk has left",
                        budget.get()
                    ),
                )
            })?);
            let (commands, used) = decode(&p)?;
            Ok(Packet {
                commands,
                tail: p.rest(used)?.to_vec(),
            })
        })
        .context("MDL3 > packets")?;
        let subpackets = table(&r, sp, n, 16, |e| {
            let mut a = [0u16; 6];
            for (k, x) in a.iter_mut().enumerate() {
                *x = r.u16(e + 2 * k)?;
            }
            Ok((a, r.u32(e + 12)?))
        })?;
        let matrix = table(&r, mx, n, 8, |e| r.array::<8>(e))?;
        let unknown = table(&r, un, n, 1, |e| r.u8(e))?;
        let indices = table(&r, ix, n, 2, |e| r.u16(e))?;
        let names = (nm != 0)
            .then(|| NameTable::parse_with(r, nm, limits))
            .transpose()?;
        // A zero count whose "marker" is this style's padding: the table is the count alone.
        let names_count_only = names
            .as_ref()
            .is_some_and(|t| t.entries.is_empty() && t.marker != 0xFFFF)
            && r.bytes(nm + 2, 2).is_ok_and(|b| pad.matches(b));
        Ok(Mdl3 {
            marker: r.u16(0x0A)?,
            packets,
            subpackets,
            matrix,
            unknown,
            indices,
            names,
            names_count_only,
            pad,
        })
    }

    /// Writes the chunk in gclib's layout.
    pub fn write(&self) -> Result<Vec<u8>> {
        let n = self.packets.len();
        if [
            self.subpackets.len(),
            self.matrix.len(),
            self.unknown.len(),
            self.indices.len(),
        ]
        .iter()
        .any(|&l| l != n)
        {
            return Err(Error::invalid(
                0,
                "MDL3 tables differ in length from the packets",
            ));
        }
        write_chunk(*b"MDL3", self.pad, |w: &mut Writer| {
            w.u16(u16_of(n, "MDL3 count")?).u16(self.marker);
            let slots: Vec<gcio::Fixup> = (0..6).map(|_| w.reserve_u32()).collect();
            let slot = |k: usize| slots.get(k).copied().ok_or_else(|| Error::message("slot"));
            self.pad.align(w, 0x20);
            w.fix_here(slot(0)?)?;
            let table = w.position();
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                entries.push((w.reserve_u32(), w.reserve_u32()));
            }
            for (i, (p, (o, s))) in self.packets.iter().zip(entries).enumerate() {
                // GX display lists start on 32 bytes: the gap after the packet table is padding.
                self.pad.align(w, 32);
                let start = w.position();
                encode(&p.commands, w)?;
                w.bytes(&p.tail);
                w.fix(o, (start - (table + 8 * i)) as u64)?;
                w.fix(s, u64::from(u32_of(w.position() - start, "packet size")?))?;
            }
            self.pad.align(w, 4);
            w.fix_here(slot(1)?)?;
            for (a, x) in &self.subpackets {
                for v in a {
                    w.u16(*v);
                }
                w.u32(*x);
            }
            self.pad.align(w, 4);
            w.fix_here(slot(2)?)?;
            for m in &self.matrix {
                w.bytes(m);
            }
            self.pad.align(w, 4);
            w.fix_here(slot(3)?)?;
            for u in &self.unknown {
                w.u8(*u);
            }
            self.pad.align(w, 4);
            w.fix_here(slot(4)?)?;
            for i in &self.indices {
                w.u16(*i);
            }
            self.pad.align(w, 4);
            // The chunk's padding to 32 follows the names as one run.
            if let Some(t) = &self.names {
                w.fix_here(slot(5)?)?;
                if self.names_count_only && t.entries.is_empty() {
                    w.u16(0);
                } else {
                    t.write(w)?;
                }
            }
            Ok(())
        })
        .context("MDL3")
    }

    /// Brings the stored packets in line with edited materials and textures: packet `i` is
    /// [`patch`]ed with packet `i` of `regenerated` ([`Mdl3::from_materials`] of the edited
    /// materials), so an edit of a colour, a wrap mode or a filter changes only the register values
    /// derived from it. Returns, per material index, the registers a stored packet does not write
    /// (the packet would need new commands; J3D-081 keeps reporting them).
    pub fn sync(&mut self, regenerated: &Mdl3) -> Vec<(usize, Mismatch)> {
        let mut left = Vec::new();
        for (i, (p, e)) in self
            .packets
            .iter_mut()
            .zip(&regenerated.packets)
            .enumerate()
        {
            left.extend(
                patch(&mut p.commands, &e.commands)
                    .into_iter()
                    .map(|m| (i, m)),
            );
        }
        left
    }

    /// Regenerates packets from resolved materials and their textures: texture image/mode/size
    /// registers, TEV colour registers (REGISTERL/H pairs), konst colours, alpha compare, z mode,
    /// and the channel colours; sub-packet locations point at the TEV and pixel groups.
    pub fn from_materials(materials: &[Material], textures: &TextureSet) -> Result<Self> {
        let mut m = Mdl3 {
            marker: 0xFFFF,
            names: Some(NameTable::new(materials.iter().map(|m| m.name.as_slice()))),
            pad: Pad::Nintendo,
            ..Mdl3::default()
        };
        for (i, mat) in materials.iter().enumerate() {
            let mut c = Vec::new();
            // Textures: TX_SETIMAGE0 (size and format) and TX_SETMODE0 (wrap and filters).
            for (slot, t) in mat.textures.iter().enumerate().take(8) {
                let Some(h) = t
                    .and_then(|t| textures.textures.get(usize::from(t)))
                    .map(|t| t.header)
                else {
                    continue;
                };
                let s = slot as u8;
                let base = if s < 4 { s } else { 0x20 + s - 4 };
                let image = u32::from(h.width.saturating_sub(1)) & 0x3FF
                    | (u32::from(h.height.saturating_sub(1)) & 0x3FF) << 10
                    | u32::from(h.format & 0xF) << 20;
                c.push(Command::Bp {
                    reg: 0x88 + base,
                    value: image,
                });
                let mode = u32::from(h.wrap_s & 3)
                    | u32::from(h.wrap_t & 3) << 2
                    | u32::from(h.mag_filter & 1) << 4
                    | min_filter_bits(h.min_filter) << 5
                    | (((f32::from(h.lod_bias) * 0.01 * 32.0) as i32 as u32) & 0xFF) << 9;
                c.push(Command::Bp {
                    reg: 0x80 + base,
                    value: mode,
                });
            }
            let tev_at = c.len() * 5;
            // MAT3's TEV colours 0..2 are GX_TEVREG0..2, hardware registers 1..3 (BP 0xE2..); the
            // fourth is GX_TEVPREV, which the game's packets never load (retail BDLs agree).
            for (k, col) in mat.tev_colors.iter().enumerate().take(3) {
                if let Some([r, g, b, a]) = col {
                    let k = k as u8 + 1;
                    let c11 = |v: i16| (v as u32) & 0x7FF;
                    c.push(Command::Bp {
                        reg: 0xE0 + 2 * k,
                        value: c11(*r) | c11(*a) << 12,
                    });
                    c.push(Command::Bp {
                        reg: 0xE1 + 2 * k,
                        value: c11(*b) | c11(*g) << 12,
                    });
                }
            }
            for (k, col) in mat.konst_colors.iter().enumerate() {
                if let Some([r, g, b, a]) = col {
                    let k = k as u8;
                    let kc = 1 << 23;
                    c.push(Command::Bp {
                        reg: 0xE0 + 2 * k,
                        value: u32::from(*r) | u32::from(*a) << 12 | kc,
                    });
                    c.push(Command::Bp {
                        reg: 0xE1 + 2 * k,
                        value: u32::from(*b) | u32::from(*g) << 12 | kc,
                    });
                }
            }
            let pixel_at = c.len() * 5;
            if let Some(a) = mat.alpha_compare {
                let v = u32::from(a.ref0)
                    | u32::from(a.ref1) << 8
                    | u32::from(a.comp0 & 7) << 16
                    | u32::from(a.comp1 & 7) << 19
                    | u32::from(a.op & 3) << 22;
                c.push(Command::Bp {
                    reg: 0xF3,
                    value: v,
                });
            }
            if let Some(z) = mat.z_mode {
                let v = u32::from(z.test & 1)
                    | u32::from(z.func & 7) << 1
                    | u32::from(z.write & 1) << 4;
                c.push(Command::Bp {
                    reg: 0x40,
                    value: v,
                });
            }
            let xf_at = c.len() * 5;
            let colors: Vec<u32> = mat
                .amb_colors
                .iter()
                .chain(&mat.mat_colors)
                .map(|c| c.map_or(0, u32::from_be_bytes))
                .collect();
            c.push(Command::Xf {
                addr: 0x100A,
                values: colors,
            });
            let mut w = Writer::new();
            encode(&c, &mut w)?;
            let tail = vec![0; gcio::padding_for(w.position(), 32)];
            m.packets.push(Packet { commands: c, tail });
            let at = |p: usize| u16::try_from(p).unwrap_or(u16::MAX);
            m.subpackets
                .push(([at(xf_at), 0, 0, 0, at(tev_at), at(pixel_at)], u32::MAX));
            m.matrix.push([0; 8]);
            m.unknown.push(mat.mode);
            m.indices.push(u16::try_from(i).unwrap_or(u16::MAX));
        }
        Ok(m)
    }
}
