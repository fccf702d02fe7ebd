//! Names as people read them: a stored name (Shift-JIS bytes) as text and back, shared by the
//! view's path lookups, the model's paths and the manifest.

use gcio::text::Encoding;

/// The text of a stored name on disk: Shift-JIS decoded (what GameCube and Wii archives hold),
/// bytes that do not decode as `\xHH` and a backslash as `\\` ([`gcio::text`]), so a Japanese
/// name reads as itself and [`name_bytes`] gives back the exact bytes.
pub fn name_text(name: &[u8]) -> String {
    Encoding::ShiftJis.to_text(name)
}

/// The stored bytes of a name written by [`name_text`] (or typed by a user): Shift-JIS encoded,
/// escapes undone; a character Shift-JIS cannot hold keeps its UTF-8 bytes.
pub fn name_bytes(text: &str) -> Vec<u8> {
    Encoding::ShiftJis
        .from_text(text)
        .unwrap_or_else(|_| text.as_bytes().to_vec())
}
