//! The loop's timing and input (tick timers, replays, frame counts, clicks,
//! the watchdog, pausing, interpolation, focus), under the manual clock:
//! one test per loop and time defect of the engine-API issue. Each failed
//! before its fix.

use std::time::Duration;

use taos_core::game_loop::{
    Clock, InputEvent, LoopConfig, LoopPolicy, MouseButton, PauseReason, PresentOn, Rate,
    Recording, Wake, WatchdogConfig,
};
use taos_core::prelude::*;

mod common;
use common::started;

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

fn fixed(hz: u32) -> LoopConfig {
    common::fixed(hz, PresentOn::Tick)
}

#[test]
fn a_5_hz_game_runs_at_full_speed_and_tick_timers_fire_on_time() {
    let (mut game, clock) = started(Scene::new(), fixed(5));
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Ticks(3), TimerAction::Event(1))
        .unwrap();
    clock.advance(ms(600));
    assert_eq!(game.on_clock().ticks, 3);
    assert!(
        (game.time().elapsed() - 0.6).abs() < 1e-6,
        "{}",
        game.time().elapsed()
    );
    assert!(game.scene().world().resource::<FiredTimers>().contains(1));
}

#[test]
fn the_end_of_a_replay_counts_no_extra_tick_and_keeps_its_input() {
    let mut recording = Recording::new(7, Rate::hz(60).unwrap());
    recording.flags = vec![ActionFlags::NONE; 3];
    let (mut game, clock) = started(Scene::new(), fixed(60));
    game.replay(recording).unwrap();
    clock.advance(ms(50)); // exactly the three recorded ticks
    assert_eq!(game.on_clock().ticks, 3);
    // A press arrives; the next callback finds the replay exhausted.
    game.push_input(InputEvent::KeyDown(Key::Space));
    clock.advance(ms(34)); // two ticks' worth
    let outcome = game.on_clock();
    assert_eq!(outcome.ticks, 0);
    assert_eq!(game.tick_count(), 3);
    assert_eq!(game.frame_info().ticks_this_frame, 0);
    assert_eq!(game.pause_reason(), Some(PauseReason::ReplayFinished));
    // The press reaches the first live tick instead of vanishing.
    game.resume();
    clock.advance(ms(17));
    assert_eq!(game.on_clock().ticks, 1);
    assert!(
        game.scene()
            .world()
            .resource::<Input>()
            .just_pressed(Key::Space)
    );
}

#[test]
fn time_counts_presented_frames_and_real_seconds() {
    let (mut game, clock) = started(Scene::new(), fixed(60));
    let frames_before = game.time().frame_count();
    clock.advance(ms(500));
    let outcome = game.on_clock();
    assert_eq!(outcome.ticks, 30);
    assert_eq!(
        game.time().frame_count(),
        frames_before + 1,
        "one frame, thirty ticks"
    );
    assert_eq!(game.tick_count(), 30);
    assert!((game.time().unscaled_elapsed() - 0.5).abs() < 1e-9);
    // A stall beyond the catch-up cap: game time drops it, real time does not.
    clock.advance(ms(5_000));
    game.on_clock();
    assert!((game.time().unscaled_elapsed() - 5.5).abs() < 1e-9);
    assert!(game.time().elapsed() < 2.0);
    assert!(
        game.time().fps() > 0.0 && game.time().fps() < 60.0,
        "fps is per frame"
    );
}

#[test]
fn step_moves_the_time_base_so_nothing_is_simulated_twice() {
    let (mut game, clock) = started(Scene::new(), fixed(60));
    game.step();
    game.step();
    // The clock now catches up with the two stepped ticks: nothing more to do.
    clock.advance(Duration::from_nanos(2 * 16_666_667));
    assert_eq!(game.on_clock().ticks, 0);
    clock.advance(Duration::from_nanos(16_666_667));
    assert_eq!(game.on_clock().ticks, 1);
    assert_eq!(game.tick_count(), 3);
}

#[test]
fn a_click_shorter_than_a_tick_reaches_exactly_one_tick() {
    #[derive(Clone, Copy)]
    struct Fire;
    impl taos_core::game_loop::GameAction for Fire {
        fn bit(self) -> u8 {
            0
        }
    }
    let (mut game, clock) = started(Scene::new(), fixed(60));
    game.set_action_mapper(taos_core::game_loop::Bindings::new().mouse(MouseButton::Left, Fire));
    game.push_input(InputEvent::MouseDown(MouseButton::Left));
    game.push_input(InputEvent::MouseUp(MouseButton::Left));
    let mut primaries = 0;
    for _ in 0..5 {
        clock.advance(Duration::from_nanos(16_666_667));
        game.on_clock();
        let actions = game.scene().world().resource::<Actions>();
        primaries += u32::from(actions.held(Fire));
    }
    assert_eq!(primaries, 1);
}

