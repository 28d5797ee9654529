//! The physics sample: a stack of crates, balls rolling down a ramp through
//! a trigger zone that counts them (a block rises beside the zone for each
//! ball), a heavy ball swinging on a hinge from a gallows, and a
//! first-person player (WASD, Space, the mouse looks) walking among them,
//! pushing the crates. Everything solid is a `taos_physics` collider; the
//! player is the core's `PlayerController` over the physics world
//! (`PhysicsPlayer`).

use std::collections::BTreeSet;

use glam::{Quat, Vec3};
use taos_engine::Engine;
use taos_engine::controllers::PlayerController;
use taos_engine::game_loop::LoopConfig;
use taos_engine::physics::{
    Collider, Joint, Physics, PhysicsConfig, PhysicsEventKind, PhysicsPlayer, RigidBody,
};
use taos_engine::prelude::*;
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

/// The sample's fixed tick rate: the physics steps once per tick.
pub const PHYSICS_HZ: u32 = 60;

/// How many balls roll down the ramp.
pub const BALLS: usize = 4;

/// The ramp's slope, radians (it falls toward -X).
const RAMP_SLOPE: f32 = 0.35;

/// Where the ramp's centre is.
const RAMP_CENTRE: Vec3 = Vec3::new(5.0, 1.15, -4.0);

/// The ramp's half extents before it is turned.
const RAMP_HALF: Vec3 = Vec3::new(3.2, 0.1, 1.2);

/// The swinging ball's pivot (under the gallows' beam) and arm length.
pub const PIVOT: Vec3 = Vec3::new(1.0, 4.0, 0.5);
/// How far below the pivot the swinging ball hangs.
pub const ARM: f32 = 2.5;
/// The angle from straight down the swing starts at, radians.
const SWING_START: f32 = 0.9;

/// The trigger zone's centre and half extents: across the balls' path,
/// its bottom 0.1 m above the ground (a zone touching the ground's collider
/// would count the ground).
const ZONE_CENTRE: Vec3 = Vec3::new(-1.0, 1.1, -4.0);
const ZONE_HALF: Vec3 = Vec3::new(0.5, 1.0, 1.5);

/// The loop the sample runs under: fixed ticks at [`PHYSICS_HZ`].
///
/// # Panics
/// Never: the rate is valid.
#[must_use]
pub fn physics_loop() -> LoopConfig {
    LoopConfig::fixed(PHYSICS_HZ).expect("60 Hz is a valid rate")
}

/// How many different objects have entered the trigger zone.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct TriggerCount {
    /// The objects counted so far, by stable id.
    pub seen: BTreeSet<ObjectId>,
}

impl TriggerCount {
    /// How many objects passed through.
    #[must_use]
    pub fn count(&self) -> usize {
        self.seen.len()
    }
}

/// The trigger zone's behaviour: counts the objects entering it (from the
/// last step's events) and raises one counter block per object.
#[derive(Debug)]
pub struct TriggerCounter {
    /// The counter blocks, raised in order.
    pub blocks: Vec<GameObject>,
}

impl Behaviour for TriggerCounter {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let me = cx.object();
        let entered: Vec<ObjectId> = cx
            .resource::<Physics>()
            .events_of(me)
            .filter(|event| event.kind == PhysicsEventKind::TriggerEnter)
            .map(|event| event.other_id)
            .collect();
        if entered.is_empty() {
            return Ok(());
        }
        let count = {
            let mut counter = cx.resource_mut::<TriggerCount>();
            counter.seen.extend(entered);
            counter.count()
        };
        for (i, &block) in self.blocks.iter().enumerate().take(count) {
            let raised = counter_block_position(i, true);
            if let Some(mut transform) = cx.world_mut().get_mut::<Transform>(block.entity())
                && transform.position != raised
            {
                transform.position = raised;
            }
        }
        Ok(())
    }
}

/// Where counter block `i` stands: raised beside the zone, or hidden under
/// the ground.
fn counter_block_position(i: usize, raised: bool) -> Vec3 {
    let y = if raised { 2.4 } else { -1.0 };
    Vec3::new(
        ZONE_CENTRE.x - 0.9 + i as f32 * 0.6,
        y,
        ZONE_CENTRE.z + ZONE_HALF.z + 0.3,
    )
}

