//! Property test: mutated settings and key-bindings records (bytes flipped,
//! inserted, removed, cut off; in the JSON envelope and in the bindings
//! bytes inside it) never panic the loader: it gives settings in range, or
//! the defaults with a warning, and a save afterwards writes or refuses
//! cleanly. 256 cases.

use proptest::prelude::*;
use proptest::sample::Index;
use taos_engine::storage::{MemoryBackend, Transaction, TransactionMode, block_on};

use super::*;

/// `base` with 1 to 7 random edits.
fn mutated(base: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0..4_u8, any::<Index>(), any::<u8>()), 1..8).prop_map(move |edits| {
        let mut bytes = base.clone();
        for (kind, at, byte) in edits {
            match kind {
                0 if !bytes.is_empty() => {
                    let i = at.index(bytes.len());
                    bytes[i] = byte;
                }
                1 => bytes.insert(at.index(bytes.len() + 1), byte),
                2 if !bytes.is_empty() => {
                    bytes.remove(at.index(bytes.len()));
                }
                _ => bytes.truncate(at.index(bytes.len() + 1)),
            }
        }
        bytes
    })
}

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
        mutated(envelope(&bindings_bytes())),
        mutated(bindings_bytes()).prop_map(|inner| envelope(&inner)),
    ];
    (mutated(settings_record()), bindings)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

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
