//! Property tests: a snapshot of a small scene, damaged (its JSON bytes
//! mutated, or one of its values swapped for a hostile one: huge or negative
//! numbers, wrong types, a dropped field, a duplicated entry), decodes and
//! restores without a panic. A restore that fails leaves the game exactly as
//! it was (same state checksum, same objects, same snapshot); one that
//! succeeds leaves a game that keeps running.
//!
//! 256 cases per property (a few seconds in a debug build);
//! `TAOS_FUZZ_CASES=10000` for a deeper run (see `taos_hostile_inputs`).

use proptest::prelude::*;
use serde_json::{Value, json};
use taos_core::deps::serde::{Deserialize, Serialize};
use taos_core::game_loop::{
    Delay, GameLoop, LoopConfig, MAX_SNAPSHOT_COUNTER, ManualClock, Snapshot, SnapshotError,
    StateHash, StateHasher, TimerAction, Timers,
};
use taos_core::prelude::*;
use taos_hostile_inputs::{apply, config, mutation};

#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Health(i32);

#[derive(Resource, Serialize, Deserialize, Default, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Score(u32);

/// Turns its object and counts down, on whatever state it was restored with.
#[derive(Serialize, Deserialize)]
#[serde(crate = "taos_core::deps::serde")]
struct Spinner {
    speed: f32,
    left: u32,
}

impl Behaviour for Spinner {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        self.left = self.left.saturating_sub(1);
        let turn = Quat::from_rotation_y(self.speed * dt);
        {
            let mut transform = cx.transform_mut();
            transform.rotation = (turn * transform.rotation).normalize();
        }
        let mut score = cx.resource_mut::<Score>();
        score.0 = score.0.wrapping_add(1);
        Ok(())
    }
}

impl StateHash for Health {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.0.cast_unsigned());
    }
}

impl StateHash for Score {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.0);
    }
}

/// A parent with two children (one with a grandchild), components, a
/// behaviour, a resource and two pending event timers.
fn game() -> (GameLoop, GameObject) {
    let mut scene = Scene::new();
    scene.world_mut().init_resource::<Score>();
    let root = scene.spawn("Root");
    let left = scene.spawn("Left");
    let right = scene.spawn_with("Right", Transform::from_position(Vec3::new(1.0, 2.0, 3.0)));
    let leaf = scene.spawn("Leaf");
    scene.add_child(root, left).unwrap();
    scene.add_child(root, right).unwrap();
    scene.add_child(right, leaf).unwrap();
    scene.add_component(left, Health(10)).unwrap();
    scene.add_component(leaf, Health(-4)).unwrap();
    scene
        .add_behaviour(
            root,
            Spinner {
                speed: 1.5,
                left: 40,
            },
        )
        .unwrap();
    let mut game =
        GameLoop::new(scene, LoopConfig::fixed(60).unwrap(), ManualClock::new()).unwrap();
    game.seed(7);
    game.checksum_mut()
        .component::<Health>()
        .resource::<Score>();
    game.snapshot_types()
        .component::<Health>("Health")
        .behaviour::<Spinner>("Spinner")
        .resource::<Score>("Score");
    let mut timers = game.scene_mut().world_mut().resource_mut::<Timers>();
    timers
        .after(Delay::Ticks(90), TimerAction::Event(1))
        .unwrap();
    timers
        .after(Delay::Seconds(5.0), TimerAction::Event(2))
        .unwrap();
    (game, leaf)
}

/// The saved game and a game that has moved on since (an object gone, one
/// new, values changed), to restore into.
fn fixture() -> (Vec<u8>, GameLoop) {
    let (mut game, leaf) = game();
    for _ in 0..10 {
        game.step();
    }
    let bytes = game.snapshot().unwrap().to_bytes();
    for _ in 0..5 {
        game.step();
    }
    let scene = game.scene_mut();
    scene.remove(leaf).unwrap();
    let late = scene.spawn("Late");
    scene.add_component(late, Health(99)).unwrap();
    (bytes, game)
}

/// What must not change when a restore fails.
fn observe(game: &mut GameLoop) -> (u64, usize, u64, bool, Vec<u8>) {
    (
        game.state_checksum(),
        game.scene().len(),
        game.tick_count(),
        game.is_paused(),
        game.snapshot().unwrap().to_bytes(),
    )
}

