//! `cargo run -p taos_samples --bin forward_simple [-- --headless --frames N --screenshot out.png]`

use glam::Vec3;
use taos_renderer::features::SkyOption;
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{SampleArgs, forward_simple, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::parse(std::env::args().skip(1))?;
    let preset = forward_preset(PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.35, 0.55, 0.85)),
        ..PresetOptions::default()
    });
    run_sample("forward_simple", &args, preset, forward_simple)
}
