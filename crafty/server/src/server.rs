//! [`Server`]: one crafty world, the players connected to it, and every
//! player's record.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};

use crafty_net::Link;
use crafty_net::protocol::{
    BodyState, ClientMessage, EDITS_PER_MESSAGE, EditAction, INPUT_WINDOW, LoggedEdit,
    PROTOCOL_VERSION, Refusal, RemotePlayer, ServerMessage, TickInput, Token, peek_version,
};
use crafty_sim::inventory::{GameMode, InventoryState};
use crafty_sim::player::{Body, REACH};
use crafty_sim::player::{inventory_state, restore_inventory};
use crafty_sim::save::{PlayerState, SPAWN};
use crafty_sim::world::{BlockEdit, BlockType, World};
use glam::{IVec3, Vec3};
use serde::{Deserialize, Serialize};

use crafty_sim::step::{NetInput, StepWorld, apply_input, body_of, origin_body, spawn_player};
use taos_core::controllers::PlayerController;
use taos_core::{GameObject, Scene};

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

/// A connected player.
#[derive(Debug)]
struct Playing {
    name: String,
    player: u32,
    object: GameObject,
    /// Input received, by the client's tick, not stepped yet.
    pending: BTreeMap<u64, TickInput>,
    /// The client tick stepped next (`None` before the first input).
    next_tick: Option<u64>,
    /// Entries of the world's edit log the client says it has.
    edits_seen: u64,
    /// Entries sent so far (some may be lost: resent from `edits_seen`).
    edits_sent: u64,
    /// The tick edits were last sent.
    edits_sent_at: u64,
    /// The answers to the client's recent edits, by its number: a resent
    /// edit (its answer was lost) gets the same answer, not a second try.
    answered: BTreeMap<u32, bool>,
    /// Ticks this player may still be stepped (see `step_players`).
    credit: u32,
    /// Edits this player may still make (refilled each tick).
    edit_budget: f32,
    /// The tick from which this player may chat again.
    chat_after: u64,
    /// Edits waiting for the input tick they were made after to be
    /// stepped, by that tick and their number.
    queued: BTreeMap<(u64, u32), ([i32; 3], EditAction)>,
}

/// Edits a player may have waiting for their tick; beyond it, an edit is
/// made when it arrives.
const MAX_QUEUED_EDITS: usize = 64;

/// The most edits a player makes per second (Minecraft digs far slower;
/// this stops a flood, not a fast builder).
pub const EDITS_PER_SECOND: f32 = 20.0;
/// Ticks between one player's chat lines (one a second at 20 Hz); faster
/// lines are dropped.
pub const CHAT_TICKS: u64 = 20;

/// Ticks of credit a player can save: how long the server waits for a late
/// input before stepping without it, and the most ticks it steps a player
/// in one server tick to catch up.
const MAX_CREDIT: u32 = 4;

impl Playing {
    /// This player's next step, if it steps now: its next input tick if it
    /// has arrived, or no input (`Some(None)`: stand still) once its credit
    /// is full (it waited long enough); `None` to wait. Spends the credit.
    fn take_step(&mut self) -> Option<Option<TickInput>> {
        if self.credit == 0 {
            return None;
        }
        let input = match self.next_tick {
            Some(next) => match self.pending.remove(&next) {
                Some(input) => {
                    self.next_tick = Some(next + 1);
                    Some(input)
                }
                None if self.credit == MAX_CREDIT => {
                    // Waited long enough: step without it (it is dropped
                    // if it comes).
                    self.next_tick = Some(next + 1);
                    None
                }
                None => return None,
            },
            // No input yet (just joined): wait for it, so the client's
            // first tick starts where the welcome put it.
            None => return None,
        };
        self.credit -= 1;
        if let Some(next) = self.next_tick {
            self.pending = self.pending.split_off(&next);
        }
        Some(input)
    }
}

/// Ticks to wait for a client's acknowledgement before sending edits again.
const EDIT_RESEND_TICKS: u64 = 10;
/// Edit answers kept per player for resent edits.
const ANSWERS_KEPT: usize = 256;

#[derive(Debug)]
enum Phase {
    /// Waiting for the hello.
    Joining,
    Playing(Playing),
    /// To be dropped at the end of the tick.
    Gone,
}

#[derive(Debug)]
struct Connection<L> {
    link: L,
    phase: Phase,
    /// Messages of this tick, sent once its edits are saved.
    outbox: Vec<Vec<u8>>,
    /// Close the link once the outbox is sent.
    closing: bool,
}

