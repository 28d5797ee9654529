//! `cargo run -p taos_samples --bin gltf_viewer -- <PATH> [--preset forward|forward-plus|deferred]
//! [--effects off|all|bloom+dof+taa+msaa] [--no-shadows] [--scene N] [--still]
//! [--allow-dir DIR]...
//! [--headless --frames N --screenshot out.png] [--size WxH]`

use clap::Parser;
use taos_samples::{ViewerCli, gltf_viewer};

fn main() -> anyhow::Result<()> {
    gltf_viewer(ViewerCli::parse())
}
