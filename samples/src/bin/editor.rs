//! `cargo run -p taos_samples --bin editor`
//!
//! A small level from a scene file with the editor open over it: select,
//! move along an arrow, undo, play and stop, save and load (F1 hides it).

use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig};
use taos_samples::EditorSample;

fn main() -> anyhow::Result<()> {
    taos_engine::init_logging();
    Engine::run_app(
        "editor",
        EngineConfig::new(1024, 640),
        forward_preset(PresetOptions::default()),
        EditorSample::default(),
    )?;
    Ok(())
}
