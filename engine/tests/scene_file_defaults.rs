//! The scene-file chapter's table of fields (`docs/src/scene-files.md`,
//! "Every field, and what a field left out takes") checked against the
//! code, so the book cannot drift from it. For every built-in component
//! and behaviour:
//!
//! - its required fields alone load to what its builder makes;
//! - each listed default, written out, loads to what its builder makes too;
//! - leaving out a required field is refused;
//! - every field a save writes is listed, and every registered component
//!   has rows.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use taos_engine::audio::scene_file::AudioClipNames;
use taos_engine::audio::synth::tone;
use taos_engine::audio::{AudioClip, AudioListener, AudioSource};
use taos_engine::controllers::{CameraController, PlayerController};
use taos_engine::physics::{Collider, Joint, RigidBody};
use taos_engine::prelude::*;
use taos_engine::scene_file::{AssetNames, ModelFile, SceneTypes, load_scene, save_scene};

const BOOK: &str = include_str!("../../docs/src/scene-files.md");
const TABLE: &str = "### Every field, and what a field left out takes";

/// What a row says of a field left out.
#[derive(Debug)]
enum LeftOut {
    Required,
    /// The default, per sample label (`None`: every sample's).
    Default(Vec<(Option<String>, Value)>),
    /// Nothing to leave out (a component without fields).
    Nothing,
}

#[derive(Debug)]
struct Row {
    component: String,
    /// The field's name, or `None` when the row describes the whole value.
    field: Option<String>,
    left_out: LeftOut,
}

/// The text between the first pair of backticks of `cell`, if the cell is
/// exactly one backticked word.
fn backticked_name(cell: &str) -> Option<String> {
    let name = cell.strip_prefix('`')?.strip_suffix('`')?;
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        .then(|| name.to_owned())
}

/// "`v`", or "`a` (label), `b` (label)".
fn defaults(cell: &str) -> Vec<(Option<String>, Value)> {
    let mut values = Vec::new();
    let mut rest = cell;
    while let Some(start) = rest.find('`') {
        let after = &rest[start + 1..];
        let end = after.find('`').expect("backticks come in pairs");
        let value: Value = serde_json::from_str(&after[..end])
            .unwrap_or_else(|e| panic!("default {:?} is not JSON: {e}", &after[..end]));
        rest = &after[end + 1..];
        let label = rest
            .trim_start()
            .strip_prefix('(')
            .and_then(|l| l.split_once(')'))
            .map(|(label, _)| label.to_owned());
        values.push((label, value));
    }
    values
}

