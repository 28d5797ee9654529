//! [`Connection`]: a client's side of a game on a crafty server.
//!
//! It says hello, then keeps what the server said: the player's number and
//! token, a copy of the world (the seed's terrain plus the server's edit
//! log), the other players ([`RemoteView`]) and their names, and chat. The
//! client sends one [`TickInput`] per tick ([`Connection::send_input`]);
//! each input message repeats the last [`INPUT_WINDOW`] ticks, so a lost
//! one costs nothing. Edits are shown at once ([`Connection::edit`]),
//! resent until answered, and rolled back when refused.
//!
//! [`Connection::receive`] reads what arrived and returns what the game
//! must show: blocks to set in its own world, a correction of its own
//! player, the end of the connection.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crafty_net::MemoryLink;
use crafty_net::protocol::{
    BodyState, ClientMessage, EditAction, INPUT_WINDOW, PROTOCOL_VERSION, Refusal, ServerMessage,
    TickInput, Token,
};
use crafty_net::{ChunkSnapshot, MAX_WANTED_CHUNKS, WorldId};
use crafty_sim::inventory::{GameMode, HOTBAR_SLOTS, InventoryState, ItemStack};
use crafty_sim::world::{BlockType, CHUNK_SIZE, World};

use crate::ChunkCache;

/// The view a client asks for unless told: crafty's farthest.
pub const DEFAULT_VIEW_CHUNKS: u8 = 16;

/// Chunk requests a client sends per tick (each for up to
/// [`MAX_WANTED_CHUNKS`]).
pub const CHUNK_REQUESTS_PER_TICK: usize = 4;
use glam::{IVec3, Vec3};

use crate::prediction::Prediction;
use crate::remote::RemoteView;

/// Chat lines kept (older ones are forgotten).
pub const CHAT_KEPT: usize = 100;

/// Client ticks before an unanswered edit is sent again (a little over a
/// round trip at 150 ms: a lost edit costs 300 ms, not a second).
pub const EDIT_RESEND_TICKS: u64 = 6;

/// What the server gave a client on joining.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welcome {
    /// The server's tick: with `tick_hz`, how long the world has run (its
    /// time of day and weather follow from it and the seed).
    pub tick: u64,
    /// The world's seed.
    pub seed: u64,
    /// Where the player is.
    pub body: BodyState,
    /// The server's ticks per second: the client ticks at this rate.
    pub tick_hz: u32,
    /// Creative (may fly) or survival.
    pub mode: GameMode,
}

/// Something the game must show, from [`Connection::receive`].
#[derive(Debug, Clone, PartialEq)]
pub enum ConnectionEvent {
    /// The server let the player in: start the game.
    Welcomed(Welcome),
    /// A block changed (another player's edit, or one of this player's
    /// refused): set it in the game's world.
    Block {
        /// Where.
        at: IVec3,
        /// What is there now.
        block: BlockType,
    },
    /// The server corrected this player's predicted body: put the game's
    /// player here.
    Corrected(BodyState),
    /// A survival player's belongings as the server keeps them (on
    /// joining, and after a refused edit): the game's player takes them.
    Inventory(InventoryState),
    /// A chat line.
    Chat {
        /// Who said it.
        from: String,
        /// What they said.
        text: String,
    },
    /// The connection ended: refused, said goodbye, or the link closed.
    Closed(String),
}

/// An edit sent and not answered yet.
#[derive(Debug, Clone)]
struct PendingEdit {
    message: ClientMessage,
    sent_at: u64,
}

