//! [`PostgresBackend`]: connecting, and opening, upgrading and deleting
//! databases under the schema lock.

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use postgres::config::Host;
use postgres::{Client, Config, NoTls};
use taos_storage::backend_kit::{OpenPlan, check_database_name, plan_open};
use taos_storage::{StorageBackend, StorageError, Upgrade};

use crate::conn::{Refused, SCHEMA_LOCK, create_tables, meta, server_error, storage_error};
use crate::database::PostgresDatabase;

/// How long a connection attempt may take unless the URL says otherwise.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Databases as rows of tables in one PostgreSQL database: the backend for
/// several processes sharing one store (see the [crate docs](crate)).
///
/// ```no_run
/// use taos_storage::{Database, StorageBackend, block_on};
/// use taos_storage_postgres::PostgresBackend;
///
/// // A URL, or key=value pairs; `host` may be a unix socket directory.
/// let backend = PostgresBackend::connect("host=/var/run/postgresql dbname=taos user=taos")?;
/// let db = block_on(backend.open("saves", 1, |up| {
///     up.create_store("worlds")?;
///     Ok(())
/// }))?;
/// block_on(db.put("worlds", "w1", &42_u32))?;
/// # Ok::<(), taos_storage::StorageError>(())
/// ```
pub struct PostgresBackend {
    config: Config,
    target: String,
    /// The connection for `open`, `delete_database` and the listings; taken
    /// out while in use, so a panicking upgrade callback drops it (and the
    /// server rolls its transaction back).
    admin: Mutex<Option<Client>>,
}

impl std::fmt::Debug for PostgresBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresBackend")
            .field("target", &self.target)
            .finish_non_exhaustive()
    }
}

/// "PostgreSQL database `db` at `host`", for error messages (no password).
fn describe(config: &Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|host| match host {
            Host::Tcp(name) => name.clone(),
            Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
    format!(
        "PostgreSQL database {} at {} port {}",
        config.get_dbname().unwrap_or("(the user's)"),
        if hosts.is_empty() {
            "localhost".to_owned()
        } else {
            hosts.join(",")
        },
        if ports.is_empty() {
            "5432".to_owned()
        } else {
            ports.join(",")
        },
    )
}

impl PostgresBackend {
    /// Connects to the PostgreSQL database `url` names
    /// (`postgres://user@host:port/dbname`, or `host=… port=… user=…
    /// dbname=…`, where `host` may be a unix socket directory), checks that
    /// it stores UTF-8 and creates the storage tables if they are missing.
    ///
    /// # Errors
    /// [`StorageError::Server`] for a malformed URL, a refused connection or
    /// a server whose encoding is not UTF-8.
    pub fn connect(url: &str) -> Result<Self, StorageError> {
        let mut config: Config = url
            .parse()
            .map_err(|e| server_error("PostgreSQL (the URL given)", e))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("taos_storage");
        }
        let target = describe(&config);
        let mut client = config
            .connect(NoTls)
            .map_err(|e| server_error(&target, e))?;
        let encoding: String = client
            .query_one("SHOW server_encoding", &[])
            .map_err(|e| server_error(&target, e))?
            .get(0);
        if encoding != "UTF8" {
            return Err(server_error(&target, Refused::Encoding(encoding)));
        }
        create_tables(&mut client).map_err(|e| server_error(&target, e))?;
        Ok(Self {
            config,
            target,
            admin: Mutex::new(Some(client)),
        })
    }

    /// Which server and database this backend uses (no password).
    #[must_use]
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The databases stored, sorted.
    ///
    /// # Errors
    /// [`StorageError::Server`].
    pub fn database_names(&self) -> Result<Vec<String>, StorageError> {
        self.with_admin(&self.target.clone(), |client| {
            let rows = client.query(&meta::names(), &[])?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    /// The schema version of database `name`, or `None` if it does not exist.
    ///
    /// # Errors
    /// [`StorageError::InvalidName`] or [`StorageError::Server`].
    pub fn existing_version(&self, name: &str) -> Result<Option<u32>, StorageError> {
        check_database_name(name)?;
        let stored = self.with_admin(name, |client| {
            let row = client.query_opt(&meta::version(), &[&name])?;
            Ok(row.map(|row| row.get::<_, i64>(0)))
        })?;
        stored.map(|v| version_of(name, v)).transpose()
    }

    /// A live admin connection: the kept one if it still answers, else a new one.
    fn take_admin(&self, database: &str) -> Result<Client, StorageError> {
        let kept = self
            .admin
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(mut client) = kept
            && client.is_valid(CONNECT_TIMEOUT).is_ok()
        {
            return Ok(client);
        }
        self.config
            .connect(NoTls)
            .map_err(|e| server_error(database, e))
    }

    /// Runs `work` on the admin connection, keeping the connection for next
    /// time unless it broke.
    fn with_admin<R>(
        &self,
        database: &str,
        work: impl FnOnce(&mut Client) -> Result<R, postgres::Error>,
    ) -> Result<R, StorageError> {
        let mut client = self.take_admin(database)?;
        let result = work(&mut client);
        if !client.is_closed() {
            *self.admin.lock().unwrap_or_else(PoisonError::into_inner) = Some(client);
        }
        result.map_err(|e| storage_error(database, e))
    }

    /// Runs `work` in a transaction holding the schema lock: commits if it
    /// returns `Ok`, rolls back otherwise.
    fn locked<R>(
        &self,
        database: &str,
        work: impl FnOnce(&mut Client) -> Result<R, StorageError>,
    ) -> Result<R, StorageError> {
        let mut client = self.take_admin(database)?;
        let begun = client
            .batch_execute(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK})"
            ))
            .map_err(|e| storage_error(database, e));
        let result = begun.and_then(|()| work(&mut client)).and_then(|value| {
            client
                .batch_execute("COMMIT")
                .map_err(|e| storage_error(database, e))?;
            Ok(value)
        });
        if result.is_err() && !client.is_closed() && client.batch_execute("ROLLBACK").is_err() {
            return result; // drop the connection: its state is unknown
        }
        if !client.is_closed() {
            *self.admin.lock().unwrap_or_else(PoisonError::into_inner) = Some(client);
        }
        result
    }
}

