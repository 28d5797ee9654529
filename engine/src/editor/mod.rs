//! The in-engine editor: an overlay any [`App`](crate::App) can open over
//! its scene (a key, or a `--edit` flag the game reads), in a window or
//! headless.
//!
//! - **Hierarchy**: every object as a tree; click to select; create an
//!   empty object, duplicate, delete, enable or disable, move to the root;
//!   drag a row onto another to make it that object's child.
//! - **Inspector**: the selection's name, enabled flag, local transform
//!   (position, rotation in degrees, scale; drags merge into one undo
//!   step) and world position, and every registered component as its
//!   scene-file JSON, editable.
//! - **Viewport**: seen through the editor's own camera (placed where the
//!   game's is when the editor opens; a right-button drag turns it, the
//!   wheel moves it; left out of scene files). A click picks the object
//!   drawn there ([`Engine::pick`]: by bounds, then triangles); the
//!   selection shows X, Y and Z arrows, and dragging an arrow moves it
//!   along that axis only, turns it about the axis or scales it along the
//!   axis (W, E, R switch; snapped when a snap step is set); in rotate
//!   mode, rings too.
//! - **Undo and redo** of every edit ([`EditHistory`]), Ctrl+Z and Ctrl+Y.
//! - **Files**: save and load the scene as a scene file (prefabs read next
//!   to it).
//! - **Play mode**: play, pause, step and stop; stop puts the scene back as
//!   it was when play began (a [`Snapshot`]
//!   of the loop), like Unity's play mode. While editing, the loop is
//!   paused.
//!
//! A game forwards its [`App`](crate::App) hooks: `editor.ui(engine, ui)`
//! from [`App::ui`](crate::App::ui) and `editor.window_event(engine,
//! event)` from [`App::window_event`](crate::App::window_event). Keys:
//! F1 opens and closes it, Ctrl+Z undoes, Ctrl+Y (or Ctrl+Shift+Z)
//! redoes, Ctrl+D duplicates, Backspace deletes the selection, Ctrl+S
//! saves, Ctrl+O loads, F frames the selection (the editor camera moves
//! back along its view until the selection fills it).
//!
//! Files are read and written with [`read_scene_file`] and
//! [`write_scene_file`]: on disk natively (a save goes through a temporary
//! file and a rename, so a failed write leaves the old file whole), in the
//! page's local storage in the browser.
//!
//! - **Create**: an empty object, a built-in [`Shape`](crate::Shape), or a
//!   glTF model by its path in the model folder (stored in scene files as
//!   a [`ModelFile`](crate::scene_file::ModelFile)).
//!
//! In rotate mode (E) a ring about each axis is drawn too: dragging a ring
//! turns the selection by the angle the pointer sweeps around it (snapped
//! to [`snap_degrees`](Editor::snap_degrees)).

mod create;
mod files;
mod frame;
mod panels;
mod rings;

pub use files::{read_scene_file, write_scene_file};
pub use rings::RING_GRAB_PIXELS;

use std::path::PathBuf;

use glam::Vec2;

use crate::app::{Propagate, WindowEvent};
use crate::edit::viewport::{drag_on_axis, ray_through_pixel, snap};
use crate::edit::{EditCommand, EditError, EditHistory};
use crate::game_loop::{InputEvent, Key, MouseButton, Snapshot};
use crate::scene_file::{
    AssetNames, EditorOnly, ModelPart, SceneTypes, load_scene_with, save_scene,
};
use crate::{Engine, ObjectId, Transform};

/// What dragging a gizmo arrow does (W, E and R switch, as in most
/// editors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GizmoMode {
    /// Moves along the arrow's axis.
    #[default]
    Move,
    /// Turns about the arrow's axis (a metre of drag is a radian).
    Rotate,
    /// Scales along the arrow's axis (a metre of drag adds the object's
    /// size once).
    Scale,
}

/// What the editor is doing with the game loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorMode {
    /// Editing: the loop is paused.
    Editing,
    /// The game runs; edits are off until it stops.
    Playing,
    /// The game is paused in play mode (step advances one tick).
    Paused,
}

/// A drag of a gizmo arrow in progress.
#[derive(Debug, Clone, Copy)]
struct AxisDrag {
    axis: glam::Vec3,
    from_pixel: Vec2,
    start: Transform,
    gesture: u64,
    /// A rotate ring's drag (turns by the angle swept on screen), not an
    /// arrow's.
    ring: bool,
}

