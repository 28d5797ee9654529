//! The motion step, the same on both paths: `simulate.wgsl` is this
//! function's GPU twin (keep them in step).

use glam::Vec3;

use super::particle::Particle;

/// What one step applies to every particle of an emitter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    /// Seconds.
    pub dt: f32,
    /// Acceleration in the particles' space.
    pub gravity: Vec3,
    /// Drag per second.
    pub drag: f32,
}

impl Step {
    /// The factor the velocity keeps over this step.
    pub(crate) fn damping(&self) -> f32 {
        (-self.drag * self.dt).exp()
    }
}

/// Moves every living particle by one step and returns how many live on.
pub(crate) fn integrate(particles: &mut [Particle], step: &Step) -> u32 {
    let damping = step.damping();
    let mut alive = 0;
    for particle in particles.iter_mut().filter(|p| p.is_alive()) {
        let velocity = (particle.velocity() + step.gravity * step.dt) * damping;
        particle.velocity = velocity.to_array();
        particle.position = (particle.position() + velocity * step.dt).to_array();
        particle.age += step.dt;
        alive += u32::from(particle.is_alive());
    }
    alive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn particles_fall_slow_down_and_die() {
        let mut particles = [
            Particle {
                velocity: [1.0, 0.0, 0.0],
                lifetime: 1.0,
                ..Default::default()
            },
            Particle::default(),
        ];
        let step = Step {
            dt: 0.5,
            gravity: Vec3::new(0.0, -10.0, 0.0),
            drag: 1.0,
        };
        assert_eq!(integrate(&mut particles, &step), 1);
        let p = particles[0];
        let damping = (-0.5f32).exp();
        assert!((p.velocity[1] + 5.0 * damping).abs() < 1e-5);
        assert!((p.position[0] - 0.5 * damping).abs() < 1e-5);
        assert_eq!(
            particles[1],
            Particle::default(),
            "an unused slot stays unused"
        );
        assert_eq!(integrate(&mut particles, &step), 0, "dies at its lifetime");
    }
}
