//! Who comes in and who goes: a client's hello answered with a welcome
//! or a refusal, players kicked or leaving (their record kept), the
//! roster everyone is sent, and the tokens that prove who a player is.

use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};

use crafty_net::Link;
use crafty_net::protocol::{
    ClientMessage, PROTOCOL_VERSION, Refusal, ServerMessage, Token, peek_version,
};
use crafty_sim::inventory::{GameMode, InventoryState};
use crafty_sim::save::SPAWN;

use super::connection::{Phase, Playing};
use super::edits::EDITS_PER_SECOND;
use super::{PlayerRecord, Server, TickReport};

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

    /// A token no client can guess: 128 bits from the process's randomly
    /// keyed hasher.
    pub(super) fn new_token(&mut self) -> Token {
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
