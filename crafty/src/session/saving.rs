//! A session's save bookkeeping: progress noted (the player moving counts
//! as a change), snapshots of the play state, saves prepared, finished,
//! and written when due or at once.

use taos_engine::game_loop::GameLoop;
use taos_engine::storage::StorageBackend;

use crate::game::state;
use crate::inventory::GameMode;
use crate::player::inventory_state;
use crate::save::{
    AppendReport, CompletedSave, PendingSave, PlaySnapshot, PlayerState, SaveError, WorldStore,
};

use super::Session;

impl Session {
    /// Notes edits made, or a walk of more than a block, since the last
    /// call (starting the autosave debounce).
    pub fn note_progress(&mut self, game: &GameLoop, now_ms: u64) {
        let game = state(game);
        let edits = game.world.edits().len();
        let position = game.player.body.position;
        // NaN (nothing noted yet) counts as moved.
        let moved = position
            .distance(self.noted_position)
            .partial_cmp(&1.0)
            .is_none_or(std::cmp::Ordering::is_gt);
        if edits != self.saved_edit_count || moved {
            if self.noted_position.is_finite() {
                self.saves.note_change(now_ms);
            }
            self.saved_edit_count = edits;
            self.noted_position = position;
        }
    }

    /// What an autosave records besides the edits.
    #[must_use]
    pub fn snapshot(game: &GameLoop) -> PlaySnapshot {
        let game = state(game);
        let player = &game.player;
        let position = player.body.position;
        PlaySnapshot {
            player: PlayerState {
                x: position.x,
                y: position.y,
                z: position.z,
                yaw: player.yaw,
                pitch: player.pitch,
            },
            sun_angle: game.time.sun_angle,
            moon_phase: Some(game.time.moon_phase),
            game_mode: player.mode,
            inventory: (player.mode == GameMode::Survival)
                .then(|| inventory_state(&player.inventory, &player.hotbar)),
        }
    }

    /// A save of this moment (the edits since the last one, the player,
    /// the sky and the weather) taken out of the session, to write while
    /// play goes on; hand the written save to
    /// [`finish_save`](Self::finish_save).
    ///
    /// # Errors
    /// As [`SaveSession::prepare_save`](crate::save::SaveSession::prepare_save).
    pub fn prepare_save(&mut self, game: &GameLoop, now_ms: u64) -> Result<PendingSave, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        self.saves
            .prepare_save(&state(game).world, &snapshot, now_ms)
    }

    /// Counts a save from [`prepare_save`](Self::prepare_save) as stored.
    pub fn finish_save(&mut self, game: &GameLoop, done: CompletedSave, now_ms: u64) {
        self.saves.finish_save(done, &state(game).world, now_ms);
    }

    /// Edits of the live world already stored.
    #[must_use]
    pub fn persisted_edits(&self) -> usize {
        self.saves.persisted_edits()
    }

    /// An autosave is due at `now_ms`.
    #[must_use]
    pub fn autosave_due(&self, now_ms: u64) -> bool {
        self.saves.due(now_ms)
    }

    /// Saves if the debounce says it is time; `None` when nothing was due.
    ///
    /// # Errors
    /// [`SaveError`] from the store; the edits stay unsaved and are retried.
    pub async fn autosave_if_due<B: StorageBackend>(
        &mut self,
        game: &GameLoop,
        store: &WorldStore<B>,
        now_ms: u64,
    ) -> Result<Option<AppendReport>, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        self.saves
            .autosave_if_due(store, &state(game).world, &snapshot, now_ms)
            .await
    }

    /// Saves now (quitting, or leaving for the launcher), and stores
    /// `thumbnail` (a JPEG) when given.
    ///
    /// # Errors
    /// [`SaveError`] from the store.
    pub async fn save_now<B: StorageBackend>(
        &mut self,
        game: &GameLoop,
        store: &WorldStore<B>,
        now_ms: u64,
        thumbnail: Option<&[u8]>,
    ) -> Result<AppendReport, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        let report = self
            .saves
            .autosave(store, &state(game).world, &snapshot, now_ms)
            .await?;
        if let Some(jpeg) = thumbnail {
            store
                .set_thumbnail(&self.saves.record().id, Some(jpeg))
                .await?;
        }
        Ok(report)
    }
}
