//! One test per defect a game programmer hit first (transforms, ids, the
//! enabled flag, self-removal, commands, errors, missing resources). Each
//! failed before its fix.

use std::sync::{Arc, Mutex};

use taos_core::deps::bevy_ecs::prelude::*;
use taos_core::prelude::*;
use taos_core::{Inactive, UpdateError};

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn assigning_a_whole_transform_just_works() {
    let mut scene = Scene::new();
    let parent = scene.spawn("Parent");
    let child = scene.spawn_child(parent, "Child").unwrap();
    // Read once so caches exist, then overwrite the whole value.
    scene.object_mut(child).unwrap().world_position();
    *scene.object_mut(parent).unwrap().transform_mut() =
        Transform::from_trs(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY, Vec3::ONE);
    let p = scene.object_mut(child).unwrap().world_position();
    assert!(close(p, Vec3::new(1.0, 2.0, 3.0)), "{p}");
    // Replacing the component through add_component is the same write.
    scene
        .add_component(parent, Transform::from_position(Vec3::X))
        .unwrap();
    scene.refresh_transforms();
    assert!(close(scene.world_position(child).unwrap(), Vec3::X));
}

#[test]
fn copying_one_objects_transform_onto_another_keeps_them_apart() {
    let mut scene = Scene::new();
    let a = scene.spawn_with("A", Transform::from_position(Vec3::Y));
    let b = scene.spawn_with("B", Transform::from_position(Vec3::Z));
    scene.refresh_transforms();
    let copy = *scene.transform(b).unwrap();
    *scene.object_mut(a).unwrap().transform_mut() = copy;
    scene.object_mut(b).unwrap().set_position(Vec3::X * 7.0);
    scene.refresh_transforms();
    assert!(close(scene.world_position(a).unwrap(), Vec3::Z));
    assert!(close(scene.world_position(b).unwrap(), Vec3::X * 7.0));
}

#[test]
fn spawning_with_a_read_transform_places_the_new_object() {
    let mut scene = Scene::new();
    let original = scene.spawn_with(
        "Original",
        Transform::from_position(Vec3::new(4.0, 0.0, 0.0)),
    );
    scene.object_mut(original).unwrap().world_position();
    let clone = scene.spawn_with("Clone", *scene.transform(original).unwrap());
    let p = scene.object_mut(clone).unwrap().world_position();
    assert!(close(p, Vec3::new(4.0, 0.0, 0.0)), "rendered at {p}");
}

#[test]
fn the_largest_id_from_a_save_does_not_break_spawning() {
    let mut scene = Scene::new();
    let loaded = scene.spawn("Loaded");
    scene.set_id(loaded, ObjectId(u64::MAX)).unwrap();
    let mut seen = std::collections::HashSet::new();
    seen.insert(ObjectId(u64::MAX));
    for i in 0..100 {
        let o = scene.spawn(format!("New {i}"));
        assert!(seen.insert(scene.id(o).unwrap()), "duplicate id");
    }
}

#[derive(Resource, Default)]
struct Visited(Vec<String>);

fn visit_active(
    objects: Query<'_, '_, &ObjectInfoRef, Without<Inactive>>,
    mut seen: ResMut<'_, Visited>,
) {
    seen.0 = objects.iter().map(|o| o.0.clone()).collect();
    seen.0.sort();
}

/// A component that carries the name, so the system's result is readable.
#[derive(Component)]
struct ObjectInfoRef(String);

#[test]
fn plain_systems_can_skip_inactive_objects() {
    let mut scene = Scene::new();
    scene.world_mut().init_resource::<Visited>();
    scene.add_systems(visit_active);
    let parent = scene.spawn("Parent");
    let child = scene.spawn_child(parent, "Child").unwrap();
    let other = scene.spawn("Other");
    for (o, n) in [(parent, "Parent"), (child, "Child"), (other, "Other")] {
        scene.add_component(o, ObjectInfoRef(n.into())).unwrap();
    }
    scene.set_enabled(parent, false).unwrap();
    scene.tick(0.016);
    assert_eq!(scene.world().resource::<Visited>().0, ["Other"]);
    scene.set_enabled(parent, true).unwrap();
    scene.tick(0.016);
    assert_eq!(
        scene.world().resource::<Visited>().0,
        ["Child", "Other", "Parent"]
    );
}

#[test]
fn a_behaviour_that_despawns_its_own_object_is_detached_without_panicking() {
    struct SelfDestruct(Arc<Mutex<Vec<&'static str>>>);
    impl Behaviour for SelfDestruct {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let me = cx.object().entity();
            cx.world_mut().despawn(me);
            cx.transform_mut().position.x += 1.0; // used to panic
            let _ = cx.transform();
            Ok(())
        }
        fn on_detach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
            self.0.lock().unwrap().push("detached");
            Ok(())
        }
    }
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut scene = Scene::new();
    let o = scene.spawn("Doomed");
    scene.add_behaviour(o, SelfDestruct(log.clone())).unwrap();
    scene.tick(0.016);
    assert_eq!(*log.lock().unwrap(), ["detached"]);
    assert!(!scene.contains(o));
}

