//! The memory backend: databases in a shared map, for tests and tools.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use super::schema::{OpenPlan, Scope, check_database_name, plan_open};
use super::{Database, StorageBackend, StorageError, Transaction, TransactionMode, Upgrade};

type Store = BTreeMap<String, Vec<u8>>;

#[derive(Debug, Default)]
struct State {
    version: u32,
    stores: BTreeMap<String, Arc<Store>>,
    writer: bool,
}

/// Databases held in memory. Clones share the same databases, so a database
/// closed and opened again from any clone keeps its records; they vanish when
/// the last clone is dropped.
///
/// Transactions have the same semantics as the file backend: a read-only
/// transaction sees a snapshot, a read-write one stages its writes and
/// publishes them at commit. The first write in a transaction copies that
/// store (copy-on-write), so it suits tests and tools, not large worlds.
///
/// ```
/// use taos_storage::{Database, MemoryBackend, StorageBackend, block_on};
///
/// let backend = MemoryBackend::new();
/// let db = block_on(backend.open("saves", 1, |up| {
///     up.create_store("worlds")?;
///     Ok(())
/// }))?;
/// block_on(db.put("worlds", "w1", &"Hello".to_string()))?;
/// let back: Option<String> = block_on(db.get("worlds", "w1"))?;
/// assert_eq!(back.as_deref(), Some("Hello"));
/// # Ok::<(), taos_storage::StorageError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemoryBackend {
    databases: Arc<Mutex<HashMap<String, Arc<Mutex<State>>>>>,
}

impl MemoryBackend {
    /// An empty set of databases.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave a half-applied commit: commits
    // swap whole store maps. Keep going with the data.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl StorageBackend for MemoryBackend {
    type Database = MemoryDatabase;

    async fn open<F>(
        &self,
        name: &str,
        version: u32,
        upgrade: F,
    ) -> Result<MemoryDatabase, StorageError>
    where
        F: FnOnce(&mut Upgrade) -> Result<(), StorageError>,
    {
        check_database_name(name)?;
        let state = Arc::clone(lock(&self.databases).entry(name.to_owned()).or_default());
        {
            let mut guard = lock(&state);
            let stores: BTreeSet<String> = guard.stores.keys().cloned().collect();
            if let OpenPlan::Upgrade(mut up) = plan_open(name, guard.version, version, stores)? {
                upgrade(&mut up)?;
                let wanted = up.into_stores();
                guard.stores.retain(|store, _| wanted.contains(store));
                for store in wanted {
                    guard.stores.entry(store).or_default();
                }
                guard.version = version;
            }
        }
        Ok(MemoryDatabase {
            name: name.to_owned(),
            version,
            state,
        })
    }

    async fn delete_database(&self, name: &str) -> Result<(), StorageError> {
        check_database_name(name)?;
        lock(&self.databases).remove(name);
        Ok(())
    }
}

/// An open database of a [`MemoryBackend`].
#[derive(Debug)]
pub struct MemoryDatabase {
    name: String,
    version: u32,
    state: Arc<Mutex<State>>,
}

impl Database for MemoryDatabase {
    type Transaction<'db> = MemoryTransaction<'db>;

    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> u32 {
        self.version
    }

    fn store_names(&self) -> Vec<String> {
        lock(&self.state).stores.keys().cloned().collect()
    }

    async fn begin(
        &self,
        stores: &[&str],
        mode: TransactionMode,
    ) -> Result<MemoryTransaction<'_>, StorageError> {
        let mut state = lock(&self.state);
        let scope = Scope::new(
            &self.name,
            |s| state.stores.contains_key(s),
            stores.iter().copied(),
            mode,
        )?;
        if mode == TransactionMode::ReadWrite {
            if state.writer {
                return Err(StorageError::WriteInProgress {
                    database: self.name.clone(),
                });
            }
            state.writer = true;
        }
        let snapshot = scope
            .stores()
            .iter()
            .map(|s| (s.clone(), Arc::clone(&state.stores[s])))
            .collect();
        Ok(MemoryTransaction {
            db: self,
            scope,
            snapshot,
            finished: false,
        })
    }
}

/// A transaction of a [`MemoryDatabase`].
#[derive(Debug)]
pub struct MemoryTransaction<'db> {
    db: &'db MemoryDatabase,
    scope: Scope,
    snapshot: BTreeMap<String, Arc<Store>>,
    finished: bool,
}

impl MemoryTransaction<'_> {
    fn read(&self, store: &str) -> Result<&Store, StorageError> {
        self.scope.check(store, false)?;
        Ok(&self.snapshot[store])
    }

    fn write(&mut self, store: &str) -> Result<&mut Store, StorageError> {
        self.scope.check(store, true)?;
        let map = self
            .snapshot
            .get_mut(store)
            .ok_or_else(|| StorageError::NotInTransaction {
                store: store.to_owned(),
            })?;
        Ok(Arc::make_mut(map))
    }

    fn finish(&mut self) {
        if !self.finished && self.scope.mode() == TransactionMode::ReadWrite {
            lock(&self.db.state).writer = false;
        }
        self.finished = true;
    }
}

impl Drop for MemoryTransaction<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Transaction for MemoryTransaction<'_> {
    fn mode(&self) -> TransactionMode {
        self.scope.mode()
    }

    async fn put_raw(&mut self, store: &str, key: &str, value: &[u8]) -> Result<(), StorageError> {
        self.write(store)?.insert(key.to_owned(), value.to_vec());
        Ok(())
    }

    async fn get_raw(&mut self, store: &str, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        Ok(self.read(store)?.get(key).cloned())
    }

    async fn get_all_raw(&mut self, store: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        Ok(self
            .read(store)?
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }

    async fn keys(&mut self, store: &str) -> Result<Vec<String>, StorageError> {
        Ok(self.read(store)?.keys().cloned().collect())
    }

    async fn delete(&mut self, store: &str, key: &str) -> Result<(), StorageError> {
        self.write(store)?.remove(key);
        Ok(())
    }

    async fn clear(&mut self, store: &str) -> Result<(), StorageError> {
        self.write(store)?.clear();
        Ok(())
    }

    async fn commit(mut self) -> Result<(), StorageError> {
        if self.scope.mode() == TransactionMode::ReadWrite {
            let mut state = lock(&self.db.state);
            for (store, map) in std::mem::take(&mut self.snapshot) {
                // A store deleted by a concurrent upgrade stays deleted.
                if let Some(slot) = state.stores.get_mut(&store) {
                    *slot = map;
                }
            }
        }
        self.finish();
        Ok(())
    }

    async fn abort(mut self) -> Result<(), StorageError> {
        self.finish();
        Ok(())
    }
}
