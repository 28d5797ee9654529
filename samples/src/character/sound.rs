//! The footstep sound, made in code: a short burst of seeded noise, quickly
//! decaying and low-passed into a soft thud.

use taos_engine::audio::{AudioClip, AudioSource, synth};

/// Sample rate of the footstep.
const RATE: u32 = 44_100;

/// A 0.12 s footstep, played from where the foot lands.
///
/// # Errors
/// Never for this fixed sound (a clip the audio module refuses would be a bug here).
pub fn footstep() -> anyhow::Result<AudioSource> {
    let thud = synth::normalized(
        synth::low_pass(&synth::noise_burst(0.12, 45.0, 42, RATE), 700.0, RATE),
        0.6,
    );
    Ok(AudioSource::new(AudioClip::from_mono(RATE, &thud)?).distances(1.0, 25.0))
}
