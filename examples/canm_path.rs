//! Prints a camera animation's path: position, watched point, twist and field of view every
//! STEP frames (default 30).
//!
//! ```text
//! cargo run --example canm_path --features canm -- StartScenario1.canm 30
//! ```
#![allow(clippy::print_stdout)]

use gcformats::canm;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let input = args.first().ok_or("usage: canm_path FILE.canm [STEP]")?;
    let step: u32 = args
        .get(1)
        .map_or(Ok(30), |s| s.parse())
        .map_err(|e| format!("{e}"))?;
    let data = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let anim = canm::Canm::parse(&data).map_err(|e| e.to_string())?;
    println!("{:?}, {} frames", anim.kind, anim.frames);
    for f in (0..=anim.frames).step_by(step.max(1) as usize) {
        let p = canm::eval::pose(&anim, f as f32).ok_or("a track cannot be evaluated")?;
        println!(
            "{f:>5}: pos {:>10.1} {:>10.1} {:>10.1}  watch {:>10.1} {:>10.1} {:>10.1}  twist {:.1} fovy {:.1}",
            p.pos[0], p.pos[1], p.pos[2], p.watch[0], p.watch[1], p.watch[2], p.twist, p.fovy
        );
    }
    Ok(())
}