/// The editor's state: see the [module docs](self).
pub struct Editor {
    open: bool,
    types: SceneTypes,
    history: EditHistory,
    selected: Option<ObjectId>,
    mode: EditorMode,
    play_snapshot: Option<Snapshot>,
    /// The scene file that Save and Load use.
    pub file: PathBuf,
    /// The folder prefab files are read from (`None`: the scene file's).
    pub prefab_folder: Option<PathBuf>,
    /// The folder model files ([`ModelFile`](crate::scene_file::ModelFile))
    /// are read from (`None`: the scene file's).
    pub model_folder: Option<PathBuf>,
    /// The snap step for gizmo drags, in metres of drag (0: none).
    pub snap_step: f32,
    /// The snap step for turning by a rotate ring, in degrees (0: none).
    pub snap_degrees: f32,
    /// What dragging an arrow does.
    pub gizmo_mode: GizmoMode,
    status: String,
    gesture: u64,
    cursor: Vec2,
    control: bool,
    shift: bool,
    drag: Option<AxisDrag>,
    /// The gesture of the inspector field being dragged.
    field_gesture: Option<u64>,
    /// The editor's own camera while open, and the game's camera to go
    /// back to (`None`: the scene's first camera).
    camera: Option<crate::GameObject>,
    game_camera: Option<crate::GameObject>,
    /// The editor camera's turn, while the right button is held.
    looking: bool,
    yaw: f32,
    pitch: f32,
    /// Per-component JSON being edited in the inspector.
    drafts: std::collections::BTreeMap<String, String>,
    name_draft: Option<String>,
    /// The path typed in "Add model".
    model_draft: String,
    /// The hierarchy row being dragged (to drop on its new parent's row).
    row_drag: Option<ObjectId>,
    /// Where each hierarchy row was drawn in the last frame.
    row_rects: Vec<(ObjectId, egui::Rect)>,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("open", &self.open)
            .field("selected", &self.selected)
            .field("mode", &self.mode)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

/// How far (pixels) a gizmo arrow reaches from the selection's centre.
pub const GIZMO_PIXELS: f32 = 60.0;

impl Editor {
    /// A closed editor saving and loading `file`, knowing the component and
    /// behaviour types `types` registers.
    #[must_use]
    pub fn new(types: SceneTypes, file: impl Into<PathBuf>) -> Self {
        Self {
            open: false,
            types,
            history: EditHistory::default(),
            selected: None,
            mode: EditorMode::Editing,
            play_snapshot: None,
            file: file.into(),
            prefab_folder: None,
            model_folder: None,
            snap_step: 0.0,
            snap_degrees: 0.0,
            gizmo_mode: GizmoMode::Move,
            status: String::new(),
            gesture: 0,
            cursor: Vec2::ZERO,
            control: false,
            shift: false,
            drag: None,
            field_gesture: None,
            camera: None,
            game_camera: None,
            looking: false,
            yaw: 0.0,
            pitch: 0.0,
            drafts: std::collections::BTreeMap::new(),
            name_draft: None,
            model_draft: String::new(),
            row_drag: None,
            row_rects: Vec::new(),
        }
    }

    /// Whether the editor is showing.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Opens the editor: the game loop pauses (edit mode), and frames are
    /// drawn from the editor's own camera, placed where the game's is.
    pub fn open(&mut self, engine: &mut Engine) {
        if self.open {
            return;
        }
        self.open = true;
        self.mode = EditorMode::Editing;
        engine.game_loop().pause();
        self.spawn_camera(engine);
    }

    /// Closes the editor (stopping play mode first): the game's camera
    /// draws again and the game runs on.
    pub fn close(&mut self, engine: &mut Engine) {
        if !self.open {
            return;
        }
        if self.mode != EditorMode::Editing {
            self.stop(engine);
        }
        self.open = false;
        self.drag = None;
        self.looking = false;
        if let Some(camera) = self.camera.take() {
            let _ = engine.scene_mut().remove(camera);
        }
        engine.set_camera(self.game_camera.take());
        engine.game_loop().resume();
    }

    /// The editor's camera while it is open (left out of scene files).
    #[must_use]
    pub fn editor_camera(&self) -> Option<crate::GameObject> {
        self.camera
    }

