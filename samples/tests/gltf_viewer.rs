//! `gltf_viewer` headless: every test model renders and prints its tree, a
//! bad file ends with the importer's message (not a panic), the textured
//! box is an image test, and effects switch without a rebuild.

use std::path::{Path, PathBuf};
use std::process::Command;

use image::RgbaImage;
use taos_engine::gltf::GltfSpawnOptions;
use taos_engine::gltf::test_models;
use taos_engine::renderer::features::{DofFeature, SkyFeature};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{ComparePreset, SampleArgs, Skeleton, ViewerSettings, view_headless};

const SIZE: (u32, u32) = (128, 96);

fn args(frames: u32) -> SampleArgs {
    SampleArgs {
        headless: true,
        frames,
        screenshot: None,
        size: SIZE,
    }
}

/// The share of pixels that differ from the top-left one (the sky) by more
/// than 24 steps in some channel: the model and its markers.
fn share_unlike_sky(image: &RgbaImage) -> f32 {
    let sky = *image.get_pixel(0, 0);
    let unlike = image
        .pixels()
        .filter(|p| (0..3).any(|c| p[c].abs_diff(sky[c]) > 24))
        .count();
    unlike as f32 / (image.width() * image.height()) as f32
}

#[test]
fn every_test_model_renders_framed_with_its_scene_tree() {
    let dir = tempfile::tempdir().unwrap();
    let models = test_models::write_all(dir.path()).unwrap();
    let spawn = GltfSpawnOptions {
        autoplay: true,
        ..GltfSpawnOptions::default()
    };
    for path in &models {
        let view = view_headless(path, ViewerSettings::default(), &spawn, &args(2))
            .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            view.tree.starts_with(name.as_ref()),
            "the tree starts at the model's root: {}",
            view.tree
        );
        assert_eq!(view.image.dimensions(), SIZE);
        // The meshes fill a good part of the view; a model of lights and
        // cameras alone shows their markers.
        let share = share_unlike_sky(&view.image);
        let least = if name.starts_with("cameras_and_lights") {
            0.002
        } else {
            0.02
        };
        assert!(share > least, "{name}: {share} of the view shows the model");
        println!("{name}: {share:.3} of the view shows the model");
    }
}

#[test]
fn the_scene_tree_shows_the_hierarchy_and_what_each_node_carries() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::cameras_and_lights(dir.path()).unwrap();
    let view = view_headless(
        &path,
        ViewerSettings::default(),
        &GltfSpawnOptions::default(),
        &args(1),
    )
    .unwrap();
    let tree = &view.tree;
    assert!(tree.contains("[camera]"), "{tree}");
    assert!(tree.contains("point light"), "{tree}");
    assert!(tree.contains("spot light"), "{tree}");
    assert!(
        tree.lines().skip(1).all(|line| line.starts_with("  ")),
        "nodes are indented under the root: {tree}"
    );
}

#[test]
fn the_textured_box_matches_its_reference_in_every_preset() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::textured_box(dir.path()).unwrap();
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    for preset in ComparePreset::ALL {
        let settings = ViewerSettings {
            preset,
            ..ViewerSettings::default()
        };
        let view = view_headless(&path, settings, &GltfSpawnOptions::default(), &args(2)).unwrap();
        let name = format!("gltf_viewer_{}", preset.label().replace('-', "_"));
        assert_matches_reference(
            &reference,
            &name,
            SIZE.0,
            SIZE.1,
            view.image.as_raw(),
            Tolerance {
                per_channel: 3,
                outlier_fraction: 0.02,
            },
        );
    }
}

fn viewer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gltf_viewer"))
}

#[test]
fn the_binary_writes_a_screenshot_and_prints_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::hierarchy(dir.path()).unwrap();
    let shot: PathBuf = dir.path().join("out.png");
    let output = viewer()
        .arg(&path)
        .args(["--headless", "--frames", "2", "--size", "64x48"])
        .args(["--preset", "deferred", "--effects", "bloom+taa"])
        .arg("--screenshot")
        .arg(&shot)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("hierarchy.gltf"), "{stdout}");
    assert_eq!(image::open(&shot).unwrap().width(), 64);
}

#[test]
fn a_bad_file_ends_with_a_clear_message_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.gltf");
    std::fs::write(
        &broken,
        b"{ \"asset\": { \"version\": \"2.0\" }, \"nodes\": [ {",
    )
    .unwrap();
    let missing = dir.path().join("missing.glb");
    let effects = (test_models::textured_box(dir.path()).unwrap(), "bloom+glow");
    for (path, effects, expect) in [
        (&broken, "off", "broken.gltf"),
        (&missing, "off", "missing.glb"),
        (&effects.0, effects.1, "glow"),
    ] {
        let output = viewer()
            .arg(path)
            .args(["--headless", "--size", "32x24", "--effects", effects])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expect), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn allow_dir_lets_a_model_read_a_shared_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("m")).unwrap();
    std::fs::create_dir_all(root.join("shared")).unwrap();
    let positions: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let bytes: Vec<u8> = positions.iter().flat_map(|f| f.to_le_bytes()).collect();
    std::fs::write(root.join("shared/buf.bin"), bytes).unwrap();
    let model = root.join("m/m.gltf");
    std::fs::write(
        &model,
        r#"{
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": 36, "uri": "../shared/buf.bin"}],
            "bufferViews": [{"buffer": 0, "byteLength": 36}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3,
                "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
            "nodes": [{"mesh": 0, "name": "Triangle"}],
            "scenes": [{"nodes": [0]}]
        }"#,
    )
    .unwrap();
    let run = |allow: Option<&Path>| {
        let mut command = viewer();
        command
            .arg(&model)
            .args(["--headless", "--frames", "1", "--size", "32x24"]);
        if let Some(folder) = allow {
            command.arg("--allow-dir").arg(folder);
        }
        command.output().unwrap()
    };
    let refused = run(None);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("../shared/buf.bin"), "{stderr}");
    assert!(stderr.contains("allowed_roots"), "{stderr}");
    let allowed = run(Some(&root.join("shared")));
    let stdout = String::from_utf8_lossy(&allowed.stdout);
    assert!(
        allowed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
    assert!(stdout.contains("Triangle"), "{stdout}");
}

