//! The [`AnimationPlayer`] component: which clips play, where they are, how
//! fast and how strongly; cross-fades, masks, events and root motion.

use std::sync::Arc;

use bevy_ecs::component::Component;
use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::AnimationClip;
use super::blend::{Leg, Pose, root_displacement, travel};
use super::mask::AnimationMask;
use crate::object::GameObject;

/// Names one clip of one [`AnimationPlayer`]: returned by
/// [`AnimationPlayer::add_clip`] and [`AnimationPlayer::find_clip`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ClipId(u32);

impl ClipId {
    /// Position of the clip in its player, in the order clips were added.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Names one [`AnimationMask`] of one [`AnimationPlayer`]: returned by
/// [`AnimationPlayer::add_mask`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MaskId(u32);

impl MaskId {
    /// Position of the mask in its player, in the order masks were added.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why an [`AnimationPlayer`] call was refused. Nothing was changed.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationPlayerError {
    /// The id names no clip of this player (it came from another player).
    #[error("{clip:?} is not one of this player's {clips} clips")]
    UnknownClip {
        /// The id given.
        clip: ClipId,
        /// How many clips the player holds.
        clips: usize,
    },
    /// [`seek`](AnimationPlayer::seek) needs a current clip.
    #[error("no clip is current: play one before seeking")]
    NoCurrentClip,
    /// A speed that is NaN or infinite.
    #[error("animation speed must be finite, got {speed}")]
    InvalidSpeed {
        /// The rejected value.
        speed: f32,
    },
    /// A seek time that is NaN or infinite.
    #[error("seek time must be finite, got {time}")]
    InvalidTime {
        /// The rejected value.
        time: f32,
    },
    /// A layer weight that is NaN, infinite or negative.
    #[error("layer weight must be finite and >= 0, got {weight}")]
    InvalidWeight {
        /// The rejected value.
        weight: f32,
    },
    /// A fade duration that is NaN, infinite or negative.
    #[error("fade duration must be finite and >= 0, got {duration}")]
    InvalidDuration {
        /// The rejected value.
        duration: f32,
    },
    /// The id names no mask of this player.
    #[error("{mask:?} is not one of this player's {masks} masks")]
    UnknownMask {
        /// The id given.
        mask: MaskId,
        /// How many masks the player holds.
        masks: usize,
    },
    /// The clip is one of this player's but is not playing as a layer.
    #[error("{clip:?} is not playing")]
    NotPlaying {
        /// The id given.
        clip: ClipId,
    },
}

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
struct Fade {
    from: f32,
    to: f32,
    elapsed: f32,
    duration: f32,
    /// Take the layer off when the fade ends.
    remove: bool,
}

/// One clip playing in an [`AnimationPlayer`], with its own time, speed,
/// looping and weight. Read it with [`AnimationPlayer::layer`] or
/// [`AnimationPlayer::layers`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimationLayer {
    clip: ClipId,
    time: f32,
    speed: f32,
    looping: bool,
    weight: f32,
    additive: bool,
    mask: Option<MaskId>,
    fade: Option<Fade>,
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

