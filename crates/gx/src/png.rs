//! PNG encoding and decoding of [`Image`]s: the one PNG codec every exporter and importer of the
//! workspace uses (texture conversions, model exports), over the `png` crate (deflate and CRCs
//! done right rather than hand-rolled).

use gcio::{Error, ErrorKind, Result};

use crate::tex::Image;

fn invalid(what: &str, e: impl std::fmt::Display) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("PNG {what}: {e}")))
}

/// The image as an 8-bit PNG file, compressed with the `png` crate's fast (fdeflate) mode: its
/// default deflate took over 80 % of a model export's time, for files only slightly smaller.
/// RGBA, or palette-indexed (PLTE, and tRNS when an entry is not opaque) for an image with a
/// colour table ([`Image::indexed`]), so the table's order and duplicates survive.
pub fn encode(img: &Image) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width(), img.height());
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let data = match img.table() {
        Some((colors, indices)) => {
            enc.set_color(png::ColorType::Indexed);
            enc.set_palette(
                colors
                    .iter()
                    .flat_map(|c| [c[0], c[1], c[2]])
                    .collect::<Vec<u8>>(),
            );
            if colors.iter().any(|c| c[3] != 0xFF) {
                enc.set_trns(colors.iter().map(|c| c[3]).collect::<Vec<u8>>());
            }
            indices
        }
        None => {
            enc.set_color(png::ColorType::Rgba);
            img.as_rgba8()
        }
    };
    let mut w = enc.write_header().map_err(|e| invalid("encoding", e))?;
    w.write_image_data(data)
        .map_err(|e| invalid("encoding", e))?;
    w.finish().map_err(|e| invalid("encoding", e))?;
    Ok(out)
}

/// Reads a PNG of any colour type (palette and 16-bit samples expanded to 8 bits) as RGBA8; an
/// 8-bit palette PNG keeps its palette as the image's colour table ([`Image::table`]). The
/// declared size is checked against [`crate::tex::MAX_PIXELS`] before any pixel buffer exists,
/// and the decoder's own allocations are capped to match.
pub fn decode(data: &[u8]) -> Result<Image> {
    let max_bytes = crate::tex::MAX_PIXELS * 4;
    let limits = png::Limits {
        bytes: usize::try_from(max_bytes).unwrap_or(usize::MAX),
    };
    let peek = png::Decoder::new_with_limits(std::io::Cursor::new(data), limits)
        .read_info()
        .map_err(|e| invalid("decoding", e))?;
    let info = peek.info();
    if info.color_type == png::ColorType::Indexed && info.bit_depth == png::BitDepth::Eight {
        let colors: Vec<[u8; 4]> = info
            .palette
            .as_deref()
            .unwrap_or_default()
            .chunks_exact(3)
            .enumerate()
            .map(|(i, c)| {
                let alpha = info.trns.as_deref().and_then(|t| t.get(i)).copied();
                match *c {
                    [r, g, b] => [r, g, b, alpha.unwrap_or(0xFF)],
                    _ => [0; 4],
                }
            })
            .collect();
        return decode_indexed(data, limits, colors);
    }
    let mut dec = png::Decoder::new_with_limits(std::io::Cursor::new(data), limits);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| invalid("decoding", e))?;
    let (width, height) = (reader.info().width, reader.info().height);
    crate::tex::check_image_size(width, height)?;
    let size = reader
        .output_buffer_size()
        .filter(|&n| n as u64 <= max_bytes)
        .ok_or_else(|| invalid("decoding", "image too large"))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| invalid("decoding", e))?;
    Image::from_channels(
        info.width,
        info.height,
        info.color_type.samples(),
        buf.get(..info.buffer_size()).unwrap_or_default(),
    )
}

/// An 8-bit palette PNG's indices as an [`Image::indexed`] over `colors`.
fn decode_indexed(data: &[u8], limits: png::Limits, colors: Vec<[u8; 4]>) -> Result<Image> {
    let mut dec = png::Decoder::new_with_limits(std::io::Cursor::new(data), limits);
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut reader = dec.read_info().map_err(|e| invalid("decoding", e))?;
    let (width, height) = (reader.info().width, reader.info().height);
    crate::tex::check_image_size(width, height)?;
    let size = reader
        .output_buffer_size()
        .filter(|&n| n as u64 <= crate::tex::MAX_PIXELS)
        .ok_or_else(|| invalid("decoding", "image too large"))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| invalid("decoding", e))?;
    buf.truncate(info.buffer_size());
    Image::indexed(info.width, info.height, colors, buf)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn round_trip() {
        let img = Image::test_pattern(13, 7, true).unwrap();
        let bytes = encode(&img).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(decode(&bytes).unwrap(), img);
        assert!(decode(b"not a png").is_err());
    }

    /// A palette PNG keeps its table: order, a duplicate entry and a translucent one.
    #[test]
    fn indexed_round_trip() {
        let colors = vec![[9, 8, 7, 255], [0, 0, 0, 0], [9, 8, 7, 255], [1, 2, 3, 128]];
        let indices: Vec<u8> = (0..35u8).map(|i| (i * 7 + i / 5) % 4).collect();
        let img = Image::indexed(7, 5, colors.clone(), indices.clone()).unwrap();
        let back = decode(&encode(&img).unwrap()).unwrap();
        assert_eq!(back.table(), Some((colors.as_slice(), indices.as_slice())));
        assert_eq!(back, img);
        let plain = decode(&encode(&Image::new(7, 5, img.pixels().to_vec()).unwrap()).unwrap());
        assert_eq!(plain.unwrap().table(), None);
    }

    /// A PNG header declaring `width × height` with no image data.
    fn header_only(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, 1, 1);
        enc.set_color(png::ColorType::Rgba);
        enc.write_header().unwrap().finish().unwrap();
        // IHDR's width and height follow the 8-byte signature, the length and the type.
        out[16..20].copy_from_slice(&width.to_be_bytes());
        out[20..24].copy_from_slice(&height.to_be_bytes());
        let crc = crc32fast::hash(&out[12..29]);
        out[29..33].copy_from_slice(&crc.to_be_bytes());
        out
    }

    #[test]
    fn declared_sizes_past_the_budget_are_refused_before_allocating() {
        for (w, h) in [(65535, 65535), (1, 1 << 31), (16384, 16384)] {
            let e = decode(&header_only(w, h)).unwrap_err().to_string();
            assert!(
                e.contains("limit") || e.contains("large") || e.contains("PNG"),
                "{w}x{h}: {e}"
            );
        }
    }
}
