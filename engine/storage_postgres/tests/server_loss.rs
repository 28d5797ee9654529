//! A killed connection or a stopped server is an error, never a panic; what
//! was committed before survives a crash of the server. Each test starts its
//! own server (never `$TAOS_POSTGRES_URL`'s): it kills and stops it.

use taos_storage::{
    Database, StorageBackend, StorageError, Transaction, TransactionMode, block_on,
};
use taos_storage_postgres::{LocalPostgres, PostgresBackend};

const RW: TransactionMode = TransactionMode::ReadWrite;

fn open(backend: &PostgresBackend, name: &str) -> taos_storage_postgres::PostgresDatabase {
    block_on(backend.open(name, 1, |up| {
        up.create_store("s")?;
        Ok(())
    }))
    .expect("open")
}

#[test]
fn a_killed_connection_is_an_error_and_the_next_transaction_reconnects() {
    let server = LocalPostgres::start().expect("start PostgreSQL");
    let victim = format!("{} application_name=victim", server.url());
    let backend = PostgresBackend::connect(&victim).unwrap();
    let db = open(&backend, "killed");
    block_on(db.put("s", "before", &1_u32)).unwrap();

    let mut tx = block_on(db.begin(&["s"], RW)).unwrap();
    block_on(tx.put("s", "during", &2_u32)).unwrap();
    // An operator (or a failover) ends every connection of ours.
    let mut admin = postgres::Client::connect(server.url(), postgres::NoTls).unwrap();
    let killed = admin
        .query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = 'victim'",
            &[],
        )
        .unwrap();
    assert!(!killed.is_empty());
    let put = block_on(tx.put("s", "after", &3_u32));
    assert!(matches!(put, Err(StorageError::Server { .. })), "{put:?}");
    let commit = block_on(tx.commit());
    assert!(
        matches!(commit, Err(StorageError::Server { .. })),
        "{commit:?}"
    );

    // The handle reconnects for its next transaction; the killed one wrote nothing.
    assert_eq!(block_on(db.get::<u32>("s", "during")).unwrap(), None);
    assert_eq!(block_on(db.get::<u32>("s", "before")).unwrap(), Some(1));
    block_on(db.put("s", "later", &4_u32)).unwrap();
    // So does the backend for its next open.
    admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = 'victim'",
            &[],
        )
        .unwrap();
    let again = open(&backend, "killed");
    assert_eq!(block_on(again.get::<u32>("s", "later")).unwrap(), Some(4));
}

#[test]
fn a_stopped_server_is_an_error_and_a_restart_keeps_every_commit() {
    let mut server = LocalPostgres::start().expect("start PostgreSQL");
    let backend = server.backend().unwrap();
    let db = open(&backend, "crash");
    for n in 0..50_u32 {
        block_on(db.put("s", &format!("k{n:02}"), &n)).unwrap();
    }
    let mut open_tx = block_on(db.begin(&["s"], RW)).unwrap();
    block_on(open_tx.put("s", "uncommitted", &0_u32)).unwrap();

    // Killed without a checkpoint, like a power cut of the database host.
    server.stop().unwrap();
    let commit = block_on(open_tx.commit());
    assert!(
        matches!(commit, Err(StorageError::Server { .. })),
        "{commit:?}"
    );
    let get = block_on(db.get::<u32>("s", "k00"));
    assert!(matches!(get, Err(StorageError::Server { .. })), "{get:?}");
    let reopen = block_on(backend.open("crash", 1, |_| Ok(())));
    assert!(
        matches!(reopen, Err(StorageError::Server { .. })),
        "{reopen:?}"
    );
    let connect = server.backend();
    assert!(
        matches!(connect, Err(StorageError::Server { .. })),
        "{connect:?}"
    );

    server.restart().unwrap();
    // A new backend (a restarted game server) sees every committed write...
    let fresh = server.backend().unwrap();
    let db2 = block_on(fresh.open("crash", 1, |up| Err(up.fail("no upgrade expected")))).unwrap();
    let all = block_on(db2.get_all::<u32>("s")).unwrap();
    assert_eq!(all.len(), 50);
    assert!(all.iter().enumerate().all(|(i, (_, n))| *n as usize == i));
    assert_eq!(block_on(db2.get::<u32>("s", "uncommitted")).unwrap(), None);
    // ...and the old handle recovers on its next transaction.
    block_on(db.put("s", "after", &99_u32)).unwrap();
    assert_eq!(block_on(db2.get::<u32>("s", "after")).unwrap(), Some(99));
}
