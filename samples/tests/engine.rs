//! The Engine facade headless: hooks run in order, bad sizes are refused, a
//! frame without a camera still renders.

use std::sync::{Arc, Mutex};

use taos_engine::{Engine, EngineConfig, EngineError};
use taos_renderer::presets::{PresetOptions, forward_preset};

fn engine(width: u32, height: u32) -> Result<Engine, EngineError> {
    Engine::headless(
        EngineConfig::new(width, height),
        forward_preset(PresetOptions::default()),
    )
}

#[test]
fn hooks_run_around_each_frame_in_order() {
    let mut engine = engine(32, 32).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let log = Arc::new(Mutex::new(Vec::new()));
    let (a, b, c) = (log.clone(), log.clone(), log.clone());
    engine.before_frame(move |_| a.lock().unwrap().push("before_frame"));
    engine.before_render(move |data| {
        assert_eq!(data.buckets.opaque.len(), 0);
        b.lock().unwrap().push("before_render");
    });
    engine.after_frame(move |info| {
        assert_eq!(info.size, (32, 32));
        c.lock().unwrap().push("after_frame");
    });
    let stats = engine.frame().unwrap();
    assert!(
        stats.passes >= 3,
        "sky, forward lit and tonemap run without a camera"
    );
    assert_eq!(
        *log.lock().unwrap(),
        ["before_frame", "before_render", "after_frame"]
    );
    assert_eq!(engine.read_pixels().unwrap().len(), 32 * 32 * 4);
}

#[test]
fn a_zero_size_output_is_refused_with_a_clear_error() {
    let error = engine(0, 240).unwrap_err();
    assert!(matches!(error, EngineError::Target(_)), "{error:?}");
    assert!(error.to_string().contains("0x240"), "{error}");
}
