//! The Engine facade headless: hooks run in order, bad sizes are refused, a
//! frame without a camera still renders.

use std::sync::{Arc, Mutex};

use taos_engine::renderer::features::ShadowCascades;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig, EngineError};

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

/// A scene with a camera at the origin looking down -z, and (if `cube`) an
/// emissive cube filling the middle of the view.
fn viewed_scene(engine: &mut Engine, cube: bool) -> taos_engine::Scene {
    use taos_engine::prelude::*;
    use taos_engine::renderer::resources::{MeshData, PbrMaterial};
    let mut scene = Scene::new();
    let camera = scene.spawn("Camera");
    scene
        .add_component(camera, Camera::perspective(60.0, 0.1, 50.0, 1.0).unwrap())
        .unwrap();
    if cube {
        let (assets, gpu) = engine.renderer().assets_mut();
        let mesh = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
        let material = assets.add_material(PbrMaterial {
            emissive: Vec3::new(4.0, 0.0, 0.0),
            ..PbrMaterial::default()
        });
        let object = scene.spawn("Cube");
        scene.object_mut(object).unwrap().position_mut().z = -3.0;
        scene
            .add_component(object, MeshRenderer::new(mesh.handle(), material.handle()))
            .unwrap();
    }
    scene
}

fn centre_pixel(pixels: &[u8], width: u32, height: u32) -> [u8; 4] {
    let at = (((height / 2) * width + width / 2) * 4) as usize;
    pixels[at..at + 4].try_into().unwrap()
}

#[test]
fn set_game_loop_switches_screens_and_capture_draws_offscreen() {
    use taos_engine::Camera;
    use taos_engine::game_loop::{GameLoop, LoopConfig, ManualClock};
    let (width, height) = (64, 32);
    let mut engine =
        engine(width, height).unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let empty = viewed_scene(&mut engine, false);
    *engine.scene_mut() = empty;
    engine.frame().unwrap();
    let before = centre_pixel(&engine.read_pixels().unwrap(), width, height);

    // A second screen: its own scene (a red cube in view) and loop.
    let scene = viewed_scene(&mut engine, true);
    let next = GameLoop::new(scene, LoopConfig::default(), ManualClock::new()).unwrap();
    let previous = engine.set_game_loop(next);
    assert_eq!(
        previous.scene().roots().len(),
        1,
        "the old screen comes back whole"
    );
    engine.frame().unwrap();
    let after = centre_pixel(&engine.read_pixels().unwrap(), width, height);
    assert!(
        after[0] > 200 && after[0] > before[0] + 100,
        "{before:?} -> {after:?}"
    );
    let camera = engine.scene_mut().find_camera().unwrap();
    let aspect = |engine: &Engine| match engine
        .scene()
        .get_component::<Camera>(camera)
        .unwrap()
        .projection
    {
        taos_engine::Projection::Perspective { aspect, .. } => aspect,
        taos_engine::Projection::Orthographic { aspect, .. } => aspect,
    };
    assert_eq!(
        aspect(&engine),
        2.0,
        "the new screen's camera takes the output's aspect"
    );

    // An offscreen capture of another size, the output left alone.
    let shot = engine.capture(16, 16).unwrap();
    assert_eq!(shot.len(), 16 * 16 * 4);
    assert!(
        centre_pixel(&shot, 16, 16)[0] > 200,
        "the cube is in the capture"
    );
    assert_eq!(aspect(&engine), 2.0, "the camera's aspect is restored");
    assert_eq!(
        engine.read_pixels().unwrap().len(),
        (width * height * 4) as usize
    );

    // A capture collected later (as a page must) holds the frame of the
    // moment it was asked for, whatever is drawn meanwhile.
    let later = engine.capture_later(16, 16).unwrap();

    // A screen without the scene renders nothing of it.
    engine.show_scene(false);
    assert_eq!(engine.frame().unwrap().passes, 0);
    let collected = taos_engine::storage::block_on(later).unwrap();
    assert_eq!(collected.len(), 16 * 16 * 4);
    assert!(
        centre_pixel(&collected, 16, 16)[0] > 200,
        "the cube is in the later capture"
    );
}

#[test]
fn set_preset_swaps_the_features_and_keeps_the_assets_and_scene() {
    use taos_engine::renderer::presets::{DeferredOptions, deferred_preset};
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(64, 48), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    engine.frame().unwrap();
    let centre = |pixels: &[u8]| {
        let i = (24 * 64 + 32) * 4;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    let forward = centre(&engine.read_pixels().unwrap());
    assert!(forward[0] > 2 * forward[2], "the red sphere: {forward:?}");

    engine.set_preset(deferred_preset(DeferredOptions::default()));
    let names: Vec<_> = engine.renderer().feature_names().collect();
    assert!(names.contains(&"DeferredLighting"), "{names:?}");
    assert!(!names.contains(&"ForwardLit"), "{names:?}");
    let materials = engine.renderer().assets().material_count();
    engine.frame().unwrap();
    let deferred = centre(&engine.read_pixels().unwrap());
    assert!(
        deferred[0] > 2 * deferred[2],
        "still the red sphere: {deferred:?}"
    );
    assert_eq!(engine.renderer().assets().material_count(), materials);

    engine.set_preset(forward_preset(PresetOptions::default()));
    engine.frame().unwrap();
    let again = centre(&engine.read_pixels().unwrap());
    assert!(again[0] > 2 * again[2], "forward again: {again:?}");
}
