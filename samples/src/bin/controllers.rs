//! `cargo run -p taos_samples --bin controllers [-- --headless --frames N --screenshot out.png]`
//!
//! Tab cycles the orbit, fly and walk controllers.

use taos_engine::game_loop::LoopConfig;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{SampleArgs, controllers, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    run_sample(
        "controllers",
        &args,
        LoopConfig::default(),
        forward_preset(PresetOptions::default()),
        controllers,
    )
}
