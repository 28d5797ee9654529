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
//! Both read the scene's [`Input`] resource, so
//! recorded input replays them exactly, and both take a gamepad too: the
//! left stick moves (analog: half way walks at half speed), the right stick
//! looks at [`pad_look_speed`](PlayerController::pad_look_speed) radians per
//! second at full tilt. On touch screens, [`TouchControls`] give a floating
//! joystick, a look area and buttons ([`PlayerController::touch`]).

use glam::{EulerRot, Quat, Vec2};

use crate::game_loop::Input;

mod camera;
mod collision;
mod follow_camera;
mod motor;
mod player;
mod sweep;
mod swim;
mod touch;

pub use camera::{CameraController, CameraMode, FlyKeys};
pub use collision::{Aabb, BoxWorld, CollisionQuery, SceneCollision};
pub use follow_camera::FollowCamera;
pub use motor::{CharacterMotor, MotorSettings, MoveIntent};
pub use player::{
    CollisionSource, CommandSource, PlayerCommand, PlayerController, PlayerDrive, PlayerKeys,
    PlayerPad, scene_collision,
};
pub use sweep::{CharacterMoved, CharacterSweep, CharacterTouch, SphereCast};
pub use swim::{SwimSettings, submersion};
pub use touch::{TouchButton, TouchControls, TouchLayout, TouchState};

/// How far up or down a controller can look (just short of straight up/down).
const PITCH_LIMIT: f32 = 1.55;

/// `(yaw, pitch)` turned by `turn` radians: yaw wraps to 0..TAU, pitch stops
/// at [`PITCH_LIMIT`]; a non-finite turn changes nothing.
fn turned(yaw: f32, pitch: f32, turn: Vec2) -> (f32, f32) {
    if turn.is_finite() {
        (
            (yaw + turn.x).rem_euclid(std::f32::consts::TAU),
            (pitch + turn.y).clamp(-PITCH_LIMIT, PITCH_LIMIT),
        )
    } else {
        (yaw, pitch)
    }
}

/// The rotation of a view at `yaw` about +Y, then `pitch`.
fn view_rotation(yaw: f32, pitch: f32) -> Quat {
    Quat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0)
}

/// The `(yaw, pitch)` of an authored rotation, as [`view_rotation`] builds
/// them (roll, which a controller cannot hold, is dropped): yaw in 0..TAU,
/// pitch within [`PITCH_LIMIT`]. A rotation that is not finite gives (0, 0).
fn look_angles(rotation: Quat) -> (f32, f32) {
    let (yaw, pitch, _roll) = rotation.normalize().to_euler(EulerRot::YXZ);
    if yaw.is_finite() && pitch.is_finite() {
        turned(0.0, 0.0, Vec2::new(yaw, pitch))
    } else {
        (0.0, 0.0)
    }
}

/// `true` while `(yaw, pitch)` are still a constructor's `(0, 0)`: the
/// controller was given no look, so it takes the object's.
#[allow(
    clippy::float_cmp,
    reason = "exactly the constructor's value, never computed"
)]
fn unaimed(yaw: f32, pitch: f32) -> bool {
    yaw == 0.0 && pitch == 0.0
}

/// The right stick's turn over `dt` seconds at `speed` radians per second:
/// (yaw, pitch) in radians, stick right turns right, stick up looks up.
fn pad_look(input: &Input, speed: f32, dt: f32) -> Vec2 {
    let stick = input.right_stick();
    let turn = Vec2::new(-stick.x, stick.y) * speed * dt;
    if turn.is_finite() { turn } else { Vec2::ZERO }
}
