//! The native backend: one `redb` file per database.
//!
//! Why `redb`: it is an embedded, pure-Rust, ACID key-value store whose
//! commits are copy-on-write with checksummed pages and a two-phase commit of
//! the root, so a crash (power loss, SIGKILL) at any instant leaves either the
//! previous or the new commit, never a mix; it is fuzzed and crash-tested
//! upstream, locks its file against other processes, and needs no C toolchain.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use redb::{ReadableDatabase, ReadableTable, TableDefinition, TableHandle};

use super::data_dir::default_data_dir;
use super::faults::{FaultyFile, FileFaults};
use super::record::{self, Record};
use super::schema::{OpenPlan, RESERVED_PREFIX, Scope, check_database_name, plan_open};
use super::{Database, StorageBackend, StorageError, Transaction, TransactionMode, Upgrade};

const META: TableDefinition<'static, &str, u32> = TableDefinition::new("__taos_meta");
const VERSION_KEY: &str = "schema_version";

fn store_table(store: &str) -> TableDefinition<'_, &'static str, &'static [u8]> {
    TableDefinition::new(store)
}

/// Turns any redb error into a [`StorageError`] naming the file.
fn redb_error(path: &Path, error: impl Into<redb::Error>) -> StorageError {
    let path = path.to_owned();
    match error.into() {
        redb::Error::DatabaseAlreadyOpen => StorageError::Locked { path },
        redb::Error::Corrupted(reason) => StorageError::Corrupt { path, reason },
        redb::Error::Io(io)
            if matches!(
                io.kind(),
                std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof
            ) =>
        {
            StorageError::Corrupt {
                path,
                reason: io.to_string(),
            }
        }
        other => StorageError::Redb {
            path,
            source: Box::new(other),
        },
    }
}

/// Databases as `redb` files, `<dir>/<name>.redb`: the default native backend.
///
/// ```
/// use taos_storage::{Database, RedbBackend, StorageBackend, block_on};
///
/// let dir = tempfile::tempdir().unwrap();
/// let backend = RedbBackend::new(dir.path());
/// let db = block_on(backend.open("saves", 1, |up| {
///     up.create_store("worlds")?;
///     Ok(())
/// }))?;
/// block_on(db.put("worlds", "w1", &42_u32))?;
/// assert_eq!(block_on(db.get::<u32>("worlds", "w1"))?, Some(42));
/// assert!(dir.path().join("saves.redb").exists());
/// # Ok::<(), taos_storage::StorageError>(())
/// ```
#[derive(Debug, Clone)]
pub struct RedbBackend {
    dir: PathBuf,
    file: FileOptions,
}

/// How a backend's files are opened.
#[derive(Debug, Clone, Default)]
struct FileOptions {
    /// Writes, length changes and syncs go through these (tests).
    faults: Option<FileFaults>,
    /// The most bytes of pages `redb` keeps in memory (its default is
    /// 1 GiB, which a long-running process fills as its file grows).
    cache_bytes: Option<usize>,
}

