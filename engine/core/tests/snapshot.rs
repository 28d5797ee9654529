//! Snapshot and restore: a restored game continues exactly as the original
//! did, keeps its play/pause state, and refuses what it cannot carry.

use taos_core::deps::serde::{Deserialize, Serialize};
use taos_core::game_loop::{
    GameLoop, LoopConfig, LoopControl, ManualClock, PauseReason, Snapshot, SnapshotError,
};
use taos_core::prelude::*;

#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Health(i32);

#[derive(Resource, Serialize, Deserialize, Default, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Score(u32);

/// Spawns a shot every 5 ticks on the RNG; shots live 12 ticks.
#[derive(Serialize, Deserialize)]
#[serde(crate = "taos_core::deps::serde")]
struct Turret {
    cooldown: u32,
}

#[derive(Serialize, Deserialize)]
#[serde(crate = "taos_core::deps::serde")]
struct Shot {
    life: u32,
    speed: f32,
}

impl Behaviour for Turret {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        if self.cooldown > 0 {
            self.cooldown -= 1;
            return Ok(());
        }
        self.cooldown = 4;
        let speed = cx.resource_mut::<GameRng>().range_f32(1.0, 3.0);
        let mut commands = cx.commands();
        let shot = commands.spawn("Shot");
        commands.add_component(shot, Health(3));
        commands.add_behaviour(shot, Shot { life: 12, speed });
        Ok(())
    }
}

impl Behaviour for Shot {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        cx.transform_mut().position.z -= self.speed * dt;
        self.life -= 1;
        if self.life == 0 {
            cx.resource_mut::<Score>().0 += 1;
            let me = cx.object();
            cx.commands().remove(me);
        }
        Ok(())
    }
}

fn game() -> GameLoop {
    let mut scene = Scene::new();
    scene.world_mut().init_resource::<Score>();
    let turret = scene.spawn("Turret");
    scene.add_behaviour(turret, Turret { cooldown: 0 }).unwrap();
    let mut game =
        GameLoop::new(scene, LoopConfig::fixed(60).unwrap(), ManualClock::new()).unwrap();
    game.seed(42);
    game.checksum_mut().resource::<Score>();
    game.snapshot_types()
        .component::<Health>("Health")
        .behaviour::<Turret>("Turret")
        .behaviour::<Shot>("Shot")
        .resource::<Score>("Score");
    game
}

impl taos_core::game_loop::StateHash for Score {
    fn hash_state(&self, h: &mut taos_core::game_loop::StateHasher) {
        h.write_u32(self.0);
    }
}

fn run(game: &mut GameLoop, ticks: usize) {
    for _ in 0..ticks {
        game.step();
    }
}

#[test]
fn a_restored_game_continues_exactly_as_the_original() {
    let mut game = game();
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Seconds(0.9), TimerAction::Event(5))
        .unwrap();
    run(&mut game, 31);
    let saved = game.snapshot().unwrap();
    let bytes = saved.to_bytes();
    let at_save = game.state_checksum();
    run(&mut game, 40);
    let expected = game.state_checksum();
    let objects = game.scene().len();
    assert!(game.scene().world().resource::<Score>().0 > 0);

    // In the same game: shots spawned since are removed, removed ones come back.
    game.restore(&Snapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    assert_eq!(game.state_checksum(), at_save);
    assert_eq!(game.tick_count(), 31);
    assert_eq!(game.scene().world().resource::<LoopControl>().tick(), 31);
    run(&mut game, 40);
    assert_eq!(game.state_checksum(), expected);
    assert_eq!(game.scene().len(), objects);

    // In a freshly booted game.
    let mut fresh = self::game();
    fresh
        .restore(&Snapshot::from_bytes(&bytes).unwrap())
        .unwrap();
    run(&mut fresh, 40);
    assert_eq!(fresh.state_checksum(), expected);
}

#[test]
fn restore_keeps_the_play_pause_state() {
    let mut game = game();
    run(&mut game, 5);
    let playing = game.snapshot().unwrap();
    game.pause();
    let paused = game.snapshot().unwrap();
    assert!(playing.was_playing() && !paused.was_playing());
    game.restore(&playing).unwrap();
    assert!(!game.is_paused());
    game.restore(&paused).unwrap();
    assert_eq!(game.pause_reason(), Some(PauseReason::Requested));
}

