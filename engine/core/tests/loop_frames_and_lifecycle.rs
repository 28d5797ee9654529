//! One test per core-loop item of issue 41 (render context, frame deltas,
//! interpolation after restore and paused edits, variable-policy timers,
//! insertion order, `on_detach` through plain bevy, auto-paused snapshots,
//! the watchdog's progress-only default), under the manual clock. Each
//! failed before its fix.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use taos_core::RenderContext;
use taos_core::game_loop::{
    AutoPauseConfig, Clock, InputEvent, LoopConfig, LoopPolicy, PauseReason, PresentOn, Snapshot,
    Wake, WatchdogConfig,
};
use taos_core::prelude::*;

mod common;
use common::started;

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

fn interpolated(hz: u32) -> LoopConfig {
    common::fixed(hz, PresentOn::EveryCallback)
}

fn camera() -> Camera {
    Camera::perspective(60.0, 0.1, 100.0, 1.0).unwrap()
}

/// What one `update_render` call was given: its render context and the
/// clock's delta.
type RenderSeen = (Option<RenderContext>, f32);

/// What `update_render` was given, frame by frame.
#[derive(Clone, Default)]
struct RenderLog(Arc<Mutex<Vec<RenderSeen>>>);

impl RenderLog {
    fn last(&self) -> Option<RenderContext> {
        self.0
            .lock()
            .unwrap()
            .last()
            .and_then(|(render, _)| *render)
    }
}

struct RenderReader(RenderLog);

impl Behaviour for RenderReader {
    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        let seen = (cx.render(), cx.time().delta());
        self.0.0.lock().unwrap().push(seen);
        Ok(())
    }
}

#[test]
fn update_render_gets_the_viewport_the_camera_and_the_frames_time() {
    let log = RenderLog::default();
    let mut scene = Scene::new();
    let first = scene.spawn("First camera");
    scene.add_component(first, camera()).unwrap();
    let chosen = scene.spawn("Chosen camera");
    scene.add_component(chosen, camera()).unwrap();
    let reader = scene.spawn("Reader");
    scene
        .add_behaviour(reader, RenderReader(log.clone()))
        .unwrap();
    let (mut game, clock) = started(scene, interpolated(10));
    game.set_size(640, 360);
    clock.set(ms(150));
    game.on_clock();
    let render = log.last().expect("update_render has a render context");
    assert_eq!(render.viewport, (640, 360));
    assert_eq!(render.camera, Some(first), "the scene's camera by default");
    assert!((render.alpha - 0.5).abs() < 1e-6, "alpha {}", render.alpha);
    assert!((render.frame_delta - 0.15).abs() < 1e-6);

    game.scene_mut().set_render_camera(Some(chosen));
    assert_eq!(game.scene().render_camera(), Some(chosen));
    game.present();
    assert_eq!(
        log.last().unwrap().camera,
        Some(chosen),
        "the engine's choice wins"
    );

    game.scene_mut().remove(chosen).unwrap();
    assert_eq!(
        game.scene().render_camera(),
        Some(first),
        "a removed choice falls back"
    );
}

#[test]
fn update_render_on_frames_without_a_tick_sees_the_frames_own_delta() {
    let log = RenderLog::default();
    let mut scene = Scene::new();
    let reader = scene.spawn("Reader");
    scene
        .add_behaviour(reader, RenderReader(log.clone()))
        .unwrap();
    // A 30 Hz game on a 120 Hz display: three frames in four run no tick.
    let (mut game, clock) = started(scene, interpolated(30));
    let frame = Duration::from_nanos(1_000_000_000 / 120);
    for _ in 0..120 {
        clock.advance(frame);
        game.on_clock();
    }
    let log = log.0.lock().unwrap();
    let animated: f32 = log.iter().map(|(_, delta)| delta).sum();
    assert!(
        (animated - 1.0).abs() < 0.02,
        "one second of frames animates one second, not {animated}"
    );
    let frame_deltas: f32 = log
        .iter()
        .map(|(render, _)| render.unwrap().frame_delta)
        .sum();
    assert!((frame_deltas - 1.0).abs() < 0.02, "{frame_deltas}");
}

/// Moves every mesh one unit along x per tick: a system, so snapshots
/// need no registered behaviour.
fn step_meshes(
    mut meshes: bevy_ecs::system::Query<
        '_,
        '_,
        &mut Transform,
        bevy_ecs::query::With<MeshRenderer>,
    >,
) {
    for mut transform in &mut meshes {
        transform.position.x += 1.0;
    }
}

