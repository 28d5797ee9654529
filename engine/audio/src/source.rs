//! The components: where sound comes from and who hears it.

use bevy_ecs::component::Component;

use crate::{Attenuation, AudioClip};

/// Which mix bus a sound plays on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AudioBus {
    /// World sounds: they pause while the scene's time scale is 0.
    #[default]
    Game,
    /// Interface sounds (clicks, menu music): they keep playing when the game
    /// is paused.
    Ui,
}

/// A sound emitter on a GameObject. It plays its clip from the object's world
/// position (when [`spatial`](Self::spatial)), louder or softer with the
/// listener's distance per its [`Attenuation`] curve.
///
/// A source plays once [`Audio::update`](crate::Audio::update) first sees it
/// when [`play_on_start`](Self::play_on_start) is set (the default), and again
/// each time [`play`](Self::play) is called; [`stop`](Self::stop) stops what it
/// plays. Removing the component or despawning the object stops it too.
#[derive(Component, Debug, Clone)]
pub struct AudioSource {
    /// The sound.
    pub clip: AudioClip,
    /// Linear gain, 0..=1 (more amplifies and may clip).
    pub volume: f32,
    /// Loop the clip until stopped.
    pub looping: bool,
    /// Positioned in the world (attenuated and panned); off plays it as-is.
    pub spatial: bool,
    /// Full volume up to this distance (metres).
    pub min_distance: f32,
    /// The attenuation curve ends here (metres).
    pub max_distance: f32,
    /// How the gain falls between the two distances.
    pub attenuation: Attenuation,
    /// How strongly the sound is panned towards the ear facing it, 0..=1.
    pub pan_strength: f32,
    /// The bus: game sounds pause with time, UI sounds do not.
    pub bus: AudioBus,
    /// Play as soon as the source is first seen.
    pub play_on_start: bool,
    pub(crate) play_requests: u32,
    pub(crate) stop_requests: u32,
}

impl AudioSource {
    /// A spatial game sound playing `clip` once on start, heard fully within 1 m
    /// and attenuated (inverse distance) up to 50 m.
    #[must_use]
    pub fn new(clip: AudioClip) -> Self {
        Self {
            clip,
            volume: 1.0,
            looping: false,
            spatial: true,
            min_distance: 1.0,
            max_distance: 50.0,
            attenuation: Attenuation::default(),
            pan_strength: 0.8,
            bus: AudioBus::Game,
            play_on_start: true,
            play_requests: 0,
            stop_requests: 0,
        }
    }

    /// Sets the linear gain.
    #[must_use]
    pub fn volume(mut self, volume: f32) -> Self {
        self.volume = volume;
        self
    }

    /// Loops the clip (ambience, engines, music).
    #[must_use]
    pub fn looping(mut self, looping: bool) -> Self {
        self.looping = looping;
        self
    }

    /// Turns positioning on or off.
    #[must_use]
    pub fn spatial(mut self, spatial: bool) -> Self {
        self.spatial = spatial;
        self
    }

    /// Sets the minimum and maximum distances of the attenuation curve.
    #[must_use]
    pub fn distances(mut self, min_distance: f32, max_distance: f32) -> Self {
        self.min_distance = min_distance;
        self.max_distance = max_distance;
        self
    }

    /// Sets the attenuation curve.
    #[must_use]
    pub fn attenuation(mut self, attenuation: Attenuation) -> Self {
        self.attenuation = attenuation;
        self
    }

    /// Sets the bus.
    #[must_use]
    pub fn bus(mut self, bus: AudioBus) -> Self {
        self.bus = bus;
        self
    }

    /// Sets whether the source plays as soon as it is first seen.
    #[must_use]
    pub fn play_on_start(mut self, play: bool) -> Self {
        self.play_on_start = play;
        self
    }

    /// Plays the clip (again) at the next [`Audio::update`](crate::Audio::update);
    /// overlapping plays mix.
    pub fn play(&mut self) {
        self.play_requests = self.play_requests.wrapping_add(1);
    }

    /// Stops everything this source plays, at the next update.
    pub fn stop(&mut self) {
        self.stop_requests = self.stop_requests.wrapping_add(1);
    }

    /// The gain distance alone gives at `distance` (see [`Attenuation::gain`]).
    #[must_use]
    pub fn distance_gain(&self, distance: f32) -> f32 {
        if self.spatial {
            self.attenuation
                .gain(distance, self.min_distance, self.max_distance)
        } else {
            1.0
        }
    }
}

/// The ears: put it on the camera (or the player's head). Its world position
/// and rotation place the listener (right ear along local +X, looking down
/// -Z). With none in the scene, the first camera listens; with no camera, the
/// origin.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq)]
pub struct AudioListener;
