//! [`Locomotion`]: idle, walk and run cycles blended by speed on an
//! [`AnimationPlayer`](crate::AnimationPlayer), with the strides kept in
//! step and the events of the stride that shows.
//!
//! - `mod.rs`: the settings and how they are checked;
//! - `weights.rs`: the weights a speed asks for and the blend towards them;
//! - `pace.rs`: [`Locomotion::update`], playback rates and phase;
//! - `events.rs`: the leading layer, its events and phase.

mod error;
mod events;
mod pace;
mod weights;

pub use error::LocomotionError;
pub use weights::LocomotionWeights;

use crate::animation::ClipId;

/// A looping cycle and the speed it shows, metres per second.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Gait {
    clip: ClipId,
    speed: f32,
}

/// Blends an idle, a walk and (optionally) a run clip by speed, on an
/// [`AnimationPlayer`](crate::AnimationPlayer)'s layers: a plain value a behaviour keeps next to
/// its controller, calling [`update`](Self::update) once per update.
///
/// - **Weights.** At speed 0 only idle shows; from 0 to the walk's
///   reference speed idle gives way to walk; from there to the run's, walk
///   gives way to run; above it only run (without a run, only walk). They
///   sum to 1 ([`weights_at`](Self::weights_at)). NaN and negative speeds
///   are 0. The layers move towards these weights linearly: any change,
///   even idle to run, takes [`blend_time`](Self::blend_time) (default
///   0.2 s) and no more. When the three weigh nothing together (the first
///   update, or after a cross-fade took them off) they take their weights
///   at once, and whatever faded them out fades out over them.
/// - **Phase.** Walk and run share one normalised phase (time / duration):
///   each update the lighter of the two is moved to the heavier's phase,
///   and both play at rates that advance that phase equally, so a left
///   foot meets a left foot whatever the cycles' lengths.
/// - **Playback rate.** A cycle's stride is its reference speed times its
///   duration; the blend's stride is the weighted average of walk's and
///   run's, and the blended cycle is timed so that one stride covers the
///   ground at `speed`: the feet do not slide when the reference speeds
///   match the clips' own travel. At a single gait that is `speed /
///   reference speed`. The factor on the clips' own rate is clamped to
///   [`playback_range`](Self::playback_range) (default `0.5..=2.0`), so a
///   walk fading out at a shuffle does not crawl and a sprint past the run
///   speed does not blur. Idle plays at its own rate.
/// - **Events.** Layers report events whatever their weight, so walk and run
///   would both report footsteps, even at weight 0.
///   [`events`](Self::events) passes only those of the layer that led the
///   last step, [`events_with_weight`](Self::events_with_weight) those of
///   layers at or above a weight.
///
/// # Which speed
/// Pass the speed the player **asks for**: the controller's intended speed
/// ([`CharacterMotor::intended_speed`](crate::controllers::CharacterMotor::intended_speed)),
/// not its measured velocity. Pushing against a crate or a wall, the body
/// barely moves, but the character should be seen walking into it, not
/// standing idle.
///
/// # Layers
/// [`update`](Self::update) starts each clip that has no layer as a looping
/// layer, and sets the weight (ending any fade) and speed of all three.
/// Do not call it while another clip has taken over, for instance a jump
/// [`cross_fade`](crate::AnimationPlayer::cross_fade)d in: it would cancel the
/// fade-out. Call it again on landing; the ground layers come back as
/// above. Layers of other clips are left alone.
///
/// ```
/// use taos_core::prelude::*;
/// use taos_core::Locomotion;
///
/// let mut scene = Scene::new();
/// let hero = scene.spawn("Hero");
/// let hips = scene.spawn_child(hero, "Hips")?;
/// let cycle = |name: &str, seconds: f32| {
///     AnimationClip::new(
///         name,
///         vec![AnimationChannel::translation(
///             hips,
///             vec![0.0, seconds],
///             vec![Vec3::Y, Vec3::Y],
///             Interpolation::Linear,
///         )],
///     )
/// };
/// let mut player = AnimationPlayer::new();
/// let idle = player.add_clip(cycle("idle", 2.0)?);
/// let walk = player.add_clip(cycle("walk", 1.0)?.with_event(0.5, "footstep")?);
/// let run = player.add_clip(cycle("run", 0.7)?.with_event(0.35, "footstep")?);
/// scene.add_component(hero, player)?;
///
/// // Walks naturally at 1.5 m/s, runs at 4 m/s, blends in 0.25 s.
/// let mut locomotion = Locomotion::new(idle, walk, 1.5)?
///     .with_run(run, 4.0)?
///     .with_blend_time(0.25)?;
///
/// let dt = 1.0 / 64.0;
/// let mut footsteps = 0;
/// for _ in 0..256 {
///     scene.tick(dt); // steps the player, then behaviours run
///     // In a behaviour: the controller's intended speed.
///     let intended = 1.5;
///     let mut player = scene.get_component_mut::<AnimationPlayer>(hero).unwrap();
///     locomotion.update(&mut player, intended, dt)?;
///     footsteps += locomotion.events(&player).filter(|e| e.name() == "footstep").count();
/// }
/// let player = scene.get_component::<AnimationPlayer>(hero).unwrap();
/// assert_eq!(player.layer(walk).unwrap().weight(), 1.0);
/// assert_eq!(player.layer(idle).unwrap().weight(), 0.0);
/// // Four seconds at the walk's own speed: one step per second.
/// assert_eq!(footsteps, 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Locomotion {
    idle: ClipId,
    walk: Gait,
    run: Option<Gait>,
    blend_time: f32,
    playback: (f32, f32),
    /// The idle, walk and run weights the last step played with.
    stepped: [f32; 3],
}