#[test]
fn waits_are_never_in_the_past() {
    let mut config = fixed(60);
    config.frame_cap = Some(Rate::hz(30).unwrap());
    let (mut game, clock) = started(Scene::new(), config);
    clock.advance(ms(100));
    let outcome = game.on_clock();
    let Wake::At(at) = outcome.wake else {
        panic!("{:?}", outcome.wake)
    };
    assert!(
        at > clock.now(),
        "wake {at:?} at or before now {:?}",
        clock.now()
    );
}

#[test]
fn quick_clicks_count_as_one_attempt_for_the_watchdog() {
    let mut config = fixed(60);
    config.watchdog = Some(WatchdogConfig {
        frame_budget: Duration::from_secs(10),
        ..WatchdogConfig::default()
    });
    let (mut game, _clock) = started(Scene::new(), config);
    let mut warnings = Vec::new();
    // Four clicks two ticks apart, then silence: one ignored attempt, no warning.
    for _ in 0..4 {
        game.push_input(InputEvent::MouseDown(MouseButton::Left));
        game.push_input(InputEvent::MouseUp(MouseButton::Left));
        game.step();
        warnings.extend_from_slice(game.warnings());
        game.step();
        warnings.extend_from_slice(game.warnings());
    }
    for _ in 0..20 {
        game.step();
        warnings.extend_from_slice(game.warnings());
    }
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn ambient_animation_does_not_hide_a_hang_once_progress_is_declared() {
    struct Ambient;
    impl Behaviour for Ambient {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
            *cx.rotation_mut() *= Quat::from_rotation_y(dt);
            Ok(())
        }
    }
    #[derive(Resource, Default)]
    struct Score(u32);
    let mut scene = Scene::new();
    scene.world_mut().init_resource::<Score>();
    let o = scene.spawn("Flag");
    scene.add_behaviour(o, Ambient).unwrap();
    let mut config = fixed(60);
    config.watchdog = Some(WatchdogConfig {
        frame_budget: Duration::from_secs(10),
        ..WatchdogConfig::default()
    });
    let (mut game, _clock) = started(scene, config);
    game.set_progress_signal(|scene, h| h.write_u32(scene.world().resource::<Score>().0));
    let hang = common::unresponsive_after_taps(
        &mut game,
        InputEvent::MouseDown(MouseButton::Left),
        InputEvent::MouseUp(MouseButton::Left),
    );
    assert!(hang, "clicks that change no score are a hang");
}

#[test]
fn a_behaviour_counting_its_own_timer_does_not_settle_when_it_declares_it() {
    #[derive(Resource, Default)]
    struct Countdown(u32);
    struct Count;
    impl Behaviour for Count {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            cx.resource_mut::<Countdown>().0 += 1;
            Ok(())
        }
    }
    let mut scene = Scene::new();
    scene.world_mut().init_resource::<Countdown>();
    let o = scene.spawn("Counter");
    scene.add_behaviour(o, Count).unwrap();
    let mut config = fixed(60);
    config.auto_pause = Some(Default::default());
    let (mut game, clock) = started(scene, config);
    game.set_progress_signal(|scene, h| h.write_u32(scene.world().resource::<Countdown>().0));
    clock.advance(ms(1_000));
    game.on_clock();
    assert!(!game.is_paused(), "{:?}", game.pause_reason());
    assert_eq!(game.scene().world().resource::<Countdown>().0, 60);
}

