//! [`Bot`]: a headless client for tests, benches and load tests. It joins,
//! walks by sending action flags, breaks and places blocks (showing them
//! at once in its copy of the world, rolled back if refused), resends what
//! was not answered, and keeps its copy of the world from the seed and the
//! server's edit log. It does not predict its own movement: it shows the
//! body the server last sent.

use std::collections::{BTreeMap, VecDeque};

use crafty_net::protocol::{
    BodyState, ClientMessage, EditAction, INPUT_WINDOW, PROTOCOL_VERSION, Refusal, ServerMessage,
    Token,
};
use crafty_net::{Link, MemoryLink};
use crafty_sim::inventory::GameMode;
use crafty_sim::world::{BlockType, World};
use glam::{IVec3, Vec3};

use crate::prediction::Prediction;
use crate::remote::RemoteView;

/// crafty's flag for walking forward (bit 15).
pub const FORWARD: u32 = 1 << 15;
/// crafty's flag for turning left (bit 1).
pub const TURN_LEFT: u32 = 1 << 1;

/// A bot client on link `L`; see the [module docs](self).
#[derive(Debug)]
pub struct Bot<L = MemoryLink> {
    /// The player name it joins as.
    pub name: String,
    /// Its connection.
    pub link: L,
    /// The token it joined with, or was given.
    pub token: Option<Token>,
    /// Its player number, once welcomed.
    pub player: Option<u32>,
    /// Its own tick count (of input sent).
    pub tick: u64,
    history: VecDeque<u32>,
    /// Its copy of the world, once welcomed.
    pub world: Option<World>,
    /// Entries of the server's edit log it has applied.
    pub edits_seen: u64,
    next_seq: u32,
    /// Edits sent and not answered: the message and the tick it was sent.
    pending: BTreeMap<u32, (ClientMessage, u64)>,
    /// Edits the server accepted.
    pub accepted: Vec<IVec3>,
    /// Edits the server refused.
    pub refused_edits: usize,
    /// Its body as the server last sent it.
    pub body: Option<BodyState>,
    /// Why it was turned away, if it was.
    pub refused: Option<Refusal>,
    /// Why the server closed the link, if it did.
    pub goodbye: Option<String>,
    /// Chat lines received: who, what.
    pub chat: Vec<(String, String)>,
    /// Its own player, predicted (when made with
    /// [`predicting`](Self::predicting)).
    pub prediction: Option<Prediction>,
    /// How far each correction from the server moved the predicted body.
    pub corrections: Vec<f32>,
    /// The other players, for showing between states.
    pub others: RemoteView,
    predict: bool,
    rng: u64,
}

impl<L: Link> Bot<L> {
    /// A bot on `link` that says hello at once, as `name` (with `token` to
    /// come back as itself); `seed` drives its random walk.
    pub fn join(name: &str, mut link: L, token: Option<Token>, seed: u64) -> Self {
        let hello = ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.to_owned(),
            token,
        };
        let _ = link.send(hello.encode().unwrap());
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
            predict: false,
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

    /// A bot that predicts its own movement ([`Prediction`]) instead of
    /// showing the server's last word.
    #[must_use]
    pub fn predicting(mut self) -> Self {
        self.predict = true;
        self
    }

    /// Its feet: predicted, or as the server last said.
    #[must_use]
    pub fn feet(&self) -> Option<Vec3> {
        if let Some(prediction) = &self.prediction {
            return Some(Vec3::from_array(prediction.body().position));
        }
        self.body.map(|b| Vec3::from_array(b.position))
    }