    fn spawn_camera(&mut self, engine: &mut Engine) {
        let scene = engine.scene();
        let game = engine.camera();
        // The game's explicit choice, if it made one (else: the first camera).
        self.game_camera = game.filter(|&c| Some(c) != scene.find_camera());
        let (placement, lens) = game
            .and_then(|c| {
                let world = scene.world_matrix(c)?;
                let lens = scene.get_component::<crate::Camera>(c)?.clone();
                Some((world, lens))
            })
            .map_or_else(
                || {
                    let at = glam::Affine3A::from_translation(glam::Vec3::new(0.0, 3.0, 10.0));
                    let lens = crate::Camera::perspective(60.0, 0.1, 500.0, 16.0 / 9.0);
                    (at, lens.ok())
                },
                |(world, lens)| (world, Some(lens)),
            );
        let (_, rotation, position) = placement.to_scale_rotation_translation();
        let (yaw, pitch, _) = rotation.to_euler(glam::EulerRot::YXZ);
        (self.yaw, self.pitch) = (yaw, pitch);
        let scene = engine.scene_mut();
        let camera = scene.spawn_with(
            "Editor camera",
            Transform::from_trs(position, rotation.normalize(), glam::Vec3::ONE),
        );
        let _ = scene.add_component(camera, crate::scene_file::EditorOnly);
        if let Some(lens) = lens {
            let _ = scene.add_component(camera, lens);
        }
        engine.set_camera(Some(camera));
        self.camera = Some(camera);
    }

    /// Turns the editor camera by a mouse motion of `delta` pixels (what a
    /// right-button drag does).
    pub fn look(&mut self, engine: &mut Engine, delta: Vec2) {
        let Some(camera) = self.camera else {
            return;
        };
        self.yaw -= delta.x * 0.005;
        self.pitch = (self.pitch - delta.y * 0.005).clamp(-1.5, 1.5);
        let rotation = glam::Quat::from_euler(glam::EulerRot::YXZ, self.yaw, self.pitch, 0.0);
        if let Ok(mut object) = engine.scene_mut().object_mut(camera) {
            object.set_rotation(rotation);
        }
    }

    /// Moves the editor camera `metres` along its view (what the wheel does).
    pub fn dolly(&mut self, engine: &mut Engine, metres: f32) {
        let Some(camera) = self.camera else {
            return;
        };
        let scene = engine.scene_mut();
        let Some(t) = scene.transform(camera).copied() else {
            return;
        };
        let forward = t.rotation * glam::Vec3::NEG_Z;
        if let Ok(mut object) = scene.object_mut(camera) {
            object.set_position(t.position + forward * metres);
        }
    }

    /// The centre of `object`'s row in the hierarchy as last drawn, in
    /// output pixels (`None` when it was not drawn): where a test or a
    /// script points to click or drag it.
    #[must_use]
    pub fn hierarchy_row(&self, object: ObjectId) -> Option<Vec2> {
        self.row_rects
            .iter()
            .find(|(id, _)| *id == object)
            .map(|(_, rect)| Vec2::new(rect.center().x, rect.center().y))
    }

    /// The selected object's id.
    #[must_use]
    pub fn selected(&self) -> Option<ObjectId> {
        self.selected
    }

    /// Selects an object (or nothing).
    pub fn select(&mut self, object: Option<ObjectId>) {
        if self.selected != object {
            self.drafts.clear();
            self.name_draft = None;
        }
        self.selected = object;
    }

    /// The play mode.
    #[must_use]
    pub fn mode(&self) -> EditorMode {
        self.mode
    }

    /// The edit history.
    #[must_use]
    pub fn history(&self) -> &EditHistory {
        &self.history
    }

    /// The last message (an error, a save).
    #[must_use]
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Carries out an edit as an undo step (refused while the game plays).
    ///
    /// # Errors
    /// [`EditError`]; the scene is unchanged then.
    pub fn apply(&mut self, engine: &mut Engine, command: EditCommand) -> Result<(), EditError> {
        self.apply_in_gesture(engine, command, None)
    }

    fn apply_in_gesture(
        &mut self,
        engine: &mut Engine,
        command: EditCommand,
        gesture: Option<u64>,
    ) -> Result<(), EditError> {
        if self.mode != EditorMode::Editing {
            return Err(EditError::Playing);
        }
        let result =
            self.history
                .apply_in_gesture(engine.scene_mut(), &self.types, command, gesture);
        self.report(&result);
        if self
            .selected
            .is_some_and(|id| engine.scene().find_by_id(id).is_none())
        {
            self.select(None);
        }
        result
    }

