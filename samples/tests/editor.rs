//! The editor sample, driven as a user drives it, headless: the level
//! loads from its scene file and saves back to the same text; the editor
//! UI is an image test; a click selects a crate, Backspace deletes it and
//! Ctrl+Z brings it back; dragging the X arrow moves it along X only and
//! undo puts it back; Play then Stop restores the scene; Save writes a
//! file that Load reads back.

use std::path::Path;

use taos_engine::edit::{EditCommand, EditError};
use taos_engine::editor::{EditorMode, GizmoMode};
use taos_engine::game_loop::{InputEvent, Key, MouseButton};
use taos_engine::gltf::test_models;
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::scene_file::{
    ModelFile, ModelPart, SceneTypes, load_scene, save_scene, save_subtree,
};
use taos_engine::{AssetHandle, Engine, EngineConfig, HeadlessApp, Propagate, Shape, WindowEvent};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{EDITOR_LEVEL, EditorSample};

const SIZE: (u32, u32) = (640, 480);

fn run() -> HeadlessApp<EditorSample> {
    let mut run = HeadlessApp::new(
        EngineConfig::new(SIZE.0, SIZE.1),
        forward_preset(PresetOptions::default()),
        EditorSample::default(),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    run.frame().unwrap();
    run
}

fn input(run: &mut HeadlessApp<EditorSample>, event: InputEvent) {
    run.send(WindowEvent::Input {
        event,
        ui_consumed: false,
    })
    .unwrap();
}

fn click(run: &mut HeadlessApp<EditorSample>, at: Vec2) {
    input(run, InputEvent::CursorMoved(at));
    input(run, InputEvent::MouseDown(MouseButton::Left));
    input(run, InputEvent::MouseUp(MouseButton::Left));
}

fn chord(run: &mut HeadlessApp<EditorSample>, key: Key) {
    input(run, InputEvent::KeyDown(Key::ControlLeft));
    input(run, InputEvent::KeyDown(key));
    input(run, InputEvent::KeyUp(key));
    input(run, InputEvent::KeyUp(Key::ControlLeft));
}

/// Where a world point is drawn.
fn pixel_of(run: &HeadlessApp<EditorSample>, point: Vec3) -> Vec2 {
    let scene = run.engine().scene();
    let camera = scene.render_camera().unwrap();
    let view = Mat4::from(scene.world_matrix(camera).unwrap().inverse());
    let lens = scene.get_component::<Camera>(camera).unwrap();
    let clip = lens.projection_matrix() * view * point.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    Vec2::new(
        (ndc.x + 1.0) * 0.5 * SIZE.0 as f32,
        (1.0 - ndc.y) * 0.5 * SIZE.1 as f32,
    )
}

/// Draws a frame, clears the selection and clicks where `point` is drawn:
/// what the click selected.
fn click_after_a_frame(run: &mut HeadlessApp<EditorSample>, point: Vec3) -> Option<ObjectId> {
    run.frame().unwrap();
    run.app_mut().editor.select(None);
    let pixel = pixel_of(run, point);
    click(run, pixel);
    run.app().editor.selected()
}

/// A small engine with none of the sample's assets.
fn bare_engine() -> Engine {
    Engine::headless(
        EngineConfig::new(64, 64),
        forward_preset(PresetOptions::default()),
    )
    .unwrap()
}

fn crate_five(run: &HeadlessApp<EditorSample>) -> Option<GameObject> {
    run.engine().scene().find_by_id(ObjectId(5))
}

#[test]
fn the_level_file_saves_back_to_the_same_text() {
    let run = run();
    let saved = save_scene(run.engine().scene(), &SceneTypes::default()).unwrap();
    assert_eq!(saved.text, EDITOR_LEVEL);
}

#[test]
fn the_editor_matches_its_reference() {
    let mut run = run();
    let at = pixel_of(&run, Vec3::new(-1.5, 0.5, 0.5));
    click(&mut run, at);
    run.frame().unwrap();
    run.frame().unwrap();
    let pixels = run.engine_mut().read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "editor", SIZE.0, SIZE.1, &pixels, tolerance);
}

