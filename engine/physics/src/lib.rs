//! # taos_physics
//!
//! Rigid-body physics for Taos scenes, on [rapier3d](https://rapier.rs).
//!
//! Put a [`RigidBody`] and a [`Collider`] on a GameObject and the object
//! falls, collides, bounces and slides; a [`Collider`] alone is fixed level
//! geometry. [`install`] puts a [`Physics`] world into a
//! [`Scene`] and adds one system to its update, so the
//! physics steps exactly once per scene update, after the behaviours, with
//! the scene clock's **scaled** delta: under the game loop's fixed policy
//! that is once per fixed tick; a time scale of 0 pauses it and 0.25 slows
//! it down. Each step:
//!
//! 1. mirrors the components into the library's world (objects that gained
//!    them get bodies, removed objects lose them, changed components are
//!    rebuilt, inactive objects' bodies are disabled);
//! 2. moves kinematic and fixed bodies to their objects' **world**
//!    transforms (so re-parenting and moving a parent just work) and
//!    teleports a dynamic body whose transform the game wrote since the
//!    last step;
//! 3. steps the simulation;
//! 4. writes each dynamic body's pose into its object's local transform
//!    (`local = inverse(parent world) * pose`), only when it moved, so the
//!    compare-on-read transform sees an ordinary write, and render
//!    interpolation between ticks applies to physics objects too;
//! 5. keeps the step's contact and trigger events ([`Physics::events`],
//!    [`Physics::events_of`]) until the next step.
//!
//! Behaviours reach the world through their context's resources: queries
//! ([`Physics::cast_ray`], [`Physics::cast_shape`], [`Physics::overlaps`])
//! and events with `cx.resource::<Physics>()`, velocities and impulses
//! with `cx.resource_mut::<Physics>()`.
//!
//! With a [`GameLoop`], [`install_replay`]
//! adds the physics state to snapshots (a restore continues bit for bit:
//! velocities, sleep state and the solver's contact state are saved) and
//! body poses and velocities to the replay checksum.
//!
//! The core's `PlayerController` walks in a physics scene through
//! [`PhysicsPlayer`]: rapier's kinematic character controller moves its
//! motor (slopes, steps, snapping to the ground, every collider shape; the
//! world is a `CollisionQuery`, [`physics_collision`]), it pushes the
//! dynamic bodies it walks into and sets off sensors.
//!
//! A [`Joint`] ties a body to another or to the world: fixed, ball, hinge
//! and slider (with limits) and rope.
//!
//! It is **not** a physical character (the player is a kinematic capsule
//! the controller moves, not a simulated body), a vehicle or ragdoll toolkit (no motors,
//! springs or multibody joints yet), or a GPU simulation. It has no dependency on
//! a GPU or a window and builds for `wasm32-unknown-unknown`.
//!
//! ## Conventions
//! Right-handed, +Y up, metres, kilograms, seconds; gravity defaults to
//! [`EARTH_GRAVITY`]. Capsules and cylinders stand along local +Y. Bodies
//! take their object's world position and rotation; the object's scale is
//! not applied to colliders (sizes are world units).
//!
//! ## Determinism
//! The same inputs give the same bits run after run, and a restored
//! snapshot continues exactly. With the default `enhanced-determinism`
//! feature, rapier3d is built for bit-identical results on every IEEE-754
//! platform (one thread, no SIMD lanes, `libm`, and `scalar-math` for the
//! glam copy its own math uses). Root objects hand their transform's fields
//! to rapier and get the pose back as it is, with no engine arithmetic in
//! between; children go through the engine's glam (SIMD on some targets,
//! scalar on others), which can round differently across CPUs. The book's
//! physics chapter has the details.
//!
//! ## Example
//! ```
//! use glam::Vec3;
//! use taos_core::prelude::*;
//! use taos_physics::{Collider, Physics, PhysicsConfig, RigidBody};
//!
//! let mut scene = Scene::new();
//! taos_physics::install(&mut scene, PhysicsConfig::default());
//!
//! let ground = scene.spawn("Ground");
//! scene.add_component(ground, Collider::cuboid(Vec3::new(10.0, 0.5, 10.0))?)?;
//!
//! let ball = scene.spawn_with("Ball", Transform::from_position(Vec3::new(0.0, 5.0, 0.0)));
//! scene.add_component(ball, RigidBody::dynamic())?;
//! scene.add_component(ball, Collider::ball(0.5)?)?;
//!
//! for _ in 0..120 {
//!     scene.tick(1.0 / 60.0);
//! }
//! let y = scene.world_position(ball).unwrap().y;
//! assert!((y - 1.0).abs() < 0.05, "resting on the ground, got {y}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod body;
mod character;
mod collider;
mod convert;
mod error;
mod events;
mod joint;
mod joint_sync;
mod player;
mod query;
mod save;
mod shape;
mod step;
mod world;

