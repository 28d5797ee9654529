//! `cargo run -p taos_samples --bin editor [-- --headless --frames N --screenshot PATH --size WxH]`
//!
//! A small level from a scene file with the editor open over it: select,
//! move along an arrow, undo, play and stop, save and load (F1 hides it).
//! `--headless` draws it offscreen (the editor's UI too) and
//! `--screenshot` saves the last frame.

use taos_samples::{EDITOR_SIZE, SampleArgs, run_editor};

fn main() -> anyhow::Result<()> {
    let args = SampleArgs::from_env_with_size(EDITOR_SIZE);
    taos_engine::init_logging();
    run_editor(&args)
}
