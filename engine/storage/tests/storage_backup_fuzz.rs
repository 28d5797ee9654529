//! Property test: what `taos-db restore` and `taos-db import` parse, damaged.
//! A backup document with bytes flipped, inserted, removed or cut off, or
//! with odd names, versions and record encodings, never panics: it parses
//! and restores completely, or is refused and creates no database. A
//! damaged record envelope (what `import` checks) is refused, never a panic.
//! 256 cases each (`TAOS_FUZZ_CASES` for more; see `taos_hostile_inputs`).

use proptest::prelude::*;
use taos_hostile_inputs::{config, mutated};
use taos_storage::backup::{BackedUpRecord, RecordBytes, StoreBackup};
use taos_storage::{
    Database, DatabaseBackup, MemoryBackend, StorageBackend, StorageError, Transaction,
    TransactionMode, backup_database, block_on, record_version, restore_database,
};

/// A backup of a database with a JSON store and a binary one.
fn sample_backup() -> Vec<u8> {
    let backend = MemoryBackend::new();
    let db = block_on(backend.open("crafty", 3, |up| {
        up.create_store("worlds")?;
        up.create_store("logs")?;
        Ok(())
    }))
    .unwrap();
    block_on(db.transaction(
        &["worlds", "logs"],
        TransactionMode::ReadWrite,
        async |tx| {
            tx.put_raw("worlds", "w-1", br#"{"version":2,"data":{"seed":7}}"#)
                .await?;
            tx.put_raw("logs", "w-1/0", &[0, 159, 146, 150, 255, 10])
                .await?;
            Ok::<_, StorageError>(())
        },
    ))
    .unwrap();
    serde_json::to_vec(&block_on(backup_database(&db)).unwrap()).unwrap()
}

/// Well-formed documents with odd contents: any version, names that are
/// not valid store names, repeated stores, damaged base64.
fn odd_backup() -> impl Strategy<Value = Vec<u8>> {
    let record =
        ("[a-z/-]{0,4}", any::<bool>(), "[A-Za-z0-9+/=!é]{0,12}").prop_map(|(key, text, value)| {
            BackedUpRecord {
                key,
                value: if text {
                    RecordBytes::Text(value)
                } else {
                    RecordBytes::Base64(value)
                },
            }
        });
    let store = ("[a-z_. -]{0,5}", prop::collection::vec(record, 0..4))
        .prop_map(|(name, records)| StoreBackup { name, records });
    (any::<u32>(), prop::collection::vec(store, 0..4)).prop_map(|(version, stores)| {
        serde_json::to_vec(&DatabaseBackup {
            format: taos_storage::backup::BACKUP_FORMAT.to_owned(),
            database: "crafty".to_owned(),
            version,
            stores,
        })
        .unwrap()
    })
}

/// Whether `backend` holds database `name` (opening it runs no first upgrade).
fn exists(backend: &MemoryBackend, name: &str) -> bool {
    let mut fresh = false;
    let _ = block_on(backend.open(name, 1, |up| {
        fresh = up.old_version() == 0;
        Ok(())
    }));
    !fresh
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_damaged_backup_restores_whole_or_not_at_all(
        bytes in prop_oneof![mutated(sample_backup(), 7), odd_backup()]
    ) {
        let Ok(backup) = serde_json::from_slice::<DatabaseBackup>(&bytes) else {
            return Ok(());
        };
        let backend = MemoryBackend::new();
        match block_on(restore_database(&backend, &backup, "target")) {
            Ok(db) => {
                prop_assert_eq!(db.version(), backup.version);
                for store in &backup.stores {
                    let held = block_on(db.transaction(
                        &[&store.name],
                        TransactionMode::ReadOnly,
                        async |tx| tx.get_all_raw(&store.name).await,
                    ))
                    .unwrap();
                    for record in &store.records {
                        let bytes = record.value.to_bytes().unwrap();
                        prop_assert!(held.iter().any(|(k, v)| *k == record.key && *v == bytes));
                    }
                }
            }
            Err(_) => prop_assert!(!exists(&backend, "target"), "a refused restore left a database"),
        }
    }

    #[test]
    fn a_damaged_record_envelope_is_refused_without_panicking(
        bytes in mutated(br#"{"version":3,"data":{"name":"World 1","seed":1000}}"#.to_vec(), 7)
    ) {
        // What `import` checks before writing anything.
        if let Err(error) = record_version("worlds", "w1", &bytes) {
            prop_assert!(error.to_string().contains("w1"), "{}", error);
        }
    }
}
