//! Property test: mutated settings and key-bindings records (bytes flipped,
//! inserted, removed, cut off; in the JSON envelope and in the bindings
//! bytes inside it) never panic the loader: it gives settings in range, or
//! the defaults with a warning, and a save afterwards writes or refuses
//! cleanly. 256 cases (`TAOS_FUZZ_CASES` for more; see `taos_hostile_inputs`).

use proptest::prelude::*;
use taos_engine::storage::{MemoryBackend, Transaction, TransactionMode, block_on};
use taos_hostile_inputs::{config, mutated};

use super::*;

/// A settings record as this build stores it, with values off the defaults.
fn settings_record() -> Vec<u8> {
    let settings = Settings {
        mouse_sensitivity: 2.5,
        fov_degrees: 80.0,
        view_distance: 6,
        shadows: ShadowQuality::High,
        ..Settings::default()
    };
    serde_json::to_vec(&serde_json::json!({"version": Settings::VERSION, "data": settings}))
        .unwrap()
}

fn bindings_bytes() -> Vec<u8> {
    default_bindings().to_record()
}

fn envelope(data: &[u8]) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({"version": 1, "data": data})).unwrap()
}

fn stored_pair() -> impl Strategy<Value = (Vec<u8>, Vec<u8>)> {
    let bindings = prop_oneof![
        mutated(envelope(&bindings_bytes()), 7),
        mutated(bindings_bytes(), 7).prop_map(|inner| envelope(&inner)),
    ];
    (mutated(settings_record(), 7), bindings)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_records_load_without_panicking((settings, bindings) in stored_pair()) {
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        block_on(store.database().transaction(
            &[SETTINGS_STORE],
            TransactionMode::ReadWrite,
            async |tx| {
                tx.put_raw(SETTINGS_STORE, SETTINGS_KEY, &settings).await?;
                tx.put_raw(SETTINGS_STORE, BINDINGS_KEY, &bindings).await
            },
        ))
        .unwrap();
        let loaded = block_on(PlayerSettings::load(&store)).unwrap();
        prop_assert_eq!(loaded.settings.clone(), loaded.settings.clone().sanitized());
        match block_on(loaded.save(&store)) {
            Ok(()) | Err(StorageError::NewerRecord { .. }) => {}
            Err(other) => prop_assert!(false, "save failed: {other}"),
        }
    }
}