#[test]
fn behaviours_spawn_and_remove_through_commands() {
    struct Spawner;
    struct Shot;
    impl Behaviour for Spawner {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let parent = cx.object();
            let mut commands = cx.commands();
            let shot = commands.spawn_with("Shot", Transform::from_position(Vec3::X));
            commands.set_parent(shot, parent);
            commands.add_behaviour(shot, Shot);
            Ok(())
        }
    }
    impl Behaviour for Shot {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let me = cx.object();
            cx.commands().remove(me);
            // Still alive until the queue applies: writes work.
            cx.transform_mut().position.y = 1.0;
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let gun = scene.spawn_with("Gun", Transform::from_position(Vec3::Z));
    scene.add_behaviour(gun, Spawner).unwrap();
    scene.tick(0.016);
    assert_eq!(
        scene.len(),
        2,
        "the shot exists once the tick's commands applied"
    );
    let shot = scene.children(gun).next().unwrap();
    assert!(close(
        scene.world_position(shot).unwrap(),
        Vec3::new(1.0, 0.0, 1.0)
    ));
    scene.tick(0.016);
    assert_eq!(
        scene.len(),
        2,
        "the first shot removed itself, a new one came"
    );
    assert!(!scene.contains(shot));
    assert!(scene.take_errors().is_empty());
}

#[test]
fn behaviours_read_other_objects_world_transforms() {
    struct Follow(GameObject);
    impl Behaviour for Follow {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let target = cx.world_position_of(self.0).ok_or("target gone")?;
            cx.transform_mut().position = target;
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let base = scene.spawn_with("Base", Transform::from_position(Vec3::X));
    let target = scene.spawn_child(base, "Target").unwrap();
    scene.object_mut(target).unwrap().set_position(Vec3::Y);
    let follower = scene.spawn("Follower");
    scene.add_behaviour(follower, Follow(target)).unwrap();
    scene.tick(0.016);
    assert!(close(
        scene.transform(follower).unwrap().position,
        Vec3::new(1.0, 1.0, 0.0)
    ));
}

#[test]
fn a_behaviour_error_reaches_the_caller_with_its_source() {
    #[derive(Debug, thiserror::Error)]
    #[error("out of ammo")]
    struct OutOfAmmo;
    struct Gun;
    impl Behaviour for Gun {
        fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            Err(OutOfAmmo)?
        }
        fn name(&self) -> &'static str {
            "Gun"
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("Gun");
    scene.add_behaviour(o, Gun).unwrap();
    scene.tick(0.016);
    let errors = scene.take_errors();
    assert_eq!(errors.len(), 1);
    let UpdateError::Behaviour {
        behaviour,
        object,
        stage,
        source,
    } = &errors[0]
    else {
        panic!("{:?}", errors[0]);
    };
    assert_eq!((*behaviour, *object, *stage), ("Gun", o, "update"));
    assert_eq!(source.to_string(), "out of ammo");
}

#[test]
fn loop_resources_exist_in_a_bare_scene() {
    struct UsesEverything;
    impl Behaviour for UsesEverything {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            cx.resource_mut::<GameRng>().next_u64();
            cx.resource_mut::<Timers>()
                .after(Delay::Seconds(1.0), TimerAction::Event(1))?;
            let _ = cx.resource::<Input>().pressed(Key::A);
            let _ = cx.resource::<FiredTimers>().events();
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("O");
    scene.add_behaviour(o, UsesEverything).unwrap();
    scene.tick(0.016);
    assert!(scene.take_errors().is_empty());
}

#[test]
fn read_only_questions_take_a_shared_scene() {
    let mut scene = Scene::new();
    let root = scene.spawn_with("Root", Transform::from_position(Vec3::X));
    let cam = scene.spawn_child(root, "Camera").unwrap();
    scene
        .add_component(cam, Camera::perspective(60.0, 0.1, 100.0, 1.0).unwrap())
        .unwrap();
    // Move after the last refresh: `&self` reads still see the truth.
    scene.object_mut(root).unwrap().set_position(Vec3::Y * 2.0);
    let shared: &Scene = &scene;
    assert!(close(shared.world_position(cam).unwrap(), Vec3::Y * 2.0));
    assert_eq!(shared.find_camera(), Some(cam));
    assert_eq!(shared.roots(), vec![root]);
    assert_eq!(shared.is_active(cam), Some(true));
}

#[test]
fn behaviours_read_their_own_transform_and_change_time_without_borrow_fights() {
    struct SlowMo;
    impl Behaviour for SlowMo {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let time = cx.time(); // by value: no borrow held
            let _ = cx.resource_mut::<GameRng>().next_u64();
            if time.frame_count() == 1 {
                cx.time_mut().set_scale(0.5)?;
            }
            let x = cx.transform().position.x;
            cx.transform_mut().position.x = x + 1.0;
            Ok(())
        }
    }
    let mut scene = Scene::new();
    let o = scene.spawn("O");
    scene.add_behaviour(o, SlowMo).unwrap();
    scene.tick(0.1);
    scene.tick(0.1);
    assert_eq!(scene.time().scale(), 0.5);
    assert_eq!(scene.transform(o).unwrap().position.x, 2.0);
    assert!((scene.time().elapsed() - 0.15).abs() < 1e-6);
}

#[test]
fn ids_wrap_past_the_top_without_repeating_a_live_one() {
    let mut scene = Scene::new();
    let first = scene.spawn("First");
    let loaded = scene.spawn("Loaded");
    scene.set_id(loaded, ObjectId(u64::MAX - 1)).unwrap();
    let mut seen = std::collections::HashSet::new();
    seen.insert(scene.id(first).unwrap());
    seen.insert(ObjectId(u64::MAX - 1));
    // The counter reaches the top, wraps, and must skip the ids still in use.
    for i in 0..5 {
        let o = scene.spawn(format!("New {i}"));
        assert!(seen.insert(scene.id(o).unwrap()), "duplicate id");
    }
}