    fn new(clip: ClipId, settings: LayerSettings) -> Self {
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
    fn is_finished(&self, duration: f32, speed: f32) -> bool {
        !self.looping
            && if speed < 0.0 {
                self.time <= 0.0
            } else {
                self.time >= duration
            }
    }

    /// Starts a linear fade of the weight towards `to`.
    fn fade_to(&mut self, to: f32, duration: f32, remove: bool) {
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

/// An event of a playing clip that its time crossed, reported by
/// [`AnimationPlayer::events`] and [`AnimationPlayer::drain_events`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimationEvent {
    clip: ClipId,
    index: usize,
    time: f32,
    /// Filled in from the clip (a snapshot stores the index only).
    #[serde(skip)]
    name: Arc<str>,
}

impl AnimationEvent {
    /// The clip it belongs to.
    #[must_use]
    pub fn clip(&self) -> ClipId {
        self.clip
    }

    /// Its index in the clip's [`events`](AnimationClip::events).
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// Its time in the clip, seconds.
    #[must_use]
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Everything about a player that changes while it plays: what a
/// [`Snapshot`](crate::game_loop::Snapshot) saves and restores (clips,
/// masks and the root-motion bone are setup, kept from the live player).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PlayState {
    layers: Vec<AnimationLayer>,
    current: Option<ClipId>,
    speed: f32,
    looping: bool,
    paused: bool,
    /// The targets have not been written since time last changed.
    pose_pending: bool,
    /// Fired by the last step, not yet drained.
    events: Vec<AnimationEvent>,
    root_delta: [f32; 3],
    root_total: [f32; 3],
}

/// Scratch buffers reused from step to step; never part of the state.
#[derive(Debug, Default)]
struct Scratch(Pose);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Plays [`AnimationClip`]s on the GameObjects they target.
///
/// Put it on any GameObject (usually the root of an imported model) with
/// [`Scene::add_component`](crate::Scene::add_component) and control it
/// through [`Scene::get_component_mut`](crate::Scene::get_component_mut).
/// The scene advances it by its **scaled** delta at the start of every
/// [`Scene::update`](crate::Scene::update): time scale 0 freezes it, and a
/// paused loop (which runs no update) pauses it. A player on an inactive
/// object (disabled, or below a disabled ancestor) does not advance.
///
/// After advancing, it writes the pose at the clips' times into the targets'
/// local [`Transform`](crate::Transform)s and [`MorphWeights`](crate::MorphWeights),
/// only the properties its clips have channels for; targets that were
/// removed are skipped. It writes only when a time or weight moved or after
/// [`play`](Self::play), [`stop`](Self::stop) or [`seek`](Self::seek), so a
/// paused or finished player leaves the targets free to be moved by hand.
///
/// **Speed** multiplies scene time. It may be negative: the clip plays
/// backwards, [`play`](Self::play) and [`stop`](Self::stop) start it from
/// its end, and without looping it finishes at time 0. Speed 0 holds it.
///
/// **Looping** (off by default) wraps time into `0..duration`; without it,
/// time stops at the end and [`is_finished`](Self::is_finished) turns true.
///
/// # Layers
/// Several clips may play at once, each as an [`AnimationLayer`] with its
/// own time, speed, looping and weight. [`play`](Self::play) replaces every
/// layer with one (the *current* clip); [`play_layer`](Self::play_layer)
/// adds one; [`cross_fade`](Self::cross_fade) fades everything out and
/// another clip in. A property animated by several blended layers gets the
/// weighted average of their values, normalised by the total weight
/// (rotations: the normalised weighted sum, each aligned to the first's
/// hemisphere). A layer with a [mask](AnimationMask) leaves the targets
/// outside it alone. Additive layers then add their change since their
/// clip's first frame, times their weight, to properties the blended
/// layers animate. Layers are identified by clip: a clip plays in one
/// layer at most.
///
/// # Events and root motion
/// Every step, events whose time a layer crossed are collected, in order,
/// for [`events`](Self::events) and [`drain_events`](Self::drain_events).
/// With [`set_root_motion`](Self::set_root_motion), the horizontal travel of
/// a root bone moves the player's own object instead of the bone.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct AnimationPlayer {
    clips: Vec<AnimationClip>,
    masks: Vec<AnimationMask>,
    root_motion: Option<GameObject>,
    state: PlayState,
    scratch: Scratch,
}

impl Default for AnimationPlayer {
    fn default() -> Self {
        Self::new()
    }
}

/// Events past this many whole laps in one step are not reported (a tiny
/// clip looping under a huge step would otherwise report without end).
const MAX_EVENT_LAPS: u64 = 16;

impl AnimationPlayer {
    /// A player with no clips, speed 1, not looping.
    #[must_use]
    pub fn new() -> Self {
        Self {
            clips: Vec::new(),
            masks: Vec::new(),
            root_motion: None,
            state: PlayState {
                layers: Vec::new(),
                current: None,
                speed: 1.0,
                looping: false,
                paused: false,
                pose_pending: false,
                events: Vec::new(),
                root_delta: [0.0; 3],
                root_total: [0.0; 3],
            },
            scratch: Scratch::default(),
        }
    }

