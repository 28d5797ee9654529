//! Debounced autosave: when to save, and saving only what is new.

use taos_storage::StorageBackend;

use super::{AppendReport, LoadedWorld, SaveError, SavedWorld, WorldStore};
use crate::inventory::{GameMode, InventoryState};
use crate::weather::WeatherState;
use crate::world::{BlockEdit, World};

use super::record::PlayerState;

/// How long after the first unsaved change an autosave is due.
pub const AUTOSAVE_DELAY_MS: u64 = 5_000;

/// A clock-free debounce: an autosave is due a fixed delay after the first
/// change since the last save. Later changes do not push it back, so
/// continuous play still saves every few seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutosaveTimer {
    delay_ms: u64,
    first_unsaved: Option<u64>,
}

impl Default for AutosaveTimer {
    fn default() -> Self {
        Self::new(AUTOSAVE_DELAY_MS)
    }
}

impl AutosaveTimer {
    /// A timer that makes saves due `delay_ms` after the first unsaved change.
    #[must_use]
    pub const fn new(delay_ms: u64) -> Self {
        Self {
            delay_ms,
            first_unsaved: None,
        }
    }

    /// Something changed at `now_ms`.
    pub fn note_change(&mut self, now_ms: u64) {
        self.first_unsaved.get_or_insert(now_ms);
    }

    /// There are unsaved changes.
    #[must_use]
    pub const fn is_dirty(&self) -> bool {
        self.first_unsaved.is_some()
    }

    /// When the pending save is due, if anything is unsaved.
    #[must_use]
    pub fn due_at(&self) -> Option<u64> {
        self.first_unsaved.map(|t| t.saturating_add(self.delay_ms))
    }

    /// An autosave should run now.
    #[must_use]
    pub fn due(&self, now_ms: u64) -> bool {
        self.due_at().is_some_and(|at| now_ms >= at)
    }

    /// Everything is saved.
    pub fn mark_saved(&mut self) {
        self.first_unsaved = None;
    }
}

/// The live state an autosave records besides the edits.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaySnapshot {
    /// Where the player is and looks.
    pub player: PlayerState,
    /// The sun's angle (radians).
    pub sun_angle: f32,
    /// The moon phase, in `[0, 1]` (clamped when saved).
    pub moon_phase: Option<f32>,
    /// The mode being played.
    pub game_mode: GameMode,
    /// The survival inventory; ignored (and not stored) in creative.
    pub inventory: Option<InventoryState>,
}

impl PlaySnapshot {
    /// The state `record` was saved in: where play resumes.
    #[must_use]
    pub fn of(record: &SavedWorld) -> Self {
        Self {
            player: record.player,
            sun_angle: record.sun_angle,
            moon_phase: record.moon_phase,
            game_mode: record.mode(),
            inventory: record.inventory.clone(),
        }
    }

    /// Writes this state into `record`. A creative world gets no inventory.
    pub fn apply_to(&self, record: &mut SavedWorld) {
        record.player = self.player;
        record.sun_angle = self.sun_angle;
        record.moon_phase = self.moon_phase.map(|p| p.clamp(0.0, 1.0));
        record.game_mode = Some(self.game_mode);
        record.inventory = match self.game_mode {
            GameMode::Survival => Some(self.inventory.clone().unwrap_or_default()),
            GameMode::Creative => None,
        };
    }
}

/// The saving side of one play session: the world's record, how many of
/// [`World::edits`] are already stored, and the autosave debounce.
#[derive(Debug, Clone)]
pub struct SaveSession {
    record: SavedWorld,
    persisted: usize,
    timer: AutosaveTimer,
}

impl SaveSession {
    /// A session for a world none of whose live edits are stored yet (a new
    /// world, played from [`World::new`]).
    #[must_use]
    pub fn new(record: SavedWorld) -> Self {
        Self {
            record,
            persisted: 0,
            timer: AutosaveTimer::default(),
        }
    }

    /// A session for a loaded world whose live `world` was rebuilt from
    /// the stored edits (so all its edits are stored).
    #[must_use]
    pub fn resume(record: SavedWorld, world: &World) -> Self {
        Self {
            record,
            persisted: world.edits().len(),
            timer: AutosaveTimer::default(),
        }
    }

    /// Rebuilds the world of `loaded` and starts saving it.
    #[must_use]
    pub fn start(loaded: LoadedWorld) -> (World, Self) {
        let world = loaded.world();
        let session = Self::resume(loaded.record, &world);
        (world, session)
    }

    /// The record as last saved (or as given).
    #[must_use]
    pub fn record(&self) -> &SavedWorld {
        &self.record
    }

    /// Edits of the live world already stored.
    #[must_use]
    pub fn persisted_edits(&self) -> usize {
        self.persisted
    }

    /// Edits of `world` not stored yet.
    #[must_use]
    pub fn unsaved_edits(&self, world: &World) -> usize {
        world.edits().len().saturating_sub(self.persisted)
    }

    /// The debounce.
    #[must_use]
    pub fn timer(&self) -> &AutosaveTimer {
        &self.timer
    }

    /// Something changed at `now_ms` (an edit, the player moved, ...).
    pub fn note_change(&mut self, now_ms: u64) {
        self.timer.note_change(now_ms);
    }

