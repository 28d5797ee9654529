//! `cargo run -p taos_samples --bin shooter [-- --headless --frames N --screenshot out.png]`
//!
//! Headless, the scripted demo session (`shooter_demo`) plays the input.

use taos_samples::{SampleArgs, run_sample, shooter, shooter_demo, shooter_loop, shooter_preset};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env();
    let headless = args.headless;
    run_sample(
        "shooter",
        &args,
        shooter_loop(),
        shooter_preset(),
        move |engine| {
            shooter(engine)?;
            if headless {
                engine.game_loop().replay(shooter_demo())?;
            }
            Ok(())
        },
    )
}
