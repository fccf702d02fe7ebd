//! The format bytes of an attribute record (target, kind, component count and width) and the
//! type descriptor they match, shared by the view that reads records and the model that owns them.

/// Attribute kind: an open newtype so unknown kinds survive a round trip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize))]
pub struct AttrKind(pub u8);

impl AttrKind {
    /// Kind 0: SKAcc supplement (6 × int8 records), the target is an SKAcc entry.
    pub const SKACC: AttrKind = AttrKind(0);
    /// Kind 1: positions (rigid 3 × int16, skinned body 6 × int16 interleaved).
    pub const POSITION: AttrKind = AttrKind(1);
    /// Kind 2: normals of a rigid submesh (3 × int16).
    pub const NORMAL: AttrKind = AttrKind(2);
}

/// The four format bytes of an attribute record: target, kind, component count, component width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "json", derive(serde::Serialize))]
pub struct AttrFormat {
    /// Target submesh (or SKAcc entry for kind 0).
    pub target: u8,
    /// Attribute kind.
    pub kind: AttrKind,
    /// Components per entry.
    pub count: u8,
    /// Bytes per component.
    pub width: u8,
}

impl AttrFormat {
    /// Rigid position record `xx 01 03 02`.
    pub const fn rigid_position(target: u8) -> Self {
        AttrFormat {
            target,
            kind: AttrKind::POSITION,
            count: 3,
            width: 2,
        }
    }
    /// Rigid normal record `xx 02 03 02`.
    pub const fn rigid_normal(target: u8) -> Self {
        AttrFormat {
            target,
            kind: AttrKind::NORMAL,
            count: 3,
            width: 2,
        }
    }
    /// Skinned-body record `xx 01 06 02` (interleaved x y z nx ny nz).
    pub const fn body(target: u8) -> Self {
        AttrFormat {
            target,
            kind: AttrKind::POSITION,
            count: 6,
            width: 2,
        }
    }
    /// SKAcc supplement record `xx 00 06 01`.
    pub const fn skacc(target: u8) -> Self {
        AttrFormat {
            target,
            kind: AttrKind::SKACC,
            count: 6,
            width: 1,
        }
    }
    /// From the four record bytes.
    pub const fn from_bytes(b: [u8; 4]) -> Self {
        AttrFormat {
            target: b[0],
            kind: AttrKind(b[1]),
            count: b[2],
            width: b[3],
        }
    }
    /// The four record bytes.
    pub const fn to_bytes(self) -> [u8; 4] {
        [self.target, self.kind.0, self.count, self.width]
    }
    /// Bytes per entry.
    pub const fn stride(self) -> usize {
        self.count as usize * self.width as usize
    }
    /// The descriptor byte `count << 4 | width` (low nibbles only, as the loader packs them).
    pub const fn descriptor_byte(self) -> u8 {
        (self.count << 4) | (self.width & 0xF)
    }
    /// True when `d` describes this record's target.
    pub fn matches(self, d: &Descriptor) -> bool {
        d.target == u16::from(self.target)
            && d.kind == self.kind
            && d.format == self.descriptor_byte()
    }
}

/// A type descriptor (one per distinct attribute target).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Descriptor {
    /// GPL submesh, or for kind 0 an SKAcc entry.
    pub target: u16,
    /// Attribute kind.
    pub kind: AttrKind,
    /// `component count << 4 | component size`.
    pub format: u8,
    /// Zero in the file (loader scratch); kept for round trips.
    pub reserved: [u8; 12],
}

impl Descriptor {
    /// The descriptor matching a record format, with zero reserved bytes.
    pub fn for_format(f: AttrFormat) -> Self {
        Descriptor {
            target: u16::from(f.target),
            kind: f.kind,
            format: f.descriptor_byte(),
            reserved: [0; 12],
        }
    }
}
