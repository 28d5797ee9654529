//! Skinned and morphing glTF models in a headless engine (lavapipe in CI):
//! joints are GameObjects, a bone driven from code moves the mesh, morph
//! weights follow their animation, mirrored nodes are not drawn inside out,
//! and a posed character matches its reference image in every preset.

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use taos_engine::gltf::{GltfSpawnOptions, SpawnedGltf};
use taos_engine::prelude::*;
use taos_engine::renderer::resources::MeshId;
use taos_engine::{Engine, EngineConfig, SkinnedMesh};
use taos_gltf::test_models;
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::Renderer;
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};

const SIZE: (u32, u32) = (120, 120);

fn engine_with(preset: impl FnOnce(&mut Renderer)) -> Engine {
    Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn engine() -> Engine {
    engine_with(forward_preset(PresetOptions::default()))
}

/// A camera looking at the box `(min, max)` from the front, and a sun.
fn look_at(engine: &mut Engine, centre: Vec3, radius: f32) {
    let eye = centre + Vec3::new(0.0, 0.3, 1.0).normalize() * radius * 3.0;
    let view = glam::camera::rh::view::look_at_mat4(eye, centre, Vec3::Y);
    let (_, rotation, position) = view.inverse().to_scale_rotation_translation();
    let scene = engine.scene_mut();
    let camera = scene.spawn_with("Camera", Transform::from_trs(position, rotation, Vec3::ONE));
    scene
        .add_component(
            camera,
            Camera::perspective(45.0, 0.05, radius * 20.0, 1.0).unwrap(),
        )
        .unwrap();
    let sun = scene.spawn("Sun");
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.3, -0.6, -1.0), Vec3::ONE, 3.0),
        )
        .unwrap();
}

fn load(engine: &mut Engine, path: &Path) -> SpawnedGltf {
    engine
        .load_gltf(path, &GltfSpawnOptions::default())
        .unwrap()
}

fn mesh_of(engine: &Engine, object: GameObject) -> MeshId {
    let renderer = engine
        .scene()
        .get_component::<MeshRenderer>(object)
        .unwrap();
    MeshId(renderer.mesh.0)
}

fn lit_pixels(pixels: &[u8]) -> usize {
    pixels.chunks_exact(4).filter(|p| p[0] > 40).count()
}

#[test]
fn a_skin_names_its_joints_objects_and_draws_a_deformed_instance() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = engine();
    let model = load(
        &mut engine,
        &test_models::two_bone_skin(dir.path()).unwrap(),
    );
    assert_eq!(model.skinned, [model.nodes[0].unwrap()]);
    let skin = engine
        .scene()
        .get_component::<SkinnedMesh>(model.skinned[0])
        .unwrap();
    assert_eq!(
        skin.joints(),
        [model.nodes[1].unwrap(), model.nodes[2].unwrap()]
    );
    assert_eq!(
        skin.inverse_bind_matrices(),
        test_models::two_bone_inverse_bind_matrices()
    );
    let mesh = mesh_of(&engine, model.skinned[0]);
    assert!(
        engine
            .renderer()
            .assets()
            .mesh(mesh)
            .unwrap()
            .deformed_from()
            .is_some(),
        "a skinned primitive draws a deformed instance"
    );
    // A second copy of the model gets its own instance.
    let copy = load(
        &mut engine,
        &test_models::two_bone_skin(dir.path()).unwrap(),
    );
    assert_ne!(mesh_of(&engine, copy.skinned[0]), mesh);
}

#[test]
fn a_bone_driven_from_code_moves_the_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = engine();
    let model = load(
        &mut engine,
        &test_models::two_bone_skin(dir.path()).unwrap(),
    );
    look_at(&mut engine, Vec3::new(0.0, 1.0, 0.0), 1.5);
    engine.frame().unwrap();
    let mesh = mesh_of(&engine, model.skinned[0]);
    let bounds = |engine: &mut Engine| engine.renderer().assets().mesh(mesh).unwrap().bounds();
    let (min, max) = bounds(&mut engine);
    assert!(
        (min.x + 0.5).abs() < 1e-4 && (max.y - 2.0).abs() < 1e-4,
        "bind pose {min} {max}"
    );
    let straight = engine.read_pixels().unwrap();

    // Bend the upper bone 90 degrees about +Z: the strip's top swings to -X.
    let bone = model.nodes[2].unwrap();
    engine
        .scene_mut()
        .object_mut(bone)
        .unwrap()
        .set_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    engine.frame().unwrap();
    let (min, max) = bounds(&mut engine);
    assert!(min.x < -0.95 && max.y < 1.6, "bent pose bounds {min} {max}");
    let bent = engine.read_pixels().unwrap();
    let changed = straight
        .chunks_exact(4)
        .zip(bent.chunks_exact(4))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 200,
        "bending the bone changed only {changed} pixels"
    );

    // A sword attached to the bone follows it.
    let sword = engine
        .scene_mut()
        .spawn_with("Sword", Transform::from_position(Vec3::new(0.0, 1.0, 0.0)));
    engine.scene_mut().add_child(bone, sword).unwrap();
    let at = engine.scene().world_matrix(sword).unwrap().translation;
    assert!(
        (Vec3::from(at) - Vec3::new(-1.0, 1.0, 0.0)).length() < 1e-4,
        "sword at {at}"
    );
}

