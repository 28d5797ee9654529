//! [`Walker`]: the character's behaviour, written with the engine's game
//! kit. A third-person [`PlayerController`] (inside a [`PhysicsPlayer`], so
//! rapier's character controller climbs the ramp and the sensors see the
//! player) moves it and places the follow camera; [`Locomotion`] blends
//! idle, walk and run by the speed the player asks for; the walker adds
//! the jump (cross-faded in the air, faded out on landing) and plays a
//! footstep sound for each footstep event of the leading stride.

use taos_engine::audio::{AudioSource, PlaySound};
use taos_engine::controllers::{MotorSettings, PlayerController};
use taos_engine::physics::PhysicsPlayer;
use taos_engine::prelude::*;
use taos_engine::{ClipId, LayerSettings, Locomotion};

use super::clips::FOOTSTEP;

/// Seconds of the cross-fade into the jump.
const JUMP_FADE_SECONDS: f32 = 0.12;
/// Seconds of the fade from the jump back to the ground clips.
const LAND_FADE_SECONDS: f32 = 0.2;
/// Seconds off the ground before a fall counts as a jump (a step down is not).
const FALL_SECONDS: f32 = 0.15;

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
/// [`AnimationPlayer`] and skinned mesh.
pub struct Walker {
    /// The engine's third-person controller in the physics world.
    pub player: PhysicsPlayer,
    /// Idle, walk and run by intended speed.
    pub locomotion: Locomotion,
    jump: ClipId,
    footstep: AudioSource,
    stance: Stance,
    air_time: f32,
    footsteps: u32,
    jumps: u32,
}

impl Walker {
    /// A walker standing at `feet`, facing -Z, placing `camera` behind it,
    /// playing `clips` and `footstep` sounds. Dragging with the left mouse
    /// button orbits the camera (the right stick and touch do too).
    ///
    /// # Errors
    /// If the walk and run speeds are refused (never for these fixed ones).
    pub fn new(
        feet: Vec3,
        camera: GameObject,
        clips: ClipSet,
        footstep: AudioSource,
    ) -> Result<Self, taos_engine::LocomotionError> {
        let motor = character_motor();
        let locomotion = Locomotion::new(clips.idle, clips.walk, motor.walk_speed)?
            .with_run(clips.run, motor.run_speed)?;
        let mut controller = PlayerController::third_person(motor, camera);
        controller.look_button = Some(MouseButton::Left);
        controller.teleport(feet);
        Ok(Self {
            player: PhysicsPlayer::new(controller),
            locomotion,
            jump: clips.jump,
            footstep,
            stance: Stance::Grounded,
            air_time: 0.0,
            footsteps: 0,
            jumps: 0,
        })
    }

    /// The controller (motor, view, facing, follow camera).
    #[must_use]
    pub fn controller(&self) -> &PlayerController {
        &self.player.controller
    }

    /// On the ground or in the air.
    #[must_use]
    pub fn stance(&self) -> Stance {
        self.stance
    }

    /// Horizontal speed at the last update, metres per second.
    #[must_use]
    pub fn speed(&self) -> f32 {
        let velocity = self.player.controller.motor.velocity;
        Vec3::new(velocity.x, 0.0, velocity.z).length()
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
        self.player.controller.facing
    }

    /// Moves the animation on for the next step; returns the footstep
    /// events of this step.
    fn animate(
        &mut self,
        player: &mut AnimationPlayer,
        dt: f32,
    ) -> Result<usize, taos_engine::AnimationPlayerError> {
        let motor = &self.player.controller.motor;
        let (on_ground, rising, intended) = (
            motor.on_ground,
            motor.velocity.y > 0.5,
            motor.intended_speed(),
        );
        match self.stance {
            Stance::Grounded => {
                self.air_time = if on_ground { 0.0 } else { self.air_time + dt };
                if !on_ground && (rising || self.air_time > FALL_SECONDS) {
                    // Restart the jump (not looping); the cross-fade takes
                    // the ground layers off.
                    let once = LayerSettings::default().weight(0.0).looping(false);
                    player.play_layer(self.jump, once)?;
                    player.cross_fade(self.jump, JUMP_FADE_SECONDS)?;
                    self.stance = Stance::Airborne;
                    self.jumps += 1;
                    return Ok(0);
                }
                if player
                    .layer(self.jump)
                    .is_some_and(|layer| layer.weight() <= 0.0)
                {
                    player.stop_layer(self.jump);
                }
                self.locomotion.update(player, intended, dt)?;
                Ok(self
                    .locomotion
                    .events(player)
                    .filter(|event| event.name() == FOOTSTEP)
                    .count())
            }
            Stance::Airborne => {
                if on_ground {
                    if player.layer(self.jump).is_some() {
                        player.fade_weight(self.jump, 0.0, LAND_FADE_SECONDS)?;
                    }
                    self.stance = Stance::Grounded;
                    self.air_time = 0.0;
                }
                Ok(0)
            }
        }
    }
}

impl Behaviour for Walker {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.player.on_attach(cx)
    }

    fn on_detach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.player.on_detach(cx)
    }

    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        // Moves the body, turns it to face its way, places the camera.
        self.player.update(cx, dt)?;
        let entity = cx.object().entity();
        let steps = match cx.world_mut().get_mut::<AnimationPlayer>(entity) {
            Some(mut player) => self.animate(&mut player, dt)?,
            None => 0,
        };
        let feet = self.player.controller.interpolated_feet();
        for _ in 0..steps {
            self.footsteps += 1;
            cx.play_sound_at(&self.footstep, feet);
        }
        Ok(())
    }

    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        self.player.update_render(cx)
    }

    fn name(&self) -> &'static str {
        "Walker"
    }
}
