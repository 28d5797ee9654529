//! Prefabs: a scene file instanced under objects, each instance saved as
//! its overrides; a changed prefab reaches every instance on reload while
//! overrides stay; deleted parts stay deleted; unpack breaks the link; a
//! missing prefab file is reported and the rest of the scene loads.

use std::collections::BTreeMap;

use taos_core::prelude::*;
use taos_core::scene_file::{
    LoadedScene, PrefabPart, SceneFileError, SceneTypes, instantiate_prefab, load_scene_with,
    part_id, save_scene, unpack_prefab,
};

/// A lamp post: a post with a lamp (a point light) on top.
const LAMP_POST: &str = r#"{
  "format": 1,
  "objects": [
    {
      "id": 1,
      "name": "Post",
      "scale": [0.2,3.0,0.2]
    },
    {
      "id": 2,
      "name": "Lamp",
      "position": [0.0,3.2,0.0],
      "components": {
        "taos.PointLight": {"color":[1.0,0.9,0.7],"intensity":5.0,"range":10.0}
      }
    }
  ]
}
"#;

/// Prefab files from a map, as a game's asset folder would serve them.
fn files<'t>(
    texts: &'t BTreeMap<&'static str, String>,
) -> impl FnMut(&str) -> Result<String, String> + 't {
    move |source: &str| {
        texts
            .get(source)
            .cloned()
            .ok_or_else(|| format!("no file {source:?}"))
    }
}

/// `saved` loaded into a fresh scene, prefabs read from `texts`.
fn reload(
    saved: &str,
    types: &SceneTypes,
    texts: &BTreeMap<&'static str, String>,
) -> (Scene, LoadedScene) {
    let mut copy = Scene::new();
    let loaded = load_scene_with(
        &mut copy,
        saved,
        "street.json",
        types,
        None,
        &mut files(texts),
    )
    .unwrap();
    (copy, loaded)
}

fn by_name(scene: &Scene, under: GameObject, name: &str) -> GameObject {
    let mut stack = vec![under];
    while let Some(object) = stack.pop() {
        if scene.name(object) == Some(name) {
            return object;
        }
        stack.extend(scene.children(object));
    }
    panic!("no {name} under {under:?}")
}

/// A street with two lamp posts; the second one's lamp is dimmer and moved.
fn street(texts: &BTreeMap<&'static str, String>) -> (Scene, GameObject, GameObject) {
    let types = SceneTypes::default();
    let mut scene = Scene::new();
    let street = scene.spawn("Street");
    let a = instantiate_prefab(
        &mut scene,
        "lamp_post.json",
        "Post A",
        &types,
        &mut files(texts),
        Some(street),
    )
    .unwrap();
    let b = instantiate_prefab(
        &mut scene,
        "lamp_post.json",
        "Post B",
        &types,
        &mut files(texts),
        Some(street),
    )
    .unwrap();
    scene
        .object_mut(b)
        .unwrap()
        .set_position(Vec3::new(10.0, 0.0, 0.0));
    let lamp = by_name(&scene, b, "Lamp");
    scene
        .get_component_mut::<PointLight>(lamp)
        .unwrap()
        .intensity = 2.0;
    scene
        .object_mut(lamp)
        .unwrap()
        .set_position(Vec3::new(0.5, 3.2, 0.0));
    (scene, a, b)
}

fn lamp_post_files() -> BTreeMap<&'static str, String> {
    BTreeMap::from([("lamp_post.json", LAMP_POST.to_owned())])
}

#[test]
fn instances_get_their_prefab_objects_with_ids_derived_from_theirs() {
    let texts = lamp_post_files();
    let (scene, a, b) = street(&texts);
    let a_id = scene.id(a).unwrap();
    let lamp_a = by_name(&scene, a, "Lamp");
    assert_eq!(scene.id(lamp_a), Some(part_id(a_id, ObjectId(2))));
    assert_eq!(
        scene.get_component::<PrefabPart>(lamp_a),
        Some(&PrefabPart {
            instance: a_id,
            local: ObjectId(2)
        })
    );
    assert_ne!(scene.id(by_name(&scene, b, "Lamp")), scene.id(lamp_a));
    assert_eq!(
        scene.get_component::<PointLight>(lamp_a).unwrap().intensity,
        5.0
    );
}