#[test]
fn the_skinned_node_transform_is_ignored_as_the_specification_says() {
    // `mirrored_skin` differs from `two_bone_skin` only by a mirroring
    // scale on the skinned node, which glTF says does not move the mesh.
    let dir = tempfile::tempdir().unwrap();
    let render = |path: PathBuf| {
        let mut engine = engine();
        load(&mut engine, &path);
        look_at(&mut engine, Vec3::new(0.0, 1.0, 0.0), 1.5);
        engine.frame().unwrap();
        engine.read_pixels().unwrap()
    };
    let plain = render(test_models::two_bone_skin(dir.path()).unwrap());
    let mirrored = render(test_models::mirrored_skin(dir.path()).unwrap());
    assert!(lit_pixels(&plain) > 200);
    assert_eq!(plain, mirrored);
}

#[test]
fn joints_outside_the_scene_are_spawned_and_drawn_as_in_the_scene() {
    // The glTF tutorial's SimpleSkin lists only the skinned node in its
    // scene; its joints hang in no scene. They are spawned all the same.
    let dir = tempfile::tempdir().unwrap();
    let render = |path: PathBuf| {
        let mut engine = engine();
        let model = load(&mut engine, &path);
        look_at(&mut engine, Vec3::new(0.0, 1.0, 0.0), 1.5);
        engine.frame().unwrap();
        (model, engine.read_pixels().unwrap())
    };
    let (detached, pixels) = render(test_models::detached_joints_skin(dir.path()).unwrap());
    assert!(
        detached.nodes.iter().all(Option::is_some),
        "every node spawned"
    );
    assert!(
        detached
            .warnings
            .iter()
            .any(|w| w.contains("outside the scene")),
        "{:?}",
        detached.warnings
    );
    let (_, plain) = render(test_models::two_bone_skin(dir.path()).unwrap());
    assert_eq!(pixels, plain);
}

#[test]
fn a_mirrored_node_is_drawn_with_its_faces_outward() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::mirrored_nodes(dir.path()).unwrap();
    let render = |unmirror: bool| {
        let mut engine = engine();
        let model = load(&mut engine, &path);
        if unmirror {
            let left = model.nodes[0].unwrap();
            engine
                .scene_mut()
                .object_mut(left)
                .unwrap()
                .set_scale(Vec3::ONE);
            // The unmirrored cube must draw the shared, unflipped mesh.
            let right = mesh_of(&engine, model.nodes[1].unwrap());
            let mut renderer = *engine.scene().get_component::<MeshRenderer>(left).unwrap();
            renderer.mesh = taos_engine::MeshHandle(right.0);
            engine.scene_mut().add_component(left, renderer).unwrap();
        } else {
            assert_ne!(
                mesh_of(&engine, model.nodes[0].unwrap()),
                mesh_of(&engine, model.nodes[1].unwrap()),
                "the mirrored node draws its own, winding-flipped copy"
            );
        }
        look_at(&mut engine, Vec3::ZERO, 2.5);
        engine.frame().unwrap();
        engine.read_pixels().unwrap()
    };
    let mirrored = render(false);
    let reference = render(true);
    let (most, _) = mirrored
        .iter()
        .zip(&reference)
        .map(|(a, b)| a.abs_diff(*b))
        .enumerate()
        .map(|(i, d)| (d, i))
        .max()
        .unwrap();
    assert!(most <= 2, "the mirrored cube differs by {most}");
}

