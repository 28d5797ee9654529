//! The windowed viewer: an [`App`] that loads the model on a worker
//! thread, orbits it with the mouse, switches effects by turning their
//! features on and off, and rebuilds the features for another preset or MSAA.

use std::path::PathBuf;

use glam::Vec2;
use taos_engine::game_loop::{InputEvent, Key, LoopConfig, MouseButton};
use taos_engine::gltf::GltfSpawnOptions;
use taos_engine::{
    AnimationPlayer, App, AppError, Engine, EngineConfig, GameObject, Propagate, WindowEvent, egui,
};

use super::cameras::CameraCycle;
use super::clips::{apply_clip_action, clip_panel};
use super::skeleton::Skeleton;
use super::{
    BackgroundLoad, Orbit, ShownModel, VIEWER_FOV, ViewerSettings, focus_on, model_name,
    place_camera, show_model, spawn_viewer_camera,
};
use crate::{ComparePreset, SampleArgs};

/// Opens the window and runs the viewer until it closes.
pub(super) fn run_window(
    path: PathBuf,
    settings: ViewerSettings,
    spawn: GltfSpawnOptions,
    args: &SampleArgs,
) -> anyhow::Result<()> {
    let config = EngineConfig {
        loop_config: LoopConfig::default(),
        ..EngineConfig::new(args.size.0, args.size.1)
    };
    let aspect = args.size.0 as f32 / args.size.1 as f32;
    let initial_focus =
        Orbit::framing(glam::Vec3::splat(-1.0), glam::Vec3::ONE, VIEWER_FOV, aspect).distance;
    let viewer = Viewer {
        title: format!("gltf_viewer: {}", model_name(&path)),
        load: Some(BackgroundLoad::start_with_options(path, spawn.load.clone())),
        settings,
        spawn,
        camera: None,
        shown: None,
        orbit: None,
        drag: None,
        size: args.size,
        panel: true,
        paused: false,
        cameras: CameraCycle::default(),
        skeleton: Skeleton::default(),
        files: Vec::new(),
    };
    Engine::run_app(
        "gltf_viewer",
        config,
        settings.preset(initial_focus),
        viewer,
    )?;
    Ok(())
}

/// What a mouse drag does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drag {
    Orbit,
    Pan,
}

struct Viewer {
    title: String,
    load: Option<BackgroundLoad>,
    settings: ViewerSettings,
    spawn: GltfSpawnOptions,
    camera: Option<GameObject>,
    shown: Option<ShownModel>,
    /// The camera's orbit (the framing one until the user moves it).
    orbit: Option<Orbit>,
    drag: Option<Drag>,
    size: (u32, u32),
    panel: bool,
    paused: bool,
    /// Which camera draws: the viewer's, or one of the model's (C).
    cameras: CameraCycle,
    /// The joints and bones of the model's skins, shown on K.
    skeleton: Skeleton,
    /// The model's file and the files it names: a change to one reloads
    /// the model (hot reload), keeping the camera where it is.
    files: Vec<PathBuf>,
}

impl Viewer {
    /// Brings the renderer to the current settings (they were `before`):
    /// switches effects on or off, or rebuilds the features for another
    /// preset or MSAA.
    fn apply_settings(&self, engine: &mut Engine, before: ViewerSettings) {
        let focus = self.orbit.map_or(5.0, |orbit| orbit.distance);
        if self.settings.needs_rebuild(&before) {
            engine.set_preset(self.settings.preset(focus));
        } else if let Err(error) = self.settings.switch_effects(engine.renderer(), focus) {
            eprintln!("gltf_viewer: {error}");
        }
        engine.set_title(&format!("{} ({})", self.title, self.settings.label()));
    }

    fn key(&mut self, engine: &mut Engine, key: Key) {
        let preset = match key {
            Key::Digit1 => Some(ComparePreset::Forward),
            Key::Digit2 => Some(ComparePreset::ForwardPlus),
            Key::Digit3 => Some(ComparePreset::Deferred),
            _ => None,
        };
        let effect = match key {
            Key::S => Some("shadows"),
            Key::B => Some("bloom"),
            Key::D => Some("dof"),
            Key::T => Some("taa"),
            Key::M => Some("msaa"),
            _ => None,
        };
        let before = self.settings;
        if let Some(preset) = preset {
            self.settings.preset = preset;
            self.apply_settings(engine, before);
        } else if let Some(flag) = effect.and_then(|label| self.settings.effect_mut(label)) {
            *flag = !*flag;
            self.apply_settings(engine, before);
        }
        match key {
            Key::F => self.orbit = self.shown.as_ref().map(|shown| shown.orbit),
            Key::H => self.panel = !self.panel,
            Key::Space => self.toggle_pause(engine),
            Key::C => self.next_camera(engine),
            Key::K => self.toggle_skeleton(engine),
            _ => {}
        }
    }