/// A gallows (a post and a beam reaching toward the camera, fixed
/// colliders) with a heavy ball hanging from a hinge under the beam's end
/// (about Z), let go from [`SWING_START`] radians: it swings in the X-Y
/// plane, across the player's path.
fn gallows(
    scene: &mut Scene,
    cube: MeshHandle,
    ball: MeshHandle,
    [wood, stone]: [MaterialHandle; 2],
) -> anyhow::Result<()> {
    let beam_y = PIVOT.y + 0.25;
    for (name, position, half) in [
        (
            "Gallows post",
            Vec3::new(PIVOT.x, beam_y / 2.0, PIVOT.z - 1.2),
            Vec3::new(0.15, beam_y / 2.0, 0.15),
        ),
        (
            "Gallows beam",
            Vec3::new(PIVOT.x, beam_y, PIVOT.z - 0.5),
            Vec3::new(0.15, 0.15, 0.85),
        ),
    ] {
        let object = scene.spawn_with(
            name,
            Transform::from_trs(position, Quat::IDENTITY, half * 2.0),
        );
        scene.add_component(object, MeshRenderer::new(cube, wood))?;
        scene.add_component(object, Collider::cuboid(half)?)?;
    }
    let (sin, cos) = SWING_START.sin_cos();
    let start = PIVOT + Vec3::new(sin, -cos, 0.0) * ARM;
    let swinging = scene.spawn_with(
        "Swinging ball",
        Transform::from_trs(start, Quat::IDENTITY, Vec3::splat(2.0)),
    );
    scene.add_component(swinging, MeshRenderer::new(ball, stone))?;
    scene.add_component(swinging, RigidBody::dynamic().with_mass(60.0)?)?;
    scene.add_component(swinging, Collider::ball(0.6)?)?;
    // The hinge's anchor in the ball's frame is the pivot; its axis, Z.
    let hinge = Joint::hinge(Vec3::Z)?.with_anchor(PIVOT - start)?;
    scene.add_component(swinging, hinge)?;
    Ok(())
}

/// The crates' positions: a 3-2-1 pyramid of 1 m crates.
fn crate_positions() -> Vec<Vec3> {
    let mut out = Vec::new();
    for (row, count) in [3, 2, 1].into_iter().enumerate() {
        let y = 0.5 + row as f32 * 1.01;
        for i in 0..count {
            let x = -4.5 + (i as f32 + row as f32 * 0.5) * 1.02;
            out.push(Vec3::new(x, y, 1.0));
        }
    }
    out
}

/// The balls' starting positions, resting on the ramp's high end.
fn ball_positions() -> Vec<Vec3> {
    let (sin, cos) = RAMP_SLOPE.sin_cos();
    (0..BALLS)
        .map(|i| {
            // Along the ramp from its high end, on its top face.
            let along = RAMP_HALF.x - 0.4 - i as f32 * 0.7;
            let lift = RAMP_HALF.y + 0.3 + 0.02;
            let z = RAMP_CENTRE.z - 0.6 + (i % 2) as f32 * 1.2;
            Vec3::new(
                RAMP_CENTRE.x + along * cos - lift * sin,
                RAMP_CENTRE.y + along * sin + lift * cos,
                z,
            )
        })
        .collect()
}