fn restore_and_check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let Ok(snapshot) = Snapshot::from_bytes(bytes) else {
        return Ok(());
    };
    let (_, mut game) = fixture();
    let before = observe(&mut game);
    match game.restore(&snapshot) {
        Ok(()) => {
            // A game restored from a strange but acceptable snapshot runs on.
            for _ in 0..3 {
                game.step();
            }
            game.snapshot().ok();
        }
        Err(_) => prop_assert!(
            observe(&mut game) == before,
            "a failed restore changed the game"
        ),
    }
    Ok(())
}

/// What one node of the JSON tree becomes.
#[derive(Debug, Clone)]
enum ValueMutation {
    /// Replaced by this value.
    Replace(Value),
    /// Replaced by a hostile value of its own kind (a number by a number,
    /// a string by a string), picked by this index, so the snapshot still
    /// parses and the damage reaches the restore.
    Alike(prop::sample::Index),
    /// Removed from its object or array.
    Remove,
    /// Repeated in its array (a second object with the same id, ...).
    Duplicate,
}

fn hostile_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(u64::MAX)),
        Just(json!(u64::MAX - 1)),
        Just(json!(u32::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(1e308)),
        Just(json!(-1e308)),
        Just(json!(1e-45)),
        Just(json!(0.5)),
        Just(Value::Null),
        Just(json!(true)),
        Just(json!("")),
        Just(json!("Health")),
        Just(json!("taos.MeshRenderer")),
        Just(json!([])),
        Just(json!({})),
        Just(json!([u64::MAX, u64::MAX, u64::MAX])),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i32>().prop_map(|n| json!(n)),
    ]
}

fn value_mutation() -> impl Strategy<Value = ValueMutation> {
    prop_oneof![
        3 => hostile_value().prop_map(ValueMutation::Replace),
        6 => any::<prop::sample::Index>().prop_map(ValueMutation::Alike),
        1 => Just(ValueMutation::Remove),
        1 => Just(ValueMutation::Duplicate),
    ]
}

/// A hostile value of `value`'s kind; `None` where it has none.
fn alike(value: &Value, pick: prop::sample::Index) -> Option<Value> {
    let choices = match value {
        Value::Number(_) => vec![
            json!(u64::MAX),
            json!(u64::MAX - 1),
            json!(MAX_SNAPSHOT_COUNTER + 1),
            json!(u32::MAX),
            json!(i64::MIN),
            json!(i32::MIN),
            json!(-1),
            json!(0),
            json!(1),
            json!(2),
            json!(1e308),
            json!(-1e308),
            json!(3.4e38),
            json!(1e-45),
            json!(-0.0),
            json!(0.5),
        ],
        Value::String(_) => vec![
            json!(""),
            json!("Health"),
            json!("Spinner"),
            json!("Score"),
            json!("taos.MeshRenderer"),
            json!("0.0.0"),
            json!("\u{0}"),
            json!("é".repeat(100)),
        ],
        Value::Bool(b) => vec![json!(!b)],
        Value::Null => vec![json!(0), json!([0.0, 0.0, 0.0, 0.0])],
        Value::Array(_) | Value::Object(_) => return None,
    };
    Some(pick.get(&choices).clone())
}

fn count_nodes(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count_nodes).sum(),
        Value::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Applies `mutation` to the `n`th node (pre-order, the root is 0) below
