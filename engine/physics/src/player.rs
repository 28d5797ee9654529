//! The bridge to the core's first-person controller: the physics world as a
//! [`CollisionQuery`], and [`PhysicsPlayer`], a `PlayerController` that
//! collides with colliders and pushes the dynamic bodies it walks into.

use bevy_ecs::world::World;
use glam::{Quat, Vec3};
use taos_core::controllers::{Aabb, CollisionQuery, PlayerController};
use taos_core::{Behaviour, BehaviourContext, BehaviourResult, GameObject};

use crate::body::BodyKind;
use crate::query::QueryFilter;
use crate::shape::Shape;
use crate::world::Physics;

/// The smallest half extent of a query box (a flat region still finds what
/// it touches).
const MIN_HALF: f32 = 1e-3;

/// How far past the player's sides a body counts as touched, in metres.
const PROBE: f32 = 0.02;

/// How far above the feet the touch probe starts: what the player stands on
/// is not pushed.
const FEET_CLEARANCE: f32 = 0.05;

/// The physics world as the controller sees it: every solid collider (not
/// sensors) as its world-space bounding box, as the last step left it.
/// Boxes are axis-aligned, so a rotated collider (a ramp) blocks the
/// player with its whole bounding box.
impl CollisionQuery for Physics {
    fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
        let mut found = Vec::new();
        self.touching(region, &mut found);
        out.extend(
            found
                .into_iter()
                .filter_map(|object| self.collider_aabb(object))
                .map(|(min, max)| Aabb { min, max }),
        );
    }
}

impl Physics {
    /// The objects whose solid colliders overlap `region`, onto `out`.
    fn touching(&self, region: Aabb, out: &mut Vec<GameObject>) {
        let half = ((region.max - region.min) * 0.5).max(Vec3::splat(MIN_HALF));
        let Ok(shape) = Shape::cuboid(half) else {
            return;
        };
        let centre = (region.min + region.max) * 0.5;
        // A non-finite region finds nothing.
        let _ = self.overlaps(&shape, centre, Quat::IDENTITY, &QueryFilter::ALL, out);
    }

    /// True when `object` has a dynamic body.
    fn is_dynamic(&self, object: GameObject) -> bool {
        self.entry(object)
            .and_then(|entry| entry.body_desc)
            .is_some_and(|body| body.kind() == BodyKind::Dynamic)
    }
}

/// A [`CollisionSource`](taos_core::controllers::CollisionSource) for a
/// `PlayerController`: the scene's [`Physics`] world (`None`, nothing
/// solid, when physics is not installed).
#[must_use]
pub fn physics_collision(world: &World) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<Physics>()
        .map(|physics| physics as &dyn CollisionQuery)
}

/// A first-person player in a physics scene: a [`PlayerController`] that
/// collides with the colliders of the scene's [`Physics`] world (through
/// [`physics_collision`]) and pushes the dynamic bodies it walks into.
///
/// It waits for the physics world's first step (the colliders are mirrored
/// into the world by the step). Each update then runs the controller, then, when its last step stopped at a
/// face, applies an impulse of `push_force * dt` (newtons times seconds)
/// along the walking axis to every dynamic body touching the player's sides,
/// while the body moves slower than [`push_speed`](Self::push_speed) that
/// way. A light box (a few kilograms: `RigidBody::with_mass`) slides away;
/// a heavy one stays (friction stronger than the push; colliders default to
/// 1000 kg/m^3, so a half-metre box of water weighs 125 kg). Bodies are solid to the player, so it follows a pushed body
/// rather than walking into it.
///
/// ```
/// use glam::Vec3;
/// use taos_core::prelude::*;
/// use taos_core::controllers::PlayerController;
/// use taos_physics::{Collider, PhysicsConfig, PhysicsPlayer};
///
/// let mut scene = Scene::new();
/// taos_physics::install(&mut scene, PhysicsConfig::default());
/// let ground = scene.spawn_with("Ground", Transform::from_position(Vec3::new(0.0, -0.5, 0.0)));
/// scene.add_component(ground, Collider::cuboid(Vec3::new(10.0, 0.5, 10.0))?)?;
/// let player = scene.spawn_with("Player", Transform::from_position(Vec3::new(0.0, 3.0, 0.0)));
/// scene.add_behaviour(player, PhysicsPlayer::new(PlayerController::default()))?;
/// for _ in 0..120 {
///     scene.tick(1.0 / 60.0);
/// }
/// let eye = scene.world_position(player).unwrap();
/// assert!((eye.y - 1.62).abs() < 0.01, "standing on the ground collider: {eye}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PhysicsPlayer {
    /// The controller: devices or commands, motor, view.
    pub controller: PlayerController,
    /// The push, in newtons, on a touched dynamic body while walking into it.
    pub push_force: f32,
    /// Bodies already moving this fast (m/s) along the push are not pushed
    /// harder.
    pub push_speed: f32,
    found: Vec<GameObject>,
}