    /// Reads what arrived, then plays one tick: walks (turning now and
    /// then), and every so often, when `editing`, breaks the block under
    /// its feet ahead, or places stone there when it is air or water. Resends unanswered edits.
    pub fn update(&mut self, editing: bool) {
        self.receive();
        if self.player.is_none() || self.goodbye.is_some() {
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
        let now = self.tick;
        let stale: Vec<ClientMessage> = self
            .pending
            .values()
            .filter(|(_, sent)| now >= sent + 20)
            .map(|(message, _)| message.clone())
            .collect();
        for message in stale {
            let _ = self.link.send(message.encode().unwrap());
        }
        for (_, sent) in self.pending.values_mut() {
            if now >= *sent + 20 {
                *sent = now;
            }
        }
    }

    /// Sends one tick of flags (with the ticks before it, against loss).
    pub fn send_flags(&mut self, flags: u32) {
        self.tick += 1;
        self.history.push_back(flags);
        while self.history.len() > INPUT_WINDOW {
            self.history.pop_front();
        }
        if let Some(prediction) = &mut self.prediction {
            prediction.step(self.tick, flags);
        }
        let input = ClientMessage::Input {
            last_tick: self.tick,
            flags: self.history.iter().copied().collect(),
            edits_seen: self.edits_seen,
        };
        let _ = self.link.send(input.encode().unwrap());
    }

    fn edit_ahead(&mut self) {
        let (Some(body), Some(world)) = (self.body, self.world.as_ref()) else {
            return;
        };
        let feet = Vec3::from_array(body.position);
        let ahead = Vec3::new(-body.yaw.sin(), 0.0, -body.yaw.cos()) * 2.0;
        let below = (feet + ahead - Vec3::Y * 0.5).floor().as_ivec3();
        let there = world.block(below);
        let (at, action, shown) = if there.is_air() || there == BlockType::Water {
            (below, EditAction::Place { block: 1 }, BlockType::Stone)
        } else {
            (below, EditAction::Break, BlockType::Air)
        };
        // Shown at once; rolled back if the server says no.
        self.set_block(at, shown);
        self.send_edit(at, action);
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

    /// Asks for an edit (not shown in its copy: [`update`](Self::update)'s
    /// edits are); returns its number.
    pub fn send_edit(&mut self, at: IVec3, action: EditAction) -> u32 {
        let seq = self.next_seq;
        self.next_seq += 1;
        let message = ClientMessage::Edit {
            seq,
            at: at.to_array(),
            action,
        };
        let _ = self.link.send(message.encode().unwrap());
        self.pending.insert(seq, (message, self.tick));
        seq
    }

    /// Edits sent and not answered yet.
    #[must_use]
    pub fn pending_edits(&self) -> usize {
        self.pending.len()
    }

    /// Reads every message that has arrived (a message it cannot read is
    /// noted in [`goodbye`](Self::goodbye)).
    pub fn receive(&mut self) {
        while let Some(bytes) = self.link.receive() {
            let message = match ServerMessage::decode(&bytes) {
                Ok(message) => message,
                Err(error) => {
                    self.goodbye = Some(format!("the server sent a bad message: {error}"));
                    continue;
                }
            };
            match message {
                ServerMessage::Welcome {
                    token,
                    player,
                    seed,
                    body,
                    tick_hz,
                    can_fly,
                    ..
                } => {
                    self.token = Some(token);
                    self.player = Some(player);
                    self.world = Some(World::new(seed));
                    self.body = Some(body);
                    if self.predict {
                        let mode = if can_fly {
                            GameMode::Creative
                        } else {
                            GameMode::Survival
                        };
                        self.prediction =
                            Some(Prediction::new(World::new(seed), &body, mode, tick_hz));
                    }
                }
                ServerMessage::Refused(refusal) => self.refused = Some(refusal),
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
                        }
                    }
                }
                ServerMessage::EditResult {
                    seq,
                    accepted,
                    at,
                    block,
                } => {
                    if self.pending.remove(&seq).is_none() {
                        continue;
                    }
                    if accepted {
                        self.accepted.push(IVec3::from_array(at));
                    } else {
                        self.refused_edits += 1;
                        if let Ok(block) = BlockType::try_from(block) {
                            self.set_block(IVec3::from_array(at), block);
                        }
                    }
                }
                ServerMessage::Edits { first, edits } => {
                    if self.world.is_none() || first > self.edits_seen {
                        continue; // a gap: the server sends it again
                    }
                    let skip = (self.edits_seen - first) as usize;
                    for edit in edits.iter().skip(skip) {
                        // An unknown block (a newer server's) shows as air.
                        let block = BlockType::try_from(edit.block).unwrap_or(BlockType::Air);
                        self.set_block(IVec3::from_array(edit.at), block);
                        self.edits_seen += 1;
                    }
                }
                ServerMessage::Chat { from, text } => self.chat.push((from, text)),
                ServerMessage::Goodbye { reason } => self.goodbye = Some(reason),
            }
        }
    }
}
