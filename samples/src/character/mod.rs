//! The character sample: a small third-person game written with the
//! engine's game kit. A skinned humanoid made in code walks about a yard of
//! crates, up a ramp onto a platform, and collects spinning coins (sensor
//! colliders). WASD walks, Control runs, Space jumps; drag with the left
//! button to orbit the camera (the right stick and touch do too), the wheel
//! zooms. It walks into the small crate to push it.
//!
//! The engine provides the rest: [`PlayerController::third_person`] inside a
//! [`PhysicsPlayer`] (rapier's character controller: slopes, steps, pushing,
//! sensors), its follow camera (pulled in at walls), and
//! [`Locomotion`](taos_engine::Locomotion) (idle, walk and run by intended
//! speed, strides in phase).
//!
//! - [`rig`]: the skeleton (joint objects) and the skinned box mesh;
//! - [`clips`]: idle, walk, run and jump, keyframed in code;
//! - [`walker`]: the behaviour tying controller, animation and sound;
//! - [`coin`]: the coins and their count; [`sound`]: the footstep.
//!
//! [`PlayerController::third_person`]: taos_engine::controllers::PlayerController::third_person
//! [`PhysicsPlayer`]: taos_engine::physics::PhysicsPlayer

pub mod clips;
pub mod coin;
pub mod rig;
pub mod sound;
pub mod walker;

use glam::{Quat, Vec3};
use taos_engine::physics::{Collider, PhysicsConfig, RigidBody};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{Engine, LayerSettings};

use clips::Clips;
use coin::{Coin, Coins};
use walker::{ClipSet, Walker};

/// The objects a test or game reaches into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CharacterScene {
    /// The character's root: feet, facing, [`AnimationPlayer`], skinned
    /// mesh and the [`Walker`] behaviour.
    pub character: GameObject,
    /// The hips joint (the skeleton's root bone).
    pub hips: GameObject,
    /// The camera the controller places.
    pub camera: GameObject,
    /// The coin on the platform at the top of the ramp.
    pub platform_coin: GameObject,
    /// The small crate the character can push.
    pub light_crate: GameObject,
}

/// The fixed crates around the yard: `(centre of the base, size)`.
const CRATES: [(Vec3, Vec3); 5] = [
    (Vec3::new(2.5, 0.0, -5.0), Vec3::new(1.2, 1.2, 1.2)),
    (Vec3::new(-3.0, 0.0, -7.0), Vec3::new(2.0, 0.8, 1.5)),
    (Vec3::new(3.0, 0.0, -11.0), Vec3::new(1.0, 3.0, 1.0)),
    (Vec3::new(-4.5, 0.0, -11.0), Vec3::new(1.5, 1.5, 1.5)),
    (Vec3::new(5.5, 0.0, 2.0), Vec3::new(1.0, 2.0, 3.0)),
];

/// The crate light enough to push: centre of the base, edge, kilograms.
const LIGHT_CRATE: (Vec3, f32, f32) = (Vec3::new(-1.5, 0.0, -3.0), 0.6, 6.0);

/// The ramp climbs towards -X from its foot at `x = RAMP_FOOT`, `RAMP_RUN`
/// metres at `RAMP_DEGREES`, across `z` in `±RAMP_HALF_WIDTH`.
const RAMP_FOOT: f32 = -3.0;
const RAMP_RUN: f32 = 4.0;
const RAMP_DEGREES: f32 = 17.0;
const RAMP_HALF_WIDTH: f32 = 1.5;
/// The ramp's thickness.
const RAMP_THICKNESS: f32 = 0.2;
/// The platform at the ramp's top, this long along -X.
const PLATFORM_LENGTH: f32 = 4.0;

/// How high the ramp climbs (the platform's top).
#[must_use]
pub fn platform_height() -> f32 {
    RAMP_RUN * RAMP_DEGREES.to_radians().tan()
}

/// The ramp: centre, rotation and half extents of its box.
fn ramp_box() -> (Vec3, Quat, Vec3) {
    let slope = RAMP_DEGREES.to_radians();
    // Rising towards -X: the +X end goes down.
    let rotation = Quat::from_rotation_z(-slope);
    let top_middle = Vec3::new(RAMP_FOOT - RAMP_RUN * 0.5, platform_height() * 0.5, 0.0);
    let normal = rotation * Vec3::Y;
    let half = Vec3::new(
        RAMP_RUN / slope.cos() * 0.5,
        RAMP_THICKNESS * 0.5,
        RAMP_HALF_WIDTH,
    );
    (top_middle - normal * half.y, rotation, half)
}

