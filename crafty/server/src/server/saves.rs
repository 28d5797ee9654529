//! Saving: what a tick hands its save (the edits since the last save and
//! the records that changed, and now and then the log folded into chunk
//! snapshots), and every record, those playing now as they are this tick.
//! After a save, what every client has and the database holds is
//! forgotten: the log's tail and the records of players gone.

use std::collections::BTreeMap;

use crafty_net::Link;

use super::connection::Phase;
use super::{FoldedChunk, PlayerRecord, SaveBatch, Server};
use crafty_sim::step::StepWorld;

/// Ticks between saves of every connected player's record.
pub const RECORD_SAVE_TICKS: u64 = 100;

/// Saved edits past the last fold that make the next save fold the log
/// into chunk snapshots (so a start reads at most this many edits besides
/// the snapshots).
pub const FOLD_EDITS: u64 = 4096;

/// The most log entries kept for clients that have not acknowledged them;
/// one further behind is disconnected.
const MAX_TAIL: u64 = 1 << 16;

impl<L: Link> Server<L> {
    /// Saves everything not saved yet, every record included (what a
    /// shutdown does after [`shut_down`](Self::shut_down)).
    ///
    /// # Errors
    /// What `save` returned.
    pub fn save_all<E>(
        &mut self,
        save: impl FnOnce(SaveBatch<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.save_unsaved(self.records(), true, save)
    }

    /// Hands `save` the edits not saved yet and `records`, folding the log
    /// into chunk snapshots when `fold` is set or [`FOLD_EDITS`] have
    /// piled up; on success, they count as saved.
    pub(super) fn save_unsaved<E>(
        &mut self,
        records: BTreeMap<String, PlayerRecord>,
        fold: bool,
        save: impl FnOnce(SaveBatch<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let logged = self.log.len();
        let fold = logged > self.folded && (fold || logged - self.folded >= FOLD_EDITS);
        let folded: Vec<FoldedChunk<'_>> = if fold {
            self.log
                .changed_since(self.folded)
                .map(|(at, version, snapshot)| FoldedChunk {
                    at,
                    version,
                    snapshot,
                })
                .collect()
        } else {
            Vec::new()
        };
        // Unsaved entries are never forgotten (see `forget_sent`).
        let edits = self
            .log
            .entries(self.saved_edits, logged)
            .unwrap_or_default();
        save(SaveBatch {
            first: self.saved_edits,
            edits,
            records,
            seed: self.config.seed,
            tick: self.tick,
            world: self.log.id,
            fold: folded,
        })?;
        self.saved_edits = logged;
        if fold {
            self.folded = logged;
        }
        self.dirty.clear();
        Ok(())
    }

    /// After a save: forgets the log entries every client has and the
    /// database holds (keeping at most `MAX_TAIL` for slow clients), the
    /// world's own copy of the history, and, when records are read on
    /// demand, the records of players no longer here.
    pub(super) fn forget_sent(&mut self) {
        let mut keep_from = self.saved_edits;
        for connection in &self.connections {
            if let Phase::Playing(playing) = &connection.phase {
                keep_from = keep_from.min(playing.edits_seen);
            }
        }
        keep_from = keep_from.max(self.log.len().saturating_sub(MAX_TAIL));
        self.log.forget_before(keep_from);
        self.scene
            .world_mut()
            .resource_mut::<StepWorld>()
            .0
            .forget_history();
        if self.source.is_some() {
            let playing: Vec<String> = self
                .connections
                .iter()
                .filter_map(|c| match &c.phase {
                    Phase::Playing(p) => Some(p.key.clone()),
                    _ => None,
                })
                .collect();
            self.records
                .retain(|key, _| playing.contains(key) || self.dirty.contains(key));
        }
    }

    /// Every player's record, those playing now as they are this tick.
    #[must_use]
    pub fn records(&self) -> BTreeMap<String, PlayerRecord> {
        let mut records = self.records.clone();
        for connection in &self.connections {
            if let Phase::Playing(playing) = &connection.phase
                && let Some(record) = self.record_of(playing)
            {
                records.insert(playing.key.clone(), record);
            }
        }
        records
    }

    pub(super) fn playing_names(&self) -> Vec<String> {
        self.connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some(p.key.clone()),
                _ => None,
            })
            .collect()
    }

    pub(super) fn dirty_records(&self) -> BTreeMap<String, PlayerRecord> {
        let all = self.records();
        self.dirty
            .iter()
            .filter_map(|name| all.get(name).map(|r| (name.clone(), r.clone())))
            .collect()
    }
}
