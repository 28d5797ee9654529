//! [`Audio`]: the kira mixer fed from a scene's sources and listener each frame.

use std::collections::HashMap;

use glam::{Affine3A, Quat, Vec3};
use kira::listener::ListenerHandle;
use kira::sound::PlaybackState;
use kira::sound::static_sound::StaticSoundHandle;
use kira::track::{SpatialTrackBuilder, SpatialTrackHandle, TrackBuilder, TrackHandle};
use kira::{AudioManager, AudioManagerSettings, Decibels, Tween};
use taos_core::{GameObject, Scene};

use crate::backend::{OutputBackend, OutputChoice};
use crate::queue::{QueuedSound, SoundQueue};
use crate::{AudioBus, AudioClip, AudioListener, AudioSource, MixError};

/// Where [`Audio`] sends its mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AudioOutput {
    /// The system's default output device. Without one (or without the
    /// `device` feature), [`Audio::new`] logs a warning and falls back to
    /// [`Silent`](Self::Silent).
    Device,
    /// A buffer that [`Audio::mix`] renders on demand at `sample_rate`: tests,
    /// offline renders, a game's own output.
    Buffer {
        /// Samples per second per channel.
        sample_rate: u32,
    },
    /// Nothing is heard; [`Audio::advance`] mixes and discards so sounds still
    /// progress and finish (headless runs, no device).
    Silent,
}

/// Linear gains of the mix buses (0 mutes, 1 is unchanged).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Volumes {
    /// Everything.
    pub master: f32,
    /// [`AudioBus::Game`] sounds.
    pub game: f32,
    /// [`AudioBus::Ui`] sounds.
    pub ui: f32,
}

impl Default for Volumes {
    fn default() -> Self {
        Self {
            master: 1.0,
            game: 1.0,
            ui: 1.0,
        }
    }
}

/// Sample rate of the silent output: it only keeps sounds progressing.
const SILENT_SAMPLE_RATE: u32 = 8_000;
/// Longest stretch one [`Audio::advance`] mixes (a stall is not replayed).
const MAX_ADVANCE_SECONDS: f32 = 0.25;
/// Emitters (sources with live tracks) the game bus holds at once.
const TRACK_CAPACITY: usize = 1024;

enum EmitterTrack {
    Spatial(SpatialTrackHandle),
    Plain(TrackHandle),
}

impl EmitterTrack {
    fn set_volume(&mut self, gain: f32, tween: Tween) {
        match self {
            Self::Spatial(track) => track.set_volume(decibels(gain), tween),
            Self::Plain(track) => track.set_volume(decibels(gain), tween),
        }
    }

    fn play(&mut self, clip: &AudioClip, looping: bool) -> Option<StaticSoundHandle> {
        let mut data = clip.data.clone();
        if looping {
            data = data.loop_region(..);
        }
        let played = match self {
            Self::Spatial(track) => track.play(data),
            Self::Plain(track) => track.play(data),
        };
        played
            .map_err(|error| log::warn!("audio: cannot play a sound: {error}"))
            .ok()
    }
}

/// A source's live state in the mixer.
struct Emitter {
    track: EmitterTrack,
    bus: AudioBus,
    spatial: bool,
    sounds: Vec<StaticSoundHandle>,
    plays_seen: u32,
    stops_seen: u32,
    stamp: u64,
}

/// The engine's sound system: owns the kira manager, one listener, a game and a
/// UI bus, and one mixer track per [`AudioSource`] it has seen. Call
/// [`update`](Self::update) once a frame after transforms settle (the
/// `Engine` does).
pub struct Audio {
    manager: AudioManager<OutputBackend>,
    game: TrackHandle,
    ui: TrackHandle,
    listener: ListenerHandle,
    listener_pose: (Vec3, Quat),
    emitters: HashMap<GameObject, Emitter>,
    stamp: u64,
    game_paused: bool,
    silent: bool,
    volumes: Volumes,
    scratch: Vec<f32>,
}

impl std::fmt::Debug for Audio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audio")
            .field("silent", &self.silent)
            .field("emitters", &self.emitters.len())
            .field("volumes", &self.volumes)
            .finish()
    }
}