impl<L> Connection<L> {
    fn send(&mut self, message: &ServerMessage) {
        match message.encode() {
            Ok(bytes) => self.outbox.push(bytes),
            Err(error) => log::error!("a server message did not encode: {error}"),
        }
    }
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

/// How far away (metres) other players are sent to a client: five chunks,
/// beyond crafty's default view.
pub const VIEW_DISTANCE: f32 = 160.0;

/// Ticks between saves of every connected player's record.
pub const RECORD_SAVE_TICKS: u64 = 100;

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

    /// Saves everything not saved yet, every record included (what a
    /// shutdown does after [`shut_down`](Self::shut_down)).
    ///
    /// # Errors
    /// What `save` returned.
    pub fn save_all<E>(
        &mut self,
        save: impl FnOnce(SaveBatch<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.save_unsaved(self.records(), save)
    }

    /// Hands `save` the edits not saved yet and `records`; on success,
    /// they count as saved.
    fn save_unsaved<E>(
        &mut self,
        records: BTreeMap<String, PlayerRecord>,
        save: impl FnOnce(SaveBatch<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let logged = self.world().edits().len() as u64;
        save(SaveBatch {
            first: self.saved_edits,
            edits: &self.world().edits()[self.saved_edits as usize..],
            records,
            seed: self.config.seed,
            tick: self.tick,
        })?;
        self.saved_edits = logged;
        self.dirty.clear();
        Ok(())
    }

    /// Players connected now.
    #[must_use]
    pub fn players(&self) -> usize {
        self.connections
            .iter()
            .filter(|c| matches!(c.phase, Phase::Playing(_)))
            .count()
    }

    /// Every player's record, those playing now as they are this tick.
    #[must_use]
    pub fn records(&self) -> BTreeMap<String, PlayerRecord> {
        let mut records = self.records.clone();
        for connection in &self.connections {
            if let Phase::Playing(playing) = &connection.phase
                && let Some(record) = self.record_of(playing)
            {
                records.insert(playing.name.clone(), record);
            }
        }
        records
    }

    /// Where a connected player's feet are.
    #[must_use]
    pub fn position_of(&self, name: &str) -> Option<Vec3> {
        self.connections.iter().find_map(|c| match &c.phase {
            Phase::Playing(p) if p.name == name => self
                .scene
                .behaviour::<PlayerController>(p.object)
                .map(|controller| controller.motor.position),
            _ => None,
        })
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

    fn playing_names(&self) -> Vec<String> {
        self.connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some(p.name.clone()),
                _ => None,
            })
            .collect()
    }

    fn dirty_records(&self) -> BTreeMap<String, PlayerRecord> {
        let all = self.records();
        self.dirty
            .iter()
            .filter_map(|name| all.get(name).map(|r| (name.clone(), r.clone())))
            .collect()
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

    fn hello(&mut self, index: usize, bytes: &[u8], report: &mut TickReport) {
        let refusal = match peek_version(bytes) {
            None => Some(Refusal::NoHello),
            Some(version) if version != PROTOCOL_VERSION => Some(Refusal::VersionMismatch {
                server: PROTOCOL_VERSION,
                client: version,
            }),
            Some(_) => None,
        };
        let (name, token) = match (refusal, ClientMessage::decode(bytes)) {
            (None, Ok(ClientMessage::Hello { name, token, .. })) => (name, token),
            (Some(refusal), _) => return self.refuse(index, refusal, report),
            (None, Err(_)) => return self.refuse(index, Refusal::BadName, report),
            (None, Ok(_)) => return self.refuse(index, Refusal::NoHello, report),
        };
        if let Some(record) = self.records.get(&name)
            && token != Some(record.token)
        {
            return self.refuse(index, Refusal::NameTaken, report);
        }
        let playing_now = self.connections.iter().any(|c| match &c.phase {
            Phase::Playing(p) => p.name == name,
            _ => false,
        });
        if playing_now {
            return self.refuse(index, Refusal::AlreadyPlaying, report);
        }
        if self.players() >= self.config.max_players {
            return self.refuse(index, Refusal::Full, report);
        }
        let record = self.records.remove(&name).unwrap_or_else(|| PlayerRecord {
            token: self.new_token(),
            state: SPAWN,
            mode: self.config.mode,
            inventory: InventoryState::default(),
        });
        let object = self.spawn_player(&name, &record);
        let player = self.next_player;
        self.next_player += 1;
        let token = record.token;
        let mode = record.mode;
        // Kept while they play, refreshed from the body when they leave.
        self.records.insert(name.clone(), record);
        let playing = Playing {
            name: name.clone(),
            player,
            object,
            pending: BTreeMap::new(),
            next_tick: None,
            edits_seen: 0,
            edits_sent: 0,
            edits_sent_at: 0,
            answered: BTreeMap::new(),
            credit: 0,
            edit_budget: EDITS_PER_SECOND,
            chat_after: 0,
            queued: BTreeMap::new(),
        };
        let body = self.body_state(object);
        let welcome = ServerMessage::Welcome {
            version: PROTOCOL_VERSION,
            token,
            player,
            tick: self.tick,
            seed: self.config.seed,
            body,
            tick_hz: self.config.tick_hz,
            can_fly: mode == GameMode::Creative,
        };
        let connection = &mut self.connections[index];
        connection.send(&welcome);
        connection.phase = Phase::Playing(playing);
        self.send_inventory(index);
        self.dirty.insert(name.clone());
        self.roster_changed = true;
        log::info!("{name} joined");
        report.joined.push(name);
    }

    fn handle(&mut self, index: usize, message: ClientMessage, report: &mut TickReport) {
        match message {
            ClientMessage::Hello { .. } => self.kick(index, "a second hello", report),
            ClientMessage::Input {
                last_tick,
                ticks,
                edits_seen,
            } => {
                let logged = self.world().edits().len() as u64;
                let Phase::Playing(playing) = &mut self.connections[index].phase else {
                    return;
                };
                // Input may arrive out of order: the newest acknowledgement wins.
                playing.edits_seen = playing.edits_seen.max(edits_seen.min(logged));
                let first = last_tick.saturating_sub(ticks.len() as u64 - 1);
                if playing.next_tick.is_none() {
                    // The first input: the credit saved while waiting for it
                    // is dropped, so the jitter buffer starts with its whole
                    // patience (a full credit would step the next late
                    // input's tick without it).
                    playing.next_tick = Some(first);
                    playing.credit = 0;
                }
                let next = playing.next_tick.unwrap_or(first);
                // One tick is stepped per server tick whatever arrives:
                // sending more input does not move a player faster. Ticks
                // far ahead are dropped (a client cannot queue the future).
                let horizon = next + 4 * INPUT_WINDOW as u64;
                for (tick, input) in (first..=last_tick).zip(ticks) {
                    if tick >= next && tick < horizon {
                        playing.pending.insert(tick, input);
                    }
                }
            }
            ClientMessage::Edit {
                seq,
                at,
                action,
                after_tick,
            } => self.edit_after(index, seq, at, action, after_tick, report),
            ClientMessage::Chat { text } => {
                let tick = self.tick;
                let Phase::Playing(playing) = &mut self.connections[index].phase else {
                    return;
                };
                if tick < playing.chat_after {
                    // Faster than CHAT_TICKS a line: dropped.
                    return;
                }
                playing.chat_after = tick + CHAT_TICKS;
                let line = ServerMessage::Chat {
                    from: playing.name.clone(),
                    text,
                };
                self.broadcast(&line);
            }
        }
    }

    /// An edit made after the player's input tick `after_tick`: queued
    /// until that tick is stepped (so it lands where the client's
    /// prediction had it), or made now if that tick was stepped already,
    /// is far ahead, or too many wait.
    fn edit_after(
        &mut self,
        index: usize,
        seq: u32,
        at: [i32; 3],
        action: EditAction,
        after_tick: u64,
        report: &mut TickReport,
    ) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        let horizon = |next: u64| next + 4 * INPUT_WINDOW as u64;
        let waits = !playing.answered.contains_key(&seq)
            && playing.queued.len() < MAX_QUEUED_EDITS
            && playing
                .next_tick
                .is_some_and(|next| after_tick >= next && after_tick < horizon(next));
        if waits {
            playing.queued.insert((after_tick, seq), (at, action));
        } else {
            self.edit(index, seq, at, action, report);
        }
    }

    /// Makes the edits of connection `index` that waited for its input up
    /// to the tick just stepped.
    fn make_queued_edits(&mut self, index: usize, report: &mut TickReport) {
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        let Some(stepped) = playing.next_tick.and_then(|next| next.checked_sub(1)) else {
            return;
        };
        let later = playing.queued.split_off(&(stepped + 1, 0));
        let due = std::mem::replace(&mut playing.queued, later);
        for ((_, seq), (at, action)) in due {
            self.edit(index, seq, at, action, report);
        }
    }

    fn edit(
        &mut self,
        index: usize,
        seq: u32,
        at: [i32; 3],
        action: EditAction,
        report: &mut TickReport,
    ) {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return;
        };
        let object = playing.object;
        let pos = IVec3::from_array(at);
        if let Some(&accepted) = playing.answered.get(&seq) {
            // Sent again because the answer was lost: the same answer.
            let block = u8::from(self.world().block(pos));
            let log_len = self.world().edits().len() as u64;
            self.connections[index].send(&ServerMessage::EditResult {
                seq,
                accepted,
                at,
                block,
                log_len,
            });
            return;
        }
        // A budget, refilled each tick: a client cannot dig faster than
        // EDITS_PER_SECOND however many edits it sends.
        let within_budget = match &mut self.connections[index].phase {
            Phase::Playing(playing) if playing.edit_budget >= 1.0 => {
                playing.edit_budget -= 1.0;
                true
            }
            _ => false,
        };
        let there = self.world().block(pos);
        let accepted = within_budget
            .then(|| self.check_edit(object, pos, action))
            .flatten()
            .filter(|&block| self.pay_for_edit(index, there, block));
        if let Some(block) = accepted {
            let world = &mut self.scene.world_mut().resource_mut::<StepWorld>().0;
            if world.set_block(pos, block).is_err() {
                return self.answer_edit(index, seq, pos, false, report);
            }
        }
        self.answer_edit(index, seq, pos, accepted.is_some(), report);
    }

