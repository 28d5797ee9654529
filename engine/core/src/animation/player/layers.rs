//! Layers: several clips at once, each with its own time, speed, looping,
//! weight and mask; starting, stopping, weighting and cross-fading them.

use serde::{Deserialize, Serialize};

use super::{AnimationPlayer, AnimationPlayerError, ClipId, MaskId};

/// How a layer joins the pose: what [`AnimationPlayer::play_layer`] takes.
///
/// The default is weight 1, speed 1, not looping, blended (not additive),
/// no mask. Chain the builder methods: `LayerSettings::default().weight(0.5).looping(true)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerSettings {
    /// How strongly it counts, `>= 0` (see [`AnimationPlayer`]'s blending rules).
    pub weight: f32,
    /// Multiplies the player's speed for this layer; negative plays it backwards.
    pub speed: f32,
    /// Whether its time wraps at the end of the clip.
    pub looping: bool,
    /// Adds the clip's change from its first frame on top of the blended
    /// pose, instead of blending with the other layers.
    pub additive: bool,
    /// Limits it to some targets; `None`: all of the clip's targets.
    pub mask: Option<MaskId>,
}

impl Default for LayerSettings {
    fn default() -> Self {
        Self {
            weight: 1.0,
            speed: 1.0,
            looping: false,
            additive: false,
            mask: None,
        }
    }
}

impl LayerSettings {
    /// Sets [`weight`](Self::weight).
    #[must_use]
    pub fn weight(mut self, weight: f32) -> Self {
        self.weight = weight;
        self
    }

    /// Sets [`speed`](Self::speed).
    #[must_use]
    pub fn speed(mut self, speed: f32) -> Self {
        self.speed = speed;
        self
    }

    /// Sets [`looping`](Self::looping).
    #[must_use]
    pub fn looping(mut self, looping: bool) -> Self {
        self.looping = looping;
        self
    }

    /// Makes the layer [`additive`](Self::additive).
    #[must_use]
    pub fn additive(mut self) -> Self {
        self.additive = true;
        self
    }

    /// Sets [`mask`](Self::mask).
    #[must_use]
    pub fn mask(mut self, mask: MaskId) -> Self {
        self.mask = Some(mask);
        self
    }
}

/// A weight moving linearly from `from` to `to` over `duration` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(super) struct Fade {
    pub(super) from: f32,
    pub(super) to: f32,
    pub(super) elapsed: f32,
    pub(super) duration: f32,
    /// Take the layer off when the fade ends.
    pub(super) remove: bool,
}

/// One clip playing in an [`AnimationPlayer`], with its own time, speed,
/// looping and weight. Read it with [`AnimationPlayer::layer`] or
/// [`AnimationPlayer::layers`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimationLayer {
    pub(super) clip: ClipId,
    pub(super) time: f32,
    pub(super) speed: f32,
    pub(super) looping: bool,
    pub(super) weight: f32,
    pub(super) additive: bool,
    pub(super) mask: Option<MaskId>,
    pub(super) fade: Option<Fade>,
}

impl AnimationLayer {
    /// The clip it plays.
    #[must_use]
    pub fn clip(&self) -> ClipId {
        self.clip
    }

