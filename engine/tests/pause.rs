//! Pause means pause, headless as in a window: a paused loop's frames are
//! still drawn (from the last state) but run no tick, so behaviours stand
//! still and the scene's time does not move; `step` advances exactly one
//! tick; resuming goes on from there without simulating the paused time.
//! Time is fed by a manual clock: nothing here sleeps or reads the wall
//! clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use taos_engine::game_loop::Wake;
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{App, AppError, Engine, EngineConfig, HeadlessApp, Propagate, WindowEvent};

/// Counts its updates (one per tick).
struct Counter(Arc<AtomicU64>);

impl Behaviour for Counter {
    fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// A headless engine on a 60 Hz loop whose manual clock the test holds,
/// with a camera and a counting behaviour.
fn engine() -> (Engine, ManualClock, Arc<AtomicU64>) {
    let mut engine = Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let clock = ManualClock::new();
    let game = GameLoop::new(Scene::new(), LoopConfig::fixed(60).unwrap(), clock.clone()).unwrap();
    engine.set_game_loop(game);
    let updates = Arc::new(AtomicU64::new(0));
    let scene = engine.scene_mut();
    let camera = scene.spawn("Camera");
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();
    scene
        .add_behaviour(camera, Counter(Arc::clone(&updates)))
        .unwrap();
    (engine, clock, updates)
}

/// Ticks, behaviour updates, scene seconds and frames so far.
fn progress(engine: &mut Engine, updates: &AtomicU64) -> (u64, u64, f64, u64) {
    let elapsed = engine.time().elapsed();
    let game = engine.game_loop();
    (
        game.tick_count(),
        updates.load(Ordering::Relaxed),
        elapsed,
        game.frame_count(),
    )
}

const TICK: Duration = Duration::from_nanos(16_666_667);

#[test]
fn a_paused_engine_draws_frames_without_ticking_steps_once_and_resumes_without_catching_up() {
    let (mut engine, clock, updates) = engine();
    for _ in 0..3 {
        clock.advance(TICK);
        engine.frame().unwrap();
    }
    let (ticks, counted, seconds, frames) = progress(&mut engine, &updates);
    assert_eq!((ticks, counted), (3, 3));

    engine.game_loop().pause();
    for _ in 0..5 {
        // A second of wall time per paused frame.
        clock.advance(Duration::from_secs(1));
        engine.frame().unwrap();
    }
    let paused = progress(&mut engine, &updates);
    assert_eq!(
        paused,
        (ticks, counted, seconds, frames + 5),
        "paused frames are drawn, and nothing else moves"
    );
    assert!(engine.read_pixels().is_ok(), "the frame is there to read");

    engine.step().unwrap();
    let stepped = progress(&mut engine, &updates);
    assert_eq!((stepped.0, stepped.1), (ticks + 1, counted + 1), "one tick");
    assert!(stepped.2 > seconds, "the step moved the scene's time");
    assert!(engine.game_loop().is_paused(), "stepping keeps the pause");
    engine.frame().unwrap();
    assert_eq!(engine.game_loop().tick_count(), ticks + 1);

    engine.game_loop().resume();
    clock.advance(TICK);
    engine.frame().unwrap();
    let resumed = progress(&mut engine, &updates);
    assert_eq!(
        (resumed.0, resumed.1),
        (ticks + 2, counted + 2),
        "one tick per frame again: the paused seconds are not simulated"
    );
    assert!(
        (resumed.2 - seconds - 2.0 / 60.0).abs() < 1e-6,
        "the scene's time moved by the two ticks only: {} s",
        resumed.2 - seconds
    );
}

#[test]
fn the_windows_clock_callbacks_agree_paused_and_after_resuming() {
    let (mut engine, clock, updates) = engine();
    engine.game_loop().on_clock();
    clock.advance(TICK * 3);
    assert_eq!(engine.game_loop().on_clock().ticks, 3);

    engine.game_loop().pause();
    clock.advance(Duration::from_secs(10));
    let outcome = engine.game_loop().on_clock();
    assert_eq!(outcome.ticks, 0);
    assert!(
        !outcome.presented,
        "the window presents a paused game itself"
    );
    assert_eq!(outcome.wake, Wake::OnEvent);
    // What the window's redraw then does.
    engine.present().unwrap();
    assert_eq!(engine.game_loop().tick_count(), 3);

    engine.game_loop().resume();
    clock.advance(TICK);
    let outcome = engine.game_loop().on_clock();
    assert_eq!(outcome.ticks, 1, "no catch-up burst for the paused 10 s");
    assert_eq!(updates.load(Ordering::Relaxed), 4);
}

/// A game whose P key pauses and resumes, in its window-event hook: the
/// path a window's key events and `HeadlessApp::send` share.
#[derive(Default)]
struct PauseKey {
    updates: u32,
}

impl App for PauseKey {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let camera = engine.scene_mut().spawn("Camera");
        engine
            .scene_mut()
            .add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0)?)?;
        Ok(())
    }

    fn update(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
        self.updates += 1;
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        if let WindowEvent::Input {
            event: InputEvent::KeyDown(Key::P),
            ..
        } = event
        {
            let game = engine.game_loop();
            if game.is_paused() {
                game.resume();
            } else {
                game.pause();
            }
            return Ok(Propagate::Stop);
        }
        Ok(Propagate::Continue)
    }
}

#[test]
fn a_headless_app_paused_by_its_key_draws_without_ticking_and_steps_once() {
    let mut run = HeadlessApp::new(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
        PauseKey::default(),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let p = WindowEvent::Input {
        event: InputEvent::KeyDown(Key::P),
        ui_consumed: false,
    };
    run.frame().unwrap();
    run.frame().unwrap();
    let ticks = |run: &mut HeadlessApp<PauseKey>| run.engine_mut().game_loop().tick_count();
    assert_eq!(ticks(&mut run), 2);

    run.send(p).unwrap();
    assert!(run.engine_mut().game_loop().is_paused());
    let seconds = run.engine().time().elapsed();
    for _ in 0..4 {
        run.frame().unwrap();
    }
    assert_eq!(ticks(&mut run), 2, "no tick while paused");
    assert_eq!(run.engine().time().elapsed(), seconds);
    assert_eq!(run.app().updates, 6, "the app's frames still run");
    assert_eq!(run.engine_mut().game_loop().frame_count(), 6);

    run.step().unwrap();
    assert_eq!(ticks(&mut run), 3, "a step is one tick");
    assert!(run.engine_mut().game_loop().is_paused());

    run.send(p).unwrap();
    run.frame().unwrap();
    assert_eq!(
        ticks(&mut run),
        4,
        "resumed: one tick per frame, no catch-up"
    );
}
