//! The game loop under a manual clock: pacing, step/present, timers, input
//! edges, auto-pause, the watchdog and frame info. No test sleeps or reads the
//! wall clock.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use taos_core::game_loop::{
    AutoPauseConfig, CATCH_UP_BATCH, Delay, FiredTimers, FramePresenter, GameLoop, GameRng, Input,
    InputEvent, Key, LoopConfig, LoopControl, LoopPolicy, LoopWarning, ManualClock, PauseReason,
    PresentOn, Rate, Stage, TimerAction, Timers, Wake, WatchdogConfig,
};
use taos_core::prelude::*;

mod common;
use common::{fixed, started};

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// Keeps the loop busy so auto-pause does not trigger: moves every tick.
struct Drift;

impl Behaviour for Drift {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        cx.position_mut().x += 1.0;
        Ok(())
    }
}

/// Does nothing: the scene has work to run but makes no progress.
struct Idle;

impl Behaviour for Idle {}

fn scene_with(behaviour: impl Behaviour) -> Scene {
    let mut scene = Scene::new();
    let object = scene.spawn("Actor");
    scene.add_behaviour(object, behaviour).unwrap();
    scene
}

#[test]
fn below_one_interval_nothing_is_simulated() {
    let (mut game, clock) = started(Scene::new(), fixed(60, PresentOn::Tick));
    clock.advance(ms(10));
    let outcome = game.on_clock();
    assert_eq!(outcome.ticks, 0);
    assert!(
        !outcome.presented,
        "present-on-tick makes no frame without a tick"
    );
    assert_eq!(
        outcome.wake,
        Wake::At(ms(10) + Duration::from_nanos(6_666_667))
    );
    clock.advance(ms(7));
    assert_eq!(game.on_clock().ticks, 1, "17 ms since the base: one tick");
    assert_eq!(game.frame_count(), 1);

    let (mut smooth, clock) = started(Scene::new(), fixed(60, PresentOn::EveryCallback));
    clock.advance(ms(8));
    let outcome = smooth.on_clock();
    assert_eq!((outcome.ticks, outcome.presented), (0, true));
    let alpha = smooth.frame_info().alpha;
    assert!((alpha - 0.48).abs() < 1e-3, "interpolation alpha {alpha}");
}

#[test]
fn batches_catch_up_and_are_capped() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    clock.advance(ms(200));
    assert_eq!(game.on_clock().ticks, 12);
    clock.advance(ms(5_000));
    assert_eq!(
        game.on_clock().ticks,
        64,
        "catch-up is capped at 64 per callback"
    );
    assert_eq!(game.tick_count(), 76);

    let mut config = fixed(30, PresentOn::Tick);
    if let LoopPolicy::Fixed(step) = &mut config.policy {
        step.max_ticks_per_callback = 4;
    }
    let (mut game, clock) = started(Scene::new(), config);
    clock.advance(ms(1_000));
    assert_eq!(game.on_clock().ticks, 4, "the cap is configurable");
}

#[test]
fn remainder_carry_keeps_ten_minutes_of_jittered_callbacks_within_one_interval() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    let interval = 1.0 / 60.0;
    let mut jitter = GameRng::new(5994);
    let period = 1.0 / 59.94;
    let mut t = 0.0f64;
    let mut worst = 0.0f64;
    while t < 600.0 {
        t += period * (1.0 + f64::from(jitter.range_f32(-0.25, 0.25)));
        clock.set(Duration::from_secs_f64(t));
        game.on_clock();
        let simulated = game.tick_count() as f64 / 60.0;
        let lag = t - simulated;
        worst = worst.max(lag.abs());
        assert!(
            (0.0..interval).contains(&lag),
            "at {t:.3}s simulated {simulated:.6}s, lag {lag}"
        );
    }
    assert_eq!(game.dropped_time(), Duration::ZERO);
    assert!(game.tick_count() >= 35_990, "ticks {}", game.tick_count());
    assert!(worst < interval);
}

#[test]
fn a_long_stall_is_dropped_not_fast_forwarded() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    clock.advance(ms(30_000)); // a hidden tab stopped the clock callbacks
    assert_eq!(game.on_clock().ticks, 64);
    clock.advance(ms(17));
    let next = game.on_clock().ticks;
    assert!(
        next <= 2,
        "the next callback runs at most the carried interval plus 17 ms: {next}"
    );
    assert!(
        game.dropped_time() > ms(28_000),
        "dropped {:?}",
        game.dropped_time()
    );
    assert!(game.carried_time() < Rate::hz(60).unwrap().interval());
}

