//! Conversions between RGBA8 and the packed GX pixel encodings.
//!
//! Channels narrower than 8 bits expand by bit replication (`v << (8 - n) | v >> (2n - 8)`), as the
//! hardware and Dolphin/noclip do [EXT: noclip `expand_n_to_8`]; narrowing picks the nearest
//! expanded value, so `narrow(expand(v)) == v` for every `v` (tested exhaustively).

/// One RGBA8 pixel.
pub type Rgba = [u8; 4];

pub(crate) fn expand3(v: u8) -> u8 {
    (v << 5) | (v << 2) | (v >> 1)
}

pub(crate) fn expand4(v: u8) -> u8 {
    (v << 4) | (v & 0x0F)
}

pub(crate) const fn expand5(v: u8) -> u8 {
    (v << 3) | (v >> 2)
}

pub(crate) const fn expand6(v: u8) -> u8 {
    (v << 2) | (v >> 4)
}

/// Nearest `bits`-bit value to `x` under `expand`: the rounded scale, or one of its neighbours.
fn narrow(x: u8, bits: u32, expand: fn(u8) -> u8) -> u8 {
    let max = (1u16 << bits) - 1;
    let guess = ((u16::from(x) * max + 127) / 255) as u8;
    let dist = |v: u8| (i16::from(expand(v)) - i16::from(x)).unsigned_abs();
    let mut best = guess;
    for v in [guess.wrapping_sub(1), guess.wrapping_add(1)] {
        if u16::from(v) <= max && dist(v) < dist(best) {
            best = v;
        }
    }
    best
}

/// Narrowing tables, one per channel width, built on first use.
static NARROW: std::sync::LazyLock<[[u8; 256]; 4]> = std::sync::LazyLock::new(|| {
    [
        (3, expand3 as fn(u8) -> u8),
        (4, expand4),
        (5, expand5),
        (6, expand6),
    ]
    .map(|(bits, e)| std::array::from_fn(|x| narrow(x as u8, bits, e)))
});

fn table(bits: usize, x: u8) -> u8 {
    NARROW
        .get(bits - 3)
        .and_then(|t| t.get(usize::from(x)))
        .copied()
        .unwrap_or(0)
}

pub(crate) fn narrow3(x: u8) -> u8 {
    table(3, x)
}
pub(crate) fn narrow4(x: u8) -> u8 {
    table(4, x)
}
pub(crate) fn narrow5(x: u8) -> u8 {
    table(5, x)
}
pub(crate) fn narrow6(x: u8) -> u8 {
    table(6, x)
}

/// Intensity of a pixel for the I/IA formats: the pixel's grey value when `r == g == b` (so grey
/// images round-trip exactly), else Rec. 601 luma.
pub(crate) fn luma(p: Rgba) -> u8 {
    let [r, g, b, _] = p;
    ((u32::from(r) * 77 + u32::from(g) * 150 + u32::from(b) * 29 + 128) >> 8) as u8
}

pub(crate) fn grey(i: u8, a: u8) -> Rgba {
    [i, i, i, a]
}

pub(crate) fn rgb565_to_rgba(p: u16) -> Rgba {
    [
        expand5((p >> 11) as u8 & 0x1F),
        expand6((p >> 5) as u8 & 0x3F),
        expand5(p as u8 & 0x1F),
        0xFF,
    ]
}

pub(crate) fn rgba_to_rgb565(p: Rgba) -> u16 {
    let [r, g, b, _] = p;
    (u16::from(narrow5(r)) << 11) | (u16::from(narrow6(g)) << 5) | u16::from(narrow5(b))
}

/// RGB5A3: bit 15 set = opaque RGB555, clear = 3-bit alpha over RGB444.
pub(crate) fn rgb5a3_to_rgba(p: u16) -> Rgba {
    if p & 0x8000 != 0 {
        [
            expand5((p >> 10) as u8 & 0x1F),
            expand5((p >> 5) as u8 & 0x1F),
            expand5(p as u8 & 0x1F),
            0xFF,
        ]
    } else {
        [
            expand4((p >> 8) as u8 & 0x0F),
            expand4((p >> 4) as u8 & 0x0F),
            expand4(p as u8 & 0x0F),
            expand3((p >> 12) as u8 & 0x07),
        ]
    }
}