    /// The block an edit puts at `pos`, or `None` when it is refused.
    fn check_edit(&self, object: GameObject, pos: IVec3, action: EditAction) -> Option<BlockType> {
        let body = self
            .scene
            .behaviour::<PlayerController>(object)
            .map(|c| Body::of_motor(&c.motor))?;
        let centre = pos.as_vec3() + Vec3::splat(0.5);
        // Reach is to the block's nearest point, as the client's ray sees it.
        if body.eye().distance(centre) > REACH + 0.87 {
            return None;
        }
        let world = self.world();
        let there = world.block(pos);
        match action {
            EditAction::Break => {
                // The bottom layer is bedrock, as in single player.
                (pos.y > 0 && !there.is_air() && there != BlockType::Water)
                    .then_some(BlockType::Air)
            }
            EditAction::Place { block } => {
                let block = BlockType::try_from(block).ok()?;
                let free = there.is_air() || there == BlockType::Water;
                let someone_there = self.connections.iter().any(|c| match &c.phase {
                    Phase::Playing(p) => self
                        .scene
                        .behaviour::<PlayerController>(p.object)
                        .is_some_and(|c| Body::of_motor(&c.motor).overlaps_block(pos)),
                    _ => false,
                });
                (free && !block.is_air() && !someone_there && World::contains(pos)).then_some(block)
            }
        }
    }

