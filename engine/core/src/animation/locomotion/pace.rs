//! [`Locomotion::update`]: starting the layers, moving their weights,
//! setting the strides' playback rates and keeping them in phase.

use super::{Locomotion, LocomotionWeights, clean_speed};
use crate::animation::{AnimationPlayer, AnimationPlayerError, ClipId, LayerSettings};

impl Locomotion {
    /// Moves the layers on for the next step, from a behaviour (the scene
    /// steps players before behaviours run): notes the weights the step
    /// just played with (for [`events`](Self::events)), starts the clips
    /// that have no layer, moves the weights towards
    /// [`weights_at(speed)`](Self::weights_at) by `dt` seconds' worth of
    /// [`blend_time`](Self::blend_time), sets the walk's and run's speeds
    /// and puts the lighter of them on the heavier's phase. `speed` is the
    /// intended speed (see [`Locomotion`]); a `dt` that is NaN or not
    /// positive moves no weight.
    ///
    /// # Errors
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip) when a clip is not
    /// one of `player`'s; nothing changes.
    pub fn update(
        &mut self,
        player: &mut AnimationPlayer,
        speed: f32,
        dt: f32,
    ) -> Result<(), AnimationPlayerError> {
        for clip in self.clips().into_iter().flatten() {
            if player.clip(clip).is_none() {
                return Err(AnimationPlayerError::UnknownClip {
                    clip,
                    clips: player.clips().len(),
                });
            }
        }
        let current = self.weights_in(player);
        self.stepped = current;
        for clip in self.clips().into_iter().flatten() {
            if player.layer(clip).is_none() {
                let settings = LayerSettings::default().weight(0.0).looping(true);
                player.play_layer(clip, settings)?;
            }
        }
        let weights = self.blend(current, self.weights_at(speed).to_array(), dt);
        for (clip, weight) in self.clips().into_iter().zip(weights) {
            if let Some(clip) = clip {
                player.set_weight(clip, weight)?;
            }
        }
        self.pace(player, LocomotionWeights::from_array(weights), speed)
    }

    /// The idle, walk and run clips (run `None` without one).
    pub(super) fn clips(&self) -> [Option<ClipId>; 3] {
        [
            Some(self.idle),
            Some(self.walk.clip),
            self.run.map(|run| run.clip),
        ]
    }

    /// The idle, walk and run layers' weights now (0 where none plays).
    fn weights_in(&self, player: &AnimationPlayer) -> [f32; 3] {
        self.clips().map(|clip| {
            clip.and_then(|clip| player.layer(clip))
                .map_or(0.0, |layer| layer.weight())
        })
    }

    /// Sets the walk's and run's playback speeds for `speed`, and puts the
    /// lighter on the heavier's phase.
    fn pace(
        &self,
        player: &mut AnimationPlayer,
        weights: LocomotionWeights,
        speed: f32,
    ) -> Result<(), AnimationPlayerError> {
        let duration = |clip| player.clip(clip).map_or(0.0, |c| c.duration());
        let walk_duration = duration(self.walk.clip);
        // How far the stride leans from walk to run (0 without a run).
        let striding = weights.walk + weights.run;
        let run_share = if striding > 0.0 {
            weights.run / striding
        } else {
            0.0
        };
        let run = self.run;
        let run_duration = run.map_or(0.0, |run| duration(run.clip));
        let run_speed = run.map_or(0.0, |run| run.speed);
        let lerp = |a: f32, b: f32| a + (b - a) * run_share;
        // The blend's own cycle, seconds, and the ground it covers, metres.
        let cycle = lerp(walk_duration, run_duration);
        let stride = lerp(self.walk.speed * walk_duration, run_speed * run_duration);
        let (min, max) = self.playback;
        let factor = if stride > 0.0 {
            (clean_speed(speed) * cycle / stride).clamp(min, max)
        } else {
            1.0
        };
        let rate = |own: f32| {
            if cycle > 0.0 {
                factor * own / cycle
            } else {
                factor
            }
        };
        player.set_layer_speed(self.walk.clip, rate(walk_duration))?;
        let Some(run) = run else {
            return Ok(());
        };
        player.set_layer_speed(run.clip, rate(run_duration))?;
        let (leader, follower) = if weights.run > weights.walk {
            ((run.clip, run_duration), (self.walk.clip, walk_duration))
        } else {
            ((self.walk.clip, walk_duration), (run.clip, run_duration))
        };
        if leader.1 > 0.0 {
            let time = player.layer(leader.0).map_or(0.0, |layer| layer.time());
            player.set_layer_time(follower.0, time / leader.1 * follower.1)?;
        }
        Ok(())
    }
}
