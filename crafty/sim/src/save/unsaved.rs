//! Unsaved edits written to a file when a world cannot be saved (a full
//! disk), and applied to the world later with `crafty --apply-edits FILE`.
//!
//! The file is JSON: the world's key, name and seed, how many of its edits
//! were saved before (`firstEdit`), and the edits not saved yet. Applying it
//! appends exactly the edits the world lacks
//! ([`WorldStore::append_continuing`]), so applying twice, or after the
//! game later saved some of them itself, stores nothing twice.
//!
//! ```
//! use crafty_sim::inventory::GameMode;
//! use crafty_sim::save::{SavedWorld, UnsavedEdits, WorldStore};
//! use crafty_sim::world::{BlockEdit, BlockType};
//! use glam::IVec3;
//! use taos_storage::{MemoryBackend, block_on};
//!
//! let store = block_on(WorldStore::open(&MemoryBackend::new()))?;
//! let record = SavedWorld::create("Home", 42, GameMode::Creative, 1_000);
//! block_on(store.save(&record))?;
//! let edits = vec![BlockEdit::new(IVec3::new(1, 70, 2), BlockType::Glass)];
//! let file = UnsavedEdits::new(&record, 0, edits.clone()).to_json();
//!
//! let applied = block_on(store.apply_unsaved(&UnsavedEdits::from_json(&file)?))?;
//! assert_eq!(applied, 1);
//! assert_eq!(block_on(store.load(&record.id))?.edits, edits);
//! // Again: nothing is stored twice.
//! assert_eq!(block_on(store.apply_unsaved(&UnsavedEdits::from_json(&file)?))?, 0);
//! # Ok::<(), crafty_sim::save::SaveError>(())
//! ```

use serde::{Deserialize, Serialize};
use taos_storage::StorageBackend;

use super::{SaveError, SavedWorld, WorldStore};
use crate::world::BlockEdit;

/// The `format` field of an unsaved-edits file.
pub const UNSAVED_EDITS_FORMAT: &str = "crafty-unsaved-edits";

/// Edits of a world that were not saved, as written to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnsavedEdits {
    /// Always [`UNSAVED_EDITS_FORMAT`].
    pub format: String,
    /// The world's key.
    pub world: String,
    /// Its name when the file was written.
    pub name: String,
    /// Its seed: the edits apply to this world only.
    pub seed: u64,
    /// Edits of the world saved before these.
    pub first_edit: usize,
    /// The edits not saved, oldest first.
    pub edits: Vec<BlockEdit>,
}

impl UnsavedEdits {
    /// The edits of `world` after its first `first_edit`.
    #[must_use]
    pub fn new(world: &SavedWorld, first_edit: usize, edits: Vec<BlockEdit>) -> Self {
        Self {
            format: UNSAVED_EDITS_FORMAT.to_owned(),
            world: world.id.clone(),
            name: world.name.clone(),
            seed: world.seed,
            first_edit,
            edits,
        }
    }

    /// The file's text.
    #[must_use]
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Reads a file written by [`to_json`](Self::to_json).
    ///
    /// # Errors
    /// [`SaveError::Corrupt`] when it is not an unsaved-edits file.
    pub fn from_json(bytes: &[u8]) -> Result<Self, SaveError> {
        let corrupt = |reason: String| SaveError::Corrupt {
            id: "(unsaved edits file)".to_owned(),
            reason,
        };
        let file: Self = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
        if file.format != UNSAVED_EDITS_FORMAT {
            return Err(corrupt(format!(
                "format {:?}, expected {UNSAVED_EDITS_FORMAT:?}",
                file.format
            )));
        }
        Ok(file)
    }
}

impl<B: StorageBackend> WorldStore<B> {
    /// Appends the edits of `unsaved` its world does not have yet; returns
    /// how many were appended.
    ///
    /// # Errors
    /// [`SaveError::NotFound`] for a world not in this store,
    /// [`SaveError::SeedMismatch`] for a file of another world of the same
    /// key, [`SaveError::HistoryMismatch`] when the stored world does not
    /// continue into these edits, or storage errors.
    pub async fn apply_unsaved(&self, unsaved: &UnsavedEdits) -> Result<usize, SaveError> {
        let loaded = self.load(&unsaved.world).await?;
        if loaded.record.seed != unsaved.seed {
            return Err(SaveError::SeedMismatch {
                id: unsaved.world.clone(),
                saved: loaded.record.seed,
                live: unsaved.seed,
            });
        }
        let (_, report) = self
            .append_continuing(&loaded.record, unsaved.first_edit, &unsaved.edits)
            .await?;
        Ok(report.new_edits)
    }
}
