//! The edit history: a random sequence of editor commands, then undo all,
//! gives the starting scene; redo all gives the end scene (compared by
//! the objects' checksum and by every object's saved entry). A refused
//! command leaves the scene as it was; a gesture is one undo step.

use std::collections::BTreeMap;

use proptest::prelude::*;
use taos_core::deps::serde::{Deserialize, Serialize};
use taos_core::edit::{EditCommand, EditError, EditHistory};
use taos_core::game_loop::StateChecksum;
use taos_core::prelude::*;
use taos_core::scene_file::{SceneTypes, save_scene};

#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Health(i32);

fn types() -> SceneTypes {
    let mut types = SceneTypes::default();
    types.component::<Health>("test.Health");
    types
}

/// Every object's saved entry by id (order-free: undoing a deletion puts
/// the subtree back as its parent's last child), and the objects' checksum.
fn fingerprint(scene: &Scene) -> (u64, BTreeMap<u64, serde_json::Value>) {
    let text = save_scene(scene, &types()).unwrap().text;
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entries = doc["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["id"].as_u64().unwrap(), o.clone()))
        .collect();
    (StateChecksum::default().objects(scene), entries)
}

fn start() -> Scene {
    let mut scene = Scene::new();
    let room = scene.spawn_with("Room", Transform::from_position(Vec3::new(1.0, 0.0, 0.0)));
    let table = scene.spawn_child(room, "Table").unwrap();
    scene
        .object_mut(table)
        .unwrap()
        .set_position(Vec3::new(0.0, 0.5, 2.0));
    let lamp = scene.spawn_child(table, "Lamp").unwrap();
    scene
        .add_component(lamp, PointLight::new(Vec3::ONE, 3.0, 6.0))
        .unwrap();
    let guard = scene.spawn("Guard");
    scene.add_component(guard, Health(10)).unwrap();
    scene.spawn("Empty");
    scene
}

/// A command from random numbers, naming live objects.
fn command(scene: &Scene, kind: u8, a: usize, b: usize, x: f32) -> EditCommand {
    let mut ids: Vec<ObjectId> = Vec::new();
    let mut stack = scene.roots();
    while let Some(o) = stack.pop() {
        ids.push(scene.id(o).unwrap());
        stack.extend(scene.children(o));
    }
    ids.sort_unstable();
    let pick = |i: usize| {
        ids.get(i % ids.len().max(1))
            .copied()
            .unwrap_or(ObjectId(999))
    };
    let object = pick(a);
    match kind % 10 {
        0 => EditCommand::Rename {
            object,
            name: format!("renamed {b}"),
        },
        1 => EditCommand::SetTransform {
            object,
            transform: Transform::from_trs(
                Vec3::new(x, x * 0.5, -x),
                Quat::from_rotation_y(x),
                Vec3::splat(1.0 + x.abs()),
            ),
        },
        2 => EditCommand::SetEnabled {
            object,
            enabled: b.is_multiple_of(2),
        },
        3 => EditCommand::Reparent {
            object,
            parent: (!b.is_multiple_of(3)).then(|| pick(b)),
        },
        4 => EditCommand::Create {
            id: None,
            name: format!("new {b}"),
            parent: (b.is_multiple_of(2)).then(|| pick(b)),
            transform: Transform::from_position(Vec3::splat(x)),
        },
        5 => EditCommand::Delete { object },
        6 => EditCommand::Duplicate { object },
        7 => EditCommand::SetComponent {
            object,
            type_name: "test.Health".into(),
            value: (!b.is_multiple_of(3)).then(|| format!("{}", b as i32 - 50)),
        },
        8 => EditCommand::SetComponent {
            object,
            type_name: "taos.PointLight".into(),
            value: (b.is_multiple_of(2))
                .then(|| format!(r#"{{"color":[1.0,0.5,0.2],"intensity":{x},"range":4.0}}"#)),
        },
        _ => EditCommand::Batch(vec![
            EditCommand::Rename {
                object,
                name: "batched".into(),
            },
            EditCommand::SetEnabled {
                object: pick(b),
                enabled: false,
            },
        ]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: taos_hostile_inputs::cases(64), ..taos_hostile_inputs::config() })]

    #[test]
    fn undo_all_gives_the_start_and_redo_all_the_end(
        steps in proptest::collection::vec((any::<u8>(), 0_usize..64, 0_usize..64, -3.0_f32..3.0), 1..24)
    ) {
        let types = types();
        let mut scene = start();
        let first = fingerprint(&scene);
        let mut history = EditHistory::default();
        for &(kind, a, b, x) in &steps {
            let before = fingerprint(&scene);
            let command = command(&scene, kind, a, b, x);
            if history.apply(&mut scene, &types, command).is_err() {
                prop_assert_eq!(&fingerprint(&scene), &before, "a refused command changed the scene");
            }
        }
        let end = fingerprint(&scene);
        while history.undo_len() > 0 {
            history.undo(&mut scene, &types).unwrap();
        }
        prop_assert_eq!(&fingerprint(&scene), &first);
        while history.redo_len() > 0 {
            history.redo(&mut scene, &types).unwrap();
        }
        prop_assert_eq!(&fingerprint(&scene), &end);
    }
}

#[test]
fn a_gesture_is_one_undo_step() {
    let types = types();
    let mut scene = start();
    let guard = scene.id(scene.roots()[1]).unwrap();
    let mut history = EditHistory::default();
    let before = fingerprint(&scene);
    for i in 0..30 {
        let transform = Transform::from_position(Vec3::new(i as f32 * 0.1, 0.0, 0.0));
        history
            .apply_in_gesture(
                &mut scene,
                &types,
                EditCommand::SetTransform {
                    object: guard,
                    transform,
                },
                Some(7),
            )
            .unwrap();
    }
    assert_eq!(history.undo_len(), 1);
    let dragged = fingerprint(&scene);
    history.undo(&mut scene, &types).unwrap();
    assert_eq!(fingerprint(&scene), before);
    history.redo(&mut scene, &types).unwrap();
    assert_eq!(fingerprint(&scene), dragged);
    // A new gesture is a new step.
    history
        .apply_in_gesture(
            &mut scene,
            &types,
            EditCommand::SetEnabled {
                object: guard,
                enabled: false,
            },
            Some(8),
        )
        .unwrap();
    assert_eq!(history.undo_len(), 2);
}

#[test]
fn deleting_and_undoing_brings_back_the_same_ids_and_components() {
    let types = types();
    let mut scene = start();
    let room = scene.roots()[0];
    let ids: Vec<ObjectId> = {
        let table = scene.children(room).next().unwrap();
        let lamp = scene.children(table).next().unwrap();
        [room, table, lamp].map(|o| scene.id(o).unwrap()).to_vec()
    };
    let mut history = EditHistory::default();
    history
        .apply(&mut scene, &types, EditCommand::Delete { object: ids[0] })
        .unwrap();
    assert!(ids.iter().all(|&id| scene.find_by_id(id).is_none()));
    history.undo(&mut scene, &types).unwrap();
    let lamp = scene.find_by_id(ids[2]).unwrap();
    assert_eq!(scene.get_component::<PointLight>(lamp).unwrap().range, 6.0);
    assert_eq!(scene.parent(lamp), scene.find_by_id(ids[1]));
}

#[test]
fn bad_commands_are_refused() {
    let types = types();
    let mut scene = start();
    let mut history = EditHistory::default();
    let room = scene.id(scene.roots()[0]).unwrap();
    let table = scene
        .id(scene.children(scene.roots()[0]).next().unwrap())
        .unwrap();
    let cases = [
        (
            EditCommand::Delete {
                object: ObjectId(12345),
            },
            "no object",
        ),
        (
            EditCommand::Reparent {
                object: room,
                parent: Some(table),
            },
            "own subtree",
        ),
        (
            EditCommand::SetTransform {
                object: room,
                transform: Transform::from_position(Vec3::NAN),
            },
            "not finite",
        ),
        (
            EditCommand::SetComponent {
                object: room,
                type_name: "taos.PointLight".into(),
                value: Some("{\"color\": 3}".into()),
            },
            "taos.PointLight",
        ),
        (
            EditCommand::SetComponent {
                object: room,
                type_name: "nope".into(),
                value: None,
            },
            "not registered",
        ),
    ];
    let before = fingerprint(&scene);
    for (command, says) in cases {
        let error = history.apply(&mut scene, &types, command).unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
        assert_eq!(fingerprint(&scene), before);
    }
    assert_eq!(history.undo_len(), 0);
    assert!(matches!(
        history.undo(&mut scene, &types),
        Err(EditError::Empty("undo"))
    ));
}

mod viewport {
    use taos_core::edit::viewport::{drag_on_axis, pick, ray_through_pixel, snap};
    use taos_core::prelude::*;

    const VIEW: Vec2 = Vec2::new(400.0, 300.0);

    fn unit_cube(_: MeshHandle) -> Option<(Vec3, Vec3)> {
        Some((Vec3::splat(-0.5), Vec3::splat(0.5)))
    }

    fn stage() -> (Scene, GameObject) {
        let mut scene = Scene::new();
        let camera = scene.spawn_with("Camera", Transform::from_position(Vec3::new(0.0, 0.0, 5.0)));
        scene
            .add_component(
                camera,
                Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
            )
            .unwrap();
        (scene, camera)
    }

    fn cube(scene: &mut Scene, name: &str, transform: Transform) -> GameObject {
        let object = scene.spawn_with(name, transform);
        scene
            .add_component(object, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
            .unwrap();
        object
    }

    /// The pixel a world point is drawn at.
    fn pixel_of(scene: &Scene, camera: GameObject, point: Vec3) -> Vec2 {
        let view = Mat4::from(scene.world_matrix(camera).unwrap().inverse());
        let clip = scene
            .get_component::<Camera>(camera)
            .unwrap()
            .projection_matrix()
            * view
            * point.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        Vec2::new((ndc.x + 1.0) * 0.5 * VIEW.x, (1.0 - ndc.y) * 0.5 * VIEW.y)
    }

    #[test]
    fn a_click_picks_the_nearest_object_drawn_there() {
        let (mut scene, camera) = stage();
        let front = cube(&mut scene, "Front", Transform::IDENTITY);
        let back = cube(
            &mut scene,
            "Back",
            Transform::from_position(Vec3::new(0.0, 0.0, -3.0)),
        );
        let side = cube(
            &mut scene,
            "Side",
            Transform::from_position(Vec3::new(2.0, 0.5, 0.0)),
        );
        let centre = VIEW / 2.0;
        let hit = pick(&scene, camera, VIEW, centre, unit_cube).unwrap();
        assert_eq!(hit.object, front);
        assert!(
            (hit.point.z - 0.5).abs() < 1e-4,
            "the front face: {:?}",
            hit.point
        );
        let at_side = pixel_of(&scene, camera, Vec3::new(2.0, 0.5, 0.5));
        assert_eq!(
            pick(&scene, camera, VIEW, at_side, unit_cube)
                .unwrap()
                .object,
            side
        );
        assert!(pick(&scene, camera, VIEW, Vec2::new(2.0, 2.0), unit_cube).is_none());
        // Hidden objects are not picked: the one behind is.
        scene.set_enabled(front, false).unwrap();
        assert_eq!(
            pick(&scene, camera, VIEW, centre, unit_cube)
                .unwrap()
                .object,
            back
        );
    }

    #[test]
    fn a_turned_object_picks_by_its_own_box_not_its_world_box() {
        let (mut scene, camera) = stage();
        // A 4 m plank along the X=Y diagonal.
        let plank = cube(
            &mut scene,
            "Plank",
            Transform::from_trs(
                Vec3::ZERO,
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
                Vec3::new(4.0, 0.2, 0.2),
            ),
        );
        let on = pixel_of(&scene, camera, Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(
            pick(&scene, camera, VIEW, on, unit_cube).unwrap().object,
            plank
        );
        // Inside the plank's world box, off the plank.
        let off = pixel_of(&scene, camera, Vec3::new(1.0, -1.0, 0.0));
        assert!(pick(&scene, camera, VIEW, off, unit_cube).is_none());
    }

    #[test]
    fn a_drag_on_an_axis_moves_along_that_axis_only() {
        let (scene, camera) = stage();
        let from =
            ray_through_pixel(&scene, camera, VIEW, pixel_of(&scene, camera, Vec3::ZERO)).unwrap();
        // The cursor goes to where (1, 0.7, 0) is drawn: only the X part counts.
        let to_pixel = pixel_of(&scene, camera, Vec3::new(1.0, 0.7, 0.0));
        let to = ray_through_pixel(&scene, camera, VIEW, to_pixel).unwrap();
        let moved = drag_on_axis(&from, &to, Vec3::ZERO, Vec3::X).unwrap();
        assert_eq!((moved.y, moved.z), (0.0, 0.0));
        assert!((moved.x - 1.0).abs() < 0.05, "{moved}");
        let up = drag_on_axis(&from, &to, Vec3::ZERO, Vec3::Y).unwrap();
        assert_eq!((up.x, up.z), (0.0, 0.0));
        assert!((up.y - 0.7).abs() < 0.05, "{up}");
        // Looking down the Z arrow there is nothing to drag.
        assert!(drag_on_axis(&from, &from, Vec3::ZERO, Vec3::Z).is_none());
        assert_eq!(snap(0.74, 0.25), 0.75);
        assert_eq!(snap(-0.3, 0.0), -0.3);
    }

    #[test]
    fn no_ray_without_a_camera_or_a_viewport() {
        let (mut scene, camera) = stage();
        assert!(ray_through_pixel(&scene, camera, Vec2::ZERO, Vec2::ONE).is_none());
        assert!(ray_through_pixel(&scene, camera, VIEW, Vec2::NAN).is_none());
        let other = scene.spawn("Not a camera");
        assert!(ray_through_pixel(&scene, other, VIEW, Vec2::ONE).is_none());
    }
}
