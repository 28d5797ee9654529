//! Scene files: a scene saved, loaded and saved again gives the same text
//! and the same objects (ids, names, parents, flags, transforms bit for
//! bit, built-in and game components, behaviours, references by id);
//! unknown data round-trips untouched; every bad file is an error naming
//! the file, the line and the object, with the scene left as it was; and
//! random scenes round-trip (a property test).

use proptest::prelude::*;
use taos_core::deps::serde::{Deserialize, Serialize};
use taos_core::prelude::*;
use taos_core::scene_file::{
    AssetNames, SceneFileError, SceneTypes, UnknownData, load_scene, save_scene,
};

#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Health(i32);

/// A reference to another object, by its stable id.
#[derive(Component, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[serde(crate = "taos_core::deps::serde")]
struct Follows(ObjectId);

/// Counts its attachments in `on_attach` (a loaded behaviour is attached
/// like one added in code).
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(crate = "taos_core::deps::serde")]
struct Spinner {
    speed: f32,
    #[serde(skip)]
    attached: u32,
}

impl Behaviour for Spinner {
    fn on_attach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.attached += 1;
        Ok(())
    }
}

fn game_types() -> SceneTypes {
    let mut types = SceneTypes::default();
    types
        .component::<Health>("test.Health")
        .component::<Follows>("test.Follows")
        .behaviour::<Spinner>("test.Spinner");
    types
}

/// A level: a sun, a camera, a disabled lamp under a pivot under a room,
/// an orthographic map camera, a guard following the camera by id.
fn level() -> Scene {
    let mut scene = Scene::new();
    let sun = scene.spawn_with(
        "Sun",
        Transform::from_trs(Vec3::ZERO, Quat::from_rotation_x(-0.7), Vec3::ONE),
    );
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.2), Vec3::ONE, 3.0),
        )
        .unwrap();
    let camera = scene.spawn_with("Camera", Transform::from_position(Vec3::new(0.1, 1.7, 8.0)));
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 500.0, 16.0 / 9.0).unwrap(),
        )
        .unwrap();
    let room = scene.spawn_with(
        "Room \"A\"",
        Transform::from_trs(
            Vec3::new(3.0, 0.0, -2.5),
            Quat::from_rotation_y(0.3),
            Vec3::new(2.0, 1.0, 0.5),
        ),
    );
    let pivot = scene.spawn_child(room, "Pivot").unwrap();
    let lamp = scene.spawn_child(pivot, "Lamp").unwrap();
    scene
        .object_mut(lamp)
        .unwrap()
        .set_position(Vec3::new(0.0, 2.5, 0.0));
    scene
        .add_component(lamp, PointLight::new(Vec3::new(1.0, 0.8, 0.6), 4.0, 12.0))
        .unwrap();
    scene
        .add_component(lamp, SpotLight::new(Vec3::ONE, 2.0, 8.0, 20.0, 35.0))
        .unwrap();
    scene.set_enabled(lamp, false).unwrap();
    scene
        .add_behaviour(
            pivot,
            Spinner {
                speed: 1.5,
                attached: 0,
            },
        )
        .unwrap();
    let map = scene.spawn("Map camera");
    scene
        .add_component(map, Camera::orthographic(20.0, 0.0, 100.0, 1.0).unwrap())
        .unwrap();
    let guard = scene.spawn_with("Guard", Transform::from_position(Vec3::new(-4.0, 0.0, 1.0)));
    scene.add_component(guard, Health(75)).unwrap();
    let camera_id = scene.id(camera).unwrap();
    scene.add_component(guard, Follows(camera_id)).unwrap();
    scene
}

fn by_name(scene: &Scene, name: &str) -> GameObject {
    let mut found = None;
    let mut stack = scene.roots();
    while let Some(object) = stack.pop() {
        if scene.name(object) == Some(name) {
            found = Some(object);
        }
        stack.extend(scene.children(object));
    }
    found.unwrap_or_else(|| panic!("no object named {name}"))
}