#[test]
fn what_cannot_be_saved_is_refused_with_a_reason() {
    struct Secret;
    impl Behaviour for Secret {}
    let mut game = game();
    let o = game.scene_mut().spawn("Secret");
    game.scene_mut().add_behaviour(o, Secret).unwrap();
    assert!(matches!(
        game.snapshot(),
        Err(SnapshotError::UnregisteredBehaviour { .. })
    ));
    game.scene_mut().remove(o).unwrap();
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Ticks(3), TimerAction::callback(|_| {}))
        .unwrap();
    assert!(matches!(
        game.snapshot(),
        Err(SnapshotError::CallbackTimer { count: 1 })
    ));
    assert!(matches!(
        Snapshot::from_bytes(b"{not json"),
        Err(SnapshotError::Malformed(_))
    ));
}

#[test]
fn a_value_that_fails_to_decode_leaves_the_game_as_it_was() {
    let mut game = game();
    let hero = game.scene_mut().spawn("Hero");
    game.scene_mut().add_component(hero, Health(10)).unwrap();
    let villain = game.scene_mut().spawn("Villain");
    game.scene_mut().add_component(villain, Health(20)).unwrap();
    let villain_id = game.scene().id(villain).unwrap();
    game.scene_mut().world_mut().resource_mut::<Score>().0 = 4;
    let text = String::from_utf8(game.snapshot().unwrap().to_bytes()).unwrap();
    // The game moves on: a value changes, an object comes, one goes.
    game.scene_mut()
        .get_component_mut::<Health>(hero)
        .unwrap()
        .0 = 3;
    let late = game.scene_mut().spawn("Late");
    let late_id = game.scene().id(late).unwrap();
    game.scene_mut().world_mut().resource_mut::<Score>().0 = 9;
    game.scene_mut().remove(villain).unwrap();

    // Each snapshot has one bad value after good ones: the second object's
    // component, a behaviour, the resource.
    for (good, bad) in [
        (r#"["Health",20]"#, r#"["Health","twenty"]"#),
        (
            r#"["Turret",{"cooldown":0}]"#,
            r#"["Turret",{"cooldown":-1}]"#,
        ),
        (r#"["Score",4]"#, r#"["Score",[]]"#),
    ] {
        assert!(text.contains(good), "{good} in {text}");
        let damaged = Snapshot::from_bytes(text.replacen(good, bad, 1).as_bytes()).unwrap();
        let before = game.state_checksum();
        let objects = game.scene().len();
        let error = game.restore(&damaged).unwrap_err();
        assert!(matches!(error, SnapshotError::Value { .. }), "{error}");
        assert_eq!(game.state_checksum(), before, "{bad}: the game changed");
        assert_eq!(game.scene().len(), objects, "{bad}");
        assert_eq!(game.scene().get_component::<Health>(hero), Some(&Health(3)));
        assert_eq!(game.scene().find_by_id(late_id), Some(late), "{bad}");
        assert!(game.scene().find_by_id(villain_id).is_none(), "{bad}");
        assert_eq!(game.scene().world().resource::<Score>().0, 9, "{bad}");
    }
    // The undamaged snapshot still restores.
    game.restore(&Snapshot::from_bytes(text.as_bytes()).unwrap())
        .unwrap();
    assert_eq!(game.scene().world().resource::<Score>().0, 4);
    assert!(game.scene().find_by_id(late_id).is_none());
    assert!(game.scene().find_by_id(villain_id).is_some());
}

#[test]
fn a_swapped_hierarchy_restores_and_a_parent_cycle_is_refused_untouched() {
    let mut game = game();
    let a = game.scene_mut().spawn("A");
    let b = game.scene_mut().spawn("B");
    game.scene_mut().add_child(b, a).unwrap();
    let text = String::from_utf8(game.snapshot().unwrap().to_bytes()).unwrap();
    // Now the other way round: restoring must first take A off B.
    game.scene_mut().detach(a).unwrap();
    game.scene_mut().add_child(a, b).unwrap();
    game.restore(&Snapshot::from_bytes(text.as_bytes()).unwrap())
        .unwrap();
    assert_eq!(game.scene().parent(a), Some(b));
    assert_eq!(game.scene().parent(b), None);

    // A snapshot where B is also A's child: refused, nothing changed.
    let a_id = game.scene().id(a).unwrap().0;
    let root_b = r#""name":"B","enabled":true,"parent":null"#;
    assert!(text.contains(root_b), "{text}");
    let cycle = text.replacen(root_b, &root_b.replace("null", &a_id.to_string()), 1);
    game.scene_mut().detach(a).unwrap();
    let before = game.state_checksum();
    let error = game
        .restore(&Snapshot::from_bytes(cycle.as_bytes()).unwrap())
        .unwrap_err();
    assert!(matches!(error, SnapshotError::Hierarchy(_)), "{error}");
    assert_eq!(game.state_checksum(), before);
    assert_eq!(game.scene().parent(a), None);
}
