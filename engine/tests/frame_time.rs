//! How far an engine's frames move time. `Engine::frame` advances what the
//! clock measured (clamped to 100 ms under the variable policy, whole ticks
//! under the fixed one) when the engine runs on a clock that moves, one
//! tick on `Engine::headless`'s own clock, or as `FrameTime` says. Pause
//! means pause, headless as in a window: a paused loop's frames are still
//! drawn (from the last state) but run no tick, so behaviours stand still
//! and the scene's time does not move; `step` advances exactly one tick;
//! resuming goes on from there without simulating the paused time. Time is
//! fed by a manual clock: nothing here sleeps or reads the wall clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use taos_engine::game_loop::Wake;
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{
    App, AppError, Engine, EngineConfig, FrameTime, HeadlessApp, Propagate, WindowEvent,
};

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
    let updates = counting_camera(&mut engine);
    (engine, clock, updates)
}

/// Adds a camera carrying a [`Counter`]; returns its count.
fn counting_camera(engine: &mut Engine) -> Arc<AtomicU64> {
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
    updates
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

/// A headless engine on `clock` with `loop_config` and `frame_time`, a
/// camera and a counting behaviour.
fn engine_on(
    clock: &ManualClock,
    loop_config: LoopConfig,
    frame_time: FrameTime,
) -> (Engine, Arc<AtomicU64>) {
    let config = EngineConfig {
        loop_config,
        frame_time,
        ..EngineConfig::new(64, 48)
    };
    let mut engine = Engine::headless_with_clock(
        config,
        forward_preset(PresetOptions::default()),
        clock.clone(),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let updates = counting_camera(&mut engine);
    (engine, updates)
}

#[test]
fn a_frame_advances_the_measured_delta_clamped_to_100_ms() {
    let clock = ManualClock::new();
    let (mut engine, updates) = engine_on(&clock, LoopConfig::default(), FrameTime::Auto);
    engine.frame().unwrap(); // measures from here
    let start = engine.scene().time().elapsed();
    clock.advance(Duration::from_millis(16));
    engine.frame().unwrap();
    let after_16 = engine.scene().time().elapsed() - start;
    assert!((after_16 - 0.016).abs() < 1e-6, "{after_16}");
    clock.advance(Duration::from_millis(250));
    engine.frame().unwrap();
    let after_250 = engine.scene().time().elapsed() - start - after_16;
    assert!(
        (after_250 - 0.1).abs() < 1e-6,
        "a long frame is clamped: {after_250}"
    );
    // One variable step per frame, however long.
    assert_eq!(updates.load(Ordering::Relaxed), 3);
    // A frame with no time passed still draws, with a zero step.
    engine.frame().unwrap();
    assert!((engine.scene().time().elapsed() - start - 0.116).abs() < 1e-6);
}

#[test]
fn a_fixed_policy_frame_runs_the_ticks_due_and_carries_the_rest() {
    let clock = ManualClock::new();
    let (mut engine, updates) =
        engine_on(&clock, LoopConfig::fixed(60).unwrap(), FrameTime::Measured);
    engine.frame().unwrap();
    let before = updates.load(Ordering::Relaxed);
    clock.advance(Duration::from_millis(50));
    engine.frame().unwrap();
    assert_eq!(
        updates.load(Ordering::Relaxed) - before,
        3,
        "50 ms at 60 Hz"
    );
    clock.advance(Duration::from_millis(10));
    engine.frame().unwrap();
    assert_eq!(
        updates.load(Ordering::Relaxed) - before,
        3,
        "10 ms: no tick due yet, but a frame is drawn"
    );
    clock.advance(Duration::from_millis(10));
    engine.frame().unwrap();
    assert_eq!(
        updates.load(Ordering::Relaxed) - before,
        4,
        "the carry adds up"
    );
}

#[test]
fn one_tick_frames_ignore_the_clock_and_headless_engines_default_to_them() {
    let clock = ManualClock::new();
    let (mut engine, updates) = engine_on(&clock, LoopConfig::default(), FrameTime::OneTick);
    for _ in 0..3 {
        clock.advance(Duration::from_millis(250));
        engine.frame().unwrap();
    }
    assert_eq!(updates.load(Ordering::Relaxed), 3);
    assert!((engine.scene().time().elapsed() - 3.0 / 60.0).abs() < 1e-6);
    // `Engine::headless` makes its own clock, which nothing moves: one tick.
    let mut own = Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
    )
    .unwrap();
    own.frame().unwrap();
    own.frame().unwrap();
    assert!((own.scene().time().elapsed() - 2.0 / 60.0).abs() < 1e-6);
}

#[test]
fn a_paused_measured_engine_drops_the_paused_span() {
    let clock = ManualClock::new();
    let (mut engine, updates) = engine_on(&clock, LoopConfig::default(), FrameTime::Measured);
    engine.frame().unwrap();
    clock.advance(Duration::from_millis(20));
    engine.frame().unwrap();
    let ticked = updates.load(Ordering::Relaxed);
    engine.game_loop().pause();
    for _ in 0..5 {
        clock.advance(Duration::from_millis(50));
        engine.frame().unwrap();
    }
    assert_eq!(
        updates.load(Ordering::Relaxed),
        ticked,
        "no tick while paused"
    );
    let paused_at = engine.scene().time().elapsed();
    engine.game_loop().resume();
    clock.advance(Duration::from_millis(16));
    engine.frame().unwrap();
    let moved = engine.scene().time().elapsed() - paused_at;
    assert!(
        (moved - 0.016).abs() < 1e-6,
        "only the time since resuming: {moved}"
    );
}

#[test]
fn a_prewarm_draws_the_scene_offscreen_without_ticking_or_counting_a_frame() {
    let (mut engine, _clock, updates) = engine();
    let cube = engine.scene_mut().spawn("Cube");
    let (assets, gpu) = engine.renderer().assets_mut();
    let mesh = assets.add_mesh(
        gpu,
        "cube",
        &taos_engine::renderer::resources::MeshData::cube(0.5),
    );
    let material = assets.add_material(taos_engine::renderer::resources::PbrMaterial::default());
    engine
        .scene_mut()
        .add_component(cube, MeshRenderer::new(mesh.handle(), material.handle()))
        .unwrap();
    let before = progress(&mut engine, &updates);
    engine.prewarm().unwrap();
    assert_eq!(progress(&mut engine, &updates), before, "no tick, no frame");
    // The first real frame after it renders as usual.
    engine.step().unwrap();
    assert_eq!(progress(&mut engine, &updates).0, before.0 + 1);
}