    fn toggle_skeleton(&mut self, engine: &mut Engine) {
        let shown = !self.skeleton.is_shown();
        self.settings.skeleton = shown;
        if let Err(error) = self.skeleton.show(engine.scene_mut(), shown) {
            eprintln!("gltf_viewer: skeleton: {error}");
        }
    }

    /// The clip panel of the shown model's player, and what it asked for.
    fn clips_ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        let Some(shown) = &self.shown else { return };
        if shown.model.clips.is_empty() {
            return;
        }
        let root = shown.model.root;
        let Some(player) = engine.scene().get_component::<AnimationPlayer>(root) else {
            return;
        };
        let actions = egui::CollapsingHeader::new("clips")
            .default_open(true)
            .show(ui, |ui| clip_panel(ui, player, &shown.model.clips))
            .body_returned
            .unwrap_or_default();
        if let Some(mut player) = engine
            .scene_mut()
            .get_component_mut::<AnimationPlayer>(root)
        {
            for action in actions {
                if let Err(error) = apply_clip_action(&mut player, action) {
                    eprintln!("gltf_viewer: {error}");
                }
            }
            self.paused = player.is_paused();
        }
    }

    fn next_camera(&mut self, engine: &mut Engine) {
        let (Some(viewer), Some(shown)) = (self.camera, &self.shown) else {
            return;
        };
        self.cameras.advance(engine, viewer, &shown.model.cameras);
    }

    fn toggle_pause(&mut self, engine: &mut Engine) {
        let Some(shown) = &self.shown else { return };
        let root = shown.model.root;
        if let Some(mut player) = engine
            .scene_mut()
            .get_component_mut::<AnimationPlayer>(root)
        {
            if self.paused {
                player.resume();
            } else {
                player.pause();
            }
            self.paused = !self.paused;
        }
    }

    /// Loads the model again when hot reload saw one of its files change:
    /// everything but the viewer's camera goes, and the new model comes
    /// in through the usual background load.
    fn reload_if_changed(&mut self, engine: &mut Engine) {
        let changed = engine.hot_reload().changed_last_frame();
        if self.load.is_some() || !self.files.iter().any(|f| changed.contains(f)) {
            return;
        }
        let path = self.files[0].clone();
        println!("gltf_viewer: {} changed: reloading", path.display());
        let scene = engine.scene_mut();
        for root in scene.roots() {
            if Some(root) != self.camera {
                let _ = scene.remove(root);
            }
        }
        self.shown = None;
        self.skeleton = Skeleton::default();
        self.load = Some(BackgroundLoad::start_with_options(
            path,
            self.spawn.load.clone(),
        ));
    }

    /// Takes the loader's news: spawns the model when it is in.
    fn poll_load(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let Some(load) = &mut self.load else {
            return Ok(());
        };
        let Some(result) = load.poll() else {
            return Ok(());
        };
        let path = load.path().to_owned();
        self.load = None;
        let context =
            |e: &dyn std::fmt::Display| format!("gltf_viewer cannot show {}: {e}", path.display());
        let model = result.map_err(|e| context(&e))?;
        let camera = self.camera.ok_or("the viewer camera is spawned at start")?;
        let shown = show_model(engine, camera, &model, &model_name(&path), &self.spawn)
            .map_err(|e| context(&e))?;
        print!("{}", shown.tree);
        for warning in &shown.model.warnings {
            eprintln!("warning: {warning}");
        }
        self.orbit = Some(self.orbit.unwrap_or(shown.orbit));
        self.files = taos_engine::hot_reload::model_dependencies(&path);
        for file in &self.files {
            engine.hot_reload_mut().watch_folder_of(file);
        }
        self.skeleton = Skeleton::build(engine, &shown.model, shown.orbit.radius * 0.1)
            .map_err(|e| context(&e))?;
        self.skeleton
            .show(engine.scene_mut(), self.settings.skeleton)
            .map_err(|e| context(&e))?;
        self.shown = Some(shown);
        self.cameras.reset();
        engine.set_camera(self.camera);
        Ok(())
    }

    fn settings_ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        let before = self.settings;
        ui.horizontal(|ui| {
            for preset in ComparePreset::ALL {
                ui.radio_value(&mut self.settings.preset, preset, preset.label());
            }
        });
        ui.horizontal(|ui| {
            for (label, flag) in self.settings.effects_mut() {
                ui.checkbox(flag, label);
            }
        });
        if self.settings != before {
            self.apply_settings(engine, before);
        }
    }
}

