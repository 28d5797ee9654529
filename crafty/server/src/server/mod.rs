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
//! - [`saves`]: what each tick saves, and every record;
//! - [`world_log`]: the changed chunks' snapshots and the edit log's tail;
//! - [`sync`]: which changed chunks each player is told of and sent;
//! - [`deadlines`]: the hello deadline and the keep-alive.

use std::collections::BTreeMap;
use std::time::Duration;

use crafty_net::protocol::{ClientMessage, Refusal, ServerMessage, Token};
use crafty_net::{ChunkSnapshot, Link, WorldId};
use crafty_sim::inventory::{GameMode, InventoryState};
use crafty_sim::save::PlayerState;
use crafty_sim::step::StepWorld;
use crafty_sim::world::{BlockEdit, ChunkPos, World};
use serde::{Deserialize, Serialize};
use taos_core::Scene;

mod admission;
pub(crate) use admission::new_world_id;
mod chat;
mod connection;
mod deadlines;
mod edits;
mod players;
mod saves;
mod sync;
mod world_log;

pub use chat::CHAT_TICKS;
pub use edits::EDITS_PER_SECOND;
pub use players::VIEW_DISTANCE;
pub use saves::{FOLD_EDITS, RECORD_SAVE_TICKS};
pub use sync::{CHUNK_BYTES_PER_TICK, MAX_VIEW_CHUNKS};

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
    /// How long a connection may take to say hello before it is closed.
    pub hello_timeout: Duration,
    /// How long a player may stay silent (no input, nothing) before it is
    /// disconnected: clients send input every tick, so silence means a
    /// dead or stalled client.
    pub silence_timeout: Duration,
    /// How long (in the world's running time, which the saves keep) a
    /// record nobody used is kept; [`ServerStore::forget_records`](crate::ServerStore::forget_records)
    /// forgets older ones. A player's belongings are never forgotten
    /// within it.
    pub forget_after: Duration,
    /// The farthest view, in chunks, whose changed chunks a player is sent
    /// (a client asks for its own view, capped at this).
    pub view_chunks: u8,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            tick_hz: 20,
            max_players: 15,
            max_messages_per_tick: 32,
            mode: GameMode::Creative,
            hello_timeout: Duration::from_secs(5),
            silence_timeout: Duration::from_secs(15),
            forget_after: Duration::from_secs(90 * 24 * 3600),
            view_chunks: MAX_VIEW_CHUNKS,
        }
    }
}

impl ServerConfig {
    /// `duration` in this server's ticks (at least 1).
    #[must_use]
    pub fn ticks(&self, duration: Duration) -> u64 {
        let ticks = duration.as_secs_f64() * f64::from(self.tick_hz.max(1));
        (ticks.ceil() as u64).max(1)
    }
}

/// The key a player's record is kept under: the name case-folded, so
/// `Ada` and `ada` are one player.
#[must_use]
pub fn record_key(name: &str) -> String {
    name.to_ascii_lowercase()
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
    /// The server tick they last played at (records unused for
    /// [`ServerConfig::forget_after`] are forgotten).
    #[serde(default)]
    pub last_seen: u64,
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
    /// The world's identity.
    pub world: WorldId,
    /// When not empty, the log is folded: these chunk snapshots (every
    /// chunk the log changed since the last fold, as of the end of this
    /// batch) replace the saved edit log, in the same transaction.
    pub fold: Vec<FoldedChunk<'a>>,
}

/// A chunk snapshot a [`SaveBatch`] folds the log into.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoldedChunk<'a> {
    /// The chunk.
    pub at: ChunkPos,
    /// The log length after the last edit inside it.
    pub version: u64,
    /// Its edited blocks.
    pub snapshot: &'a ChunkSnapshot,
}

/// Reads a player's saved record by its [`record_key`] (what a server
/// that loads players on demand is given).
pub type RecordSource = Box<dyn FnMut(&str) -> Result<Option<PlayerRecord>, String> + Send + Sync>;

/// One crafty world and its players; see the [crate docs](crate).
pub struct Server<L: Link> {
    config: ServerConfig,
    scene: Scene,
    tick: u64,
    connections: Vec<Connection<L>>,
    /// Records of players playing, or changed and not saved yet (and, with
    /// no record source, every record).
    records: BTreeMap<String, PlayerRecord>,
    /// Where records not in memory are read from.
    source: Option<RecordSource>,
    next_player: u32,
    /// The changed chunks and the edit log's tail.
    log: world_log::WorldLog,
    /// Edits of the log saved so far.
    saved_edits: u64,
    /// Edits of the log the saved chunk snapshots hold.
    folded: u64,
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

