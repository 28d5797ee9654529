//! Playback of the current clip: play, pause, stop, speed, looping, seek,
//! and where it stands.

use super::layers::{AnimationLayer, LayerSettings};
use super::{AnimationClip, AnimationPlayer, AnimationPlayerError, ClipId};

impl AnimationPlayer {
    /// Makes `clip` current and plays it from its start (time 0, or its end
    /// when the speed is negative), unpaused. Every other layer stops.
    ///
    /// # Errors
    /// [`AnimationPlayerError::UnknownClip`] when `clip` is not one of this player's.
    pub fn play(&mut self, clip: ClipId) -> Result<(), AnimationPlayerError> {
        self.check_clip(clip)?;
        let settings = LayerSettings::default().looping(self.state.looping);
        self.state.layers.clear();
        self.state.layers.push(AnimationLayer::new(clip, settings));
        self.state.current = Some(clip);
        self.state.paused = false;
        self.rewind();
        Ok(())
    }

    /// Stops advancing; the targets keep their pose.
    pub fn pause(&mut self) {
        self.state.paused = true;
    }

    /// Advances again after [`pause`](Self::pause) or [`stop`](Self::stop).
    pub fn resume(&mut self) {
        self.state.paused = false;
    }

    /// Pauses and sends every layer back to its start (time 0, or the end
    /// when its speed is negative); the targets get the start pose at the
    /// next update.
    pub fn stop(&mut self) {
        self.state.paused = true;
        self.rewind();
    }

    pub(super) fn rewind(&mut self) {
        let speed = self.state.speed;
        for layer in &mut self.state.layers {
            layer.time = if speed * layer.speed < 0.0 {
                self.clips
                    .get(layer.clip.index())
                    .map_or(0.0, AnimationClip::duration)
            } else {
                0.0
            };
        }
        self.state.pose_pending = true;
    }

    /// Sets the speed of every layer: 1 normal, 2 twice as fast, 0 held,
    /// negative backwards.
    ///
    /// # Errors
    /// [`AnimationPlayerError::InvalidSpeed`] for NaN or infinity; the old speed stays.
    pub fn set_speed(&mut self, speed: f32) -> Result<(), AnimationPlayerError> {
        if !speed.is_finite() {
            return Err(AnimationPlayerError::InvalidSpeed { speed });
        }
        self.state.speed = speed;
        Ok(())
    }

    /// Turns looping on or off for the current clip and for clips that
    /// [`play`](Self::play) and [`cross_fade`](Self::cross_fade) start.
    /// Turning it off on a looping player lets the current lap run to the end.
    pub fn set_looping(&mut self, looping: bool) {
        self.state.looping = looping;
        if let Some(layer) = self.current_layer_mut() {
            layer.looping = looping;
        }
    }

    /// Jumps to `time` seconds into the current clip, clamped to
    /// `0..=duration`; the targets get that pose at the next update, even
    /// while paused. Events between the old and new time do not fire, and
    /// root motion does not move.
    ///
    /// # Errors
    /// [`AnimationPlayerError::NoCurrentClip`] before any [`play`](Self::play),
    /// [`AnimationPlayerError::InvalidTime`] for NaN or infinity.
    pub fn seek(&mut self, time: f32) -> Result<(), AnimationPlayerError> {
        let duration = self
            .current_clip()
            .ok_or(AnimationPlayerError::NoCurrentClip)?
            .duration();
        if !time.is_finite() {
            return Err(AnimationPlayerError::InvalidTime { time });
        }
        if let Some(layer) = self.current_layer_mut() {
            layer.time = time.clamp(0.0, duration);
        }
        self.state.pose_pending = true;
        Ok(())
    }

    /// The current clip's id: the last one [`play`](Self::play)ed or
    /// [`cross_fade`](Self::cross_fade)d to (or the first layer started).
    #[must_use]
    pub fn current(&self) -> Option<ClipId> {
        self.state.current
    }

    /// The current clip, if one was played.
    #[must_use]
    pub fn current_clip(&self) -> Option<&AnimationClip> {
        self.state.current.and_then(|id| self.clip(id))
    }

    /// Seconds into the current clip (0 when none plays).
    #[must_use]
    pub fn time(&self) -> f32 {
        self.current_layer().map_or(0.0, AnimationLayer::time)
    }

    /// The speed multiplier.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.state.speed
    }

    /// Whether the clips [`play`](Self::play) starts loop.
    #[must_use]
    pub fn is_looping(&self) -> bool {
        self.state.looping
    }

    /// Whether [`pause`](Self::pause) or [`stop`](Self::stop) holds it.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.state.paused
    }

    /// `true` while scene time moves it: it is not paused, and some layer
    /// has not finished or is fading.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        !self.state.paused
            && self.state.layers.iter().any(|layer| {
                layer.fade.is_some()
                    || !layer.is_finished(self.duration(layer), self.speed_of(layer))
            })
    }

    /// `true` once a non-looping current clip has reached its end (its
    /// start, when playing backwards). [`play`](Self::play),
    /// [`stop`](Self::stop) or [`seek`](Self::seek) start it over.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.current_layer()
            .is_some_and(|layer| layer.is_finished(self.duration(layer), self.speed_of(layer)))
    }

    pub(super) fn duration(&self, layer: &AnimationLayer) -> f32 {
        self.clip(layer.clip).map_or(0.0, AnimationClip::duration)
    }

    pub(super) fn speed_of(&self, layer: &AnimationLayer) -> f32 {
        self.state.speed * layer.speed
    }
}
