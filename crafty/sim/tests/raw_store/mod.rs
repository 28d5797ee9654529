//! Raw reads and writes of a world store's records, for tests that damage
//! or inspect what is stored.

use crafty_sim::save::WorldStore;
use taos_storage::{Database, StorageBackend, Transaction, TransactionMode, block_on};

/// The bytes stored under `key` in object store `name`.
pub(crate) fn raw_get<B: StorageBackend>(
    store: &WorldStore<B>,
    name: &str,
    key: &str,
) -> Option<Vec<u8>> {
    block_on(
        store
            .database()
            .transaction(&[name], TransactionMode::ReadOnly, async |tx| {
                tx.get_raw(name, key).await
            }),
    )
    .unwrap()
}

/// Stores `bytes` under `key` in object store `name`, as they are.
pub(crate) fn raw_put<B: StorageBackend>(
    store: &WorldStore<B>,
    name: &str,
    key: &str,
    bytes: &[u8],
) {
    block_on(
        store
            .database()
            .transaction(&[name], TransactionMode::ReadWrite, async |tx| {
                tx.put_raw(name, key, bytes).await
            }),
    )
    .unwrap();
}