/// The rows of the chapter's table of fields.
fn rows() -> Vec<Row> {
    let table = &BOOK[BOOK
        .find(TABLE)
        .expect("the chapter has the table of fields")..];
    let mut component = String::new();
    let mut rows = Vec::new();
    for line in table
        .lines()
        .skip_while(|l| !l.starts_with("| component |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 4, "four cells: {line}");
        if !cells[0].is_empty() {
            component = backticked_name(cells[0]).expect("a component's name in backticks");
        }
        let left_out = match cells[3] {
            "required" => LeftOut::Required,
            "" => LeftOut::Nothing,
            cell => LeftOut::Default(defaults(cell)),
        };
        rows.push(Row {
            component: component.clone(),
            field: backticked_name(cells[1]),
            left_out,
        });
    }
    assert!(rows.len() > 50, "the table was read: {} rows", rows.len());
    rows
}

/// Puts what a builder made on an object.
type Add = Box<dyn FnOnce(&mut Scene, GameObject)>;

/// A component or a behaviour as the builder makes it.
enum Made {
    Component(Add),
    Behaviour(Add),
}

fn component<C: Component>(make: impl FnOnce() -> C + 'static) -> Made {
    Made::Component(Box::new(move |scene, object| {
        scene.add_component(object, make()).unwrap();
    }))
}

fn behaviour<B: Behaviour>(make: impl FnOnce() -> B + 'static) -> Made {
    Made::Behaviour(Box::new(move |scene, object| {
        scene.add_behaviour(object, make()).unwrap();
    }))
}

/// One way to write a component: a label (matching the table's labelled
/// defaults), its required fields, and what its builder makes from them.
struct Sample {
    label: &'static str,
    required: Value,
    made: fn() -> Made,
}

fn clip() -> AudioClip {
    AudioClip::from_mono(48_000, &tone(440.0, 0.01, 48_000)).unwrap()
}

/// Every built-in type's samples, by its stored name.
fn samples() -> BTreeMap<&'static str, Vec<Sample>> {
    let one = |required: Value, made: fn() -> Made| {
        vec![Sample {
            label: "",
            required,
            made,
        }]
    };
    BTreeMap::from([
        (
            "taos.Camera",
            one(
                json!({"perspective": {"fov_y": 1.0, "aspect": 1.5, "near": 0.1, "far": 100.0}}),
                || {
                    component(|| {
                        Camera::with_projection(Projection::Perspective {
                            fov_y: 1.0,
                            aspect: 1.5,
                            near: 0.1,
                            far: 100.0,
                        })
                        .unwrap()
                    })
                },
            ),
        ),
        (
            "taos.DirectionalLight",
            one(
                json!({"direction": [0.0, -1.0, 0.0], "color": [1.0, 0.5, 0.25], "intensity": 3.0}),
                || component(|| DirectionalLight::new(Vec3::NEG_Y, Vec3::new(1.0, 0.5, 0.25), 3.0)),
            ),
        ),
        (
            "taos.PointLight",
            one(
                json!({"color": [1.0, 0.5, 0.25], "intensity": 2.0, "range": 10.0}),
                || component(|| PointLight::new(Vec3::new(1.0, 0.5, 0.25), 2.0, 10.0)),
            ),
        ),
        (
            "taos.SpotLight",
            one(
                json!({"color": [1.0, 1.0, 1.0], "intensity": 2.0, "range": 10.0,
                       "inner_angle": 0.25, "outer_angle": 0.5}),
                || {
                    component(|| {
                        let mut light = SpotLight::new(Vec3::ONE, 2.0, 10.0, 0.0, 0.0);
                        light.inner_angle = 0.25;
                        light.outer_angle = 0.5;
                        light
                    })
                },
            ),
        ),
        (
            "taos.MeshRenderer",
            one(json!({"mesh": "cube", "material": "grey"}), || {
                component(|| MeshRenderer::new(MeshHandle(3), MaterialHandle(4)))
            }),
        ),
        (
            "taos.MorphWeights",
            one(json!([0.5, 0.25]), || {
                component(|| MorphWeights::new(vec![0.5, 0.25]).unwrap())
            }),
        ),
        (
            "taos.Tags",
            one(json!(["coin", "pickup"]), || {
                component(|| Tags::from_iter(["pickup", "coin"]))
            }),
        ),
        (
            "taos.Model",
            one(json!({"path": "props/lamp.glb"}), || {
                component(|| ModelFile::new("props/lamp.glb").unwrap())
            }),
        ),
        (
            "taos.CameraController",
            vec![
                Sample {
                    label: "orbit",
                    required: json!({"mode": {"orbit": {"target": [1.0, 2.0, 3.0], "distance": 7.0}}}),
                    made: || behaviour(|| CameraController::orbit(Vec3::new(1.0, 2.0, 3.0), 7.0)),
                },
                Sample {
                    label: "fly",
                    required: json!({"mode": "fly"}),
                    made: || behaviour(CameraController::fly),
                },
            ],
        ),
        (
            "taos.PlayerController",
            one(json!({}), || behaviour(PlayerController::default)),
        ),
        (
            "taos.AudioSource",
            one(json!({"clip": "hum"}), || {
                Made::Component(Box::new(|scene, object| {
                    let hum = AudioClipNames::of(scene).clip("hum").unwrap().clone();
                    scene.add_component(object, AudioSource::new(hum)).unwrap();
                }))
            }),
        ),
        (
            "taos.AudioListener",
            one(json!({}), || component(|| AudioListener)),
        ),
        (
            "taos.RigidBody",
            one(json!({}), || component(RigidBody::dynamic)),
        ),
        (
            "taos.Collider",
            one(json!({"shape": {"Ball": {"radius": 0.5}}}), || {
                component(|| Collider::ball(0.5).unwrap())
            }),
        ),
        (
            "taos.Joint",
            one(json!({"kind": "Ball"}), || component(Joint::ball)),
        ),
    ])
}

/// A scene with the names the samples use.
fn scene() -> Scene {
    let mut scene = Scene::new();
    let mut names = AssetNames::default();
    names.name_mesh("cube", MeshHandle(3)).unwrap();
    names.name_material("grey", MaterialHandle(4)).unwrap();
    scene.world_mut().insert_resource(names);
    AudioClipNames::of(&mut scene).name("hum", clip());
    scene
}

