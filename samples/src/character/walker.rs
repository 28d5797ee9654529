//! [`Walker`]: the character's behaviour. The engine's [`PlayerController`]
//! moves it (WASD, Space jumps, left Control runs); the body turns to
//! face where it goes; the animation blends idle, walk and run by speed,
//! cross-fades to the jump in the air and back on landing; each footstep
//! event of the leading stride plays a footstep sound; and the third-person
//! camera follows.

use glam::{Quat, Vec3};
use taos_engine::audio::{AudioSource, PlaySound};
use taos_engine::controllers::{MotorSettings, PlayerController};
use taos_engine::prelude::*;
use taos_engine::{ClipId, LayerSettings};

use super::camera::FollowCamera;
use super::clips::FOOTSTEP;

/// Seconds over which the idle, walk and run weights follow the speed.
const BLEND_SECONDS: f32 = 0.15;
/// Seconds of the cross-fade into the jump.
const JUMP_FADE_SECONDS: f32 = 0.12;
/// Seconds of the fade from the jump back to the ground clips.
const LAND_FADE_SECONDS: f32 = 0.2;
/// Height above the feet the camera looks at.
const CAMERA_FOCUS: f32 = 1.3;
/// How fast the body turns towards where it moves, per second.
const TURN_RATE: f32 = 12.0;

/// The character's motor: slower than the first-person default, a lower jump.
#[must_use]
pub fn character_motor() -> MotorSettings {
    MotorSettings {
        walk_speed: 2.0,
        run_speed: 5.0,
        jump_speed: 5.5,
        gravity: 20.0,
        ..MotorSettings::default()
    }
}

/// The weights of idle, walk and run at horizontal `speed`: piecewise
/// linear, all idle at rest, all walk at `walk` m/s, all run from `run` m/s.
/// They sum to 1.
#[must_use]
pub fn locomotion_weights(speed: f32, walk: f32, run: f32) -> [f32; 3] {
    let speed = if speed.is_finite() {
        speed.max(0.0)
    } else {
        0.0
    };
    if speed <= walk {
        let t = (speed / walk.max(1e-3)).min(1.0);
        [1.0 - t, t, 0.0]
    } else {
        let t = ((speed - walk) / (run - walk).max(1e-3)).min(1.0);
        [0.0, 1.0 - t, t]
    }
}

/// On the ground (blending by speed) or in the air (playing the jump).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    /// Standing, walking or running.
    Grounded,
    /// Jumping or falling.
    Airborne,
}

/// The ids of the four clips in the character's [`AnimationPlayer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClipSet {
    /// Breathing in place.
    pub idle: ClipId,
    /// The walk cycle.
    pub walk: ClipId,
    /// The run cycle.
    pub run: ClipId,
    /// The jump.
    pub jump: ClipId,
}

/// The character's behaviour, on the root object that carries its
/// [`AnimationPlayer`] and skinned mesh. It places the root at the feet and
/// the camera object behind it.
pub struct Walker {
    /// The engine's walking controller; its object position is replaced by
    /// the feet, its yaw follows the camera so W walks away from the camera.
    pub controller: PlayerController,
    /// The third-person camera.
    pub camera: FollowCamera,
    camera_object: GameObject,
    clips: ClipSet,
    footstep: AudioSource,
    stance: Stance,
    air_time: f32,
    facing: f32,
    speed: f32,
    footsteps: u32,
    jumps: u32,
}

impl Walker {
    /// A walker standing at `feet`, facing -Z, with the camera object
    /// `camera_object` behind it, playing `clips` and `footstep` sounds.
    #[must_use]
    pub fn new(
        feet: Vec3,
        camera_object: GameObject,
        clips: ClipSet,
        footstep: AudioSource,
    ) -> Self {
        let mut controller = PlayerController::new(character_motor());
        controller.mouse_look = false;
        controller.can_fly = false;
        controller.teleport(feet);
        Self {
            controller,
            camera: FollowCamera::new(0.0),
            camera_object,
            clips,
            footstep,
            stance: Stance::Grounded,
            air_time: 0.0,
            facing: 0.0,
            speed: 0.0,
            footsteps: 0,
            jumps: 0,
        }
    }

    /// On the ground or in the air.
    #[must_use]
    pub fn stance(&self) -> Stance {
        self.stance
    }

    /// Horizontal speed at the last update, metres per second.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Footstep sounds played so far.
    #[must_use]
    pub fn footsteps(&self) -> u32 {
        self.footsteps
    }

    /// Jumps (or falls) started so far.
    #[must_use]
    pub fn jumps(&self) -> u32 {
        self.jumps
    }

