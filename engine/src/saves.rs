//! [`Saves`]: a game's own database, used the same way natively and in the
//! browser.
//!
//! Natively the database is a crash-safe `redb` file in the data directory
//! (`$TAOS_DATA_DIR`, else the platform's, e.g. `~/.local/share/taos`),
//! named after the game; in the browser it is the page's IndexedDB database
//! of that name. Every call returns a [`Task`]: natively it is done at once,
//! in the browser the answer comes on a later frame, so a game polls it in
//! its per-frame hook ([`Engine::poll`](crate::Engine::poll)) and never
//! blocks the page.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use taos_engine::storage::Record;
//! use taos_engine::{Saves, Task};
//!
//! #[derive(Debug, Serialize, Deserialize)]
//! struct HighScore {
//!     points: u32,
//! }
//! impl Record for HighScore {}
//!
//! # let dir = tempfile::tempdir()?;
//! # taos_engine::saves::set_native_dir_for_tests(dir.path());
//! // Once, at start: the stores the game keeps, created on first run.
//! let mut opening = Saves::open("my_game", 1, |upgrade| upgrade.create_store("scores"));
//! // Later, in `App::update`: `if let Some(result) = engine.poll(&mut opening) { ... }`.
//! let saves = opening.take().expect("native tasks finish at once")?;
//!
//! let mut written = saves.put("scores", "best", HighScore { points: 120 });
//! written.take().expect("done")?;
//! let mut read: Task<_> = saves.get::<HighScore>("scores", "best");
//! assert_eq!(read.take().expect("done")?.map(|s| s.points), Some(120));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Several stores changed together, atomically: take the [`database`](Saves::database)
//! and run a transaction in [`Task::spawn`] (see the storage chapter).

use std::rc::Rc;

use taos_storage::{Database as _, Record, StorageBackend as _, StorageError, Upgrade};

use crate::task::Task;

/// The storage backend of this platform: `redb` natively, IndexedDB in the browser.
#[cfg(not(target_arch = "wasm32"))]
pub type PlatformBackend = taos_storage::RedbBackend;
/// The storage backend of this platform: `redb` natively, IndexedDB in the browser.
#[cfg(target_arch = "wasm32")]
pub type PlatformBackend = taos_storage::IndexedDbBackend;

/// An open database of [`PlatformBackend`].
#[cfg(not(target_arch = "wasm32"))]
pub type PlatformDatabase = taos_storage::RedbDatabase;
/// An open database of [`PlatformBackend`].
#[cfg(target_arch = "wasm32")]
pub type PlatformDatabase = taos_storage::IndexedDbDatabase;

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static TEST_DIR: std::cell::RefCell<Option<std::path::PathBuf>> = const { std::cell::RefCell::new(None) };
}

/// Natively, makes [`Saves::open`] on this thread keep its files in `dir`
/// instead of the data directory (for doc examples and tests that must not
/// touch the player's saves). Not needed with `TAOS_DATA_DIR`.
#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub fn set_native_dir_for_tests(dir: &std::path::Path) {
    TEST_DIR.with(|slot| *slot.borrow_mut() = Some(dir.to_owned()));
}

/// The platform's backend where games keep their saves.
///
/// # Errors
/// Natively, [`StorageError::NoDataDirectory`] when no data directory is known.
pub fn platform_backend() -> Result<PlatformBackend, StorageError> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        if let Some(dir) = TEST_DIR.with(|slot| slot.borrow().clone()) {
            return Ok(taos_storage::RedbBackend::new(dir));
        }
        taos_storage::RedbBackend::from_env()
    }
    #[cfg(target_arch = "wasm32")]
    {
        Ok(taos_storage::IndexedDbBackend::new())
    }
}

/// A game's open database: object stores of [`Record`]s under string keys.
/// Cheap to clone (the clones share the database). See the module docs.
#[derive(Debug, Clone)]
pub struct Saves {
    database: Rc<PlatformDatabase>,
}