impl RedbBackend {
    /// Databases in `dir` (created when the first database is).
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            file: FileOptions::default(),
        }
    }

    /// Keeps at most `bytes` of each database's pages in memory (`redb`
    /// keeps up to 1 GiB by default). For a long-running process, such as
    /// a server saving every tick, whose memory must stay flat: the
    /// operating system's file cache still holds what is read often.
    #[must_use]
    pub fn with_cache_size(mut self, bytes: usize) -> Self {
        self.file.cache_bytes = Some(bytes);
        self
    }

    /// Databases in `dir` whose file writes, length changes and syncs go
    /// through `faults`: for tests that fill the disk or fail a commit at a
    /// chosen point (see [`faults`](crate::faults)).
    #[must_use]
    pub fn with_faults(dir: impl Into<PathBuf>, faults: FileFaults) -> Self {
        Self {
            dir: dir.into(),
            file: FileOptions {
                faults: Some(faults),
                cache_bytes: None,
            },
        }
    }

    /// Databases in [`default_data_dir`](super::default_data_dir): `$TAOS_DATA_DIR`,
    /// else the platform data directory plus `taos`.
    ///
    /// # Errors
    /// [`StorageError::NoDataDirectory`].
    pub fn from_env() -> Result<Self, StorageError> {
        default_data_dir().map(Self::new)
    }

    /// The directory holding the database files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of database `name`.
    ///
    /// # Errors
    /// [`StorageError::InvalidName`] for a name that is not a portable file name.
    pub fn path_of(&self, name: &str) -> Result<PathBuf, StorageError> {
        check_database_name(name)?;
        Ok(self.dir.join(format!("{name}.redb")))
    }

    /// The databases in the directory, sorted (an absent directory has none).
    ///
    /// # Errors
    /// [`StorageError::Io`] if the directory cannot be read.
    pub fn database_names(&self) -> Result<Vec<String>, StorageError> {
        let io = |source| StorageError::Io {
            path: self.dir.clone(),
            source,
        };
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io(e)),
        };
        let mut names = Vec::new();
        for entry in entries {
            let path = entry.map_err(io)?.path();
            if path.extension().is_some_and(|e| e == "redb")
                && let Some(stem) = path.file_stem().and_then(|s| s.to_str())
                && check_database_name(stem).is_ok()
            {
                names.push(stem.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// The schema version of database `name`, or `None` if it does not exist.
    /// Tools use it to open a database at whatever version it has.
    ///
    /// # Errors
    /// As [`StorageBackend::open`] for a locked or corrupt file.
    pub fn existing_version(&self, name: &str) -> Result<Option<u32>, StorageError> {
        let path = self.path_of(name)?;
        if !path.exists() {
            return Ok(None);
        }
        let db = open_file(&path, &self.file)?;
        Ok(Some(read_schema(&path, &db)?.0))
    }
}

/// Opens (or creates) the file, checking its integrity; a garbage or truncated
/// file is refused without being written to.
fn open_file(path: &Path, file: &FileOptions) -> Result<redb::Database, StorageError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => create_file(path, false)?,
        Ok(meta) if meta.len() == 0 => create_file(path, true)?,
        Ok(_) => {}
        Err(source) => {
            return Err(StorageError::Io {
                path: path.to_owned(),
                source,
            });
        }
    }
    let opened = catch_unwind(AssertUnwindSafe(|| {
        let mut builder = redb::Builder::new();
        builder.set_check_integrity_on_open(true);
        if let Some(bytes) = file.cache_bytes {
            builder.set_cache_size(bytes);
        }
        match &file.faults {
            None => builder.open(path),
            Some(faults) => {
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(path)
                    .map_err(redb::DatabaseError::from)?;
                let file = redb::backends::FileBackend::new(file)?;
                builder.create_with_backend(FaultyFile::new(file, faults.clone()))
            }
        }
    }));
    match opened {
        Ok(result) => result.map_err(|e| redb_error(path, e)),
        Err(_) => Err(StorageError::Corrupt {
            path: path.to_owned(),
            reason: "the embedded database panicked while reading it".into(),
        }),
    }
}

