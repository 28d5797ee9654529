//! `cargo run -p taos_samples --bin deferred_showcase [-- --headless --frames N --screenshot out.png]`

use taos_engine::game_loop::LoopConfig;
use taos_samples::{SampleArgs, deferred_showcase, deferred_showcase_preset, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    run_sample(
        "deferred_showcase",
        &args,
        LoopConfig::default(),
        deferred_showcase_preset(),
        deferred_showcase,
    )
}