/// What `scene`'s only object stores under `name`, as a save writes it.
fn stored(scene: &Scene, types: &SceneTypes, name: &str) -> Value {
    let text = save_scene(scene, types).unwrap().text;
    let file: Value = serde_json::from_str(&text).unwrap();
    let object = &file["objects"][0];
    if let Some(value) = object["components"].get(name) {
        return value.clone();
    }
    object["behaviours"]
        .as_array()
        .and_then(|all| all.iter().find(|b| b["type"] == name))
        .map(|b| b["data"].clone())
        .unwrap_or_else(|| panic!("{name} is not in the saved file:\n{text}"))
}

/// What the builder's value stores.
fn made_stored(sample: &Sample, types: &SceneTypes, name: &str) -> Value {
    let mut scene = scene();
    let object = scene.spawn("");
    match (sample.made)() {
        Made::Component(add) | Made::Behaviour(add) => add(&mut scene, object),
    }
    stored(&scene, types, name)
}

/// A file of one object carrying `value` as `name`.
fn file(name: &str, value: &Value, is_behaviour: bool) -> String {
    let object = if is_behaviour {
        json!({"id": 1, "behaviours": [{"type": name, "data": value}]})
    } else {
        json!({"id": 1, "components": {name: value}})
    };
    json!({"format": 1, "objects": [object]}).to_string()
}

/// Loads `value` as `name`, then what it stores; or the load's error.
fn loaded_stored(
    types: &SceneTypes,
    name: &str,
    value: &Value,
    is_behaviour: bool,
) -> Result<Value, String> {
    let mut scene = scene();
    load_scene(
        &mut scene,
        &file(name, value, is_behaviour),
        "t.json",
        types,
        None,
    )
    .map_err(|e| e.to_string())?;
    Ok(stored(&scene, types, name))
}

#[test]
fn the_books_table_of_fields_matches_the_builders() {
    let types = taos_engine::scene_types();
    let rows = rows();
    let samples = samples();
    let listed: Vec<&str> = {
        let mut names: Vec<&str> = rows.iter().map(|r| r.component.as_str()).collect();
        names.dedup();
        names
    };
    for name in types.component_names() {
        assert!(listed.contains(&name), "{name} has no rows in the book");
    }
    for name in &listed {
        assert!(samples.contains_key(name), "{name}: no sample in this test");
    }

    for (name, samples) in &samples {
        let rows: Vec<&Row> = rows.iter().filter(|r| r.component == *name).collect();
        assert!(!rows.is_empty(), "{name} has no rows in the book");
        for sample in samples {
            let is_behaviour = matches!((sample.made)(), Made::Behaviour(_));
            let made = made_stored(sample, &types, name);
            let at = format!("{name} ({})", sample.label);

            // The required fields alone load to the builder's value.
            let minimal = loaded_stored(&types, name, &sample.required, is_behaviour)
                .unwrap_or_else(|e| panic!("{at}: the required fields alone: {e}"));
            assert_eq!(
                minimal, made,
                "{at}: left-out fields differ from the builder's"
            );

            // Every field a save writes is listed.
            if let Value::Object(fields) = &made {
                for field in fields.keys() {
                    assert!(
                        rows.iter().any(|r| r.field.as_deref() == Some(field)),
                        "{at}: field {field} is saved but not in the book"
                    );
                }
            }

            for row in &rows {
                let Some(field) = &row.field else { continue };
                match &row.left_out {
                    LeftOut::Required => {
                        let mut without = sample.required.clone();
                        let removed = without
                            .as_object_mut()
                            .and_then(|fields| fields.remove(field));
                        assert!(removed.is_some(), "{at}: the sample lacks required {field}");
                        assert!(
                            loaded_stored(&types, name, &without, is_behaviour).is_err(),
                            "{at}: loads without required {field}"
                        );
                    }
                    LeftOut::Default(values) => {
                        let value = values
                            .iter()
                            .find(|(label, _)| {
                                label.is_none() || label.as_deref() == Some(sample.label)
                            })
                            .map(|(_, value)| value)
                            .unwrap_or_else(|| panic!("{at}: no default of {field} for it"));
                        let mut with = sample.required.clone();
                        with.as_object_mut()
                            .expect("fields with defaults are an object's")
                            .insert(field.clone(), value.clone());
                        let written = loaded_stored(&types, name, &with, is_behaviour)
                            .unwrap_or_else(|e| panic!("{at}: {field} = {value}: {e}"));
                        assert_eq!(
                            written, made,
                            "{at}: the book's default of {field} ({value}) is not the builder's"
                        );
                    }
                    LeftOut::Nothing => {}
                }
            }
        }
    }
}
