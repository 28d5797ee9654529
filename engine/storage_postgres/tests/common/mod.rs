//! The one PostgreSQL server a test binary shares (`$TAOS_POSTGRES_URL`,
//! else a throwaway one), and helpers.

#![allow(dead_code, reason = "each test binary uses its own share of these")]

use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use taos_storage::{StorageBackend, block_on};
use taos_storage_postgres::{LocalPostgres, PostgresBackend, PostgresDatabase};

/// The binary's server, started on first use; the watcher started with it
/// stops it and removes its directory when the binary exits.
pub(crate) fn server() -> &'static LocalPostgres {
    static SERVER: OnceLock<LocalPostgres> = OnceLock::new();
    SERVER.get_or_init(|| LocalPostgres::from_env_or_start().expect("start PostgreSQL"))
}

/// `url` with its connections named `name` in `pg_stat_activity`.
pub(crate) fn named(url: &str, name: &str) -> String {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}application_name={name}")
    } else {
        format!("{url} application_name={name}")
    }
}

/// A fresh database `name` with `stores`, on a new backend (connection) of `url`.
pub(crate) fn fresh(url: &str, name: &str, stores: &[&str]) -> (PostgresBackend, PostgresDatabase) {
    let backend = PostgresBackend::connect(url).expect("connect");
    block_on(backend.delete_database(name)).expect("delete");
    let db = block_on(backend.open(name, 1, |up| {
        for store in stores {
            up.create_store(store)?;
        }
        Ok(())
    }))
    .expect("open");
    (backend, db)
}

/// Another handle on database `name` (version 1), on its own backend.
pub(crate) fn reopen(url: &str, name: &str) -> (PostgresBackend, PostgresDatabase) {
    let backend = PostgresBackend::connect(url).expect("connect");
    let db = block_on(backend.open(name, 1, |_| Ok(()))).expect("open");
    (backend, db)
}

/// Taken by each test of a binary so they run one at a time: PostgreSQL's
/// serializable isolation tracks reads by index page, so transactions of
/// tests running side by side (other databases, same tables) may be told to
/// retry, which the tests that expect exact outcomes must not see.
pub(crate) fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(PoisonError::into_inner)
}