/// Fills `engine` with the physics playground: physics installed, the
/// ground, the crate stack, the ramp and its balls, the counting trigger
/// zone, a sun, and the player's camera.
///
/// # Errors
/// If a component cannot be added (never for this fixed scene).
pub fn physics(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(0.3, 24, 12));
    let wood = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::new(0.6, 0.4, 0.2))
    });
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.7,
        ..PbrMaterial::color(Vec3::new(0.5, 0.5, 0.55))
    });
    let red = assets.add_material(PbrMaterial {
        roughness: 0.3,
        ..PbrMaterial::color(Vec3::new(0.8, 0.1, 0.1))
    });
    let zone_paint = assets.add_material(PbrMaterial {
        roughness: 0.9,
        ..PbrMaterial::color(Vec3::new(0.9, 0.8, 0.1))
    });
    let green = assets.add_material(PbrMaterial {
        emissive: Vec3::new(0.1, 0.6, 0.1),
        ..PbrMaterial::color(Vec3::new(0.1, 0.8, 0.2))
    });
    crate::name_assets(
        engine,
        &[("cube", cube), ("ball", ball)],
        &[
            ("wood", wood),
            ("stone", stone),
            ("red", red),
            ("zone", zone_paint),
            ("green", green),
        ],
    )?;
    // The grass is drawn by the shared helper; its collision box is not
    // used: the ground's collider below is.
    let _ = crate::controllers::grass_ground(engine, Vec3::new(0.25, 0.45, 0.2))?;
    let scene = engine.scene_mut();
    taos_engine::physics::install(scene, PhysicsConfig::default());
    scene.world_mut().init_resource::<TriggerCount>();

    let ground = scene.spawn_with(
        "Ground collider",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene.add_component(ground, Collider::cuboid(Vec3::new(30.0, 0.5, 30.0))?)?;

    for (i, position) in crate_positions().into_iter().enumerate() {
        let object = scene.spawn_with(format!("Crate {i}"), Transform::from_position(position));
        scene.add_component(object, MeshRenderer::new(cube.handle(), wood.handle()))?;
        scene.add_component(object, RigidBody::dynamic().with_mass(8.0)?)?;
        scene.add_component(object, Collider::cuboid(Vec3::splat(0.5))?)?;
    }

    let ramp = scene.spawn_with(
        "Ramp",
        Transform::from_trs(
            RAMP_CENTRE,
            Quat::from_rotation_z(RAMP_SLOPE),
            RAMP_HALF * 2.0,
        ),
    );
    scene.add_component(ramp, MeshRenderer::new(cube.handle(), stone.handle()))?;
    scene.add_component(ramp, Collider::cuboid(RAMP_HALF)?)?;
    // A wall past the zone stops the balls before the ground's edge.
    let wall = scene.spawn_with(
        "Wall",
        Transform::from_trs(
            Vec3::new(-9.0, 0.5, -4.0),
            Quat::IDENTITY,
            Vec3::new(0.4, 1.0, 4.0),
        ),
    );
    scene.add_component(wall, MeshRenderer::new(cube.handle(), stone.handle()))?;
    scene.add_component(wall, Collider::cuboid(Vec3::new(0.2, 0.5, 2.0))?)?;

    for (i, position) in ball_positions().into_iter().enumerate() {
        let object = scene.spawn_with(format!("Ball {i}"), Transform::from_position(position));
        scene.add_component(object, MeshRenderer::new(ball.handle(), red.handle()))?;
        scene.add_component(object, RigidBody::dynamic().with_linear_damping(0.05)?)?;
        scene.add_component(object, Collider::ball(0.3)?.with_friction(0.8)?)?;
    }

    gallows(
        scene,
        cube.handle(),
        ball.handle(),
        [wood.handle(), stone.handle()],
    )?;

    // The zone: a sensor, drawn as a painted strip on the ground.
    let blocks: Vec<GameObject> = (0..BALLS)
        .map(|i| {
            scene.spawn_with(
                format!("Counter {i}"),
                Transform::from_trs(
                    counter_block_position(i, false),
                    Quat::IDENTITY,
                    Vec3::splat(0.4),
                ),
            )
        })
        .collect();
    for &block in &blocks {
        scene.add_component(block, MeshRenderer::new(cube.handle(), green.handle()))?;
    }
    let zone = scene.spawn_with("Trigger zone", Transform::from_position(ZONE_CENTRE));
    scene.add_component(zone, Collider::cuboid(ZONE_HALF)?.sensor(true))?;
    scene.add_behaviour(zone, TriggerCounter { blocks })?;
    let strip = scene.spawn_with(
        "Zone strip",
        Transform::from_trs(
            Vec3::new(ZONE_CENTRE.x, 0.01, ZONE_CENTRE.z),
            Quat::IDENTITY,
            Vec3::new(ZONE_HALF.x * 2.0, 0.02, ZONE_HALF.z * 2.0),
        ),
    );
    scene.add_component(strip, MeshRenderer::new(cube.handle(), zone_paint.handle()))?;

    let sun = scene.spawn("Sun");
    scene.add_component(
        sun,
        DirectionalLight::new(Vec3::new(-0.4, -1.0, -0.3), Vec3::ONE, 3.0),
    )?;
    let camera = scene.spawn_with(
        "Player",
        Transform::from_position(Vec3::new(0.0, 1.62, 8.0)),
    );
    scene.add_component(camera, Camera::perspective(60.0, 0.1, 200.0, 4.0 / 3.0)?)?;
    let mut controller = PlayerController::default();
    controller.pitch = -0.25;
    scene.add_behaviour(camera, PhysicsPlayer::new(controller))?;
    Ok(())
}
