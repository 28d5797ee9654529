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

// One file per part of the editor: its own camera (camera.rs), clicks that
// pick an object (picking.rs), the arrows and their drags (gizmo.rs), the
// rotate rings (rings.rs), keys and clicks (input.rs), undo and redo
// (history.rs), play mode (play_mode.rs), Save and Load (files.rs), Create
// (create.rs), framing the selection (frame.rs); the window and toolbar
// (panels.rs) with its hierarchy (hierarchy.rs) and inspector (inspector.rs).
mod camera;
mod create;
mod files;
mod frame;
mod gizmo;
mod hierarchy;
mod history;
mod input;
mod inspector;
mod panels;
mod picking;
mod play_mode;
mod reload;
mod rings;

pub use files::{EditorFileError, SceneFileIoError, read_scene_file, write_scene_file};
pub use gizmo::{GIZMO_PIXELS, GizmoMode};
pub use reload::{LevelReload, LevelReloadReport};
pub use rings::RING_GRAB_PIXELS;

use std::path::PathBuf;

use glam::Vec2;

use crate::edit::EditHistory;
use crate::game_loop::Snapshot;
use crate::scene_file::SceneTypes;
use crate::{Engine, ObjectId};
use camera::EditorCamera;
use gizmo::AxisDrag;
use hierarchy::HierarchyRows;
use inspector::InspectorDrafts;

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
    /// The editor's own camera.
    view: EditorCamera,
    /// What the inspector's fields hold while they are edited.
    drafts: InspectorDrafts,
    /// The path typed in "Add model".
    model_draft: String,
    /// The hierarchy's rows as last drawn, and the one being dragged.
    rows: HierarchyRows,
    /// What a reload of the level from disk keeps (hot reload, or
    /// [`reload_level`](Self::reload_level)).
    pub reload_mode: LevelReload,
    /// Each root's subtree as last loaded, saved or reloaded.
    baseline: reload::Baseline,
    /// The file's text as last loaded, saved or reloaded: a change to the
    /// file that leaves this text (the editor's own save) reloads nothing.
    last_text: Option<String>,
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
            view: EditorCamera::default(),
            drafts: InspectorDrafts::default(),
            model_draft: String::new(),
            rows: HierarchyRows::default(),
            reload_mode: LevelReload::default(),
            baseline: reload::Baseline::new(),
            last_text: None,
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
        self.view.looking = false;
        if let Some(camera) = self.view.object.take() {
            let _ = engine.scene_mut().remove(camera);
        }
        engine.set_camera(self.view.game.take());
        engine.game_loop().resume();
    }

    /// The editor's camera while it is open (left out of scene files).
    #[must_use]
    pub fn editor_camera(&self) -> Option<crate::GameObject> {
        self.view.object
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

    /// Draws the editor (when open): the panels, and the gizmo over the
    /// selection. Call from [`App::ui`](crate::App::ui).
    pub fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        if !self.open {
            return;
        }
        self.follow_file_changes(engine);
        self.draw_gizmo(engine, ui);
        self.sync_models(engine);
        panels::editor_window(self, engine, ui);
    }
}
