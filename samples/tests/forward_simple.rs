//! `forward_simple` as an image test, rendered headless on a real adapter.

use std::path::Path;

use taos_engine::scene_file::{SceneTypes, load_scene, save_scene};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};

#[test]
fn forward_simple_matches_its_reference() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    let stats = engine.frame().unwrap();
    assert_eq!(
        (stats.passes, stats.culled),
        (4, 0),
        "shadow, sky, forward lit, tonemap"
    );
    engine.frame().unwrap();
    let pixels = engine.read_pixels().unwrap();
    // Lavapipe made the reference. Drivers differ on silhouette pixels and on
    // the precision of pow/sqrt in the BRDF: 3 steps per channel, and 2% of
    // pixels (about the sphere's outline) beyond that.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "forward_simple", 160, 120, &pixels, tolerance);
}

/// The sample's scene saved to a scene file, emptied, loaded back from the
/// file: the same image as the reference, and saving again gives the same
/// text (`samples/tests/reference/forward_simple.scene.json` holds it, so
/// a change to the format shows in review).
#[test]
fn forward_simple_round_trips_through_a_scene_file() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    let types = SceneTypes::default();
    let saved = save_scene(engine.scene(), &types).unwrap();
    assert!(saved.skipped.is_empty());
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_golden_text(&reference, "forward_simple.scene.json", &saved.text);

    let scene = engine.scene_mut();
    for root in scene.roots() {
        scene.remove(root).unwrap();
    }
    assert!(scene.is_empty());
    let loaded = load_scene(
        scene,
        &saved.text,
        "forward_simple.scene.json",
        &types,
        None,
    )
    .unwrap();
    assert_eq!(loaded.objects.len(), 3);
    assert_eq!(save_scene(engine.scene(), &types).unwrap().text, saved.text);

    engine.frame().unwrap();
    engine.frame().unwrap();
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    assert_matches_reference(&reference, "forward_simple", 160, 120, &pixels, tolerance);
}

/// A click on the sphere selects it; a click on the sky selects nothing.
#[test]
fn a_click_picks_the_sphere() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    engine.frame().unwrap();
    assert_eq!(engine.output_size(), (160, 120));
    let hit = engine
        .pick(glam::Vec2::new(80.0, 65.0))
        .expect("the sphere");
    assert_eq!(engine.scene().name(hit.object), Some("Sphere"));
    assert!(engine.pick(glam::Vec2::new(2.0, 2.0)).is_none());
}

/// Picking goes past a mesh's box to its triangles: near the corners of the
/// sphere's box the click misses the sphere (bounds alone would pick it),
/// and every click that picks it is on the round sphere.
#[test]
fn a_click_beside_the_sphere_but_inside_its_box_misses_it() {
    use taos_engine::edit::viewport::{pick, ray_through_pixel};
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    engine.frame().unwrap();
    let scene = engine.scene();
    let sphere = scene
        .roots()
        .into_iter()
        .find(|o| scene.name(*o) == Some("Sphere"))
        .unwrap();
    let renderer = scene
        .get_component::<taos_engine::MeshRenderer>(sphere)
        .unwrap();
    let mesh = taos_engine::renderer::resources::MeshId(renderer.mesh.0);
    let sphere_box = engine.renderer().assets().mesh(mesh).unwrap().bounds();
    let centre = engine.scene().world_position(sphere).unwrap();
    let camera = engine.scene().render_camera().unwrap();
    let viewport = glam::Vec2::new(160.0, 120.0);
    let (mut corners, mut on_sphere) = (0, 0);
    for y in (0..120).step_by(2) {
        for x in (0..160).step_by(2) {
            let pixel = glam::Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let exact = engine.pick(pixel).map(|hit| hit.object);
            let boxed = pick(engine.scene(), camera, viewport, pixel, |_| {
                Some(sphere_box)
            })
            .map(|hit| hit.object);
            if exact == Some(sphere) {
                on_sphere += 1;
                // The ray passes within the radius of the centre.
                let ray = ray_through_pixel(engine.scene(), camera, viewport, pixel).unwrap();
                let to_centre = centre - ray.origin;
                let miss = (to_centre - ray.direction * to_centre.dot(ray.direction)).length();
                assert!(
                    miss <= 1.001,
                    "picked at {pixel} but {miss} from the centre"
                );
            } else if boxed == Some(sphere) {
                corners += 1;
            }
        }
    }
    assert!(on_sphere > 50, "the sphere is picked where it is drawn");
    assert!(
        corners > 10,
        "the box's corners are not the sphere ({corners})"
    );
}

#[test]
fn sample_arguments_are_parsed_and_bad_ones_refused() {
    use taos_samples::SampleArgs;
    let args = |list: &[&str]| SampleArgs::parse(list.iter().map(|s| (*s).to_owned()));
    let parsed = args(&[
        "--headless",
        "--frames",
        "4",
        "--screenshot",
        "a.png",
        "--size",
        "64x32",
    ])
    .unwrap();
    assert!(parsed.headless);
    assert_eq!((parsed.frames, parsed.size), (4, (64, 32)));
    assert!(args(&["--frames"]).is_err());
    assert!(args(&["--size", "0x10"]).is_err());
    assert!(
        args(&["--bogus"])
            .unwrap_err()
            .to_string()
            .contains("--bogus")
    );
}