#[test]
fn select_delete_undo_and_drag_an_arrow() {
    let mut run = run();
    assert!(run.app().editor.is_open());
    let at = pixel_of(&run, Vec3::new(-1.5, 0.5, 0.5));
    click(&mut run, at);
    assert_eq!(
        run.app().editor.selected(),
        Some(ObjectId(5)),
        "the crate under the click"
    );

    input(&mut run, InputEvent::KeyDown(Key::Backspace));
    assert!(crate_five(&run).is_none(), "deleted");
    chord(&mut run, Key::Z);
    let restored = crate_five(&run).expect("undo brings it back");
    assert_eq!(run.engine().scene().name(restored), Some("Crate"));

    // Drag the X arrow 40 pixels right: the crate moves along X only.
    run.app_mut().editor.select(Some(ObjectId(5)));
    run.frame().unwrap();
    let before = run.engine().scene().world_position(restored).unwrap();
    let gizmo = run.app().editor.gizmo(run.engine());
    let (_, _, tip) = gizmo
        .iter()
        .copied()
        .find(|(axis, _, _)| *axis == Vec3::X)
        .unwrap();
    input(&mut run, InputEvent::CursorMoved(tip));
    input(&mut run, InputEvent::MouseDown(MouseButton::Left));
    for step in 1..=4 {
        input(
            &mut run,
            InputEvent::CursorMoved(tip + Vec2::new(10.0 * step as f32, 3.0)),
        );
    }
    input(&mut run, InputEvent::MouseUp(MouseButton::Left));
    let after = run.engine().scene().world_position(restored).unwrap();
    assert!(after.x > before.x + 0.2, "moved right: {before} -> {after}");
    assert_eq!((after.y, after.z), (before.y, before.z), "along X only");
    // The deletion was undone; the drag is the one step to undo.
    assert_eq!(run.app().editor.history().undo_len(), 1, "one step");
    chord(&mut run, Key::Z);
    let back = run.engine().scene().world_position(restored).unwrap();
    assert_eq!(back, before);
}

#[test]
fn play_then_stop_restores_the_scene() {
    let mut run = run();
    let types = SceneTypes::default();
    let before = save_scene(run.engine().scene(), &types).unwrap().text;
    let (engine, app) = run.parts_mut();
    app.editor.play(engine);
    assert_eq!(app.editor.mode(), EditorMode::Playing);
    assert!(!engine.game_loop().is_paused());
    // The game moves a crate while it plays (as a behaviour would).
    let crate_ = engine.scene().find_by_id(ObjectId(5)).unwrap();
    engine
        .scene_mut()
        .object_mut(crate_)
        .unwrap()
        .set_position(Vec3::new(5.0, 5.0, 5.0));
    // Edits are off while it plays.
    let refused = app.editor.apply(
        engine,
        EditCommand::Delete {
            object: ObjectId(5),
        },
    );
    assert!(matches!(refused, Err(EditError::Playing)), "{refused:?}");
    for _ in 0..3 {
        run.frame().unwrap();
    }
    let (engine, app) = run.parts_mut();
    app.editor.stop(engine);
    assert_eq!(app.editor.mode(), EditorMode::Editing);
    assert!(engine.game_loop().is_paused());
    assert_eq!(
        save_scene(run.engine().scene(), &types).unwrap().text,
        before
    );
}

#[test]
fn save_writes_a_file_that_load_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut run = run();
    let file = dir.path().join("level.json");
    run.app_mut().editor.file = file.clone();
    chord(&mut run, Key::S);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), EDITOR_LEVEL);
    assert!(run.app().editor.status().starts_with("saved"));
    // Edit, then load: the file's scene is back and the history is empty.
    let at = pixel_of(&run, Vec3::new(-1.5, 0.5, 0.5));
    click(&mut run, at);
    input(&mut run, InputEvent::KeyDown(Key::Backspace));
    assert!(crate_five(&run).is_none());
    let (engine, app) = run.parts_mut();
    app.editor.load(engine).unwrap();
    assert!(crate_five(&run).is_some());
    let camera = run.app().editor.editor_camera().unwrap();
    assert!(
        run.engine().scene().contains(camera),
        "load keeps the editor's camera"
    );
    assert_eq!(run.engine().camera(), Some(camera));
    assert_eq!(run.app().editor.history().undo_len(), 0);
    assert_eq!(run.app().editor.mode(), EditorMode::Editing);
}