/// Picks whichever RGB5A3 mode decodes closer to `p`; ties go to the opaque RGB555 mode.
///
/// Some A3RGB444 codes (alpha 7) decode to the same pixel as an RGB555 code; this encoder always
/// writes the RGB555 one, so such codes are the only RGB5A3 input `encode(decode(bytes))` changes.
pub(crate) fn rgba_to_rgb5a3(p: Rgba) -> u16 {
    let [r, g, b, a] = p;
    let opaque = 0x8000
        | (u16::from(narrow5(r)) << 10)
        | (u16::from(narrow5(g)) << 5)
        | u16::from(narrow5(b));
    let a3 = narrow3(a);
    if a == 0xFF {
        // Alpha 7 expands to 0xFF too, so the A3 mode competes on colour alone.
        let alpha7 = (7 << 12)
            | (u16::from(narrow4(r)) << 8)
            | (u16::from(narrow4(g)) << 4)
            | u16::from(narrow4(b));
        return if dist2(rgb5a3_to_rgba(alpha7), p) < dist2(rgb5a3_to_rgba(opaque), p) {
            alpha7
        } else {
            opaque
        };
    }
    let translucent = (u16::from(a3) << 12)
        | (u16::from(narrow4(r)) << 8)
        | (u16::from(narrow4(g)) << 4)
        | u16::from(narrow4(b));
    if dist2(rgb5a3_to_rgba(opaque), p) <= dist2(rgb5a3_to_rgba(translucent), p) {
        opaque
    } else {
        translucent
    }
}

/// IA8 as stored: alpha byte then intensity byte.
pub(crate) fn ia8_to_rgba(p: u16) -> Rgba {
    grey(p as u8, (p >> 8) as u8)
}

pub(crate) fn rgba_to_ia8(p: Rgba) -> u16 {
    (u16::from(p[3]) << 8) | u16::from(luma(p))
}

/// Squared RGBA distance.
pub(crate) fn dist2(a: Rgba, b: Rgba) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| {
            let d = i32::from(x) - i32::from(y);
            (d * d) as u32
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_inverts_expand() {
        for v in 0..8 {
            assert_eq!(narrow3(expand3(v)), v);
        }
        for v in 0..16 {
            assert_eq!(narrow4(expand4(v)), v);
        }
        for v in 0..32 {
            assert_eq!(narrow5(expand5(v)), v);
        }
        for v in 0..64 {
            assert_eq!(narrow6(expand6(v)), v);
        }
    }

    #[test]
    fn narrow_is_nearest() {
        for x in 0..=255u8 {
            for (bits, n, e) in [
                (3, narrow3 as fn(u8) -> u8, expand3 as fn(u8) -> u8),
                (5, narrow5, expand5),
                (6, narrow6, expand6),
            ] {
                let best = (0..1u8 << bits)
                    .map(|v| (i16::from(e(v)) - i16::from(x)).abs())
                    .min()
                    .unwrap();
                assert_eq!(
                    (i16::from(e(n(x))) - i16::from(x)).abs(),
                    best,
                    "{x} {bits}"
                );
            }
        }
    }

    #[test]
    fn packed_round_trips() {
        for p in 0..=u16::MAX {
            assert_eq!(rgba_to_rgb565(rgb565_to_rgba(p)), p);
            assert_eq!(rgba_to_ia8(ia8_to_rgba(p)), p);
            let q = rgba_to_rgb5a3(rgb5a3_to_rgba(p));
            assert_eq!(rgb5a3_to_rgba(q), rgb5a3_to_rgba(p), "{p:#06x}");
            // Only alpha-7 codes aliasing an RGB555 code may change.
            if q != p {
                assert_eq!(p & 0xF000, 0x7000, "{p:#06x}");
            }
        }
    }
}
