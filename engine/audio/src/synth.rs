//! Small sound generators, so samples and games ship sounds made in code (no
//! downloaded assets). Each returns mono samples in -1..=1 for
//! [`AudioClip::from_mono`](crate::AudioClip::from_mono).

use std::f32::consts::TAU;

/// A sine tone of `frequency` Hz lasting `seconds`, with 5 ms fades at both
/// ends so it starts and stops without a click.
#[must_use]
pub fn tone(frequency: f32, seconds: f32, sample_rate: u32) -> Vec<f32> {
    let count = sample_count(seconds, sample_rate);
    let rate = sample_rate.max(1) as f32;
    (0..count)
        .map(|i| {
            let t = i as f32 / rate;
            (TAU * frequency * t).sin() * edge_fade(i, count, rate)
        })
        .collect()
}

/// White noise from a seeded generator (the same seed gives the same samples),
/// shaped by an exponential decay of `decay` per second after a 2 ms attack:
/// footsteps, knocks and crunches.
#[must_use]
pub fn noise_burst(seconds: f32, decay: f32, seed: u64, sample_rate: u32) -> Vec<f32> {
    let count = sample_count(seconds, sample_rate);
    let rate = sample_rate.max(1) as f32;
    let mut rng = Xorshift::new(seed);
    (0..count)
        .map(|i| {
            let t = i as f32 / rate;
            let attack = (t / 0.002).min(1.0);
            rng.next_signed() * attack * (-decay * t).exp() * edge_fade(i, count, rate)
        })
        .collect()
}

/// `samples` through a one-pole low-pass filter at `cutoff` Hz: darker,
/// softer sound (wind from noise, thuds from clicks).
#[must_use]
pub fn low_pass(samples: &[f32], cutoff: f32, sample_rate: u32) -> Vec<f32> {
    let dt = 1.0 / sample_rate.max(1) as f32;
    let rc = 1.0 / (TAU * cutoff.max(1.0));
    let alpha = dt / (rc + dt);
    let mut state = 0.0;
    samples
        .iter()
        .map(|&s| {
            state += alpha * (s - state);
            state
        })
        .collect()
}

/// Scales `samples` so the loudest one is `peak` (silence stays silence).
#[must_use]
pub fn normalized(mut samples: Vec<f32>, peak: f32) -> Vec<f32> {
    let loudest = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if loudest > 0.0 {
        let scale = peak.clamp(0.0, 1.0) / loudest;
        samples.iter_mut().for_each(|s| *s *= scale);
    }
    samples
}

fn sample_count(seconds: f32, sample_rate: u32) -> usize {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * sample_rate as f32) as usize
    } else {
        0
    }
}

/// 0 to 1 over the first and last 5 ms.
fn edge_fade(index: usize, count: usize, rate: f32) -> f32 {
    let fade = (0.005 * rate).max(1.0);
    let from_start = index as f32 / fade;
    let to_end = (count - index) as f32 / fade;
    from_start.min(to_end).min(1.0)
}

/// A tiny deterministic generator (xorshift64*), enough for noise.
struct Xorshift(u64);

impl Xorshift {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next_signed(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40;
        bits as f32 / (1u64 << 23) as f32 - 1.0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tone_has_the_length_and_range_asked_for() {
        let samples = super::tone(440.0, 0.25, 8_000);
        assert_eq!(samples.len(), 2_000);
        assert!(samples.iter().all(|s| s.abs() <= 1.0));
        assert_eq!(samples[0], 0.0, "fades in");
    }

    #[test]
    fn noise_is_seeded() {
        let a = super::noise_burst(0.1, 20.0, 7, 8_000);
        assert_eq!(a, super::noise_burst(0.1, 20.0, 7, 8_000));
        assert_ne!(a, super::noise_burst(0.1, 20.0, 8, 8_000));
        assert!(a.iter().all(|s| s.abs() <= 1.0));
    }
}
