//! An `App` run headless: the window's hooks in the window's order, its UI
//! painted into the frame, and window events routed as the window routes them.

use taos_engine::game_loop::{Input, InputEvent, Key};
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{
    App, AppError, Engine, EngineConfig, HeadlessApp, Propagate, RunError, WindowEvent, egui,
};

const MAGENTA: egui::Color32 = egui::Color32::from_rgb(255, 0, 255);

/// What ran, in order: the app's hooks and the scene's behaviour.
type CallLog = std::sync::Arc<std::sync::Mutex<Vec<&'static str>>>;

/// Logs the scene's tick (`update`) and its render pass (`update_render`).
struct Logger(CallLog);

impl Behaviour for Logger {
    fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        self.0.lock().unwrap().push("tick");
        Ok(())
    }

    fn update_render(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.0.lock().unwrap().push("render");
        Ok(())
    }
}

#[derive(Default)]
struct Probe {
    log: CallLog,
    starts: u32,
    updates: u32,
    uis: u32,
    keep_open: bool,
    fail_update: bool,
    stopped_with: Option<String>,
    events: Vec<WindowEvent>,
}

impl App for Probe {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        self.starts += 1;
        self.log.lock().unwrap().push("start");
        let camera = engine.scene_mut().spawn("Camera");
        engine
            .scene_mut()
            .add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0)?)?;
        let logger = engine.scene_mut().spawn("Logger");
        engine
            .scene_mut()
            .add_behaviour(logger, Logger(self.log.clone()))?;
        Ok(())
    }

    fn update(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
        self.updates += 1;
        self.log.lock().unwrap().push("update");
        if self.fail_update {
            return Err("the update failed on purpose".into());
        }
        Ok(())
    }

    fn ui(&mut self, _engine: &mut Engine, ui: &mut egui::Ui) {
        self.uis += 1;
        self.log.lock().unwrap().push("ui");
        let square = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(40.0, 30.0));
        ui.painter().rect_filled(square, 0.0, MAGENTA);
    }

    fn window_event(
        &mut self,
        _engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        self.events.push(*event);
        if self.keep_open && *event == WindowEvent::CloseRequested {
            return Ok(Propagate::Stop);
        }
        Ok(Propagate::Continue)
    }

    fn stopping(&mut self, _engine: &mut Engine, error: &RunError) {
        self.stopped_with = Some(error.to_string());
    }
}

fn run(probe: Probe) -> HeadlessApp<Probe> {
    HeadlessApp::new(
        EngineConfig::new(160, 120),
        forward_preset(PresetOptions::default()),
        probe,
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn pixel(pixels: &[u8], x: usize, y: usize) -> [u8; 4] {
    let at = (y * 160 + x) * 4;
    [pixels[at], pixels[at + 1], pixels[at + 2], pixels[at + 3]]
}

#[test]
fn the_hooks_run_in_the_windows_order_and_the_ui_is_in_the_picture() {
    let mut run = run(Probe::default());
    assert_eq!(run.app().starts, 1);
    for _ in 0..3 {
        run.frame().unwrap();
    }
    assert_eq!((run.app().updates, run.app().uis), (3, 3));
    assert_eq!(run.engine_mut().game_loop().frame_count(), 3);
    // The window's order, frame after frame: the app's update, its UI, the
    // scene's tick, then the scene's render pass.
    let log = run.app().log.lock().unwrap().clone();
    let mut expected = vec!["start"];
    for _ in 0..3 {
        expected.extend(["update", "ui", "tick", "render"]);
    }
    assert_eq!(log, expected);
    let pixels = run.engine_mut().read_pixels().unwrap();
    let [r, g, b, _] = pixel(&pixels, 10, 10);
    assert!(r > 200 && g < 60 && b > 200, "the UI's square: {r} {g} {b}");
    let [r, g, b, _] = pixel(&pixels, 120, 90);
    assert!(
        !(r > 200 && g < 60 && b > 200),
        "the scene outside it: {r} {g} {b}"
    );
    assert!(run.engine().ui_context().is_some());
}

#[test]
fn window_events_take_the_windows_path() {
    let mut run = run(Probe::default());
    run.frame().unwrap();
    let press = WindowEvent::Input {
        event: InputEvent::KeyDown(Key::W),
        ui_consumed: false,
    };
    assert!(!run.send(press).unwrap());
    run.frame().unwrap();
    let held = run
        .engine()
        .scene()
        .world()
        .resource::<Input>()
        .pressed(Key::W);
    assert!(held, "the key reached the loop's input");
    assert_eq!(run.app().events, vec![press], "the app saw it first");
    assert!(
        run.send(WindowEvent::CloseRequested).unwrap(),
        "close ends the run"
    );

    let mut kept = self::run(Probe {
        keep_open: true,
        ..Probe::default()
    });
    assert!(
        !kept.send(WindowEvent::CloseRequested).unwrap(),
        "an app that stops the close keeps running"
    );
}

#[test]
fn a_failing_hook_ends_the_frame_with_its_error_and_the_app_hears_of_it() {
    let mut run = run(Probe {
        fail_update: true,
        ..Probe::default()
    });
    let error = run.frame().unwrap_err();
    assert!(matches!(error, RunError::App(_)), "{error}");
    assert!(run.app().stopped_with.is_some());
}

#[test]
fn winits_relative_motion_is_recorded_as_the_loops_input() {
    use taos_engine::game_loop::LoopConfig;
    use winit::event::DeviceEvent;
    let mut run = HeadlessApp::new(
        EngineConfig {
            loop_config: LoopConfig::fixed(60).unwrap(),
            ..EngineConfig::new(160, 120)
        },
        forward_preset(PresetOptions::default()),
        Probe::default(),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    run.engine_mut().game_loop().start_recording(7).unwrap();
    let motion = taos_engine::window_event_from_device(&DeviceEvent::MouseMotion {
        delta: (200.0, -40.0),
    })
    .expect("relative motion is a window event");
    run.send(motion).unwrap();
    run.frame().unwrap();
    let recording = run.engine_mut().game_loop().take_recording().unwrap();
    let recorded: Vec<_> = recording.inputs.iter().map(|input| input.event).collect();
    assert!(
        recorded.contains(&InputEvent::MouseMotion(Vec2::new(200.0, -40.0))),
        "winit's motion reached the tick and its recording: {recorded:?}"
    );
}