    /// Seconds into the clip.
    #[must_use]
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Its own speed (the player's speed multiplies it).
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Whether its time wraps at the end.
    #[must_use]
    pub fn is_looping(&self) -> bool {
        self.looping
    }

    /// Its weight now (during a fade, where the fade has got to).
    #[must_use]
    pub fn weight(&self) -> f32 {
        self.weight
    }

    /// Whether it adds on top of the blend instead of blending.
    #[must_use]
    pub fn is_additive(&self) -> bool {
        self.additive
    }

    /// The mask limiting it, if any.
    #[must_use]
    pub fn mask(&self) -> Option<MaskId> {
        self.mask
    }

    /// How far its weight fade has got, `0..1`; `None` when not fading.
    #[must_use]
    pub fn fade_progress(&self) -> Option<f32> {
        self.fade.map(|fade| fade.elapsed / fade.duration)
    }

    /// Whether the layer is fading out, to be taken off when the fade ends.
    #[must_use]
    pub fn is_fading_out(&self) -> bool {
        self.fade.is_some_and(|fade| fade.remove)
    }

    pub(super) fn new(clip: ClipId, settings: LayerSettings) -> Self {
        Self {
            clip,
            time: 0.0,
            speed: settings.speed,
            looping: settings.looping,
            weight: settings.weight,
            additive: settings.additive,
            mask: settings.mask,
            fade: None,
        }
    }

    /// Whether a non-looping layer stands at the end it plays towards.
    pub(super) fn is_finished(&self, duration: f32, speed: f32) -> bool {
        !self.looping
            && if speed < 0.0 {
                self.time <= 0.0
            } else {
                self.time >= duration
            }
    }

    /// Starts a linear fade of the weight towards `to`.
    pub(super) fn fade_to(&mut self, to: f32, duration: f32, remove: bool) {
        if duration > 0.0 {
            self.fade = Some(Fade {
                from: self.weight,
                to,
                elapsed: 0.0,
                duration,
                remove,
            });
        } else {
            self.weight = to;
            self.fade = None;
        }
    }
}

impl AnimationPlayer {
    /// Plays `clip` as a layer on top of the others, from its start (its end
    /// when its speed is negative), unpaused. A clip already playing is
    /// restarted with the new settings. The current clip does not change,
    /// unless there was none.
    ///
    /// # Errors
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip),
    /// [`UnknownMask`](AnimationPlayerError::UnknownMask),
    /// [`InvalidWeight`](AnimationPlayerError::InvalidWeight) or
    /// [`InvalidSpeed`](AnimationPlayerError::InvalidSpeed); nothing changes.
    pub fn play_layer(
        &mut self,
        clip: ClipId,
        settings: LayerSettings,
    ) -> Result<(), AnimationPlayerError> {
        let duration = self.check_clip(clip)?.duration();
        check_weight(settings.weight)?;
        if !settings.speed.is_finite() {
            return Err(AnimationPlayerError::InvalidSpeed {
                speed: settings.speed,
            });
        }
        if let Some(mask) = settings.mask
            && self.mask(mask).is_none()
        {
            return Err(AnimationPlayerError::UnknownMask {
                mask,
                masks: self.masks.len(),
            });
        }
        let mut layer = AnimationLayer::new(clip, settings);
        if settings.speed * self.state.speed < 0.0 {
            layer.time = duration;
        }
        match self.layer_index(clip) {
            Some(index) => self.state.layers[index] = layer,
            None => self.state.layers.push(layer),
        }
        self.state.current.get_or_insert(clip);
        self.state.paused = false;
        self.state.pose_pending = true;
        Ok(())
    }

    /// Takes `clip`'s layer off; the targets keep their pose. Returns whether
    /// it was playing. Stopping the current clip leaves no clip current.
    pub fn stop_layer(&mut self, clip: ClipId) -> bool {
        let Some(index) = self.layer_index(clip) else {
            return false;
        };
        self.state.layers.remove(index);
        if self.state.current == Some(clip) {
            self.state.current = None;
        }
        self.state.pose_pending = true;
        true
    }

