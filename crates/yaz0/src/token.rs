//! The decisions a Yaz0/Yay0 stream is made of: literal bytes and back-references.

/// Longest back-reference the formats can express (`0xFF + 0x12`).
pub const MAX_LEN: usize = 0x111;
/// Shortest back-reference the formats can express.
pub const MIN_LEN: usize = 3;
/// Farthest back-reference (12-bit distance field plus one).
pub const MAX_DIST: usize = 0x1000;

/// One decoded step: copy a byte from the stream, or copy `len` bytes from `dist` bytes back.
///
/// Yaz0 and Yay0 share this token model; only the serialisation differs, so every encoder works for
/// both formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Token {
    /// A byte copied as is.
    Literal(u8),
    /// `len` bytes (3..=0x111) copied from `dist` (1..=0x1000) bytes before the output position.
    Match {
        /// Distance back from the output position.
        dist: u16,
        /// Number of bytes copied (may exceed `dist`: overlapping copies repeat a pattern).
        len: u16,
    },
}

impl Token {
    /// Number of output bytes this token produces.
    pub fn output_len(self) -> usize {
        match self {
            Token::Literal(_) => 1,
            Token::Match { len, .. } => usize::from(len),
        }
    }

    /// A back-reference, or `None` when `dist`/`len` are outside what the formats can express.
    pub fn back_ref(dist: usize, len: usize) -> Option<Token> {
        ((1..=MAX_DIST).contains(&dist) && (MIN_LEN..=MAX_LEN).contains(&len)).then_some(
            Token::Match {
                dist: dist as u16,
                len: len as u16,
            },
        )
    }
}

/// Replays `tokens` into the bytes they describe (used to check encoders and models; the format
/// decoders read the compressed bytes directly).
pub fn expand(tokens: &[Token]) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(tokens.iter().map(|t| t.output_len()).sum());
    for &t in tokens {
        match t {
            Token::Literal(b) => out.push(b),
            Token::Match { dist, len } => {
                let start = out.len().saturating_sub(usize::from(dist));
                for k in 0..usize::from(len) {
                    let b = out.get(start + k).copied().unwrap_or(0);
                    out.push(b);
                }
            }
        }
    }
    out
}

/// Where an encoder's tokens go; `false` stops the encoder. Closures are sinks (identification
/// compares each token as it comes); the stream's `GroupWriter` is one whose `token` inlines
/// into the encoder's loop.
pub(crate) trait Sink {
    /// Takes one token; `false` = stop.
    fn token(&mut self, t: Token) -> bool;
}

impl<F: FnMut(Token) -> bool> Sink for F {
    #[inline(always)]
    fn token(&mut self, t: Token) -> bool {
        self(t)
    }
}

/// Sends the token a matcher chose at `pos` (a match of `len` bytes `dist` back, or the literal
/// there when shorter than 3) to `sink`; its output length, or `None` when the sink stops.
#[inline(always)]
pub(crate) fn emit(
    sink: &mut impl Sink,
    data: &[u8],
    pos: usize,
    len: usize,
    dist: usize,
) -> Option<usize> {
    let t = if len >= 3 {
        Token::Match {
            dist: dist as u16,
            len: len.min(MAX_LEN) as u16,
        }
    } else {
        Token::Literal(data.get(pos).copied().unwrap_or(0))
    };
    sink.token(t).then(|| t.output_len())
}
