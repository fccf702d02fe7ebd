//! The fuzz body shared by `fuzz/fuzz_targets/hsd_dat.rs` and `cargo test`.

use crate::{Dat, parse};

/// Parses `data` and runs everything on it: archive queries, the typed graph, meshes, textures,
/// OBJ export, the validator (keyframe streams included), the owned model and its write (which must read back to the same model). Never
/// panics; hostile graphs end through the limits.
pub fn fuzz_hsd_dat(data: &[u8]) {
    let Ok(a) = parse(data) else { return };
    let _ = a.extents();
    let _ = a.roots().count();
    let g = a.graph();
    for p in g.pobjs.iter().take(64) {
        let _ = a.mesh(&g, p);
    }
    let _ = a.world_matrices(&g);
    for t in a.textures(&g).iter().take(16) {
        let _ = a.decode_texture(t);
    }
    if let Ok(obj) = crate::mesh::to_obj(&a) {
        let _ = obj.len();
    }
    let _ = a.validate();
    if let Ok(dat) = Dat::from_archive(&a)
        && let Ok(out) = dat.write()
        && let Ok(again) = Dat::parse(&out)
    {
        let _ = again.write();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{XdOptions, melee_joint, mextk_minimal, xd_model};

    /// Replays the samples and every single-byte corruption of the smallest one.
    #[test]
    fn replay_seeds() {
        let seeds = [
            mextk_minimal().write().unwrap(),
            melee_joint().unwrap().write().unwrap(),
            xd_model(XdOptions::default()).unwrap().write().unwrap(),
        ];
        for s in &seeds {
            fuzz_hsd_dat(s);
            for cut in [0, 1, 0x1F, 0x20, s.len() / 2] {
                fuzz_hsd_dat(s.get(..cut).unwrap_or_default());
            }
        }
        let base = &seeds[1];
        for i in 0..base.len() {
            for v in [0u8, 0xFF, 0x80, 0x04] {
                let mut m = base.clone();
                m[i] = v;
                fuzz_hsd_dat(&m);
            }
        }
    }
}