#[test]
fn a_saved_scene_loads_back_the_same_and_saves_the_same_text() {
    let types = game_types();
    let original = level();
    let saved = save_scene(&original, &types).unwrap();
    assert!(saved.skipped.is_empty(), "{:?}", saved.skipped);

    let mut copy = Scene::new();
    let loaded = load_scene(&mut copy, &saved.text, "level.scene.json", &types, None).unwrap();
    assert_eq!(loaded.objects.len(), 7);
    assert_eq!(loaded.roots.len(), 5);
    assert!(loaded.unknown.is_empty());
    assert_eq!(save_scene(&copy, &types).unwrap().text, saved.text);

    for name in [
        "Sun",
        "Camera",
        "Room \"A\"",
        "Pivot",
        "Lamp",
        "Map camera",
        "Guard",
    ] {
        let (a, b) = (by_name(&original, name), by_name(&copy, name));
        assert_eq!(original.id(a), copy.id(b), "{name}: the id survives");
        let bits = |t: &Transform| {
            [t.position.to_array(), t.scale.to_array()]
                .concat()
                .into_iter()
                .chain(t.rotation.to_array())
                .map(f32::to_bits)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            bits(original.transform(a).unwrap()),
            bits(copy.transform(b).unwrap()),
            "{name}: the transform, bit for bit"
        );
        assert_eq!(original.is_enabled(a), copy.is_enabled(b), "{name}");
        assert_eq!(
            original.parent(a).and_then(|p| original.id(p)),
            copy.parent(b).and_then(|p| copy.id(p)),
            "{name}: the parent"
        );
    }
    let lamp = by_name(&copy, "Lamp");
    assert_eq!(copy.is_enabled(lamp), Some(false));
    assert_eq!(
        copy.get_component::<PointLight>(lamp),
        original.get_component::<PointLight>(by_name(&original, "Lamp"))
    );
    assert_eq!(
        copy.get_component::<Camera>(by_name(&copy, "Map camera"))
            .unwrap()
            .projection,
        original
            .get_component::<Camera>(by_name(&original, "Map camera"))
            .unwrap()
            .projection
    );
    // The guard still follows the camera: the reference is by id.
    let guard = by_name(&copy, "Guard");
    let follows = copy.get_component::<Follows>(guard).unwrap().0;
    assert_eq!(copy.find_by_id(follows), Some(by_name(&copy, "Camera")));
    assert_eq!(copy.get_component::<Health>(guard), Some(&Health(75)));
    // The behaviour was attached like one added in code.
    let spinner = copy.behaviour::<Spinner>(by_name(&copy, "Pivot")).unwrap();
    assert_eq!((spinner.speed, spinner.attached), (1.5, 1));
    // Fresh objects do not take a loaded id.
    let fresh = copy.spawn("Fresh");
    assert!(
        loaded
            .objects
            .iter()
            .all(|&(id, _)| Some(id) != copy.id(fresh))
    );
}

#[test]
fn unknown_components_and_behaviours_are_kept_and_written_back() {
    let saved = save_scene(&level(), &game_types()).unwrap().text;
    // An older game: it knows none of the test types.
    let older = SceneTypes::default();
    let mut scene = Scene::new();
    let loaded = load_scene(&mut scene, &saved, "newer.scene.json", &older, None).unwrap();
    assert_eq!(
        loaded.unknown,
        ["test.Follows", "test.Health", "test.Spinner"]
    );
    let guard = by_name(&scene, "Guard");
    let kept = scene.get_component::<UnknownData>(guard).unwrap();
    assert_eq!(kept.components["test.Health"], "75");
    assert_eq!(save_scene(&scene, &older).unwrap().text, saved);
}

#[test]
fn a_behaviour_that_is_not_registered_is_reported_as_skipped() {
    let mut scene = level();
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap();
    assert_eq!(saved.skipped.len(), 1);
    let pivot = by_name(&scene, "Pivot");
    assert_eq!(Some(saved.skipped[0].object), scene.id(pivot));
    scene.remove(pivot).unwrap();
}

#[test]
fn a_file_loads_under_a_parent() {
    let types = game_types();
    let saved = save_scene(&level(), &types).unwrap().text;
    let mut scene = Scene::new();
    let holder = scene.spawn_with(
        "Holder",
        Transform::from_position(Vec3::new(100.0, 0.0, 0.0)),
    );
    // Ids are kept as the file has them: the holder's must not be one of them.
    scene.set_id(holder, ObjectId(1000)).unwrap();
    let loaded = load_scene(&mut scene, &saved, "level.scene.json", &types, Some(holder)).unwrap();
    for &root in &loaded.roots {
        assert_eq!(scene.parent(root), Some(holder));
    }
    let guard = by_name(&scene, "Guard");
    assert_eq!(
        scene.world_position(guard).unwrap(),
        Vec3::new(96.0, 0.0, 1.0)
    );
}

/// Loads `text`, expecting an error, and checks the scene was not touched.
fn load_error(text: &str) -> SceneFileError {
    let mut scene = Scene::new();
    let keeper = scene.spawn("Keeper");
    scene.set_id(keeper, ObjectId(999)).unwrap();
    let keeper_id = scene.id(keeper).unwrap();
    let error = load_scene(&mut scene, text, "bad.scene.json", &game_types(), None)
        .expect_err("the file is refused");
    assert_eq!(scene.len(), 1, "nothing spawned: {error}");
    assert_eq!(scene.id(keeper), Some(keeper_id));
    assert!(error.to_string().starts_with("bad.scene.json"), "{error}");
    error
}