/// Why 0.2 s: long enough to hide a change of gait, short enough that the
/// body answers the stick within a fifth of a second.
const DEFAULT_BLEND_TIME: f32 = 0.2;

impl Locomotion {
    /// Blends `idle` and `walk`, whose cycle looks right moving at
    /// `walk_speed` metres per second. Add a run with
    /// [`with_run`](Self::with_run).
    ///
    /// # Errors
    /// [`InvalidSpeed`](LocomotionError::InvalidSpeed) unless `walk_speed`
    /// is finite and above 0; [`SameClip`](LocomotionError::SameClip) when
    /// `idle` is `walk`.
    ///
    /// ```
    /// # use taos_core::{Locomotion, LocomotionError};
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// assert!(Locomotion::new(idle, walk, 1.4).is_ok());
    /// assert!(matches!(
    ///     Locomotion::new(idle, walk, f32::NAN),
    ///     Err(LocomotionError::InvalidSpeed { .. })
    /// ));
    /// ```
    pub fn new(idle: ClipId, walk: ClipId, walk_speed: f32) -> Result<Self, LocomotionError> {
        check_speed(walk, walk_speed)?;
        if idle == walk {
            return Err(LocomotionError::SameClip { clip: walk });
        }
        Ok(Self {
            idle,
            walk: Gait {
                clip: walk,
                speed: walk_speed,
            },
            run: None,
            blend_time: DEFAULT_BLEND_TIME,
            playback: (0.5, 2.0),
            stepped: [0.0; 3],
        })
    }

