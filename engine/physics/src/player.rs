//! The bridge to the core's player controller: the physics world as its
//! [`CollisionQuery`] (rapier's kinematic character controller moves the
//! motor), and [`PhysicsPlayer`], a `PlayerController` that pushes the
//! dynamic bodies it walks into and sets off sensors.

use bevy_ecs::world::World;
use glam::Vec3;
use taos_core::controllers::{CollisionQuery, PlayerController};
use taos_core::{Behaviour, BehaviourContext, BehaviourResult, GameObject, ObjectInfo};

use crate::world::Physics;

/// A [`CollisionSource`](taos_core::controllers::CollisionSource) for a
/// `PlayerController`: the scene's [`Physics`] world (`None`, nothing
/// solid, when physics is not installed).
#[must_use]
pub fn physics_collision(world: &World) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<Physics>()
        .map(|physics| physics as &dyn CollisionQuery)
}

/// A player in a physics scene: a [`PlayerController`] (first- or
/// third-person) whose motor rapier's kinematic character controller moves
/// through the scene's [`Physics`] world (through [`physics_collision`]):
/// it climbs slopes up to the motor's
/// [`max_slope`](taos_core::controllers::MotorSettings::max_slope) and
/// ledges up to its [`step_height`](taos_core::controllers::MotorSettings::step_height),
/// stays on the ground walking down steps, slides along walls and collides
/// with every collider shape (boxes, balls, capsules, hulls, triangle
/// meshes).
///
/// It needs no body or collider of its own: it carries an upright capsule
/// (the motor's width and current height) into the physics world as a
/// sensor, so sensors report the player entering and leaving them
/// ([`Physics::events_of`] on the sensor's object or the player's). That
/// capsule is no obstacle to anything.
///
/// It waits for the physics world's first step (the colliders are mirrored
/// into the world by the step). Each update then runs the controller, then
/// applies an impulse of `push_force * dt` (newtons times seconds) to every
/// dynamic body the motor's last step ran into, away from the player along
/// the ground, while the body moves slower than
/// [`push_speed`](Self::push_speed) that way. The same push moves a light
/// body further than a heavy one: a crate of a few kilograms
/// (`RigidBody::with_mass`) slides away, a heavy one stays (friction
/// stronger than the push; colliders default to 1000 kg/m^3, so a
/// half-metre box of water weighs 125 kg). Bodies are solid to the player,
/// so it follows a pushed body rather than walking into it.
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
/// assert!((eye.y - 1.62).abs() < 0.03, "standing on the ground collider: {eye}");
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
    pushed: Vec<(GameObject, Vec3)>,
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
            pushed: Vec::new(),
        }
    }

    /// Pushes the dynamic bodies the motor's last step ran into.
    fn push(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 || !self.push_force.is_finite() || self.push_force <= 0.0 {
            return;
        }
        self.pushed.clear();
        for touch in self.controller.motor.touched() {
            let Some(object) = touch.object else {
                continue;
            };
            // Away from the player, along the ground.
            let away = Vec3::new(-touch.normal.x, 0.0, -touch.normal.z).normalize_or_zero();
            if away != Vec3::ZERO && !self.pushed.iter().any(|(o, _)| *o == object) {
                self.pushed.push((object, away));
            }
        }
        if self.pushed.is_empty() {
            return;
        }
        let mut physics = cx.resource_mut::<Physics>();
        for &(object, direction) in &self.pushed {
            if !physics.is_dynamic(object) {
                continue;
            }
            let speed = physics
                .linear_velocity(object)
                .map_or(0.0, |v| v.dot(direction));
            if speed < self.push_speed {
                // A body that vanished since the step is skipped.
                let _ = physics.apply_impulse(object, direction * self.push_force * dt);
            }
        }
    }

    /// Moves the player's capsule in the physics world to the motor's body.
    fn place_capsule(&self, cx: &mut BehaviourContext<'_>) {
        let object = cx.object();
        let Some(id) = cx
            .world()
            .get::<ObjectInfo>(object.entity())
            .map(ObjectInfo::id)
        else {
            return;
        };
        let motor = &self.controller.motor;
        let (feet, radius, height) = (motor.position, motor.settings.half_width, motor.height());
        cx.resource_mut::<Physics>()
            .place_character(id, object, feet, radius, height);
    }
}

impl Behaviour for PhysicsPlayer {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.controller.on_attach(cx)
    }

    fn on_detach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        let object = cx.object();
        if let Some(id) = cx
            .world()
            .get::<ObjectInfo>(object.entity())
            .map(ObjectInfo::id)
            && cx.world().contains_resource::<Physics>()
        {
            cx.resource_mut::<Physics>().remove_character(id);
        }
        self.controller.on_detach(cx)
    }

    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        match cx.world().get_resource::<Physics>().map(Physics::steps) {
            // Before the first step the colliders are not in the world yet:
            // a player standing on one would fall into it.
            Some(0) => {
                self.controller.update_render(cx)?;
                self.place_capsule(cx);
                Ok(())
            }
            Some(_) => {
                self.controller.update(cx, dt)?;
                self.push(cx, dt);
                self.place_capsule(cx);
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