#[test]
fn bad_files_are_errors_naming_the_file_line_and_object() {
    let error = load_error("{\n  \"format\": 1,\n  \"objects\": [\n    {\"id\": 1,, }\n  ]\n}");
    assert!(
        matches!(error, SceneFileError::Syntax { line: 4, .. }),
        "{error}"
    );

    let error = load_error("{\"format\": 7, \"objects\": []}");
    assert!(
        matches!(error, SceneFileError::Format { found: 7, .. }),
        "{error}"
    );

    let text = "{\n\"format\": 1,\n\"objects\": [\n{\"id\": 5, \"name\": \"Guard\",\n\"components\": {\n\"test.Health\": \"lots\"\n}}\n]}";
    let error = load_error(text);
    assert!(
        matches!(&error, SceneFileError::Value { line: 6, id: ObjectId(5), type_name, .. } if type_name == "test.Health"),
        "{error}"
    );

    let text = "{\"format\": 1, \"objects\": [\n{\"id\": 1, \"name\": \"A\"},\n{\"id\": 1, \"name\": \"B\"}]}";
    let error = load_error(text);
    assert!(
        matches!(&error, SceneFileError::Object { line: 3, id: ObjectId(1), name, .. } if name == "B"),
        "{error}"
    );

    let text = "{\"format\": 1, \"objects\": [{\"id\": 1, \"name\": \"A\", \"parent\": 9}]}";
    assert!(
        load_error(text)
            .to_string()
            .contains("parent 9 is not in the file")
    );

    let text =
        "{\"format\": 1, \"objects\": [{\"id\": 1, \"parent\": 2}, {\"id\": 2, \"parent\": 1}]}";
    assert!(load_error(text).to_string().contains("cycle"));

    let text = "{\"format\": 1, \"objects\": [{\"id\": 1, \"rotation\": [0.0, 0.0, 0.0, 0.0]}]}";
    assert!(load_error(text).to_string().contains("no length"));

    let text = "{\"format\": 1, \"objects\": [{\"id\": 1, \"components\": {\"taos.Camera\": {\"perspective\": {\"fov_y\": 4.0, \"aspect\": 1.0, \"near\": 0.1, \"far\": 10.0}}}}]}";
    assert!(matches!(load_error(text), SceneFileError::Value { .. }));

    let text = "{\"format\": 1, \"objects\": [{\"id\": 1, \"colour\": 3}]}";
    assert!(matches!(load_error(text), SceneFileError::Syntax { .. }));
}

#[test]
fn an_id_the_scene_already_has_is_refused() {
    let types = game_types();
    let saved = save_scene(&level(), &types).unwrap().text;
    let mut scene = Scene::new();
    load_scene(&mut scene, &saved, "a.scene.json", &types, None).unwrap();
    let before = scene.len();
    let error = load_scene(&mut scene, &saved, "b.scene.json", &types, None).unwrap_err();
    assert!(matches!(error, SceneFileError::IdInUse { .. }), "{error}");
    assert_eq!(scene.len(), before);
}

/// A random tree of objects: each picks a parent among the earlier ones
/// (or none), a transform and maybe a light or a health.
fn random_scene(seed: u64, count: usize) -> Scene {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut unit = || (next() % 2_000_001) as f32 / 1_000_000.0 - 1.0;
    let mut scene = Scene::new();
    let mut objects = Vec::new();
    for i in 0..count {
        let transform = Transform::from_trs(
            Vec3::new(unit() * 50.0, unit() * 50.0, unit() * 50.0),
            Quat::from_xyzw(unit(), unit(), unit(), 1.0).normalize(),
            Vec3::new(1.0 + unit().abs(), 1.0, 0.5 + unit().abs()),
        );
        let object = scene.spawn_with(format!("Object {i} ✓"), transform);
        let pick = (unit().abs() * (objects.len() + 1) as f32) as usize;
        if let Some(&parent) = objects.get(pick) {
            scene.add_child(parent, object).unwrap();
        }
        if unit() > 0.5 {
            scene
                .add_component(
                    object,
                    PointLight::new(Vec3::splat(unit().abs()), unit().abs(), 5.0),
                )
                .unwrap();
        }
        if unit() > 0.0 {
            scene.add_component(object, Health(i as i32 - 7)).unwrap();
        }
        if unit() > 0.7 {
            scene.set_enabled(object, false).unwrap();
        }
        objects.push(object);
    }
    scene
}

