//! [`CameraController`]: orbit and fly cameras as a behaviour.

use std::collections::BTreeMap;

use glam::{Quat, Vec2, Vec3};

use crate::behaviour::{Behaviour, BehaviourContext, BehaviourResult};
use crate::game_loop::{Input, Key, MouseButton, PadAxis, PadButton};

/// How a [`CameraController`] moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CameraMode {
    /// Circles `target` at `distance`: drag to turn, wheel or pinch to zoom,
    /// drag with the pan button (or two fingers) to move the target.
    Orbit {
        /// The point looked at.
        target: Vec3,
        /// How far the camera is from it.
        distance: f32,
    },
    /// Flies freely: keys move, the mouse looks.
    Fly,
}

/// The keys of the fly camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlyKeys {
    /// Forward.
    pub forward: Key,
    /// Backward.
    pub backward: Key,
    /// Left.
    pub left: Key,
    /// Right.
    pub right: Key,
    /// Straight up.
    pub up: Key,
    /// Straight down.
    pub down: Key,
    /// Faster while held.
    pub fast: Key,
}

impl Default for FlyKeys {
    /// WASD, E up, Q down, left Shift faster.
    fn default() -> Self {
        Self {
            forward: Key::W,
            backward: Key::S,
            left: Key::A,
            right: Key::D,
            up: Key::E,
            down: Key::Q,
            fast: Key::ShiftLeft,
        }
    }
}

/// A camera rig for the object it is attached to (a root object, usually
/// carrying the [`Camera`](crate::Camera)). It reads the scene's [`Input`]
/// each update and writes the object's position and rotation.
///
/// ```
/// use taos_core::controllers::CameraController;
/// use taos_core::prelude::*;
///
/// let mut scene = Scene::new();
/// let camera = scene.spawn("Camera");
/// scene.add_behaviour(camera, CameraController::orbit(Vec3::ZERO, 10.0)).unwrap();
/// scene.tick(1.0 / 60.0);
/// let at = scene.world_position(camera).unwrap();
/// assert!((at.length() - 10.0).abs() < 1e-4);
/// ```
#[derive(Debug, Clone)]
pub struct CameraController {
    /// Orbit or fly.
    pub mode: CameraMode,
    /// Heading in radians (0 looks down -Z).
    pub yaw: f32,
    /// Radians above the horizon (negative looks down; an orbit camera then
    /// sits above its target).
    pub pitch: f32,
    /// Radians of turn per unit of mouse (or finger) motion.
    pub rotate_speed: f32,
    /// How much one wheel line zooms (0.1: 10% closer).
    pub zoom_step: f32,
    /// Pan distance per unit of motion, per metre of orbit distance.
    pub pan_speed: f32,
    /// Closest orbit distance.
    pub min_distance: f32,
    /// Farthest orbit distance.
    pub max_distance: f32,
    /// The button that turns the orbit (or looks, in fly mode).
    pub rotate_button: MouseButton,
    /// The button that pans the orbit.
    pub pan_button: MouseButton,
    /// Fly mode: look with any mouse motion (pointer lock), not only while
    /// [`rotate_button`](Self::rotate_button) is held.
    pub always_look: bool,
    /// Fly speed, metres per second.
    pub fly_speed: f32,
    /// Fly speed multiplier while the fast key is held.
    pub fast_multiplier: f32,
    /// The fly keys.
    pub keys: FlyKeys,
    /// Radians per second the right stick turns the camera at full tilt
    /// (the left stick flies, or zooms an orbit; the triggers fly down and up).
    pub pad_look_speed: f32,
    touches: BTreeMap<u64, Vec2>,
    /// The look was settled: set, or taken from the object on the first update.
    aimed: bool,
}

impl CameraController {
    /// An orbit camera around `target` at `distance`, looking slightly down.
    #[must_use]
    pub fn orbit(target: Vec3, distance: f32) -> Self {
        Self::with_mode(CameraMode::Orbit {
            target,
            distance: if distance.is_finite() {
                distance.max(1e-3)
            } else {
                10.0
            },
        })
    }

    /// A fly camera; place it by setting the object's position first. It
    /// keeps the object's rotation: on its first update, a fly camera whose
    /// [`yaw`](Self::yaw) and [`pitch`](Self::pitch) are still 0 takes them
    /// from the object (a tilted camera stays tilted; roll is dropped).
    #[must_use]
    pub fn fly() -> Self {
        Self::with_mode(CameraMode::Fly)
    }

    fn with_mode(mode: CameraMode) -> Self {
        Self {
            mode,
            yaw: 0.0,
            pitch: if matches!(mode, CameraMode::Orbit { .. }) {
                -0.35
            } else {
                0.0
            },
            rotate_speed: 0.005,
            zoom_step: 0.1,
            pan_speed: 0.0015,
            min_distance: 0.05,
            max_distance: 10_000.0,
            rotate_button: MouseButton::Left,
            pan_button: MouseButton::Right,
            always_look: false,
            fly_speed: 8.0,
            fast_multiplier: 4.0,
            keys: FlyKeys::default(),
            pad_look_speed: 2.5,
            touches: BTreeMap::new(),
            aimed: false,
        }
    }

