//! Saving while playing: the autosave (started when due, picked up when
//! written, retried after a failure), the save when the window is hidden,
//! and the last save on the way out (with a thumbnail), with what a
//! failed one leaves: the unsaved edits, for a file.

use taos_engine::{Engine, PendingReadback};

use super::Play;
use crate::app::Store;
use crate::app::export::ExportError;
use crate::app::tasks::Pending;
use crate::game::state;
use crate::save::{CompletedSave, SaveError, UnsavedEdits, encode_thumbnail};

/// Size of the thumbnail render (scaled to 160x90 when encoded).
const THUMBNAIL_RENDER: (u32, u32) = (320, 180);

/// Play's saving state: the autosave in flight, when to try again after a
/// failure, what the save in flight will have stored, and why the last
/// save failed.
#[derive(Default)]
pub(super) struct Saving {
    /// After a failed autosave, no new attempt before this time.
    pub(super) retry_at: u64,
    /// An autosave being written (in the browser it finishes on a later
    /// frame; play goes on meanwhile).
    pub(super) autosave: Option<Pending<Result<CompletedSave, SaveError>>>,
    /// Saves written since the world was opened.
    pub(super) saves: u64,
    /// The world's edit count when the save in flight was prepared: what
    /// it will have stored once it completes.
    pub(super) saving_edits: Option<usize>,
    /// Why the last save failed: the world stays open, paused, until it
    /// is saved or the player chooses to quit without saving.
    pub(super) failed: Option<String>,
}

impl Play {
    pub(super) fn autosave_if_due(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) {
        self.session.note_progress(engine.game_loop(), now_ms);
        if self.collect_autosave(engine, now_ms)
            && now_ms >= self.saving.retry_at
            && self.session.autosave_due(now_ms)
        {
            self.start_autosave(engine, store, now_ms);
        }
    }

    /// Starts an autosave of everything not saved yet.
    pub(super) fn start_autosave(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) {
        match self.session.prepare_save(engine.game_loop(), now_ms) {
            Ok(save) => {
                self.saving.saving_edits = Some(state(engine.game_loop()).world.edits().len());
                let store = store.clone();
                self.saving.autosave =
                    Some(Pending::start(async move { save.write(&store).await }));
                self.collect_autosave(engine, now_ms);
            }
            Err(e) => self.autosave_failed(&e, now_ms),
        }
    }

    /// The window was hidden (a tab switched away, a page going away, a
    /// minimised window): saves now, not when the autosave delay is up, since
    /// a hidden page may never get another frame. Returns whether a save
    /// was started.
    pub(in crate::app) fn save_on_hide(
        &mut self,
        engine: &mut Engine,
        store: &Store,
        now_ms: u64,
    ) -> bool {
        if !self.collect_autosave(engine, now_ms) || self.unsaved_edits(engine) == 0 {
            return false;
        }
        log::info!("the window was hidden: saving now");
        self.start_autosave(engine, store, now_ms);
        true
    }

    /// Picks up the autosave being written, if it finished; returns
    /// whether none is in flight now.
    pub(in crate::app) fn collect_autosave(&mut self, engine: &mut Engine, now_ms: u64) -> bool {
        let Some(saving) = &self.saving.autosave else {
            return true;
        };
        let Some(result) = saving.take() else {
            saving.keep_polling(engine);
            return false;
        };
        self.saving.autosave = None;
        self.saving.saving_edits = None;
        match result {
            Ok(done) => {
                self.session.finish_save(engine.game_loop(), done, now_ms);
                self.saving.saves += 1;
                self.notice = None;
            }
            Err(e) => self.autosave_failed(&e, now_ms),
        }
        true
    }

    /// Says so on the HUD, and waits before the next attempt; the edits
    /// stay unsaved (nothing of a failed save is written).
    pub(super) fn autosave_failed(&mut self, error: &SaveError, now_ms: u64) {
        log::warn!("autosave failed (retrying in 5 s): {error}");
        self.notice = Some(if storage_full(error) {
            "storage is full: the newest edits are not saved (what was saved is safe). \
             Delete a world, or free space for this site, and saving resumes (retrying every 5 s)"
                .to_owned()
        } else {
            format!("autosave failed (retrying in 5 s): {error}")
        });
        self.saving.retry_at = now_ms + crate::save::AUTOSAVE_DELAY_MS;
    }