/// A client's side of a game; see the [module docs](self).
#[derive(Debug)]
pub struct Connection<L = MemoryLink> {
    /// The player name it joins as.
    pub name: String,
    /// The connection to the server.
    pub link: L,
    /// The token it joined with, or was given (keep it to come back as
    /// this player).
    pub token: Option<Token>,
    /// Its player number, once welcomed.
    pub player: Option<u32>,
    /// Its own tick count (of input sent).
    pub tick: u64,
    history: VecDeque<TickInput>,
    /// Its copy of the world, once welcomed.
    pub world: Option<World>,
    /// Entries of the server's edit log it has applied.
    pub edits_seen: u64,
    next_seq: u32,
    pending: BTreeMap<u32, PendingEdit>,
    /// Edits the server accepted.
    pub accepted: Vec<IVec3>,
    /// Edits the server refused.
    pub refused_edits: usize,
    /// Its body as the server last sent it.
    pub body: Option<BodyState>,
    /// Why it was turned away, if it was.
    pub refused: Option<Refusal>,
    /// Why the connection ended, if it did.
    pub goodbye: Option<String>,
    /// The last [`CHAT_KEPT`] chat lines received: who, what.
    pub chat: Vec<(String, String)>,
    /// Its own player, predicted (when made with
    /// [`predicting`](Self::predicting)).
    pub prediction: Option<Prediction>,
    /// How far each correction from the server moved the predicted body.
    pub corrections: Vec<f32>,
    /// The other players, for showing between states.
    pub others: RemoteView,
    /// Everyone playing, by player number.
    pub roster: BTreeMap<u32, String>,
    predict: bool,
    /// A send failed: the link is gone (said by the next `receive`, after
    /// whatever the server said last).
    send_failed: bool,
    /// [`ConnectionEvent::Closed`] was returned.
    closed_reported: bool,
    /// For each block the server told of, the edit-log length its news was
    /// as of: older news (reordered messages) does not overwrite newer.
    known: HashMap<IVec3, u64>,
    /// How far it draws, in chunks (the server sends changed chunks
    /// within it).
    pub view: u8,
    /// The world it joined (its chunk cache's key).
    pub world_id: Option<WorldId>,
    /// Where chunk snapshots are kept between joins.
    cache: Option<Box<dyn ChunkCache>>,
    /// Changed chunks to ask the server for.
    wanted: VecDeque<[i32; 3]>,
    /// Regions whose listings to ask the server for.
    wanted_regions: VecDeque<[i32; 2]>,
    /// Changed chunks taken from the cache on joining or moving.
    pub chunks_cached: usize,
    /// Changed chunks the server sent.
    pub chunks_fetched: usize,
    /// Bytes of every message received.
    pub bytes_received: u64,
    /// Bytes of the chunk messages received (versions and snapshots): what
    /// joining cost beyond the welcome.
    pub chunk_bytes: u64,
}

impl<L: crafty_net::Link> Connection<L> {
    /// A connection on `link` that says hello at once, as `name` (with
    /// `token` to come back as itself).
    pub fn join(name: &str, link: L, token: Option<Token>) -> Self {
        Self::join_viewing(name, link, token, DEFAULT_VIEW_CHUNKS)
    }