impl Saves {
    /// Opens (creating on first run) the game's database `name` at schema
    /// `version` (1 or more); `upgrade` runs when the stored version is
    /// older (0 for a new database) and creates or deletes stores (what it
    /// returns besides an error is ignored, so `|up| up.create_store("scores")`
    /// will do). Natively
    /// the file is `name.redb` in the data directory; in the browser the
    /// IndexedDB database `name`.
    ///
    /// The task fails with a [`StorageError`] when the name or version is
    /// invalid, the database is corrupt, locked by another copy of the game,
    /// or (in the browser) storage is blocked for the site.
    pub fn open<F, R>(name: &str, version: u32, upgrade: F) -> Task<Result<Self, StorageError>>
    where
        F: FnOnce(&mut Upgrade) -> Result<R, StorageError> + 'static,
    {
        let name = name.to_owned();
        Task::spawn(async move {
            let backend = platform_backend()?;
            let database = backend
                .open(&name, version, move |up| upgrade(up).map(drop))
                .await?;
            Ok(Self {
                database: Rc::new(database),
            })
        })
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        self.database.name()
    }

    /// The record under `key` in `store`, upgraded to the current
    /// [`Record::VERSION`], or `None` when there is none.
    pub fn get<R: Record + 'static>(
        &self,
        store: &str,
        key: &str,
    ) -> Task<Result<Option<R>, StorageError>> {
        let (database, store, key) = self.args(store, key);
        Task::spawn(async move { database.get(&store, &key).await })
    }

    /// Every record in `store`, in key order.
    pub fn get_all<R: Record + 'static>(
        &self,
        store: &str,
    ) -> Task<Result<Vec<(String, R)>, StorageError>> {
        let (database, store, _) = self.args(store, "");
        Task::spawn(async move { database.get_all(&store).await })
    }

    /// Stores `value` under `key` in `store` (replacing what was there), in
    /// a transaction of its own: when the task answers `Ok`, it is on disk.
    pub fn put<R: Record + 'static>(
        &self,
        store: &str,
        key: &str,
        value: R,
    ) -> Task<Result<(), StorageError>> {
        let (database, store, key) = self.args(store, key);
        Task::spawn(async move { database.put(&store, &key, &value).await })
    }

    /// Removes `key` from `store` (nothing happens when it is not there).
    pub fn delete(&self, store: &str, key: &str) -> Task<Result<(), StorageError>> {
        let (database, store, key) = self.args(store, key);
        Task::spawn(async move { database.delete(&store, &key).await })
    }

    /// The database itself, for transactions over several stores (run them
    /// in [`Task::spawn`] with a clone of this handle).
    pub fn database(&self) -> Rc<PlatformDatabase> {
        Rc::clone(&self.database)
    }

    fn args(&self, store: &str, key: &str) -> (Rc<PlatformDatabase>, String, String) {
        (self.database(), store.to_owned(), key.to_owned())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Score(u32);
    impl Record for Score {}

    fn done<T>(mut task: Task<T>) -> T {
        task.take().expect("native tasks finish at once")
    }

    #[test]
    fn a_score_written_is_read_back_after_the_database_is_opened_again() {
        let dir = tempfile::tempdir().unwrap();
        set_native_dir_for_tests(dir.path());
        let open = || Saves::open("game", 1, |up| up.create_store("scores"));
        let saves = done(open()).unwrap();
        done(saves.put("scores", "best", Score(7))).unwrap();
        done(saves.put("scores", "second", Score(3))).unwrap();
        drop(saves);

        let saves = done(open()).unwrap();
        assert_eq!(
            done(saves.get::<Score>("scores", "best")).unwrap(),
            Some(Score(7))
        );
        done(saves.delete("scores", "second")).unwrap();
        let all = done(saves.get_all::<Score>("scores")).unwrap();
        assert_eq!(all, vec![("best".to_owned(), Score(7))]);
        assert!(dir.path().join("game.redb").exists());
    }

    #[test]
    fn a_missing_store_and_a_bad_name_are_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        set_native_dir_for_tests(dir.path());
        let saves = done(Saves::open("game", 1, |up| up.create_store("scores"))).unwrap();
        assert!(done(saves.put("nope", "k", Score(1))).is_err());
        assert!(done(Saves::open("../escape", 1, |_| Ok(()))).is_err());
    }
}
