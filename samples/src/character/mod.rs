//! The character sample: a skinned humanoid made in code walks about a yard
//! of crates, moved by the engine's [`PlayerController`]
//! (`taos_engine::controllers`): WASD walks, Control runs,
//! Space jumps. Idle, walk and run blend by speed, the jump cross-fades in
//! and out, footstep events play a footstep sound, and a third-person camera
//! follows (drag to orbit, wheel to zoom).
//!
//! - [`rig`]: the skeleton (joint objects) and the skinned box mesh;
//! - [`clips`]: idle, walk, run and jump, keyframed in code;
//! - [`walker`]: the behaviour tying controller, animation, sound and camera;
//! - [`camera`]: the follow camera; [`sound`]: the footstep.
//!
//! [`PlayerController`]: taos_engine::controllers::PlayerController

pub mod camera;
pub mod clips;
pub mod rig;
pub mod sound;
pub mod walker;

use glam::{Quat, Vec3};
use taos_engine::controllers::{Aabb, BoxWorld, SceneCollision};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{Engine, LayerSettings};

use clips::Clips;
use walker::{ClipSet, Walker};

/// The objects a test or game reaches into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CharacterScene {
    /// The character's root: feet, facing, [`AnimationPlayer`], skinned
    /// mesh and the [`Walker`] behaviour.
    pub character: GameObject,
    /// The hips joint (the skeleton's root bone).
    pub hips: GameObject,
    /// The camera the walker places.
    pub camera: GameObject,
}

/// The crates around the yard: `(centre of the base, size)`.
const CRATES: [(Vec3, Vec3); 6] = [
    (Vec3::new(2.5, 0.0, -5.0), Vec3::new(1.2, 1.2, 1.2)),
    (Vec3::new(-3.0, 0.0, -7.0), Vec3::new(2.0, 0.8, 1.5)),
    (Vec3::new(3.0, 0.0, -11.0), Vec3::new(1.0, 3.0, 1.0)),
    (Vec3::new(-5.0, 0.0, 1.0), Vec3::new(1.5, 1.5, 1.5)),
    (Vec3::new(5.5, 0.0, 2.0), Vec3::new(1.0, 2.0, 3.0)),
    (Vec3::new(-1.5, 0.0, -3.0), Vec3::new(0.6, 0.6, 0.6)),
];

/// The sample's preset: forward, under a flat blue sky.
pub fn character_preset() -> impl FnOnce(&mut Renderer) {
    forward_preset(PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.35, 0.55, 0.9)),
        ..PresetOptions::default()
    })
}

/// Fills `engine` with the character sample (see the module docs).
///
/// # Errors
/// If an asset or component is refused (never for this fixed scene).
pub fn character(engine: &mut Engine) -> anyhow::Result<()> {
    spawn_character_scene(engine).map(|_| ())
}

/// [`character`], returning the objects a test inspects.
///
/// # Errors
/// As [`character`].
pub fn spawn_character_scene(engine: &mut Engine) -> anyhow::Result<CharacterScene> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let source = assets.add_deformable_mesh(gpu, "character", rig::body_mesh()?)?;
    let body_mesh = assets
        .add_deformed_instance(gpu, source)
        .ok_or_else(|| anyhow::anyhow!("the character mesh was not uploaded"))?;
    let cube = assets.add_mesh(gpu, "crate", &MeshData::cube(1.0));
    let body = assets.add_material(PbrMaterial {
        roughness: 0.7,
        ..PbrMaterial::color(Vec3::ONE)
    });
    let wood = assets.add_material(PbrMaterial {
        roughness: 0.85,
        ..PbrMaterial::color(Vec3::new(0.55, 0.38, 0.2))
    });
    let mut solids = crate::controllers::grass_ground(engine, Vec3::new(0.3, 0.5, 0.25))?;
    let scene = engine.scene_mut();
    for (i, (base, size)) in CRATES.into_iter().enumerate() {
        let centre = base + Vec3::Y * size.y * 0.5;
        let object = scene.spawn_with(
            format!("Crate {i}"),
            Transform::from_trs(centre, Quat::IDENTITY, size),
        );
        scene.add_component(object, MeshRenderer::new(cube.handle(), wood.handle()))?;
        solids.push(Aabb::new(centre - size * 0.5, centre + size * 0.5));
    }
    scene
        .world_mut()
        .insert_resource(SceneCollision(Box::new(BoxWorld(solids))));
    let sun = scene.spawn("Sun");
    scene.add_component(
        sun,
        DirectionalLight::new(Vec3::new(-0.4, -1.0, -0.6), Vec3::ONE, 3.0),
    )?;

    let camera = scene.spawn("Camera");
    scene.add_component(camera, Camera::perspective(60.0, 0.1, 200.0, 4.0 / 3.0)?)?;

    let root = scene.spawn("Character");
    let joints = rig::spawn_skeleton(scene, root)?;
    scene.add_component(root, MeshRenderer::new(body_mesh.handle(), body.handle()))?;
    scene.add_component(
        root,
        SkinnedMesh::new(joints.clone(), rig::inverse_bind_matrices())?,
    )?;
    let clips = Clips::new(&joints)?;
    let mut player = AnimationPlayer::new();
    let ids = ClipSet {
        idle: player.add_clip(clips.idle),
        walk: player.add_clip(clips.walk),
        run: player.add_clip(clips.run),
        jump: player.add_clip(clips.jump),
    };
    for (clip, weight) in [(ids.idle, 1.0), (ids.walk, 0.0), (ids.run, 0.0)] {
        player.play_layer(clip, LayerSettings::default().weight(weight).looping(true))?;
    }
    scene.add_component(root, player)?;
    scene.add_behaviour(
        root,
        Walker::new(Vec3::ZERO, camera, ids, sound::footstep()?),
    )?;
    Ok(CharacterScene {
        character: root,
        hips: joints[rig::Bone::Hips.index()],
        camera,
    })
}
