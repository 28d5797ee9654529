//! The particle effects crafty draws, as plain data: block debris (one per
//! block kind, textured with its atlas tile), rain splashes and snow puffs.

use glam::Vec3;
use taos_engine::particles::{
    Burst, Curve, DepthCollision, EmitterShape, Flipbook, FloatRange, Gradient, ParticleBlend,
    ParticleEffect,
};
use taos_engine::renderer::resources::TextureId;

use crate::render::{ATLAS_COLUMNS, ATLAS_ROWS};
use crate::world::{BlockType, Face};

/// Longest life of a debris particle, in seconds: its emitter is removed
/// after this (and a little more).
pub const DEBRIS_LIFETIME: f32 = 0.9;
/// Debris particles of one broken block at the full particle level.
pub const DEBRIS_COUNT: u32 = 18;

/// The debris of breaking `block`: a burst of `count` small chips of the
/// block's side tile ([`Flipbook::still`] of crafty's atlas, `atlas` the
/// atlas in the renderer's assets; without it, plain dots of the same
/// size), thrown up and out, falling and bouncing off what the camera
/// sees. Particles receive no light: `light` tints them as the blocks
/// around are lit ([`particle_light`](super::particle_light); 1 at noon).
#[must_use]
pub fn debris_effect(
    block: BlockType,
    count: u32,
    atlas: Option<TextureId>,
    light: Vec3,
) -> ParticleEffect {
    ParticleEffect {
        name: format!("{} debris", block.name()),
        max_particles: count.max(1),
        rate: 0.0,
        bursts: vec![Burst::once(0.0, count)],
        // From anywhere inside the block, outwards.
        shape: EmitterShape::Sphere {
            radius: 0.35,
            shell: false,
        },
        lifetime: FloatRange::new(0.6, DEBRIS_LIFETIME),
        speed: FloatRange::new(0.8, 2.2),
        initial_velocity: Vec3::new(0.0, 2.0, 0.0),
        gravity: Vec3::new(0.0, -14.0, 0.0),
        drag: 0.5,
        size: FloatRange::new(0.08, 0.14),
        size_over_life: Curve::from_keys([(0.0, 1.0), (0.8, 1.0), (1.0, 0.5)]),
        color: Gradient::constant(Vec3::splat(0.9) * light),
        opacity: Curve::from_keys([(0.0, 1.0), (0.75, 1.0), (1.0, 0.0)]),
        rotation: FloatRange::new(0.0, std::f32::consts::TAU),
        spin: FloatRange::new(-4.0, 4.0),
        texture: atlas,
        flipbook: Some(Flipbook::still(
            ATLAS_COLUMNS,
            ATLAS_ROWS,
            block.tile(Face::North),
        )),
        blend: ParticleBlend::Alpha,
        soft_distance: 0.02,
        collision: Some(DepthCollision {
            restitution: 0.25,
            friction: 0.5,
            thickness: 0.4,
        }),
        ..ParticleEffect::default()
    }
}

/// Rain landing: tiny bluish-white droplets bouncing a hand's width up
/// from where the emitter stands (on top of a block), `rate` a second,
/// tinted by `light` as [`debris_effect`].
#[must_use]
pub fn rain_splash_effect(rate: f32, light: Vec3) -> ParticleEffect {
    ParticleEffect {
        name: String::from("rain splash"),
        max_particles: 256,
        rate,
        shape: EmitterShape::Cone {
            angle: 0.7,
            radius: 0.12,
        },
        lifetime: FloatRange::new(0.18, 0.32),
        speed: FloatRange::new(1.0, 1.8),
        gravity: Vec3::new(0.0, -9.8, 0.0),
        size: FloatRange::new(0.025, 0.045),
        color: Gradient::constant(Vec3::new(0.7, 0.8, 0.95) * light),
        opacity: Curve::linear(0.7, 0.0),
        blend: ParticleBlend::Alpha,
        soft_distance: 0.0,
        ..ParticleEffect::default()
    }
}

/// Snow landing: soft white puffs that spread, drift and fade, `rate` a
/// second, tinted by `light` as [`debris_effect`].
#[must_use]
pub fn snow_puff_effect(rate: f32, light: Vec3) -> ParticleEffect {
    ParticleEffect {
        name: String::from("snow puff"),
        max_particles: 256,
        rate,
        shape: EmitterShape::Cone {
            angle: 1.2,
            radius: 0.15,
        },
        lifetime: FloatRange::new(0.5, 0.9),
        speed: FloatRange::new(0.15, 0.4),
        gravity: Vec3::new(0.0, -0.3, 0.0),
        drag: 2.0,
        size: FloatRange::new(0.07, 0.13),
        size_over_life: Curve::linear(1.0, 1.8),
        color: Gradient::constant(Vec3::splat(0.95) * light),
        opacity: Curve::from_keys([(0.0, 0.0), (0.15, 0.55), (1.0, 0.0)]),
        blend: ParticleBlend::Alpha,
        soft_distance: 0.05,
        ..ParticleEffect::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effects_are_valid_and_debris_shows_the_blocks_tile() {
        for block in BlockType::PLACEABLE {
            let effect = debris_effect(block, DEBRIS_COUNT, None, Vec3::ONE);
            assert_eq!(effect.validate(), Ok(()), "{block:?}");
            let book = effect.flipbook.expect("a still tile");
            assert_eq!(book.first_cell, block.tile(Face::North));
            assert_eq!((book.columns, book.rows), (ATLAS_COLUMNS, ATLAS_ROWS));
            assert_eq!(effect.flipbook_frames(), 1);
        }
        assert_eq!(rain_splash_effect(200.0, Vec3::ONE).validate(), Ok(()));
        assert_eq!(snow_puff_effect(60.0, Vec3::ONE).validate(), Ok(()));
    }
}