#[test]
fn an_instance_saves_only_its_overrides_and_loads_back_the_same() {
    let texts = lamp_post_files();
    let (scene, _, b) = street(&texts);
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap().text;
    // The lamp posts are not written out: only links and what B changed.
    assert!(!saved.contains("\"Post\""), "{saved}");
    assert_eq!(
        saved.matches("\"source\": \"lamp_post.json\"").count(),
        2,
        "{saved}"
    );
    assert!(
        saved.contains(r#"{"object": 2, "position": [0.5,3.2,0.0], "components": {"#),
        "{saved}"
    );
    assert!(
        saved
            .contains(r#""taos.PointLight": {"color":[1.0,0.9,0.7],"intensity":2.0,"range":10.0}"#)
    );

    let (copy, loaded) = reload(&saved, &types, &texts);
    assert!(loaded.problems.is_empty());
    assert_eq!(copy.len(), scene.len());
    assert_eq!(save_scene(&copy, &types).unwrap().text, saved);
    let b_copy = copy.find_by_id(scene.id(b).unwrap()).unwrap();
    let lamp = by_name(&copy, b_copy, "Lamp");
    assert_eq!(
        copy.get_component::<PointLight>(lamp).unwrap().intensity,
        2.0
    );
    assert_eq!(
        copy.transform(lamp).unwrap().position,
        Vec3::new(0.5, 3.2, 0.0)
    );
}

#[test]
fn a_changed_prefab_reaches_every_instance_and_overrides_stay() {
    let texts = lamp_post_files();
    let (scene, a, b) = street(&texts);
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap().text;
    // The artist makes posts taller and lamps red.
    let newer = LAMP_POST.replace("[0.2,3.0,0.2]", "[0.2,4.0,0.2]").replace(
        "[1.0,0.9,0.7],\"intensity\":5.0",
        "[1.0,0.2,0.1],\"intensity\":5.0",
    );
    let texts = BTreeMap::from([("lamp_post.json", newer)]);
    let (copy, _) = reload(&saved, &types, &texts);
    for instance in [a, b] {
        let root = copy.find_by_id(scene.id(instance).unwrap()).unwrap();
        let post = by_name(&copy, root, "Post");
        assert_eq!(
            copy.transform(post).unwrap().scale,
            Vec3::new(0.2, 4.0, 0.2)
        );
    }
    let lamp_a = by_name(
        &copy,
        copy.find_by_id(scene.id(a).unwrap()).unwrap(),
        "Lamp",
    );
    assert_eq!(
        copy.get_component::<PointLight>(lamp_a).unwrap().color,
        Vec3::new(1.0, 0.2, 0.1)
    );
    // B overrode its whole light: its override wins, red or not.
    let lamp_b = by_name(
        &copy,
        copy.find_by_id(scene.id(b).unwrap()).unwrap(),
        "Lamp",
    );
    let light = copy.get_component::<PointLight>(lamp_b).unwrap();
    assert_eq!(
        (light.intensity, light.color),
        (2.0, Vec3::new(1.0, 0.9, 0.7))
    );
    assert_eq!(
        copy.transform(lamp_b).unwrap().position,
        Vec3::new(0.5, 3.2, 0.0)
    );
}

#[test]
fn deleted_parts_and_removed_components_stay_gone_and_added_children_stay() {
    let texts = lamp_post_files();
    let (mut scene, a, _) = street(&texts);
    let types = SceneTypes::default();
    let post = by_name(&scene, a, "Post");
    let lamp = by_name(&scene, a, "Lamp");
    scene.remove(post).unwrap();
    scene.remove_component::<PointLight>(lamp);
    let sign = scene.spawn_child(lamp, "Sign").unwrap();
    scene
        .object_mut(sign)
        .unwrap()
        .set_position(Vec3::new(0.0, -1.0, 0.0));
    let saved = save_scene(&scene, &types).unwrap().text;
    assert!(saved.contains(r#""deleted": [1]"#), "{saved}");
    assert!(
        saved.contains(r#""removed": ["taos.PointLight"]"#),
        "{saved}"
    );

    let (copy, _) = reload(&saved, &types, &texts);
    let root = copy.find_by_id(scene.id(a).unwrap()).unwrap();
    let lamp = by_name(&copy, root, "Lamp");
    assert!(copy.get_component::<PointLight>(lamp).is_none());
    assert_eq!(copy.children(root).count(), 1, "the post stays deleted");
    let sign = by_name(&copy, lamp, "Sign");
    assert_eq!(copy.id(sign), scene.id(by_name(&scene, a, "Sign")));
    assert_eq!(save_scene(&copy, &types).unwrap().text, saved);
}

#[test]
fn unpack_breaks_the_link() {
    let texts = lamp_post_files();
    let (mut scene, a, _) = street(&texts);
    assert!(unpack_prefab(&mut scene, a));
    assert!(!unpack_prefab(&mut scene, a), "once");
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap().text;
    assert_eq!(
        saved.matches("\"source\"").count(),
        1,
        "only B is linked: {saved}"
    );
    assert!(
        saved.contains("\"name\": \"Post\""),
        "A's objects are written out"
    );
    // A changed prefab no longer reaches A.
    let texts = BTreeMap::from([(
        "lamp_post.json",
        LAMP_POST.replace("[0.2,3.0,0.2]", "[1.0,1.0,1.0]"),
    )]);
    let (copy, _) = reload(&saved, &types, &texts);
    let root = copy.find_by_id(scene.id(a).unwrap()).unwrap();
    let post = by_name(&copy, root, "Post");
    assert_eq!(
        copy.transform(post).unwrap().scale,
        Vec3::new(0.2, 3.0, 0.2)
    );
}

#[test]
fn a_missing_prefab_is_reported_and_the_rest_of_the_scene_loads() {
    let texts = lamp_post_files();
    let (scene, a, _) = street(&texts);
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap().text;
    let none = BTreeMap::new();
    let (copy, loaded) = reload(&saved, &types, &none);
    assert_eq!(loaded.problems.len(), 2);
    let problem = &loaded.problems[0];
    assert!(
        matches!(problem, SceneFileError::Prefab { source_file, .. } if source_file == "lamp_post.json"),
        "{problem}"
    );
    assert!(
        problem.to_string().contains("no file \"lamp_post.json\""),
        "{problem}"
    );
    // The street and both placeholders are there; saving writes them back as they were.
    let placeholder = copy.find_by_id(scene.id(a).unwrap()).unwrap();
    assert_eq!(copy.name(placeholder), Some("Post A"));
    assert_eq!(save_scene(&copy, &types).unwrap().text, saved);
}

#[test]
fn instantiating_a_missing_or_broken_prefab_is_an_error_and_spawns_nothing() {
    let types = SceneTypes::default();
    let mut scene = Scene::new();
    let none = BTreeMap::new();
    let error = instantiate_prefab(
        &mut scene,
        "gone.json",
        "X",
        &types,
        &mut files(&none),
        None,
    )
    .unwrap_err();
    assert!(matches!(error, SceneFileError::Prefab { .. }), "{error}");
    assert!(scene.is_empty());
    let broken = BTreeMap::from([(
        "broken.json",
        "{\"format\": 1, \"objects\": [{\"id\": 1,}]}".to_owned(),
    )]);
    let error = instantiate_prefab(
        &mut scene,
        "broken.json",
        "X",
        &types,
        &mut files(&broken),
        None,
    )
    .unwrap_err();
    assert!(error.to_string().contains("broken.json"), "{error}");
    assert!(scene.is_empty());
    // A prefab holding an instance (nesting is not supported yet).
    let nested = BTreeMap::from([(
        "outer.json",
        "{\"format\": 1, \"objects\": [{\"id\": 1, \"prefab\": {\"source\": \"outer.json\"}}]}"
            .to_owned(),
    )]);
    let error = instantiate_prefab(
        &mut scene,
        "outer.json",
        "X",
        &types,
        &mut files(&nested),
        None,
    )
    .unwrap_err();
    assert!(error.to_string().contains("nested"), "{error}");
    assert!(scene.is_empty());
}

#[test]
fn a_part_moved_out_of_its_instance_is_saved_as_an_ordinary_object() {
    let texts = lamp_post_files();
    let (mut scene, a, _) = street(&texts);
    let lamp = by_name(&scene, a, "Lamp");
    let lamp_id = scene.id(lamp).unwrap();
    scene.detach(lamp).unwrap();
    let types = SceneTypes::default();
    let saved = save_scene(&scene, &types).unwrap().text;
    assert!(saved.contains(r#""deleted": [2]"#), "{saved}");
    let (copy, _) = reload(&saved, &types, &texts);
    let moved = copy.find_by_id(lamp_id).expect("the lamp is still there");
    assert_eq!(copy.parent(moved), None);
    assert!(copy.get_component::<PointLight>(moved).is_some());
    assert_eq!(copy.len(), scene.len());
}