#[test]
fn the_editor_draws_from_its_own_camera_and_gives_it_back() {
    let mut run = run();
    let game_camera = run.engine().scene().find_by_id(ObjectId(2)).unwrap();
    let editor_camera = run.app().editor.editor_camera().expect("made on open");
    assert_eq!(run.engine().camera(), Some(editor_camera));
    let game_pose = *run.engine().scene().transform(game_camera).unwrap();
    let before = *run.engine().scene().transform(editor_camera).unwrap();
    assert_eq!(
        before.position, game_pose.position,
        "placed where the game's is"
    );

    // A right-button drag turns the editor camera, not the game's.
    input(&mut run, InputEvent::MouseDown(MouseButton::Right));
    run.send(WindowEvent::MouseMotion {
        delta: Vec2::new(60.0, 0.0),
    })
    .unwrap();
    input(&mut run, InputEvent::MouseUp(MouseButton::Right));
    input(&mut run, InputEvent::Wheel(2.0));
    let after = *run.engine().scene().transform(editor_camera).unwrap();
    assert_ne!(after.rotation, before.rotation);
    assert_ne!(after.position, before.position);
    assert_eq!(
        *run.engine().scene().transform(game_camera).unwrap(),
        game_pose
    );

    // Playing draws from the game's camera; stopping goes back.
    let (engine, app) = run.parts_mut();
    app.editor.play(engine);
    assert_eq!(engine.camera(), Some(game_camera));
    app.editor.stop(engine);
    assert_eq!(engine.camera(), Some(editor_camera));

    // F1 closes the editor: its camera is gone, the game's draws.
    input(&mut run, InputEvent::KeyDown(Key::F1));
    assert!(!run.app().editor.is_open());
    assert!(!run.engine().scene().contains(editor_camera));
    assert_eq!(run.engine().camera(), Some(game_camera));
    assert!(!run.engine_mut().game_loop().is_paused(), "the game runs");
}

#[test]
fn the_arrows_also_turn_and_scale() {
    let mut run = run();
    let (engine, app) = run.parts_mut();
    app.editor.select(Some(ObjectId(5)));
    let crate_ = engine.scene().find_by_id(ObjectId(5)).unwrap();
    let start = *engine.scene().transform(crate_).unwrap();
    let tip = |axis: Vec3, app: &EditorSample, engine: &taos_engine::Engine| {
        app.editor
            .gizmo(engine)
            .into_iter()
            .find(|(a, _, _)| *a == axis)
            .unwrap()
            .2
    };

    app.editor.gizmo_mode = GizmoMode::Scale;
    let x = tip(Vec3::X, app, engine);
    assert!(app.editor.begin_axis_drag(engine, Vec3::X, x));
    app.editor
        .drag_to(engine, x + Vec2::new(40.0, 0.0))
        .unwrap();
    app.editor.end_drag();
    let scaled = *engine.scene().transform(crate_).unwrap();
    assert!(scaled.scale.x > 1.2, "{}", scaled.scale);
    assert_eq!((scaled.scale.y, scaled.scale.z), (1.0, 1.0));
    assert_eq!(scaled.position, start.position);

    app.editor.gizmo_mode = GizmoMode::Rotate;
    let y = tip(Vec3::Y, app, engine);
    assert!(app.editor.begin_axis_drag(engine, Vec3::Y, y));
    app.editor
        .drag_to(engine, y + Vec2::new(0.0, -30.0))
        .unwrap();
    app.editor.end_drag();
    let turned = *engine.scene().transform(crate_).unwrap();
    let (axis, angle) = (turned.rotation * start.rotation.inverse()).to_axis_angle();
    assert!(angle > 0.1, "turned by {angle}");
    assert!(axis.y.abs() > 0.999, "about Y: {axis}");
    assert_eq!(turned.position, start.position);
    // Two drags, two undo steps.
    assert_eq!(app.editor.history().undo_len(), 2);
}

