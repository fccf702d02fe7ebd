#![no_main]
//! glTF reading (`gx::scene::Scene::from_glb`) of arbitrary bytes; what reads is written back and
//! read again, so the writer sees every scene the reader can make.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(scene) = gx::scene::Scene::from_glb(data)
        && let Ok(glb) = scene.to_glb()
    {
        let _ = gx::scene::Scene::from_glb(&glb);
    }
});
