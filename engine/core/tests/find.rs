//! Finding objects by name, by path and by tag: duplicates in hierarchy
//! order, nested paths with backtracking, malformed paths, tags added and
//! removed, removed objects no longer found, the same searches from a
//! behaviour, and tags kept by scene files and snapshots.

use taos_core::game_loop::{GameLoop, LoopConfig, ManualClock};
use taos_core::prelude::*;
use taos_core::scene_file::{SceneTypes, load_scene, save_scene};

#[test]
fn duplicate_names_come_in_hierarchy_order_whatever_the_spawn_order_of_children() {
    let mut scene = Scene::new();
    let a = scene.spawn("A");
    let b = scene.spawn("B");
    let under_b = scene.spawn_child(b, "X").unwrap();
    let root_x = scene.spawn("X");
    let under_a = scene.spawn_child(a, "X").unwrap();
    // Hierarchy order: A, A/X, B, B/X, X.
    assert_eq!(scene.find("X"), Some(under_a));
    assert_eq!(scene.find_all("X"), [under_a, under_b, root_x]);
    assert!(scene.find_all("Nobody").is_empty());

    // Moved under A, the root X joins A's children in spawn order: it was
    // spawned before A's own X.
    scene.add_child(a, root_x).unwrap();
    assert_eq!(scene.find_all("X"), [root_x, under_a, under_b]);

    // A rename is seen at once.
    scene.set_name(under_a, "Y").unwrap();
    assert_eq!(scene.find("X"), Some(root_x));
    assert_eq!(scene.find("Y"), Some(under_a));
}

#[test]
fn disabled_objects_are_found_too() {
    let mut scene = Scene::new();
    let door = scene.spawn("Door");
    scene.add_tag(door, "door").unwrap();
    scene.set_enabled(door, false).unwrap();
    assert_eq!(scene.find("Door"), Some(door));
    assert_eq!(scene.find_path("Door"), Some(door));
    assert_eq!(scene.find_tagged("door"), Some(door));
}

/// Two roots named `Level`; only the second has `Room/Door`.
fn two_levels(scene: &mut Scene) -> (GameObject, GameObject, GameObject) {
    let first = scene.spawn("Level");
    scene.spawn_child(first, "Room").unwrap();
    let second = scene.spawn("Level");
    let room = scene.spawn_child(second, "Room").unwrap();
    let door = scene.spawn_child(room, "Door").unwrap();
    (first, room, door)
}

#[test]
fn a_path_tries_every_object_of_a_repeated_name_until_the_rest_matches() {
    let mut scene = Scene::new();
    let (first, room, door) = two_levels(&mut scene);
    assert_eq!(scene.find_path("Level/Room/Door"), Some(door));
    assert_eq!(scene.find_path("/Level/Room/Door"), Some(door));
    assert_eq!(scene.find_path("Level"), Some(first));
    assert_eq!(
        scene.find_path("Level/Room"),
        scene.find_child(first, "Room")
    );
    assert_eq!(scene.find_child(room, "Door"), Some(door));
    let second = scene.parent(room).unwrap();
    assert_eq!(scene.find_child(second, "Room/Door"), Some(door));
    assert_eq!(scene.find_child(first, "Room/Door"), None);
}

#[test]
fn a_missing_segment_or_a_path_not_from_a_root_finds_nothing() {
    let mut scene = Scene::new();
    let (first, _, _) = two_levels(&mut scene);
    assert_eq!(scene.find_path("Level/Hall/Door"), None);
    assert_eq!(scene.find_path("Level/Room/Door/Knob"), None);
    assert_eq!(scene.find_path("Room/Door"), None);
    assert_eq!(scene.find_child(first, "Door"), None);
}

#[test]
fn malformed_paths_find_nothing_and_do_not_panic() {
    let mut scene = Scene::new();
    let (first, _, _) = two_levels(&mut scene);
    for path in [
        "",
        "/",
        "//Level",
        "Level/",
        "Level//Room",
        "Level/./Room",
        "Level/Room/../Room",
        "..",
        ".",
    ] {
        assert_eq!(scene.find_path(path), None, "{path:?}");
        assert_eq!(scene.find_child(first, path), None, "{path:?}");
    }
    // Below an object, a leading slash is an empty segment.
    assert_eq!(scene.find_child(first, "/Room"), None);
}

#[test]
fn removed_objects_and_their_subtrees_are_no_longer_found() {
    let mut scene = Scene::new();
    let (first, room, door) = two_levels(&mut scene);
    scene.add_tag(door, "door").unwrap();
    let second = scene.parent(room).unwrap();
    scene.remove(second).unwrap();
    assert_eq!(scene.find("Door"), None);
    assert_eq!(scene.find_all("Level"), [first]);
    assert_eq!(scene.find_path("Level/Room/Door"), None);
    assert_eq!(scene.find_child(second, "Room"), None);
    assert_eq!(scene.find_tagged("door"), None);
    assert!(!scene.has_tag(door, "door"));
    assert!(!scene.remove_tag(door, "door"));
    assert_eq!(
        scene.add_tag(door, "door"),
        Err(SceneError::StaleObject(door))
    );
}

