//! The Engine facade headless: hooks run in order, bad sizes are refused, a
//! frame without a camera still renders.

use std::sync::{Arc, Mutex};

use taos_engine::{Engine, EngineConfig, EngineError};
use taos_renderer::features::ShadowCascades;
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
    engine.before_render(move |frame| {
        assert_eq!(frame.data.buckets.opaque.len(), 0);
        assert!(frame.hdr.is_some(), "after the features added their passes");
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

#[test]
fn the_sun_components_cascade_settings_reach_the_shadow_feature() {
    use taos_engine::prelude::*;
    use taos_engine::{Cascades, DirectionalLight};
    let mut engine = engine(32, 32).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let scene = engine.scene_mut();
    let camera = scene.spawn("Camera");
    scene
        .add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 1.0).unwrap())
        .unwrap();
    let sun = scene.spawn("Sun");
    let mut light = DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.2), Vec3::ONE, 2.0);
    light.cascades = Cascades {
        count: 2,
        split_lambda: 0.0,
        max_distance: 40.0,
    };
    scene.add_component(sun, light).unwrap();
    let seen = Arc::new(Mutex::new(None));
    let sink = seen.clone();
    engine.before_render(move |frame| {
        let shadow = frame
            .data
            .slots
            .get::<ShadowCascades>()
            .expect("the sun casts shadows");
        *sink.lock().unwrap() = Some((shadow.count, shadow.splits[1]));
    });
    engine.frame().unwrap();
    let (count, far) = seen.lock().unwrap().expect("hook ran");
    assert_eq!(count, 2);
    assert!(
        (far - 40.0).abs() < 1e-3,
        "the last split ends at max_distance: {far}"
    );
}