#[test]
fn variable_policy_first_dt_is_zero_and_clamped_to_100_ms() {
    let clock = ManualClock::new();
    let mut game = GameLoop::new(Scene::new(), LoopConfig::default(), clock.clone()).unwrap();
    game.on_clock();
    assert_eq!(game.scene().time().delta(), 0.0);
    clock.advance(ms(20));
    game.on_clock();
    assert!((game.scene().time().delta() - 0.02).abs() < 1e-6);
    clock.advance(ms(900));
    game.on_clock();
    assert!((game.scene().time().delta() - 0.1).abs() < 1e-6);
    assert_eq!(
        game.on_clock().wake,
        Wake::Now,
        "uncapped: redraw continuously"
    );
}

#[test]
fn frame_cap_waits_out_the_rest_of_the_period() {
    let clock = ManualClock::new();
    let config = LoopConfig {
        frame_cap: Some(Rate::hz(30).unwrap()),
        ..LoopConfig::default()
    };
    let mut game = GameLoop::new(Scene::new(), config, clock.clone()).unwrap();
    let first = game.on_clock();
    assert!(first.presented);
    assert_eq!(first.wake, Wake::At(Rate::hz(30).unwrap().interval()));
    clock.advance(ms(10));
    let early = game.on_clock();
    assert!(!early.presented);
    assert_eq!(early.wake, Wake::At(Rate::hz(30).unwrap().interval()));
    clock.set(ms(34));
    assert!(game.on_clock().presented);
    assert!((game.scene().time().delta() - 0.034).abs() < 1e-6);
}

#[test]
fn step_ticks_once_and_present_does_not_tick() {
    let (mut game, _clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    let frames = game.frame_count();
    game.step();
    assert_eq!((game.tick_count(), game.frame_count()), (1, frames + 1));
    game.present();
    assert_eq!((game.tick_count(), game.frame_count()), (1, frames + 2));
    assert_eq!(game.frame_info().ticks_this_frame, 0);
    game.pause();
    game.step();
    assert_eq!(game.tick_count(), 2, "step single-steps a paused loop");
    assert_eq!(game.pause_reason(), Some(PauseReason::Requested));
}

#[test]
fn fixed_ticks_see_current_world_transforms() {
    struct Follow {
        seen: Arc<Mutex<Vec<f32>>>,
    }
    impl Behaviour for Follow {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let x = cx.world_position().x;
            self.seen.lock().unwrap().push(x);
            Ok(())
        }
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut scene = Scene::new();
    let parent = scene.spawn("Parent");
    let child = scene.spawn_child(parent, "Child").unwrap();
    scene
        .add_behaviour(child, Follow { seen: seen.clone() })
        .unwrap();
    let (mut game, clock) = started(scene, fixed(60, PresentOn::Tick));
    // A timer callback moves the parent at the start of each of three ticks.
    for i in 1..=3u64 {
        game.scene_mut()
            .world_mut()
            .resource_mut::<Timers>()
            .after(
                Delay::Ticks(i),
                TimerAction::callback(move |scene: &mut Scene| {
                    scene.object_mut(parent).unwrap().position_mut().x = i as f32 * 10.0;
                }),
            )
            .unwrap();
    }
    clock.advance(ms(50));
    assert_eq!(game.on_clock().ticks, 3);
    assert_eq!(*seen.lock().unwrap(), [10.0, 20.0, 30.0]);
}

#[test]
fn timers_fire_in_deadline_order_fifo_on_ties_and_cancel() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    let order = Arc::new(Mutex::new(Vec::new()));
    let timers = &mut *game.scene_mut().world_mut().resource_mut::<Timers>();
    let log = |tag: u32| {
        let order = order.clone();
        TimerAction::callback(move |_: &mut Scene| order.lock().unwrap().push(tag))
    };
    timers.after(Delay::Ticks(3), log(3)).unwrap();
    timers.after(Delay::Ticks(1), log(1)).unwrap();
    timers.after(Delay::Seconds(0.02), log(31)).unwrap(); // due in the second tick
    timers.after(Delay::Ticks(3), log(32)).unwrap();
    let cancelled = timers.after(Delay::Ticks(2), log(2)).unwrap();
    assert!(timers.cancel(cancelled));
    assert!(!timers.cancel(cancelled));
    assert!(timers.after(Delay::Seconds(f64::NAN), log(0)).is_err());
    assert_eq!(timers.next_deadline().unwrap().0, 16_666_667);
    clock.advance(ms(100));
    game.on_clock();
    assert_eq!(*order.lock().unwrap(), [1, 31, 3, 32], "3 and 32 tie: FIFO");
    assert_eq!(game.scene().world().resource::<Timers>().pending(), 0);
}

