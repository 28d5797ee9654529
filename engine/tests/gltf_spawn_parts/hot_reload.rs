//! Hot reload through the public API, headless: a texture file edited on
//! disk changes the next frame; a model reload keeps the instance's root
//! with the game's component; a game feature's broken WGSL keeps the old
//! picture and reports the error; a sound reload reaches the sources; and
//! the OS watcher sees a real write.
//!
//! Changes are pushed with `HotReload::file_changed` (what the browser's
//! dev server does), so frames are deterministic; one test goes through
//! the real file watcher.

use std::path::Path;

use bevy_ecs::component::Component;
use glam::Vec3;
use taos_engine::gltf::{GltfSpawnOptions, SpawnedGltf};
use taos_engine::hot_reload::ReloadKind;
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_gltf::test_models;
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::shaders::ShaderFile;
use taos_renderer::{FeatureSetup, Frame, RenderFeature};

const SIZE: (u32, u32) = (96, 72);

/// A headless engine with hot reload on.
fn engine() -> Engine {
    let mut engine = engine_without_reload();
    engine.hot_reload_mut().set_enabled(true);
    engine
}

/// A headless engine as tests get it: hot reload off.
fn engine_without_reload() -> Engine {
    Engine::headless(
        EngineConfig::new(SIZE.0, SIZE.1),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// A camera and a sun in front of `model`.
fn frame_model(engine: &mut Engine, model: &SpawnedGltf) {
    let (min, max) = model.bounds.expect("the model has meshes");
    let centre = (min + max) * 0.5;
    let radius = ((max - min).length() * 0.5).max(0.1);
    let eye = centre + Vec3::new(0.3, 0.4, 1.0).normalize() * radius * 2.2;
    let view = glam::camera::rh::view::look_at_mat4(eye, centre, Vec3::Y);
    let (_, rotation, position) = view.inverse().to_scale_rotation_translation();
    let scene = engine.scene_mut();
    let camera = scene.spawn_with("Camera", Transform::from_trs(position, rotation, Vec3::ONE));
    let aspect = SIZE.0 as f32 / SIZE.1 as f32;
    scene
        .add_component(
            camera,
            Camera::perspective(45.0, radius * 0.05, radius * 10.0, aspect).unwrap(),
        )
        .unwrap();
    let sun = scene.spawn("Sun");
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.2, -0.5, -1.0), Vec3::ONE, 3.0),
        )
        .unwrap();
}

/// The mean RGB of the frame's middle ninth.
fn centre_colour(engine: &mut Engine) -> [f32; 3] {
    let pixels = engine.read_pixels().unwrap();
    let (w, h) = (SIZE.0 as usize, SIZE.1 as usize);
    let mut sum = [0.0; 3];
    let mut n = 0.0;
    for y in h / 3..2 * h / 3 {
        for x in w / 3..2 * w / 3 {
            let p = &pixels[(y * w + x) * 4..][..3];
            for c in 0..3 {
                sum[c] += f32::from(p[c]);
            }
            n += 1.0;
        }
    }
    sum.map(|s| s / n)
}

fn write_jpeg(path: &Path, rgb: [u8; 3]) {
    let image = image::RgbImage::from_pixel(8, 8, image::Rgb(rgb));
    image
        .save_with_format(path, image::ImageFormat::Jpeg)
        .unwrap();
}

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Health(u32);

/// The textured box test model written to a temporary folder and loaded
/// into an engine with hot reload on.
fn textured_box() -> (tempfile::TempDir, std::path::PathBuf, Engine, SpawnedGltf) {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::textured_box(dir.path()).unwrap();
    let mut engine = engine();
    let model = engine
        .load_gltf(&path, &GltfSpawnOptions::default())
        .unwrap();
    (dir, path, engine, model)
}

#[test]
fn editing_a_models_texture_on_disk_changes_the_next_frame_as_a_fresh_load_would() {
    let (dir, path, mut engine, model) = textured_box();
    frame_model(&mut engine, &model);
    engine.frame().unwrap();
    let before = centre_colour(&mut engine);

    let image = dir.path().join("box base colour.jpg");
    write_jpeg(&image, [20, 60, 255]);
    engine.hot_reload_mut().file_changed(&image);
    engine.frame().unwrap();
    let after = centre_colour(&mut engine);
    let events = engine.hot_reload().last_events().to_vec();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].outcome, Ok(ReloadKind::Model { instances: 1 }));
    assert!(
        after[2] > before[2] + 20.0 && after[0] < before[0] - 20.0,
        "the box turned blue: {before:?} -> {after:?}"
    );

    // The reloaded frame is what a fresh load of the edited files draws.
    let mut fresh = engine_without_reload();
    let again = fresh
        .load_gltf(&path, &GltfSpawnOptions::default())
        .unwrap();
    frame_model(&mut fresh, &again);
    fresh.frame().unwrap();
    let expected = fresh.read_pixels().unwrap();
    engine.frame().unwrap();
    let reloaded = engine.read_pixels().unwrap();
    let differing = expected
        .chunks(4)
        .zip(reloaded.chunks(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 3))
        .count();
    assert!(
        differing == 0,
        "{differing} pixels differ from a fresh load"
    );
}