    /// [`join`](Self::join), drawing `view` chunks far (the server sends
    /// the changed chunks within it).
    pub fn join_viewing(name: &str, mut link: L, token: Option<Token>, view: u8) -> Self {
        let hello = ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.to_owned(),
            token,
            view,
        };
        let send_failed = hello
            .encode()
            .map_err(|e| e.to_string())
            .and_then(|bytes| link.send(bytes).map_err(|e| e.to_string()))
            .is_err();
        Self {
            name: name.to_owned(),
            link,
            token,
            player: None,
            tick: 0,
            history: VecDeque::new(),
            world: None,
            edits_seen: 0,
            next_seq: 0,
            pending: BTreeMap::new(),
            accepted: Vec::new(),
            refused_edits: 0,
            body: None,
            refused: None,
            goodbye: None,
            chat: Vec::new(),
            prediction: None,
            corrections: Vec::new(),
            others: RemoteView::default(),
            roster: BTreeMap::new(),
            predict: false,
            send_failed,
            closed_reported: false,
            known: HashMap::new(),
            view,
            world_id: None,
            cache: None,
            wanted: VecDeque::new(),
            wanted_regions: VecDeque::new(),
            chunks_cached: 0,
            chunks_fetched: 0,
            bytes_received: 0,
            chunk_bytes: 0,
        }
    }

    /// Keeps the chunks it is sent in `cache`, and takes those it holds at
    /// the server's version from there instead of asking.
    #[must_use]
    pub fn caching(mut self, cache: Box<dyn ChunkCache>) -> Self {
        self.cache = Some(cache);
        self
    }

    /// Predicts its own movement ([`Prediction`]) instead of showing the
    /// server's last word.
    #[must_use]
    pub fn predicting(mut self) -> Self {
        self.predict = true;
        self
    }

    /// Whether the server let it in and the connection is still open.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.player.is_some() && self.goodbye.is_none()
    }

    /// Its feet: predicted, or as the server last said.
    #[must_use]
    pub fn feet(&self) -> Option<Vec3> {
        if let Some(prediction) = &self.prediction {
            return Some(Vec3::from_array(prediction.body().position));
        }
        self.body.map(|b| Vec3::from_array(b.position))
    }

    /// Sends one tick of input (with the ticks before it, against loss),
    /// steps the prediction with it, and resends edits left unanswered
    /// for [`EDIT_RESEND_TICKS`].
    pub fn send_input(&mut self, input: TickInput) {
        self.tick += 1;
        self.history.push_back(input);
        while self.history.len() > INPUT_WINDOW {
            self.history.pop_front();
        }
        if let Some(prediction) = &mut self.prediction {
            prediction.step(self.tick, input);
        }
        self.send(&ClientMessage::Input {
            last_tick: self.tick,
            ticks: self.history.iter().copied().collect(),
            edits_seen: self.edits_seen,
        });
        self.ask_for_chunks();
        let now = self.tick;
        let stale: Vec<ClientMessage> = self
            .pending
            .values_mut()
            .filter(|edit| now >= edit.sent_at + EDIT_RESEND_TICKS)
            .map(|edit| {
                edit.sent_at = now;
                edit.message.clone()
            })
            .collect();
        for message in &stale {
            self.send(message);
        }
    }

    /// Shows an edit at once in its copies of the world and asks the
    /// server for it; returns its number. If the server refuses, the block
    /// comes back as a [`ConnectionEvent::Block`].
    pub fn edit(&mut self, at: IVec3, action: EditAction) -> u32 {
        let shown = match action {
            EditAction::Break => BlockType::Air,
            EditAction::Place { block } => BlockType::try_from(block).unwrap_or(BlockType::Stone),
        };
        self.set_block(at, shown);
        self.send_edit(at, action)
    }

    /// Asks the server for an edit without showing it, made after the last
    /// tick of input sent; returns its number.
    pub fn send_edit(&mut self, at: IVec3, action: EditAction) -> u32 {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        let message = ClientMessage::Edit {
            seq,
            at: at.to_array(),
            action,
            after_tick: self.tick,
        };
        self.send(&message);
        self.pending.insert(
            seq,
            PendingEdit {
                message,
                sent_at: self.tick,
            },
        );
        seq
    }

    /// Sends a chat line (the server drops lines faster than one a
    /// second, and refuses control characters).
    pub fn say(&mut self, text: &str) {
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        if !text.trim().is_empty() {
            self.send(&ClientMessage::Chat { text });
        }
    }

    /// Edits sent and not answered yet.
    #[must_use]
    pub fn pending_edits(&self) -> usize {
        self.pending.len()
    }

    /// Closes the connection (leaving the game).
    pub fn leave(&mut self) {
        self.link.close();
        self.goodbye
            .get_or_insert_with(|| "left the game".to_owned());
    }

    fn send(&mut self, message: &ClientMessage) {
        let sent = message
            .encode()
            .map_err(|e| e.to_string())
            .and_then(|bytes| self.link.send(bytes).map_err(|e| e.to_string()));
        if sent.is_err() {
            self.send_failed = true;
        }
    }

    /// Sets a block in its copies of the world (the one it shows, and the
    /// one its prediction collides with).
    fn set_block(&mut self, at: IVec3, block: BlockType) {
        if let Some(world) = &mut self.world {
            let _ = world.set_block(at, block);
        }
        if let Some(prediction) = &mut self.prediction {
            let _ = prediction.world_mut().set_block(at, block);
        }
    }

    /// Whether news of block `at` as of edit-log length `log_len` is at
    /// least as new as what was shown there from the server; if so, it
    /// becomes what is known.
    fn newer_news(&mut self, at: IVec3, log_len: u64) -> bool {
        let known = self.known.entry(at).or_insert(0);
        if log_len < *known {
            return false;
        }
        *known = log_len;
        true
    }

    /// Reads every message that has arrived; returns what the game must
    /// show, in order. A message it cannot read, a refusal, a goodbye or a
    /// closed link ends the connection ([`ConnectionEvent::Closed`], once).
    pub fn receive(&mut self) -> Vec<ConnectionEvent> {
        let mut events = Vec::new();
        while let Some(bytes) = self.link.receive() {
            self.bytes_received += bytes.len() as u64;
            match ServerMessage::decode(&bytes) {
                Ok(message) => {
                    if matches!(
                        message,
                        ServerMessage::RegionVersions { .. }
                            | ServerMessage::ChunkVersions { .. }
                            | ServerMessage::Chunks { .. }
                    ) {
                        self.chunk_bytes += bytes.len() as u64;
                    }
                    self.take(message, &mut events);
                }
                Err(error) => {
                    self.goodbye
                        .get_or_insert(format!("the server sent a bad message: {error}"));
                }
            }
        }
        if (self.link.is_closed() || self.send_failed) && self.goodbye.is_none() {
            self.goodbye = Some(
                self.link
                    .close_reason()
                    .unwrap_or_else(|| "the connection to the server was lost".to_owned()),
            );
        }
        if let Some(reason) = &self.goodbye
            && !std::mem::replace(&mut self.closed_reported, true)
        {
            events.push(ConnectionEvent::Closed(reason.clone()));
        }
        events
    }

    fn take(&mut self, message: ServerMessage, events: &mut Vec<ConnectionEvent>) {
        match message {
            ServerMessage::Welcome {
                token,
                player,
                tick,
                seed,
                body,
                tick_hz,
                can_fly,
                world,
                edits_from,
                ..
            } => {
                self.world_id = Some(world);
                self.edits_seen = edits_from;
                self.token = Some(token);
                self.player = Some(player);
                self.world = Some(World::new(seed));
                self.body = Some(body);
                let mode = if can_fly {
                    GameMode::Creative
                } else {
                    GameMode::Survival
                };
                if self.predict {
                    self.prediction = Some(Prediction::new(World::new(seed), &body, mode, tick_hz));
                }
                events.push(ConnectionEvent::Welcomed(Welcome {
                    tick,
                    seed,
                    body,
                    tick_hz,
                    mode,
                }));
            }
            ServerMessage::Refused(refusal) => {
                self.goodbye.get_or_insert(refusal.to_string());
                self.refused = Some(refusal);
            }
            ServerMessage::State {
                tick,
                input_tick,
                you,
                others,
            } => {
                self.body = Some(you);
                self.others.push(tick, &others);
                if let Some(prediction) = &mut self.prediction {
                    let moved = prediction.reconcile(input_tick, &you);
                    if moved > 0.0 {
                        self.corrections.push(moved);
                        events.push(ConnectionEvent::Corrected(prediction.body()));
                    }
                }
            }
            ServerMessage::EditResult {
                seq,
                accepted,
                at,
                block,
                log_len,
            } => {
                if self.pending.remove(&seq).is_none() {
                    return;
                }
                let at = IVec3::from_array(at);
                if accepted {
                    self.accepted.push(at);
                } else {
                    self.refused_edits += 1;
                    if let Ok(block) = BlockType::try_from(block)
                        && self.newer_news(at, log_len)
                    {
                        self.set_block(at, block);
                        events.push(ConnectionEvent::Block { at, block });
                    }
                }
            }
            ServerMessage::Edits { first, edits } => {
                if self.world.is_none() || first > self.edits_seen {
                    return; // a gap: the server sends it again
                }
                let skip = usize::try_from(self.edits_seen - first).unwrap_or(usize::MAX);
                for edit in edits.iter().skip(skip) {
                    // An unknown block (a newer server's) shows as air.
                    let block = BlockType::try_from(edit.block).unwrap_or(BlockType::Air);
                    let at = IVec3::from_array(edit.at);
                    self.edits_seen += 1;
                    if self.newer_news(at, self.edits_seen) {
                        self.set_block(at, block);
                        events.push(ConnectionEvent::Block { at, block });
                    }
                }
            }
            ServerMessage::RegionVersions { regions } => self.region_versions(&regions, events),
            ServerMessage::ChunkVersions {
                region,
                version,
                chunks,
            } => {
                if let (Some(cache), Some(world)) = (&mut self.cache, self.world_id) {
                    cache.put_region(world, region, (version, chunks.clone()));
                }
                self.chunk_versions(&chunks, events);
            }
            ServerMessage::Chunks { chunks } => {
                for chunk in chunks {
                    if self.apply_chunk(chunk.at, chunk.version, &chunk.data, events) {
                        self.chunks_fetched += 1;
                        if let (Some(cache), Some(world)) = (&mut self.cache, self.world_id) {
                            cache.put(world, chunk.at, chunk.version, &chunk.data);
                        }
                    }
                }
            }
            ServerMessage::Inventory { stacks, hotbar } => {
                events.push(ConnectionEvent::Inventory(inventory_from(&stacks, &hotbar)));
            }
            ServerMessage::Roster { players } => {
                self.roster = players.into_iter().collect();
            }
            ServerMessage::Chat { from, text } => {
                self.chat.push((from.clone(), text.clone()));
                if self.chat.len() > CHAT_KEPT {
                    self.chat.remove(0);
                }
                events.push(ConnectionEvent::Chat { from, text });
            }
            ServerMessage::Goodbye { reason } => {
                self.goodbye.get_or_insert(reason);
            }
        }
    }
}

