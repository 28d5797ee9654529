//! A server's side of one client: the link, what it says next
//! ([`Phase`]), and, once it plays, its [`Playing`] state: the input it
//! sent, not stepped yet (the jitter buffer), the edits it made and was
//! answered, its budgets for edits and chat.

use std::collections::{BTreeMap, HashSet, VecDeque};

use crafty_net::protocol::{EditAction, ServerMessage, TickInput};
use crafty_sim::world::ChunkPos;
use taos_core::GameObject;

/// A connected player.
#[derive(Debug)]
pub(super) struct Playing {
    /// The name as they typed it.
    pub(super) name: String,
    /// Their record's key (the name case-folded).
    pub(super) key: String,
    pub(super) player: u32,
    pub(super) object: GameObject,
    /// Input received, by the client's tick, not stepped yet.
    pub(super) pending: BTreeMap<u64, TickInput>,
    /// The client tick stepped next (`None` before the first input).
    pub(super) next_tick: Option<u64>,
    /// Entries of the world's edit log the client says it has.
    pub(super) edits_seen: u64,
    /// Entries sent so far (some may be lost: resent from `edits_seen`).
    pub(super) edits_sent: u64,
    /// The tick edits were last sent.
    pub(super) edits_sent_at: u64,
    /// The answers to the client's recent edits, by its number: a resent
    /// edit (its answer was lost) gets the same answer, not a second try.
    pub(super) answered: BTreeMap<u32, bool>,
    /// Ticks this player may still be stepped (see `step_players`).
    pub(super) credit: u32,
    /// Edits this player may still make (refilled each tick).
    pub(super) edit_budget: f32,
    /// The tick from which this player may chat again.
    pub(super) chat_after: u64,
    /// Edits waiting for the input tick they were made after to be
    /// stepped, by that tick and their number.
    pub(super) queued: BTreeMap<(u64, u32), ([i32; 3], EditAction)>,
    /// The server tick anything was last heard from them.
    pub(super) heard_at: u64,
    /// Their view, in chunks (theirs, capped by the server's).
    pub(super) view: i32,
    /// The chunk column they were last told about changed chunks around.
    pub(super) told_around: Option<ChunkPos>,
    /// The regions they were told the versions of.
    pub(super) told: HashSet<[i32; 2]>,
    /// The regions whose chunk versions they were sent (they may ask for
    /// those chunks).
    pub(super) listed: HashSet<[i32; 2]>,
    /// Regions they asked for, not listed yet.
    pub(super) wanted_regions: VecDeque<[i32; 2]>,
    /// Chunks they asked for, not sent yet.
    pub(super) wanted: VecDeque<ChunkPos>,
}

/// Ticks of credit a player can save: how long the server waits for a late
/// input before stepping without it, and the most ticks it steps a player
/// in one server tick to catch up.
pub(super) const MAX_CREDIT: u32 = 4;

impl Playing {
    /// This player's next step, if it steps now: its next input tick if it
    /// has arrived, or no input (`Some(None)`: stand still) once its credit
    /// is full (it waited long enough); `None` to wait. Spends the credit.
    pub(super) fn take_step(&mut self) -> Option<Option<TickInput>> {
        if self.credit == 0 {
            return None;
        }
        let input = match self.next_tick {
            Some(next) => match self.pending.remove(&next) {
                Some(input) => {
                    self.next_tick = Some(next.saturating_add(1));
                    Some(input)
                }
                None if self.credit == MAX_CREDIT => {
                    // Waited long enough: step without it (it is dropped
                    // if it comes).
                    self.next_tick = Some(next.saturating_add(1));
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

/// Where a connection is.
#[derive(Debug)]
pub(super) enum Phase {
    /// Waiting for the hello.
    Joining,
    Playing(Box<Playing>),
    /// To be dropped at the end of the tick.
    Gone,
}

/// One client connected to the server.
#[derive(Debug)]
pub(super) struct Connection<L> {
    pub(super) link: L,
    pub(super) phase: Phase,
    /// Messages of this tick, sent once its edits are saved.
    pub(super) outbox: Vec<Vec<u8>>,
    /// Close the link once the outbox is sent.
    pub(super) closing: bool,
    /// The server tick it connected at (its hello is due within
    /// [`ServerConfig::hello_timeout`](super::ServerConfig::hello_timeout)).
    pub(super) opened_at: u64,
}

impl<L> Connection<L> {
    pub(super) fn send(&mut self, message: &ServerMessage) {
        match message.encode() {
            Ok(bytes) => self.outbox.push(bytes),
            Err(error) => log::error!("a server message did not encode: {error}"),
        }
    }
}