#[test]
fn event_timers_are_visible_for_the_tick_they_fire_in() {
    struct Watch {
        ticks_seen: Arc<Mutex<Vec<u64>>>,
    }
    impl Behaviour for Watch {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            if cx.world().resource::<FiredTimers>().contains(9) {
                let tick = cx.resource::<LoopControl>().tick();
                self.ticks_seen.lock().unwrap().push(tick);
            }
            Ok(())
        }
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (mut game, _clock) = started(
        scene_with(Watch {
            ticks_seen: seen.clone(),
        }),
        fixed(60, PresentOn::Tick),
    );
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Ticks(2), TimerAction::Event(9))
        .unwrap();
    for _ in 0..4 {
        game.step();
    }
    assert_eq!(
        *seen.lock().unwrap(),
        [2],
        "fires in tick 2 and is seen there only"
    );
}

#[test]
fn changing_time_scale_keeps_each_timers_remaining_game_time() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    let fired_at = Arc::new(Mutex::new(None));
    let probe = fired_at.clone();
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(
            Delay::Seconds(1.0),
            TimerAction::callback(move |scene: &mut Scene| {
                *probe.lock().unwrap() = Some(scene.time().unscaled_elapsed());
            }),
        )
        .unwrap();
    for _ in 0..30 {
        clock.advance(Rate::hz(60).unwrap().interval());
        game.on_clock();
    }
    // Half a game second left; at half speed that is one real second.
    game.scene_mut().time_mut().set_scale(0.5).unwrap();
    let remaining = game
        .scene()
        .world()
        .resource::<Timers>()
        .until_next()
        .unwrap();
    assert_eq!(
        remaining.0, 499_999_990,
        "30 ticks of 16_666_667 ns took 0.50000001 s"
    );
    let mut ticks_until_fired = 0;
    while fired_at.lock().unwrap().is_none() {
        clock.advance(Rate::hz(60).unwrap().interval());
        game.on_clock();
        ticks_until_fired += 1;
        assert!(ticks_until_fired < 200, "the timer never fired");
    }
    assert_eq!(ticks_until_fired, 60);
    let real = fired_at.lock().unwrap().unwrap();
    assert!((real - 1.5).abs() < 1e-3, "fired at real {real}");
}

#[test]
fn input_edges_are_neither_lost_nor_doubled() {
    #[derive(Default)]
    struct Counts {
        presses: u32,
        releases: u32,
        ticks: u32,
    }
    struct CountEdges(Arc<Mutex<Counts>>);
    impl Behaviour for CountEdges {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let input = cx.world().resource::<Input>();
            let (p, r) = (
                input.press_count(Key::Space),
                u32::from(input.just_released(Key::Space)),
            );
            let mut counts = self.0.lock().unwrap();
            counts.presses += p;
            counts.releases += r;
            counts.ticks += 1;
            Ok(())
        }
    }
    let counts = Arc::new(Mutex::new(Counts::default()));
    let (mut game, clock) = started(
        scene_with(CountEdges(counts.clone())),
        fixed(60, PresentOn::Tick),
    );
    let press_release = |game: &mut GameLoop| {
        game.push_input(InputEvent::KeyDown(Key::Space));
        game.push_input(InputEvent::KeyDown(Key::Space)); // auto-repeat: no new edge
        game.push_input(InputEvent::KeyUp(Key::Space));
    };
    // 0 ticks in the frame that follows the edges: they wait for the next tick.
    press_release(&mut game);
    clock.advance(ms(5));
    assert_eq!(game.on_clock().ticks, 0);
    assert_eq!(counts.lock().unwrap().presses, 0);
    clock.advance(ms(12));
    assert_eq!(game.on_clock().ticks, 1);
    let seen = |c: &Mutex<Counts>| {
        let c = c.lock().unwrap();
        (c.presses, c.releases)
    };
    assert_eq!(seen(&counts), (1, 1));
    // Many ticks in one frame: only the first sees the edges.
    press_release(&mut game);
    clock.advance(ms(150));
    assert_eq!(game.on_clock().ticks, 9);
    // Exactly one tick per frame, twice.
    for _ in 0..2 {
        press_release(&mut game);
        clock.advance(Rate::hz(60).unwrap().interval());
        assert_eq!(game.on_clock().ticks, 1);
    }
    let counts = counts.lock().unwrap();
    assert_eq!((counts.presses, counts.releases, counts.ticks), (4, 4, 12));
}

