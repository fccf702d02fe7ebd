//! The JAudio2 command table for opcodes 0xA0–0xFF: mnemonic, argument count and 2-bit argument
//! widths (reference `bms.md` §3), plus which argument is an offset into the sequence.

/// Width of one command argument in the byte stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Width {
    /// One byte.
    U8,
    /// Big-endian 16-bit value.
    U16,
    /// Big-endian 24-bit value (offsets).
    U24,
    /// One byte naming a register whose value the command uses.
    Reg,
}

impl Width {
    /// The 2-bit width code (`0` u8, `1` u16, `2` u24, `3` register).
    pub fn from_code(code: u16) -> Width {
        match code & 3 {
            0 => Width::U8,
            1 => Width::U16,
            2 => Width::U24,
            _ => Width::Reg,
        }
    }

    /// Bytes the argument takes.
    pub fn size(self) -> usize {
        match self {
            Width::U8 | Width::Reg => 1,
            Width::U16 => 2,
            Width::U24 => 3,
        }
    }

    /// Largest value that fits.
    pub fn max(self) -> u32 {
        match self {
            Width::U8 | Width::Reg => 0xFF,
            Width::U16 => 0xFFFF,
            Width::U24 => 0xFF_FFFF,
        }
    }
}

/// What an offset argument points at; decides how control-flow discovery follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pointer {
    /// Code run by the same track (call / jump target).
    Code,
    /// Entry of a child track (`open_track`).
    Track,
    /// A table of 3-byte code offsets indexed by a register (`jmp_table`, `call_table`).
    JumpTable,
    /// The interrupt table: 3-byte handler offsets (`set_int_table`).
    IntTable,
    /// Data read by the command (envelopes, filter coefficients, value tables).
    Data,
}

/// One entry of the command table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// Text mnemonic (`open_track`); NULL entries are named `op_XX`.
    pub name: &'static str,
    /// Number of table-driven arguments.
    pub argc: u8,
    /// Packed 2-bit width codes, argument 0 in the low bits.
    pub widths: u16,
    /// Index and kind of the argument that is an offset into the sequence.
    pub pointer: Option<(u8, Pointer)>,
    /// False for the table's NULL entries (1-byte no-ops the game never emits, BMS-009).
    pub defined: bool,
}

impl OpInfo {
    /// Width of argument `i` before any register-prefix override.
    pub fn width(&self, i: usize) -> Width {
        Width::from_code(self.widths.checked_shr(2 * i as u32).unwrap_or(0))
    }
}

const fn op(name: &'static str, argc: u8, widths: u16) -> OpInfo {
    OpInfo {
        name,
        argc,
        widths,
        pointer: None,
        defined: true,
    }
}

const fn ptr(name: &'static str, argc: u8, widths: u16, arg: u8, kind: Pointer) -> OpInfo {
    OpInfo {
        name,
        argc,
        widths,
        pointer: Some((arg, kind)),
        defined: true,
    }
}

const NULL: OpInfo = OpInfo {
    name: "",
    argc: 0,
    widths: 0,
    pointer: None,
    defined: false,
};

/// Opcode of the extended-command prefix (`B0 xx`).
pub const EXT: u8 = 0xB0;
/// Opcode of `wait` (MIDI-style variable-length tick count).
pub const WAIT: u8 = 0xF0;
/// Opcode of `printf` (inline string + one byte per conversion).
pub const PRINTF: u8 = 0xFD;

/// Opcode constants for the commands control flow and MIDI export act on.
#[allow(missing_docs)]
pub mod ops {
    pub const NOTE_ON: u8 = 0xB1;
    pub const NOTE_OFF: u8 = 0xB2;
    pub const NOTE_GATE: u8 = 0xB3;
    pub const OPEN_TRACK: u8 = 0xC1;
    pub const CLOSE_TRACK: u8 = 0xC2;
    pub const CALL: u8 = 0xC3;
    pub const CALL_F: u8 = 0xC4;
    pub const RET: u8 = 0xC5;
    pub const RET_F: u8 = 0xC6;
    pub const JMP: u8 = 0xC7;
    pub const JMP_F: u8 = 0xC8;
    pub const JMP_TABLE: u8 = 0xC9;
    pub const CALL_TABLE: u8 = 0xCA;
    pub const LOOP_S: u8 = 0xCB;
    pub const LOOP_E: u8 = 0xCC;
    pub const READ_PORT: u8 = 0xD0;
    pub const REG_LOAD: u8 = 0xD8;
    pub const REG_REG: u8 = 0xD9;
    pub const REG_IMM: u8 = 0xDA;
    pub const REG_UNI: u8 = 0xDB;
    pub const TEMPO: u8 = 0xE0;
    pub const BANK_PRG: u8 = 0xE1;
    pub const BANK: u8 = 0xE2;
    pub const PRG: u8 = 0xE3;
    pub const WAIT_BYTE: u8 = 0xF1;
    pub const RET_I: u8 = 0xF6;
    pub const FINISH: u8 = 0xFF;
}

