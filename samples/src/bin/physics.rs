//! `cargo run -p taos_samples --bin physics [-- --headless --frames N --screenshot out.png]`
//!
//! A stack of crates, balls rolling down a ramp through a counting trigger
//! zone, and the player walking among them (WASD, Space, the mouse looks).

use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{SampleArgs, physics, physics_loop, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    run_sample(
        "physics",
        &args,
        physics_loop(),
        forward_preset(PresetOptions::default()),
        physics,
    )
}
