//! `cargo run -p taos_samples --bin character [-- --headless --frames N --screenshot out.png]`
//!
//! WASD walks, Control runs, Space jumps; drag to orbit the
//! camera, the wheel zooms.

use taos_engine::game_loop::LoopConfig;
use taos_samples::{SampleArgs, character, character_preset, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    run_sample(
        "character",
        &args,
        LoopConfig::default(),
        character_preset(),
        character,
    )
}