#[test]
fn a_model_reload_keeps_the_instance_root_its_transform_parent_and_game_components() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::textured_box(dir.path()).unwrap();
    let mut engine = engine();
    let holder = engine.scene_mut().spawn("Holder");
    let options = GltfSpawnOptions {
        parent: Some(holder),
        ..GltfSpawnOptions::default()
    };
    let first = engine.load_gltf(&path, &options).unwrap();
    let second = engine.load_gltf(&path, &options).unwrap();
    let root = first.root;
    let scene = engine.scene_mut();
    scene.add_component(root, Health(7)).unwrap();
    scene
        .object_mut(root)
        .unwrap()
        .set_position(Vec3::new(1.0, 2.0, 3.0));
    let game_child = scene.spawn_child(root, "Label").unwrap();
    let old_parts: Vec<GameObject> = scene.children(root).filter(|&c| c != game_child).collect();
    assert!(!old_parts.is_empty());

    // Another model written over the file: the hierarchy test model.
    let other_dir = tempfile::tempdir().unwrap();
    let other = test_models::hierarchy(other_dir.path()).unwrap();
    std::fs::copy(&other, &path).unwrap();
    for entry in std::fs::read_dir(other_dir.path()).unwrap() {
        let entry = entry.unwrap();
        if entry.path() != other {
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
    }
    engine.hot_reload_mut().file_changed(&path);
    engine.frame().unwrap();

    let events = engine.hot_reload().last_events().to_vec();
    assert_eq!(
        events[0].outcome,
        Ok(ReloadKind::Model { instances: 2 }),
        "{events:?}"
    );
    let scene = engine.scene();
    assert!(scene.contains(root) && scene.contains(second.root));
    assert_eq!(scene.get_component::<Health>(root), Some(&Health(7)));
    assert_eq!(scene.parent(root), Some(holder));
    assert_eq!(
        scene.transform(root).unwrap().position,
        Vec3::new(1.0, 2.0, 3.0)
    );
    assert!(scene.contains(game_child), "the game's own child stays");
    assert_eq!(scene.parent(game_child), Some(root));
    for part in &old_parts {
        assert!(!scene.contains(*part), "old model parts are removed");
    }
    let names: Vec<&str> = scene.children(root).filter_map(|c| scene.name(c)).collect();
    assert!(
        names.contains(&"SecondRoot"),
        "the new file's default scene is under the root: {names:?}"
    );
}

#[test]
fn a_model_that_no_longer_loads_keeps_the_old_instance_and_says_why() {
    let (_dir, path, mut engine, model) = textured_box();
    let parts: Vec<GameObject> = engine.scene().children(model.root).collect();
    std::fs::write(&path, b"{ not json").unwrap();
    engine.hot_reload_mut().file_changed(&path);
    engine.frame().unwrap();
    let event = &engine.hot_reload().last_events()[0];
    let error = event.outcome.as_ref().unwrap_err();
    assert!(error.contains("textured_box.gltf"), "{error}");
    assert!(engine.hot_reload().current_error().is_some());
    for part in parts {
        assert!(engine.scene().contains(part));
    }
}

/// A game's own feature: paints a centred square in the colour its WGSL
/// says, over the tonemapped frame.
struct Square {
    file: ShaderFile,
    pipeline: Option<wgpu::RenderPipeline>,
}

const GOOD: &str = "
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let corners = array(vec2(-0.5, -0.5), vec2(0.5, -0.5), vec2(-0.5, 0.5), vec2(0.5, 0.5));
    return vec4(corners[i], 0.0, 1.0);
}
@fragment fn fs_main() -> @location(0) vec4<f32> { return vec4(1.0, 0.0, 0.0, 1.0); }
";

impl RenderFeature for Square {
    fn name(&self) -> &'static str {
        "Square"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let source = taos_renderer::shaders::current(&self.file);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("square"),
            source: wgpu::ShaderSource::Wgsl(source),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("square"),
            bind_group_layouts: &[],
            immediate_size: 0,
        });
        self.pipeline = Some(
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("square"),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleStrip,
                    ..Default::default()
                },
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(setup.output_format.into())],
                }),
                multiview_mask: None,
                cache: None,
            }),
        );
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(pipeline) = &self.pipeline else {
            return;
        };
        let output = frame.output;
        frame.output = frame.graph.add_render_pass("square", |pass| {
            let output = pass.write_color(output, wgpu::LoadOp::Load);
            pass.execute(move |rp, _| {
                rp.set_pipeline(pipeline);
                rp.draw(0..4, 0..1);
            });
            output
        });
    }
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