#[test]
fn mouse_and_touch_edges_are_tick_buffered_too() {
    let mut input = Input::default();
    input.push(InputEvent::MouseDown(MouseButton::Left));
    input.push(InputEvent::MouseMotion(Vec2::new(3.0, 4.0)));
    input.push(InputEvent::MouseMotion(Vec2::new(1.0, 0.0)));
    input.push(InputEvent::TouchStart {
        id: 7,
        at: Vec2::ONE,
    });
    input.push(InputEvent::TouchMove {
        id: 7,
        at: Vec2::new(2.0, 2.0),
    });
    input.push(InputEvent::Wheel(f32::NAN)); // ignored, not propagated
    input.push(InputEvent::Wheel(1.0));
    input.begin_tick();
    assert!(input.mouse_just_pressed(MouseButton::Left) && input.mouse_pressed(MouseButton::Left));
    assert_eq!(input.mouse_motion(), Vec2::new(4.0, 4.0));
    assert_eq!(input.wheel(), 1.0);
    assert!(input.touch_started(7));
    assert_eq!(
        input.touches().collect::<Vec<_>>(),
        [(7, Vec2::new(2.0, 2.0))]
    );
    input.push(InputEvent::TouchEnd { id: 7 });
    input.push(InputEvent::MouseUp(MouseButton::Left));
    input.begin_tick();
    assert!(!input.mouse_just_pressed(MouseButton::Left));
    assert!(input.mouse_just_released(MouseButton::Left));
    assert_eq!(input.mouse_motion(), Vec2::ZERO, "motion is per tick");
    assert!(input.touch_ended(7) && !input.touch_started(7));
    assert_eq!(input.touches().count(), 0);
}

fn auto_paused(scene: Scene) -> (GameLoop, ManualClock) {
    let mut config = fixed(60, PresentOn::Tick);
    config.auto_pause = Some(AutoPauseConfig::default());
    started(scene, config)
}

#[test]
fn auto_pause_when_settled_and_resume_resets_idle_tracking() {
    let (mut game, clock) = auto_paused(scene_with(Idle));
    clock.advance(ms(1_000));
    let outcome = game.on_clock();
    assert_eq!(game.pause_reason(), Some(PauseReason::Settled));
    assert_eq!(
        outcome.ticks, 11,
        "first fingerprint plus ten unchanged ticks"
    );
    assert_eq!(
        outcome.wake,
        Wake::OnEvent,
        "a paused loop sleeps until an event"
    );
    clock.advance(ms(5_000));
    assert_eq!(game.on_clock().ticks, 0);
    assert_eq!(game.tick_count(), 11);

    game.resume();
    clock.advance(ms(100)); // 6 ticks: not yet settled again, tracking restarted
    assert_eq!(game.on_clock().ticks, 6);
    assert!(!game.is_paused());
    clock.advance(ms(100));
    game.on_clock();
    assert_eq!(game.pause_reason(), Some(PauseReason::Settled));
    assert_eq!(game.tick_count(), 11 + 11);
}

#[test]
fn input_resumes_a_settled_loop() {
    let (mut game, clock) = auto_paused(scene_with(Idle));
    clock.advance(ms(1_000));
    game.on_clock();
    assert!(game.is_paused());
    game.push_input(InputEvent::KeyDown(Key::W));
    assert!(!game.is_paused());
    clock.advance(ms(50));
    assert_eq!(game.on_clock().ticks, 3, "the paused second is dropped");
}

#[test]
fn auto_pause_when_nothing_is_left_to_run() {
    let (mut game, clock) = auto_paused(Scene::new());
    clock.advance(ms(100));
    assert_eq!(game.on_clock().ticks, 1);
    assert_eq!(game.pause_reason(), Some(PauseReason::NothingToRun));
}