    /// Starts the last save (with a fresh thumbnail) and pauses the world
    /// meanwhile; the world stays open until
    /// [`last_save_done`](Self::last_save_done) says it is saved. Call it
    /// when no autosave is in flight ([`collect_autosave`](Self::collect_autosave)
    /// says so), or the two saves would both append the same edits.
    pub(in crate::app) fn start_last_save(
        &mut self,
        engine: &mut Engine,
        store: &Store,
        now_ms: u64,
    ) -> Pending<Result<CompletedSave, SaveError>> {
        self.capture(engine, false);
        engine.game_loop().pause();
        let thumbnail = Self::thumbnail(engine);
        let save = self.session.prepare_save(engine.game_loop(), now_ms);
        let id = self.session.record().id.clone();
        let store = store.clone();
        Pending::start(async move {
            let done = save?.write(&store).await?;
            if let Some(pixels) = thumbnail {
                // A thumbnail is a nicety: the edits are saved already.
                let (w, h) = THUMBNAIL_RENDER;
                let jpeg = pixels
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|rgba| encode_thumbnail(&rgba, w, h).map_err(|e| e.to_string()));
                let stored = match jpeg {
                    Ok(jpeg) => store
                        .set_thumbnail(&id, Some(&jpeg))
                        .await
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                if let Err(e) = stored {
                    log::warn!("no thumbnail for this save: {e}");
                }
            }
            Ok(done)
        })
    }

    /// Takes the answer of [`start_last_save`](Self::start_last_save):
    /// `true` when every edit is saved and the world may close. On failure
    /// the world stays open and paused, the menu offers to retry or to quit
    /// without saving, and `false` is returned.
    pub(in crate::app) fn last_save_done(
        &mut self,
        engine: &mut Engine,
        result: Result<CompletedSave, SaveError>,
        now_ms: u64,
    ) -> bool {
        match result {
            Ok(done) => {
                self.session.finish_save(engine.game_loop(), done, now_ms);
                self.saving.saves += 1;
                self.saving.failed = None;
                true
            }
            Err(e) => {
                log::warn!("the last save failed; the world stays open: {e}");
                let unsaved = self.unsaved_edits(engine);
                let advice = if storage_full(&e) {
                    "storage is full: free space (or delete another world from a second \
                     window) and try again"
                } else {
                    "try again, or quit without saving"
                };
                self.saving.failed = Some(format!(
                    "Saving failed: {e}\n{unsaved} edits are not saved yet. The world stays \
                     open: nothing is lost while it does; {advice}."
                ));
                self.menu_open = true;
                engine.request_redraw();
                false
            }
        }
    }

    /// Why the last save failed, while the world waits for a retry.
    pub(in crate::app) fn save_failure(&self) -> Option<&str> {
        self.saving.failed.as_deref()
    }

    /// The edits made since the last successful save, for a file.
    pub(in crate::app) fn unsaved(&self, engine: &mut Engine) -> UnsavedEdits {
        let edits = state(engine.game_loop()).world.edits();
        let first = self.session.persisted_edits().min(edits.len());
        UnsavedEdits::new(self.session.record(), first, edits[first..].to_vec())
    }

    /// Adds what became of an export to the failure dialog.
    pub(in crate::app) fn exported(&mut self, outcome: Result<String, ExportError>) {
        let line = match outcome {
            Ok(done) => done,
            Err(e) => format!("Export failed: {e}"),
        };
        if let Some(failure) = &mut self.saving.failed {
            failure.push('\n');
            failure.push_str(&line);
        }
    }

    /// Edits made since the last successful save.
    pub(in crate::app) fn unsaved_edits(&self, engine: &mut Engine) -> usize {
        state(engine.game_loop())
            .world
            .edits()
            .len()
            .saturating_sub(self.session.persisted_edits())
    }

    /// Renders the save's thumbnail now; its pixels arrive later (a page
    /// cannot wait for the GPU), in the save task.
    pub(super) fn thumbnail(engine: &mut Engine) -> Option<PendingReadback> {
        let (w, h) = THUMBNAIL_RENDER;
        engine
            .capture_later(w, h)
            .inspect_err(|e| log::warn!("no thumbnail for this save: {e}"))
            .ok()
    }
}

/// The save failed because the disk, or the browser's quota for the site,
/// is full.
pub(super) fn storage_full(error: &SaveError) -> bool {
    matches!(error, SaveError::Storage(storage) if storage.is_full())
}

#[cfg(test)]
mod tests {
    use taos_engine::storage::StorageError;

    use super::{SaveError, storage_full};

    #[test]
    fn a_full_store_is_told_apart_from_other_save_failures() {
        let quota = SaveError::Storage(StorageError::Full {
            database: "crafty".to_owned(),
            detail: "the site's quota".to_owned(),
        });
        assert!(storage_full(&quota));
        // ENOSPC, as the OS words it natively.
        let disk = SaveError::Storage(StorageError::Io {
            path: "/saves/crafty.redb".into(),
            source: std::io::Error::from_raw_os_error(28),
        });
        assert!(storage_full(&disk), "{disk}");
        let missing = SaveError::NotFound { id: "w".to_owned() };
        assert!(!storage_full(&missing));
    }
}
