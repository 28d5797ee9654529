//! [`Coin`]: a spinning coin in a sensor collider. The character walking
//! into it collects it (the physics world reports the player's capsule
//! entering the sensor; the player needs no collider of its own), which
//! counts it in [`Coins`] and removes it.

use glam::Quat;
use taos_engine::physics::{Physics, PhysicsEventKind};
use taos_engine::prelude::*;

/// How many coins the character has collected, of how many (a scene
/// resource).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Coins {
    /// Collected so far.
    pub collected: u32,
    /// Placed in the level.
    pub total: u32,
}

/// Turns a second, radians.
const SPIN: f32 = 2.5;

/// A coin waiting for `collector` on an object that carries a sensor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coin {
    /// The object that collects it (the character).
    pub collector: GameObject,
    turned: f32,
}

impl Coin {
    /// A coin that `collector` collects.
    #[must_use]
    pub fn new(collector: GameObject) -> Self {
        Self {
            collector,
            turned: 0.0,
        }
    }
}

impl Behaviour for Coin {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let me = cx.object();
        let collected = cx.world().get_resource::<Physics>().is_some_and(|physics| {
            physics.events_of(me).any(|event| {
                event.kind == PhysicsEventKind::TriggerEnter && event.other == self.collector
            })
        });
        if collected {
            let mut coins = cx.world_mut().get_resource_or_insert_with(Coins::default);
            coins.collected += 1;
            log::info!("coin collected ({} of {})", coins.collected, coins.total);
            cx.commands().remove(me);
            return Ok(());
        }
        if dt.is_finite() && dt > 0.0 {
            self.turned = (self.turned + SPIN * dt).rem_euclid(std::f32::consts::TAU);
            cx.transform_mut().rotation = Quat::from_rotation_y(self.turned);
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "Coin"
    }
}
