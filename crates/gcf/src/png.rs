//! PNG files for the texture conversions (`x.bti ⇄ x.png`, `x.dat dir/`): one encoder and one
//! decoder over `gx::tex::Image`, shared by every format that exports or imports pictures.

use std::path::Path;

use gcio::Result;
use gx::tex::Image;

use crate::io_error;

/// Writes an RGBA8 image as a PNG file.
pub fn write_png(path: &Path, img: &Image) -> Result<()> {
    let file = std::fs::File::create(path).map_err(|e| io_error(path, e))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), img.width(), img.height());
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let err = |e: png::EncodingError| io_error(path, std::io::Error::other(e));
    let mut w = enc.write_header().map_err(err)?;
    w.write_image_data(img.as_rgba8()).map_err(err)?;
    w.finish().map_err(err)
}

/// Reads a PNG (any colour type, 8 or 16 bits) into an RGBA8 image.
pub fn read_png(path: &Path, data: &[u8]) -> Result<Image> {
    let err = |e: png::DecodingError| io_error(path, std::io::Error::other(e));
    let mut dec = png::Decoder::new(std::io::Cursor::new(data));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(err)?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    Image::from_channels(
        info.width,
        info.height,
        info.color_type.samples(),
        buf.get(..info.buffer_size()).unwrap_or_default(),
    )
}
