//! [`Bot`]: a headless client for tests, benches and load tests. It is a
//! [`Connection`] (it derefs to one) that walks by sending action flags,
//! and breaks and places blocks ahead of it (shown at once in its copy of
//! the world, rolled back if refused). Unless made
//! [`predicting`](Connection::predicting), it shows the body the server
//! last sent.

use crate::Connection;
use crafty_net::protocol::{EditAction, TickInput, Token};
use crafty_net::{Link, MemoryLink};
use crafty_sim::player::TURN_PER_TICK;
use crafty_sim::world::BlockType;
use glam::Vec3;

/// crafty's flag for walking forward (bit 15).
pub const FORWARD: u32 = 1 << 15;
/// crafty's flag for turning left (bit 1).
pub const TURN_LEFT: u32 = 1 << 1;

/// A bot client on link `L`; see the [module docs](self).
#[derive(Debug)]
pub struct Bot<L = MemoryLink> {
    connection: Connection<L>,
    /// Its view heading as it last sent it (a bot that does not predict
    /// turns it itself).
    yaw: f32,
    rng: u64,
}

impl<L> std::ops::Deref for Bot<L> {
    type Target = Connection<L>;
    fn deref(&self) -> &Connection<L> {
        &self.connection
    }
}

impl<L> std::ops::DerefMut for Bot<L> {
    fn deref_mut(&mut self) -> &mut Connection<L> {
        &mut self.connection
    }
}

impl<L: Link> Bot<L> {
    /// A bot on `link` that says hello at once, as `name` (with `token` to
    /// come back as itself); `seed` drives its random walk.
    pub fn join(name: &str, link: L, token: Option<Token>, seed: u64) -> Self {
        Self {
            connection: Connection::join(name, link, token),
            yaw: 0.0,
            rng: seed,
        }
    }

    fn random(&mut self) -> u64 {
        self.rng = self
            .rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.rng >> 33
    }

    /// Keeps the chunks it is sent in `cache` (see [`Connection::caching`]).
    #[must_use]
    pub fn caching(mut self, cache: Box<dyn crate::ChunkCache>) -> Self {
        self.connection = self.connection.caching(cache);
        self
    }

    /// A bot that predicts its own movement instead of showing the
    /// server's last word.
    #[must_use]
    pub fn predicting(mut self) -> Self {
        self.connection = self.connection.predicting();
        self
    }

    /// Reads what arrived, then plays one tick: walks (turning now and
    /// then), and every so often, when `editing`, breaks the block under
    /// its feet ahead, or places stone there when it is air or water.
    pub fn update(&mut self, editing: bool) {
        self.receive();
        if !self.is_playing() {
            return;
        }
        let turn = if self.random().is_multiple_of(8) {
            TURN_LEFT
        } else {
            0
        };
        self.send_flags(FORWARD | turn);
        if editing && self.random().is_multiple_of(15) {
            self.edit_ahead();
        }
    }

    /// Sends one tick of flags, looking where it looked (turning keys turn
    /// it during the tick, as on the server).
    pub fn send_flags(&mut self, flags: u32) {
        if self.tick == 0
            && let Some(body) = self.body
        {
            self.yaw = body.yaw;
        }
        let input = TickInput {
            flags,
            yaw: self.yaw,
            pitch: 0.0,
        };
        self.connection.send_input(input);
        if flags & TURN_LEFT != 0 {
            self.yaw = (self.yaw + TURN_PER_TICK).rem_euclid(std::f32::consts::TAU);
        }
    }

    fn edit_ahead(&mut self) {
        let (Some(feet), Some(world)) = (self.feet(), self.world.as_ref()) else {
            return;
        };
        let ahead = Vec3::new(-self.yaw.sin(), 0.0, -self.yaw.cos()) * 2.0;
        let below = (feet + ahead - Vec3::Y * 0.5).floor().as_ivec3();
        let there = world.block(below);
        let action = if there.is_air() || there == BlockType::Water {
            EditAction::Place {
                block: BlockType::Stone.into(),
            }
        } else {
            EditAction::Break
        };
        self.connection.edit(below, action);
    }
}