#[test]
fn behaviour_errors_reach_the_loop() {
    struct Broken;
    impl Behaviour for Broken {
        fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            Err("broken".into())
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("Broken");
    scene.add_behaviour(o, Broken).unwrap();
    let (mut game, _clock) = started(scene, fixed(60));
    game.step();
    game.step();
    let errors = game.take_errors();
    assert_eq!(errors.len(), 2);
    assert!(game.take_errors().is_empty());
}

#[test]
fn pausing_is_one_line() {
    let (mut game, clock) = started(Scene::new(), fixed(60));
    game.time_mut().set_scale(0.0).unwrap();
    clock.advance(ms(100));
    assert_eq!(
        game.on_clock().ticks,
        6,
        "ticks still run: UI and input keep working"
    );
    assert_eq!(game.time().elapsed(), 0.0);
    assert!(game.time().unscaled_elapsed() > 0.0);
}

#[test]
fn behaviours_reading_input_directly_replay_bit_for_bit() {
    /// Reads the raw `Input`, not the action flags.
    struct Cursorist;
    impl Behaviour for Cursorist {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let input = cx.resource::<Input>();
            let cursor = input.cursor().unwrap_or_default();
            let jump = input.press_count(Key::Space) as f32;
            let mut t = cx.transform_mut();
            t.position.x = cursor.x;
            t.position.y += jump;
            Ok(())
        }
    }
    let build = || {
        let mut scene = Scene::new();
        let o = scene.spawn("O");
        scene.add_behaviour(o, Cursorist).unwrap();
        started(scene, fixed(60)).0
    };
    let mut game = build();
    game.start_recording(3).unwrap();
    for i in 0..30u32 {
        if i % 3 == 0 {
            game.push_input(InputEvent::CursorMoved(glam::Vec2::new(
                i as f32 * 1.5,
                0.0,
            )));
        }
        if i % 7 == 0 {
            game.push_input(InputEvent::KeyDown(Key::Space));
            game.push_input(InputEvent::KeyUp(Key::Space));
        }
        game.step();
    }
    let expected = game.state_checksum();
    let recording = Recording::from_bytes(&game.take_recording().unwrap().to_bytes()).unwrap();
    assert!(!recording.inputs.is_empty());

    let mut replay = build();
    replay.replay(recording).unwrap();
    // Live input during the replay does not reach its ticks.
    replay.push_input(InputEvent::CursorMoved(glam::Vec2::new(999.0, 0.0)));
    replay.push_input(InputEvent::KeyDown(Key::Space));
    while replay.pause_reason() != Some(PauseReason::ReplayFinished) {
        replay.step();
    }
    assert_eq!(replay.tick_count(), 30);
    assert_eq!(replay.state_checksum(), expected);
    // Once the replay is over, the held input reaches the next live tick.
    replay.resume();
    replay.step();
    assert!(
        replay
            .scene()
            .world()
            .resource::<Input>()
            .just_pressed(Key::Space)
    );
}

#[test]
fn frames_between_fixed_ticks_draw_interpolated_and_identical_frames_are_skipped() {
    struct Step;
    impl Behaviour for Step {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            cx.transform_mut().position.x += 1.0;
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("Mover");
    scene
        .add_component(o, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
        .unwrap();
    scene.add_behaviour(o, Step).unwrap();
    let mut config = fixed(10);
    if let LoopPolicy::Fixed(step) = &mut config.policy {
        step.present = PresentOn::EveryCallback;
    }
    let (mut game, clock) = started(scene, config);
    let mut draw = |scene: &mut Scene, alpha: f32| {
        scene
            .interpolated_world_matrix(o, alpha)
            .map(|m| m.translation.x)
    };
    clock.set(ms(100));
    game.on_clock_through(&mut draw); // tick 1: x = 1
    clock.set(ms(200));
    game.on_clock_through(&mut draw); // tick 2: x = 2
    clock.set(ms(250));
    let (outcome, drawn) = game.on_clock_through(&mut draw);
    assert!(outcome.presented);
    assert_eq!(
        drawn.flatten(),
        Some(1.5),
        "half way between the last two ticks"
    );
    // Same time again: nothing moved, alpha did not move: no redraw.
    assert!(!game.on_clock_through(&mut draw).0.presented);
}

#[test]
fn focus_loss_releases_held_input_and_a_paused_loop_can_still_present() {
    let (mut game, _clock) = started(Scene::new(), fixed(60));
    game.push_input(InputEvent::KeyDown(Key::W));
    game.push_input(InputEvent::MouseDown(MouseButton::Right));
    game.step();
    assert!(game.scene().world().resource::<Input>().pressed(Key::W));
    game.release_held_input();
    game.step();
    let input = game.scene().world().resource::<Input>();
    assert!(!input.pressed(Key::W) && !input.mouse_pressed(MouseButton::Right));
    assert!(input.just_released(Key::W));
    game.pause();
    let ticks = game.tick_count();
    let mut presented = 0;
    // What the window driver does on expose or resize while paused.
    game.present_through(&mut |_: &mut Scene, _: f32| presented += 1);
    assert_eq!(presented, 1);
    assert_eq!(game.tick_count(), ticks, "presenting does not tick");
}