#[test]
fn a_broken_shader_edit_keeps_the_old_picture_reports_the_error_and_a_fix_applies() {
    let dir = tempfile::tempdir().unwrap();
    let wgsl = dir.path().join("square.wgsl");
    std::fs::write(&wgsl, GOOD).unwrap();
    let file = ShaderFile {
        name: "square.wgsl",
        embedded: GOOD,
        manifest_dir: leak(dir.path().display().to_string()),
        rust_file: leak(dir.path().join("square.rs").display().to_string()),
    };
    let mut engine = engine();
    engine.renderer().add_feature(Square {
        file,
        pipeline: None,
    });
    engine.frame().unwrap();
    let red = centre_colour(&mut engine);
    assert!(red[0] > 200.0 && red[1] < 30.0, "{red:?}");

    std::fs::write(&wgsl, GOOD.replace("vec4(1.0, 0.0", "vec4(1.0 +, 0.0")).unwrap();
    engine.hot_reload_mut().file_changed(&wgsl);
    engine.frame().unwrap();
    let event = engine.hot_reload().last_events()[0].clone();
    let error = event.outcome.unwrap_err();
    assert!(error.contains("Square"), "names the feature: {error}");
    assert_eq!(
        centre_colour(&mut engine),
        red,
        "the old pipeline keeps drawing"
    );

    std::fs::write(
        &wgsl,
        GOOD.replace("vec4(1.0, 0.0, 0.0", "vec4(0.0, 1.0, 0.0"),
    )
    .unwrap();
    engine.hot_reload_mut().file_changed(&wgsl);
    engine.frame().unwrap();
    assert_eq!(
        engine.hot_reload().last_events()[0].outcome,
        Ok(ReloadKind::Shader {
            features: vec!["Square"]
        })
    );
    let green = centre_colour(&mut engine);
    assert!(green[1] > 200.0 && green[0] < 30.0, "{green:?}");
}

fn wav(path: &Path, frames: usize) {
    let mut bytes = Vec::new();
    let data = (frames * 2) as u32;
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + data).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    bytes.extend_from_slice(&16u32.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&1u16.to_le_bytes());
    bytes.extend_from_slice(&8000u32.to_le_bytes());
    bytes.extend_from_slice(&16000u32.to_le_bytes());
    bytes.extend_from_slice(&2u16.to_le_bytes());
    bytes.extend_from_slice(&16u16.to_le_bytes());
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data.to_le_bytes());
    for i in 0..frames {
        let sample = ((i as f32 * 0.3).sin() * 8000.0) as i16;
        bytes.extend_from_slice(&sample.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_sound_reload_reaches_the_sources_playing_it_and_held_clips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("beep.wav");
    wav(&path, 800);
    let mut engine = engine();
    let clip = engine.load_sound(&path).unwrap();
    assert_eq!(clip.frame_count(), 800);
    let speaker = engine.scene_mut().spawn("Speaker");
    engine
        .scene_mut()
        .add_component(speaker, taos_audio::AudioSource::new(clip.clone()))
        .unwrap();
    wav(&path, 1600);
    engine.hot_reload_mut().file_changed(&path);
    engine.frame().unwrap();
    assert_eq!(
        engine.hot_reload().last_events()[0].outcome,
        Ok(ReloadKind::Sound)
    );
    let source = engine
        .scene()
        .get_component::<taos_audio::AudioSource>(speaker)
        .unwrap();
    assert_eq!(source.clip.frame_count(), 1600);
    assert_eq!(engine.current_sound(&clip).frame_count(), 1600);
}

/// The real watcher: a file written on disk reaches the game by itself.
/// Waits for the OS (a few milliseconds) with a generous deadline.
#[test]
fn the_file_watcher_sees_a_texture_written_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tile.png");
    image::RgbaImage::from_pixel(4, 4, image::Rgba([255, 0, 0, 255]))
        .save(&path)
        .unwrap();
    let mut engine = engine();
    let id = engine
        .load_texture(&path, taos_renderer::resources::ColorSpace::Srgb)
        .unwrap();
    assert_eq!(engine.renderer().assets().texture_version(id), 0);
    image::RgbaImage::from_pixel(4, 4, image::Rgba([0, 0, 255, 255]))
        .save(&path)
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while engine.renderer().assets().texture_version(id) == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no change seen in 10 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
        engine.frame().unwrap();
    }
    let events = engine.hot_reload().last_events();
    assert_eq!(events[0].outcome, Ok(ReloadKind::Texture));
    assert_eq!(events[0].path, path.canonicalize().unwrap());
}