/// A rendered object that moves one unit along x per tick.
fn stepping_mesh(scene: &mut Scene) -> GameObject {
    let o = scene.spawn("Mover");
    scene
        .add_component(o, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
        .unwrap();
    scene.add_systems(step_meshes);
    o
}

/// Where a presenter draws `object` on a `present()` frame.
fn drawn_x(game: &mut GameLoop, object: GameObject) -> f32 {
    let mut draw = |scene: &mut Scene, alpha: f32| {
        scene
            .interpolated_world_matrix(object, alpha)
            .or_else(|| scene.world_matrix(object))
            .map(|m| m.translation.x)
    };
    game.present_through(&mut draw).unwrap()
}

#[test]
fn present_draws_objects_where_they_are_after_an_edit_while_paused() {
    let mut scene = Scene::new();
    let o = stepping_mesh(&mut scene);
    let (mut game, clock) = started(scene, interpolated(10));
    clock.set(ms(250)); // two ticks (x = 2), alpha 0.5
    game.on_clock();
    game.pause();
    game.scene_mut().object_mut(o).unwrap().position_mut().x = 40.0;
    assert_eq!(
        drawn_x(&mut game, o),
        40.0,
        "the edit shows, not the last tick"
    );
}

#[test]
fn present_after_restore_draws_the_restored_placement() {
    let mut scene = Scene::new();
    let o = stepping_mesh(&mut scene);
    let (mut game, clock) = started(scene, interpolated(10));
    clock.set(ms(150)); // tick 1: x = 1
    game.on_clock();
    let saved = game.snapshot().unwrap();
    clock.set(ms(550)); // ticks 2..=5: x = 5
    game.on_clock();
    game.restore(&saved).unwrap();
    assert_eq!(drawn_x(&mut game, o), 1.0, "where the snapshot put it");
}

#[test]
fn a_timer_fires_on_time_under_the_variable_policy_after_settling() {
    struct Idle;
    impl Behaviour for Idle {}
    let fired_at = Arc::new(Mutex::new(None));
    let mut scene = Scene::new();
    let o = scene.spawn("Idle");
    scene.add_behaviour(o, Idle).unwrap();
    let config = LoopConfig {
        policy: LoopPolicy::Variable,
        auto_pause: Some(AutoPauseConfig::default()),
        ..LoopConfig::default()
    };
    let (mut game, clock) = started(scene, config);
    let (stamp, at) = (fired_at.clone(), clock.clone());
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(
            Delay::Seconds(5.0),
            TimerAction::callback(move |_| *stamp.lock().unwrap() = Some(at.now())),
        )
        .unwrap();
    let mut callbacks = 0;
    while fired_at.lock().unwrap().is_none() && clock.now() < Duration::from_secs(30) {
        match game.on_clock().wake {
            Wake::At(when) => clock.set(when.max(clock.now())),
            Wake::Now => clock.advance(ms(16)),
            Wake::OnEvent => break,
        }
        callbacks += 1;
    }
    let fired = fired_at.lock().unwrap().expect("the timer fired");
    assert!(
        fired <= ms(5_020),
        "a 5 s timer fired at {fired:?} after {callbacks} callbacks"
    );
}

#[derive(Clone, Default)]
struct Order(Arc<Mutex<Vec<&'static str>>>);

struct Named(&'static str, Order);

impl Behaviour for Named {
    fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        self.1.0.lock().unwrap().push(self.0);
        Ok(())
    }
}

#[test]
fn roots_cameras_and_update_order_follow_insertion_after_a_removal() {
    let order = Order::default();
    let mut scene = Scene::new();
    let a = scene.spawn("A");
    let b = scene.spawn("B");
    for (object, name) in [(a, "A"), (b, "B")] {
        scene.add_component(object, camera()).unwrap();
        scene
            .add_behaviour(object, Named(name, order.clone()))
            .unwrap();
    }
    scene.remove(a).unwrap();
    let c = scene.spawn("C");
    scene.add_component(c, camera()).unwrap();
    scene.add_behaviour(c, Named("C", order.clone())).unwrap();
    assert_eq!(scene.roots(), vec![b, c]);
    assert_eq!(scene.find_camera(), Some(b));
    scene.tick(0.016);
    assert_eq!(*order.0.lock().unwrap(), ["B", "C"]);

    // Children keep insertion order too (`second` reuses the slot of `gone`).
    let gone = scene.spawn_child(b, "gone").unwrap();
    let first = scene.spawn_child(b, "first").unwrap();
    scene.remove(gone).unwrap();
    let second = scene.spawn_child(b, "second").unwrap();
    scene.add_component(second, camera()).unwrap();
    scene.add_component(first, camera()).unwrap();
    scene.remove_component::<Camera>(b);
    assert_eq!(scene.find_camera(), Some(first));
}

#[derive(Clone, Default)]
struct Detached(Arc<Mutex<u32>>);

impl Detached {
    fn count(&self) -> u32 {
        *self.0.lock().unwrap()
    }
}

struct CountsDetach(Detached);

impl Behaviour for CountsDetach {
    fn on_detach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        *self.0.0.lock().unwrap() += 1;
        Ok(())
    }
}

#[derive(Resource)]
struct Doomed(GameObject);

fn despawn_doomed(
    doomed: bevy_ecs::system::Res<'_, Doomed>,
    mut commands: bevy_ecs::system::Commands<'_, '_>,
) {
    if let Ok(mut entity) = commands.get_entity(doomed.0.entity()) {
        entity.despawn();
    }
}

#[test]
fn on_detach_runs_once_however_the_object_is_despawned() {
    let detached = Detached::default();
    let mut scene = Scene::new();
    let by_world = scene.spawn("world_mut().despawn");
    let by_system = scene.spawn("a system's Commands");
    let by_timer = scene.spawn("a timer callback");
    let by_scene = scene.spawn("Scene::remove");
    for object in [by_world, by_system, by_timer, by_scene] {
        scene
            .add_behaviour(object, CountsDetach(detached.clone()))
            .unwrap();
    }

    scene.world_mut().despawn(by_world.entity());
    assert_eq!(detached.count(), 1, "plain world despawn");

    scene.world_mut().insert_resource(Doomed(by_system));
    scene.add_systems(despawn_doomed);
    scene.tick(0.016);
    assert_eq!(detached.count(), 2, "a system's commands");

    let (mut game, clock) = started(scene, common::fixed(10, PresentOn::Tick));
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(
            Delay::Ticks(1),
            TimerAction::callback(move |scene| {
                scene.world_mut().despawn(by_timer.entity());
            }),
        )
        .unwrap();
    clock.advance(ms(100));
    game.on_clock();
    assert_eq!(detached.count(), 3, "a timer callback");

    game.scene_mut().remove(by_scene).unwrap();
    assert_eq!(detached.count(), 4, "Scene::remove, exactly once");
}

#[test]
fn a_snapshot_taken_while_auto_paused_restores_a_pause_that_input_resumes() {
    let mut config = common::fixed(60, PresentOn::Tick);
    config.auto_pause = Some(AutoPauseConfig::default());
    // Nothing to run: the first tick auto-pauses.
    let (mut game, clock) = started(Scene::new(), config);
    clock.advance(ms(100));
    game.on_clock();
    assert_eq!(game.pause_reason(), Some(PauseReason::NothingToRun));
    let saved = game.snapshot().unwrap();
    let saved = Snapshot::from_bytes(&saved.to_bytes()).unwrap();
    game.resume();
    game.restore(&saved).unwrap();
    assert_eq!(game.pause_reason(), Some(PauseReason::NothingToRun));
    game.push_input(InputEvent::KeyDown(Key::Space));
    assert!(!game.is_paused(), "input resumes a restored auto-pause");
}

#[test]
fn the_watchdog_sees_a_hang_through_ambient_animation_by_default() {
    struct Ambient;
    impl Behaviour for Ambient {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
            *cx.rotation_mut() *= Quat::from_rotation_y(dt);
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("Flag");
    scene.add_behaviour(o, Ambient).unwrap();
    let mut config = common::fixed(60, PresentOn::Tick);
    config.watchdog = Some(WatchdogConfig {
        frame_budget: Duration::from_secs(10),
        ..WatchdogConfig::default()
    });
    let (mut game, _clock) = started(scene, config);
    let hang = common::unresponsive_after_taps(
        &mut game,
        InputEvent::KeyDown(Key::Space),
        InputEvent::KeyUp(Key::Space),
    );
    assert!(hang, "a waving flag is not progress");
}