    /// Adds a clip and returns its id; it does not start playing.
    pub fn add_clip(&mut self, clip: AnimationClip) -> ClipId {
        let id = ClipId(u32::try_from(self.clips.len()).unwrap_or(u32::MAX));
        self.clips.push(clip);
        id
    }

    /// The first clip with this name.
    #[must_use]
    pub fn find_clip(&self, name: &str) -> Option<ClipId> {
        let index = self.clips.iter().position(|clip| clip.name() == name)?;
        u32::try_from(index).ok().map(ClipId)
    }

    /// The clip with this id, if it is one of this player's.
    #[must_use]
    pub fn clip(&self, id: ClipId) -> Option<&AnimationClip> {
        self.clips.get(id.index())
    }

    /// Every clip, in the order added (a clip's [`ClipId::index`] is its position).
    #[must_use]
    pub fn clips(&self) -> &[AnimationClip] {
        &self.clips
    }

    /// Adds a mask for [`LayerSettings::mask`] and returns its id.
    pub fn add_mask(&mut self, mask: AnimationMask) -> MaskId {
        let id = MaskId(u32::try_from(self.masks.len()).unwrap_or(u32::MAX));
        self.masks.push(mask);
        id
    }

    /// The mask with this id, if it is one of this player's.
    #[must_use]
    pub fn mask(&self, id: MaskId) -> Option<&AnimationMask> {
        self.masks.get(id.index())
    }

    fn check_clip(&self, clip: ClipId) -> Result<&AnimationClip, AnimationPlayerError> {
        self.clip(clip).ok_or(AnimationPlayerError::UnknownClip {
            clip,
            clips: self.clips.len(),
        })
    }

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

    fn layer_index(&self, clip: ClipId) -> Option<usize> {
        self.state
            .layers
            .iter()
            .position(|layer| layer.clip == clip)
    }

    fn current_layer(&self) -> Option<&AnimationLayer> {
        self.state.current.and_then(|clip| self.layer(clip))
    }