    /// Undoes the last edit.
    ///
    /// # Errors
    /// As [`EditHistory::undo`].
    pub fn undo(&mut self, engine: &mut Engine) -> Result<(), EditError> {
        let result = self.history.undo(engine.scene_mut(), &self.types);
        self.report(&result);
        self.drafts.clear();
        result
    }

    /// Redoes the last undone edit.
    ///
    /// # Errors
    /// As [`EditHistory::redo`].
    pub fn redo(&mut self, engine: &mut Engine) -> Result<(), EditError> {
        let result = self.history.redo(engine.scene_mut(), &self.types);
        self.report(&result);
        self.drafts.clear();
        result
    }

    fn report<T>(&mut self, result: &Result<T, EditError>) {
        if let Err(error) = result {
            log::warn!("editor: {error}");
            self.status = error.to_string();
        }
    }

    /// Selects the object drawn at `pixel` (nothing over the sky).
    pub fn select_at(&mut self, engine: &Engine, pixel: Vec2) -> Option<ObjectId> {
        let scene = engine.scene();
        let picked = engine.pick(pixel).and_then(|hit| {
            // A model's part selects the object showing the model.
            let mut object = hit.object;
            while scene.get_component::<ModelPart>(object).is_some() {
                object = scene.parent(object)?;
            }
            scene.id(object)
        });
        self.select(picked);
        picked
    }

    /// Starts play mode: a snapshot of the loop is kept to stop back to.
    pub fn play(&mut self, engine: &mut Engine) {
        match self.mode {
            EditorMode::Editing => {
                self.play_snapshot = match engine.game_loop().snapshot() {
                    Ok(snapshot) => Some(snapshot),
                    Err(error) => {
                        self.status = format!("play: stop will not restore the scene ({error})");
                        None
                    }
                };
                self.drag = None;
                // The game's camera draws while it plays.
                if let Some(camera) = self.camera {
                    let _ = engine.scene_mut().set_enabled(camera, false);
                }
                engine.set_camera(self.game_camera);
            }
            EditorMode::Paused | EditorMode::Playing => {}
        }
        self.mode = EditorMode::Playing;
        engine.game_loop().resume();
    }

    /// Pauses play mode.
    pub fn pause(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Playing {
            self.mode = EditorMode::Paused;
            engine.game_loop().pause();
        }
    }

    /// Advances a paused game by one tick.
    pub fn step(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Paused {
            engine.game_loop().step();
        }
    }

    /// Stops play mode: the scene goes back to how it was when play began.
    pub fn stop(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Editing {
            return;
        }
        engine.game_loop().pause();
        if let Some(snapshot) = self.play_snapshot.take()
            && let Err(error) = engine.game_loop().restore(&snapshot)
        {
            self.status = format!("stop: the scene could not be restored ({error})");
        }
        engine.game_loop().pause();
        self.mode = EditorMode::Editing;
        if let Some(camera) = self.camera {
            let _ = engine.scene_mut().set_enabled(camera, true);
            engine.set_camera(Some(camera));
        }
    }

    /// Saves the scene to [`file`](Self::file).
    ///
    /// # Errors
    /// The scene-file or file-system error, as text (also the status).
    pub fn save(&mut self, engine: &Engine) -> Result<(), String> {
        let result = save_scene(engine.scene(), &self.types)
            .map_err(|e| e.to_string())
            .and_then(|saved| {
                write_scene_file(&self.file, &saved.text)?;
                Ok(saved.skipped.len())
            });
        match &result {
            Ok(0) => self.status = format!("saved {}", self.file.display()),
            Ok(skipped) => {
                self.status = format!(
                    "saved {} ({skipped} unregistered behaviours left out)",
                    self.file.display()
                );
            }
            Err(error) => self.status = format!("save: {error}"),
        }
        result.map(|_| ())
    }

