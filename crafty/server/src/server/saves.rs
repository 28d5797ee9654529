//! Saving: what a tick hands its save (the edits since the last save and
//! the records that changed), and every record, those playing now as they
//! are this tick.

use std::collections::BTreeMap;

use crafty_net::Link;

use super::connection::Phase;
use super::{PlayerRecord, SaveBatch, Server};

/// Ticks between saves of every connected player's record.
pub const RECORD_SAVE_TICKS: u64 = 100;

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
        self.save_unsaved(self.records(), save)
    }

    /// Hands `save` the edits not saved yet and `records`; on success,
    /// they count as saved.
    pub(super) fn save_unsaved<E>(
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

    pub(super) fn playing_names(&self) -> Vec<String> {
        self.connections
            .iter()
            .filter_map(|c| match &c.phase {
                Phase::Playing(p) => Some(p.name.clone()),
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