#[test]
fn tags_are_added_and_removed_and_found_in_hierarchy_order() {
    let mut scene = Scene::new();
    let chest = scene.spawn("Chest");
    let coin_b = scene.spawn("Coin B");
    let coin_a = scene.spawn_child(chest, "Coin A").unwrap();
    for coin in [coin_b, coin_a] {
        assert!(scene.add_tag(coin, "coin").unwrap());
        assert!(scene.add_tag(coin, "pickup").unwrap());
    }
    assert!(!scene.add_tag(coin_a, "coin").unwrap());
    assert_eq!(scene.find_tagged("coin"), Some(coin_a));
    assert_eq!(scene.find_all_tagged("coin"), [coin_a, coin_b]);
    assert_eq!(
        scene
            .get_component::<Tags>(coin_a)
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        ["coin", "pickup"]
    );

    assert!(scene.remove_tag(coin_a, "coin"));
    assert!(!scene.remove_tag(coin_a, "coin"));
    assert_eq!(scene.find_all_tagged("coin"), [coin_b]);
    assert_eq!(scene.find_all_tagged("pickup"), [coin_a, coin_b]);
    assert!(scene.remove_tag(coin_a, "pickup"));
    assert!(scene.get_component::<Tags>(coin_a).is_none());
    assert!(
        scene.find_all_tagged("Coin").is_empty(),
        "tags match exactly"
    );

    // Tags set as a component count as well.
    scene
        .add_component(chest, Tags::from_iter(["container"]))
        .unwrap();
    assert_eq!(scene.find_tagged("container"), Some(chest));
}

/// Records what it finds every update.
#[derive(Default)]
struct Seeker {
    door: Option<GameObject>,
    path: Option<GameObject>,
    hand: Option<GameObject>,
    coins: Vec<GameObject>,
    doors: Vec<GameObject>,
    tagged_self: bool,
}

impl Behaviour for Seeker {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        self.door = cx.find("Door");
        self.doors = cx.find_all("Door");
        self.path = cx.find_path("Level/Room/Door");
        self.hand = cx.find_child(cx.object(), "Arm/Hand");
        self.coins = cx.find_all_tagged("coin");
        self.tagged_self = cx.has_tag(cx.object(), "seeker") && cx.find_tagged("seeker").is_some();
        Ok(())
    }
}

#[test]
fn a_behaviour_finds_what_the_scene_finds() {
    let mut scene = Scene::new();
    let (_, _, door) = two_levels(&mut scene);
    let robot = scene.spawn("Robot");
    let arm = scene.spawn_child(robot, "Arm").unwrap();
    let hand = scene.spawn_child(arm, "Hand").unwrap();
    let coin = scene.spawn("Coin");
    scene.add_tag(coin, "coin").unwrap();
    scene.add_tag(robot, "seeker").unwrap();
    scene.add_behaviour(robot, Seeker::default()).unwrap();
    scene.tick(0.016);
    let seeker = scene.behaviour::<Seeker>(robot).unwrap();
    assert_eq!(seeker.door, Some(door));
    assert_eq!(seeker.doors, [door]);
    assert_eq!(seeker.path, Some(door));
    assert_eq!(seeker.hand, Some(hand));
    assert_eq!(seeker.coins, [coin]);
    assert!(seeker.tagged_self);
}

#[test]
fn scene_files_keep_tags() {
    let mut scene = Scene::new();
    let coin = scene.spawn("Coin");
    scene.add_tag(coin, "pickup").unwrap();
    scene.add_tag(coin, "coin").unwrap();
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap();
    assert!(
        saved.text.contains(r#""taos.Tags""#),
        "tags are saved: {}",
        saved.text
    );

    let mut loaded = Scene::new();
    load_scene(&mut loaded, &saved.text, "coins.json", &types, None).unwrap();
    let coin = loaded.find_tagged("coin").unwrap();
    assert_eq!(loaded.name(coin), Some("Coin"));
    assert!(loaded.has_tag(coin, "pickup"));
    assert_eq!(save_scene(&loaded, &types).unwrap().text, saved.text);
}

#[test]
fn a_snapshot_restores_the_tags_of_its_time() {
    let mut game = GameLoop::new(
        Scene::new(),
        LoopConfig::fixed(60).unwrap(),
        ManualClock::new(),
    )
    .unwrap();
    let coin = game.scene_mut().spawn("Coin");
    game.scene_mut().add_tag(coin, "coin").unwrap();
    let saved = game.snapshot().unwrap();
    game.scene_mut().remove_tag(coin, "coin");
    game.scene_mut().add_tag(coin, "collected").unwrap();
    game.restore(&saved).unwrap();
    let coin = game.scene().find("Coin").unwrap();
    assert!(game.scene().has_tag(coin, "coin"));
    assert!(!game.scene().has_tag(coin, "collected"));
}
