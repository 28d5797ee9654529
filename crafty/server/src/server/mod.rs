//! [`Server`]: one crafty world, the players connected to it, and every
//! player's record.
//!
//! Where each part of it lives:
//! - here: the configuration, the tick (read, step, send, save, flush) and
//!   the dispatch of each client message;
//! - [`connection`]: one client's link and state ([`Phase`], `Playing`);
//! - [`admission`]: hellos, welcomes and refusals, kicks and leaving, the
//!   roster, tokens;
//! - [`players`]: input into each player's jitter buffer, stepping it,
//!   the states sent to clients;
//! - [`edits`]: checking, making, answering and sending edits;
//! - [`chat`]: chat lines, rate-limited, to everyone;
//! - [`saves`]: what each tick saves, and every record.

use std::collections::BTreeMap;

use crafty_net::Link;
use crafty_net::protocol::{ClientMessage, Refusal, ServerMessage, Token};
use crafty_sim::inventory::{GameMode, InventoryState};
use crafty_sim::save::PlayerState;
use crafty_sim::step::StepWorld;
use crafty_sim::world::{BlockEdit, World};
use serde::{Deserialize, Serialize};
use taos_core::Scene;

mod admission;
mod chat;
mod connection;
mod edits;
mod players;
mod saves;

pub use chat::CHAT_TICKS;
pub use edits::EDITS_PER_SECOND;
pub use players::VIEW_DISTANCE;
pub use saves::RECORD_SAVE_TICKS;

use connection::{Connection, Phase};

/// How a [`Server`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerConfig {
    /// The world's seed.
    pub seed: u64,
    /// Ticks per second (Minecraft's server runs 20).
    pub tick_hz: u32,
    /// The most players at once (Luanti's default is 15).
    pub max_players: usize,
    /// The most messages one client may send in one tick; more disconnects
    /// it (a flood).
    pub max_messages_per_tick: usize,
    /// The mode new players play in.
    pub mode: GameMode,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            tick_hz: 20,
            max_players: 15,
            max_messages_per_tick: 32,
            mode: GameMode::Creative,
        }
    }
}

/// What the server keeps of a player between visits: the same payload a
/// single-player save holds, and the token that proves who they are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The secret the player's client shows to come back as them.
    pub token: Token,
    /// Where they stand and look.
    pub state: PlayerState,
    /// Creative or survival.
    pub mode: GameMode,
    /// Survival belongings.
    pub inventory: InventoryState,
}

/// What one [`Server::tick`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TickReport {
    /// Players who joined.
    pub joined: Vec<String>,
    /// Players who left, and why.
    pub left: Vec<(String, String)>,
    /// Clients turned away.
    pub refused: Vec<Refusal>,
    /// Edits done.
    pub edits: usize,
    /// Edits refused (out of reach, nothing to break, a body in the way).
    pub refused_edits: usize,
    /// The save failed: this tick's answers wait for the next one.
    pub save_failed: bool,
}

/// What must be saved before a tick's answers go out: an edit is
/// acknowledged only once it is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct SaveBatch<'a> {
    /// The index in the world's edit log of the first new edit.
    pub first: u64,
    /// The edits since the last successful save.
    pub edits: &'a [BlockEdit],
    /// The records that changed (players who joined, left or edited; every
    /// player now and then).
    pub records: BTreeMap<String, PlayerRecord>,
    /// The world's seed.
    pub seed: u64,
    /// The server's tick.
    pub tick: u64,
}

/// One crafty world and its players; see the [crate docs](crate).
pub struct Server<L: Link> {
    config: ServerConfig,
    scene: Scene,
    tick: u64,
    connections: Vec<Connection<L>>,
    records: BTreeMap<String, PlayerRecord>,
    next_player: u32,
    tokens: std::collections::hash_map::RandomState,
    /// Edits of the log saved so far.
    saved_edits: u64,
    /// Players whose records must be saved with the next batch.
    dirty: std::collections::BTreeSet<String>,
    /// Someone joined or left since the last roster was sent.
    roster_changed: bool,
}

impl<L: Link> std::fmt::Debug for Server<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("config", &self.config)
            .field("tick", &self.tick)
            .field("connections", &self.connections.len())
            .field("records", &self.records.len())
            .finish_non_exhaustive()
    }
}

impl<L: Link> Server<L> {
    /// A server for a fresh world of `config.seed`, with no records.
    #[must_use]
    pub fn new(config: ServerConfig) -> Self {
        Self::with_world(config, World::new(config.seed), BTreeMap::new())
    }

    /// A server for `world` (loaded with its edits) and the players'
    /// `records` (from the last run).
    #[must_use]
    pub fn with_world(
        config: ServerConfig,
        world: World,
        records: BTreeMap<String, PlayerRecord>,
    ) -> Self {
        let saved_edits = world.edits().len() as u64;
        let mut scene = Scene::new();
        scene.world_mut().insert_resource(StepWorld(world));
        Self {
            config,
            scene,
            tick: 0,
            connections: Vec::new(),
            records,
            next_player: 1,
            tokens: std::collections::hash_map::RandomState::new(),
            saved_edits,
            dirty: std::collections::BTreeSet::new(),
            roster_changed: false,
        }
    }

