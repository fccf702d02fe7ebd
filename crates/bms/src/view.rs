//! Borrowed access: the discovered control flow over the original bytes, with instructions decoded
//! on demand (nothing is allocated per instruction except a printf's string).

use gcio::{Limits, Reader, Result};

use crate::flow::{Class, Flow, Track};
use crate::insn::Instruction;

/// A parsed sequence: the bytes plus the control-flow discovery over them.
#[derive(Debug, Clone)]
pub struct View<'a> {
    data: &'a [u8],
    flow: Flow,
}

/// Discovers the program in `data` with default [`Limits`]. BMS has no header, so this fails only
/// when a limit is exceeded; every structural problem is a finding in [`Flow::findings`].
pub fn parse(data: &[u8]) -> Result<View<'_>> {
    parse_with(data, &Limits::default())
}

/// [`parse`] with explicit limits.
pub fn parse_with<'a>(data: &'a [u8], limits: &Limits) -> Result<View<'a>> {
    Ok(View {
        data,
        flow: Flow::discover(data, limits)?,
    })
}

impl<'a> View<'a> {
    /// The bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The control-flow discovery result.
    pub fn flow(&self) -> &Flow {
        &self.flow
    }

    /// Root track and every opened track.
    pub fn tracks(&self) -> &[Track] {
        self.flow.tracks()
    }

    /// Decodes the instruction at `offset` (any offset, reachable or not).
    pub fn decode_at(&self, offset: usize) -> Result<(Instruction, usize)> {
        Instruction::decode(Reader::new(self.data), offset)
    }

    /// Every reachable instruction in file order with its offset.
    pub fn instructions(&self) -> impl Iterator<Item = (usize, Instruction)> + '_ {
        let r = Reader::new(self.data);
        (0..self.data.len())
            .filter(|&o| self.flow.class(o) == Class::Code)
            .filter_map(move |o| Instruction::decode(r, o).ok().map(|(i, _)| (o, i)))
    }
}
