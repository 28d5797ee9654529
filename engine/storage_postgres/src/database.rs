//! [`PostgresDatabase`] (a pool of connections) and [`PostgresTransaction`]
//! (one connection inside `BEGIN … COMMIT`).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use postgres::Config;
use taos_storage::backend_kit::Scope;
use taos_storage::{Database, StorageError, Transaction, TransactionMode};

use crate::conn::{Conn, Refused, is_conflict, server_error, storage_error};

/// How many idle connections a handle keeps for its next transactions.
const IDLE_CONNECTIONS: usize = 4;

/// An open database of a [`PostgresBackend`](crate::PostgresBackend).
///
/// Each transaction takes a connection from the handle's pool (opening one
/// when none is idle) and gives it back when it ends. One read-write
/// transaction at a time per handle
/// ([`StorageError::WriteInProgress`] for a second); readers run beside it.
/// The handle is `Send + Sync`: threads may share it for reading, but a
/// thread that writes while others do wants its own handle.
#[derive(Debug)]
pub struct PostgresDatabase {
    name: String,
    version: u32,
    stores: BTreeSet<String>,
    config: Config,
    idle: Mutex<Vec<Conn>>,
    writing: AtomicBool,
}

impl PostgresDatabase {
    pub(crate) fn new(name: &str, version: u32, stores: BTreeSet<String>, config: Config) -> Self {
        Self {
            name: name.to_owned(),
            version,
            stores,
            config,
            idle: Mutex::new(Vec::new()),
            writing: AtomicBool::new(false),
        }
    }

    /// A connection inside a fresh transaction of `mode`: an idle one if it
    /// still works (a restarted server broke them all), else a new one.
    fn connection(&self, mode: TransactionMode) -> Result<Conn, StorageError> {
        let begin = match mode {
            TransactionMode::ReadOnly => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
            TransactionMode::ReadWrite => "BEGIN ISOLATION LEVEL SERIALIZABLE",
        };
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(mut conn) = idle else { break };
            if conn.client.batch_execute(begin).is_ok() {
                return Ok(conn);
            }
            log::debug!(
                "storage: dropping a broken PostgreSQL connection of {}",
                self.name
            );
        }
        let mut conn = Conn::open(&self.config).map_err(|e| server_error(&self.name, e))?;
        conn.client
            .batch_execute(begin)
            .map_err(|e| storage_error(&self.name, e))?;
        Ok(conn)
    }

    /// Keeps `conn` for the next transaction, unless it broke or enough are idle.
    fn give_back(&self, conn: Conn) {
        if conn.client.is_closed() {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < IDLE_CONNECTIONS {
            idle.push(conn);
        }
    }
}

impl Database for PostgresDatabase {
    type Transaction<'db> = PostgresTransaction<'db>;

    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> u32 {
        self.version
    }

    fn store_names(&self) -> Vec<String> {
        self.stores.iter().cloned().collect()
    }

    async fn begin(
        &self,
        stores: &[&str],
        mode: TransactionMode,
    ) -> Result<PostgresTransaction<'_>, StorageError> {
        let scope = Scope::new(
            &self.name,
            |s| self.stores.contains(s),
            stores.iter().copied(),
            mode,
        )?;
        let writer = mode == TransactionMode::ReadWrite;
        if writer
            && self
                .writing
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
        {
            return Err(StorageError::WriteInProgress {
                database: self.name.clone(),
            });
        }
        match self.connection(mode) {
            Ok(conn) => Ok(PostgresTransaction {
                db: self,
                scope,
                conn: Some(conn),
                failed: None,
            }),
            Err(error) => {
                if writer {
                    self.writing.store(false, Ordering::Release);
                }
                Err(error)
            }
        }
    }
}

/// How an earlier statement of a transaction failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failed {
    Conflict,
    Other,
}

/// A transaction of a [`PostgresDatabase`] on its own connection. Dropping
/// it without commit rolls it back.
pub struct PostgresTransaction<'db> {
    db: &'db PostgresDatabase,
    scope: Scope,
    /// `None` once committed or aborted.
    conn: Option<Conn>,
    /// Set by the first failed statement: PostgreSQL has then aborted the
    /// transaction, and a COMMIT would silently roll back.
    failed: Option<Failed>,
}

