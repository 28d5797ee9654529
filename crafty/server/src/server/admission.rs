//! Who comes in and who goes: a client's hello answered with a welcome
//! or a refusal, players kicked or leaving (their record kept), the
//! roster everyone is sent, and the tokens that prove who a player is.

use std::collections::{BTreeMap, HashSet, VecDeque};

use crafty_net::protocol::{
    ClientMessage, PROTOCOL_VERSION, Refusal, ServerMessage, Token, peek_version,
};
use crafty_net::{Link, WorldId};
use crafty_sim::inventory::{GameMode, InventoryState};
use crafty_sim::save::SPAWN;

use super::connection::{Phase, Playing};
use super::edits::EDITS_PER_SECOND;
use super::{PlayerRecord, Server, TickReport, record_key};

impl<L: Link> Server<L> {
    pub(super) fn hello(&mut self, index: usize, bytes: &[u8], report: &mut TickReport) {
        let refusal = match peek_version(bytes) {
            None => Some(Refusal::NoHello),
            Some(version) if version != PROTOCOL_VERSION => Some(Refusal::VersionMismatch {
                server: PROTOCOL_VERSION,
                client: version,
            }),
            Some(_) => None,
        };
        let (name, token, view) = match (refusal, ClientMessage::decode(bytes)) {
            (
                None,
                Ok(ClientMessage::Hello {
                    name, token, view, ..
                }),
            ) => (name, token, view),
            (Some(refusal), _) => return self.refuse(index, refusal, report),
            (None, Err(_)) => return self.refuse(index, Refusal::BadName, report),
            (None, Ok(_)) => return self.refuse(index, Refusal::NoHello, report),
        };
        // Full first: a full server says nothing about which names exist.
        if self.players() >= self.config.max_players {
            return self.refuse(index, Refusal::Full, report);
        }
        let key = record_key(&name);
        let playing_now = self.connections.iter().any(|c| match &c.phase {
            Phase::Playing(p) => p.key == key,
            _ => false,
        });
        if playing_now {
            return self.refuse(index, Refusal::AlreadyPlaying, report);
        }
        let saved = match self.record(&key) {
            Ok(saved) => saved,
            Err(error) => {
                log::error!("reading {name}'s record failed: {error}");
                return self.refuse(index, Refusal::TryLater, report);
            }
        };
        if let Some(record) = &saved
            && token != Some(record.token)
        {
            return self.refuse(index, Refusal::NameTaken, report);
        }
        let record = match saved {
            Some(record) => record,
            None => match new_token() {
                Some(token) => PlayerRecord {
                    token,
                    state: SPAWN,
                    mode: self.config.mode,
                    inventory: InventoryState::default(),
                    last_seen: self.tick,
                },
                None => return self.refuse(index, Refusal::TryLater, report),
            },
        };
        let object = self.spawn_player(&name, &record);
        let player = self.next_player;
        self.next_player += 1;
        let token = record.token;
        let mode = record.mode;
        // Kept while they play, refreshed from the body when they leave.
        self.records.insert(key.clone(), record);
        let playing = Playing {
            name: name.clone(),
            key: key.clone(),
            player,
            object,
            pending: BTreeMap::new(),
            next_tick: None,
            edits_seen: self.log.len(),
            edits_sent: self.log.len(),
            edits_sent_at: 0,
            answered: BTreeMap::new(),
            credit: 0,
            edit_budget: EDITS_PER_SECOND,
            chat_after: 0,
            queued: BTreeMap::new(),
            heard_at: self.tick,
            view: i32::from(view.min(self.config.view_chunks)),
            told_around: None,
            told: HashSet::new(),
            listed: HashSet::new(),
            wanted_regions: VecDeque::new(),
            wanted: VecDeque::new(),
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
            world: self.log.id,
            edits_from: self.log.len(),
        };
        let connection = &mut self.connections[index];
        connection.send(&welcome);
        connection.phase = Phase::Playing(Box::new(playing));
        self.send_inventory(index);
        self.dirty.insert(key);
        self.roster_changed = true;
        log::info!("{name} joined");
        report.joined.push(name);
    }

    pub(super) fn refuse(&mut self, index: usize, refusal: Refusal, report: &mut TickReport) {
        let connection = &mut self.connections[index];
        connection.send(&ServerMessage::Refused(refusal.clone()));
        connection.closing = true;
        connection.phase = Phase::Gone;
        log::info!("a client was refused: {refusal}");
        report.refused.push(refusal);
    }

    pub(super) fn kick(&mut self, index: usize, reason: &str, report: &mut TickReport) {
        self.connections[index].send(&ServerMessage::Goodbye {
            reason: reason.to_owned(),
        });
        self.connections[index].closing = true;
        self.leave(index, reason, report);
    }

    /// Keeps a leaving player's record and takes their body out.
    pub(super) fn leave(&mut self, index: usize, why: &str, report: &mut TickReport) {
        let phase = std::mem::replace(&mut self.connections[index].phase, Phase::Gone);
        if let Phase::Playing(playing) = phase {
            if let Some(record) = self.record_of(&playing) {
                self.records.insert(playing.key.clone(), record);
            }
            self.dirty.insert(playing.key.clone());
            self.roster_changed = true;
            let _ = self.scene.remove(playing.object);
            log::info!("{} left: {why}", playing.name);
            report.left.push((playing.name, why.to_owned()));
        }
    }

    /// Drops the connections that are gone (their last words were sent).
    pub(super) fn drop_gone(&mut self) {
        self.connections
            .retain(|c| !matches!(c.phase, Phase::Gone) || !c.outbox.is_empty());
    }

    /// Tells everyone who is playing, when that changed.
    pub(super) fn send_roster(&mut self) {
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

    /// The saved record under `key`: in memory, or read from the record
    /// source (and kept while it is used).
    fn record(&mut self, key: &str) -> Result<Option<PlayerRecord>, String> {
        if let Some(record) = self.records.get(key) {
            return Ok(Some(record.clone()));
        }
        match &mut self.source {
            Some(source) => source(key),
            None => Ok(None),
        }
    }
}

/// A token no client can guess: 128 bits from the operating system's
/// cryptographic random source (`None`, logged, if it fails).
pub(super) fn new_token() -> Option<Token> {
    random_bytes().map(Token)
}

/// A new world's identity, from the same source (the time, if it fails:
/// an identity need not be secret, only unlikely to repeat).
pub(crate) fn new_world_id() -> WorldId {
    WorldId(random_bytes().unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        nanos.to_le_bytes()
    }))
}

fn random_bytes() -> Option<[u8; 16]> {
    let mut bytes = [0u8; 16];
    match getrandom::fill(&mut bytes) {
        Ok(()) => Some(bytes),
        Err(error) => {
            log::error!("the operating system's random source failed: {error}");
            None
        }
    }
}