impl Audio {
    /// Audio on `output`. Never fails: a device that cannot be opened is logged
    /// once (`audio: no output device (...); the game runs silent`) and the
    /// output becomes [`AudioOutput::Silent`].
    #[must_use]
    pub fn new(output: AudioOutput) -> Self {
        let (choice, silent) = match output {
            #[cfg(feature = "device")]
            AudioOutput::Device => (OutputChoice::Device, false),
            #[cfg(not(feature = "device"))]
            AudioOutput::Device => {
                log::warn!("audio: built without the `device` feature; the game runs silent");
                (OutputChoice::Buffer(SILENT_SAMPLE_RATE), true)
            }
            AudioOutput::Buffer { sample_rate } => (OutputChoice::Buffer(sample_rate), false),
            AudioOutput::Silent => (OutputChoice::Buffer(SILENT_SAMPLE_RATE), true),
        };
        // Opening a device on a machine without a sound card makes ALSA
        // print a dozen lines; the warning below says it in one.
        let noise: &[taos_stderr::Noise] = match choice {
            OutputChoice::Buffer(_) => &[],
            #[cfg(feature = "device")]
            OutputChoice::Device => &[taos_stderr::Noise::AlsaProbe],
        };
        match taos_stderr::filtered(noise, || AudioManager::new(settings(choice))) {
            Ok(manager) => Self::assemble(manager, silent),
            Err(error) => {
                log::warn!(
                    "audio: no output device ({}); the game runs silent",
                    error.0
                );
                let manager = AudioManager::new(settings(OutputChoice::Buffer(SILENT_SAMPLE_RATE)))
                    .unwrap_or_else(|_| unreachable!("a buffer output always starts"));
                Self::assemble(manager, true)
            }
        }
    }

    fn assemble(mut manager: AudioManager<OutputBackend>, silent: bool) -> Self {
        // A fresh manager has room for two tracks and a listener (kira's default
        // capacities are 128 and 8), so these cannot fail.
        let game = manager
            .add_sub_track(TrackBuilder::new().sub_track_capacity(TRACK_CAPACITY))
            .expect("a fresh mixer has room for the game bus");
        let ui = manager
            .add_sub_track(TrackBuilder::new().sub_track_capacity(TRACK_CAPACITY))
            .expect("a fresh mixer has room for the UI bus");
        let listener = manager
            .add_listener(Vec3::ZERO, Quat::IDENTITY)
            .expect("a fresh mixer has room for a listener");
        Self {
            manager,
            game,
            ui,
            listener,
            listener_pose: (Vec3::ZERO, Quat::IDENTITY),
            emitters: HashMap::new(),
            stamp: 0,
            game_paused: false,
            silent,
            volumes: Volumes::default(),
            scratch: Vec::new(),
        }
    }

    /// True when nothing is heard: [`AudioOutput::Silent`], or a device that
    /// could not be opened.
    #[must_use]
    pub fn is_silent(&self) -> bool {
        self.silent
    }

    /// The bus gains.
    #[must_use]
    pub fn volumes(&self) -> Volumes {
        self.volumes
    }

    /// Sets the bus gains (non-finite or negative values mute).
    pub fn set_volumes(&mut self, volumes: Volumes) {
        self.volumes = volumes;
        let tween = Tween::default();
        self.manager
            .main_track()
            .set_volume(decibels(volumes.master), tween);
        self.game.set_volume(decibels(volumes.game), tween);
        self.ui.set_volume(decibels(volumes.ui), tween);
    }

    /// Where the listener stood at the last update, and its rotation.
    #[must_use]
    pub fn listener_pose(&self) -> (Vec3, Quat) {
        self.listener_pose
    }

    /// How many sources have live mixer tracks.
    #[must_use]
    pub fn emitter_count(&self) -> usize {
        self.emitters.len()
    }

