//! Key bindings saved in and loaded from a storage [`Database`]: the
//! [`Bindings::to_record`] bytes under a key of a store the game chose.
//!
//! ```
//! use taos_engine::bindings_store::{load_bindings, save_bindings};
//! use taos_engine::game_loop::{Bindings, GameAction, Key};
//! use taos_engine::storage::{MemoryBackend, StorageBackend, block_on};
//!
//! #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//! enum Play { Jump }
//! impl GameAction for Play {
//!     fn bit(self) -> u8 { 0 }
//! }
//!
//! let backend = MemoryBackend::new();
//! let db = block_on(backend.open("game", 1, |up| up.create_store("settings").map(drop))).unwrap();
//! let defaults = || Bindings::new().key(Key::Space, Play::Jump);
//! let mut mine = defaults();
//! mine.set_keys(Play::Jump, &[Key::J]);
//! block_on(save_bindings(&db, "settings", "bindings", &mine)).unwrap();
//! let loaded = block_on(load_bindings(&db, "settings", "bindings", &[Play::Jump], defaults())).unwrap();
//! assert_eq!(loaded.keys_for(Play::Jump).collect::<Vec<_>>(), [Key::J]);
//! ```

use taos_core::game_loop::{Bindings, GameAction};
use taos_storage::{Database, StorageError};

/// Saves `bindings` under `key` in `store` (one read-write transaction).
///
/// # Errors
/// What the database reports (no such store, I/O, a locked file).
pub async fn save_bindings<D: Database, A: GameAction>(
    db: &D,
    store: &str,
    key: &str,
    bindings: &Bindings<A>,
) -> Result<(), StorageError> {
    db.put(store, key, &bindings.to_record()).await
}

/// Loads the bindings saved under `key` in `store`, naming every action the
/// game has in `actions`. No record gives `defaults`; a corrupt or foreign
/// record (unreadable, an unknown action or key, a newer format) gives
/// `defaults` and logs a warning saying why, so a bad settings file never
/// stops a game from starting.
///
/// # Errors
/// Only what keeps the database from being read at all (no such store, I/O,
/// a locked file); a bad record is not an error.
pub async fn load_bindings<D: Database, A: GameAction>(
    db: &D,
    store: &str,
    key: &str,
    actions: &[A],
    defaults: Bindings<A>,
) -> Result<Bindings<A>, StorageError> {
    match db.get::<Vec<u8>>(store, key).await {
        Ok(Some(record)) => Ok(Bindings::from_record_or(&record, actions, defaults)),
        Ok(None) => Ok(defaults),
        Err(error @ (StorageError::Decode { .. } | StorageError::NewerRecord { .. })) => {
            log::warn!(
                "key bindings in {store}/{key} are unreadable ({error}); using the defaults"
            );
            Ok(defaults)
        }
        Err(error) => Err(error),
    }
}
