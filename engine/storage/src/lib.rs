//! World persistence: IndexedDB-style object stores behind one storage trait.
//!
//! A **database** has a name, a schema version and named **object stores**;
//! a store maps string keys to records, kept in key order. Everything happens
//! in **transactions** over one or more stores, read-only or read-write; a
//! read-write transaction commits all its writes atomically or none of them.
//!
//! | backend | where | for |
//! | --- | --- | --- |
//! | [`RedbBackend`] | one `redb` file per database in the data directory | native games and tools (default) |
//! | `IndexedDbBackend` | the browser's IndexedDB, through `rexie` | `wasm32-unknown-unknown` builds |
//! | [`MemoryBackend`] | process memory | tests and tools |
//! | `PostgresBackend` | tables in one PostgreSQL database (crate `taos_storage_postgres`) | several game servers sharing one store |
//!
//! All of them implement [`StorageBackend`] → [`Database`] → [`Transaction`], and
//! all run the same [`conformance`] suite. The traits are `async` so the
//! browser backend fits; the native ones finish at once, so native callers
//! wrap calls in [`block_on`].
//!
//! **Schema versions** (the database's) decide which stores exist: opening at a
//! newer version runs your upgrade callback, which creates or deletes stores.
//! **Record versions** (each record's) decide how its data is read: a
//! [`Record`] older than [`Record::VERSION`] is upgraded on load by your
//! [`Record::upgrade`] steps; a newer one is refused, untouched.
//!
//! Where this layer stops: it stores bytes under keys. It depends on no ECS,
//! no GPU and none of a command-line tool's crates (the `taos-db` tool is
//! the separate `taos_db` crate), so a game that saves compiles only what
//! saving needs.
//!
//! This module is **not** an ORM or a query engine: no indexes, no key
//! ranges, no cursors beyond "all records in key order". Keys sort by bytes
//! (UTF-8) natively and by UTF-16 code units in IndexedDB; the two orders agree
//! for keys without characters above U+FFFF mixed with U+E000..U+FFFF.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use taos_storage::{
//!     Database, MemoryBackend, Record, StorageBackend, StorageError, Transaction,
//!     TransactionMode, block_on,
//! };
//!
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! struct World {
//!     name: String,
//!     seed: u64,
//! }
//! impl Record for World {}
//!
//! # fn main() -> Result<(), StorageError> {
//! let backend = MemoryBackend::new(); // RedbBackend::from_env()? on a desktop
//! let db = block_on(backend.open("crafty", 1, |up| {
//!     up.create_store("worlds")?;
//!     up.create_store("meta")?;
//!     Ok(())
//! }))?;
//!
//! // Two stores, one atomic commit.
//! block_on(db.transaction(&["worlds", "meta"], TransactionMode::ReadWrite, async |tx| {
//!     tx.put("worlds", "w1", &World { name: "Home".into(), seed: 7 }).await?;
//!     tx.put("meta", "last_played", &"w1".to_string()).await?;
//!     Ok::<_, StorageError>(())
//! }))?;
//!
//! let all: Vec<(String, World)> = block_on(db.get_all("worlds"))?;
//! assert_eq!(all[0].1.seed, 7);
//! # Ok(())
//! # }
//! ```

mod backend;
pub mod backup;
pub mod conformance;
mod error;
mod memory;
mod record;
mod schema;

/// Building blocks for storage backends kept in other crates (such as
/// `taos_storage_postgres`): the version checks that build an [`Upgrade`],
/// the name rules and the transaction scope every backend here uses, so
/// all backends refuse the same misuse. Games never need this module.
pub mod backend_kit {
    pub use super::schema::{
        OpenPlan, RESERVED_PREFIX, Scope, check_database_name, check_store_name, plan_open,
    };
}

#[cfg(not(target_arch = "wasm32"))]
mod data_dir;
#[cfg(not(target_arch = "wasm32"))]
pub mod faults;
#[cfg(not(target_arch = "wasm32"))]
mod redb_backend;

#[cfg(target_arch = "wasm32")]
mod indexeddb;

pub use backend::{Database, StorageBackend, Transaction, TransactionMode};
pub use backup::{
    DamagedBase64, DatabaseBackup, RecordBytes, RestoreError, backup_database, restore_database,
};
pub use error::StorageError;
pub use memory::{MemoryBackend, MemoryDatabase, MemoryTransaction};
pub use record::{Record, record_version};
pub use schema::Upgrade;

#[cfg(not(target_arch = "wasm32"))]
pub use data_dir::{DATA_DIR_ENV, default_data_dir, resolve_data_dir};
#[cfg(not(target_arch = "wasm32"))]
pub use redb_backend::{RedbBackend, RedbDatabase, RedbTransaction};

#[cfg(target_arch = "wasm32")]
pub use indexeddb::{IndexedDbBackend, IndexedDbDatabase, IndexedDbTransaction};

/// Runs a storage future to completion on this thread (native only).
///
/// The native backends never wait inside their futures, so this returns as
/// soon as the work is done.
#[cfg(not(target_arch = "wasm32"))]
pub fn block_on<F: std::future::IntoFuture>(future: F) -> F::Output {
    pollster::block_on(future.into_future())
}