#[test]
fn a_settled_loop_sleeps_until_its_next_timer_then_fires_it_on_time() {
    let (mut game, clock) = auto_paused(scene_with(Idle));
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Seconds(5.0), TimerAction::Event(1))
        .unwrap();
    let mut wakes = 0;
    clock.advance(ms(200));
    let outcome = game.on_clock();
    wakes += 1;
    assert_eq!(outcome.ticks, 12);
    assert!(!game.is_paused(), "a pending timer is not a settled game");
    // 12 ticks simulated 0.2 s; the tick that reaches 5.0 s is due at 5.0 s.
    assert_eq!(outcome.wake, Wake::At(ms(5_000)), "sleeps until the timer");
    // A stray callback before then runs nothing.
    clock.set(ms(3_000));
    let early = game.on_clock();
    wakes += 1;
    assert_eq!((early.ticks, early.wake), (0, Wake::At(ms(5_000))));
    clock.set(ms(5_000));
    // The slept span (288 ticks) is simulated, not dropped, in batches of
    // at most CATCH_UP_BATCH ticks, each asking to be called back at once.
    let mut batches = Vec::new();
    loop {
        let due = game.on_clock();
        wakes += 1;
        batches.push(due.ticks);
        assert!(due.ticks <= CATCH_UP_BATCH, "capped: {batches:?}");
        if due.wake != Wake::Now {
            break;
        }
        assert_eq!(game.scene().world().resource::<Timers>().pending(), 1);
    }
    assert_eq!(batches, [64, 64, 64, 64, 32]);
    assert_eq!(game.tick_count(), 300);
    assert_eq!(game.scene().world().resource::<Timers>().pending(), 0);
    assert!(
        (game.scene().time().elapsed() - 5.0).abs() < 1e-4,
        "on time in game time"
    );
    assert_eq!(game.pause_reason(), Some(PauseReason::Settled));
    assert_eq!(wakes, 7, "seven callbacks for five idle seconds");
}

#[test]
fn halt_pauses_and_resume_clears_it() {
    struct HaltAt(u64, u64);
    impl Behaviour for HaltAt {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            self.1 += 1;
            if self.1 == self.0 {
                cx.world_mut().resource_mut::<LoopControl>().halt();
            }
            Ok(())
        }
    }
    let (mut game, clock) = started(scene_with(HaltAt(5, 0)), fixed(60, PresentOn::Tick));
    clock.advance(ms(500));
    game.on_clock();
    assert_eq!(game.pause_reason(), Some(PauseReason::Halted));
    assert_eq!(game.tick_count(), 5, "the halting tick is the last");
    game.push_input(InputEvent::KeyDown(Key::Space));
    assert!(game.is_paused(), "input does not undo a halt");
    game.resume();
    assert!(!game.scene().world().resource::<LoopControl>().is_halted());
    clock.advance(ms(50));
    assert_eq!(game.on_clock().ticks, 3);
}

#[test]
fn a_hidden_window_stops_ticking_and_drops_the_stall() {
    let (mut game, clock) = started(scene_with(Drift), fixed(60, PresentOn::Tick));
    game.set_visible(false);
    clock.advance(ms(10_000));
    let outcome = game.on_clock();
    assert_eq!((outcome.ticks, outcome.wake), (0, Wake::OnEvent));
    clock.advance(ms(10_000));
    game.set_visible(true);
    clock.advance(ms(34));
    assert_eq!(
        game.on_clock().ticks,
        2,
        "only the time since showing counts"
    );
    assert!(game.dropped_time() >= ms(20_000));
}

#[test]
fn watchdog_names_the_slowest_stage_of_a_slow_frame() {
    struct Slow(ManualClock);
    impl Behaviour for Slow {
        fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            self.0.advance(ms(40)); // simulates 40 ms of work on the loop's clock
            Ok(())
        }
        fn name(&self) -> &'static str {
            "Slow"
        }
    }
    let clock = ManualClock::new();
    let config = LoopConfig {
        watchdog: Some(WatchdogConfig::default()),
        ..LoopConfig::default()
    };
    let mut game = GameLoop::new(scene_with(Slow(clock.clone())), config, clock.clone()).unwrap();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = messages.clone();
    game.after_frame(move |info| {
        for warning in &info.diagnostics.warnings {
            sink.lock().unwrap().push(warning.to_string());
        }
    });
    game.on_clock();
    let warnings = game.warnings().to_vec();
    assert_eq!(warnings.len(), 1);
    let LoopWarning::OverBudget {
        slowest: Some(slowest),
        frame_time,
        ..
    } = warnings[0]
    else {
        panic!("{warnings:?}")
    };
    assert_eq!(slowest.stage, Stage::Behaviour("Slow"));
    assert_eq!(slowest.time, ms(40));
    assert!(frame_time >= ms(40));
    assert!(messages.lock().unwrap()[0].contains("behaviour Slow"));
}