impl App for Viewer {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let aspect = self.size.0 as f32 / self.size.1.max(1) as f32;
        self.camera = Some(spawn_viewer_camera(engine, aspect)?);
        engine.set_title(&format!("{} ({})", self.title, self.settings.label()));
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        match *event {
            WindowEvent::Input {
                event,
                ui_consumed: false,
            } => match event {
                InputEvent::MouseDown(MouseButton::Left) => self.drag = Some(Drag::Orbit),
                InputEvent::MouseDown(MouseButton::Right | MouseButton::Middle) => {
                    self.drag = Some(Drag::Pan);
                }
                InputEvent::MouseUp(_) => self.drag = None,
                InputEvent::Wheel(lines) => {
                    if let Some(orbit) = &mut self.orbit {
                        orbit.zoom(lines);
                    }
                }
                InputEvent::KeyDown(key) => self.key(engine, key),
                _ => {}
            },
            WindowEvent::MouseMotion { delta } => self.drag_by(delta),
            WindowEvent::Focused(false) => self.drag = None,
            WindowEvent::Resized { width, height } if width > 0 && height > 0 => {
                self.size = (width, height);
            }
            _ => {}
        }
        Ok(Propagate::Continue)
    }

    fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        self.reload_if_changed(engine);
        self.poll_load(engine)?;
        if let (Some(camera), Some(orbit)) = (self.camera, self.orbit) {
            place_camera(engine.scene_mut(), camera, &orbit)?;
            focus_on(engine, &orbit);
        }
        Ok(())
    }

    fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        if !self.panel {
            return;
        }
        let frame = egui::Frame::new()
            .fill(egui::Color32::from_black_alpha(170))
            .inner_margin(8.0)
            .corner_radius(4.0);
        frame.show(ui, |ui| {
            ui.set_max_width(360.0);
            ui.visuals_mut().override_text_color = Some(egui::Color32::from_gray(235));
            ui.strong(&self.title);
            if let Some(load) = &self.load {
                match load.visible_progress() {
                    Some(progress) => {
                        ui.add(
                            egui::ProgressBar::new(progress.fraction())
                                .text(progress.to_string())
                                .show_percentage(),
                        );
                    }
                    None => {
                        ui.label("loading...");
                    }
                }
            }
            self.settings_ui(engine, ui);
            self.clips_ui(engine, ui);
            if !self.skeleton.joints.is_empty() {
                let mut on = self.skeleton.is_shown();
                let label = format!("skeleton: {} joints (K)", self.skeleton.joints.len());
                if ui.checkbox(&mut on, label).changed() {
                    self.toggle_skeleton(engine);
                }
            }
            ui.small(
                "drag: orbit · right drag: pan · wheel: zoom · F: frame · Space: pause · C: camera · K: skeleton · H: hide",
            );
            if let Some(shown) = &self.shown {
                ui.small(self.cameras.label(shown.model.cameras.len()));
                egui::CollapsingHeader::new("scene tree")
                    .default_open(true)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical()
                            .max_height(300.0)
                            .show(ui, |ui| ui.monospace(&shown.tree));
                    });
                for warning in &shown.model.warnings {
                    ui.colored_label(egui::Color32::YELLOW, warning);
                }
            }
        });
    }
}

impl Viewer {
    fn drag_by(&mut self, delta: Vec2) {
        let (Some(drag), Some(orbit)) = (self.drag, &mut self.orbit) else {
            return;
        };
        match drag {
            Drag::Orbit => orbit.drag(delta),
            Drag::Pan => orbit.pan(delta, self.size.1, VIEWER_FOV),
        }
    }
}