    /// Goes on from tick `tick` (a restarted server keeps its clock: time
    /// of day and weather follow it).
    #[must_use]
    pub fn resume_at(mut self, tick: u64) -> Self {
        self.tick = tick;
        self
    }

    /// Takes a new client; it joins when its hello arrives.
    pub fn accept(&mut self, link: L) {
        self.connections.push(Connection {
            link,
            phase: Phase::Joining,
            outbox: Vec::new(),
            closing: false,
        });
    }

    /// The server's tick.
    #[must_use]
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// The world.
    #[must_use]
    pub fn world(&self) -> &World {
        &self.scene.world().resource::<StepWorld>().0
    }

    /// Connections open now (joining or playing): with none, the server
    /// has nothing to tick for.
    #[must_use]
    pub fn connections(&self) -> usize {
        self.connections.len()
    }

    /// Players connected now.
    #[must_use]
    pub fn players(&self) -> usize {
        self.connections
            .iter()
            .filter(|c| matches!(c.phase, Phase::Playing(_)))
            .count()
    }

    /// One tick without storage: [`tick_saving`](Self::tick_saving) with a
    /// save that always succeeds (tests, a throwaway world).
    pub fn tick(&mut self) -> TickReport {
        self.tick_saving(|_| Ok::<(), std::convert::Infallible>(()))
    }

    /// One tick: reads every client's messages (hellos, input, edits,
    /// chat), steps every player one tick with their flags, then hands
    /// `save` the new edits and changed records and, once it succeeds,
    /// sends the tick's answers, states and edits: nothing is acknowledged
    /// before it is stored. A failed save is logged and tried again next
    /// tick with everything since; the answers wait for it.
    pub fn tick_saving<E: std::fmt::Display>(
        &mut self,
        save: impl FnOnce(SaveBatch<'_>) -> Result<(), E>,
    ) -> TickReport {
        let mut report = TickReport::default();
        for index in 0..self.connections.len() {
            self.read_messages(index, &mut report);
        }
        self.step_players(&mut report);
        self.tick += 1;
        self.send_states();
        self.send_roster();
        self.send_edits();
        if self.tick.is_multiple_of(RECORD_SAVE_TICKS) {
            self.dirty.extend(self.playing_names());
        }
        match self.save_unsaved(self.dirty_records(), save) {
            Ok(()) => self.flush(),
            Err(error) => {
                log::error!("saving the world failed (tried again next tick): {error}");
                report.save_failed = true;
            }
        }
        self.drop_gone();
        report
    }

    /// Sends every connection's outbox, and closes those that are closing.
    fn flush(&mut self) {
        for connection in &mut self.connections {
            for bytes in connection.outbox.drain(..) {
                let _ = connection.link.send(bytes);
            }
            if connection.closing {
                connection.link.close();
            }
        }
    }

    /// Says goodbye to every client and returns every record (what a
    /// shutdown saves).
    pub fn shut_down(&mut self, reason: &str) -> BTreeMap<String, PlayerRecord> {
        let records = self.records();
        for connection in &mut self.connections {
            connection.send(&ServerMessage::Goodbye {
                reason: reason.to_owned(),
            });
            connection.closing = true;
        }
        self.flush();
        self.connections.clear();
        self.records = records.clone();
        records
    }

    fn read_messages(&mut self, index: usize, report: &mut TickReport) {
        let mut count = 0;
        loop {
            let connection = &mut self.connections[index];
            if matches!(connection.phase, Phase::Gone) {
                return;
            }
            let Some(bytes) = connection.link.receive() else {
                if connection.link.is_closed() {
                    self.leave(index, "the connection closed", report);
                }
                return;
            };
            count += 1;
            if count > self.config.max_messages_per_tick {
                self.kick(index, "too many messages", report);
                return;
            }
            if matches!(self.connections[index].phase, Phase::Joining) {
                self.hello(index, &bytes, report);
                continue;
            }
            match ClientMessage::decode(&bytes) {
                Ok(message) => self.handle(index, message, report),
                Err(error) => {
                    self.kick(index, &format!("a bad message: {error}"), report);
                    return;
                }
            }
        }
    }

    fn handle(&mut self, index: usize, message: ClientMessage, report: &mut TickReport) {
        match message {
            ClientMessage::Hello { .. } => self.kick(index, "a second hello", report),
            ClientMessage::Input {
                last_tick,
                ticks,
                edits_seen,
            } => self.input(index, last_tick, ticks, edits_seen),
            ClientMessage::Edit {
                seq,
                at,
                action,
                after_tick,
            } => self.edit_after(index, seq, at, action, after_tick, report),
            ClientMessage::Chat { text } => self.chat(index, text),
        }
    }
}
