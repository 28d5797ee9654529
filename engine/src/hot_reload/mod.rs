//! Hot reload: files changed on disk (or pushed by the browser's dev
//! server) take effect in the running game, without a restart and without
//! losing the state the game was in.
//!
//! - `watcher.rs`: the OS's file watcher, and the quiet time that turns an
//!   editor's save burst into one change;
//! - `models.rs`: glTF models loaded from a path: every instance is
//!   rebuilt in place, keeping its root object (transform, parent, the
//!   game's components and children);
//! - `textures.rs`: textures loaded from a path, replaced under the same id
//!   (every material using them rebinds);
//! - `sounds.rs`: sound clips loaded from a path: voices playing finish the
//!   old clip, new ones use the new;
//! - shaders: the renderer's [`ShaderLibrary`](taos_renderer::shaders::ShaderLibrary)
//!   rebuilds the features whose WGSL changed, keeping the last pipelines
//!   that compiled when the new source does not;
//! - scene files: the editor reloads its level as an undo step
//!   ([`Editor::reload_level`](crate::editor::Editor::reload_level)).
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use taos_engine::{Engine, EngineConfig};
//! # let mut engine = Engine::headless(EngineConfig::new(64, 64), |_| {})?;
//! engine.hot_reload_mut().set_enabled(true);
//! engine.hot_reload_mut().watch(std::path::Path::new("assets"))?;
//! // Every frame from now on applies what changed since the last one.
//! engine.frame()?;
//! for event in engine.hot_reload().recent() {
//!     println!("{event}");
//! }
//! # Ok(()) }
//! ```

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use web_time::{Duration, Instant};

mod models;
mod sounds;
mod textures;
mod watcher;
#[cfg(target_arch = "wasm32")]
mod web;

pub use models::{ReloadableModel, model_dependencies};
pub use sounds::WatchedSound;
pub use textures::WatchedTexture;
pub use watcher::{FileWatcher, QUIET, WatchError};
#[cfg(target_arch = "wasm32")]
pub use web::PageChanges;

/// How many reload events [`HotReload::recent`] keeps.
const RECENT: usize = 32;

/// What a changed file became.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReloadKind {
    /// A glTF model (or one of its buffers or images): this many instances
    /// were rebuilt.
    Model {
        /// Instances rebuilt.
        instances: usize,
    },
    /// A texture, replaced under its id.
    Texture,
    /// A sound clip, replaced for new voices.
    Sound,
    /// A WGSL file: these render features were rebuilt.
    Shader {
        /// The features' names.
        features: Vec<&'static str>,
    },
    /// A scene file (the editor's level).
    Scene,
}

/// One file's reload, or why it failed (the old version stays in use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadEvent {
    /// The file that changed.
    pub path: PathBuf,
    /// What it was reloaded as, or the error (the old version kept).
    pub outcome: Result<ReloadKind, String>,
    /// How long the reload took.
    pub took: Duration,
}

impl std::fmt::Display for ReloadEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        let ms = self.took.as_secs_f64() * 1e3;
        match &self.outcome {
            Ok(ReloadKind::Model { instances }) => {
                write!(
                    f,
                    "reloaded model {path} ({instances} instances, {ms:.1} ms)"
                )
            }
            Ok(ReloadKind::Texture) => write!(f, "reloaded texture {path} ({ms:.1} ms)"),
            Ok(ReloadKind::Sound) => write!(f, "reloaded sound {path} ({ms:.1} ms)"),
            Ok(ReloadKind::Shader { features }) => write!(
                f,
                "reloaded shader {path} ({}; {ms:.1} ms)",
                features.join(", ")
            ),
            Ok(ReloadKind::Scene) => write!(f, "reloaded scene {path} ({ms:.1} ms)"),
            Err(error) => write!(f, "{path}: {error} (the previous version stays)"),
        }
    }
}

/// Whether hot reload is on by default: in debug builds of a windowed
/// game, unless `TAOS_HOT_RELOAD=0`; in release builds only with
/// `TAOS_HOT_RELOAD=1` (or [`HotReload::set_enabled`]). A headless engine
/// (tests, tools) starts with it off.
#[must_use]
pub fn enabled_by_default() -> bool {
    match std::env::var("TAOS_HOT_RELOAD").ok().as_deref() {
        Some("0" | "off" | "false") => false,
        Some("1" | "on" | "true") => true,
        _ => cfg!(debug_assertions),
    }
}

