//! Taos's sound.
//!
//! `taos_audio` gives GameObjects a voice: an [`AudioSource`] component plays an
//! [`AudioClip`] (WAV or OGG/Vorbis, or samples made in code with [`synth`]) from
//! where its object stands, and an [`AudioListener`] component (usually on the
//! camera) is the pair of ears. [`Audio::update`] reads both from a
//! [`Scene`](taos_core::Scene) once a frame: emitters follow their objects' world
//! transforms, their gain follows the listener distance through an
//! [`Attenuation`] curve between a minimum and a maximum distance, and kira's
//! spatial tracks pan each emitter between the ears.
//!
//! Sounds go to one of two buses ([`AudioBus`]): **game** sounds pause while the
//! scene's time scale is 0, **UI** sounds do not.
//!
//! Output is a device ([`AudioOutput::Device`], through cpal, the default
//! `device` feature) or a buffer ([`AudioOutput::Buffer`], which [`Audio::mix`]
//! renders on demand: tests, offline renders). With no usable device,
//! [`Audio::new`] logs one warning and the game runs silent: nothing else
//! changes.
//!
//! It is **not** a music sequencer, a DSP library, or an HRTF renderer: panning
//! is stereo (left/right ears), there is no occlusion, Doppler or reverb.
//!
//! Where this layer stops: it reads a [`Scene`](taos_core::Scene) and plays
//! sound; it never depends on a GPU or a window. The `taos_engine` facade
//! owns one [`Audio`] beside its renderer and updates it each frame before
//! the frame is drawn.
//!
//! # Example
//!
//! ```
//! use taos_audio::{Audio, AudioClip, AudioListener, AudioOutput, AudioSource, synth};
//! use taos_core::Scene;
//!
//! let mut scene = Scene::new();
//! let ears = scene.spawn("Ears");
//! scene.add_component(ears, AudioListener).unwrap();
//! let bell = scene.spawn("Bell");
//! scene.object_mut(bell).unwrap().set_position(glam::Vec3::new(3.0, 0.0, 0.0));
//! let clip = AudioClip::from_mono(44_100, &synth::tone(440.0, 0.5, 44_100)).unwrap();
//! scene.add_component(bell, AudioSource::new(clip).looping(true)).unwrap();
//!
//! let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: 44_100 });
//! audio.update(&mut scene);
//! let mix = audio.mix(4_410).unwrap();
//! let (left, right) = taos_audio::channel_rms(&mix[441..]);
//! assert!(right > left, "the bell is to the right");
//! ```

mod attenuation;
mod backend;
mod clip;
mod error;
mod meter;
mod queue;
pub mod scene_file;
mod source;
pub mod synth;
mod system;
mod wav;

pub use attenuation::Attenuation;
pub use clip::AudioClip;
pub use error::{AudioError, MixError};
pub use meter::channel_rms;
pub use queue::{MAX_QUEUED_SOUNDS, PlaySound, SoundQueue};
pub use source::{AudioBus, AudioListener, AudioSource};
pub use system::{Audio, AudioOutput, Volumes};
pub use wav::{MAX_SAMPLE_RATE, WavError};