    /// A survival player's belongings for an edit: a break gives what the
    /// block drops, a place takes one block of its type (refused without
    /// one). Creative players pay nothing. The record is updated.
    fn pay_for_edit(&mut self, index: usize, there: BlockType, block: BlockType) -> bool {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return false;
        };
        let Some(record) = self.records.get_mut(&playing.name) else {
            return false;
        };
        if record.mode != GameMode::Survival {
            return true;
        }
        let (mut inventory, mut hotbar) = restore_inventory(&record.inventory);
        if block.is_air() {
            if let Some(drop) = there.drop() {
                inventory.add(drop, 1);
                hotbar.assign_if_new(drop);
            }
        } else if inventory.take_one(block) {
            hotbar.clear_missing(&inventory);
        } else {
            return false;
        }
        record.inventory = inventory_state(&inventory, &hotbar);
        true
    }

    fn answer_edit(
        &mut self,
        index: usize,
        seq: u32,
        pos: IVec3,
        accepted: bool,
        report: &mut TickReport,
    ) {
        let block = u8::from(self.world().block(pos));
        let log_len = self.world().edits().len() as u64;
        let at = pos.to_array();
        let connection = &mut self.connections[index];
        if let Phase::Playing(playing) = &mut connection.phase {
            playing.answered.insert(seq, accepted);
            while playing.answered.len() > ANSWERS_KEPT {
                playing.answered.pop_first();
            }
        }
        connection.send(&ServerMessage::EditResult {
            seq,
            accepted,
            at,
            block,
            log_len,
        });
        // Everyone (this client too) gets the edit through the log.
        if accepted {
            report.edits += 1;
            if let Phase::Playing(playing) = &self.connections[index].phase {
                self.dirty.insert(playing.name.clone());
            }
        } else {
            report.refused_edits += 1;
            self.send_inventory(index);
        }
    }

    /// Sends a survival player their belongings as the record has them.
    fn send_inventory(&mut self, index: usize) {
        let Phase::Playing(playing) = &self.connections[index].phase else {
            return;
        };
        let Some(record) = self.records.get(&playing.name) else {
            return;
        };
        if record.mode != GameMode::Survival {
            return;
        }
        let state = &record.inventory;
        let message = ServerMessage::Inventory {
            stacks: state
                .stacks
                .iter()
                .map(|s| (u8::from(s.block_type), s.count))
                .collect(),
            hotbar: state.hotbar.iter().map(|slot| slot.map(u8::from)).collect(),
        };
        self.connections[index].send(&message);
    }

    /// Steps every player by the input ticks it has, a jitter buffer with
    /// credit: each server tick gives a player one tick of credit (at most
    /// [`MAX_CREDIT`]); a tick of credit steps one tick of its input. A
    /// player whose next input has not arrived waits (its body holds still)
    /// until its credit is full, then steps without input; when the late
    /// input arrives it is stepped with the credit saved, up to
    /// [`MAX_CREDIT`] ticks in one server tick. So late input is not lost
    /// to a "stand still" step, and sending more input never steps a player
    /// more than one tick per server tick on average.
    fn step_players(&mut self, report: &mut TickReport) {
        let dt = 1.0 / self.config.tick_hz as f32;
        let refill = EDITS_PER_SECOND / self.config.tick_hz as f32;
        for connection in &mut self.connections {
            if let Phase::Playing(playing) = &mut connection.phase {
                playing.credit = (playing.credit + 1).min(MAX_CREDIT);
                playing.edit_budget = (playing.edit_budget + refill).min(EDITS_PER_SECOND);
            }
        }
        for _round in 0..MAX_CREDIT {
            let mut stepped = Vec::new();
            for (index, connection) in self.connections.iter_mut().enumerate() {
                let Phase::Playing(playing) = &mut connection.phase else {
                    continue;
                };
                let step = playing.take_step();
                match step {
                    Some(Some(input)) => apply_input(&mut self.scene, playing.object, input),
                    Some(None) => {
                        let _ = self.scene.add_component(playing.object, NetInput(0));
                    }
                    None => {}
                }
                if step.is_some() {
                    stepped.push(index);
                }
                if self.scene.is_enabled(playing.object) != Some(step.is_some()) {
                    let _ = self.scene.set_enabled(playing.object, step.is_some());
                }
            }
            if stepped.is_empty() {
                break;
            }
            self.scene.tick(dt);
            for index in stepped {
                self.make_queued_edits(index, report);
            }
        }
    }

    fn send_states(&mut self) {
        let players: Vec<(u32, GameObject)> = self
            .connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some((p.player, p.object)),
                _ => None,
            })
            .collect();
        // In player order: the same state bytes in every run.
        let bodies: BTreeMap<u32, BodyState> = players
            .iter()
            .map(|&(player, object)| (player, self.body_state(object)))
            .collect();
        for connection in &mut self.connections {
            let Phase::Playing(playing) = &connection.phase else {
                continue;
            };
            let here = Vec3::from_array(bodies[&playing.player].position);
            let others = bodies
                .iter()
                .filter(|(id, body)| {
                    **id != playing.player
                        && here.distance(Vec3::from_array(body.position)) <= VIEW_DISTANCE
                })
                .map(|(&player, body)| RemotePlayer {
                    player,
                    position: body.position,
                    yaw: body.yaw,
                })
                .collect();
            let state = ServerMessage::State {
                tick: self.tick,
                input_tick: playing.next_tick.map_or(0, |t| t.saturating_sub(1)),
                you: bodies[&playing.player],
                others,
            };
            connection.send(&state);
        }
    }

    /// Sends each client the edit-log entries it has not been sent, and
    /// what it has not acknowledged again after [`EDIT_RESEND_TICKS`].
    fn send_edits(&mut self) {
        let world = &self.scene.world().resource::<StepWorld>().0;
        let log = world.edits();
        let logged = log.len() as u64;
        for connection in &mut self.connections {
            let Phase::Playing(playing) = &mut connection.phase else {
                continue;
            };
            let from = if playing.edits_sent < logged {
                playing.edits_sent.max(playing.edits_seen)
            } else if playing.edits_seen < logged
                && self.tick >= playing.edits_sent_at + EDIT_RESEND_TICKS
            {
                playing.edits_seen
            } else {
                continue;
            };
            let to = logged.min(from + EDITS_PER_MESSAGE as u64);
            let edits = log[from as usize..to as usize]
                .iter()
                .map(|edit| LoggedEdit {
                    at: edit.pos().to_array(),
                    block: u8::from(edit.block),
                })
                .collect();
            playing.edits_sent = playing.edits_sent.max(to);
            playing.edits_sent_at = self.tick;
            connection.send(&ServerMessage::Edits { first: from, edits });
        }
    }

    fn body_state(&self, object: GameObject) -> BodyState {
        body_of(&self.scene, object).unwrap_or_else(origin_body)
    }

    fn spawn_player(&mut self, name: &str, record: &PlayerRecord) -> GameObject {
        let state = record.state;
        spawn_player(
            &mut self.scene,
            name,
            Vec3::new(state.x, state.y, state.z),
            (state.yaw, state.pitch),
            record.mode,
            self.config.tick_hz,
        )
    }

    fn record_of(&self, playing: &Playing) -> Option<PlayerRecord> {
        let controller = self.scene.behaviour::<PlayerController>(playing.object)?;
        let mut record = self.records.get(&playing.name)?.clone();
        let feet = controller.motor.position;
        record.state = PlayerState {
            x: feet.x,
            y: feet.y,
            z: feet.z,
            yaw: controller.yaw,
            pitch: controller.pitch,
        };
        Some(record)
    }

    fn refuse(&mut self, index: usize, refusal: Refusal, report: &mut TickReport) {
        let connection = &mut self.connections[index];
        connection.send(&ServerMessage::Refused(refusal.clone()));
        connection.closing = true;
        connection.phase = Phase::Gone;
        log::info!("a client was refused: {refusal}");
        report.refused.push(refusal);
    }

    fn kick(&mut self, index: usize, reason: &str, report: &mut TickReport) {
        self.connections[index].send(&ServerMessage::Goodbye {
            reason: reason.to_owned(),
        });
        self.connections[index].closing = true;
        self.leave(index, reason, report);
    }

    /// Keeps a leaving player's record and takes their body out.
    fn leave(&mut self, index: usize, why: &str, report: &mut TickReport) {
        let phase = std::mem::replace(&mut self.connections[index].phase, Phase::Gone);
        if let Phase::Playing(playing) = phase {
            if let Some(record) = self.record_of(&playing) {
                self.records.insert(playing.name.clone(), record);
            }
            self.dirty.insert(playing.name.clone());
            self.roster_changed = true;
            let _ = self.scene.remove(playing.object);
            log::info!("{} left: {why}", playing.name);
            report.left.push((playing.name, why.to_owned()));
        }
    }

    /// Drops the connections that are gone (their last words were sent).
    fn drop_gone(&mut self) {
        self.connections
            .retain(|c| !matches!(c.phase, Phase::Gone) || !c.outbox.is_empty());
    }

    /// Tells everyone who is playing, when that changed.
    fn send_roster(&mut self) {
        if !std::mem::take(&mut self.roster_changed) {
            return;
        }
        let players = self
            .connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some((p.player, p.name.clone())),
                _ => None,
            })
            .collect();
        self.broadcast(&ServerMessage::Roster { players });
    }

    fn broadcast(&mut self, message: &ServerMessage) {
        for connection in &mut self.connections {
            if matches!(connection.phase, Phase::Playing(_)) {
                connection.send(message);
            }
        }
    }

    /// A token no client can guess: 128 bits from the process's randomly
    /// keyed hasher.
    fn new_token(&mut self) -> Token {
        let mut bytes = [0u8; 16];
        for (i, half) in bytes.chunks_exact_mut(8).enumerate() {
            let mut hasher = self.tokens.build_hasher();
            hasher.write_u64(self.tick);
            hasher.write_u32(self.next_player);
            hasher.write_usize(i);
            half.copy_from_slice(&hasher.finish().to_le_bytes());
        }
        self.tokens = std::collections::hash_map::RandomState::new();
        Token(bytes)
    }
}