    /// Reads `scene` and brings the mix up to date: the listener follows the
    /// [`AudioListener`] (or the camera), each active [`AudioSource`] follows
    /// its object's world position with its distance gain, pending
    /// [`play`](AudioSource::play)/[`stop`](AudioSource::stop) requests run,
    /// sources gone since the last update stop, the game bus pauses while
    /// the scene's time scale is 0, and the one-shots queued on the scene
    /// ([`PlaySound`](crate::PlaySound)) play.
    pub fn update(&mut self, scene: &mut Scene) {
        self.stamp += 1;
        let tween = Tween::default();
        let pose = listener_pose(scene);
        self.listener.set_position(pose.0, tween);
        self.listener.set_orientation(pose.1, tween);
        self.listener_pose = pose;

        let paused = scene.time().scale() == 0.0;
        if paused != self.game_paused {
            self.game_paused = paused;
            if paused {
                self.game.pause(tween);
            } else {
                self.game.resume(tween);
            }
        }

        let stamp = self.stamp;
        scene.for_each_active_with::<AudioSource>(|object, source, world| {
            let position = Vec3::from(world.translation);
            let gain = source_gain(source, position, pose.0);
            let stale = self
                .emitters
                .get(&object)
                .is_some_and(|e| e.bus != source.bus || e.spatial != source.spatial);
            if stale {
                self.emitters.remove(&object);
            }
            let emitter = match self.emitters.entry(object) {
                std::collections::hash_map::Entry::Occupied(entry) => {
                    let emitter = entry.into_mut();
                    emitter.track.set_volume(gain, tween);
                    if let EmitterTrack::Spatial(track) = &mut emitter.track {
                        track.set_position(position, tween);
                    }
                    emitter
                }
                std::collections::hash_map::Entry::Vacant(entry) => {
                    let bus = match source.bus {
                        AudioBus::Game => &mut self.game,
                        AudioBus::Ui => &mut self.ui,
                    };
                    let Some(track) = new_track(bus, &self.listener, source, position, gain) else {
                        return;
                    };
                    let mut emitter = Emitter {
                        track,
                        bus: source.bus,
                        spatial: source.spatial,
                        sounds: Vec::new(),
                        plays_seen: source.play_requests,
                        stops_seen: source.stop_requests,
                        stamp,
                    };
                    if source.play_on_start {
                        emitter
                            .sounds
                            .extend(emitter.track.play(&source.clip, source.looping));
                    }
                    entry.insert(emitter)
                }
            };
            emitter.stamp = stamp;
            if emitter.stops_seen != source.stop_requests {
                emitter.stops_seen = source.stop_requests;
                for sound in &mut emitter.sounds {
                    sound.stop(tween);
                }
            }
            // A burst of requests plays a few overlapping copies, not hundreds.
            let plays = source.play_requests.wrapping_sub(emitter.plays_seen).min(8);
            emitter.plays_seen = source.play_requests;
            for _ in 0..plays {
                emitter
                    .sounds
                    .extend(emitter.track.play(&source.clip, source.looping));
            }
            emitter
                .sounds
                .retain(|sound| sound.state() != PlaybackState::Stopped);
        });
        // Sources despawned, removed or deactivated since the last update:
        // dropping the track stops their sounds.
        self.emitters.retain(|_, emitter| emitter.stamp == stamp);
        self.play_queued(scene);
    }

    /// Plays the one-shots the simulation queued since the last update
    /// ([`PlaySound`](crate::PlaySound)).
    fn play_queued(&mut self, scene: &mut Scene) {
        let Some(mut queue) = scene.world_mut().get_resource_mut::<SoundQueue>() else {
            return;
        };
        for sound in queue.drain() {
            match sound {
                QueuedSound::At { source, position } => self.play_at(&source, position),
                QueuedSound::Ui { clip, volume } => self.play_ui(&clip, volume),
            }
        }
    }

    /// Stops every source's sounds and forgets them (one-shots and UI sounds
    /// play on): for a scene switch, where object handles change meaning.
    pub fn forget_sources(&mut self) {
        self.emitters.clear();
    }

    /// Plays `clip` once on the UI bus (not positioned, not paused by time).
    pub fn play_ui(&mut self, clip: &AudioClip, volume: f32) {
        let data = clip.data.clone().volume(decibels(volume));
        if let Err(error) = self.ui.play(data) {
            log::warn!("audio: cannot play a UI sound: {error}");
        }
    }

    /// Plays `source`'s clip once from `position` on its bus (a one-shot: a
    /// block breaking, a footstep), with its volume, distances, curve and
    /// panning. Its gain is set from the listener's last position and does not
    /// follow later listener moves.
    pub fn play_at(&mut self, source: &AudioSource, position: Vec3) {
        let gain = source_gain(source, position, self.listener_pose.0);
        if gain <= 0.0 {
            return;
        }
        let bus = match source.bus {
            AudioBus::Game => &mut self.game,
            AudioBus::Ui => &mut self.ui,
        };
        let builder = spatial_builder(source, gain).persist_until_sounds_finish(true);
        let data = source.clip.data.clone();
        let played = if source.spatial {
            bus.add_spatial_sub_track(self.listener.id(), position, builder)
                .map_err(|e| e.to_string())
                .and_then(|mut track| track.play(data).map_err(|e| e.to_string()))
        } else {
            bus.play(data.volume(decibels(gain)))
                .map_err(|e| e.to_string())
        };
        if let Err(error) = played {
            log::warn!("audio: cannot play a sound: {error}");
        }
    }

