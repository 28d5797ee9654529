//! Particle emitters on GameObjects: the [`ParticleEmitter`] component.
//!
//! The effect itself ([`ParticleEffect`]: spawning, motion, looks) is the
//! renderer's plain data, re-exported here; the renderer's
//! [`ParticleFeature`], which
//! every preset registers, spawns, simulates and draws every active
//! emitter each frame, at the emitter object's world transform. Particles
//! move by the scene's scaled frame time: a time scale of 0 pauses them.
//!
//! ```
//! use std::sync::Arc;
//! use taos_engine::particles::{ParticleEffect, ParticleEmitter};
//! use taos_engine::prelude::*;
//!
//! let mut scene = Scene::new();
//! let fire = scene.spawn("Campfire");
//! let effect = Arc::new(ParticleEffect { rate: 60.0, ..Default::default() });
//! scene.add_component(fire, ParticleEmitter::new(effect)).unwrap();
//! // The seed came from the scene's GameRng, so a replay draws the same sparks.
//! assert!(scene.get_component::<ParticleEmitter>(fire).unwrap().seed().is_some());
//! ```

use std::sync::Arc;

use bevy_ecs::component::Component;
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::world::DeferredWorld;
use taos_core::game_loop::GameRng;

pub use taos_renderer::particles::{
    Burst, Curve, DepthCollision, EmitterShape, Flipbook, FloatRange, Gradient, ParticleBlend,
    ParticleEffect, ParticleEffectError, ParticleFeature, ParticlePath, SimulationSpace,
};

/// Emits a [`ParticleEffect`] from its GameObject (the object's position
/// and orientation place the effect's shape).
///
/// Its random seed comes from the scene's [`GameRng`] when the component is
/// added (unless [`with_seed`](Self::with_seed) chose one), so a recorded
/// run replays the same particles and two headless runs draw the same
/// image.
#[derive(Component, Debug, Clone)]
#[component(on_add = ParticleEmitter::on_add)]
pub struct ParticleEmitter {
    effect: Arc<ParticleEffect>,
    seed: Option<u64>,
    /// Restarts so far: each one gives the renderer a new seed.
    restarts: u64,
    /// Whether it spawns (particles already alive live on either way).
    pub emitting: bool,
}

impl ParticleEmitter {
    /// Emits `effect`, starting now.
    #[must_use]
    pub fn new(effect: impl Into<Arc<ParticleEffect>>) -> Self {
        Self {
            effect: effect.into(),
            seed: None,
            restarts: 0,
            emitting: true,
        }
    }

    /// With this seed instead of one from the scene's [`GameRng`].
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// The effect.
    #[must_use]
    pub fn effect(&self) -> &Arc<ParticleEffect> {
        &self.effect
    }

    /// Emits `effect` from now on; the particles of the old one vanish.
    pub fn set_effect(&mut self, effect: impl Into<Arc<ParticleEffect>>) {
        self.effect = effect.into();
    }

    /// The seed (`None` until the component is added to a scene).
    #[must_use]
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Starts over: living particles vanish, bursts fire again from their
    /// start, and the new particles differ from the last run's.
    pub fn restart(&mut self) {
        self.restarts += 1;
    }

    /// The seed the renderer uses now (the seed, mixed with the restarts).
    #[must_use]
    pub fn draw_seed(&self) -> u64 {
        let seed = self.seed.unwrap_or(0);
        seed ^ self.restarts.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn on_add(mut world: DeferredWorld<'_>, context: HookContext) {
        let unseeded = world
            .get::<Self>(context.entity)
            .is_some_and(|emitter| emitter.seed.is_none());
        if !unseeded {
            return;
        }
        let seed = world
            .get_resource_mut::<GameRng>()
            .map_or(context.entity.to_bits(), |mut rng| rng.next_u64());
        if let Some(mut emitter) = world.get_mut::<Self>(context.entity) {
            emitter.seed = Some(seed);
        }
    }
}
