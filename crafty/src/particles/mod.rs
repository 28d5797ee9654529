//! crafty's particles: debris when a block breaks, splashes where rain
//! lands and puffs where snow lands, as engine
//! [`ParticleEmitter`]s on GameObjects of the session's scene (the
//! pipeline's particle pass draws them).
//!
//! - `effects`: the effects, as plain data;
//! - `landing`: where rain and snow land near the player;
//! - here: [`CraftyParticles`], which a [`Session`](crate::session::Session)
//!   updates once a frame: it spawns a debris emitter for every block the
//!   game reports broken ([`Game::take_breaks`](crate::game::Game::take_breaks),
//!   this player's and, on a server, everyone's) and removes it once its
//!   particles died, and moves a few splash emitters to new landing spots
//!   every frame while it rains or snows.
//!
//! Every emitter's seed comes from where and when it happens (the block
//! and tick, the frame's landing roll), never from the scene's `GameRng`:
//! drawing particles must not change what the simulation draws next.
//! There are no torches, lanterns or fires among crafty's blocks, so no
//! smoke or flames.

mod effects;
mod landing;
mod splashes;

use std::collections::HashMap;
use std::sync::Arc;

use glam::Vec3;
use serde::{Deserialize, Serialize};
use taos_engine::game_loop::GameLoop;
use taos_engine::particles::{ParticleEffect, ParticleEmitter};
use taos_engine::renderer::resources::TextureId;
use taos_engine::{GameObject, Scene, Transform};

pub use effects::{
    DEBRIS_COUNT, DEBRIS_LIFETIME, debris_effect, rain_splash_effect, snow_puff_effect,
};
pub use landing::{LANDING_RADIUS, Landing, landing_spot};
pub use splashes::SPLASH_EMITTERS;

use splashes::{Splash, splash_effect};

use crate::game::{state, state_mut};
use crate::time_of_day::{SkyLighting, sky_lighting};
use crate::weather::weather_sky;
use crate::world::BlockType;

/// How many particles the player wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ParticleLevel {
    /// Everything.
    #[default]
    On,
    /// Half the debris, half the splashes.
    Reduced,
    /// None.
    Off,
}

impl ParticleLevel {
    /// Every level, most first.
    pub const ALL: [Self; 3] = [Self::On, Self::Reduced, Self::Off];

    /// Its name on the settings screen.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::On => "On",
            Self::Reduced => "Reduced",
            Self::Off => "Off",
        }
    }

    /// The share of the particles drawn.
    #[must_use]
    pub const fn share(self) -> f32 {
        match self {
            Self::On => 1.0,
            Self::Reduced => 0.5,
            Self::Off => 0.0,
        }
    }
}

/// Breaks older than this many ticks get no debris (a headless run that
/// never drew catches up without a pile of stale bursts).
const STALE_BREAK_TICKS: u64 = 30;
/// Breaks farther than this from the eye, in metres, get no debris.
pub const DEBRIS_RANGE: f32 = 32.0;
/// New debris emitters a frame at most (joining a server brings the
/// state of every chunk, whose broken blocks come as breaks too).
const DEBRIS_PER_FRAME: usize = 4;

/// A debris emitter and when (scene seconds) its particles are all dead.
#[derive(Debug, Clone, Copy)]
struct Debris {
    object: GameObject,
    block: BlockType,
    dies_at: f64,
}

/// The emitters crafty keeps in a session's scene: debris of broken blocks
/// and the rain splashes and snow puffs around the player.
#[derive(Debug, Default)]
pub struct CraftyParticles {
    level: ParticleLevel,
    /// The atlas the cached debris effects use.
    atlas: Option<TextureId>,
    debris_effects: HashMap<BlockType, Arc<ParticleEffect>>,
    debris: Vec<Debris>,
    splashes: Vec<Splash>,
    /// The tint the effects were made with ([`particle_light`]).
    light: Vec3,
    /// Frames updated: mixed into the landing rolls.
    frame: u64,
}

impl CraftyParticles {
    /// No emitters yet, at [`ParticleLevel::On`].
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The level in use.
    #[must_use]
    pub fn level(&self) -> ParticleLevel {
        self.level
    }

    /// Changes the level from the next [`update`](Self::update) on
    /// ([`ParticleLevel::Off`] removes every emitter then).
    pub fn set_level(&mut self, level: ParticleLevel) {
        if level != self.level {
            self.level = level;
            self.debris_effects.clear();
        }
    }

