//! One connection with its prepared statements, the tables, and the mapping
//! of the client's errors onto [`StorageError`].

use postgres::error::SqlState;
use postgres::{Client, Config, NoTls, Statement};
use taos_storage::StorageError;

/// The bookkeeping and record tables, all under the reserved `__taos` prefix.
const DATABASES: &str = "__taos_databases";
const STORES: &str = "__taos_stores";
const RECORDS: &str = "__taos_records";

/// The advisory lock (`pg_advisory_xact_lock`) taken around creating the
/// tables and around every `open`/`delete_database`: "taos" in ASCII.
pub(crate) const SCHEMA_LOCK: i64 = 0x7461_6f73;

/// Creates the tables if they are missing, under [`SCHEMA_LOCK`] so two
/// processes starting at once do not race `CREATE TABLE IF NOT EXISTS`.
/// When all three exist nothing is created, so a role that may only read and
/// write them (no `CREATE` on the schema) can use tables a DBA made.
pub(crate) fn create_tables(client: &mut Client) -> Result<(), postgres::Error> {
    let present: i64 = client
        .query_one(
            &format!(
                "SELECT count(to_regclass(name)) FROM unnest(ARRAY['{DATABASES}', '{STORES}', \
                 '{RECORDS}']) AS name"
            ),
            &[],
        )?
        .get(0);
    if present == 3 {
        return Ok(());
    }
    client.batch_execute(&format!(
        "BEGIN;
         SELECT pg_advisory_xact_lock({SCHEMA_LOCK});
         CREATE TABLE IF NOT EXISTS {DATABASES} (
             name text COLLATE \"C\" PRIMARY KEY,
             version bigint NOT NULL CHECK (version > 0)
         );
         CREATE TABLE IF NOT EXISTS {STORES} (
             db text COLLATE \"C\" NOT NULL REFERENCES {DATABASES} (name) ON DELETE CASCADE,
             store text COLLATE \"C\" NOT NULL,
             PRIMARY KEY (db, store)
         );
         CREATE TABLE IF NOT EXISTS {RECORDS} (
             db text COLLATE \"C\" NOT NULL,
             store text COLLATE \"C\" NOT NULL,
             key text COLLATE \"C\" NOT NULL,
             value bytea NOT NULL,
             PRIMARY KEY (db, store, key),
             FOREIGN KEY (db, store) REFERENCES {STORES} (db, store) ON DELETE CASCADE
         );
         COMMIT;"
    ))
}

/// The SQL of the bookkeeping done by `open` and `delete_database`.
pub(crate) mod meta {
    use super::{DATABASES, STORES};

    /// The stored version of a database, if any.
    pub(crate) fn version() -> String {
        format!("SELECT version FROM {DATABASES} WHERE name = $1")
    }
    /// Every database name, sorted.
    pub(crate) fn names() -> String {
        format!("SELECT name FROM {DATABASES} ORDER BY name")
    }
    /// The stores of a database.
    pub(crate) fn stores() -> String {
        format!("SELECT store FROM {STORES} WHERE db = $1")
    }
    /// Records a database at a version.
    pub(crate) fn set_version() -> String {
        format!(
            "INSERT INTO {DATABASES} (name, version) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version"
        )
    }
    /// Adds a store.
    pub(crate) fn add_store() -> String {
        format!("INSERT INTO {STORES} (db, store) VALUES ($1, $2) ON CONFLICT DO NOTHING")
    }
    /// Drops a store (its records go with it).
    pub(crate) fn drop_store() -> String {
        format!("DELETE FROM {STORES} WHERE db = $1 AND store = $2")
    }
    /// Drops a database (its stores and records go with it).
    pub(crate) fn drop_database() -> String {
        format!("DELETE FROM {DATABASES} WHERE name = $1")
    }
}

/// The record statements, prepared once per connection.
#[derive(Debug)]
pub(crate) struct Statements {
    pub(crate) get: Statement,
    pub(crate) put: Statement,
    pub(crate) delete: Statement,
    pub(crate) clear: Statement,
    pub(crate) all: Statement,
    pub(crate) keys: Statement,
}

/// A connection ready for record transactions.
pub(crate) struct Conn {
    pub(crate) client: Client,
    pub(crate) sql: Statements,
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn")
            .field("closed", &self.client.is_closed())
            .finish_non_exhaustive()
    }
}

impl Conn {
    /// Connects and prepares the record statements.
    pub(crate) fn open(config: &Config) -> Result<Self, postgres::Error> {
        let mut client = config.connect(NoTls)?;
        let sql = Statements {
            get: client.prepare(&format!(
                "SELECT value FROM {RECORDS} WHERE db = $1 AND store = $2 AND key = $3"
            ))?,
            put: client.prepare(&format!(
                "INSERT INTO {RECORDS} (db, store, key, value) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (db, store, key) DO UPDATE SET value = EXCLUDED.value"
            ))?,
            delete: client.prepare(&format!(
                "DELETE FROM {RECORDS} WHERE db = $1 AND store = $2 AND key = $3"
            ))?,
            clear: client.prepare(&format!(
                "DELETE FROM {RECORDS} WHERE db = $1 AND store = $2"
            ))?,
            all: client.prepare(&format!(
                "SELECT key, value FROM {RECORDS} WHERE db = $1 AND store = $2 ORDER BY key"
            ))?,
            keys: client.prepare(&format!(
                "SELECT key FROM {RECORDS} WHERE db = $1 AND store = $2 ORDER BY key"
            ))?,
        };
        Ok(Self { client, sql })
    }
}

/// Whether the server refused the statement because of a concurrent
/// transaction (serialization failure or deadlock): retrying may succeed.
pub(crate) fn is_conflict(error: &postgres::Error) -> bool {
    error.code().is_some_and(|code| {
        *code == SqlState::T_R_SERIALIZATION_FAILURE || *code == SqlState::T_R_DEADLOCK_DETECTED
    })
}

/// The client's error as a [`StorageError`] about `database`.
pub(crate) fn storage_error(database: &str, error: postgres::Error) -> StorageError {
    if is_conflict(&error) {
        StorageError::Conflict {
            database: database.to_owned(),
        }
    } else {
        server_error(database, error)
    }
}

/// Any error as a [`StorageError::Server`] about `database`.
pub(crate) fn server_error(
    database: &str,
    error: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
) -> StorageError {
    StorageError::Server {
        database: database.to_owned(),
        source: error.into(),
    }
}

/// This crate's own reasons for a [`StorageError::Server`].
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    /// A statement of the transaction failed earlier; PostgreSQL rolled it back.
    #[error(
        "an earlier statement of this transaction failed, so PostgreSQL rolled it back; \
         nothing was written"
    )]
    EarlierFailure,
    /// The connection broke while COMMIT was under way.
    #[error(
        "the connection was lost during COMMIT: the server may or may not have committed \
         this transaction; read back before retrying ({0})"
    )]
    CommitUnknown(#[source] postgres::Error),
    /// The server does not store text as UTF-8.
    #[error("the server's encoding is {0}, not UTF8: create the database with ENCODING 'UTF8'")]
    Encoding(String),
}
