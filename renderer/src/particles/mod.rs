//! Particles: emitters that spawn, move and draw many small camera-facing
//! quads (sparks, smoke, rain splashes, debris).
//!
//! - **What a game gives.** A [`ParticleEffect`] (spawn rate and bursts, an
//!   [`EmitterShape`], lifetime, speed, gravity and drag, curves over life
//!   for size, colour, opacity and rotation, a texture sheet, blending,
//!   soft edges, depth collision, world or local space) and, each frame, a
//!   [`ParticleEmitterDraw`] per emitter in [`FrameData::particles`](crate::FrameData::particles)
//!   (the engine fills it from its `ParticleEmitter` components).
//! - **Spawning** is decided on the CPU on both paths: how many start this
//!   frame, and where each starts, a pure function of the emitter's seed
//!   and the particle's number. The same seed gives the same particles in a
//!   replay, in a headless run, and on either path.
//! - **Simulation.** On devices with compute shaders each emitter's ring of
//!   particles lives in a GPU buffer that one compute pass moves (gravity,
//!   drag, collision against the depth buffer) and counts. Without them
//!   (WebGL2) the same step runs on the CPU, at lower counts
//!   ([`MAX_CPU_PARTICLES`]), and the living particles are uploaded.
//! - **Drawing.** One instanced draw per emitter reads the particles as
//!   instance data on both paths, after TAA resolves (so nothing smears)
//!   into the HDR target, testing against and softening over the depth
//!   buffer by hand (so MSAA's resolved depth serves as well).
//!   Alpha-blended emitters are drawn back to front, and on the CPU path
//!   their particles are sorted too; additive ones need no order.
//!
//! It is **not** a mesh-particle or ribbon system, and particles cast no
//! shadows and receive no light: their colour is what the effect says.

mod cpu_sort;
mod curve;
mod effect;
mod emitter;
mod feature;
mod gpu_sort;
mod particle;
mod pipelines;
mod random;
mod shape;
mod simulate;
mod spawn;
mod uniforms;

use std::sync::Arc;

use glam::Affine3A;

pub use curve::{CURVE_SAMPLES, Curve, Gradient};
pub use effect::{
    Burst, DepthCollision, Flipbook, FloatRange, MAX_CPU_PARTICLES, MAX_GPU_PARTICLES,
    MIN_LIFETIME, ParticleBlend, ParticleEffect, ParticleEffectError, SimulationSpace,
};
pub use feature::{ParticleFeature, ParticlePath, ParticleUnsupported};
pub use particle::Particle;
pub use shape::{EmitterShape, MAX_SURFACE_POINTS, MeshSurfaceError, SurfacePoint};

/// One emitter in one frame, as the engine hands it over.
#[derive(Debug, Clone)]
pub struct ParticleEmitterDraw {
    /// Identifies the emitter from frame to frame (the engine uses the
    /// GameObject): its particles live on while the key comes back.
    pub key: u64,
    /// What it emits. A different effect (another `Arc`) starts the emitter
    /// over.
    pub effect: Arc<ParticleEffect>,
    /// Where it is.
    pub world: Affine3A,
    /// Its random seed (a different seed starts it over).
    pub seed: u64,
    /// Whether it spawns this frame (its living particles go on either way).
    pub emitting: bool,
}
