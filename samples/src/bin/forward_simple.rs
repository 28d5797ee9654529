//! `cargo run -p taos_samples --bin forward_simple [-- --headless --frames N --screenshot out.png]`

use taos_engine::game_loop::LoopConfig;
use taos_samples::{SampleArgs, forward_simple, forward_simple_preset, run_sample};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    run_sample(
        "forward_simple",
        &args,
        LoopConfig::default(),
        forward_simple_preset(),
        forward_simple,
    )
}