#[test]
fn watchdog_warns_when_consecutive_inputs_change_nothing() {
    let clock = ManualClock::new();
    let mut config = fixed(60, PresentOn::Tick);
    config.watchdog = Some(WatchdogConfig {
        frame_budget: ms(1_000),
        inputs_without_progress: 3,
        settle_window_ticks: 12,
    });
    let mut game = GameLoop::new(scene_with(Idle), config, clock.clone()).unwrap();
    game.on_clock();
    let mut unresponsive = 0;
    for _ in 0..3 {
        game.push_input(InputEvent::MouseDown(MouseButton::Left));
        game.push_input(InputEvent::MouseUp(MouseButton::Left));
        for _ in 0..13 {
            game.step();
            unresponsive += game
                .warnings()
                .iter()
                .filter(|w| matches!(w, LoopWarning::Unresponsive { inputs: 3, .. }))
                .count();
        }
    }
    assert_eq!(unresponsive, 1, "three ignored clicks raise one warning");

    // The same clicks on a scene that reacts raise nothing. The reaction is
    // a spawn: by default the watchdog counts the scene's structure as
    // progress, not transforms (ambient animation must not hide a hang); a
    // game whose reactions only move things declares them with
    // `set_progress_signal`.
    struct React;
    impl Behaviour for React {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            if cx
                .world()
                .resource::<Input>()
                .mouse_just_pressed(MouseButton::Left)
            {
                cx.commands().spawn("Reaction");
            }
            Ok(())
        }
    }
    let mut game = GameLoop::new(scene_with(React), config, clock).unwrap();
    for _ in 0..5 {
        game.push_input(InputEvent::MouseDown(MouseButton::Left));
        game.push_input(InputEvent::MouseUp(MouseButton::Left));
        for _ in 0..13 {
            game.step();
            assert!(game.warnings().is_empty(), "{:?}", game.warnings());
        }
    }
}

#[test]
fn after_frame_subscribers_get_counts_size_and_timings() {
    let clock = ManualClock::new();
    let mut config = fixed(60, PresentOn::Tick);
    config.stage_timings = true;
    let mut game = GameLoop::new(scene_with(Drift), config, clock.clone()).unwrap();
    game.set_size(320, 200);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    game.after_frame(move |info| {
        let stages = info
            .timings
            .entries()
            .iter()
            .map(|t| t.stage)
            .collect::<Vec<_>>();
        sink.lock().unwrap().push((
            info.tick,
            info.frame,
            info.ticks_this_frame,
            info.size,
            stages,
        ));
    });
    let mut presented = 0u32;
    let mut present = |_: &mut Scene, _alpha: f32| presented += 1;
    assert!(
        !game.on_clock_through(&mut present).0.presented,
        "the first callback only sets the time base"
    );
    clock.advance(ms(40));
    game.on_clock_through(&mut present);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let (tick, frame, ran, size, stages) = &seen[0];
    assert_eq!((*tick, *frame, *ran, *size), (2, 1, 2, (320, 200)));
    assert!(stages.contains(&Stage::Render) && stages.contains(&Stage::Transforms));
    assert!(
        stages
            .iter()
            .any(|s| matches!(s, Stage::Behaviour(name) if name.ends_with("Drift")))
    );
    assert_eq!(presented, 1);
}

#[test]
fn hand_over_moves_the_frame_hooks_to_the_next_loop() {
    use std::sync::atomic::{AtomicU32, Ordering};
    let after = Arc::new(AtomicU32::new(0));
    let mut launcher =
        GameLoop::new(Scene::new(), LoopConfig::default(), ManualClock::new()).unwrap();
    let count = after.clone();
    launcher.after_frame(move |_| {
        count.fetch_add(1, Ordering::Relaxed);
    });
    launcher.set_size(640, 360);
    launcher.step();
    assert_eq!(after.load(Ordering::Relaxed), 1);

    let mut world = Scene::new();
    world.spawn("Player");
    let mut play = GameLoop::new(world, LoopConfig::default(), ManualClock::new()).unwrap();
    launcher.hand_over(&mut play);
    play.step();
    launcher.step();
    assert_eq!(
        after.load(Ordering::Relaxed),
        2,
        "the hooks moved: only the new loop's frame ran them"
    );
    assert_eq!(play.frame_info().size, (640, 360));
    assert_eq!(
        play.scene().roots().len(),
        1,
        "the new loop keeps its own scene"
    );
}