    /// The debris emitters alive and the block each one shows.
    pub fn debris(&self) -> impl Iterator<Item = (GameObject, BlockType)> + '_ {
        self.debris.iter().map(|d| (d.object, d.block))
    }

    /// The landing emitters and what each shows; those emitting this frame
    /// stand on a landing spot.
    pub fn splashes(&self) -> impl Iterator<Item = (GameObject, Landing)> + '_ {
        self.splashes.iter().map(|s| (s.object, s.landing))
    }

    /// Once a frame: debris for the blocks broken since the last call,
    /// debris emitters whose particles died removed, splash emitters moved
    /// to this frame's landing spots. `atlas` is the block atlas in the
    /// renderer's assets (`None`: plain dots).
    pub fn update(&mut self, game_loop: &mut GameLoop, atlas: Option<TextureId>) {
        self.frame = self.frame.wrapping_add(1);
        if atlas != self.atlas {
            self.atlas = atlas;
            self.debris_effects.clear();
        }
        let breaks = state_mut(game_loop).take_breaks();
        let (ticks, seed, light, eye) = {
            let game = state(game_loop);
            let sky = weather_sky(game.time.sky(), &game.weather.view());
            let eye = game.player.body.eye();
            (game.ticks, game.world.seed(), particle_light(&sky), eye)
        };
        if light != self.light {
            self.light = light;
            self.debris_effects.clear();
            let scene = game_loop.scene_mut();
            for splash in &self.splashes {
                if let Some(mut emitter) = scene.get_component_mut::<ParticleEmitter>(splash.object)
                {
                    emitter.set_effect(splash_effect(splash.landing, light));
                }
            }
        }
        let scene = game_loop.scene_mut();
        let now = scene.time().elapsed();
        self.debris.retain(|debris| {
            let alive = debris.dies_at > now && scene.contains(debris.object);
            if !alive {
                scene.remove(debris.object).ok();
            }
            alive
        });
        let count = (DEBRIS_COUNT as f32 * self.level.share()).round() as u32;
        if count > 0 {
            let recent_and_near = breaks.iter().filter(|b| {
                ticks.saturating_sub(b.tick) <= STALE_BREAK_TICKS
                    && (b.at.as_vec3() + 0.5).distance(eye) <= DEBRIS_RANGE
            });
            for broken in recent_and_near.take(DEBRIS_PER_FRAME) {
                let effect = self.debris_effect(broken.block, count);
                let emitter_seed = debris_seed(seed, broken.at, broken.tick);
                let at = broken.at.as_vec3() + Vec3::splat(0.5);
                let object = scene.spawn_with("block debris", Transform::from_position(at));
                let emitter = ParticleEmitter::new(effect).with_seed(emitter_seed);
                if scene.add_component(object, emitter).is_ok() {
                    self.debris.push(Debris {
                        object,
                        block: broken.block,
                        // A little past the longest life: the GPU path's last step.
                        dies_at: now + f64::from(DEBRIS_LIFETIME) + 0.1,
                    });
                } else {
                    scene.remove(object).ok();
                }
            }
        }
        self.update_splashes(game_loop, seed);
    }

    fn debris_effect(&mut self, block: BlockType, count: u32) -> Arc<ParticleEffect> {
        let (atlas, light) = (self.atlas, self.light);
        Arc::clone(
            self.debris_effects
                .entry(block)
                .or_insert_with(|| Arc::new(debris_effect(block, count, atlas, light))),
        )
    }

    /// Removes every emitter from the scene (leaving a world, or turning
    /// particles off).
    pub fn clear(&mut self, scene: &mut Scene) {
        for object in self
            .debris
            .drain(..)
            .map(|d| d.object)
            .chain(self.splashes.drain(..).map(|s| s.object))
        {
            scene.remove(object).ok();
        }
    }
}

/// The seed of the debris of the block at `at` broken in `tick` of the
/// world `seed`.
fn debris_seed(seed: u64, at: glam::IVec3, tick: u64) -> u64 {
    [at.x, at.y, at.z]
        .into_iter()
        .fold(landing::mix(seed ^ tick), |h, c| {
            landing::mix(h ^ u64::from(c as u32))
        })
}

/// How bright particles look in `sky` (they receive no light themselves):
/// the ambient light and half the direct light, relative to noon's, in
/// steps of 1/16 (so that the effects change seldom).
#[must_use]
pub fn particle_light(sky: &SkyLighting) -> Vec3 {
    let lit = |sky: &SkyLighting| sky.ambient + sky.light_color * 0.5;
    let noon = lit(&sky_lighting(std::f32::consts::FRAC_PI_2, 0.5));
    let relative = lit(sky) / noon.max(Vec3::splat(1e-3));
    if relative.is_finite() {
        (relative.clamp(Vec3::splat(0.05), Vec3::splat(1.25)) * 16.0).round() / 16.0
    } else {
        Vec3::ONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn particles_are_as_bright_as_noon_by_day_and_dim_at_night() {
        use std::f32::consts::FRAC_PI_2;
        assert_eq!(particle_light(&sky_lighting(FRAC_PI_2, 0.5)), Vec3::ONE);
        let night = particle_light(&sky_lighting(-FRAC_PI_2, 0.5));
        assert!(night.max_element() <= 0.5, "{night}");
        assert!(night.min_element() >= 0.05, "{night}");
    }
}