    /// Adds a run cycle that looks right moving at `run_speed` metres per
    /// second, taking over from the walk between the two speeds.
    ///
    /// # Errors
    /// [`InvalidSpeed`](LocomotionError::InvalidSpeed),
    /// [`RunNotFaster`](LocomotionError::RunNotFaster) when `run_speed` is
    /// not above the walk's, [`SameClip`](LocomotionError::SameClip) when
    /// `run` is the idle or the walk.
    ///
    /// ```
    /// # use taos_core::{Locomotion, LocomotionError};
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk, run) = (player.add_clip(clip()), player.add_clip(clip()), player.add_clip(clip()));
    /// let walking = Locomotion::new(idle, walk, 1.4)?;
    /// assert_eq!(
    ///     walking.clone().with_run(run, 1.0),
    ///     Err(LocomotionError::RunNotFaster { walk: 1.4, run: 1.0 })
    /// );
    /// assert_eq!(walking.with_run(run, 4.0)?.run_clip(), Some(run));
    /// # Ok::<(), LocomotionError>(())
    /// ```
    pub fn with_run(mut self, run: ClipId, run_speed: f32) -> Result<Self, LocomotionError> {
        check_speed(run, run_speed)?;
        if run_speed <= self.walk.speed {
            return Err(LocomotionError::RunNotFaster {
                walk: self.walk.speed,
                run: run_speed,
            });
        }
        if run == self.idle || run == self.walk.clip {
            return Err(LocomotionError::SameClip { clip: run });
        }
        self.run = Some(Gait {
            clip: run,
            speed: run_speed,
        });
        Ok(self)
    }

    /// Sets how long a change of weights takes, seconds (0: at once).
    ///
    /// # Errors
    /// [`InvalidBlendTime`](LocomotionError::InvalidBlendTime) for NaN,
    /// infinity or a negative time.
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let snappy = Locomotion::new(idle, walk, 1.4)?.with_blend_time(0.1)?;
    /// assert_eq!(snappy.blend_time(), 0.1);
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    pub fn with_blend_time(mut self, seconds: f32) -> Result<Self, LocomotionError> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(LocomotionError::InvalidBlendTime { seconds });
        }
        self.blend_time = seconds;
        Ok(self)
    }

    /// Sets the bounds of the factor on the walk's and run's own playback
    /// rate (see [`Locomotion`]); `(1.0, 1.0)` plays them at their own
    /// rate whatever the speed.
    ///
    /// # Errors
    /// [`InvalidPlaybackRange`](LocomotionError::InvalidPlaybackRange)
    /// unless both are finite and `0 <= min <= max`, `max > 0`.
    ///
    /// ```
    /// # use taos_core::Locomotion;
    /// # let mut player = taos_core::AnimationPlayer::new();
    /// # let clip = || taos_core::AnimationClip::new("c", vec![]).unwrap();
    /// # let (idle, walk) = (player.add_clip(clip()), player.add_clip(clip()));
    /// let steady = Locomotion::new(idle, walk, 1.4)?.with_playback_range(1.0, 1.0)?;
    /// assert_eq!(steady.playback_range(), (1.0, 1.0));
    /// # Ok::<(), taos_core::LocomotionError>(())
    /// ```
    pub fn with_playback_range(mut self, min: f32, max: f32) -> Result<Self, LocomotionError> {
        if !(min.is_finite() && max.is_finite() && min >= 0.0 && min <= max && max > 0.0) {
            return Err(LocomotionError::InvalidPlaybackRange { min, max });
        }
        self.playback = (min, max);
        Ok(self)
    }

    /// The idle clip.
    #[must_use]
    pub fn idle_clip(&self) -> ClipId {
        self.idle
    }

    /// The walk cycle.
    #[must_use]
    pub fn walk_clip(&self) -> ClipId {
        self.walk.clip
    }

    /// The run cycle, if there is one.
    #[must_use]
    pub fn run_clip(&self) -> Option<ClipId> {
        self.run.map(|run| run.clip)
    }

    /// The speed the walk cycle shows, metres per second.
    #[must_use]
    pub fn walk_speed(&self) -> f32 {
        self.walk.speed
    }

    /// The speed the run cycle shows, metres per second.
    #[must_use]
    pub fn run_speed(&self) -> Option<f32> {
        self.run.map(|run| run.speed)
    }

    /// Seconds a change of weights takes.
    #[must_use]
    pub fn blend_time(&self) -> f32 {
        self.blend_time
    }

    /// The bounds `(min, max)` of the factor on the cycles' own rate.
    #[must_use]
    pub fn playback_range(&self) -> (f32, f32) {
        self.playback
    }
}

fn check_speed(clip: ClipId, speed: f32) -> Result<(), LocomotionError> {
    if speed.is_finite() && speed > 0.0 {
        Ok(())
    } else {
        Err(LocomotionError::InvalidSpeed { clip, speed })
    }
}

/// NaN and negative speeds are standing still.
fn clean_speed(speed: f32) -> f32 {
    if speed > 0.0 { speed } else { 0.0 }
}