#[test]
fn create_a_built_in_cube_pick_it_and_load_it_in_another_engine() {
    let mut run = run();
    let steps = run.app().editor.history().undo_len();
    let (engine, app) = run.parts_mut();
    app.editor.select(None);
    let id = app.editor.create(engine, Some(Shape::Cube)).unwrap();
    assert_eq!(app.editor.selected(), Some(id), "the new cube is selected");
    let cube = engine.scene().find_by_id(id).unwrap();
    let renderer = engine.scene().get_component::<MeshRenderer>(cube).unwrap();
    assert_eq!(renderer.mesh, engine.shape_mesh(Shape::Cube).handle());
    assert_eq!(renderer.material, engine.default_material().handle());
    assert_eq!(app.editor.history().undo_len(), steps + 1, "one undo step");

    // It is drawn where it was put: a click there picks it.
    let at = run.engine().scene().world_position(cube).unwrap();
    assert_eq!(click_after_a_frame(&mut run, at), Some(id));

    // Saved by the built-in names, it loads into an engine that has none of
    // the sample's assets.
    let types = SceneTypes::default();
    let text = save_subtree(run.engine().scene(), &types, cube)
        .unwrap()
        .text;
    assert!(
        text.contains(r#""mesh":"taos.cube","material":"taos.default""#),
        "{text}"
    );
    let mut other = bare_engine();
    let loaded = load_scene(other.scene_mut(), &text, "cube.json", &types, None).unwrap();
    let renderer = other
        .scene()
        .get_component::<MeshRenderer>(loaded.roots[0])
        .unwrap();
    assert_eq!(renderer.mesh, other.shape_mesh(Shape::Cube).handle());

    // Undo takes the whole creation back.
    chord(&mut run, Key::Z);
    assert!(run.engine().scene().find_by_id(id).is_none());
    assert_eq!(run.app().editor.history().undo_len(), steps);
}

#[test]
fn add_a_gltf_model_save_it_as_its_path_and_load_it_elsewhere() {
    let models = tempfile::tempdir().unwrap();
    let path = test_models::textured_box(models.path()).unwrap();
    let file_name = path.file_name().unwrap().to_str().unwrap().to_owned();
    let mut run = run();
    let (engine, app) = run.parts_mut();
    app.editor.model_folder = Some(models.path().to_owned());
    app.editor.select(None);
    let objects_before = save_scene(engine.scene(), &SceneTypes::default()).unwrap();

    // A path leaving the model folder is refused; nothing is made.
    let refused = app.editor.add_model(engine, "../secret.gltf");
    assert!(
        matches!(refused, Err(EditError::Component { .. })),
        "{refused:?}"
    );
    assert_eq!(
        save_scene(engine.scene(), &SceneTypes::default())
            .unwrap()
            .text,
        objects_before.text
    );

    let id = app.editor.add_model(engine, &file_name).unwrap();
    let owner = engine.scene().find_by_id(id).unwrap();
    let parts: Vec<GameObject> = engine.scene().children(owner).collect();
    assert_eq!(
        parts.len(),
        1,
        "the model's root under the object: {}",
        app.editor.status()
    );
    assert!(
        engine
            .scene()
            .get_component::<ModelPart>(parts[0])
            .is_some()
    );

    // Clicking the model selects the object showing it.
    let at = engine.scene().world_position(owner).unwrap();
    assert_eq!(click_after_a_frame(&mut run, at), Some(id));

    // The file holds the path, not the model's objects.
    let types = SceneTypes::default();
    let text = save_scene(run.engine().scene(), &types).unwrap().text;
    assert!(
        text.contains(&format!(r#""taos.Model": {{"path":"{file_name}"}}"#)),
        "{text}"
    );
    assert_eq!(
        text.matches("\"id\":").count(),
        objects_before.text.matches("\"id\":").count() + 1
    );
    let subtree = save_subtree(run.engine().scene(), &types, owner)
        .unwrap()
        .text;

    // Another engine loads it and spawns the model from the folder; a
    // missing folder is an error naming the object, nothing else is lost.
    let mut other = bare_engine();
    load_scene(other.scene_mut(), &subtree, "model.json", &types, None).unwrap();
    let missing = other.spawn_model_files(&models.path().join("elsewhere"));
    assert_eq!(missing.errors.len(), 1);
    assert_eq!(missing.errors[0].object, id);
    assert!(other.scene().find_by_id(id).is_some(), "the object stays");
    // Only a changed ModelFile is tried again.
    assert!(other.spawn_model_files(models.path()).errors.is_empty());
    let object = other.scene().find_by_id(id).unwrap();
    other
        .scene_mut()
        .add_component(
            object,
            ModelFile::new(file_name.as_str())
                .unwrap()
                .with_autoplay(true),
        )
        .unwrap();
    let report = other.spawn_model_files(models.path());
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.spawned.len(), 1);
    assert_eq!(other.scene().children(object).count(), 1);

    // Undo takes the object and its model away.
    chord(&mut run, Key::Z);
    assert!(run.engine().scene().find_by_id(id).is_none());
    assert!(!run.engine().scene().contains(parts[0]));
}

#[test]
fn dragging_a_hierarchy_row_onto_another_reparents_as_one_undo_step() {
    let mut run = run();
    run.frame().unwrap();
    let crate_ = crate_five(&run).unwrap();
    let world_before = run.engine().scene().world_position(crate_).unwrap();
    let editor = &run.app().editor;
    let from = editor.hierarchy_row(ObjectId(5)).expect("the crate's row");
    let to = editor.hierarchy_row(ObjectId(3)).expect("the ground's row");
    // Press on the crate's row, drag it over the ground's row, release.
    input(&mut run, InputEvent::CursorMoved(from));
    input(&mut run, InputEvent::MouseDown(MouseButton::Left));
    run.frame().unwrap();
    for step in 1..=6 {
        let at = from + (to - from) * (step as f32 / 6.0);
        input(&mut run, InputEvent::CursorMoved(at));
        run.frame().unwrap();
    }
    input(&mut run, InputEvent::MouseUp(MouseButton::Left));
    run.frame().unwrap();
    let scene = run.engine().scene();
    let ground = scene.find_by_id(ObjectId(3)).unwrap();
    assert_eq!(scene.parent(crate_), Some(ground), "under the ground now");
    let world_after = scene.world_position(crate_).unwrap();
    assert!(world_after.abs_diff_eq(world_before, 1e-5), "it stays put");
    chord(&mut run, Key::Z);
    let scene = run.engine().scene();
    assert_eq!(scene.parent(crate_), scene.find_by_id(ObjectId(4)));
}

#[test]
fn dragging_a_rotate_ring_a_quarter_round_turns_about_that_axis_only() {
    let mut run = run();
    run.app_mut().editor.select(Some(ObjectId(5)));
    run.app_mut().editor.snap_degrees = 45.0;
    input(&mut run, InputEvent::KeyDown(Key::E));
    assert_eq!(run.app().editor.gizmo_mode, GizmoMode::Rotate);
    run.frame().unwrap();
    let crate_ = crate_five(&run).unwrap();
    let before = *run.engine().scene().transform(crate_).unwrap();
    let rings = run.app().editor.rings(run.engine());
    let (_, y_ring) = rings.iter().find(|(axis, _)| *axis == Vec3::Y).unwrap();
    assert!(y_ring.len() > 40, "the ring is on screen");
    // Grab the ring at one point and sweep a quarter of the way round.
    let (start, quarter) = (y_ring[0], y_ring[12]);
    assert_eq!(
        run.app().editor.ring_at(run.engine(), start),
        Some(Vec3::Y),
        "the Y ring is under its own point"
    );
    input(&mut run, InputEvent::CursorMoved(start));
    input(&mut run, InputEvent::MouseDown(MouseButton::Left));
    for &point in &y_ring[1..=12] {
        input(&mut run, InputEvent::CursorMoved(point));
    }
    input(&mut run, InputEvent::CursorMoved(quarter));
    input(&mut run, InputEvent::MouseUp(MouseButton::Left));
    let after = *run.engine().scene().transform(crate_).unwrap();
    let turn = after.rotation * before.rotation.inverse();
    let (axis, angle) = turn.to_axis_angle();
    assert!(
        (angle.to_degrees() - 90.0).abs() < 0.01,
        "a quarter turn, snapped: {}",
        angle.to_degrees()
    );
    assert!(axis.abs().abs_diff_eq(Vec3::Y, 1e-4), "about Y: {axis}");
    assert_eq!(after.position, before.position);
    assert_eq!(
        run.app().editor.selected(),
        Some(ObjectId(5)),
        "the drag did not pick"
    );
    chord(&mut run, Key::Z);
    assert_eq!(*run.engine().scene().transform(crate_).unwrap(), before);
}

#[test]
fn f_frames_the_selection_from_where_the_editor_camera_looks() {
    let mut run = run();
    run.app_mut().editor.select(Some(ObjectId(5)));
    // Far off and turned a little: the crate is small and off-centre.
    let (engine, app) = run.parts_mut();
    app.editor.dolly(engine, -40.0);
    app.editor.look(engine, Vec2::new(30.0, 10.0));
    let camera = app.editor.editor_camera().unwrap();
    let facing = engine.scene().transform(camera).unwrap().rotation;
    input(&mut run, InputEvent::KeyDown(Key::F));
    let scene = run.engine().scene();
    assert_eq!(
        scene.transform(camera).unwrap().rotation,
        facing,
        "it keeps its direction"
    );
    let crate_ = crate_five(&run).unwrap();
    let centre = run.engine().scene().world_position(crate_).unwrap();
    let middle = Vec2::new(SIZE.0 as f32, SIZE.1 as f32) * 0.5;
    assert!(
        pixel_of(&run, centre).distance(middle) < 2.0,
        "the crate is in the middle: {}",
        pixel_of(&run, centre)
    );
    // The unit crate's corners are all in view, and it fills a good part.
    let corners: Vec<Vec2> = (0..8)
        .map(|i| {
            let offset = Vec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            );
            pixel_of(&run, centre + offset)
        })
        .collect();
    for corner in &corners {
        assert!(
            corner.x > 0.0
                && corner.y > 0.0
                && corner.x < SIZE.0 as f32
                && corner.y < SIZE.1 as f32,
            "{corner} is in view"
        );
    }
    let height = corners.iter().map(|c| c.y).fold(f32::MIN, f32::max)
        - corners.iter().map(|c| c.y).fold(f32::MAX, f32::min);
    assert!(
        height > SIZE.1 as f32 * 0.3,
        "it fills the view: {height} px tall"
    );
}

#[test]
fn while_the_game_plays_its_keys_are_its_own() {
    let mut run = run();
    let (engine, app) = run.parts_mut();
    app.editor.select(Some(ObjectId(5)));
    app.editor.play(engine);
    for key in [Key::W, Key::E, Key::F, Key::Backspace] {
        let event = WindowEvent::Input {
            event: InputEvent::KeyDown(key),
            ui_consumed: false,
        };
        assert_eq!(
            app.editor.window_event(engine, &event),
            Propagate::Continue,
            "{key:?} reaches the game"
        );
    }
    assert!(
        engine.scene().find_by_id(ObjectId(5)).is_some(),
        "Backspace deleted nothing"
    );
    assert_eq!(app.editor.gizmo_mode, GizmoMode::Move);
    // F1 is still the editor's.
    let f1 = WindowEvent::Input {
        event: InputEvent::KeyDown(Key::F1),
        ui_consumed: false,
    };
    assert_eq!(app.editor.window_event(engine, &f1), Propagate::Stop);
}
