//! `cargo run -p taos_samples --bin many_lights [-- --preset forward|forward-plus --lights N]
//! [--headless --frames N --screenshot out.png]`

use taos_engine::game_loop::LoopConfig;
use taos_samples::{ManyLightsOptions, many_lights, run_sample};

fn main() -> anyhow::Result<()> {
    let (args, options) = ManyLightsOptions::from_env();
    run_sample(
        "many lights",
        &args,
        LoopConfig::default(),
        options.renderer_preset(),
        move |engine| many_lights(engine, options),
    )
}