impl<L: crafty_net::Link> Connection<L> {
    /// The regions with changed chunks that came into view: a region
    /// cached at the server's version is shown from the cache (each of its
    /// chunks cached at its version; the others asked for), the others'
    /// listings asked for.
    fn region_versions(&mut self, regions: &[([i32; 2], u64)], events: &mut Vec<ConnectionEvent>) {
        for &(region, version) in regions {
            let cached = match (&mut self.cache, self.world_id) {
                (Some(cache), Some(world)) => cache.get_region(world, region),
                _ => None,
            };
            match cached {
                Some((held, chunks)) if held == version => self.chunk_versions(&chunks, events),
                _ => self.wanted_regions.push_back(region),
            }
        }
    }

    /// The changed chunks that came into view: those cached at the
    /// server's version are shown from the cache, the others asked for.
    fn chunk_versions(&mut self, chunks: &[([i32; 3], u64)], events: &mut Vec<ConnectionEvent>) {
        let mut wanted = Vec::new();
        for &(at, version) in chunks {
            let cached = match (&mut self.cache, self.world_id) {
                (Some(cache), Some(world)) => cache.get(world, at),
                _ => None,
            };
            match cached {
                Some((held, data))
                    if held == version && self.apply_chunk(at, version, &data, events) =>
                {
                    self.chunks_cached += 1;
                }
                _ => wanted.push(at),
            }
        }
        self.wanted.extend(wanted);
    }