#[test]
fn a_presenter_passed_in_returns_its_output_as_a_value() {
    let clock = ManualClock::new();
    let mut game =
        GameLoop::new(Scene::new(), LoopConfig::fixed(60).unwrap(), clock.clone()).unwrap();
    let mut frame_number = 0u32;
    let mut present = |scene: &mut Scene, alpha: f32| {
        frame_number += 1;
        (frame_number, scene.time().frame_count(), alpha)
    };
    assert_eq!(game.step_through(&mut present).0, 1);
    assert_eq!(game.present_through(&mut present).0, 2);
    let (first, output) = game.on_clock_through(&mut present);
    assert!(first.presented && output.is_some_and(|(n, _, _)| n == 3));
    // Nothing due: no frame, no output.
    let (outcome, output) = game.on_clock_through(&mut present);
    assert!(!outcome.presented && output.is_none());
    clock.advance(ms(50));
    let (outcome, output) = game.on_clock_through(&mut present);
    assert!(outcome.ticks >= 1);
    assert_eq!(output.map(|(n, _, _)| n), Some(4));
    // A presenter is a trait object too.
    let dynamic: &mut dyn FramePresenter<Output = (u32, u64, f32)> = &mut present;
    assert_eq!(game.present_through(dynamic).0, 5);
}

/// Walks along +X while D is held, jumps on Space, and picks a hotbar slot
/// with the digit keys: a player driven by input.
struct Player {
    vertical: f32,
}

/// The selected hotbar slot: a component only input writes.
#[derive(Component, Default)]
struct Hotbar(u8);

impl Behaviour for Player {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let (walk, jump, slot) = {
            let input = cx.resource::<Input>();
            let slot = [Key::Digit1, Key::Digit2, Key::Digit3]
                .iter()
                .position(|&key| input.just_pressed(key));
            (
                input.down_in_tick(Key::D),
                input.just_pressed(Key::Space),
                slot,
            )
        };
        let on_ground = cx.transform().position.y <= 0.0;
        if jump && on_ground {
            self.vertical = 4.0;
        }
        if !on_ground || self.vertical > 0.0 {
            self.vertical -= 10.0 * dt;
        }
        {
            let mut transform = cx.transform_mut();
            if walk {
                transform.position.x += 2.0 * dt;
            }
            transform.position.y = (transform.position.y + self.vertical * dt).max(0.0);
            if transform.position.y == 0.0 && self.vertical < 0.0 {
                self.vertical = 0.0;
            }
        }
        if let Some(slot) = slot {
            let me = cx.object().entity();
            if let Some(mut hotbar) = cx.world_mut().get_mut::<Hotbar>(me) {
                hotbar.0 = slot as u8;
            }
        }
        Ok(())
    }
}

/// Turns its object all the time, whatever the input (a waving flag).
struct Spinner;

impl Behaviour for Spinner {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        *cx.rotation_mut() *= Quat::from_rotation_y(dt);
        Ok(())
    }
}

fn watched(scene: Scene) -> GameLoop {
    let mut config = fixed(60, PresentOn::Tick);
    config.watchdog = Some(WatchdogConfig {
        frame_budget: Duration::from_secs(10),
        ..WatchdogConfig::default()
    });
    started(scene, config).0
}

fn unresponsive(game: &GameLoop) -> Option<LoopWarning> {
    game.warnings()
        .iter()
        .find(|w| matches!(w, LoopWarning::Unresponsive { .. }))
        .cloned()
}

