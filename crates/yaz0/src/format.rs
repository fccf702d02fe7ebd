//! The crate's contracts with a registry ([`gcio::FileFormat`]): [`Yaz0Format`] and
//! [`Yay0Format`].
//!
//! Both take the token model ([`Stream`], [`yay0::Stream`]) as view and model alike. A stream
//! has no cheaper borrowed view: nothing in it is addressable without walking every flag bit
//! before it, so parsing is the token walk, and the tokens are what writes the stream back byte
//! for byte (the decoded payload cannot: many streams decode to it). The payload is
//! [`Stream::decode`] of the model, or [`crate::decode_with`] when only the payload is wanted.

use gcio::{ConversionSpec, Detected, Diagnostic, FileFormat, Limits, Result};

use crate::{Stream, Token, yay0};

/// Extensions of Yaz0 files, most usual first: what compression writes.
const YAZ0_EXTENSIONS: &[&str] = &["szs", "yaz0", "carc"];

/// Extensions of Yay0 files.
const YAY0_EXTENSIONS: &[&str] = &["szp", "yay0"];

/// Yaz0 compressed streams, as a registry sees them.
pub struct Yaz0Format;

impl FileFormat for Yaz0Format {
    const NAME: &'static str = "yaz0";
    const EXTENSIONS: &'static [&'static str] = YAZ0_EXTENSIONS;
    const CONVERSIONS: &'static [ConversionSpec] = &[
        ConversionSpec {
            from: YAZ0_EXTENSIONS,
            to: ConversionSpec::ANY,
            options: &[],
            help: "decompress to a game-file name (Galaxy .arc: use extract)",
        },
        ConversionSpec {
            from: ConversionSpec::ANY,
            to: YAZ0_EXTENSIONS,
            options: &[(
                "yaz0",
                "encoder: nintendo (default), gclib, whitehole, oead-6..9, libyaz0, efe, \
                 efe-0x4c0, efe-0x1000, mkwsp, wszst-1..8, ctlib, fast, best",
            )],
            help: "Yaz0-compress",
        },
    ];

    type View<'a> = Stream;
    type Model = Stream;

    /// The magic and a declared size the stream's bytes could expand to ([`crate::detect`]);
    /// naming the payload inside is the registry's.
    fn detect(data: &[u8]) -> Option<Detected> {
        crate::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with(data: &[u8], limits: &Limits) -> Result<Stream> {
        Stream::parse_with(data, limits)
    }

    /// A copy of the tokens, bounded by `limits` like the parse.
    fn from_view(view: &Stream, limits: &Limits) -> Result<Stream> {
        check_copy(&view.tokens, view.trailing.len(), limits)?;
        Ok(view.clone())
    }

    /// The token walk straight into the model (the view is the model: no copy).
    fn parse_with(data: &[u8], limits: &Limits) -> Result<Stream> {
        Stream::parse_with(data, limits)
    }

    fn write(model: &Stream) -> Result<Vec<u8>> {
        Ok(model.write())
    }

    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        crate::validate_with(data, limits)
    }
}

/// Yay0 (SZP) compressed streams, as a registry sees them.
pub struct Yay0Format;

impl FileFormat for Yay0Format {
    const NAME: &'static str = "yay0";
    const EXTENSIONS: &'static [&'static str] = YAY0_EXTENSIONS;
    const CONVERSIONS: &'static [ConversionSpec] = &[ConversionSpec {
        from: YAY0_EXTENSIONS,
        to: ConversionSpec::ANY,
        options: &[],
        help: "decompress to a game-file name",
    }];

    type View<'a> = yay0::Stream;
    type Model = yay0::Stream;

    /// The magic and a header whose stream offsets fall inside the file ([`yay0::detect`]).
    fn detect(data: &[u8]) -> Option<Detected> {
        yay0::detect(data).map(|c| Detected::new(Self::NAME, c))
    }

    fn view_with(data: &[u8], limits: &Limits) -> Result<yay0::Stream> {
        yay0::Stream::parse_with(data, limits)
    }

    /// A copy of the tokens and kept bytes, bounded by `limits` like the parse.
    fn from_view(view: &yay0::Stream, limits: &Limits) -> Result<yay0::Stream> {
        let kept = view.mask_gap.len() + view.link_gap.len() + view.trailing.len();
        check_copy(&view.tokens, kept, limits)?;
        Ok(view.clone())
    }

    /// The token walk straight into the model (the view is the model: no copy).
    fn parse_with(data: &[u8], limits: &Limits) -> Result<yay0::Stream> {
        yay0::Stream::parse_with(data, limits)
    }

    fn write(model: &yay0::Stream) -> Result<Vec<u8>> {
        Ok(model.write())
    }

    /// No `YAY0-*` rules are catalogued: a stream that does not decode is
    /// [`FileFormat::parse_with`]'s error, with its offset.
    fn validate_with(data: &[u8], limits: &Limits) -> Vec<Diagnostic> {
        let _ = (data, limits);
        Vec::new()
    }
}

/// Checks copying `tokens` and `bytes` other bytes against `limits`.
fn check_copy(tokens: &[Token], bytes: usize, limits: &Limits) -> Result<()> {
    limits.check_elements(tokens.len() as u64, 4)?;
    limits.check_alloc(tokens.len() as u64, size_of::<Token>() as u64, 4)?;
    limits.check_alloc(bytes as u64, 1, 4)?;
    Ok(())
}