    /// Asks for the next chunks it lacks, at most
    /// [`CHUNK_REQUESTS_PER_TICK`] messages a tick (the server counts
    /// messages, and sends chunks at its own pace anyway).
    fn ask_for_chunks(&mut self) {
        for _ in 0..CHUNK_REQUESTS_PER_TICK {
            if !self.wanted_regions.is_empty() {
                let take = self.wanted_regions.len().min(MAX_WANTED_CHUNKS);
                let regions: Vec<[i32; 2]> = self.wanted_regions.drain(..take).collect();
                self.send(&ClientMessage::WantRegions { regions });
                continue;
            }
            if self.wanted.is_empty() {
                return;
            }
            let take = self.wanted.len().min(MAX_WANTED_CHUNKS);
            let chunks: Vec<[i32; 3]> = self.wanted.drain(..take).collect();
            self.send(&ClientMessage::WantChunks { chunks });
        }
    }

    /// Shows a chunk snapshot of `version`: each block not known from
    /// newer news. `false` (and nothing shown) if it does not read.
    fn apply_chunk(
        &mut self,
        at: [i32; 3],
        version: u64,
        data: &[u8],
        events: &mut Vec<ConnectionEvent>,
    ) -> bool {
        if self.world.is_none() {
            return false;
        }
        let snapshot = match ChunkSnapshot::decompress(data) {
            Ok(snapshot) => snapshot,
            Err(error) => {
                log::warn!("chunk {at:?} from the server does not read: {error}");
                return false;
            }
        };
        let size = CHUNK_SIZE as i32;
        let origin = IVec3::from_array(at) * size;
        for (index, block) in snapshot.blocks {
            let index = i32::from(index);
            let local = IVec3::new(index % size, index / (size * size), (index / size) % size);
            let at = origin + local;
            // An unknown block (a newer server's) shows as air.
            let block = BlockType::try_from(block).unwrap_or(BlockType::Air);
            if self.newer_news(at, version) {
                self.set_block(at, block);
                events.push(ConnectionEvent::Block { at, block });
            }
        }
        true
    }
}