/// `value`; a root can only be replaced.
fn mutate_nth(value: &mut Value, n: usize, mutation: &ValueMutation) {
    if n == 0 {
        match mutation {
            ValueMutation::Replace(new) => *value = new.clone(),
            ValueMutation::Alike(pick) => {
                if let Some(new) = alike(value, *pick) {
                    *value = new;
                }
            }
            ValueMutation::Remove | ValueMutation::Duplicate => {}
        }
        return;
    }
    let mut n = n - 1;
    match value {
        Value::Array(items) => {
            for i in 0..items.len() {
                let size = count_nodes(&items[i]);
                if n == 0 {
                    match mutation {
                        ValueMutation::Replace(_) | ValueMutation::Alike(_) => {
                            return mutate_nth(&mut items[i], 0, mutation);
                        }
                        ValueMutation::Remove => {
                            items.remove(i);
                        }
                        ValueMutation::Duplicate => items.insert(i, items[i].clone()),
                    }
                    return;
                }
                if n < size {
                    return mutate_nth(&mut items[i], n, mutation);
                }
                n -= size;
            }
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let size = count_nodes(&map[&key]);
                if n == 0 {
                    match mutation {
                        ValueMutation::Replace(_) | ValueMutation::Alike(_) => {
                            return mutate_nth(map.get_mut(&key).unwrap(), 0, mutation);
                        }
                        ValueMutation::Remove => {
                            map.remove(&key);
                        }
                        // An object cannot hold a key twice.
                        ValueMutation::Duplicate => {}
                    }
                    return;
                }
                if n < size {
                    return mutate_nth(map.get_mut(&key).unwrap(), n, mutation);
                }
                n -= size;
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_snapshot_bytes_never_panic_and_a_failed_restore_changes_nothing(
        mutations in proptest::collection::vec(mutation(fixture().0.len()), 1..4),
    ) {
        restore_and_check(&apply(&fixture().0, &mutations))?;
    }

    #[test]
    fn hostile_snapshot_values_never_panic_and_a_failed_restore_changes_nothing(
        targets in proptest::collection::vec((any::<prop::sample::Index>(), value_mutation()), 1..3),
    ) {
        let mut value: Value = serde_json::from_slice(&fixture().0).unwrap();
        for (target, mutation) in &targets {
            let n = target.index(count_nodes(&value));
            mutate_nth(&mut value, n, mutation);
        }
        restore_and_check(&serde_json::to_vec(&value).unwrap())?;
    }
}

#[test]
fn the_undamaged_snapshot_restores_and_the_fixture_differs_from_it() {
    let (bytes, mut game) = fixture();
    let snapshot = Snapshot::from_bytes(&bytes).unwrap();
    assert_ne!(game.snapshot().unwrap().to_bytes(), bytes);
    game.restore(&snapshot).unwrap();
    assert_eq!(game.snapshot().unwrap().to_bytes(), bytes);
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(count_nodes(&value) > 50, "{value}");
}

/// Counters at the top of their range (the tick, the frame count, timer
/// sequence numbers), or two timers with one sequence number: no game gets
/// there, and counting on from there would overflow. Refused with the game
/// untouched, before anything is restored.
#[test]
fn counters_at_the_top_of_their_range_are_refused_untouched() {
    let (bytes, _) = fixture();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        value["timers"]["events"].as_array().unwrap().len(),
        2,
        "{value}"
    );
    let set = |path: &[&str], index: Option<usize>, n: Value| {
        let mut damaged = value.clone();
        let mut at = &mut damaged;
        for key in path {
            at = &mut at[*key];
        }
        if let Some(index) = index {
            at = &mut at[index][0];
        }
        *at = n;
        damaged
    };
    let second_sequence = value["timers"]["events"][1][0].clone();
    let cases = [
        set(&["tick"], None, json!(u64::MAX)),
        set(&["tick"], None, json!(MAX_SNAPSHOT_COUNTER + 1)),
        set(&["time", "frame_count"], None, json!(u64::MAX)),
        set(&["timers", "next_sequence"], None, json!(u64::MAX)),
        set(&["timers", "events"], Some(0), json!(u64::MAX)),
        set(&["timers", "events"], Some(0), json!(u64::MAX - 1)),
        set(&["timers", "events"], Some(0), second_sequence),
    ];
    for damaged in cases {
        let snapshot = Snapshot::from_bytes(&serde_json::to_vec(&damaged).unwrap()).unwrap();
        let (_, mut game) = fixture();
        let before = observe(&mut game);
        let error = game.restore(&snapshot).unwrap_err();
        assert!(
            matches!(error, SnapshotError::Invalid { .. }),
            "{error} for {damaged}"
        );
        assert!(observe(&mut game) == before);
    }
    // Just below the limit restores, and the game counts on.
    let (_, mut game) = fixture();
    let mut high = value.clone();
    high["tick"] = json!(MAX_SNAPSHOT_COUNTER);
    high["time"]["frame_count"] = json!(MAX_SNAPSHOT_COUNTER);
    high["timers"]["next_sequence"] = json!(MAX_SNAPSHOT_COUNTER);
    high["timers"]["events"][0][0] = json!(MAX_SNAPSHOT_COUNTER - 1);
    game.restore(&Snapshot::from_bytes(&serde_json::to_vec(&high).unwrap()).unwrap())
        .unwrap();
    for _ in 0..3 {
        let mut timers = game.scene_mut().world_mut().resource_mut::<Timers>();
        timers
            .after(Delay::Ticks(1), TimerAction::Event(3))
            .unwrap();
        game.step();
    }
}
