//! `cargo run -p taos_samples --bin presets_compare [-- --preset forward|forward-plus|deferred
//! --effects off|all|dof|bloom|taa|msaa|dof+bloom... [--hdr]]`, or
//! `[-- --headless --out DIR]`: a contact sheet and a timing table in DIR.

use clap::Parser;
use taos_samples::{CompareCli, presets_compare};

fn main() -> anyhow::Result<()> {
    presets_compare(&CompareCli::parse())
}