/// Creates a new database file that appears complete or not at all: redb
/// initialises it under a temporary name (`<name>.redb.creating-<pid>`), which
/// is then linked into place. A process killed mid-creation leaves at most
/// that temporary file, never a half-written `<name>.redb`. If another process
/// creates the file first, its file is used.
fn create_file(path: &Path, replace_empty: bool) -> Result<(), StorageError> {
    let io = |p: &Path, source| StorageError::Io {
        path: p.to_owned(),
        source,
    };
    let tmp = path.with_extension(format!("redb.creating-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let db = redb::Builder::new()
        .create(&tmp)
        .map_err(|e| redb_error(&tmp, e))?;
    drop(db);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&tmp)
        .and_then(|f| f.sync_all())
        .map_err(|e| io(&tmp, e))?;
    let placed = if replace_empty {
        std::fs::rename(&tmp, path)
    } else {
        // A hard link never replaces an existing file; fall back to rename
        // on file systems without links.
        std::fs::hard_link(&tmp, path).or_else(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => Ok(()),
            _ if !path.exists() => std::fs::rename(&tmp, path),
            _ => Err(e),
        })
    };
    let _ = std::fs::remove_file(&tmp);
    placed.map_err(|e| io(path, e))?;
    // Make the new directory entry durable too (not possible on every platform).
    if let Some(dir) = path.parent()
        && let Ok(dir) = std::fs::File::open(dir)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The stored schema version (0 if never set) and the user stores.
fn read_schema(path: &Path, db: &redb::Database) -> Result<(u32, BTreeSet<String>), StorageError> {
    let err = |e: redb::Error| redb_error(path, e);
    let tx = db.begin_read().map_err(|e| err(e.into()))?;
    let version = match tx.open_table(META) {
        Ok(table) => table
            .get(VERSION_KEY)
            .map_err(|e| err(e.into()))?
            .map_or(0, |v| v.value()),
        Err(redb::TableError::TableDoesNotExist(_)) => 0,
        Err(e) => return Err(err(e.into())),
    };
    let stores = tx
        .list_tables()
        .map_err(|e| err(e.into()))?
        .map(|t| t.name().to_owned())
        .filter(|name| !name.starts_with(RESERVED_PREFIX))
        .collect();
    Ok((version, stores))
}

impl StorageBackend for RedbBackend {
    type Database = RedbDatabase;

    async fn open<F>(
        &self,
        name: &str,
        version: u32,
        upgrade: F,
    ) -> Result<RedbDatabase, StorageError>
    where
        F: FnOnce(&mut Upgrade) -> Result<(), StorageError>,
    {
        let path = self.path_of(name)?;
        std::fs::create_dir_all(&self.dir).map_err(|source| StorageError::Io {
            path: self.dir.clone(),
            source,
        })?;
        let db = open_file(&path, &self.file)?;
        let (existing, mut stores) = read_schema(&path, &db)?;
        if let OpenPlan::Upgrade(mut up) = plan_open(name, existing, version, stores.clone())? {
            upgrade(&mut up)?;
            let wanted = up.into_stores();
            let err = |e: redb::Error| redb_error(&path, e);
            let tx = db.begin_write().map_err(|e| err(e.into()))?;
            for gone in stores.difference(&wanted) {
                tx.delete_table(store_table(gone))
                    .map_err(|e| err(e.into()))?;
            }
            for store in &wanted {
                tx.open_table(store_table(store))
                    .map_err(|e| err(e.into()))?;
            }
            tx.open_table(META)
                .and_then(|mut meta| {
                    meta.insert(VERSION_KEY, version)
                        .map(drop)
                        .map_err(Into::into)
                })
                .map_err(|e| err(e.into()))?;
            tx.commit().map_err(|e| err(e.into()))?;
            stores = wanted;
        }
        Ok(RedbDatabase {
            name: name.to_owned(),
            path,
            version,
            stores,
            file: self.file.clone(),
            db: Mutex::new(Some(Arc::new(db))),
        })
    }

    async fn delete_database(&self, name: &str) -> Result<(), StorageError> {
        let path = self.path_of(name)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(StorageError::Io { path, source }),
        }
    }
}

/// An open `redb` database file. The file stays locked against other
/// processes until this is dropped or closed.
///
/// After an I/O error (a full disk, a failed sync) `redb` refuses every later
/// operation on its handle; this database then reopens its file at the next
/// transaction, so freeing space is all it takes for writes to succeed
/// again. Nothing committed before the error is lost: `redb` commits are
/// all or nothing.
#[derive(Debug)]
pub struct RedbDatabase {
    name: String,
    path: PathBuf,
    version: u32,
    stores: BTreeSet<String>,
    file: FileOptions,
    /// The open file; `None` after an I/O error until it is reopened.
    db: Mutex<Option<Arc<redb::Database>>>,
}

impl RedbDatabase {
    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open handle, reopening the file when an I/O error closed it.
    fn handle(&self) -> Result<Arc<redb::Database>, StorageError> {
        let mut slot = self.db.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(db) = &*slot {
            return Ok(Arc::clone(db));
        }
        let db = Arc::new(open_file(&self.path, &self.file)?);
        log::info!(
            "storage: reopened {} after an I/O error",
            self.path.display()
        );
        *slot = Some(Arc::clone(&db));
        Ok(db)
    }

    /// Records `error`; an I/O error closes the handle so the next
    /// transaction reopens the file.
    fn note(&self, error: StorageError) -> StorageError {
        if needs_reopen(&error) {
            let mut slot = self.db.lock().unwrap_or_else(PoisonError::into_inner);
            if slot.take().is_some() {
                log::warn!(
                    "storage: {} failed ({error}); reopening it for the next write",
                    self.path.display()
                );
            }
        }
        error
    }
}

/// Whether `error` leaves the `redb` handle refusing further work
/// (`PreviousIo`), as any I/O error during a write does.
fn needs_reopen(error: &StorageError) -> bool {
    match error {
        StorageError::Io { .. } => true,
        StorageError::Redb { source, .. } => {
            matches!(**source, redb::Error::Io(_) | redb::Error::PreviousIo)
        }
        _ => false,
    }
}

