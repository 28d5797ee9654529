//! [`Particle`]: one particle as both paths store it and the draw reads it
//! (an instance vertex buffer on either path, so one draw shader serves both).

use glam::Vec3;

/// One particle, 48 bytes. A slot whose `lifetime` is 0 was never used; a
/// particle with `age >= lifetime` is dead.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Particle {
    /// Position (world space, or the emitter's in local space).
    pub position: [f32; 3],
    /// Seconds lived.
    pub age: f32,
    /// Velocity in m/s.
    pub velocity: [f32; 3],
    /// Seconds it lives.
    pub lifetime: f32,
    /// A random number in `0..1` fixed at birth (flipbook start, variation).
    pub random: f32,
    /// Starting rotation in radians.
    pub rotation: f32,
    /// Spin in radians per second.
    pub spin: f32,
    /// Starting size in metres.
    pub size: f32,
}

impl Particle {
    /// Whether it is alive.
    #[must_use]
    pub fn is_alive(&self) -> bool {
        self.age < self.lifetime
    }

    /// Its position.
    #[must_use]
    pub fn position(&self) -> Vec3 {
        Vec3::from(self.position)
    }

    /// Its velocity.
    #[must_use]
    pub fn velocity(&self) -> Vec3 {
        Vec3::from(self.velocity)
    }
}

/// Size in bytes of one particle.
pub(crate) const PARTICLE_SIZE: u64 = std::mem::size_of::<Particle>() as u64;
