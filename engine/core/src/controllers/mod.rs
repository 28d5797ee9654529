//! Ready-made controllers, attached as behaviours:
//!
//! - [`PlayerController`]: first-person walking, running, crouching, jumping
//!   and flying, with gravity, colliding against a [`CollisionQuery`] the game
//!   provides (a [`SceneCollision`] resource). It steps a [`CharacterMotor`] at
//!   a fixed rate and interpolates between steps, so the path is the same at
//!   any frame rate.
//! - [`CameraController`]: an orbit camera (drag to turn, wheel or pinch to
//!   zoom, drag to pan) or a fly camera (WASD and mouse look).
//!
//! Both read the scene's [`Input`](crate::game_loop::Input) resource, so
//! recorded input replays them exactly.

mod camera;
mod collision;
mod motor;
mod player;

pub use camera::{CameraController, CameraMode, FlyKeys};
pub use collision::{Aabb, BoxWorld, CollisionQuery, SceneCollision};
pub use motor::{CharacterMotor, MotorSettings, MoveIntent};
pub use player::{PlayerController, PlayerKeys};
