//! Real J3D files under `../shared/corpus/real` (when present): the top-level models and
//! textures, and every member of the Yaz0-compressed RARC archives; and the edit check both the
//! real files and the builders' retail-layout models go through.

#![allow(dead_code)]

use std::path::PathBuf;

/// The real corpus folder, if this checkout has one.
pub fn real_root() -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "real", "j3d-bmd real models")
}

/// Every file of the real corpus (archive members flattened, Yaz0 decoded) as (name, bytes).
pub fn real_files() -> Vec<(String, Vec<u8>)> {
    let Some(root) = real_root() else {
        return Vec::new();
    };
    let paths = gcio::corpus::files(&root);
    let mut out = Vec::new();
    for p in paths {
        let Ok(data) = std::fs::read(&p) else {
            continue;
        };
        let name = p.strip_prefix(&root).unwrap_or(&p).display().to_string();
        push(name, data, &mut out, 0);
    }
    out
}

fn push(name: String, data: Vec<u8>, out: &mut Vec<(String, Vec<u8>)>, depth: u32) {
    if depth > 4 {
        return;
    }
    if yaz0::is_yaz0(&data) {
        if let Ok(d) = yaz0::decode(&data) {
            push(name, d, out, depth + 1);
        }
        return;
    }
    if rarc::is_rarc(&data) {
        let Ok(a) = rarc::Archive::parse(&data) else {
            return;
        };
        let Ok(files) = a.files() else {
            return;
        };
        for (path, entry) in files {
            if let Some(d) = a.file_data(entry) {
                push(format!("{name}/{path}"), d.to_vec(), out, depth + 1);
            }
        }
        return;
    }
    out.push((name, data));
}

/// The real J3D models (BMD/BDL/BMT).
pub fn real_models() -> Vec<(String, Vec<u8>)> {
    real_files()
        .into_iter()
        .filter(|(_, d)| d.starts_with(b"J3D2"))
        .collect()
}

/// Positions where `a` and `b` differ.
fn diff(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

/// Absolute offset of `magic`'s chunk.
fn chunk_at(data: &[u8], magic: &[u8; 4]) -> Option<usize> {
    let v = j3d_bmd::parse(data).ok()?;
    v.chunks()
        .iter()
        .find(|c| &c.magic == magic)
        .map(|c| c.offset() as usize)
}

fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize
}

/// Checks that moving one vertex, changing one texture's wrap mode or one material colour of the
/// model `data` and writing it back changes exactly those bytes, and that [`j3d_bmd::Bmd::sync_mdl3`]
/// then also changes what a BDL's MDL3 packets derive from them and nothing else (see
/// [`check_synced`]). Returns how many MDL3 bytes the two synced edits changed.
pub fn check_edits(name: &str, data: &[u8]) -> usize {
    // One vertex: the second byte of the first position.
    let mut m = j3d_bmd::Bmd::parse(data).unwrap();
    if let Some(b) = m
        .vtx1_mut()
        .and_then(|v| v.buffers.iter_mut().find(|b| b.slot == 0))
    {
        b.data[1] ^= 0x01;
        let vtx = chunk_at(data, b"VTX1").unwrap();
        let pos = vtx + u32_at(data, vtx + 0x0C);
        assert_eq!(diff(data, &m.write().unwrap()), [pos + 1], "{name}: vertex");
    }
    let mut synced = 0;
    // One texture's wrap S (header byte 6): TX_SETMODE0's wrap S field is its bits 0-1, the low
    // byte of the 24-bit BP value.
    let mut m = j3d_bmd::Bmd::parse(data).unwrap();
    if let Some(t) = m.tex1_mut().and_then(|t| t.set.textures.first_mut()) {
        t.header.wrap_s ^= 1;
        let tex = chunk_at(data, b"TEX1").unwrap();
        let header = tex + u32_at(data, tex + 0x0C);
        assert_eq!(
            diff(data, &m.write().unwrap()),
            [header + 6],
            "{name}: wrap"
        );
        synced += check_synced(&format!("{name}: wrap"), data, m, header + 6, 0x01);
    }
    // One material colour: the red byte of the first material-colour table entry, which the
    // packets load as the high byte of an XF colour word.
    let mut m = j3d_bmd::Bmd::parse(data).unwrap();
    if let Some(c) = m
        .mat3_mut()
        .and_then(|t| t.tables.mat_colors.as_mut())
        .and_then(|c| c.first_mut())
    {
        c[0] ^= 0x10;
        let mat = chunk_at(data, b"MAT3").unwrap();
        let colors = mat + u32_at(data, mat + 0x0C + 4 * 5);
        assert_eq!(diff(data, &m.write().unwrap()), [colors], "{name}: colour");
        synced += check_synced(&format!("{name}: colour"), data, m, colors, 0x10);
    }
    synced
}

/// `m` is `data` with one edited byte at `edited`, flipped by `flip`. After
/// [`j3d_bmd::Bmd::sync_mdl3`] the output differs from `data` at `edited` and otherwise only inside
/// MDL3, each changed byte flipped by the same `flip` (the edited field sits whole in one byte of
/// each register value carrying it), and J3D-081 finds no stale register. Returns the number of
/// changed MDL3 bytes.
fn check_synced(name: &str, data: &[u8], mut m: j3d_bmd::Bmd, edited: usize, flip: u8) -> usize {
    let left = m.sync_mdl3().unwrap();
    let out = m.write().unwrap();
    let Some(mdl) = chunk_at(data, b"MDL3") else {
        assert_eq!(
            diff(data, &out),
            [edited],
            "{name}: no MDL3, nothing to sync"
        );
        return 0;
    };
    assert!(left.is_empty(), "{name}: {left:?}");
    let size = u32_at(data, mdl + 4);
    let mut changed = 0;
    for i in diff(data, &out) {
        if i == edited {
            continue;
        }
        assert!(
            (mdl..mdl + size).contains(&i),
            "{name}: byte {i:#x} outside MDL3"
        );
        assert_eq!(data[i] ^ out[i], flip, "{name}: byte {i:#x}");
        changed += 1;
    }
    let stale: Vec<_> = j3d_bmd::validate(&out)
        .into_iter()
        .filter(|d| d.rule == "J3D-081")
        .collect();
    assert!(stale.is_empty(), "{name}: {stale:?}");
    changed
}
