//! `cargo run -p taos_samples --bin physics [-- --headless --frames N --screenshot out.png]`
//!
//! A stack of crates, balls rolling down a ramp through a counting trigger
//! zone, a ball swinging on a hinge, and the player walking among them
//! (WASD, Space, the mouse looks).
//!
//! `cargo run -p taos_samples --bin physics -- --checksum` runs the
//! determinism scene instead (500 bodies, 240 ticks, a snapshot restored
//! halfway) and prints its checksum: the browser build prints the same.

use clap::Parser;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{
    CHECKSUM_BODIES, CHECKSUM_TICKS, CommonCli, SampleArgs, physics, physics_checksum,
    physics_loop, run_sample,
};

/// The physics sample's command line: the samples' options, and `--checksum`.
#[derive(Debug, Parser)]
#[command(about = "The physics sample, in a window or headless, or its determinism checksum")]
struct Cli {
    #[command(flatten)]
    common: CommonCli,
    /// Run the determinism scene headless and print its checksum instead.
    #[arg(long)]
    checksum: bool,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    if cli.checksum {
        let checksum = physics_checksum()?;
        println!(
            "physics checksum ({CHECKSUM_BODIES} bodies, {CHECKSUM_TICKS} ticks): {checksum:#018x}"
        );
        return Ok(());
    }
    let args = SampleArgs::from(cli.common);
    run_sample(
        "physics",
        &args,
        physics_loop(),
        forward_preset(PresetOptions::default()),
        physics,
    )
}
