//! The landing emitters: a pool of rain splash and snow puff emitters,
//! moved every frame to where rain and snow land around the player.

use std::sync::Arc;

use glam::Vec3;
use taos_engine::game_loop::GameLoop;
use taos_engine::particles::{ParticleEffect, ParticleEmitter};
use taos_engine::{GameObject, Scene};

use super::CraftyParticles;
use super::effects::{rain_splash_effect, snow_puff_effect};
use super::landing::{self, Landing, landing_spot};
use crate::game::{Game, state};

/// Splash emitters (and as many puff emitters) at most emitting at once,
/// each moved to a new landing spot every frame; the weather's intensity
/// says how many emit.
pub const SPLASH_EMITTERS: usize = 8;
/// Rain droplets a second from each splash emitter.
const SPLASH_RATE: f32 = 240.0;
/// Snow puffs a second from each puff emitter.
const PUFF_RATE: f32 = 45.0;
/// Columns tried per emitter wanted and frame (some land on water, or on
/// the other kind's spot).
const LANDING_TRIES: u64 = 4;

/// One pooled landing emitter.
#[derive(Debug, Clone, Copy)]
pub(super) struct Splash {
    pub(super) object: GameObject,
    pub(super) landing: Landing,
}

impl CraftyParticles {
    /// Moves the splash and puff emitters to landing spots around the
    /// player; as many emit as the weather's intensity and the level say.
    pub(super) fn update_splashes(&mut self, game_loop: &mut GameLoop, seed: u64) {
        let wanted = {
            let game = state(game_loop);
            let share = game.weather.view().intensity.clamp(0.0, 1.0) * self.level.share();
            if game.eye_under_water() || !share.is_finite() {
                0
            } else {
                (share * SPLASH_EMITTERS as f32).ceil() as usize
            }
        };
        if wanted == 0 && self.splashes.is_empty() {
            return;
        }
        if self.splashes.is_empty() {
            self.splashes = spawn_splashes(game_loop.scene_mut(), self.light);
        }
        let mut spots: Vec<Option<Vec3>> = vec![None; self.splashes.len()];
        {
            let game: &Game = state(game_loop);
            let around = game.player.body.eye();
            let kind = game.weather.kind();
            let frame = landing::mix(seed ^ self.frame);
            let mut placed = 0;
            for roll in 0..wanted as u64 * LANDING_TRIES {
                if placed == wanted {
                    break;
                }
                let roll = landing::mix(frame ^ roll);
                let Some((spot, landing)) = landing_spot(&game.world, around, roll, kind) else {
                    continue;
                };
                // The next idle emitter of the kind that lands there.
                let free = self
                    .splashes
                    .iter()
                    .zip(&spots)
                    .position(|(splash, spot)| splash.landing == landing && spot.is_none());
                if let Some(k) = free
                    && !spots.contains(&Some(spot))
                {
                    spots[k] = Some(spot);
                    placed += 1;
                }
            }
        }
        let scene = game_loop.scene_mut();
        for (splash, spot) in self.splashes.iter().zip(spots) {
            if let Some(spot) = spot
                && let Ok(mut handle) = scene.object_mut(splash.object)
            {
                handle.set_position(spot);
            }
            if let Some(mut emitter) = scene.get_component_mut::<ParticleEmitter>(splash.object) {
                emitter.emitting = spot.is_some();
            }
        }
    }
}

/// The effect of a landing emitter of `landing` in `light`.
pub(super) fn splash_effect(landing: Landing, light: Vec3) -> Arc<ParticleEffect> {
    Arc::new(match landing {
        Landing::Rain => rain_splash_effect(SPLASH_RATE, light),
        Landing::Snow => snow_puff_effect(PUFF_RATE, light),
    })
}

/// The pooled landing emitters: [`SPLASH_EMITTERS`] splashes, as many
/// puffs, not emitting until moved onto a spot.
fn spawn_splashes(scene: &mut Scene, light: Vec3) -> Vec<Splash> {
    [Landing::Rain, Landing::Snow]
        .into_iter()
        .flat_map(|landing| {
            let effect = splash_effect(landing, light);
            (0..SPLASH_EMITTERS).map(move |_| (landing, Arc::clone(&effect)))
        })
        .enumerate()
        .filter_map(|(i, (landing, effect))| {
            let object = scene.spawn("weather splashes");
            let mut emitter = ParticleEmitter::new(effect).with_seed(landing::mix(i as u64 + 1));
            emitter.emitting = false;
            scene
                .add_component(object, emitter)
                .ok()
                .map(|()| Splash { object, landing })
        })
        .collect()
}