    /// Records the weather to store with the next save (weather changes
    /// alone never make a save due).
    pub fn set_weather(&mut self, weather: WeatherState) {
        self.record.weather = Some(weather);
    }

    /// An autosave is due at `now_ms`.
    #[must_use]
    pub fn due(&self, now_ms: u64) -> bool {
        self.timer.due(now_ms)
    }

    /// Saves now: the edits of `world` made since the last save (one new
    /// segment) and `snapshot`, with `last_played_at = now_ms`, in one
    /// transaction. Also the save to make on quit.
    ///
    /// This is [`prepare_save`](Self::prepare_save), [`PendingSave::write`]
    /// and [`finish_save`](Self::finish_save) in one go; a caller that
    /// cannot hold the world across the write (the browser, where storage
    /// answers later) runs the three steps itself.
    ///
    /// # Errors
    /// [`SaveError::SeedMismatch`] or [`SaveError::HistoryMismatch`] when
    /// `world` is not this session's world; otherwise as
    /// [`WorldStore::append_edits`]. On error nothing is written and the
    /// edits stay unsaved.
    pub async fn autosave<B: StorageBackend>(
        &mut self,
        store: &WorldStore<B>,
        world: &World,
        snapshot: &PlaySnapshot,
        now_ms: u64,
    ) -> Result<AppendReport, SaveError> {
        let done = self
            .prepare_save(world, snapshot, now_ms)?
            .write(store)
            .await?;
        let report = done.report;
        self.finish_save(done, world, now_ms);
        Ok(report)
    }

    /// The first step of a save, without storage: what to write (the edits
    /// of `world` made since the last save, and the record with `snapshot`
    /// and `last_played_at = now_ms`), owned, so the write may run while
    /// the game goes on.
    ///
    /// # Errors
    /// [`SaveError::SeedMismatch`] or [`SaveError::HistoryMismatch`] when
    /// `world` is not this session's world.
    pub fn prepare_save(
        &self,
        world: &World,
        snapshot: &PlaySnapshot,
        now_ms: u64,
    ) -> Result<PendingSave, SaveError> {
        if world.seed() != self.record.seed {
            return Err(SaveError::SeedMismatch {
                id: self.record.id.clone(),
                saved: self.record.seed,
                live: world.seed(),
            });
        }
        let Some(new) = world.edits().get(self.persisted..) else {
            return Err(SaveError::HistoryMismatch {
                id: self.record.id.clone(),
                saved: self.persisted,
                live: world.edits().len(),
            });
        };
        let mut record = self.record.clone();
        snapshot.apply_to(&mut record);
        record.last_played_at = now_ms;
        Ok(PendingSave {
            record,
            first: self.persisted,
            edits: new.to_vec(),
            persisted_after: world.edits().len(),
        })
    }

    /// The last step of a save: the session now counts what `done` wrote
    /// as stored. Edits `world` gained while the write ran stay unsaved,
    /// and make the next save due from `now_ms`.
    pub fn finish_save(&mut self, done: CompletedSave, world: &World, now_ms: u64) {
        self.record = done.record;
        self.persisted = done.persisted;
        self.timer.mark_saved();
        if self.unsaved_edits(world) > 0 {
            self.timer.note_change(now_ms);
        }
    }

    /// Saves if the debounce says so; `None` when nothing was due.
    ///
    /// # Errors
    /// As [`autosave`](Self::autosave).
    pub async fn autosave_if_due<B: StorageBackend>(
        &mut self,
        store: &WorldStore<B>,
        world: &World,
        snapshot: &PlaySnapshot,
        now_ms: u64,
    ) -> Result<Option<AppendReport>, SaveError> {
        if !self.due(now_ms) {
            return Ok(None);
        }
        self.autosave(store, world, snapshot, now_ms)
            .await
            .map(Some)
    }
}

/// A save taken out of its [`SaveSession`] by
/// [`prepare_save`](SaveSession::prepare_save): the record and the new
/// edits, owned.
#[derive(Debug, Clone)]
pub struct PendingSave {
    record: SavedWorld,
    /// Edits of the world saved before these.
    first: usize,
    edits: Vec<BlockEdit>,
    persisted_after: usize,
}

impl PendingSave {
    /// Edits this save adds.
    #[must_use]
    pub fn new_edits(&self) -> usize {
        self.edits.len()
    }

    /// Writes it: one new segment and the record, in one transaction.
    ///
    /// # Errors
    /// As [`WorldStore::append_edits`]; nothing is written then.
    pub async fn write<B: StorageBackend>(
        self,
        store: &WorldStore<B>,
    ) -> Result<CompletedSave, SaveError> {
        let (record, report) = store
            .append_continuing(&self.record, self.first, &self.edits)
            .await?;
        Ok(CompletedSave {
            record,
            persisted: self.persisted_after,
            report,
        })
    }
}

/// A [`PendingSave`] written, for [`SaveSession::finish_save`].
#[derive(Debug, Clone)]
pub struct CompletedSave {
    record: SavedWorld,
    persisted: usize,
    /// What the write did.
    pub report: AppendReport,
}
