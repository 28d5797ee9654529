//! The render-graph overlay's switch and the figures it shows, on a headless
//! engine (lavapipe in CI): no window, so nothing is drawn, but the switch
//! holds and the renderer's graph and timings are there to read.

use taos_engine::game_loop::Key;
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::presets::{PresetOptions, forward_preset};

#[test]
fn the_overlay_switch_and_its_figures() {
    let mut engine = Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let camera = engine.scene_mut().spawn("Camera");
    engine
        .scene_mut()
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();

    assert!(!engine.graph_overlay_shown());
    assert_eq!(engine.graph_overlay_key(), Some(Key::F3));
    engine.set_graph_overlay(true);
    assert!(engine.graph_overlay_shown());
    engine.set_graph_overlay_key(None);
    assert_eq!(engine.graph_overlay_key(), None);

    let stats = engine.frame().unwrap();
    let renderer = engine.renderer();
    let graph = renderer.last_graph();
    assert_eq!(graph.executed().count(), stats.passes);
    assert_eq!(graph.culled().count(), stats.culled);
    let timings = renderer.last_timings();
    assert_eq!(timings.frame, 1);
    assert_eq!(timings.cpu_passes.len(), stats.passes);

    engine.set_graph_overlay(false);
    assert!(!engine.graph_overlay_shown());
}