    /// A server for `world` (loaded with its edits, which count as saved)
    /// and the players' `records` (from the last run; keys are
    /// case-folded), with a new [`WorldId`].
    #[must_use]
    pub fn with_world(
        config: ServerConfig,
        mut world: World,
        records: BTreeMap<String, PlayerRecord>,
    ) -> Self {
        let mut log = world_log::WorldLog::default();
        for &edit in world.edits() {
            log.push(edit);
        }
        log.id = admission::new_world_id();
        let saved = log.len();
        log.forget_before(saved);
        world.forget_history();
        let records = records
            .into_iter()
            .map(|(name, record)| (record_key(&name), record))
            .collect();
        let mut server = Self::assemble(config, world, log, records, saved);
        // The world's edits are in no database yet: the first save folds
        // them all into chunk snapshots.
        server.folded = 0;
        server
    }

    /// A server for a saved world: its changed chunks (`snapshots`, whose
    /// edits end at log index `folded`), then the saved log's `tail`
    /// after them, as [`ServerStore::load`](crate::ServerStore::load)
    /// reads them. Records are read on demand from `source`.
    #[must_use]
    pub fn from_saved(
        config: ServerConfig,
        saved: crate::SavedServer,
        source: RecordSource,
    ) -> Self {
        let crate::SavedServer {
            world: id,
            snapshots,
            folded,
            tail,
            tick,
        } = saved;
        let mut log = world_log::WorldLog::from_snapshots(id, folded, snapshots);
        let mut world = World::new(config.seed);
        world.reserve_edited(log.changed_blocks());
        world.lay(log.as_edits());
        for edit in tail {
            log.push(edit);
            let _ = world.set_block(edit.pos(), edit.block);
        }
        world.forget_history();
        let saved_edits = log.len();
        let mut server = Self::assemble(config, world, log, BTreeMap::new(), saved_edits);
        server.folded = folded;
        server.source = Some(source);
        server.resume_at(tick)
    }

    fn assemble(
        config: ServerConfig,
        world: World,
        log: world_log::WorldLog,
        records: BTreeMap<String, PlayerRecord>,
        saved_edits: u64,
    ) -> Self {
        let mut scene = Scene::new();
        scene.world_mut().insert_resource(StepWorld(world));
        Self {
            config,
            scene,
            tick: 0,
            connections: Vec::new(),
            records,
            source: None,
            next_player: 1,
            saved_edits,
            folded: saved_edits,
            log,
            dirty: std::collections::BTreeSet::new(),
            roster_changed: false,
        }
    }

    /// How it runs.
    #[must_use]
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// The world's identity.
    #[must_use]
    pub fn world_id(&self) -> WorldId {
        self.log.id
    }

    /// Every edit ever made in this world (the edit log's length).
    #[must_use]
    pub fn edits_made(&self) -> u64 {
        self.log.len()
    }

    /// Chunks that differ from the seed's terrain.
    #[must_use]
    pub fn changed_chunks(&self) -> usize {
        self.log.changed_chunks()
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
            opened_at: self.tick,
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
        self.enforce_deadlines(&mut report);
        self.step_players(&mut report);
        self.tick += 1;
        self.send_states();
        self.send_roster();
        self.send_edits(&mut report);
        self.send_chunks();
        if self.tick.is_multiple_of(RECORD_SAVE_TICKS) {
            self.dirty.extend(self.playing_names());
        }
        match self.save_unsaved(self.dirty_records(), false, save) {
            Ok(()) => {
                self.flush();
                self.forget_sent();
            }
            Err(error) => {
                ::log::error!("saving the world failed (tried again next tick): {error}");
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
                    let why = connection
                        .link
                        .close_reason()
                        .unwrap_or_else(|| "the connection closed".to_owned());
                    self.leave(index, &why, report);
                }
                return;
            };
            count += 1;
            if count > self.config.max_messages_per_tick {
                self.kick(index, "too many messages", report);
                return;
            }
            if let Phase::Playing(playing) = &mut self.connections[index].phase {
                playing.heard_at = self.tick;
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
            ClientMessage::Chat { text } => self.chat(index, &text),
            ClientMessage::WantChunks { chunks } => self.want_chunks(index, &chunks),
            ClientMessage::WantRegions { regions } => self.want_regions(index, &regions),
        }
    }
}