    /// Replaces the scene's objects with [`file`](Self::file)'s (prefabs
    /// read from the same folder). The history is cleared.
    ///
    /// # Errors
    /// The file-system or scene-file error, as text; the scene is left as
    /// it was then.
    pub fn load(&mut self, engine: &mut Engine) -> Result<(), String> {
        let result = read_scene_file(&self.file).and_then(|text| {
            let folder = self
                .prefab_folder
                .clone()
                .unwrap_or_else(|| self.file.parent().map(PathBuf::from).unwrap_or_default());
            let mut prefabs = |source: &str| read_scene_file(&folder.join(source));
            // Loaded into an empty copy first, so a bad file leaves the scene alone.
            let mut check = crate::Scene::new();
            if let Some(names) = engine.scene().world().get_resource::<AssetNames>() {
                check.world_mut().insert_resource(names.clone());
            }
            load_scene_with(
                &mut check,
                &text,
                &self.file.display().to_string(),
                &self.types,
                None,
                &mut prefabs,
            )
            .map_err(|e| e.to_string())?;
            let scene = engine.scene_mut();
            for root in scene.roots() {
                if scene.get_component::<EditorOnly>(root).is_none() {
                    let _ = scene.remove(root);
                }
            }
            load_scene_with(
                scene,
                &text,
                &self.file.display().to_string(),
                &self.types,
                None,
                &mut prefabs,
            )
            .map_err(|e| e.to_string())
        });
        match result {
            Ok(loaded) => {
                self.sync_models(engine);
                self.history.clear();
                self.select(None);
                self.status = format!(
                    "loaded {} ({} objects{})",
                    self.file.display(),
                    loaded.objects.len(),
                    if loaded.problems.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", {} problems: {}",
                            loaded.problems.len(),
                            loaded.problems[0]
                        )
                    }
                );
                Ok(())
            }
            Err(error) => {
                self.status = format!("load: {error}");
                Err(error)
            }
        }
    }

    /// Where the selection's gizmo arrows end on screen: `(axis, from,
    /// to)` for X, Y and Z, from the selection's centre.
    #[must_use]
    pub fn gizmo(&self, engine: &Engine) -> Vec<(glam::Vec3, Vec2, Vec2)> {
        let scene = engine.scene();
        let (Some(object), Some(camera)) = (
            self.selected.and_then(|id| scene.find_by_id(id)),
            scene.render_camera(),
        ) else {
            return Vec::new();
        };
        let Some(centre) = scene.world_position(object) else {
            return Vec::new();
        };
        let (w, h) = engine.output_size();
        let viewport = Vec2::new(w as f32, h as f32);
        let Some(from) = project(engine, camera, viewport, centre) else {
            return Vec::new();
        };
        [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z]
            .into_iter()
            .filter_map(|axis| {
                let tip = project(engine, camera, viewport, centre + axis * 0.01)?;
                let direction = (tip - from).try_normalize()?;
                Some((axis, from, from + direction * GIZMO_PIXELS))
            })
            .collect()
    }

    /// Starts dragging the selection along `axis` from `pixel`.
    pub fn begin_axis_drag(&mut self, engine: &Engine, axis: glam::Vec3, pixel: Vec2) -> bool {
        self.start_drag(engine, axis, pixel, false)
    }

    /// Starts a drag of an arrow or (`ring`) a rotate ring, from the
    /// selection's transform now.
    fn start_drag(&mut self, engine: &Engine, axis: glam::Vec3, pixel: Vec2, ring: bool) -> bool {
        let scene = engine.scene();
        let Some(start) = self
            .selected
            .and_then(|id| scene.find_by_id(id))
            .and_then(|object| scene.transform(object).copied())
        else {
            return false;
        };
        self.gesture += 1;
        self.drag = Some(AxisDrag {
            axis,
            from_pixel: pixel,
            start,
            gesture: self.gesture,
            ring,
        });
        true
    }

    /// Moves the dragged selection to where `pixel` puts it along the axis.
    ///
    /// # Errors
    /// As [`apply`](Self::apply).
    pub fn drag_to(&mut self, engine: &mut Engine, pixel: Vec2) -> Result<(), EditError> {
        let (Some(drag), Some(id)) = (self.drag, self.selected) else {
            return Ok(());
        };
        let scene = engine.scene();
        let (Some(object), Some(camera)) = (scene.find_by_id(id), scene.render_camera()) else {
            return Ok(());
        };
        if drag.ring {
            let Some(transform) = self.ring_turn(engine, &drag, pixel) else {
                return Ok(());
            };
            return self.apply_in_gesture(
                engine,
                EditCommand::SetTransform {
                    object: id,
                    transform,
                },
                Some(drag.gesture),
            );
        }
        let (w, h) = engine.output_size();
        let viewport = Vec2::new(w as f32, h as f32);
        let centre = scene.world_position(object).unwrap_or_default();
        let rays = (
            ray_through_pixel(scene, camera, viewport, drag.from_pixel),
            ray_through_pixel(scene, camera, viewport, pixel),
        );
        let (Some(from), Some(to)) = rays else {
            return Ok(());
        };
        // The axis is the world axis; the move is applied in the parent's
        // space (for a root, the same).
        let Some(moved) = drag_on_axis(&from, &to, centre, drag.axis) else {
            return Ok(());
        };
        let along = snap(moved.dot(drag.axis), self.snap_step);
        let parent_world = scene
            .parent(object)
            .and_then(|p| scene.world_matrix(p))
            .unwrap_or(glam::Affine3A::IDENTITY);
        let mut transform = drag.start;
        match self.gizmo_mode {
            GizmoMode::Move => {
                transform.position += parent_world.inverse().transform_vector3(drag.axis * along);
            }
            GizmoMode::Rotate => {
                // A metre of drag is a radian about the axis (in the
                // parent's space); snapping rounds the metres.
                let axis = parent_world
                    .inverse()
                    .transform_vector3(drag.axis)
                    .try_normalize()
                    .unwrap_or(drag.axis);
                transform.rotation =
                    (glam::Quat::from_axis_angle(axis, along) * drag.start.rotation).normalize();
            }
            GizmoMode::Scale => {
                // A metre of drag adds the object's own size along the axis.
                let index = drag.axis.abs().max_position();
                transform.scale[index] = (drag.start.scale[index] * (1.0 + along)).max(0.001);
            }
        }
        self.apply_in_gesture(
            engine,
            EditCommand::SetTransform {
                object: id,
                transform,
            },
            Some(drag.gesture),
        )
    }

    /// Ends a gizmo drag.
    pub fn end_drag(&mut self) {
        self.drag = None;
    }

    /// Handles a window event: the keys, clicks that pick, gizmo drags.
    /// Returns [`Propagate::Stop`] for what the editor used (the game does
    /// not see it).
    pub fn window_event(&mut self, engine: &mut Engine, event: &WindowEvent) -> Propagate {
        if let WindowEvent::MouseMotion { delta } = *event
            && self.open
            && self.looking
        {
            self.look(engine, delta);
            return Propagate::Stop;
        }
        let WindowEvent::Input { event, ui_consumed } = *event else {
            return Propagate::Continue;
        };
        match event {
            InputEvent::KeyDown(Key::ControlLeft | Key::ControlRight) => self.control = true,
            InputEvent::KeyUp(Key::ControlLeft | Key::ControlRight) => self.control = false,
            InputEvent::KeyDown(Key::ShiftLeft | Key::ShiftRight) => self.shift = true,
            InputEvent::KeyUp(Key::ShiftLeft | Key::ShiftRight) => self.shift = false,
            InputEvent::CursorMoved(at) => {
                self.cursor = at;
                if self.open && self.drag.is_some() {
                    let _ = self.drag_to(engine, at);
                    return Propagate::Stop;
                }
            }
            _ => {}
        }
        if ui_consumed {
            return Propagate::Continue;
        }
        if let InputEvent::KeyDown(Key::F1) = event {
            if self.open {
                self.close(engine);
            } else {
                self.open(engine);
            }
            return Propagate::Stop;
        }
        if !self.open || self.mode != EditorMode::Editing {
            // While the game plays (or is paused in play mode) its keys and
            // clicks are its own: only F1 is the editor's.
            return Propagate::Continue;
        }
        match event {
            InputEvent::KeyDown(Key::Z) if self.control && self.shift => {
                let _ = self.redo(engine);
            }
            InputEvent::KeyDown(Key::Z) if self.control => {
                let _ = self.undo(engine);
            }
            InputEvent::KeyDown(Key::Y) if self.control => {
                let _ = self.redo(engine);
            }
            InputEvent::KeyDown(Key::D) if self.control => {
                if let Some(object) = self.selected {
                    let _ = self.apply(engine, EditCommand::Duplicate { object });
                }
            }
            InputEvent::KeyDown(Key::S) if self.control => {
                let _ = self.save(engine);
            }
            InputEvent::KeyDown(Key::O) if self.control => {
                let _ = self.load(engine);
            }
            InputEvent::KeyDown(Key::F) if !self.control => {
                self.frame_selection(engine);
            }
            InputEvent::KeyDown(Key::W) if !self.control => self.gizmo_mode = GizmoMode::Move,
            InputEvent::KeyDown(Key::E) if !self.control => self.gizmo_mode = GizmoMode::Rotate,
            InputEvent::KeyDown(Key::R) if !self.control => self.gizmo_mode = GizmoMode::Scale,
            InputEvent::KeyDown(Key::Backspace) => {
                if let Some(object) = self.selected {
                    let _ = self.apply(engine, EditCommand::Delete { object });
                }
            }
            InputEvent::MouseDown(MouseButton::Left) if self.mode == EditorMode::Editing => {
                let handle = self
                    .gizmo(engine)
                    .into_iter()
                    .find(|&(_, _, tip)| tip.distance(self.cursor) < 10.0);
                let ring = (self.gizmo_mode == GizmoMode::Rotate && handle.is_none())
                    .then(|| self.ring_at(engine, self.cursor))
                    .flatten();
                match (handle, ring) {
                    (Some((axis, _, _)), _) => {
                        self.begin_axis_drag(engine, axis, self.cursor);
                    }
                    (None, Some(axis)) => {
                        self.begin_ring_drag(engine, axis, self.cursor);
                    }
                    (None, None) => {
                        self.select_at(engine, self.cursor);
                    }
                }
            }
            InputEvent::MouseUp(MouseButton::Left) => self.end_drag(),
            InputEvent::MouseDown(MouseButton::Right) if self.mode == EditorMode::Editing => {
                self.looking = true;
            }
            InputEvent::MouseUp(MouseButton::Right) => self.looking = false,
            InputEvent::Wheel(lines) if self.mode == EditorMode::Editing => {
                self.dolly(engine, lines * 0.5);
            }
            _ => return Propagate::Continue,
        }
        Propagate::Stop
    }

    /// Draws the editor (when open): the panels, and the gizmo over the
    /// selection. Call from [`App::ui`](crate::App::ui).
    pub fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        if !self.open {
            return;
        }
        let painter = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::unique("taos-editor-gizmo"),
        ));
        if self.gizmo_mode == GizmoMode::Rotate {
            for (axis, points) in self.rings(engine) {
                let colour = axis_colour(axis);
                let points: Vec<egui::Pos2> = points.iter().map(|p| egui::pos2(p.x, p.y)).collect();
                painter.add(egui::Shape::line(points, egui::Stroke::new(2.0, colour)));
            }
        }
        for (axis, from, to) in self.gizmo(engine) {
            let colour = axis_colour(axis);
            let (a, b) = (egui::pos2(from.x, from.y), egui::pos2(to.x, to.y));
            painter.line_segment([a, b], egui::Stroke::new(3.0, colour));
            match self.gizmo_mode {
                GizmoMode::Move => {
                    painter.circle_filled(b, 6.0, colour);
                }
                GizmoMode::Rotate => {
                    painter.circle_stroke(b, 6.0, egui::Stroke::new(2.5, colour));
                }
                GizmoMode::Scale => {
                    painter.rect_filled(
                        egui::Rect::from_center_size(b, egui::vec2(11.0, 11.0)),
                        0.0,
                        colour,
                    );
                }
            }
        }
        self.sync_models(engine);
        panels::editor_window(self, engine, ui);
    }
}

/// The gizmo colour of a world axis: X red, Y green, Z blue.
fn axis_colour(axis: glam::Vec3) -> egui::Color32 {
    egui::Color32::from_rgb(
        (axis.x * 230.0) as u8 + 25,
        (axis.y * 200.0) as u8 + 25,
        (axis.z * 230.0) as u8 + 25,
    )
}

/// Where a world point is drawn, in output pixels.
fn project(
    engine: &Engine,
    camera: crate::GameObject,
    viewport: Vec2,
    point: glam::Vec3,
) -> Option<Vec2> {
    let scene = engine.scene();
    let lens = scene.get_component::<crate::Camera>(camera)?;
    let view = glam::Mat4::from(scene.world_matrix(camera)?.inverse());
    let clip = lens.projection_matrix() * view * point.extend(1.0);
    if clip.w <= 1e-6 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    Some(Vec2::new(
        (ndc.x + 1.0) * 0.5 * viewport.x,
        (1.0 - ndc.y) * 0.5 * viewport.y,
    ))
}
