//! crafty's sounds, all made in code: footsteps, breaking and placing blocks
//! (positioned where they happen), thunder, and a wind ambience on the
//! camera.

use glam::Vec3;
use taos_engine::audio::{Attenuation, Audio, AudioClip, AudioError, AudioSource, synth};

use crate::game::GameSound;

const RATE: u32 = 44_100;

/// The clips, built once when a world opens.
pub(super) struct CraftySounds {
    footsteps: [AudioSource; 3],
    next_footstep: usize,
    break_block: AudioSource,
    place_block: AudioSource,
    thunder: AudioClip,
    wind: AudioClip,
}

/// A short positioned one-shot: loud within 2 blocks, gone by 24.
fn one_shot(samples: &[f32], volume: f32) -> Result<AudioSource, AudioError> {
    Ok(AudioSource::new(AudioClip::from_mono(RATE, samples)?)
        .volume(volume)
        .distances(2.0, 24.0)
        .attenuation(Attenuation::Linear))
}

impl CraftySounds {
    pub(super) fn new() -> Result<Self, AudioError> {
        let step = |seed| {
            let thud = synth::low_pass(&synth::noise_burst(0.09, 45.0, seed, RATE), 700.0, RATE);
            one_shot(&synth::normalized(thud, 0.8), 0.35)
        };
        let crunch = synth::low_pass(&synth::noise_burst(0.22, 18.0, 99, RATE), 2_500.0, RATE);
        let knock: Vec<f32> = synth::tone(180.0, 0.08, RATE)
            .iter()
            .zip(synth::noise_burst(0.08, 60.0, 7, RATE))
            .map(|(t, n)| 0.7 * t + 0.3 * n)
            .collect();
        let wind = synth::normalized(
            synth::low_pass(&synth::noise_burst(4.0, 0.0, 3, RATE), 350.0, RATE),
            0.5,
        );
        let rumble = synth::low_pass(&synth::noise_burst(3.0, 1.4, 11, RATE), 160.0, RATE);
        Ok(Self {
            thunder: AudioClip::from_mono(RATE, &synth::normalized(rumble, 0.95))?,
            footsteps: [step(1)?, step(2)?, step(3)?],
            next_footstep: 0,
            break_block: one_shot(&synth::normalized(crunch, 0.9), 0.6)?,
            place_block: one_shot(&synth::normalized(knock, 0.9), 0.5)?,
            wind: AudioClip::from_mono(RATE, &wind)?,
        })
    }

    /// The looping wind, played on the camera (not positioned).
    pub(super) fn ambience(&self) -> AudioSource {
        AudioSource::new(self.wind.clone())
            .looping(true)
            .spatial(false)
            .volume(0.12)
    }

    /// Plays what the simulation reported, each where it happened.
    pub(super) fn play(&mut self, audio: &mut Audio, events: &[GameSound]) {
        for event in events {
            match *event {
                GameSound::Footstep(at) => {
                    let source = &self.footsteps[self.next_footstep % self.footsteps.len()];
                    self.next_footstep += 1;
                    audio.play_at(source, at);
                }
                GameSound::Break(block) => {
                    audio.play_at(&self.break_block, block.as_vec3() + Vec3::splat(0.5));
                }
                GameSound::Place(block) => {
                    audio.play_at(&self.place_block, block.as_vec3() + Vec3::splat(0.5));
                }
                GameSound::Thunder => audio.play_ui(&self.thunder, 0.8),
            }
        }
    }
}