/// The server's inventory message as crafty's inventory: block numbers
/// this build does not know (a newer server's) are left out, and the
/// hotbar is cut or padded to [`HOTBAR_SLOTS`].
fn inventory_from(stacks: &[(u8, u32)], hotbar: &[Option<u8>]) -> InventoryState {
    let mut state = InventoryState {
        stacks: stacks
            .iter()
            .filter_map(|&(block, count)| {
                let block_type = BlockType::try_from(block).ok()?;
                Some(ItemStack { block_type, count })
            })
            .collect(),
        hotbar: [None; HOTBAR_SLOTS],
    };
    for (slot, block) in state.hotbar.iter_mut().zip(hotbar) {
        *slot = block.and_then(|b| BlockType::try_from(b).ok());
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crafty_net::protocol::LoggedEdit;
    use crafty_net::{Conditions, Link, MemoryNet};

    #[test]
    fn an_old_refusal_arriving_late_does_not_undo_newer_news() {
        let net = MemoryNet::new(Conditions::PERFECT, 1);
        let (client, mut server) = net.connect();
        let mut connection = Connection::join("Ada", client, None);
        let body = BodyState {
            position: [0.5, 80.0, 0.5],
            ..crate::step::origin_body()
        };
        let at = IVec3::new(3, 100, 3);
        let stone = u8::from(BlockType::Stone);
        let messages = [
            ServerMessage::Welcome {
                version: PROTOCOL_VERSION,
                token: Token([1; 16]),
                player: 1,
                tick: 0,
                seed: 4,
                body,
                tick_hz: 20,
                can_fly: true,
                world: WorldId([9; 16]),
                edits_from: 0,
            },
            // Bob's stone is entry 0 of the log...
            ServerMessage::Edits {
                first: 0,
                edits: vec![LoggedEdit {
                    at: at.to_array(),
                    block: stone,
                }],
            },
            // ...and the refusal of Ada's edit there, answered before it
            // (air, log length 0), arrives after it.
            ServerMessage::EditResult {
                seq: 0,
                accepted: false,
                at: at.to_array(),
                block: 0,
                log_len: 0,
            },
        ];
        connection.receive();
        connection.send_edit(at, EditAction::Place { block: stone });
        for message in messages {
            server.send(message.encode().unwrap()).unwrap();
        }
        connection.receive();
        assert_eq!(connection.refused_edits, 1);
        assert_eq!(
            connection.world.as_ref().unwrap().block(at),
            BlockType::Stone
        );
    }

    #[test]
    fn an_inventory_from_a_newer_server_keeps_what_this_build_knows() {
        let stone = u8::from(BlockType::Stone);
        let mut hotbar = vec![None; 12];
        hotbar[0] = Some(stone);
        hotbar[1] = Some(250);
        let state = inventory_from(&[(stone, 5), (250, 3)], &hotbar);
        assert_eq!(
            state.stacks,
            vec![ItemStack {
                block_type: BlockType::Stone,
                count: 5
            }]
        );
        assert_eq!(state.hotbar[0], Some(BlockType::Stone));
        assert_eq!(state.hotbar[1], None);
    }
}
