//! The storage conformance suite, run against the memory and redb backends.
//! (The IndexedDB backend's instantiation is type-checked by the wasm32 build.)

use taos_engine::storage::{MemoryBackend, RedbBackend, block_on, conformance};

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