/// The engine's hot-reload state: the watcher, the files registered for
/// reloading, and what was reloaded lately. Reached through
/// [`Engine::hot_reload`](crate::Engine::hot_reload) and
/// [`Engine::hot_reload_mut`](crate::Engine::hot_reload_mut).
#[derive(Debug, Default)]
pub struct HotReload {
    enabled: bool,
    watcher: Option<FileWatcher>,
    /// Changes given by hand ([`file_changed`](Self::file_changed)).
    pushed: Vec<PathBuf>,
    pub(crate) textures: Vec<WatchedTexture>,
    pub(crate) sounds: Vec<WatchedSound>,
    recent: VecDeque<ReloadEvent>,
    /// The events of the last frame that reloaded something.
    last: Vec<ReloadEvent>,
    /// Paths applied by the last frame (the editor looks for its level here).
    changed: Vec<PathBuf>,
    /// Whether the folders of the renderer's WGSL files are watched.
    pub(crate) shaders_watched: bool,
    /// Models being read again through `Assets` (in the browser).
    pub(crate) fetching: Vec<models::FetchingModel>,
    /// Paths the page's dev-server glue reported (in the browser).
    #[cfg(target_arch = "wasm32")]
    page: Option<web::PageChanges>,
}

impl HotReload {
    /// Hot reload in the state [`enabled_by_default`] says.
    #[must_use]
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            ..Self::default()
        }
    }

    /// Whether changes are applied.
    #[must_use]
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Turns applying changes on or off. Turning it off drops the watcher;
    /// what was registered stays registered.
    pub fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
        if !enabled {
            self.watcher = None;
            self.shaders_watched = false;
        }
    }

    /// Watches `folder` and everything under it (natively), turning hot
    /// reload on. Files registered for reloading (models and textures
    /// loaded by path) have their folders watched without this call.
    ///
    /// # Errors
    /// [`WatchError`]: the folder cannot be watched, or this platform has
    /// no watcher (the browser: the dev server pushes changes instead).
    pub fn watch(&mut self, folder: &Path) -> Result<(), WatchError> {
        self.enabled = true;
        if self.watcher.is_none() {
            self.watcher = Some(FileWatcher::new()?);
        }
        match &mut self.watcher {
            Some(watcher) => watcher.watch(folder),
            None => Err(WatchError::Unsupported),
        }
    }

    /// Watches the folder holding `file`, if hot reload is on (natively;
    /// a failure is logged and the game goes on).
    pub fn watch_folder_of(&mut self, file: &Path) {
        if !self.enabled || cfg!(target_arch = "wasm32") {
            return;
        }
        let Some(folder) = file.parent().filter(|f| !f.as_os_str().is_empty()) else {
            return;
        };
        let folder = folder.canonicalize().unwrap_or_else(|_| folder.to_owned());
        if self
            .watcher
            .as_ref()
            .is_some_and(|w| w.folders().iter().any(|f| folder.starts_with(f)))
        {
            return;
        }
        if let Err(error) = self.watch(&folder) {
            log::warn!("hot reload: {error}");
        }
    }

    /// Tells hot reload that `path` changed: what the browser's dev server
    /// glue calls, and what a game or a test may call to reload a file
    /// now. Applied on the next frame (when hot reload is on).
    pub fn file_changed(&mut self, path: impl Into<PathBuf>) {
        self.pushed.push(path.into());
    }

    /// Whether frames must look for changes: hot reload is on, or (in the
    /// browser) the page may push the first change that turns it on.
    #[must_use]
    pub fn is_listening(&self) -> bool {
        #[cfg(target_arch = "wasm32")]
        if self.page.is_some() {
            return true;
        }
        self.enabled
    }

    /// Whether a change is waiting (settling in the watcher, pushed, or a
    /// model being read again).
    #[must_use]
    pub fn has_pending(&self) -> bool {
        !self.pushed.is_empty()
            || !self.fetching.is_empty()
            || self.watcher.as_ref().is_some_and(FileWatcher::is_settling)
    }

    /// In the browser: listens for the changes `taos web serve --watch`
    /// pushes to the page (the `taos-asset-changed` event the page's glue
    /// dispatches); the first one turns hot reload on. Natively nothing
    /// (the file watcher does this).
    pub fn listen_to_page(&mut self) {
        #[cfg(target_arch = "wasm32")]
        if self.page.is_none() {
            self.page = Some(web::PageChanges::listen());
        }
    }

    /// The changes due now: settled watcher events and pushed paths, each
    /// once, canonical where the file exists.
    pub(crate) fn take_due(&mut self, now: Instant) -> Vec<PathBuf> {
        #[cfg(target_arch = "wasm32")]
        if let Some(page) = &self.page {
            let from_page = page.take();
            if !from_page.is_empty() {
                // The dev server pushes changes: the developer wants them.
                self.enabled = true;
                self.pushed.extend(from_page.into_iter().map(PathBuf::from));
            }
        }
        if !self.enabled {
            return Vec::new();
        }
        let mut due: Vec<PathBuf> = self
            .watcher
            .as_ref()
            .map(|w| w.take_settled(now))
            .unwrap_or_default();
        due.append(&mut self.pushed);
        let mut due: Vec<PathBuf> = due.into_iter().map(|p| canonical(&p)).collect();
        due.sort();
        due.dedup();
        due
    }

    /// Records what a frame's reload did (logged too).
    pub(crate) fn record(&mut self, changed: Vec<PathBuf>, events: Vec<ReloadEvent>) {
        for event in &events {
            match &event.outcome {
                Ok(_) => log::info!("hot reload: {event}"),
                Err(_) => log::warn!("hot reload: {event}"),
            }
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(event.clone());
        }
        self.changed = changed;
        self.last = events;
    }

    /// The files the last frame applied (every changed path, reloaded by
    /// something or not): the editor checks for its level here.
    #[must_use]
    pub fn changed_last_frame(&self) -> &[PathBuf] {
        &self.changed
    }

    /// What the last frame that applied changes reloaded.
    #[must_use]
    pub fn last_events(&self) -> &[ReloadEvent] {
        &self.last
    }

    /// The latest reloads and failures, oldest first (at most 32): what
    /// the overlay shows.
    pub fn recent(&self) -> impl Iterator<Item = &ReloadEvent> {
        self.recent.iter()
    }

    /// The latest event, if it is a failure: the error the overlay keeps
    /// on screen until the file is fixed.
    #[must_use]
    pub fn current_error(&self) -> Option<&ReloadEvent> {
        self.recent.back().filter(|e| e.outcome.is_err())
    }
}