    /// Mixes the next `frames` stereo frames and returns them as
    /// `[left, right]` pairs. Only a [`AudioOutput::Buffer`] (or silent) output
    /// can be mixed on demand.
    ///
    /// # Errors
    /// [`MixError`] when the audio plays through a device.
    pub fn mix(&mut self, frames: usize) -> Result<Vec<[f32; 2]>, MixError> {
        let mut interleaved = vec![0.0; frames * 2];
        if !self.manager.backend_mut().render(&mut interleaved) {
            return Err(MixError);
        }
        Ok(interleaved
            .chunks_exact(2)
            .map(|pair| [pair[0], pair[1]])
            .collect())
    }

    /// On a silent output, mixes and discards `seconds` of sound (at most a
    /// quarter second) so sounds progress and finish as they would be heard.
    /// Does nothing on a device (it keeps its own time) or on a buffer output
    /// (its owner mixes it).
    pub fn advance(&mut self, seconds: f32) {
        if !self.silent || !seconds.is_finite() || seconds <= 0.0 {
            return;
        }
        let Some(rate) = self.manager.backend_mut().buffer_sample_rate() else {
            return;
        };
        let frames = (seconds.min(MAX_ADVANCE_SECONDS) * rate as f32) as usize;
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(frames * 2, 0.0);
        self.manager.backend_mut().render(&mut scratch);
        self.scratch = scratch;
    }
}

fn settings(choice: OutputChoice) -> AudioManagerSettings<OutputBackend> {
    AudioManagerSettings {
        capacities: Default::default(),
        main_track_builder: Default::default(),
        internal_buffer_size: 128,
        backend_settings: choice,
    }
}

/// A linear gain as kira decibels (0, negative or non-finite is silence).
fn decibels(gain: f32) -> Decibels {
    if gain.is_finite() && gain > 0.0 {
        Decibels((20.0 * gain.log10()).max(Decibels::SILENCE.0))
    } else {
        Decibels::SILENCE
    }
}

fn source_gain(source: &AudioSource, position: Vec3, listener: Vec3) -> f32 {
    let volume = if source.volume.is_finite() {
        source.volume.max(0.0)
    } else {
        0.0
    };
    volume * source.distance_gain(position.distance(listener))
}

fn spatial_builder(source: &AudioSource, gain: f32) -> SpatialTrackBuilder {
    // Distance gain is ours (the curve the source names), so kira's own
    // attenuation is off; kira pans between the ears.
    SpatialTrackBuilder::new()
        .volume(decibels(gain))
        .attenuation_function(None)
        .spatialization_strength(source.pan_strength.clamp(0.0, 1.0))
}

fn new_track(
    bus: &mut TrackHandle,
    listener: &ListenerHandle,
    source: &AudioSource,
    position: Vec3,
    gain: f32,
) -> Option<EmitterTrack> {
    let track = if source.spatial {
        bus.add_spatial_sub_track(listener.id(), position, spatial_builder(source, gain))
            .map(EmitterTrack::Spatial)
    } else {
        bus.add_sub_track(TrackBuilder::new().volume(decibels(gain)))
            .map(EmitterTrack::Plain)
    };
    track
        .map_err(|error| log::warn!("audio: no room for another sound source: {error}"))
        .ok()
}

/// The listener's world position and rotation: the first active
/// [`AudioListener`], else the scene's camera, else the origin.
fn listener_pose(scene: &mut Scene) -> (Vec3, Quat) {
    let mut found: Option<Affine3A> = None;
    scene.for_each_active_with::<AudioListener>(|_, _, world| {
        found.get_or_insert(*world);
    });
    let world = found.or_else(|| {
        let camera = scene.find_camera()?;
        scene.world_matrix(camera)
    });
    match world {
        Some(world) => {
            let (_, rotation, translation) = world.to_scale_rotation_translation();
            let rotation = if rotation.is_finite() {
                rotation.normalize()
            } else {
                Quat::IDENTITY
            };
            let translation = if translation.is_finite() {
                translation
            } else {
                Vec3::ZERO
            };
            (translation, rotation)
        }
        None => (Vec3::ZERO, Quat::IDENTITY),
    }
}
