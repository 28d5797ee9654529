//! The third-person camera: behind and above the character, following it
//! smoothly on scene time; dragging with a mouse button held orbits it and
//! the wheel zooms.

use glam::{EulerRot, Quat, Vec3};
use taos_engine::prelude::*;

/// A camera that looks at a moving point from `distance` away, at `yaw`
/// and `pitch`, easing its focus towards the point.
#[derive(Debug, Clone, PartialEq)]
pub struct FollowCamera {
    /// Heading in radians (0 looks down -Z, positive turns left).
    pub yaw: f32,
    /// Radians above the horizon (negative looks down).
    pub pitch: f32,
    /// Metres from the focus.
    pub distance: f32,
    /// Radians of orbit per unit of mouse motion.
    pub sensitivity: f32,
    /// How fast the focus catches up, per second (higher is stiffer).
    pub stiffness: f32,
    focus: Option<Vec3>,
}

impl FollowCamera {
    /// A camera looking along `yaw`, a little down, five metres back.
    #[must_use]
    pub fn new(yaw: f32) -> Self {
        Self {
            yaw,
            pitch: -0.3,
            distance: 5.0,
            sensitivity: 0.005,
            stiffness: 6.0,
            focus: None,
        }
    }

    /// Orbits while the left or right mouse button is held and the mouse
    /// moves; the wheel zooms.
    pub fn steer(&mut self, input: &Input) {
        if input.mouse_pressed(MouseButton::Left) || input.mouse_pressed(MouseButton::Right) {
            let motion = input.mouse_motion();
            if motion.is_finite() {
                self.yaw =
                    (self.yaw - motion.x * self.sensitivity).rem_euclid(std::f32::consts::TAU);
                self.pitch = (self.pitch - motion.y * self.sensitivity).clamp(-1.3, 0.3);
            }
        }
        let wheel = input.wheel();
        if wheel.is_finite() && wheel != 0.0 {
            self.distance = (self.distance * 0.9_f32.powf(wheel)).clamp(2.0, 15.0);
        }
    }

    /// The camera's rotation.
    #[must_use]
    pub fn rotation(&self) -> Quat {
        Quat::from_euler(EulerRot::YXZ, self.yaw, self.pitch, 0.0)
    }

    /// Eases the focus towards `target` over `dt` seconds (jumps there the
    /// first time) and returns the camera's transform.
    pub fn follow(&mut self, target: Vec3, dt: f32) -> Transform {
        let focus = match self.focus {
            Some(focus) if dt.is_finite() && dt >= 0.0 => {
                focus.lerp(target, 1.0 - (-self.stiffness * dt).exp())
            }
            Some(focus) => focus,
            None => target,
        };
        self.focus = Some(focus);
        let rotation = self.rotation();
        let position = focus - rotation * Vec3::NEG_Z * self.distance;
        Transform::from_trs(position, rotation, Vec3::ONE)
    }
}