    /// The heading the body faces, radians (0 faces -Z).
    #[must_use]
    pub fn facing(&self) -> f32 {
        self.facing
    }

    /// The clips it blends.
    #[must_use]
    pub fn clips(&self) -> ClipSet {
        self.clips
    }

    /// Turns the body towards the horizontal velocity.
    fn turn_body(&mut self, velocity: Vec3, dt: f32) {
        if self.speed > 0.2 {
            let target = (-velocity.x).atan2(-velocity.z);
            let tau = std::f32::consts::TAU;
            let diff = (target - self.facing + std::f32::consts::PI).rem_euclid(tau)
                - std::f32::consts::PI;
            let step = 1.0 - (-TURN_RATE * dt.max(0.0)).exp();
            self.facing = (self.facing + diff * step).rem_euclid(tau);
        }
    }

    /// Sets the layers' weights for the next animation step; returns the
    /// footstep events of this step that belong to the leading stride.
    fn animate(
        &mut self,
        player: &mut AnimationPlayer,
        on_ground: bool,
        rising: bool,
        dt: f32,
    ) -> Result<u32, taos_engine::AnimationPlayerError> {
        let ClipSet {
            idle,
            walk,
            run,
            jump,
        } = self.clips;
        match self.stance {
            Stance::Grounded => {
                self.air_time = if on_ground { 0.0 } else { self.air_time + dt };
                if !on_ground && (rising || self.air_time > 0.15) {
                    // Restart the jump (not looping), then fade everything else out.
                    player.play_layer(jump, LayerSettings::default().weight(0.0).looping(false))?;
                    player.cross_fade(jump, JUMP_FADE_SECONDS)?;
                    self.stance = Stance::Airborne;
                    self.jumps += 1;
                    return Ok(0);
                }
                let motor = &self.controller.motor.settings;
                let weights = locomotion_weights(self.speed, motor.walk_speed, motor.run_speed);
                for (clip, weight) in [idle, walk, run].into_iter().zip(weights) {
                    if player.layer(clip).is_none() {
                        // Back from a jump: the cross-fade took the layer off.
                        player
                            .play_layer(clip, LayerSettings::default().weight(0.0).looping(true))?;
                    }
                    player.fade_weight(clip, weight, BLEND_SECONDS)?;
                }
                if player
                    .layer(jump)
                    .is_some_and(|layer| layer.weight() <= 0.0)
                {
                    player.stop_layer(jump);
                }
            }
            Stance::Airborne => {
                if on_ground {
                    if player.layer(jump).is_some() {
                        player.fade_weight(jump, 0.0, LAND_FADE_SECONDS)?;
                    }
                    self.stance = Stance::Grounded;
                    self.air_time = 0.0;
                }
                return Ok(0);
            }
        }
        // Footsteps: only from the stride that leads the blend (layers
        // report events whatever their weight).
        let weight = |clip| player.layer(clip).map_or(0.0, |l| l.weight());
        let leading = if weight(run) > weight(walk) {
            run
        } else {
            walk
        };
        if weight(leading) < weight(idle) {
            return Ok(0);
        }
        Ok(player
            .events()
            .iter()
            .filter(|event| event.name() == FOOTSTEP && event.clip() == leading)
            .count() as u32)
    }
}

impl Behaviour for Walker {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        self.camera.steer(cx.resource::<Input>());
        self.controller.yaw = self.camera.yaw;
        self.controller.pitch = 0.0;
        // Steps the motor and puts the object at the eye; the body goes at
        // the feet instead, below.
        self.controller.update(cx, dt)?;
        let feet = self.controller.interpolated_feet();
        let motor = &self.controller.motor;
        let (velocity, on_ground) = (motor.velocity, motor.on_ground);
        self.speed = Vec3::new(velocity.x, 0.0, velocity.z).length();
        self.turn_body(velocity, dt);
        {
            let mut transform = cx.transform_mut();
            transform.position = feet;
            transform.rotation = Quat::from_rotation_y(self.facing);
        }
        let entity = cx.object().entity();
        let steps = match cx.world_mut().get_mut::<AnimationPlayer>(entity) {
            Some(mut player) => self.animate(&mut player, on_ground, velocity.y > 0.5, dt)?,
            None => 0,
        };
        for _ in 0..steps {
            self.footsteps += 1;
            cx.play_sound_at(&self.footstep, feet);
        }
        let view = self.camera.follow(feet + Vec3::Y * CAMERA_FOCUS, dt);
        if let Some(mut transform) = cx
            .world_mut()
            .get_mut::<Transform>(self.camera_object.entity())
        {
            *transform = view;
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "Walker"
    }
}
