//! The storage conformance suite against PostgreSQL, and the native
//! backends' extra rules (one writer per handle, readers beside it).

mod common;

use std::time::Instant;

use taos_storage::{
    Database, StorageBackend, StorageError, Transaction, TransactionMode, block_on, conformance,
};

#[test]
fn conformance_suite() {
    let _turn = common::one_at_a_time();
    let started = Instant::now();
    let backend = common::server().backend().expect("connect");
    block_on(conformance::run_all(&backend));
    eprintln!("conformance suite on PostgreSQL: {:?}", started.elapsed());
    // The suite's databases are listed, as rows of the bookkeeping table.
    let names = backend.database_names().unwrap();
    assert!(names.contains(&"conformance-crud".to_owned()), "{names:?}");
    assert_eq!(
        backend.existing_version("conformance-upgrade").unwrap(),
        Some(2)
    );
    assert_eq!(backend.existing_version("never-made").unwrap(), None);
}

#[test]
fn second_writer_on_one_handle_is_refused_readers_are_not() {
    let _turn = common::one_at_a_time();
    let (_backend, db) = common::fresh(common::server().url(), "pg-writers", &["s"]);
    let mut first = block_on(db.begin(&["s"], TransactionMode::ReadWrite)).unwrap();
    block_on(first.put("s", "k", &1_u32)).unwrap();
    let second = block_on(db.begin(&["s"], TransactionMode::ReadWrite));
    assert!(
        matches!(second, Err(StorageError::WriteInProgress { .. })),
        "{second:?}"
    );
    // A reader beside the writer sees the last commit, not the open write.
    let mut reader = block_on(db.begin(&["s"], TransactionMode::ReadOnly)).unwrap();
    assert_eq!(block_on(reader.get::<u32>("s", "k")).unwrap(), None);
    drop(first); // rolls back
    drop(reader);
    assert!(block_on(db.begin(&["s"], TransactionMode::ReadWrite)).is_ok());
    assert_eq!(block_on(db.get::<u32>("s", "k")).unwrap(), None);
}

#[test]
fn keys_sort_by_bytes_and_nul_is_refused() {
    let _turn = common::one_at_a_time();
    let (_backend, db) = common::fresh(common::server().url(), "pg-keys", &["s"]);
    let keys = [
        "b",
        "B",
        "a",
        "é",
        "z",
        "\u{10000}",
        "\u{ffff}",
        "a b",
        "a\u{1}",
    ];
    for key in keys {
        block_on(db.put("s", key, &0_u8)).unwrap();
    }
    let mut sorted = keys.map(str::to_owned).to_vec();
    sorted.sort();
    let got = block_on(
        db.transaction(&["s"], TransactionMode::ReadOnly, async |tx| {
            tx.keys("s").await
        }),
    )
    .unwrap();
    assert_eq!(got, sorted);
    let nul = block_on(db.put("s", "a\0b", &0_u8));
    assert!(
        matches!(nul, Err(StorageError::InvalidName { what: "key", .. })),
        "{nul:?}"
    );
}

#[test]
fn a_failed_statement_fails_the_commit() {
    let _turn = common::one_at_a_time();
    let (backend, db) = common::fresh(common::server().url(), "pg-failed", &["s"]);
    let mut tx = block_on(db.begin(&["s"], TransactionMode::ReadWrite)).unwrap();
    // Another handle deletes the database under it (before the transaction
    // locked anything): the write breaks the foreign key, PostgreSQL aborts
    // the transaction...
    block_on(backend.delete_database("pg-failed")).unwrap();
    let put = block_on(tx.put("s", "k", &2_u32));
    assert!(matches!(put, Err(StorageError::Server { .. })), "{put:?}");
    // ...and its commit reports that instead of silently rolling back.
    let commit = block_on(tx.commit());
    assert!(
        matches!(commit, Err(StorageError::Server { .. })),
        "{commit:?}"
    );
}
