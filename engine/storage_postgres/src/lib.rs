//! A PostgreSQL backend for [`taos_storage`]: several processes (several
//! game servers) share one store through one PostgreSQL database.
//!
//! [`PostgresBackend`] implements the storage traits
//! ([`StorageBackend`](taos_storage::StorageBackend) →
//! [`Database`](taos_storage::Database) →
//! [`Transaction`](taos_storage::Transaction)) over PostgreSQL's wire
//! protocol with the synchronous client of rust-postgres (the `postgres`
//! crate). It passes the same [`conformance`](taos_storage::conformance)
//! suite as the other backends.
//!
//! ```no_run
//! use taos_storage::{
//!     Database, StorageBackend, StorageError, Transaction, TransactionMode, block_on,
//! };
//! use taos_storage_postgres::PostgresBackend;
//!
//! let backend = PostgresBackend::connect("postgres://taos@db.internal:5432/worlds")?;
//! let db = block_on(backend.open("crafty", 1, |up| {
//!     up.create_store("players")?;
//!     Ok(())
//! }))?;
//! // A read-modify-write that another server may race: retry on conflict.
//! loop {
//!     let done = block_on(db.transaction(&["players"], TransactionMode::ReadWrite, async |tx| {
//!         let coins: u64 = tx.get("players", "ada").await?.unwrap_or(0);
//!         tx.put("players", "ada", &(coins + 10)).await
//!     }));
//!     match done {
//!         Err(e) if e.is_conflict() => continue,
//!         other => break other?,
//!     }
//! }
//! # Ok::<(), StorageError>(())
//! ```
//!
//! **How data is laid out.** Every database of the trait lives in the one
//! PostgreSQL database the URL names, in three tables created on first
//! connect (idempotently, under an advisory lock, so servers may start at
//! once): `__taos_databases (name, version)`, `__taos_stores (db, store)` and
//! `__taos_records (db, store, key, value bytea)`. Keys are `text COLLATE "C"`,
//! so they sort by bytes like the other native backends. PostgreSQL text
//! cannot hold NUL, so a key containing `'\0'` is refused with
//! [`StorageError::InvalidName`](taos_storage::StorageError::InvalidName).
//! The tables go in the connection's current schema (`public` unless the URL
//! says otherwise, e.g. `options=-csearch_path=taos`). A role without
//! `CREATE` on the schema can use tables a DBA made: nothing is created when
//! all three exist.
//!
//! **Transactions.** Read-only ones run at `REPEATABLE READ READ ONLY` (one
//! snapshot, never blocked by writers); read-write ones at `SERIALIZABLE`.
//! When another process changed what a read-write transaction read, a
//! statement or the commit fails with
//! [`StorageError::Conflict`](taos_storage::StorageError::Conflict) and nothing
//! is written: retry the transaction (a lost update cannot happen).
//! PostgreSQL tracks reads by index page, so a conflict may also come from a
//! transaction that only touched nearby records: every read-write
//! transaction must be retryable. A read-only snapshot is consistent, but
//! (not being `SERIALIZABLE`) it may in rare interleavings show a state no
//! serial order of the writers passed through; decide writes inside a
//! read-write transaction. A read or write that fails leaves the
//! transaction failed: its commit rolls back and returns the error again. Each open transaction owns one connection
//! from the handle's small pool; one handle allows one read-write
//! transaction at a time
//! ([`StorageError::WriteInProgress`](taos_storage::StorageError::WriteInProgress)
//! otherwise, as natively), since a second one on the same thread could wait
//! forever on the first one's row locks. Use separate handles (one per writing
//! thread) or processes for concurrent writers; one thread holding write
//! transactions on two handles that touch the same record would wait on
//! itself forever.
//!
//! **Failures.** A refused or lost connection, a stopped server or a failed
//! statement is a [`StorageError::Server`](taos_storage::StorageError::Server),
//! never a panic; the next transaction reconnects. If the connection is lost
//! *during* `COMMIT`, the client cannot know whether the server committed:
//! the error says so, and the caller must read back before retrying a
//! non-idempotent change.
//!
//! **What this is not.** Not a SQL layer (records stay opaque bytes under
//! string keys, no queries or indexes), not asynchronous (each call blocks
//! its thread on the server's answer), not TLS (connect through a unix
//! socket or a trusted network), not for the browser, and schema versions
//! are read at `open` only: a handle does not notice another process
//! upgrading the database; reopen it.
//!
//! [`local::LocalPostgres`] starts a throwaway PostgreSQL server for tests
//! and try-outs.

#![cfg(not(target_arch = "wasm32"))]

mod backend;
mod conn;
mod database;
pub mod local;

pub use backend::PostgresBackend;
pub use database::{PostgresDatabase, PostgresTransaction};
pub use local::{LocalPostgres, LocalPostgresError};