mod level {
    use taos_engine::edit::EditCommand;
    use taos_engine::editor::{Editor, LevelReload};
    use taos_engine::prelude::*;
    use taos_engine::scene_file::SceneTypes;

    fn position_x(engine: &taos_engine::Engine, name: &str) -> f32 {
        let object = engine.scene().find(name).unwrap();
        engine.scene().transform(object).unwrap().position.x
    }

    #[test]
    fn a_level_changed_on_disk_reloads_as_one_undo_step_keeping_or_resetting_edits() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("level.json");
        let mut engine = super::engine();
        let a = engine.scene_mut().spawn("Crate");
        engine
            .scene_mut()
            .object_mut(a)
            .unwrap()
            .set_position(Vec3::X);
        let b = engine.scene_mut().spawn("Lamp");
        let b_id = engine.scene().id(b).unwrap();
        let mut editor = Editor::new(SceneTypes::default(), &path);
        editor.save(&engine).unwrap();

        // Edited in the editor: the lamp moves.
        let moved = Transform {
            position: Vec3::new(5.0, 0.0, 0.0),
            ..Transform::default()
        };
        editor
            .apply(
                &mut engine,
                EditCommand::SetTransform {
                    object: b_id,
                    transform: moved,
                },
            )
            .unwrap();
        // Changed on disk: the crate is renamed and moved.
        let text = std::fs::read_to_string(&path).unwrap();
        let edited = text.replace("\"Crate\"", "\"Barrel\"");
        assert_ne!(edited, text);
        std::fs::write(&path, edited).unwrap();

        let undo_before = editor.history().undo_len();
        let report = editor
            .reload_level(&mut engine, LevelReload::KeepChanged)
            .unwrap();
        assert_eq!(report.kept, vec![b_id], "the lamp was changed here");
        assert!(engine.scene().find("Crate").is_none());
        assert_eq!(position_x(&engine, "Barrel"), 1.0);
        assert_eq!(position_x(&engine, "Lamp"), 5.0, "the edit is kept");
        assert_eq!(editor.history().undo_len(), undo_before + 1, "one step");

        editor.undo(&mut engine).unwrap();
        assert!(engine.scene().find("Barrel").is_none());
        assert_eq!(position_x(&engine, "Crate"), 1.0);
        assert_eq!(position_x(&engine, "Lamp"), 5.0);

        // Resetting takes the lamp from the file too.
        editor
            .reload_level(&mut engine, LevelReload::ResetAll)
            .unwrap();
        assert_eq!(position_x(&engine, "Barrel"), 1.0);
        assert_eq!(position_x(&engine, "Lamp"), 0.0);
        editor.undo(&mut engine).unwrap();
        assert_eq!(position_x(&engine, "Lamp"), 5.0);
        assert!(engine.scene().find("Crate").is_some());
    }

    #[test]
    fn a_broken_level_on_disk_leaves_the_scene_and_history_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("level.json");
        let mut engine = super::engine();
        engine.scene_mut().spawn("Crate");
        let mut editor = Editor::new(SceneTypes::default(), &path);
        editor.save(&engine).unwrap();
        std::fs::write(&path, "{ \"objects\": [ broken").unwrap();
        assert!(
            editor
                .reload_level(&mut engine, LevelReload::ResetAll)
                .is_err()
        );
        assert!(engine.scene().find("Crate").is_some());
        assert_eq!(editor.history().undo_len(), 0);
        assert!(
            editor.status().starts_with("reload:"),
            "{}",
            editor.status()
        );
    }
}

#[test]
fn a_model_spawned_from_an_asset_reloads_through_the_asset_folder() {
    use taos_engine::assets::{AssetPath, Assets};
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("models")).unwrap();
    let path = test_models::textured_box(&dir.path().join("models")).unwrap();
    let assets = Assets::with_root(dir.path().to_path_buf());
    let asset = AssetPath::new("models/textured_box.gltf").unwrap();
    let mut engine = engine();
    let mut task = assets.load_gltf(&asset);
    let model = engine.poll(&mut task).unwrap().unwrap();
    let spawned = engine
        .spawn_gltf_asset(&assets, &asset, &model, &GltfSpawnOptions::default())
        .unwrap();
    engine
        .scene_mut()
        .add_component(spawned.root, Health(1))
        .unwrap();
    write_jpeg(&dir.path().join("models/box base colour.jpg"), [0, 0, 255]);
    engine
        .hot_reload_mut()
        .file_changed(dir.path().join("models/box base colour.jpg"));
    engine.frame().unwrap();
    let events = engine.hot_reload().last_events();
    assert_eq!(
        events[0].outcome,
        Ok(ReloadKind::Model { instances: 1 }),
        "{events:?}"
    );
    assert_eq!(
        engine.scene().get_component::<Health>(spawned.root),
        Some(&Health(1))
    );
    let _ = path;
}
