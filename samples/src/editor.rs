//! The `editor` sample: a small level loaded from a scene file
//! (`samples/assets/editor/level.json`: a ground, three crates, two
//! instances of a lamp-post prefab, one with a blue light), with the
//! editor open over it. F1 closes and opens it; click to select, drag the
//! arrows to move, Ctrl+Z to undo, Play to run and Stop to go back.
//!
//! The files are built into the sample (so it runs in the browser too);
//! Save and Load (Ctrl+S, Ctrl+O) use `level.json` in the working folder,
//! with prefabs from the sample's asset folder; in the browser they use
//! the page's local storage. The window's title shows the last save, load
//! or error.

use taos_engine::editor::{Editor, read_scene_file, write_scene_file};
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::scene_file::{LoadedScene, SceneTypes, load_scene_with};
use taos_engine::{App, AppError, Engine, EngineConfig, HeadlessApp, Propagate, WindowEvent, egui};

use crate::SampleArgs;

/// The level's scene file.
pub const EDITOR_LEVEL: &str = include_str!("../assets/editor/level.json");

/// The lamp-post prefab the level instances twice.
pub const LAMP_POST_PREFAB: &str = include_str!("../assets/editor/lamp_post.json");

/// The prefab files built into the sample, by the name scene files use.
///
/// # Errors
/// An unknown name.
pub fn editor_prefabs(source: &str) -> Result<String, String> {
    match source {
        "lamp_post.json" => Ok(LAMP_POST_PREFAB.to_owned()),
        other => Err(format!("the editor sample has no prefab {other:?}")),
    }
}

/// Creates and names the meshes and materials the level's files use:
/// `cube`, `sphere`; `grass`, `wood`, `iron`, `glow`.
///
/// # Errors
/// Never for these names (a name taken twice is an error).
pub fn editor_assets(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(0.5, 24, 12));
    let material = |color: Vec3, roughness: f32, emissive: Vec3| PbrMaterial {
        roughness,
        emissive,
        ..PbrMaterial::color(color)
    };
    let grass = assets.add_material(material(Vec3::new(0.25, 0.45, 0.2), 0.9, Vec3::ZERO));
    let wood = assets.add_material(material(Vec3::new(0.6, 0.4, 0.2), 0.8, Vec3::ZERO));
    let iron = assets.add_material(material(Vec3::new(0.2, 0.2, 0.22), 0.5, Vec3::ZERO));
    let glow = assets.add_material(material(Vec3::ONE, 0.3, Vec3::new(1.0, 0.85, 0.6)));
    engine.name_mesh("cube", cube)?;
    engine.name_mesh("sphere", sphere)?;
    for (name, material) in [
        ("grass", grass),
        ("wood", wood),
        ("iron", iron),
        ("glow", glow),
    ] {
        engine.name_material(name, material)?;
    }
    Ok(())
}

/// Fills `engine` with the level: its assets, then its scene file.
///
/// # Errors
/// If the level's file is refused (it is built in: a bug).
pub fn editor_level(engine: &mut Engine) -> anyhow::Result<LoadedScene> {
    editor_assets(engine)?;
    let types = SceneTypes::default();
    let loaded = load_scene_with(
        engine.scene_mut(),
        EDITOR_LEVEL,
        "level.json",
        &types,
        None,
        &mut editor_prefabs,
    )?;
    if let Some(problem) = loaded.problems.first() {
        anyhow::bail!("{problem}");
    }
    Ok(loaded)
}

/// The sample as an [`App`]: the level, with the editor open.
/// The window's title shows the editor's last message (a save, a load,
/// an error).
#[derive(Debug)]
pub struct EditorSample {
    /// The editor.
    pub editor: Editor,
    /// The status the title shows.
    shown_status: Option<String>,
}

impl Default for EditorSample {
    fn default() -> Self {
        let mut editor = Editor::new(taos_engine::scene_types(), "level.json");
        editor.prefab_folder = Some(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/editor").into());
        Self {
            editor,
            shown_status: None,
        }
    }
}

impl App for EditorSample {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        editor_level(engine).map_err(|e| -> AppError { format!("{e:#}").into() })?;
        if cfg!(target_arch = "wasm32") {
            // The page has no asset folder: Load finds the prefab where
            // Save and Load keep files there (local storage).
            let folder = self.editor.prefab_folder.clone().unwrap_or_default();
            let prefab = folder.join("lamp_post.json");
            if read_scene_file(&prefab).is_err() {
                write_scene_file(&prefab, LAMP_POST_PREFAB)?;
            }
        }
        self.editor.open(engine);
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        Ok(self.editor.window_event(engine, event))
    }

    fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        self.editor.ui(engine, ui);
        let status = self.editor.status();
        if self.shown_status.as_deref() != Some(status) {
            engine.set_title(&if status.is_empty() {
                "editor".to_owned()
            } else {
                format!("editor: {status}")
            });
            self.shown_status = Some(status.to_owned());
        }
    }
}

/// The editor window's size when `--size` is not given.
pub const EDITOR_SIZE: &str = "1024x640";

/// Runs the editor sample from its command line (the samples' shared
/// options, [`EDITOR_SIZE`] by default): in a window titled `editor`, or
/// with `--headless` offscreen for `--frames` frames (the editor's UI
/// drawn as in the window), the last saved to `--screenshot`.
///
/// # Errors
/// Whatever building the engine, the sample's start, rendering or saving
/// reported.
pub fn run_editor(args: &SampleArgs) -> anyhow::Result<()> {
    let config = EngineConfig::new(args.size.0, args.size.1);
    let preset = forward_preset(PresetOptions::default());
    if args.headless {
        let mut run = HeadlessApp::new(config, preset, EditorSample::default())?;
        for _ in 0..args.frames.max(1) {
            run.frame()?;
        }
        if let Some(path) = &args.screenshot {
            run.engine_mut().screenshot(path)?;
            println!("editor: wrote {}", path.display());
        }
        return Ok(());
    }
    Engine::run_app("editor", config, preset, EditorSample::default())?;
    Ok(())
}
