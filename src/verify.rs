//! Reading back what a writer made before it is stored: a tool that writes a file it cannot read
//! back has written wrong data, however the bytes were made (a conversion, a pack, a rebuild, a
//! replaced member). [`read_back`] is the one check every writer of a new layout runs.

use gcio::{Error, Limits, Result};

use crate::{EXPORT_EXTENSIONS, OpenOptions, Outputs, extension_of, open_with};

/// Checks that `bytes`, made for the name `name`, read back as what the name says: a file some
/// format recognises parses (a compressed one decodes and its payload parses), bytes none
/// recognises are refused under a name a format claims ([`crate::Format::extensions`]); an export parses as its kind (`.json` as JSON, `.glb` as a glTF container, `.png`
/// and `.mid` by their signatures, text kinds as UTF-8). The error says what did not read back.
pub fn read_back(name: &str, bytes: &[u8], limits: &Limits) -> Result<()> {
    let ext = extension_of(name);
    let fail = |what: String| Err(Error::message(format!("{name}: wrote {what}")));
    if EXPORT_EXTENSIONS.contains(&ext.as_str()) {
        return match ext.as_str() {
            #[cfg(feature = "json")]
            "json" => serde_json::from_slice::<serde_json::Value>(bytes)
                .map(drop)
                .or_else(|e| fail(format!("JSON that does not parse: {e}"))),
            "glb" => {
                let r = gcio::Reader::new(bytes);
                let ok = r.bytes(0, 4).ok() == Some(b"glTF".as_slice())
                    && r.u32_le(8).ok() == u32::try_from(bytes.len()).ok();
                if ok {
                    Ok(())
                } else {
                    fail("a .glb without a glTF header of its length".to_owned())
                }
            }
            "png" if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") => {
                fail("a .png without the PNG signature".to_owned())
            }
            "mid" | "midi" if !bytes.starts_with(b"MThd") => {
                fail("a MIDI file without its MThd header".to_owned())
            }
            "png" | "mid" | "midi" => Ok(()),
            _ => std::str::from_utf8(bytes)
                .map(drop)
                .or_else(|_| fail("text that is not UTF-8".to_owned())),
        };
    }
    let file = open_with(bytes, &OpenOptions::named(name).limits(*limits).any())?;
    if !file.is_known() {
        // Opaque bytes (a payload decompressed, a member) are fine under a name no format claims.
        return match crate::registry()
            .iter()
            .find(|f| f.extensions().contains(&ext.as_str()))
        {
            Some(f) => fail(format!(
                "bytes no format recognises under a {} name (they would not read back)",
                f.name()
            )),
            None => Ok(()),
        };
    }
    let parsed = if file.is_compressed() {
        match file.members()?.into_iter().next() {
            Some(payload) if payload.is_known() => payload.rewrite().map(drop),
            _ => Ok(()),
        }
    } else {
        file.rewrite().map(drop)
    };
    parsed.or_else(|e| fail(format!("a {} that does not parse: {e}", file.format())))
}

/// [`read_back`] for every file of a conversion's [`Outputs`].
pub fn read_back_all(files: &Outputs, limits: &Limits) -> Result<()> {
    files
        .iter()
        .try_for_each(|(name, bytes)| read_back(name, bytes, limits))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn exports_read_back_by_kind() {
        let l = Limits::default();
        assert!(read_back("a.txt", b"text", &l).is_ok());
        assert!(read_back("a.csv", b"\xff", &l).is_err());
        assert!(read_back("a.png", b"not a png", &l).is_err());
        let mut glb = b"glTF\x02\0\0\0".to_vec();
        glb.extend_from_slice(&12u32.to_le_bytes());
        assert!(read_back("a.glb", &glb, &l).is_ok());
        glb.push(0);
        assert!(read_back("a.glb", &glb, &l).is_err());
        #[cfg(feature = "json")]
        {
            assert!(read_back("a.json", b"{\"a\": 1}", &l).is_ok());
            assert!(read_back("a.json", b"{\"a\": ", &l).is_err());
        }
    }

    #[cfg(feature = "rarc")]
    #[test]
    fn game_files_must_be_recognised() {
        let l = Limits::default();
        let e = read_back("a.arc", b"CSV,text\n", &l).unwrap_err();
        assert!(e.to_string().contains("no format recognises"), "{e}");
        assert!(read_back("payload.bin", b"CSV,text\n", &l).is_ok());
    }
}
