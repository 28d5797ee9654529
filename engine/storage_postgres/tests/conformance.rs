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

#[test]
fn handles_may_be_shared_across_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<taos_storage_postgres::PostgresBackend>();
    shared::<taos_storage_postgres::PostgresDatabase>();
}

#[test]
fn an_existing_layout_needs_no_create_privilege() {
    let _turn = common::one_at_a_time();
    if !common::server().started_here() {
        return; // creating roles needs the superuser of a server started here
    }
    let url = common::server().url();
    common::server().backend().unwrap(); // makes the tables, as the owner
    // A role that may only read and write the tables another role made.
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .batch_execute(
            "DROP ROLE IF EXISTS taos_game;
             CREATE ROLE taos_game LOGIN;
             REVOKE CREATE ON SCHEMA public FROM PUBLIC;
             GRANT SELECT, INSERT, UPDATE, DELETE ON __taos_databases, __taos_stores,
                 __taos_records TO taos_game;",
        )
        .unwrap();
    let game = format!("{url} user=taos_game");
    let (_backend, db) = common::fresh(&game, "pg-game-role", &["s"]);
    block_on(db.put("s", "k", &7_u32)).unwrap();
    assert_eq!(block_on(db.get::<u32>("s", "k")).unwrap(), Some(7));
    drop(db);
    admin
        .batch_execute(
            "REVOKE ALL ON __taos_databases, __taos_stores, __taos_records FROM taos_game;
             DROP OWNED BY taos_game; DROP ROLE taos_game;",
        )
        .unwrap();
}
