//! Fuzz body: parse → model → write → parse must agree, the extract manifest must rebuild the
//! archive exactly, and nothing panics.

use gcio::Limits;

const FUZZ_LIMITS: Limits = Limits {
    max_alloc_bytes: 1 << 24,
    max_elements: 1 << 16,
    max_nodes: 1 << 12,
    max_depth: 64,
};

/// Parses `data`, validates it, walks it, and for archives the model accepts checks that writing
/// reproduces the input and re-parses to the same model.
pub fn fuzz_parse(data: &[u8]) {
    let _ = crate::validate_with(data, &FUZZ_LIMITS);
    let Ok(v) = crate::parse_with(data, &FUZZ_LIMITS) else {
        return;
    };
    if let Ok((_, files)) = v.walk() {
        for f in files.iter().take(64) {
            let _ = v.decompressed(&f.entry);
        }
    }
    let _ = v.lookup("a/b");
    if let Ok(model) = crate::Archive::from_view(&v, &FUZZ_LIMITS) {
        let out = model.write().unwrap_or_default();
        assert_eq!(out, data, "model must write back the input");
        let again = crate::Archive::parse(&out).map(|m| m == model);
        assert!(matches!(again, Ok(true)));
        // Whatever the model keeps, the manifest keeps: unpack + pack is the identity.
        if let Ok(u) = crate::manifest::unpack(data) {
            let files = u.files.into_iter().collect();
            let packed = crate::manifest::pack(&u.manifest, files, &u.dirs);
            assert!(
                packed.is_ok_and(|p| p.bytes() == data),
                "manifest must rebuild the input"
            );
        }
        if let Ok(t) = crate::tree(&model) {
            let packed = crate::pack(&t, crate::PackOptions::default());
            let bytes = packed.write().unwrap_or_default();
            assert!(crate::parse(&bytes).is_ok());
        }
    }
}