impl Database for RedbDatabase {
    type Transaction<'db> = RedbTransaction<'db>;

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
    ) -> Result<RedbTransaction<'_>, StorageError> {
        let scope = Scope::new(
            &self.name,
            |s| self.stores.contains(s),
            stores.iter().copied(),
            mode,
        )?;
        let err = |e: redb::Error| self.note(redb_error(&self.path, e));
        let db = self.handle()?;
        let inner = match mode {
            TransactionMode::ReadOnly => Inner::Read(db.begin_read().map_err(|e| err(e.into()))?),
            TransactionMode::ReadWrite => match db.try_begin_write() {
                Ok(tx) => Inner::Write(Box::new(tx)),
                Err(redb::TransactionError::WouldBlock) => {
                    return Err(StorageError::WriteInProgress {
                        database: self.name.clone(),
                    });
                }
                Err(e) => return Err(err(e.into())),
            },
        };
        Ok(RedbTransaction {
            db: self,
            scope,
            inner,
        })
    }
}

enum Inner {
    Read(redb::ReadTransaction),
    // Boxed: a write transaction is ~720 bytes, a read one ~160.
    Write(Box<redb::WriteTransaction>),
}

/// A transaction of a [`RedbDatabase`]. Dropping it without commit rolls it back.
pub struct RedbTransaction<'db> {
    db: &'db RedbDatabase,
    scope: Scope,
    inner: Inner,
}

impl std::fmt::Debug for RedbTransaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedbTransaction")
            .field("path", &self.db.path)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

fn all_of(
    table: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Vec<(String, Vec<u8>)>, redb::StorageError> {
    table
        .iter()?
        .map(|entry| entry.map(|(k, v)| (k.value().to_owned(), v.value().to_vec())))
        .collect()
}

fn keys_of(
    table: &impl ReadableTable<&'static str, &'static [u8]>,
) -> Result<Vec<String>, redb::StorageError> {
    table
        .iter()?
        .map(|entry| entry.map(|(k, _)| k.value().to_owned()))
        .collect()
}

impl RedbTransaction<'_> {
    fn err(&self, e: impl Into<redb::Error>) -> StorageError {
        self.db.note(redb_error(&self.db.path, e))
    }

    /// Runs `read` on `store`'s table, whichever kind of transaction this is.
    fn read<R>(
        &self,
        store: &str,
        read: impl FnOnce(&dyn ReadOnly) -> Result<R, redb::StorageError>,
    ) -> Result<R, StorageError> {
        self.scope.check(store, false)?;
        let def = store_table(store);
        match &self.inner {
            Inner::Read(tx) => {
                let table = tx.open_table(def).map_err(|e| self.err(e))?;
                read(&table).map_err(|e| self.err(e))
            }
            Inner::Write(tx) => {
                let table = tx.open_table(def).map_err(|e| self.err(e))?;
                read(&table).map_err(|e| self.err(e))
            }
        }
    }

    /// Runs `write` on `store`'s table of this read-write transaction.
    fn write(
        &mut self,
        store: &str,
        write: impl FnOnce(
            &mut redb::Table<'_, &'static str, &'static [u8]>,
        ) -> Result<(), redb::StorageError>,
    ) -> Result<(), StorageError> {
        self.scope.check(store, true)?;
        let Inner::Write(tx) = &self.inner else {
            return Err(StorageError::ReadOnly {
                store: store.to_owned(),
            });
        };
        let mut table = tx.open_table(store_table(store)).map_err(|e| self.err(e))?;
        write(&mut table).map_err(|e| self.err(e))
    }
}

/// The read operations both table kinds offer, as one object-safe face.
trait ReadOnly {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, redb::StorageError>;
    fn all(&self) -> Result<Vec<(String, Vec<u8>)>, redb::StorageError>;
    fn keys(&self) -> Result<Vec<String>, redb::StorageError>;
    fn count(&self) -> Result<u64, redb::StorageError>;
    /// Lends the bytes under `key` (in the page, not copied) to `read`.
    fn lend(
        &self,
        key: &str,
        read: &mut dyn FnMut(Option<&[u8]>),
    ) -> Result<(), redb::StorageError>;
    /// Lends every `(key, bytes)` in key order to `read`, straight from the
    /// pages, until it returns `false`.
    fn lend_all(&self, read: &mut dyn FnMut(&str, &[u8]) -> bool)
    -> Result<(), redb::StorageError>;
}

