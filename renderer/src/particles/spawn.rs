//! Spawning, decided on the CPU for both paths: how many particles an
//! emitter starts this frame ([`Spawner`]) and where each one starts
//! ([`spawn_particle`]). A particle's start is a pure function of the
//! emitter's seed and its spawn number, so the CPU and GPU paths, a replay
//! and a headless run all start the same particles.

use glam::{Affine3A, Vec3};

use super::effect::{Burst, ParticleEffect, SimulationSpace};
use super::particle::Particle;
use super::random::unit;

/// An emitter's spawning clock.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spawner {
    /// Seconds emitted so far.
    elapsed: f64,
    /// The part of a particle the rate owes from earlier frames.
    carry: f64,
    /// Spawn number of the next particle.
    pub(crate) next: u64,
    /// Firings done per burst.
    fired: Vec<u64>,
}

impl Spawner {
    /// Advances the clock by `dt` seconds and returns how many particles
    /// start now (at most `effect.max_particles`: more would replace each
    /// other within the frame), and whether that cap cut the count.
    pub(crate) fn advance(
        &mut self,
        effect: &ParticleEffect,
        dt: f32,
        emitting: bool,
    ) -> (u32, bool) {
        if !emitting || dt.is_nan() || dt <= 0.0 {
            return (0, false);
        }
        self.elapsed += f64::from(dt);
        self.carry += f64::from(effect.rate) * f64::from(dt);
        let from_rate = self.carry.floor();
        self.carry -= from_rate;
        let mut total = from_rate;
        self.fired.resize(effect.bursts.len(), 0);
        for (burst, fired) in effect.bursts.iter().zip(&mut self.fired) {
            let due = firings_until(burst, self.elapsed);
            if due > *fired {
                total += (due - *fired) as f64 * f64::from(burst.count);
                *fired = due;
            }
        }
        let cap = f64::from(effect.max_particles);
        ((total.min(cap)) as u32, total > cap)
    }
}

/// How many times `burst` has fired by `elapsed` seconds.
fn firings_until(burst: &Burst, elapsed: f64) -> u64 {
    let time = f64::from(burst.time);
    if elapsed < time {
        return 0;
    }
    let interval = f64::from(burst.interval);
    let possible = if burst.cycles == 1 || interval <= 0.0 {
        1
    } else {
        ((elapsed - time) / interval).floor().min(1e15) as u64 + 1
    };
    match burst.cycles {
        0 if interval > 0.0 => possible,
        0 => 1,
        cycles => possible.min(u64::from(cycles)),
    }
}

/// Particle number `index` of an emitter seeded `seed`, placed by `world`
/// in world space, or in the emitter's own space for local simulation.
pub(crate) fn spawn_particle(
    effect: &ParticleEffect,
    world: &Affine3A,
    seed: u64,
    index: u64,
) -> Particle {
    let r = |stream: u32| unit(seed, index, stream);
    let (position, direction) = effect.shape.sample([r(0), r(1), r(2), r(3)]);
    let speed = effect.speed.lerp(r(4));
    let mut velocity = direction * speed;
    let position = match effect.space {
        SimulationSpace::World => {
            velocity = world.transform_vector3(velocity);
            world.transform_point3(position)
        }
        SimulationSpace::Local => position,
    };
    velocity += effect.initial_velocity;
    let finite = |v: Vec3| if v.is_finite() { v } else { Vec3::ZERO };
    Particle {
        position: finite(position).to_array(),
        age: 0.0,
        velocity: finite(velocity).to_array(),
        lifetime: effect.lifetime.lerp(r(5)),
        random: r(6),
        rotation: effect.rotation.lerp(r(7)),
        spin: effect.spin.lerp(r(8)),
        size: effect.size.lerp(r(9)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_spreads_over_frames_and_bursts_fire_on_time() {
        let effect = ParticleEffect {
            rate: 10.0,
            bursts: vec![Burst::once(0.5, 100), Burst::repeating(0.0, 1, 0.25)],
            ..Default::default()
        };
        let mut spawner = Spawner::default();
        let mut counts = Vec::new();
        for _ in 0..10 {
            counts.push(spawner.advance(&effect, 0.1, true).0);
        }
        let total: u32 = counts.iter().sum();
        // 10/s for 1 s, 100 at 0.5 s, one at 0, 0.25, 0.5, 0.75, 1.0.
        assert_eq!(total, 10 + 100 + 5, "{counts:?}");
        assert!(
            counts[4] >= 100,
            "the burst lands in the frame that reaches 0.5 s: {counts:?}"
        );
        assert_eq!(spawner.advance(&effect, 0.0, true).0, 0, "paused");
        assert_eq!(spawner.advance(&effect, 0.1, false).0, 0, "stopped");
    }

    #[test]
    fn a_huge_request_is_capped_at_the_ring() {
        let effect = ParticleEffect {
            max_particles: 1000,
            rate: 1e9,
            ..Default::default()
        };
        let (count, capped) = Spawner::default().advance(&effect, 1.0, true);
        assert_eq!((count, capped), (1000, true));
        let forever = ParticleEffect {
            bursts: vec![Burst::repeating(0.0, 1, 1e-9)],
            ..effect
        };
        assert_eq!(Spawner::default().advance(&forever, 1e6, true).0, 1000);
    }

    #[test]
    fn a_particle_depends_only_on_seed_and_number() {
        let effect = ParticleEffect::default();
        let world = Affine3A::from_translation(Vec3::new(1.0, 2.0, 3.0));
        let a = spawn_particle(&effect, &world, 7, 12);
        assert_eq!(a, spawn_particle(&effect, &world, 7, 12));
        assert_ne!(a, spawn_particle(&effect, &world, 7, 13));
        assert!(
            (a.position().y - 2.0).abs() < 1e-6,
            "the cone starts at the origin"
        );
        assert!(a.lifetime >= 1.0 && a.lifetime <= 2.0);
    }
}