    /// Sets the weight of `clip`'s layer, ending any fade of it.
    ///
    /// # Errors
    /// [`InvalidWeight`](AnimationPlayerError::InvalidWeight) for NaN,
    /// infinity or a negative weight,
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip),
    /// [`NotPlaying`](AnimationPlayerError::NotPlaying) when it has no layer.
    pub fn set_weight(&mut self, clip: ClipId, weight: f32) -> Result<(), AnimationPlayerError> {
        self.fade_weight(clip, weight, 0.0)
    }

    /// Moves the weight of `clip`'s layer linearly to `weight` over
    /// `duration` seconds of scene time (0: at once).
    ///
    /// # Errors
    /// As [`set_weight`](Self::set_weight), and
    /// [`InvalidDuration`](AnimationPlayerError::InvalidDuration) for NaN,
    /// infinity or a negative duration.
    pub fn fade_weight(
        &mut self,
        clip: ClipId,
        weight: f32,
        duration: f32,
    ) -> Result<(), AnimationPlayerError> {
        self.check_clip(clip)?;
        check_weight(weight)?;
        check_duration(duration)?;
        let index = self
            .layer_index(clip)
            .ok_or(AnimationPlayerError::NotPlaying { clip })?;
        self.state.layers[index].fade_to(weight, duration, false);
        self.state.pose_pending = true;
        Ok(())
    }

    /// Moves `clip`'s layer to `time` seconds into its clip, clamped to
    /// `0..=duration`, as [`seek`](Self::seek) does for the current clip:
    /// events between the old and new time do not fire, root motion does
    /// not move, and the targets get the pose at the next update.
    ///
    /// # Errors
    /// [`InvalidTime`](AnimationPlayerError::InvalidTime) for NaN or infinity,
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip),
    /// [`NotPlaying`](AnimationPlayerError::NotPlaying) when it has no layer;
    /// nothing changes.
    ///
    /// ```
    /// use taos_core::{AnimationClip, AnimationPlayer, LayerSettings};
    ///
    /// let mut player = AnimationPlayer::new();
    /// let walk = player.add_clip(AnimationClip::new("walk", vec![])?);
    /// player.play_layer(walk, LayerSettings::default().looping(true))?;
    /// player.set_layer_time(walk, 0.0)?;
    /// assert_eq!(player.layer(walk).unwrap().time(), 0.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_layer_time(&mut self, clip: ClipId, time: f32) -> Result<(), AnimationPlayerError> {
        let duration = self.check_clip(clip)?.duration();
        if !time.is_finite() {
            return Err(AnimationPlayerError::InvalidTime { time });
        }
        let index = self
            .layer_index(clip)
            .ok_or(AnimationPlayerError::NotPlaying { clip })?;
        let layer = &mut self.state.layers[index];
        let time = time.clamp(0.0, duration);
        if layer.time != time {
            layer.time = time;
            self.state.pose_pending = true;
        }
        Ok(())
    }

    /// Sets the speed of `clip`'s layer (the player's speed multiplies it):
    /// 1 normal, 2 twice as fast, 0 held, negative backwards. Its time stays.
    ///
    /// # Errors
    /// [`InvalidSpeed`](AnimationPlayerError::InvalidSpeed) for NaN or infinity,
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip),
    /// [`NotPlaying`](AnimationPlayerError::NotPlaying) when it has no layer;
    /// nothing changes.
    ///
    /// ```
    /// use taos_core::{AnimationClip, AnimationPlayer, LayerSettings};
    ///
    /// let mut player = AnimationPlayer::new();
    /// let run = player.add_clip(AnimationClip::new("run", vec![])?);
    /// player.play_layer(run, LayerSettings::default().looping(true))?;
    /// player.set_layer_speed(run, 1.5)?;
    /// assert_eq!(player.layer(run).unwrap().speed(), 1.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_layer_speed(
        &mut self,
        clip: ClipId,
        speed: f32,
    ) -> Result<(), AnimationPlayerError> {
        self.check_clip(clip)?;
        if !speed.is_finite() {
            return Err(AnimationPlayerError::InvalidSpeed { speed });
        }
        let index = self
            .layer_index(clip)
            .ok_or(AnimationPlayerError::NotPlaying { clip })?;
        self.state.layers[index].speed = speed;
        Ok(())
    }

    /// Fades every layer out and `to` in, linearly over `duration` seconds
    /// of scene time; then only `to` plays. `to` becomes current. A `to`
    /// that is already playing keeps its time and settings; otherwise it
    /// starts from its start with weight 0, speed 1 and the player's
    /// looping. Duration 0 switches at once. Unpauses the player.
    ///
    /// # Errors
    /// [`UnknownClip`](AnimationPlayerError::UnknownClip) or
    /// [`InvalidDuration`](AnimationPlayerError::InvalidDuration) (NaN,
    /// infinite or negative); nothing changes.
    pub fn cross_fade(&mut self, to: ClipId, duration: f32) -> Result<(), AnimationPlayerError> {
        let clip_duration = self.check_clip(to)?.duration();
        check_duration(duration)?;
        if self.layer_index(to).is_none() {
            let settings = LayerSettings::default()
                .weight(0.0)
                .looping(self.state.looping);
            let mut layer = AnimationLayer::new(to, settings);
            if self.state.speed < 0.0 {
                layer.time = clip_duration;
            }
            self.state.layers.push(layer);
        }
        for layer in &mut self.state.layers {
            if layer.clip == to {
                layer.fade_to(1.0, duration, false);
            } else {
                layer.fade_to(0.0, duration, true);
            }
        }
        if duration <= 0.0 {
            self.state.layers.retain(|layer| layer.clip == to);
        }
        self.state.current = Some(to);
        self.state.paused = false;
        self.state.pose_pending = true;
        Ok(())
    }

    /// How far the fade into the current clip has got, `0..1`; `None` when
    /// it is not fading in (no cross-fade, or it has ended).
    #[must_use]
    pub fn cross_fade_progress(&self) -> Option<f32> {
        self.current_layer().and_then(AnimationLayer::fade_progress)
    }

    /// The layer playing `clip`, if it plays.
    #[must_use]
    pub fn layer(&self, clip: ClipId) -> Option<&AnimationLayer> {
        self.state.layers.iter().find(|layer| layer.clip == clip)
    }

    /// Every playing layer, in the order they were started.
    #[must_use]
    pub fn layers(&self) -> &[AnimationLayer] {
        &self.state.layers
    }

    pub(super) fn layer_index(&self, clip: ClipId) -> Option<usize> {
        self.state
            .layers
            .iter()
            .position(|layer| layer.clip == clip)
    }

    pub(super) fn current_layer(&self) -> Option<&AnimationLayer> {
        self.state.current.and_then(|clip| self.layer(clip))
    }

    pub(super) fn current_layer_mut(&mut self) -> Option<&mut AnimationLayer> {
        let clip = self.state.current?;
        self.state
            .layers
            .iter_mut()
            .find(|layer| layer.clip == clip)
    }
}

fn check_weight(weight: f32) -> Result<(), AnimationPlayerError> {
    if weight.is_finite() && weight >= 0.0 {
        Ok(())
    } else {
        Err(AnimationPlayerError::InvalidWeight { weight })
    }
}

fn check_duration(duration: f32) -> Result<(), AnimationPlayerError> {
    if duration.is_finite() && duration >= 0.0 {
        Ok(())
    } else {
        Err(AnimationPlayerError::InvalidDuration { duration })
    }
}