/// Writes every test model's headless view into `TAOS_VIEWER_SHOTS` (for
/// looking at them, and for the README's thumbnails); skipped otherwise.
#[test]
fn shots_of_every_test_model_when_asked() {
    let Some(out) = std::env::var_os("TAOS_VIEWER_SHOTS") else {
        return;
    };
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for path in test_models::write_all(dir.path()).unwrap() {
        let spawn = GltfSpawnOptions {
            autoplay: true,
            ..GltfSpawnOptions::default()
        };
        let view = view_headless(&path, ViewerSettings::default(), &spawn, &args(2)).unwrap();
        let stem = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace('.', "_");
        view.image.save(out.join(format!("{stem}.png"))).unwrap();
    }
}

#[test]
fn the_viewer_switches_effects_without_rebuilding_the_features() {
    let settings = ViewerSettings::default();
    let mut engine = Engine::headless(EngineConfig::new(64, 48), settings.preset(5.0))
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let states = |engine: &mut Engine| engine.renderer().feature_states().collect::<Vec<_>>();
    assert_eq!(
        states(&mut engine),
        [
            ("Shadow", true),
            ("Sky", true),
            ("ForwardLit", true),
            ("Decals", true),
            ("Taa", false),
            ("Particles", true),
            ("DepthOfField", false),
            ("Bloom", false),
            ("Tonemap", true),
        ]
    );
    engine.frame().unwrap();
    let sky = |engine: &mut Engine| {
        let sky = engine.renderer().feature::<SkyFeature>().unwrap();
        (std::ptr::from_ref(sky) as usize, sky.environment_bakes())
    };
    let before = sky(&mut engine);

    let mut switched = settings;
    switched.shadows = false;
    switched.bloom = true;
    switched.dof = true;
    assert!(!switched.needs_rebuild(&settings));
    switched.switch_effects(engine.renderer(), 7.0).unwrap();
    engine.frame().unwrap();
    let on: Vec<_> = states(&mut engine)
        .into_iter()
        .filter_map(|(name, on)| on.then_some(name))
        .collect();
    assert_eq!(
        on,
        [
            "Sky",
            "ForwardLit",
            "Decals",
            "Particles",
            "DepthOfField",
            "Bloom",
            "Tonemap"
        ]
    );
    let dof = engine.renderer().feature::<DofFeature>().unwrap();
    assert!((dof.options.focus_distance - 7.0).abs() < 1e-6);
    assert_eq!(sky(&mut engine), before, "the same sky, not baked again");

    let mut msaa = switched;
    msaa.msaa = true;
    assert!(msaa.needs_rebuild(&switched), "MSAA is a pipeline setting");
    msaa.preset = ComparePreset::Deferred;
    msaa.msaa = false;
    assert!(msaa.needs_rebuild(&switched), "another preset");
}

/// Pixels of the skeleton's joint colour (unlit yellow-orange).
fn joint_pixels(image: &RgbaImage) -> usize {
    image
        .pixels()
        .filter(|p| p[0] > 200 && p[1] > 150 && p[2] < 90)
        .count()
}

#[test]
fn the_skeleton_shows_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::two_bone_skin(dir.path()).unwrap();
    let view = |skeleton: bool| {
        let settings = ViewerSettings {
            skeleton,
            ..ViewerSettings::default()
        };
        view_headless(&path, settings, &GltfSpawnOptions::default(), &args(1))
            .unwrap()
            .image
    };
    let hidden = view(false);
    let shown = view(true);
    assert_eq!(joint_pixels(&hidden), 0, "no skeleton unless asked");
    assert!(joint_pixels(&shown) > 10, "two joint markers show");
}

#[test]
fn the_skeleton_marks_each_joint_and_each_bone_as_children_of_the_joints() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::two_bone_skin(dir.path()).unwrap();
    let mut engine = Engine::headless(
        EngineConfig::new(SIZE.0, SIZE.1),
        taos_engine::renderer::presets::forward_preset(Default::default()),
    )
    .unwrap();
    let model = engine
        .load_gltf(&path, &GltfSpawnOptions::default())
        .unwrap();
    let mut skeleton = Skeleton::build(&mut engine, &model, 0.1).unwrap();
    let (root, bone) = (model.nodes[1].unwrap(), model.nodes[2].unwrap());
    assert_eq!(skeleton.joints, [root, bone]);
    // A sphere on each joint, and one box from Root to Bone (under Root).
    assert_eq!(skeleton.markers.len(), 3);
    let parents: Vec<_> = skeleton
        .markers
        .iter()
        .map(|&m| engine.scene().parent(m).unwrap())
        .collect();
    assert_eq!(parents, [root, bone, root]);
    assert!(!skeleton.is_shown());
    skeleton.show(engine.scene_mut(), true).unwrap();
    assert!(skeleton.is_shown());
}