static TABLE: [OpInfo; 0x60] = {
    let mut t = [NULL; 0x60];
    t[0x10] = op("ext", 0, 0);
    t[0x11] = op("note_on", 3, 0);
    t[0x12] = op("note_off", 1, 0);
    t[0x13] = op("note_gate", 4, 0x40);
    t[0x14] = op("set_last_note", 1, 0);
    t[0x18] = op("param_e", 2, 0);
    t[0x19] = op("param_i", 2, 0x4);
    t[0x1A] = op("param_ei", 3, 0x10);
    t[0x1B] = op("param_ii", 3, 0x14);
    t[0x21] = ptr("open_track", 2, 0x8, 1, Pointer::Track);
    t[0x22] = op("close_track", 1, 0);
    t[0x23] = ptr("call", 1, 0x2, 0, Pointer::Code);
    t[0x24] = ptr("call_f", 2, 0x8, 1, Pointer::Code);
    t[0x25] = op("ret", 0, 0);
    t[0x26] = op("ret_f", 1, 0);
    t[0x27] = ptr("jmp", 1, 0x2, 0, Pointer::Code);
    t[0x28] = ptr("jmp_f", 2, 0x8, 1, Pointer::Code);
    t[0x29] = ptr("jmp_table", 2, 0xB, 1, Pointer::JumpTable);
    t[0x2A] = ptr("call_table", 2, 0xB, 1, Pointer::JumpTable);
    t[0x2B] = op("loop_s", 1, 0x1);
    t[0x2C] = op("loop_e", 0, 0);
    t[0x30] = op("read_port", 2, 0);
    t[0x31] = op("write_port", 2, 0xC);
    t[0x32] = op("check_port_import", 1, 0);
    t[0x33] = op("check_port_export", 1, 0);
    t[0x34] = op("parent_write_port", 2, 0xC);
    t[0x35] = op("child_write_port", 2, 0xC);
    t[0x36] = op("parent_read_port", 2, 0);
    t[0x37] = op("child_read_port", 2, 0);
    t[0x38] = op("reg_load", 2, 0x4);
    t[0x39] = op("reg_reg", 3, 0x30);
    t[0x3A] = op("reg_imm", 3, 0x10);
    t[0x3B] = op("reg_uni", 2, 0);
    t[0x3C] = ptr("reg_tbl_load", 4, 0xE0, 2, Pointer::Data);
    t[0x40] = op("tempo", 1, 0x1);
    t[0x41] = op("bank_prg", 1, 0x1);
    t[0x42] = op("bank", 1, 0);
    t[0x43] = op("prg", 1, 0);
    t[0x47] = op("env_scale_set", 2, 0x4);
    t[0x48] = ptr("env_set", 2, 0x8, 1, Pointer::Data);
    t[0x49] = op("simple_adsr", 5, 0x155);
    t[0x4A] = op("bus_connect", 2, 0x4);
    t[0x4B] = op("iir_cutoff", 1, 0);
    t[0x4C] = op("iir_set", 4, 0x55);
    t[0x4D] = ptr("fir_set", 1, 0x2, 0, Pointer::Data);
    t[0x50] = op("wait", 0, 0);
    t[0x51] = op("wait_byte", 1, 0);
    t[0x53] = ptr("set_int_table", 1, 0x2, 0, Pointer::IntTable);
    t[0x54] = op("set_interrupt", 1, 0x1);
    t[0x55] = op("dis_interrupt", 1, 0x1);
    t[0x56] = op("ret_i", 0, 0);
    t[0x57] = op("clr_i", 0, 0);
    t[0x58] = op("int_timer", 2, 0x4);
    t[0x59] = op("sync_cpu", 1, 0x1);
    t[0x5D] = op("printf", 0, 0);
    t[0x5E] = op("nop", 0, 0);
    t[0x5F] = op("finish", 0, 0);
    t
};

/// Table entry of command opcode `op` (0xA0–0xFF); `None` below 0xA0.
pub fn info(op: u8) -> Option<&'static OpInfo> {
    TABLE.get(usize::from(op.checked_sub(0xA0)?))
}

/// The opcode a mnemonic names: a table name, or `op_XX` for any command opcode.
pub fn by_name(name: &str) -> Option<u8> {
    if let Some(hex) = name.strip_prefix("op_") {
        return u8::from_str_radix(hex, 16).ok().filter(|&o| o >= 0xA0);
    }
    (0xA0..=0xFF).find(|&o| info(o).is_some_and(|i| i.defined && i.name == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_names() {
        let dc = info(0xDC).unwrap();
        let w: Vec<_> = (0..4).map(|i| dc.width(i)).collect();
        assert_eq!(w, [Width::U8, Width::U8, Width::U24, Width::Reg]);
        assert_eq!(by_name("open_track"), Some(0xC1));
        assert_eq!(by_name("op_a3"), Some(0xA3));
        assert_eq!(by_name("op_7f"), None);
        assert_eq!(by_name("bogus"), None);
        assert!(info(0x9F).is_none());
        assert!(!info(0xA0).unwrap().defined);
        // Every defined name is unique, so the text form maps back to one opcode.
        for o in 0xA0..=0xFF {
            let i = info(o).unwrap();
            if i.defined {
                assert_eq!(by_name(i.name), Some(o), "{}", i.name);
            }
        }
    }
}