impl PhysicsPlayer {
    /// Wraps `controller`, pointing its
    /// [`collision`](PlayerController::collision) at [`physics_collision`];
    /// pushes with 60 N up to the controller's walking speed.
    #[must_use]
    pub fn new(mut controller: PlayerController) -> Self {
        controller.collision = physics_collision;
        let push_speed = controller.motor.settings.walk_speed;
        Self {
            controller,
            push_force: 60.0,
            push_speed,
            found: Vec::new(),
        }
    }

    /// Pushes the dynamic bodies touching the player's sides.
    fn push(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) {
        let motor = &self.controller.motor;
        if !motor.against_wall() || !dt.is_finite() || dt <= 0.0 || self.push_force <= 0.0 {
            return;
        }
        let body = motor.bounds();
        let probe = Aabb {
            min: Vec3::new(
                body.min.x - PROBE,
                body.min.y + FEET_CLEARANCE,
                body.min.z - PROBE,
            ),
            max: Vec3::new(body.max.x + PROBE, body.max.y, body.max.z + PROBE),
        };
        let centre = (body.min + body.max) * 0.5;
        self.found.clear();
        let mut physics = cx.resource_mut::<Physics>();
        physics.touching(probe, &mut self.found);
        for &object in &self.found {
            if !physics.is_dynamic(object) {
                continue;
            }
            let Some((min, max)) = physics.collider_aabb(object) else {
                continue;
            };
            let direction = push_direction(&body, centre, &Aabb { min, max });
            let speed = physics
                .linear_velocity(object)
                .map_or(0.0, |v| v.dot(direction));
            if speed < self.push_speed {
                // A body that vanished since the query is skipped.
                let _ = physics.apply_impulse(object, direction * self.push_force * dt);
            }
        }
    }
}

/// The horizontal axis along which `other` touches `body` (the one with the
/// largest gap: the others overlap), pointing from the player to it.
fn push_direction(body: &Aabb, centre: Vec3, other: &Aabb) -> Vec3 {
    let other_centre = (other.min + other.max) * 0.5;
    let gap = |axis: usize| {
        if other_centre[axis] >= centre[axis] {
            other.min[axis] - body.max[axis]
        } else {
            body.min[axis] - other.max[axis]
        }
    };
    let sign = |axis: usize| {
        if other_centre[axis] >= centre[axis] {
            1.0
        } else {
            -1.0
        }
    };
    if gap(0) >= gap(2) {
        Vec3::new(sign(0), 0.0, 0.0)
    } else {
        Vec3::new(0.0, 0.0, sign(2))
    }
}

impl Behaviour for PhysicsPlayer {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.controller.on_attach(cx)
    }

    fn on_detach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.controller.on_detach(cx)
    }

    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        match cx.world().get_resource::<Physics>().map(Physics::steps) {
            // Before the first step the colliders are not in the world yet:
            // a player standing on one would fall into it.
            Some(0) => self.controller.update_render(cx),
            Some(_) => {
                self.controller.update(cx, dt)?;
                self.push(cx, dt);
                Ok(())
            }
            None => self.controller.update(cx, dt),
        }
    }

    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.controller.update_render(cx)
    }

    fn name(&self) -> &'static str {
        "PhysicsPlayer"
    }
}
