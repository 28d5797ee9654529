//! [`Prediction`]: a client's own player, moved at once from its own input
//! and corrected by the server.
//!
//! The client steps its player with the same controller and collision the
//! server uses (the same spawn and controller code), keeping each tick's input and the
//! body they gave. When a state from the server arrives, saying where the
//! player stood after input tick `n`, the prediction compares it with its
//! own body after tick `n`: the same (within a millimetre), it forgets the
//! ticks up to `n`; different (the server stood still for a late input,
//! another player was in the way, an edit was refused), it puts the body
//! where the server says and steps the ticks after `n` again from their
//! kept input. The correction the player sees is how far that moves the
//! body shown now ([`Prediction::reconcile`] returns it).

use std::collections::VecDeque;

use crafty_net::protocol::{BodyState, TickInput};
use crafty_sim::inventory::GameMode;
use crafty_sim::world::World;
use glam::Vec3;
use taos_core::{GameObject, Scene};

use crate::step::{StepWorld, apply_input, body_of, origin_body, set_body, spawn_player};

/// Ticks of history kept (beyond them the oldest is forgotten: a server
/// that has not answered for this long gets no replay).
const HISTORY: usize = 256;

/// How far apart two bodies may be and still count as the same.
const SAME: f32 = 1e-3;

/// One predicted tick: its input and the body it gave.
#[derive(Debug, Clone, Copy)]
struct Predicted {
    tick: u64,
    input: TickInput,
    body: BodyState,
}

/// A client's own player, predicted; see the [module docs](self).
pub struct Prediction {
    scene: Scene,
    player: GameObject,
    tick_hz: u32,
    history: VecDeque<Predicted>,
    /// Replays done, for a client's statistics.
    pub replays: u64,
}

impl std::fmt::Debug for Prediction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prediction")
            .field("ticks_kept", &self.history.len())
            .field("replays", &self.replays)
            .finish_non_exhaustive()
    }
}

impl Prediction {
    /// A prediction for a player whose body the server gave as `body`, in
    /// `world` (the client's copy), stepping at `tick_hz`.
    #[must_use]
    pub fn new(world: World, body: &BodyState, mode: GameMode, tick_hz: u32) -> Self {
        let mut scene = Scene::new();
        scene.world_mut().insert_resource(StepWorld(world));
        let player = spawn_player(
            &mut scene,
            "you",
            Vec3::from_array(body.position),
            (body.yaw, body.pitch),
            mode,
            tick_hz,
        );
        set_body(&mut scene, player, body);
        Self {
            scene,
            player,
            tick_hz,
            history: VecDeque::new(),
            replays: 0,
        }
    }

    /// The client's copy of the world the player collides with (apply the
    /// server's edits and the client's own here).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self
            .scene
            .world_mut()
            .resource_mut::<StepWorld>()
            .into_inner()
            .0
    }

    /// The client's copy of the world.
    #[must_use]
    pub fn world(&self) -> &World {
        &self.scene.world().resource::<StepWorld>().0
    }

    /// The body as predicted now.
    #[must_use]
    pub fn body(&self) -> BodyState {
        body_of(&self.scene, self.player).unwrap_or_else(origin_body)
    }

    /// Steps the player one tick with `input` (the client's input tick
    /// `tick`) and keeps both; returns the feet.
    pub fn step(&mut self, tick: u64, input: TickInput) -> Vec3 {
        self.advance(input);
        let body = self.body();
        self.history.push_back(Predicted { tick, input, body });
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
        Vec3::from_array(body.position)
    }

    fn advance(&mut self, input: TickInput) {
        apply_input(&mut self.scene, self.player, input);
        self.scene.tick(1.0 / self.tick_hz as f32);
    }

    /// Takes the server's `body` after input tick `input_tick`: returns how
    /// far the body shown now moved to agree with it (0 when the prediction
    /// was right).
    pub fn reconcile(&mut self, input_tick: u64, server: &BodyState) -> f32 {
        while self.history.front().is_some_and(|p| p.tick < input_tick) {
            self.history.pop_front();
        }
        let Some(at) = self.history.front().copied() else {
            return 0.0;
        };
        if at.tick > input_tick {
            // An older state than one already taken (states may arrive out
            // of order): nothing to learn from it.
            return 0.0;
        }
        if same(&at.body, server) {
            self.history.pop_front();
            return 0.0;
        }
        let before = Vec3::from_array(self.body().position);
        set_body(&mut self.scene, self.player, server);
        self.history.pop_front();
        let replay: Vec<(u64, TickInput)> =
            self.history.iter().map(|p| (p.tick, p.input)).collect();
        self.history.clear();
        for (tick, input) in replay {
            self.advance(input);
            let body = self.body();
            self.history.push_back(Predicted { tick, input, body });
        }
        self.replays += 1;
        before.distance(Vec3::from_array(self.body().position))
    }
}

fn same(a: &BodyState, b: &BodyState) -> bool {
    Vec3::from_array(a.position).distance(Vec3::from_array(b.position)) < SAME
        && Vec3::from_array(a.velocity).distance(Vec3::from_array(b.velocity)) < SAME * 10.0
        && a.flying == b.flying
        && a.crouching == b.crouching
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(flags: u32) -> TickInput {
        TickInput {
            flags,
            yaw: 0.0,
            pitch: 0.0,
        }
    }

    /// Bit 15: walk forward.
    const FORWARD: u32 = 1 << 15;

    #[test]
    fn a_late_state_does_not_hide_the_next_correction() {
        let start = BodyState {
            position: [0.5, 80.0, 0.5],
            ..origin_body()
        };
        let mut prediction = Prediction::new(World::new(3), &start, GameMode::Creative, 20);
        let bodies: Vec<BodyState> = (1..=6)
            .map(|tick| {
                prediction.step(tick, input(FORWARD));
                prediction.body()
            })
            .collect();
        assert_eq!(prediction.reconcile(3, &bodies[2]), 0.0);
        // Tick 2's state arrives after tick 3's.
        assert_eq!(prediction.reconcile(2, &bodies[1]), 0.0);
        // The server stood still at tick 4: the prediction must notice.
        let mut stood = bodies[2];
        stood.velocity = [0.0; 3];
        assert!(prediction.reconcile(4, &stood) > 0.0);
        assert_eq!(prediction.replays, 1);
    }
}