    /// The camera's rotation: yaw about +Y, then pitch (negative looks down).
    #[must_use]
    pub fn look_rotation(&self) -> Quat {
        super::view_rotation(self.yaw, self.pitch)
    }

    fn turn(&mut self, motion: Vec2) {
        self.turn_by(-motion * self.rotate_speed);
    }

    /// Adds (yaw, pitch) radians; non-finite turns are ignored.
    fn turn_by(&mut self, turn: Vec2) {
        (self.yaw, self.pitch) = super::turned(self.yaw, self.pitch, turn);
    }

    /// One-finger drag turns; two fingers pinch to zoom and drag to pan.
    /// Returns (turn motion, pan motion, zoom factor).
    fn touch_gestures(&mut self, input: &Input) -> (Vec2, Vec2, f32) {
        if self.touches.is_empty() && input.touches().next().is_none() {
            return (Vec2::ZERO, Vec2::ZERO, 1.0);
        }
        let now: BTreeMap<u64, Vec2> = input.touches().collect();
        let common: Vec<(Vec2, Vec2)> = now
            .iter()
            .filter_map(|(id, at)| self.touches.get(id).map(|before| (*before, *at)))
            .collect();
        let gesture = match common.as_slice() {
            [(before, at)] if now.len() == 1 => (*at - *before, Vec2::ZERO, 1.0),
            [(b0, a0), (b1, a1), ..] => {
                let (before, after) = (b0.distance(*b1), a0.distance(*a1));
                let zoom = if before > 1.0 && after > 1.0 {
                    before / after
                } else {
                    1.0
                };
                let pan = (*a0 + *a1 - *b0 - *b1) * 0.5;
                (Vec2::ZERO, pan, zoom)
            }
            _ => (Vec2::ZERO, Vec2::ZERO, 1.0),
        };
        self.touches = now;
        gesture
    }

    fn update_orbit(&mut self, input: &Input, target: &mut Vec3, distance: &mut f32, dt: f32) {
        let (touch_turn, touch_pan, pinch) = self.touch_gestures(input);
        let motion = input.mouse_motion();
        let mut turn = touch_turn;
        let mut pan = touch_pan;
        if input.mouse_pressed(self.rotate_button) {
            turn += motion;
        }
        if input.mouse_pressed(self.pan_button) || input.mouse_pressed(MouseButton::Middle) {
            pan += motion;
        }
        self.turn(turn);
        if pan != Vec2::ZERO && pan.is_finite() {
            let rotation = self.look_rotation();
            let scale = self.pan_speed * *distance;
            *target += (rotation * Vec3::NEG_X * pan.x + rotation * Vec3::Y * pan.y) * scale;
        }
        let wheel = input.wheel();
        // Left stick up closes in by about 60% a second at full tilt.
        let mut factor = pinch * (-input.left_stick().y * dt).exp();
        if wheel.is_finite() && wheel != 0.0 {
            factor *= (1.0 - self.zoom_step.clamp(0.0, 0.9)).powf(wheel);
        }
        if factor.is_finite() && factor > 0.0 {
            *distance = (*distance * factor).clamp(self.min_distance, self.max_distance);
        }
    }

    fn fly_velocity(&self, input: &Input) -> Vec3 {
        let rotation = self.look_rotation();
        let keys = rotation * Vec3::NEG_Z * input.key_axis(self.keys.forward, self.keys.backward)
            + rotation * Vec3::X * input.key_axis(self.keys.right, self.keys.left)
            + Vec3::Y * input.key_axis(self.keys.up, self.keys.down);
        let stick = input.left_stick();
        let pad = rotation * Vec3::NEG_Z * stick.y
            + rotation * Vec3::X * stick.x
            + Vec3::Y
                * (input.pad_axis(PadAxis::RightTrigger) - input.pad_axis(PadAxis::LeftTrigger));
        let direction = (keys.normalize_or_zero() + pad).clamp_length_max(1.0);
        let fast =
            input.down_in_tick(self.keys.fast) || input.pad_down_in_tick(PadButton::LeftStick);
        let speed = if fast {
            self.fly_speed * self.fast_multiplier
        } else {
            self.fly_speed
        };
        direction * speed
    }
}

impl Behaviour for CameraController {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        if !self.aimed {
            self.aimed = true;
            if matches!(self.mode, CameraMode::Fly) && super::unaimed(self.yaw, self.pitch) {
                (self.yaw, self.pitch) = super::look_angles(cx.transform().rotation);
            }
        }
        let current = cx.transform().position;
        let input = cx.resource::<Input>();
        self.turn_by(super::pad_look(input, self.pad_look_speed, dt));
        let position = match self.mode {
            CameraMode::Orbit {
                mut target,
                mut distance,
            } => {
                self.update_orbit(input, &mut target, &mut distance, dt);
                self.mode = CameraMode::Orbit { target, distance };
                target + self.look_rotation() * Vec3::Z * distance
            }
            CameraMode::Fly => {
                if self.always_look || input.mouse_pressed(self.rotate_button) {
                    self.turn(input.mouse_motion());
                }
                current + self.fly_velocity(input) * dt
            }
        };
        let rotation = self.look_rotation();
        let mut transform = cx.transform_mut();
        transform.position = position;
        transform.rotation = rotation;
        Ok(())
    }

    fn name(&self) -> &'static str {
        "CameraController"
    }
}