/// `path` made absolute and free of links where it exists, as the watcher
/// reports paths.
#[must_use]
pub fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| {
        if path.is_absolute() {
            path.to_owned()
        } else {
            std::env::current_dir().map_or_else(|_| path.to_owned(), |dir| dir.join(path))
        }
    })
}

impl crate::Engine {
    /// The hot-reload state: what was reloaded lately, the last error.
    #[must_use]
    pub fn hot_reload(&self) -> &HotReload {
        &self.hot_reload
    }

    /// Hot reload's switches: [`HotReload::set_enabled`],
    /// [`HotReload::watch`], [`HotReload::file_changed`].
    pub fn hot_reload_mut(&mut self) -> &mut HotReload {
        &mut self.hot_reload
    }

    /// Applies the changes that are due now (what every frame does first
    /// while hot reload is on): models, textures, sounds and shaders read
    /// from a changed file are reloaded in place. Returns what happened,
    /// also kept in [`HotReload::last_events`] and logged.
    pub fn apply_file_changes(&mut self) -> Vec<ReloadEvent> {
        if self.hot_reload.enabled && !self.hot_reload.shaders_watched {
            self.hot_reload.shaders_watched = true;
            for file in self.render.renderer.shader_files_on_disk() {
                self.hot_reload.watch_folder_of(&file);
            }
        }
        let changed = self.hot_reload.take_due(Instant::now());
        let mut events = Vec::new();
        self.finish_fetched_models(&mut events);
        if changed.is_empty() && events.is_empty() {
            self.hot_reload.changed.clear();
            return Vec::new();
        }
        self.reload_models(&changed, &mut events);
        self.reload_textures(&changed, &mut events);
        self.reload_sounds(&changed, &mut events);
        self.reload_shaders(&changed, &mut events);
        self.hot_reload.record(changed, events.clone());
        self.request_redraw();
        events
    }

    /// Shows the latest hot-reload failure (a shader that does not
    /// compile, a model that does not load) over the game until the file
    /// is fixed: the overlay's part of hot reload.
    pub(crate) fn draw_reload_error(&self, ui: &egui::Ui) {
        let Some(event) = self.hot_reload.current_error() else {
            return;
        };
        egui::Area::new(egui::Id::unique("taos hot reload error"))
            .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
            .show(ui.ctx(), |ui| {
                egui::Frame::new()
                    .fill(egui::Color32::from_rgba_unmultiplied(60, 0, 0, 220))
                    .inner_margin(8.0)
                    .show(ui, |ui| {
                        ui.colored_label(egui::Color32::from_rgb(255, 200, 200), event.to_string());
                    });
            });
    }

    /// Rebuilds the render features whose WGSL files are in `changed`.
    fn reload_shaders(&mut self, changed: &[PathBuf], events: &mut Vec<ReloadEvent>) {
        for report in self.renderer().reload_shader_files(changed) {
            events.push(ReloadEvent {
                path: report.path,
                outcome: report
                    .outcome
                    .map(|features| ReloadKind::Shader { features }),
                took: report.took,
            });
        }
    }
}