/// The platform: centre and half extents of its box.
fn platform_box() -> (Vec3, Vec3) {
    let height = platform_height();
    let half = Vec3::new(PLATFORM_LENGTH * 0.5, height * 0.5, RAMP_HALF_WIDTH);
    let centre = Vec3::new(RAMP_FOOT - RAMP_RUN - half.x, half.y, 0.0);
    (centre, half)
}

/// Where the coins spin: one on the platform, one in the yard.
#[must_use]
pub fn coin_positions() -> [Vec3; 2] {
    let (platform, _) = platform_box();
    [
        Vec3::new(platform.x, platform_height() + 0.7, 0.0),
        Vec3::new(1.5, 0.7, -2.0),
    ]
}

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
    let disc = assets.add_mesh(gpu, "coin", &MeshData::sphere(0.5, 24, 12));
    let body = assets.add_material(PbrMaterial {
        roughness: 0.7,
        ..PbrMaterial::color(Vec3::ONE)
    });
    let wood = assets.add_material(PbrMaterial {
        roughness: 0.85,
        ..PbrMaterial::color(Vec3::new(0.55, 0.38, 0.2))
    });
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::new(0.42, 0.4, 0.38))
    });
    let gold = assets.add_material(PbrMaterial {
        metallic: 1.0,
        roughness: 0.3,
        emissive: Vec3::new(0.25, 0.18, 0.02),
        ..PbrMaterial::color(Vec3::new(1.0, 0.78, 0.2))
    });
    // The grass is drawn by the shared helper; the ground collider below
    // is what the character stands on.
    let _ = crate::controllers::grass_ground(engine, Vec3::new(0.3, 0.5, 0.25))?;
    let scene = engine.scene_mut();
    taos_engine::physics::install(scene, PhysicsConfig::default());
    scene.world_mut().insert_resource(Coins {
        collected: 0,
        total: coin_positions().len() as u32,
    });
    let ground = scene.spawn_with(
        "Ground collider",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene.add_component(ground, Collider::cuboid(Vec3::new(30.0, 0.5, 30.0))?)?;

    for (i, (base, size)) in CRATES.into_iter().enumerate() {
        let centre = base + Vec3::Y * size.y * 0.5;
        let object = scene.spawn_with(
            format!("Crate {i}"),
            Transform::from_trs(centre, Quat::IDENTITY, size),
        );
        scene.add_component(object, MeshRenderer::new(cube.handle(), wood.handle()))?;
        scene.add_component(object, Collider::cuboid(size * 0.5)?)?;
    }
    let (base, edge, mass) = LIGHT_CRATE;
    let light_crate = scene.spawn_with(
        "Light crate",
        Transform::from_trs(
            base + Vec3::Y * edge * 0.5,
            Quat::IDENTITY,
            Vec3::splat(edge),
        ),
    );
    scene.add_component(light_crate, MeshRenderer::new(cube.handle(), wood.handle()))?;
    scene.add_component(light_crate, RigidBody::dynamic().with_mass(mass)?)?;
    scene.add_component(light_crate, Collider::cuboid(Vec3::splat(edge * 0.5))?)?;

    let (centre, rotation, half) = ramp_box();
    let ramp = scene.spawn_with("Ramp", Transform::from_trs(centre, rotation, half * 2.0));
    scene.add_component(ramp, MeshRenderer::new(cube.handle(), stone.handle()))?;
    scene.add_component(ramp, Collider::cuboid(half)?)?;
    let (centre, half) = platform_box();
    let platform = scene.spawn_with(
        "Platform",
        Transform::from_trs(centre, Quat::IDENTITY, half * 2.0),
    );
    scene.add_component(platform, MeshRenderer::new(cube.handle(), stone.handle()))?;
    scene.add_component(platform, Collider::cuboid(half)?)?;

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
    player.play_layer(ids.idle, LayerSettings::default().looping(true))?;
    scene.add_component(root, player)?;
    scene.add_behaviour(
        root,
        Walker::new(Vec3::ZERO, camera, ids, sound::footstep()?)?,
    )?;

    let mut coins = Vec::new();
    for (i, at) in coin_positions().into_iter().enumerate() {
        let coin = scene.spawn_with(
            format!("Coin {i}"),
            Transform::from_trs(at, Quat::IDENTITY, Vec3::new(0.6, 0.6, 0.12)),
        );
        scene.add_component(coin, MeshRenderer::new(disc.handle(), gold.handle()))?;
        scene.add_component(coin, Collider::ball(0.4)?.sensor(true))?;
        scene.add_behaviour(coin, Coin::new(root))?;
        coins.push(coin);
    }
    Ok(CharacterScene {
        character: root,
        hips: joints[rig::Bone::Hips.index()],
        camera,
        platform_coin: coins[0],
        light_crate,
    })
}
