//! The storage conformance suite, run against the memory and redb backends.
//! (The IndexedDB backend's instantiation is type-checked by the wasm32 build.)

use taos_storage::{
    Database, MemoryBackend, RedbBackend, StorageBackend, StorageError, TransactionMode, block_on,
    conformance,
};

macro_rules! suite {
    ($($check:ident),* $(,)?) => {
        mod memory {
            use super::*;
            $(
                #[test]
                fn $check() {
                    block_on(conformance::$check(&MemoryBackend::new()));
                }
            )*
        }
        mod redb {
            use super::*;
            $(
                #[test]
                fn $check() {
                    let dir = tempfile::tempdir().unwrap();
                    block_on(conformance::$check(&RedbBackend::new(dir.path())));
                }
            )*
        }
    };
}

suite!(
    crud,
    key_order,
    get_all_10k,
    spanning_transaction,
    rollback_on_error,
    read_only_refuses_writes,
    reopen_after_close,
    upgrade_keeps_data,
    record_versions,
    bad_record_isolated,
);

#[test]
fn run_all_in_one_directory() {
    // Checks share a directory here, as they would share a browser origin.
    let dir = tempfile::tempdir().unwrap();
    block_on(conformance::run_all(&RedbBackend::new(dir.path())));
    block_on(conformance::run_all(&MemoryBackend::new()));
}

#[test]
fn a_small_page_cache_changes_nothing_but_memory() {
    // A server caps redb's page cache; 64 KiB is far below the 10,000
    // records' size, so reads come from the file.
    let dir = tempfile::tempdir().unwrap();
    block_on(conformance::run_all(
        &RedbBackend::new(dir.path()).with_cache_size(64 * 1024),
    ));
}

/// Natively a second read-write transaction is refused instead of
/// deadlocking the thread (IndexedDB queues it instead, so this is not part
/// of the shared suite). Readers are not blocked by a writer.
fn second_writer_is_refused<B: StorageBackend>(backend: &B) {
    let db = block_on(backend.open("writers", 1, |up| {
        up.create_store("s")?;
        Ok(())
    }))
    .unwrap();
    let first = block_on(db.begin(&["s"], TransactionMode::ReadWrite)).unwrap();
    let second = block_on(db.begin(&["s"], TransactionMode::ReadWrite));
    assert!(
        matches!(second, Err(StorageError::WriteInProgress { .. })),
        "{second:?}"
    );
    assert!(block_on(db.begin(&["s"], TransactionMode::ReadOnly)).is_ok());
    drop(first);
    assert!(block_on(db.begin(&["s"], TransactionMode::ReadWrite)).is_ok());
}

#[test]
fn second_writer_is_refused_memory() {
    second_writer_is_refused(&MemoryBackend::new());
}

#[test]
fn second_writer_is_refused_redb() {
    let dir = tempfile::tempdir().unwrap();
    second_writer_is_refused(&RedbBackend::new(dir.path()));
}