    fn current_layer_mut(&mut self) -> Option<&mut AnimationLayer> {
        let clip = self.state.current?;
        self.state
            .layers
            .iter_mut()
            .find(|layer| layer.clip == clip)
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

    fn rewind(&mut self) {
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

    fn duration(&self, layer: &AnimationLayer) -> f32 {
        self.clip(layer.clip).map_or(0.0, AnimationClip::duration)
    }

    fn speed_of(&self, layer: &AnimationLayer) -> f32 {
        self.state.speed * layer.speed
    }

    /// Moves the horizontal (X and Z) travel of `root`'s translation out of
    /// the bone and onto this player's own object: the bone keeps its X and
    /// Z at the start of each clip, and each step the object moves by the
    /// distance the clips travelled, turned by the object's rotation. Loop
    /// wraps carry on forward instead of jumping back. `root`'s parent
    /// should be the player's object (or share its axes). `None` turns it
    /// off.
    pub fn set_root_motion(&mut self, root: Option<GameObject>) {
        self.root_motion = root;
        self.state.pose_pending = true;
    }

    /// The root bone of [`set_root_motion`](Self::set_root_motion).
    #[must_use]
    pub fn root_motion(&self) -> Option<GameObject> {
        self.root_motion
    }

    /// The horizontal travel of the last step, in the root bone's parent
    /// space (before the object's rotation turns it).
    #[must_use]
    pub fn root_motion_delta(&self) -> Vec3 {
        Vec3::from_array(self.state.root_delta)
    }

    /// Every step's [`root_motion_delta`](Self::root_motion_delta), summed.
    #[must_use]
    pub fn root_motion_total(&self) -> Vec3 {
        Vec3::from_array(self.state.root_total)
    }

    /// The events the last step crossed, in order (layer by layer, each in
    /// the direction it plays). Each step replaces them, so read them in
    /// the same update (behaviours and systems run after animation).
    #[must_use]
    pub fn events(&self) -> &[AnimationEvent] {
        &self.state.events
    }

    /// Takes the events the last step crossed, in order.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, AnimationEvent> {
        self.state.events.drain(..)
    }

    pub(crate) fn play_state(&self) -> &PlayState {
        &self.state
    }

    /// Puts back a saved play state. Layers of clips or masks this player
    /// does not have are dropped, as are events it cannot name.
    pub(crate) fn restore_play_state(&mut self, mut state: PlayState) {
        let (clips, masks) = (&self.clips, &self.masks);
        state.layers.retain(|layer| {
            clips.get(layer.clip.index()).is_some()
                && layer
                    .mask
                    .is_none_or(|mask| masks.get(mask.index()).is_some())
        });
        // Values no game reaches (a negative weight, a time past the clip)
        // are brought back into range rather than trusted.
        let finite_or = |v: f32, default: f32| if v.is_finite() { v } else { default };
        for layer in &mut state.layers {
            let duration = clips
                .get(layer.clip.index())
                .map_or(0.0, AnimationClip::duration);
            layer.time = finite_or(layer.time, 0.0).clamp(0.0, duration);
            layer.speed = finite_or(layer.speed, 1.0);
            layer.weight = finite_or(layer.weight, 0.0).max(0.0);
            if let Some(fade) = &mut layer.fade {
                if fade.duration.is_finite() && fade.duration > 0.0 {
                    fade.from = finite_or(fade.from, 0.0).max(0.0);
                    fade.to = finite_or(fade.to, 0.0).max(0.0);
                    fade.elapsed = finite_or(fade.elapsed, 0.0).clamp(0.0, fade.duration);
                } else {
                    layer.fade = None;
                }
            }
        }
        state.speed = finite_or(state.speed, 1.0);
        for v in state.root_delta.iter_mut().chain(&mut state.root_total) {
            *v = finite_or(*v, 0.0);
        }
        if state
            .current
            .is_some_and(|clip| clips.get(clip.index()).is_none())
        {
            state.current = None;
        }
        state.events.retain_mut(|event| {
            match clips
                .get(event.clip.index())
                .and_then(|clip| clip.events().get(event.index))
            {
                Some(named) => {
                    event.name = named.shared_name().clone();
                    true
                }
                None => false,
            }
        });
        self.state = state;
    }

    /// Advances by `dt` scene seconds (fades, times, events, root motion);
    /// returns whether the targets need a new pose.
    pub(crate) fn advance(&mut self, dt: f32) -> bool {
        let state = &mut self.state;
        state.events.clear();
        state.root_delta = [0.0; 3];
        if state.paused || dt == 0.0 {
            return std::mem::take(&mut state.pose_pending);
        }
        let mut root_sum = Vec3::ZERO;
        let mut root_weight = 0.0;
        for layer in &mut state.layers {
            if let Some(fade) = &mut layer.fade {
                fade.elapsed = (fade.elapsed + dt.abs()).min(fade.duration);
                let weight = if fade.elapsed >= fade.duration {
                    fade.to
                } else {
                    fade.from + (fade.to - fade.from) * (fade.elapsed / fade.duration)
                };
                if weight != layer.weight {
                    layer.weight = weight;
                    state.pose_pending = true;
                }
                if fade.elapsed >= fade.duration {
                    // A finished fade that removes the layer keeps `fade` as the marker.
                    if !fade.remove {
                        layer.fade = None;
                    }
                    state.pose_pending = true;
                }
            }
            let Some(clip) = self.clips.get(layer.clip.index()) else {
                continue;
            };
            let speed = state.speed * layer.speed;
            let duration = clip.duration();
            if speed == 0.0 || layer.is_finished(duration, speed) {
                continue;
            }
            let root = self
                .root_motion
                .filter(|_| !layer.additive)
                .filter(|&root| {
                    layer
                        .mask
                        .and_then(|mask| self.masks.get(mask.index()))
                        .is_none_or(|mask| mask.contains(root))
                })
                .and_then(|root| root_displacement(clip, root));
            let mut moved = Vec3::ZERO;
            let mut event_laps = 0;
            let events = &mut state.events;
            let clip_id = layer.clip;
            let mut fire = |index: usize| {
                let event = &clip.events()[index];
                events.push(AnimationEvent {
                    clip: clip_id,
                    index,
                    time: event.time(),
                    name: event.shared_name().clone(),
                });
            };
            let forward = speed > 0.0;
            let time = travel(layer.time, dt * speed, duration, layer.looping, |leg| {
                match leg {
                    Leg::Span(from, to) => {
                        fire_span(clip, from, to, &mut fire);
                        if let Some(root) = &root {
                            moved += root.at(to) - root.at(from);
                        }
                    }
                    Leg::Wrap => fire_at(clip, if forward { 0.0 } else { duration }, &mut fire),
                    Leg::Laps(laps) => {
                        for _ in 0..laps.min(MAX_EVENT_LAPS.saturating_sub(event_laps)) {
                            if forward {
                                fire_span(clip, 0.0, duration, &mut fire);
                                fire_at(clip, 0.0, &mut fire);
                            } else {
                                fire_span(clip, duration, 0.0, &mut fire);
                                fire_at(clip, duration, &mut fire);
                            }
                        }
                        event_laps = event_laps.saturating_add(laps);
                        if let Some(root) = &root {
                            let lap = root.at(duration) - root.at(0.0);
                            // Whole laps: u64 to f32 rounds, which only matters past 2^24 laps.
                            #[allow(clippy::cast_precision_loss)]
                            let laps = laps as f32;
                            moved += if forward { lap * laps } else { -lap * laps };
                        }
                    }
                }
            });
            if time != layer.time {
                layer.time = time;
                state.pose_pending = true;
            }
            if root.is_some() && layer.weight > 0.0 {
                root_sum += moved * layer.weight;
                root_weight += layer.weight;
            }
        }
        let before = state.layers.len();
        state.layers.retain(|layer| {
            !layer
                .fade
                .is_some_and(|f| f.remove && f.elapsed >= f.duration)
        });
        if state.layers.len() != before {
            state.pose_pending = true;
        }
        if root_weight > 0.0 {
            let delta = root_sum / root_weight;
            let delta = Vec3::new(delta.x, 0.0, delta.z);
            state.root_delta = delta.to_array();
            state.root_total = (Vec3::from_array(state.root_total) + delta).to_array();
        }
        std::mem::take(&mut state.pose_pending)
    }

    /// Advances by `dt` scene seconds; returns the current clip and time to
    /// write when the targets need a new pose (the single-clip view).
    #[cfg(test)]
    pub(crate) fn step(&mut self, dt: f32) -> Option<(&AnimationClip, f32)> {
        if !self.advance(dt) {
            return None;
        }
        let time = self.time();
        self.current_clip().map(|clip| (clip, time))
    }

    /// Blends the layers at their times into the pose buffers.
    pub(crate) fn build_pose(&mut self) -> &Pose {
        self.scratch.0.build(
            &self.clips,
            &self.masks,
            &self.state.layers,
            self.root_motion,
        );
        &self.scratch.0
    }
}

/// Covers the play state (what snapshots save), so a checksum that
/// registers the player (`checksum_mut().component::<AnimationPlayer>()`)
/// notices two runs whose players drifted apart before their poses do.
impl crate::game_loop::StateHash for AnimationPlayer {
    fn hash_state(&self, h: &mut crate::game_loop::StateHasher) {
        let state = &self.state;
        h.write_u64(state.layers.len() as u64);
        for layer in &state.layers {
            h.write_u32(layer.clip.0);
            h.write_f32(layer.time);
            h.write_f32(layer.speed);
            h.write_u8(u8::from(layer.looping));
            h.write_f32(layer.weight);
            h.write_u8(u8::from(layer.additive));
            h.write_u32(layer.mask.map_or(u32::MAX, |mask| mask.0));
            if let Some(fade) = layer.fade {
                h.write_u8(1 + u8::from(fade.remove));
                for v in [fade.from, fade.to, fade.elapsed, fade.duration] {
                    h.write_f32(v);
                }
            } else {
                h.write_u8(0);
            }
        }
        h.write_u32(state.current.map_or(u32::MAX, |clip| clip.0));
        h.write_f32(state.speed);
        h.write_u8(u8::from(state.looping) | u8::from(state.paused) << 1);
        h.write_u64(state.events.len() as u64);
        for event in &state.events {
            h.write_u32(event.clip.0);
            h.write_u64(event.index as u64);
        }
        for v in state.root_total {
            h.write_f32(v);
        }
    }
}

/// Reports the events with times strictly after `from` up to and
/// including `to` (forward), or from `to` up to but excluding `from`
/// (backward, in descending order).
fn fire_span(clip: &AnimationClip, from: f32, to: f32, fire: &mut impl FnMut(usize)) {
    let events = clip.events();
    if from < to {
        let start = events.partition_point(|e| e.time() <= from);
        for (index, event) in events.iter().enumerate().skip(start) {
            if event.time() > to {
                break;
            }
            fire(index);
        }
    } else if from > to {
        let end = events.partition_point(|e| e.time() < from);
        for (index, event) in events[..end].iter().enumerate().rev() {
            if event.time() < to {
                break;
            }
            fire(index);
        }
    }
}

/// Reports the events at exactly `time` (the far side of a loop wrap).
fn fire_at(clip: &AnimationClip, time: f32, fire: &mut impl FnMut(usize)) {
    for (index, event) in clip.events().iter().enumerate() {
        if event.time() == time {
            fire(index);
        }
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

#[cfg(test)]
mod tests {
    use bevy_ecs::entity::Entity;
    use glam::Vec3;

    use super::*;
    use crate::animation::{AnimationChannel, Interpolation};
    use crate::object::GameObject;

    fn player(duration: f32) -> (AnimationPlayer, ClipId) {
        let target = GameObject::from_entity(Entity::from_raw_u32(1).unwrap());
        let clip = AnimationClip::new(
            "slide",
            vec![AnimationChannel::translation(
                target,
                vec![0.0, duration],
                vec![Vec3::ZERO, Vec3::X],
                Interpolation::Linear,
            )],
        )
        .unwrap();
        let mut player = AnimationPlayer::new();
        let id = player.add_clip(clip);
        (player, id)
    }

    #[test]
    fn play_requires_one_of_its_own_clips() {
        let (mut player, id) = player(2.0);
        let stranger = ClipId(3);
        assert_eq!(
            player.play(stranger),
            Err(AnimationPlayerError::UnknownClip {
                clip: stranger,
                clips: 1
            })
        );
        assert_eq!(player.current(), None);
        assert!(!player.is_playing() && !player.is_finished());
        assert_eq!(player.seek(1.0), Err(AnimationPlayerError::NoCurrentClip));
        player.play(id).unwrap();
        assert!(player.is_playing());
        assert_eq!(player.find_clip("slide"), Some(id));
        assert_eq!(player.find_clip("walk"), None);
    }

    #[test]
    fn bad_speed_and_seek_are_refused() {
        let (mut player, id) = player(2.0);
        player.play(id).unwrap();
        assert!(player.set_speed(f32::NAN).is_err());
        assert!(player.set_speed(f32::INFINITY).is_err());
        assert_eq!(player.speed(), 1.0);
        assert!(player.seek(f32::NAN).is_err());
        player.seek(-3.0).unwrap();
        assert_eq!(player.time(), 0.0);
        player.seek(30.0).unwrap();
        assert_eq!(player.time(), 2.0);
    }

    #[test]
    fn step_writes_only_when_time_moved_or_a_pose_was_asked_for() {
        let (mut player, id) = player(2.0);
        assert!(player.step(0.1).is_none(), "nothing current");
        player.play(id).unwrap();
        assert!(player.step(0.0).is_some(), "the start pose after play");
        assert!(player.step(0.0).is_none(), "no time passed");
        assert_eq!(player.step(0.5).map(|(_, t)| t), Some(0.5));
        player.pause();
        assert!(player.step(0.5).is_none());
        player.seek(1.5).unwrap();
        assert_eq!(
            player.step(0.5).map(|(_, t)| t),
            Some(1.5),
            "seek while paused"
        );
        player.resume();
        assert_eq!(player.step(1.0).map(|(_, t)| t), Some(2.0));
        assert!(player.is_finished() && !player.is_playing());
        assert!(
            player.step(1.0).is_none(),
            "a finished clip writes nothing more"
        );
    }

    #[test]
    fn negative_speed_plays_backwards_and_finishes_at_zero() {
        let (mut player, id) = player(2.0);
        player.set_speed(-1.0).unwrap();
        player.play(id).unwrap();
        assert_eq!(player.time(), 2.0, "backwards starts at the end");
        assert_eq!(player.step(0.5).map(|(_, t)| t), Some(1.5));
        player.step(5.0);
        assert_eq!(player.time(), 0.0);
        assert!(player.is_finished());
        player.set_looping(true);
        assert!(!player.is_finished());
        player.step(0.5);
        assert_eq!(player.time(), 1.5, "wraps to the end going backwards");
    }

    #[test]
    fn a_zero_length_clip_loops_in_place_without_dividing_by_zero() {
        let target = GameObject::from_entity(Entity::from_raw_u32(1).unwrap());
        let still = AnimationClip::new(
            "still",
            vec![AnimationChannel::translation(
                target,
                vec![0.0],
                vec![Vec3::Y],
                Interpolation::Step,
            )],
        )
        .unwrap();
        let mut player = AnimationPlayer::new();
        let still = player.add_clip(still);
        player.set_looping(true);
        player.play(still).unwrap();
        player.step(1.0);
        assert_eq!(player.time(), 0.0);
        player.set_looping(false);
        assert!(player.is_finished());
    }

    fn names(player: &mut AnimationPlayer) -> Vec<String> {
        player
            .drain_events()
            .map(|event| event.name().to_owned())
            .collect()
    }

    #[test]
    fn one_long_step_reports_every_lap_it_crossed_in_order() {
        let (mut player, id) = player(1.0);
        player.clips[0].add_event(0.25, "left").unwrap();
        player.clips[0].add_event(0.75, "right").unwrap();
        player.clips[0].add_event(1.0, "end").unwrap();
        player.set_looping(true);
        player.play(id).unwrap();
        player.advance(2.5);
        assert_eq!(player.time(), 0.5);
        assert_eq!(
            names(&mut player),
            ["left", "right", "end", "left", "right", "end", "left"]
        );
        // Backwards from 0.5 over a whole lap and a half: the end is met at each wrap.
        player.set_speed(-1.0).unwrap();
        player.advance(1.5);
        assert_eq!(player.time(), 0.0);
        assert_eq!(names(&mut player), ["left", "end", "right", "left"]);
        // Paused, or no time: nothing.
        player.advance(0.0);
        assert!(player.events().is_empty());
    }

    #[test]
    fn a_huge_step_reports_a_bounded_number_of_laps() {
        let (mut player, id) = player(1.0);
        player.clips[0].add_event(0.5, "tick").unwrap();
        player.set_looping(true);
        player.play(id).unwrap();
        player.advance(1.0e6);
        let fired = player.events().len();
        assert!(
            fired >= 2 && fired <= 2 + MAX_EVENT_LAPS as usize,
            "{fired}"
        );
    }

    #[test]
    fn weights_fade_linearly_and_finished_fades_take_the_layer_off() {
        let (mut player, id) = player(4.0);
        player.play(id).unwrap();
        player.fade_weight(id, 0.0, 2.0).unwrap();
        player.advance(0.5);
        assert_eq!(player.layer(id).unwrap().weight(), 0.75);
        assert_eq!(player.layer(id).unwrap().fade_progress(), Some(0.25));
        player.advance(2.0);
        let layer = player.layer(id).unwrap();
        assert_eq!((layer.weight(), layer.fade_progress()), (0.0, None));
        assert!(player.is_playing(), "a plain fade to 0 keeps the layer");
    }

    #[test]
    fn a_layer_time_and_speed_are_set_by_clip() {
        let (mut player, id) = player(2.0);
        player.clips[0].add_event(0.5, "skipped").unwrap();
        assert_eq!(
            player.set_layer_time(id, 1.0),
            Err(AnimationPlayerError::NotPlaying { clip: id })
        );
        assert_eq!(
            player.set_layer_speed(id, 2.0),
            Err(AnimationPlayerError::NotPlaying { clip: id })
        );
        player
            .play_layer(id, LayerSettings::default().looping(true))
            .unwrap();
        player.advance(0.0);
        player.set_layer_time(id, 1.0).unwrap();
        assert_eq!(player.layer(id).unwrap().time(), 1.0);
        assert!(player.advance(0.0), "a moved time asks for a pose");
        assert!(
            player.events().is_empty(),
            "jumping over an event fires nothing"
        );
        player.set_layer_time(id, 9.0).unwrap();
        assert_eq!(player.layer(id).unwrap().time(), 2.0, "clamped to the clip");
        assert!(matches!(
            player.set_layer_time(id, f32::NAN),
            Err(AnimationPlayerError::InvalidTime { .. })
        ));
        assert_eq!(
            player.layer(id).unwrap().time(),
            2.0,
            "a refused time changes nothing"
        );
        player.set_layer_time(id, 0.0).unwrap();
        player.set_layer_speed(id, 2.0).unwrap();
        assert_eq!(player.layer(id).unwrap().speed(), 2.0);
        player.advance(0.25);
        assert_eq!(player.layer(id).unwrap().time(), 0.5);
        assert!(player.set_layer_speed(id, f32::INFINITY).is_err());
        assert_eq!(
            player.layer(id).unwrap().speed(),
            2.0,
            "the old speed stays"
        );
        let stranger = ClipId(5);
        assert_eq!(
            player.set_layer_speed(stranger, 1.0),
            Err(AnimationPlayerError::UnknownClip {
                clip: stranger,
                clips: 1
            })
        );
    }

    #[test]
    fn a_restored_play_state_is_brought_into_range() {
        let (mut player, id) = player(2.0);
        player.clips[0].add_event(1.0, "mid").unwrap();
        player.play(id).unwrap();
        player.advance(1.5);
        assert_eq!(player.events().len(), 1);
        let mut state = player.play_state().clone();
        state.layers[0].time = 40.0;
        state.layers[0].weight = -3.0;
        state
            .layers
            .push(AnimationLayer::new(ClipId(9), LayerSettings::default()));
        state.events.push(AnimationEvent {
            clip: id,
            index: 7,
            time: 0.0,
            name: Arc::from(""),
        });
        let json = serde_json::to_value(&state).unwrap();
        let mut restored = player.clone();
        restored.restore_play_state(serde_json::from_value(json).unwrap());
        let layer = restored.layers();
        assert_eq!(layer.len(), 1, "the layer of an unknown clip is dropped");
        assert_eq!((layer[0].time(), layer[0].weight()), (2.0, 0.0));
        assert_eq!(restored.events().len(), 1);
        assert_eq!(
            restored.events()[0].name(),
            "mid",
            "names come back from the clip"
        );
    }
}