use bevy_ecs::schedule::{IntoScheduleConfigs, SystemSet};
use glam::Vec3;
use taos_core::Scene;
use taos_core::game_loop::GameLoop;

pub use body::{BodyKind, LockedAxes, Mass, RigidBody};
pub use collider::{Collider, CollisionLayers};
pub use error::{BodyError, ColliderError, QueryError, SettingError, ShapeError, StepError};
pub use events::{ObjectEvent, PhysicsEvent, PhysicsEventKind};
pub use joint::{Joint, JointKind, JointTarget};
pub use player::{PhysicsPlayer, physics_collision};
pub use query::{Hit, QueryFilter};
pub use shape::Shape;
pub use world::{EARTH_GRAVITY, Physics};

/// The system set of the physics update in the scene's schedule: order
/// your own bevy systems `.before(PhysicsStep)` (to move kinematic bodies
/// this tick) or `.after(PhysicsStep)` (to read this tick's results).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct PhysicsStep;

/// How [`install`] sets the world up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhysicsConfig {
    /// Gravity acceleration, m/s^2.
    pub gravity: Vec3,
}

impl Default for PhysicsConfig {
    fn default() -> Self {
        Self {
            gravity: EARTH_GRAVITY,
        }
    }
}

/// Puts a [`Physics`] world into `scene` (replacing one already there) and
/// adds the physics update to the scene's systems, in [`PhysicsStep`].
/// Call it once per scene. A non-finite gravity falls back to
/// [`EARTH_GRAVITY`] with a logged error.
pub fn install(scene: &mut Scene, config: PhysicsConfig) {
    let mut physics = Physics::new();
    if let Err(error) = physics.set_gravity(config.gravity) {
        log::error!("physics: {error}; using Earth's gravity");
    }
    let world = scene.world_mut();
    let already = world.contains_resource::<Physics>();
    world.insert_resource(physics);
    if !already {
        scene.add_systems(step::physics_update.in_set(PhysicsStep));
    }
}

/// Registers the physics components with scene files: [`RigidBody`],
/// [`Collider`] and [`Joint`] as `taos.RigidBody`, `taos.Collider` and
/// `taos.Joint` (joints name their other object by id, which scene files
/// keep). Settings left out of a file take the constructors' values; a
/// value the constructors would refuse (a negative friction, a NaN) is
/// refused on load, naming the setting.
pub fn scene_types(types: &mut taos_core::scene_file::SceneTypes) {
    types
        .component_with("taos.RigidBody", stored, |body: RigidBody| {
            body.validate().map(|()| body)
        })
        .component_with("taos.Collider", stored, |collider: Collider| {
            collider.validate().map(|()| collider)
        })
        .component_with("taos.Joint", stored, |joint: Joint| {
            joint.validate().map(|()| joint)
        });
}

/// A physics component is stored as it is.
fn stored<C: Clone>(component: &C) -> Result<C, std::convert::Infallible> {
    Ok(component.clone())
}

/// Registers physics with a game loop's determinism tools: the
/// [`Physics`] state in snapshots (as `taos.Physics`), the [`RigidBody`],
/// [`Collider`] and [`Joint`] components in snapshots (`taos.RigidBody`,
/// `taos.Collider`, `taos.Joint`), and every body's pose and velocities in
/// the state checksum. Call after [`install`].
pub fn install_replay(game: &mut GameLoop) {
    game.snapshot_types()
        .resource::<Physics>("taos.Physics")
        .component::<RigidBody>("taos.RigidBody")
        .component::<Collider>("taos.Collider")
        .component::<Joint>("taos.Joint");
    game.checksum_mut().resource::<Physics>();
}