impl<T: ReadableTable<&'static str, &'static [u8]>> ReadOnly for T {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, redb::StorageError> {
        Ok(ReadableTable::get(self, key)?.map(|v| v.value().to_vec()))
    }
    fn count(&self) -> Result<u64, redb::StorageError> {
        self.len()
    }
    fn lend(
        &self,
        key: &str,
        read: &mut dyn FnMut(Option<&[u8]>),
    ) -> Result<(), redb::StorageError> {
        let value = ReadableTable::get(self, key)?;
        read(value.as_ref().map(|v| v.value()));
        Ok(())
    }
    fn lend_all(
        &self,
        read: &mut dyn FnMut(&str, &[u8]) -> bool,
    ) -> Result<(), redb::StorageError> {
        for entry in self.iter()? {
            let (key, value) = entry?;
            if !read(key.value(), value.value()) {
                break;
            }
        }
        Ok(())
    }
    fn all(&self) -> Result<Vec<(String, Vec<u8>)>, redb::StorageError> {
        all_of(self)
    }
    fn keys(&self) -> Result<Vec<String>, redb::StorageError> {
        keys_of(self)
    }
}

impl Transaction for RedbTransaction<'_> {
    fn mode(&self) -> TransactionMode {
        self.scope.mode()
    }

    async fn put_raw(&mut self, store: &str, key: &str, value: &[u8]) -> Result<(), StorageError> {
        self.write(store, |t| t.insert(key, value).map(drop))
    }

    async fn get_raw(&mut self, store: &str, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        self.read(store, |t| t.get(key))
    }

    async fn get_all_raw(&mut self, store: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        self.read(store, |t| t.all())
    }

    async fn keys(&mut self, store: &str) -> Result<Vec<String>, StorageError> {
        self.read(store, |t| t.keys())
    }

    // The typed reads decode each record where it lies in the page: no copy
    // of its bytes, and the result vector sized once from the table's count.

    async fn get<T: Record>(&mut self, store: &str, key: &str) -> Result<Option<T>, StorageError> {
        let mut decoded = None;
        self.read(store, |t| {
            t.lend(key, &mut |bytes| {
                decoded = bytes.map(|bytes| record::decode(store, key, bytes));
            })
        })?;
        decoded.transpose()
    }

    async fn get_all<T: Record>(&mut self, store: &str) -> Result<Vec<(String, T)>, StorageError> {
        let mut records = Vec::new();
        let mut failed = None;
        self.read(store, |t| {
            records.reserve_exact(usize::try_from(t.count()?).unwrap_or(0));
            t.lend_all(&mut |key, bytes| match record::decode(store, key, bytes) {
                Ok(value) => {
                    records.push((key.to_owned(), value));
                    true
                }
                Err(error) => {
                    failed = Some(error);
                    false
                }
            })
        })?;
        failed.map_or(Ok(records), Err)
    }

    async fn get_each<T: Record>(
        &mut self,
        store: &str,
    ) -> Result<Vec<(String, Result<T, StorageError>)>, StorageError> {
        let mut records = Vec::new();
        self.read(store, |t| {
            records.reserve_exact(usize::try_from(t.count()?).unwrap_or(0));
            t.lend_all(&mut |key, bytes| {
                records.push((key.to_owned(), record::decode(store, key, bytes)));
                true
            })
        })?;
        Ok(records)
    }

    async fn delete(&mut self, store: &str, key: &str) -> Result<(), StorageError> {
        self.write(store, |t| t.remove(key).map(drop))
    }

    async fn clear(&mut self, store: &str) -> Result<(), StorageError> {
        self.write(store, |t| t.retain(|_, _| false))
    }

    async fn commit(self) -> Result<(), StorageError> {
        match self.inner {
            Inner::Read(tx) => tx
                .close()
                .map_err(|e| self.db.note(redb_error(&self.db.path, e))),
            Inner::Write(tx) => tx
                .commit()
                .map_err(|e| self.db.note(redb_error(&self.db.path, e))),
        }
    }

    async fn abort(self) -> Result<(), StorageError> {
        match self.inner {
            Inner::Read(tx) => tx
                .close()
                .map_err(|e| self.db.note(redb_error(&self.db.path, e))),
            Inner::Write(tx) => tx
                .abort()
                .map_err(|e| self.db.note(redb_error(&self.db.path, e))),
        }
    }
}