#[test]
fn ordinary_play_driven_by_input_never_warns_among_ambient_animation() {
    let mut scene = Scene::new();
    let player = scene.spawn("Player");
    scene
        .add_behaviour(player, Player { vertical: 0.0 })
        .unwrap();
    scene.add_component(player, Hotbar::default()).unwrap();
    let flag = scene.spawn("Flag");
    scene.add_behaviour(flag, Spinner).unwrap();
    let mut game = watched(scene);
    let run = |game: &mut GameLoop, ticks: usize| {
        for _ in 0..ticks {
            game.step();
            if let Some(warning) = unresponsive(game) {
                panic!("ordinary play warned: {warning}");
            }
        }
    };
    // Start walking, stop, walk again, jump while walking, jump standing,
    // pick three hotbar slots: each input makes something new happen.
    for _ in 0..3 {
        game.push_input(InputEvent::KeyDown(Key::D));
        run(&mut game, 20);
        game.push_input(InputEvent::KeyUp(Key::D));
        run(&mut game, 20);
    }
    game.push_input(InputEvent::KeyDown(Key::D));
    run(&mut game, 10);
    for _ in 0..3 {
        game.push_input(InputEvent::KeyDown(Key::Space));
        game.push_input(InputEvent::KeyUp(Key::Space));
        run(&mut game, 60);
    }
    game.push_input(InputEvent::KeyUp(Key::D));
    run(&mut game, 10);
    for key in [Key::Digit1, Key::Digit2, Key::Digit3, Key::Digit1] {
        game.push_input(InputEvent::KeyDown(key));
        game.push_input(InputEvent::KeyUp(key));
        run(&mut game, 20);
    }
    let at = game.scene().world_position(player).unwrap();
    assert!(at.x > 3.0, "the player walked: {at}");
}

#[test]
fn an_unresponsive_warning_names_the_scene_and_the_behaviours_that_ran() {
    let mut scene = Scene::new();
    scene.set_label("Level 1");
    let flag = scene.spawn("Flag");
    scene.add_behaviour(flag, Spinner).unwrap();
    let mut game = watched(scene);
    let mut warning = None;
    for _ in 0..4 {
        game.push_input(InputEvent::KeyDown(Key::Space));
        game.push_input(InputEvent::KeyUp(Key::Space));
        for _ in 0..14 {
            game.step();
            warning = warning.or_else(|| unresponsive(&game));
        }
    }
    let warning = warning.expect("three ignored taps warn");
    let LoopWarning::Unresponsive {
        scene, suspects, ..
    } = &warning
    else {
        unreachable!()
    };
    assert_eq!(scene.as_deref(), Some("Level 1"));
    assert!(
        suspects.iter().any(|name| name.ends_with("Spinner")),
        "{suspects:?}"
    );
    let text = warning.to_string();
    assert!(
        text.contains("\"Level 1\"") && text.contains("Spinner"),
        "{text}"
    );
}

/// Puts each rendered object at x = 1, 2, 1, 2, ... tick by tick: it comes
/// back to where it was.
fn back_and_forth(
    mut ticks: bevy_ecs::system::Local<'_, u32>,
    mut meshes: bevy_ecs::system::Query<
        '_,
        '_,
        &mut Transform,
        bevy_ecs::query::With<MeshRenderer>,
    >,
) {
    *ticks += 1;
    for mut transform in &mut meshes {
        transform.position.x = if *ticks % 2 == 1 { 1.0 } else { 2.0 };
    }
}

#[test]
fn a_restored_scene_is_drawn_where_the_snapshot_put_it_between_ticks() {
    let mut scene = Scene::new();
    let o = scene.spawn("Mover");
    scene
        .add_component(o, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
        .unwrap();
    scene.add_systems(back_and_forth);
    let (mut game, clock) = started(scene, fixed(10, PresentOn::EveryCallback));
    clock.set(ms(100)); // tick 1: x = 1
    game.on_clock();
    let saved = game.snapshot().unwrap();
    clock.set(ms(350)); // ticks 2 and 3: x = 2, then back to 1; alpha 0.5
    game.on_clock();
    let drawn = |game: &mut GameLoop| {
        let mut draw = |scene: &mut Scene, alpha: f32| {
            scene
                .interpolated_world_matrix(o, alpha)
                .or_else(|| scene.world_matrix(o))
                .map(|m| m.translation.x)
        };
        game.present_through(&mut draw).unwrap()
    };
    assert_eq!(drawn(&mut game), 1.5, "between the last two ticks");
    // The snapshot's x is the object's x now: nothing moved, yet the two
    // recorded placements (2 and 1) belong to ticks the restore undid.
    game.restore(&saved).unwrap();
    assert_eq!(drawn(&mut game), 1.0, "where the snapshot put it, not 1.5");
}
