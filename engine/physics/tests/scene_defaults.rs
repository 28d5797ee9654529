//! The physics components in hand-written scene files: a setting left out
//! takes the constructors' value, a refused value is an error naming the
//! file, the line, the object and the setting, and the stored form is the
//! one saved files already hold.

use glam::Vec3;
use taos_core::prelude::*;
use taos_core::scene_file::{SceneTypes, load_scene, save_scene};
use taos_physics::{Collider, CollisionLayers, Joint, JointTarget, Mass, RigidBody};

fn types() -> SceneTypes {
    let mut types = SceneTypes::default();
    taos_physics::scene_types(&mut types);
    types
}

/// A file of one object (id 1) with `components` (a JSON object's body).
fn file(components: &str) -> String {
    format!(
        "{{\n  \"format\": 1,\n  \"objects\": [\n    {{\n      \"id\": 1,\n      \"components\": {{\n        {components}\n      }}\n    }}\n  ]\n}}\n"
    )
}

/// The object of a scene loaded from `components`.
fn loaded(components: &str) -> (Scene, GameObject) {
    let mut scene = Scene::new();
    load_scene(&mut scene, &file(components), "level.json", &types(), None)
        .unwrap_or_else(|e| panic!("{components} loads: {e}"));
    let object = scene.find_by_id(ObjectId(1)).unwrap();
    (scene, object)
}

#[test]
fn a_collider_with_only_its_shape_takes_the_constructors_settings() {
    let (scene, object) = loaded(r#""taos.Collider": {"shape": {"Ball": {"radius": 0.5}}}"#);
    let collider = scene.get_component::<Collider>(object).unwrap();
    assert_eq!(collider, &Collider::ball(0.5).unwrap());
    assert_eq!(collider.friction(), 0.5);
    assert_eq!(collider.restitution(), 0.0);
    assert_eq!(collider.density(), 1000.0);
    assert_eq!(collider.layers(), CollisionLayers::ALL);
    assert!(!collider.is_sensor());
}

#[test]
fn an_empty_rigid_body_is_dynamic_with_the_constructors_settings() {
    let (scene, object) = loaded(r#""taos.RigidBody": {}"#);
    let body = scene.get_component::<RigidBody>(object).unwrap();
    assert_eq!(body, &RigidBody::dynamic());
    assert_eq!(body.mass(), Mass::FromDensity);
    assert_eq!(body.gravity_scale(), 1.0);

    let (scene, object) = loaded(r#""taos.RigidBody": {"kind": "Fixed", "linear_damping": 0.5}"#);
    let body = scene.get_component::<RigidBody>(object).unwrap();
    assert_eq!(
        body,
        &RigidBody::fixed().with_linear_damping(0.5).unwrap(),
        "the settings given are kept, the others are the constructor's"
    );
}

#[test]
fn a_joint_with_only_its_kind_takes_the_constructors_settings() {
    let (scene, object) = loaded(r#""taos.Joint": {"kind": "Ball"}"#);
    let joint = scene.get_component::<Joint>(object).unwrap();
    assert_eq!(joint, &Joint::ball());
    assert_eq!(joint.target(), JointTarget::World);
    assert_eq!(joint.anchor(), Vec3::ZERO);

    let (scene, object) = loaded(r#""taos.Joint": {"kind": {"Hinge": {"axis": [0.0, 0.0, 1.0]}}}"#);
    let joint = scene.get_component::<Joint>(object).unwrap();
    assert_eq!(joint, &Joint::hinge(Vec3::Z).unwrap());
}

#[test]
fn a_value_the_constructors_refuse_is_refused_on_load_naming_it() {
    let cases = [
        (
            r#""taos.Collider": {"shape": {"Ball": {"radius": 0.5}}, "friction": -1.0}"#,
            "friction",
        ),
        (
            r#""taos.Collider": {"shape": {"Ball": {"radius": -0.5}}}"#,
            "radius",
        ),
        (r#""taos.RigidBody": {"mass": {"Kilograms": 0.0}}"#, "mass"),
        (
            r#""taos.RigidBody": {"linear_damping": -2.0}"#,
            "linear damping",
        ),
        (
            r#""taos.Joint": {"kind": {"Rope": {"max_length": -1.0}}}"#,
            "rope length",
        ),
        (r#""taos.Collider": {"friction": 0.2}"#, "shape"),
        (r#""taos.Joint": {}"#, "kind"),
    ];
    for (components, named) in cases {
        let mut scene = Scene::new();
        let error = load_scene(&mut scene, &file(components), "level.json", &types(), None)
            .expect_err(components)
            .to_string();
        assert!(error.starts_with("level.json:"), "{error}");
        assert!(error.contains(named), "{components}: {error}");
        assert!(scene.find_by_id(ObjectId(1)).is_none(), "nothing spawned");
    }
}

#[test]
fn saved_components_keep_their_stored_form() {
    let mut scene = Scene::new();
    let object = scene.spawn("Crate");
    scene.add_component(object, RigidBody::dynamic()).unwrap();
    scene
        .add_component(object, Collider::ball(0.5).unwrap())
        .unwrap();
    scene.add_component(object, Joint::ball()).unwrap();
    let text = save_scene(&scene, &types()).unwrap().text;
    for line in [
        r#""taos.RigidBody": {"kind":"Dynamic","mass":"FromDensity","linear_damping":0.0,"angular_damping":0.0,"gravity_scale":1.0,"locked":0,"ccd":false,"linear_velocity":[0.0,0.0,0.0],"angular_velocity":[0.0,0.0,0.0]}"#,
        r#""taos.Collider": {"shape":{"Ball":{"radius":0.5}},"friction":0.5,"restitution":0.0,"density":1000.0,"layers":{"memberships":4294967295,"filter":4294967295},"sensor":false}"#,
        r#""taos.Joint": {"kind":"Ball","target":"World","anchor":[0.0,0.0,0.0],"connected_anchor":null,"contacts":false}"#,
    ] {
        assert!(text.contains(line), "{line}\nnot in\n{text}");
    }
    let mut copy = Scene::new();
    load_scene(&mut copy, &text, "saved.json", &types(), None).unwrap();
    assert_eq!(save_scene(&copy, &types()).unwrap().text, text);
}