fn saved_level() -> String {
    save_scene(&level(), &game_types()).unwrap().text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: taos_hostile_inputs::cases(64), ..taos_hostile_inputs::config() })]

    #[test]
    fn random_scenes_round_trip(seed in any::<u64>(), count in 1_usize..40) {
        let types = game_types();
        let scene = random_scene(seed, count);
        let saved = save_scene(&scene, &types).unwrap().text;
        let mut copy = Scene::new();
        load_scene(&mut copy, &saved, "random.scene.json", &types, None).unwrap();
        prop_assert_eq!(copy.len(), scene.len());
        prop_assert_eq!(save_scene(&copy, &types).unwrap().text, saved);
    }

    /// A damaged file loads or is refused, never panics; a refusal leaves
    /// the scene as it was.
    #[test]
    fn damaged_files_never_panic(
        mutations in proptest::collection::vec(taos_hostile_inputs::mutation(saved_level().len()), 1..4)
    ) {
        let bytes = taos_hostile_inputs::apply(saved_level().as_bytes(), &mutations);
        let text = String::from_utf8_lossy(&bytes);
        let mut scene = Scene::new();
        let keeper = scene.spawn("Keeper");
        scene.set_id(keeper, ObjectId(u64::MAX)).unwrap();
        match load_scene(&mut scene, &text, "damaged.scene.json", &game_types(), None) {
            Ok(loaded) => {
                prop_assert_eq!(scene.len(), 1 + loaded.objects.len());
                save_scene(&scene, &game_types()).unwrap();
            }
            Err(error) => {
                prop_assert_eq!(scene.len(), 1, "{}", error);
                prop_assert!(scene.contains(keeper));
            }
        }
    }
}

#[test]
fn mesh_renderers_are_saved_by_their_asset_names() {
    let types = game_types();
    let named = |scene: &mut Scene| {
        let mut names = AssetNames::default();
        names.name_mesh("crate", MeshHandle(4)).unwrap();
        names.name_material("wood", MaterialHandle(9)).unwrap();
        scene.world_mut().insert_resource(names);
    };
    let mut scene = Scene::new();
    named(&mut scene);
    let box_ = scene.spawn("Crate");
    let mut renderer = MeshRenderer::new(MeshHandle(4), MaterialHandle(9));
    renderer.cast_shadows = false;
    scene.add_component(box_, renderer).unwrap();
    let saved = save_scene(&scene, &types).unwrap().text;
    assert!(
        saved.contains(
            r#""taos.MeshRenderer": {"mesh":"crate","material":"wood","cast_shadows":false}"#
        ),
        "{saved}"
    );

    // Another run: the same names, other handles.
    let mut other = Scene::new();
    let mut names = AssetNames::default();
    names.name_mesh("crate", MeshHandle(1)).unwrap();
    names.name_material("wood", MaterialHandle(2)).unwrap();
    other.world_mut().insert_resource(names);
    let loaded = load_scene(&mut other, &saved, "crates.scene.json", &types, None).unwrap();
    let loaded_renderer = other
        .get_component::<MeshRenderer>(loaded.roots[0])
        .unwrap();
    assert_eq!(
        (
            loaded_renderer.mesh,
            loaded_renderer.material,
            loaded_renderer.cast_shadows
        ),
        (MeshHandle(1), MaterialHandle(2), false)
    );

    // A scene without those names refuses the file, naming the mesh.
    let mut bare = Scene::new();
    let error = load_scene(&mut bare, &saved, "crates.scene.json", &types, None).unwrap_err();
    assert!(
        error.to_string().contains(r#"no mesh is named "crate""#),
        "{error}"
    );
    // An unnamed mesh cannot be saved.
    let mut unnamed = Scene::new();
    let object = unnamed.spawn("Mystery");
    unnamed
        .add_component(object, MeshRenderer::new(MeshHandle(7), MaterialHandle(0)))
        .unwrap();
    let error = save_scene(&unnamed, &types).unwrap_err();
    assert!(error.to_string().contains("mesh 7 has no name"), "{error}");
}

#[test]
fn asset_names_are_unique_per_kind() {
    let mut names = AssetNames::default();
    names.name_mesh("a", MeshHandle(1)).unwrap();
    assert!(names.name_mesh("a", MeshHandle(2)).is_err());
    assert!(names.name_mesh("", MeshHandle(2)).is_err());
    // Renaming frees the old name.
    names.name_mesh("b", MeshHandle(1)).unwrap();
    assert_eq!(names.mesh("a"), None);
    names.name_mesh("a", MeshHandle(2)).unwrap();
    // Materials have their own names.
    names.name_material("a", MaterialHandle(1)).unwrap();
    assert_eq!(names.material_name(MaterialHandle(1)), Some("a"));
}
