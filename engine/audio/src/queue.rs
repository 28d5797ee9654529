//! One-shot sounds asked for from inside the simulation: a behaviour (or a
//! system, or a timer callback) has the scene, not the [`Audio`] system, so
//! it queues the sound on the scene and the audio system plays it at its
//! next [`update`](Audio::update).
//!
//! ```
//! use taos_audio::{AudioClip, AudioSource, PlaySound, synth};
//! use taos_core::prelude::*;
//!
//! struct Footsteps {
//!     step: AudioSource,
//! }
//!
//! impl Behaviour for Footsteps {
//!     fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
//!         let at = cx.world_position();
//!         cx.play_sound_at(&self.step, at);
//!         Ok(())
//!     }
//! }
//! let clip = AudioClip::from_mono(44_100, &synth::tone(220.0, 0.1, 44_100))?;
//! let mut scene = Scene::new();
//! let walker = scene.spawn("Walker");
//! scene.add_behaviour(walker, Footsteps { step: AudioSource::new(clip) })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use glam::Vec3;
use taos_core::{BehaviourContext, Scene};

use crate::{AudioClip, AudioSource};

/// Most sounds one queue holds between two audio updates; later ones are
/// dropped (with a warning): a runaway loop cannot fill memory with sounds.
pub const MAX_QUEUED_SOUNDS: usize = 256;

/// One queued one-shot.
#[derive(Debug, Clone)]
pub(crate) enum QueuedSound {
    /// [`Audio::play_at`](crate::Audio::play_at)'s arguments.
    At { source: AudioSource, position: Vec3 },
    /// [`Audio::play_ui`](crate::Audio::play_ui)'s arguments.
    Ui { clip: AudioClip, volume: f32 },
}

/// The scene's resource of one-shots waiting for the audio system (inserted
/// on first use). Use it through [`PlaySound`].
#[derive(Resource, Debug, Default)]
pub struct SoundQueue {
    sounds: Vec<QueuedSound>,
    dropped: usize,
}

impl SoundQueue {
    fn push(&mut self, sound: QueuedSound) {
        if self.sounds.len() < MAX_QUEUED_SOUNDS {
            self.sounds.push(sound);
        } else {
            self.dropped += 1;
        }
    }

    /// Sounds waiting for the next audio update.
    #[must_use]
    pub fn len(&self) -> usize {
        self.sounds.len()
    }

    /// Whether no sound waits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sounds.is_empty()
    }

    /// Takes the waiting sounds, warning once about any dropped.
    pub(crate) fn drain(&mut self) -> std::vec::Drain<'_, QueuedSound> {
        if self.dropped > 0 {
            log::warn!(
                "audio: {} one-shot sound(s) dropped: more than {MAX_QUEUED_SOUNDS} queued in one frame",
                self.dropped
            );
            self.dropped = 0;
        }
        self.sounds.drain(..)
    }
}

fn queue(world: &mut World) -> bevy_ecs::world::Mut<'_, SoundQueue> {
    world.get_resource_or_insert_with(SoundQueue::default)
}

/// Plays one-shot sounds from where the simulation runs: behaviours
/// ([`BehaviourContext`]), systems and callbacks (the ECS [`World`]) and the
/// [`Scene`]. The sound is queued and plays at the audio system's next
/// update, that is when the frame is presented.
pub trait PlaySound {
    /// Plays `source`'s clip once from `position` (see
    /// [`Audio::play_at`](crate::Audio::play_at)).
    fn play_sound_at(&mut self, source: &AudioSource, position: Vec3);

    /// Plays `clip` once on the UI bus (see [`Audio::play_ui`](crate::Audio::play_ui)).
    fn play_ui_sound(&mut self, clip: &AudioClip, volume: f32);
}

impl PlaySound for World {
    fn play_sound_at(&mut self, source: &AudioSource, position: Vec3) {
        queue(self).push(QueuedSound::At {
            source: source.clone(),
            position,
        });
    }

    fn play_ui_sound(&mut self, clip: &AudioClip, volume: f32) {
        queue(self).push(QueuedSound::Ui {
            clip: clip.clone(),
            volume,
        });
    }
}

impl PlaySound for Scene {
    fn play_sound_at(&mut self, source: &AudioSource, position: Vec3) {
        self.world_mut().play_sound_at(source, position);
    }

    fn play_ui_sound(&mut self, clip: &AudioClip, volume: f32) {
        self.world_mut().play_ui_sound(clip, volume);
    }
}

impl PlaySound for BehaviourContext<'_> {
    fn play_sound_at(&mut self, source: &AudioSource, position: Vec3) {
        self.world_mut().play_sound_at(source, position);
    }

    fn play_ui_sound(&mut self, clip: &AudioClip, volume: f32) {
        self.world_mut().play_ui_sound(clip, volume);
    }
}