/// A stored version as the trait's `u32`.
fn version_of(name: &str, stored: i64) -> Result<u32, StorageError> {
    u32::try_from(stored).map_err(|_| {
        server_error(
            name,
            format!("the stored schema version {stored} is not a valid version"),
        )
    })
}

impl StorageBackend for PostgresBackend {
    type Database = PostgresDatabase;

    async fn open<F>(
        &self,
        name: &str,
        version: u32,
        upgrade: F,
    ) -> Result<PostgresDatabase, StorageError>
    where
        F: FnOnce(&mut Upgrade) -> Result<(), StorageError>,
    {
        check_database_name(name)?;
        let pg = |e| storage_error(name, e);
        let stores = self.locked(name, |client| {
            let existing = match client.query_opt(&meta::version(), &[&name]).map_err(pg)? {
                Some(row) => version_of(name, row.get(0))?,
                None => 0,
            };
            let stores: BTreeSet<String> = client
                .query(&meta::stores(), &[&name])
                .map_err(pg)?
                .iter()
                .map(|row| row.get(0))
                .collect();
            let OpenPlan::Upgrade(mut up) = plan_open(name, existing, version, stores.clone())?
            else {
                return Ok(stores);
            };
            upgrade(&mut up)?;
            let wanted = up.into_stores();
            client
                .execute(&meta::set_version(), &[&name, &i64::from(version)])
                .map_err(pg)?;
            for gone in stores.difference(&wanted) {
                client
                    .execute(&meta::drop_store(), &[&name, gone])
                    .map_err(pg)?;
            }
            for store in wanted.difference(&stores) {
                client
                    .execute(&meta::add_store(), &[&name, store])
                    .map_err(pg)?;
            }
            Ok(wanted)
        })?;
        Ok(PostgresDatabase::new(
            name,
            version,
            stores,
            self.config.clone(),
        ))
    }

    async fn delete_database(&self, name: &str) -> Result<(), StorageError> {
        check_database_name(name)?;
        self.locked(name, |client| {
            client
                .execute(&meta::drop_database(), &[&name])
                .map(drop)
                .map_err(|e| storage_error(name, e))
        })
    }
}