#[test]
fn morph_weights_start_at_the_files_defaults_and_follow_the_weights_animation() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = engine();
    let model = load(
        &mut engine,
        &test_models::morph_targets(dir.path()).unwrap(),
    );
    let object = model.morphing[0];
    let weights = |engine: &Engine| {
        engine
            .scene()
            .get_component::<MorphWeights>(object)
            .unwrap()
            .weights()
            .to_vec()
    };
    assert_eq!(weights(&engine), [0.5, 0.0]);
    look_at(&mut engine, Vec3::ZERO, 1.5);
    engine.frame().unwrap();
    let mesh = mesh_of(&engine, object);
    let (min, max) = engine.renderer().assets().mesh(mesh).unwrap().bounds();
    assert!(
        max.z >= 0.5 - 1e-4 && min.z <= 0.5,
        "target 0 at weight 0.5: {min} {max}"
    );
    let resting = engine.read_pixels().unwrap();

    // Play "Blend" for one second. Its two channels both drive the node's
    // weights (a file the specification calls invalid, read anyway): at
    // t = 1 the linear one gives (1, 0.5) and the cubic one (0.75, 0.5)
    // (Hermite at s = 0.5, d = 2: 0.125 * 2 * 1 + 0.5 * 1). Target 1 agrees.
    let root = model.root;
    engine
        .scene_mut()
        .get_component_mut::<AnimationPlayer>(root)
        .unwrap()
        .play(model.clips[0])
        .unwrap();
    for _ in 0..10 {
        engine.scene_mut().tick(0.1);
    }
    let w = weights(&engine);
    assert!((w[1] - 0.5).abs() < 1e-5, "{w:?}");
    assert!((0.75 - 1e-5..=1.0 + 1e-5).contains(&w[0]), "{w:?}");
    engine.frame().unwrap();
    let blended = engine.read_pixels().unwrap();
    assert_ne!(resting, blended, "the weights animation moved the vertices");
}

#[test]
fn a_posed_character_matches_its_reference_in_every_preset() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::two_bone_skin(dir.path()).unwrap();
    let no_taa = || {
        let mut options = DeferredOptions::default();
        options.common.taa = None;
        options
    };
    type Choose = fn(&mut Engine);
    let presets: [(&str, Choose); 3] = [
        ("forward", |e| {
            e.set_preset(forward_preset(PresetOptions::default()))
        }),
        ("forward_plus", |e| {
            e.set_preset(forward_plus_preset(PresetOptions::default()))
        }),
        ("deferred", |_| {}),
    ];
    for (name, choose) in presets {
        let mut engine = engine_with(deferred_preset(no_taa()));
        choose(&mut engine);
        let model = load(&mut engine, &path);
        let bone = model.nodes[2].unwrap();
        engine
            .scene_mut()
            .object_mut(bone)
            .unwrap()
            .set_rotation(Quat::from_rotation_z(0.8));
        look_at(&mut engine, Vec3::new(-0.3, 1.0, 0.0), 1.5);
        engine.frame().unwrap();
        let pixels = engine.read_pixels().unwrap();
        assert!(
            lit_pixels(&pixels) > 200,
            "{name}: the strip is not in view"
        );
        assert_matches_reference(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference"),
            &format!("skinned_strip_{name}"),
            SIZE.0,
            SIZE.1,
            &pixels,
            Tolerance {
                per_channel: 3,
                outlier_fraction: 0.01,
            },
        );
    }
}

#[test]
fn a_skin_of_300_joints_deforms_and_its_last_joint_moves_its_vertex() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = engine();
    let model = load(
        &mut engine,
        &test_models::many_joints_skin(dir.path()).unwrap(),
    );
    let skinned = model.skinned[0];
    let skin = engine
        .scene()
        .get_component::<SkinnedMesh>(skinned)
        .unwrap();
    assert_eq!(skin.joints().len(), test_models::MANY_JOINTS);
    // Joint i sits at (i, 0, 0) and, with identity inverse bind matrices,
    // carries vertex i to (i / 100 + i, i % 3, 0): the last vertex at x = 301.99.
    look_at(&mut engine, Vec3::new(150.0, 1.0, 0.0), 160.0);
    engine.frame().unwrap();
    let mesh = mesh_of(&engine, skinned);
    let (_, max) = engine.renderer().assets().mesh(mesh).unwrap().bounds();
    assert!((max.x - 301.99).abs() < 1e-3, "bounds reach {max}");
    // Lift the last joint: only its vertex follows.
    let last = model.nodes[test_models::MANY_JOINTS].unwrap();
    engine
        .scene_mut()
        .object_mut(last)
        .unwrap()
        .set_position(Vec3::new(299.0, 50.0, 0.0));
    engine.frame().unwrap();
    let (_, max) = engine.renderer().assets().mesh(mesh).unwrap().bounds();
    assert!(
        (max.y - 50.0).abs() < 2.5,
        "the lifted joint's vertex: {max}"
    );
}