impl std::fmt::Debug for PostgresTransaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresTransaction")
            .field("database", &self.db.name)
            .field("scope", &self.scope)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl PostgresTransaction<'_> {
    /// The error to repeat once a statement has failed.
    fn failure(&self, failed: Failed) -> StorageError {
        match failed {
            Failed::Conflict => StorageError::Conflict {
                database: self.db.name.clone(),
            },
            Failed::Other => server_error(&self.db.name, Refused::EarlierFailure),
        }
    }

    /// Runs one statement after checking scope and mode; a failure marks the
    /// transaction failed.
    fn run<R>(
        &mut self,
        store: &str,
        write: bool,
        statement: impl FnOnce(&mut Conn, &str) -> Result<R, postgres::Error>,
    ) -> Result<R, StorageError> {
        self.scope.check(store, write)?;
        if let Some(failed) = self.failed {
            return Err(self.failure(failed));
        }
        let Some(conn) = self.conn.as_mut() else {
            return Err(server_error(&self.db.name, "the transaction has ended"));
        };
        statement(conn, &self.db.name).map_err(|error| {
            self.failed = Some(if is_conflict(&error) {
                Failed::Conflict
            } else {
                Failed::Other
            });
            storage_error(&self.db.name, error)
        })
    }

    /// Ends the transaction with `ROLLBACK`, giving the connection back.
    fn roll_back(&mut self) -> Result<(), StorageError> {
        let Some(mut conn) = self.conn.take() else {
            return Ok(());
        };
        self.release_writer();
        match conn.client.batch_execute("ROLLBACK") {
            Ok(()) => {
                self.db.give_back(conn);
                Ok(())
            }
            Err(error) => Err(storage_error(&self.db.name, error)),
        }
    }

    fn release_writer(&self) {
        if self.scope.mode() == TransactionMode::ReadWrite {
            self.db.writing.store(false, Ordering::Release);
        }
    }
}

/// PostgreSQL text cannot hold NUL: refuse such keys before the server does.
fn check_key(key: &str) -> Result<(), StorageError> {
    if key.contains('\0') {
        return Err(StorageError::InvalidName {
            what: "key",
            name: key.to_owned(),
            reason: "PostgreSQL text cannot hold NUL characters",
        });
    }
    Ok(())
}

impl Transaction for PostgresTransaction<'_> {
    fn mode(&self) -> TransactionMode {
        self.scope.mode()
    }

    async fn put_raw(&mut self, store: &str, key: &str, value: &[u8]) -> Result<(), StorageError> {
        check_key(key)?;
        self.run(store, true, |c, db| {
            c.client
                .execute(&c.sql.put, &[&db, &store, &key, &value])
                .map(drop)
        })
    }

    async fn get_raw(&mut self, store: &str, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        check_key(key)?;
        self.run(store, false, |c, db| {
            let row = c.client.query_opt(&c.sql.get, &[&db, &store, &key])?;
            Ok(row.map(|row| row.get(0)))
        })
    }

    async fn get_all_raw(&mut self, store: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        self.run(store, false, |c, db| {
            let rows = c.client.query(&c.sql.all, &[&db, &store])?;
            Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
        })
    }

    async fn keys(&mut self, store: &str) -> Result<Vec<String>, StorageError> {
        self.run(store, false, |c, db| {
            let rows = c.client.query(&c.sql.keys, &[&db, &store])?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    async fn delete(&mut self, store: &str, key: &str) -> Result<(), StorageError> {
        check_key(key)?;
        self.run(store, true, |c, db| {
            c.client
                .execute(&c.sql.delete, &[&db, &store, &key])
                .map(drop)
        })
    }

    async fn clear(&mut self, store: &str) -> Result<(), StorageError> {
        self.run(store, true, |c, db| {
            c.client.execute(&c.sql.clear, &[&db, &store]).map(drop)
        })
    }

    async fn commit(mut self) -> Result<(), StorageError> {
        if let Some(failed) = self.failed {
            let error = self.failure(failed);
            if let Err(rollback) = self.roll_back() {
                log::debug!("storage: rollback after a failed statement failed: {rollback}");
            }
            return Err(error);
        }
        let Some(mut conn) = self.conn.take() else {
            return Ok(());
        };
        self.release_writer();
        match conn.client.batch_execute("COMMIT") {
            Ok(()) => {
                self.db.give_back(conn);
                Ok(())
            }
            Err(error) if is_conflict(&error) => {
                // The server rolled back; the connection is fine.
                self.db.give_back(conn);
                Err(storage_error(&self.db.name, error))
            }
            Err(error)
                if self.scope.mode() == TransactionMode::ReadWrite
                    && (error.code().is_none() || conn.client.is_closed()) =>
            {
                Err(server_error(&self.db.name, Refused::CommitUnknown(error)))
            }
            Err(error) => Err(storage_error(&self.db.name, error)),
        }
    }

    async fn abort(mut self) -> Result<(), StorageError> {
        self.roll_back()
    }
}

impl Drop for PostgresTransaction<'_> {
    fn drop(&mut self) {
        if let Err(error) = self.roll_back() {
            log::debug!("storage: rolling back a dropped transaction failed: {error}");
        }
    }
}
