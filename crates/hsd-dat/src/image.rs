//! Image sizes by GX texture format. Decoding pixels needs a GX texture codec, which the `gx`
//! crate does not have yet (its `tex` module is planned); until then images are listed, sized and
//! validated but not converted.

/// Bytes of one level of a `width × height` image in GX format `format`, rounded up to whole
/// blocks. `None` for an unknown format.
pub fn image_size(format: u32, width: u16, height: u16) -> Option<usize> {
    // (bits per pixel, block width, block height)
    let (bpp, bw, bh) = match format {
        0 | 8 | 0xE => (4, 8, 8),      // I4, C4, CMPR
        1 | 2 | 9 => (8, 8, 4),        // I8, IA4, C8
        3 | 4 | 5 | 0xA => (16, 4, 4), // IA8, RGB565, RGB5A3, C14X2
        6 => (32, 4, 4),               // RGBA8
        _ => return None,
    };
    let w = usize::from(width).div_ceil(bw) * bw;
    let h = usize::from(height).div_ceil(bh) * bh;
    Some(w * h * bpp / 8)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::image_size(0xE, 8, 8), Some(32));
        assert_eq!(super::image_size(6, 4, 4), Some(64));
        assert_eq!(super::image_size(1, 9, 1), Some(64));
        assert_eq!(super::image_size(7, 4, 4), None);
    }
}
