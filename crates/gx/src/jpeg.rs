//! JPEG decoding of [`Image`]s for model import (glTF's second image format: Blender keeps a
//! JPEG source as JPEG), over `zune-jpeg`. The declared size is checked against
//! [`crate::tex::MAX_PIXELS`] before any pixel is allocated.

use gcio::{Error, ErrorKind, Result};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

use crate::tex::{Image, check_image_size};

fn invalid(e: impl std::fmt::Display) -> Error {
    Error::without_offset(ErrorKind::Invalid(format!("JPEG: {e}")))
}

/// Decodes a baseline or progressive JPEG (greyscale, YCbCr or CMYK) to an opaque RGBA image.
pub fn decode(data: &[u8]) -> Result<Image> {
    let options = DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGBA);
    let mut d = JpegDecoder::new_with_options(ZCursor::new(data), options);
    d.decode_headers().map_err(invalid)?;
    let info = d.info().ok_or_else(|| invalid("no frame header"))?;
    let (w, h) = (u32::from(info.width), u32::from(info.height));
    check_image_size(w, h)?;
    let pixels = d.decode().map_err(invalid)?;
    Image::from_rgba8(w, h, &pixels)
}
