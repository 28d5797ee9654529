//! The conformance suite every [`StorageBackend`] must pass.
//!
//! Public so the engine's tests run it against each backend and so a new
//! backend can run it too. Each check opens (after deleting) its own database
//! named `conformance-<check>`, and **panics** with a message on the first
//! behaviour that differs from the contract, like a test assertion.
//!
//! ```
//! use taos_storage::{MemoryBackend, block_on, conformance};
//! block_on(conformance::crud(&MemoryBackend::new()));
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Database, Record, StorageBackend, StorageError, Transaction, TransactionMode};

/// A record type with one upgrade step, as a game's save would have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// A payload.
    pub name: String,
    /// A number, for ordering checks.
    pub n: u64,
    /// Added in version 2; version-1 records get `"creative"`.
    pub mode: String,
}

impl Sample {
    /// A sample record numbered `n`.
    #[must_use]
    pub fn new(n: u64) -> Self {
        Self {
            name: format!("record {n}"),
            n,
            mode: "survival".into(),
        }
    }
}

impl Record for Sample {
    const VERSION: u32 = 2;
    fn upgrade(from: u32, mut data: Value) -> Result<Value, String> {
        match from {
            1 => {
                data["mode"] = json!("creative");
                Ok(data)
            }
            _ => Err(format!("no step from version {from}")),
        }
    }
}

const RW: TransactionMode = TransactionMode::ReadWrite;
const RO: TransactionMode = TransactionMode::ReadOnly;

async fn fresh<B: StorageBackend>(backend: &B, check: &str, stores: &[&str]) -> B::Database {
    let name = format!("conformance-{check}");
    backend
        .delete_database(&name)
        .await
        .expect("delete database");
    backend
        .open(&name, 1, |up| {
            for store in stores {
                up.create_store(store)?;
            }
            Ok(())
        })
        .await
        .expect("open a fresh database")
}

/// Runs every check in order.
pub async fn run_all<B: StorageBackend>(backend: &B) {
    crud(backend).await;
    key_order(backend).await;
    get_all_10k(backend).await;
    spanning_transaction(backend).await;
    rollback_on_error(backend).await;
    read_only_refuses_writes(backend).await;
    reopen_after_close(backend).await;
    upgrade_keeps_data(backend).await;
    record_versions(backend).await;
    bad_record_isolated(backend).await;
}

/// Runs the whole suite against the browser's IndexedDB (wasm32 only). The
/// wasm32 build type-checks the suite for that backend through this function;
/// `engine/tests/storage_indexeddb.rs` runs the checks one by one in a browser.
#[cfg(target_arch = "wasm32")]
pub async fn run_indexeddb() {
    run_all(&super::IndexedDbBackend::new()).await;
}

/// Put, get, overwrite, delete, clear; a missing key reads as `None`.
pub async fn crud<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "crud", &["s"]).await;
    assert_eq!(db.get::<Sample>("s", "a").await.unwrap(), None);
    db.put("s", "a", &Sample::new(1)).await.unwrap();
    db.put("s", "b", &Sample::new(2)).await.unwrap();
    assert_eq!(
        db.get::<Sample>("s", "a").await.unwrap(),
        Some(Sample::new(1))
    );
    db.put("s", "a", &Sample::new(10)).await.unwrap();
    assert_eq!(
        db.get::<Sample>("s", "a").await.unwrap(),
        Some(Sample::new(10))
    );
    db.delete("s", "a").await.unwrap();
    db.delete("s", "never-there").await.unwrap();
    assert_eq!(db.get::<Sample>("s", "a").await.unwrap(), None);
    assert_eq!(
        db.get::<Sample>("s", "b").await.unwrap(),
        Some(Sample::new(2))
    );
    db.clear("s").await.unwrap();
    assert!(db.get_all::<Sample>("s").await.unwrap().is_empty());
    let missing = db.get::<Sample>("nope", "a").await;
    assert!(
        matches!(missing, Err(StorageError::NoSuchStore { ref store, .. }) if store == "nope"),
        "unknown store: {missing:?}"
    );
}

/// `get_all` and `keys` return records in key order, whatever the insertion order.
pub async fn key_order<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "key-order", &["s"]).await;
    let keys = ["m", "a", "z", "A", "aa", "0", "b-1", "b", "é"];
    for (i, key) in keys.iter().enumerate() {
        db.put("s", key, &Sample::new(i as u64)).await.unwrap();
    }
    let mut sorted = keys.map(str::to_owned).to_vec();
    sorted.sort();
    let got: Vec<String> = db
        .get_all::<Sample>("s")
        .await
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(got, sorted);
    let listed = db
        .transaction(&["s"], RO, async |tx| tx.keys("s").await)
        .await
        .unwrap();
    assert_eq!(listed, sorted);
}

/// 10,000 records written in one transaction come back complete and in order.
pub async fn get_all_10k<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "get-all-10k", &["s"]).await;
    db.transaction(&["s"], RW, async |tx| {
        for n in 0..10_000_u64 {
            tx.put("s", &format!("{n:05}"), &Sample::new(n)).await?;
        }
        Ok::<_, StorageError>(())
    })
    .await
    .unwrap();
    let all = db.get_all::<Sample>("s").await.unwrap();
    assert_eq!(all.len(), 10_000);
    for (i, (key, value)) in all.iter().enumerate() {
        assert_eq!(key, &format!("{i:05}"));
        assert_eq!(value, &Sample::new(i as u64));
    }
}

/// One transaction writes two stores; both writes are visible after commit;
/// a read-only transaction over both sees them together.
pub async fn spanning_transaction<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "spanning", &["worlds", "meta"]).await;
    db.transaction(&["worlds", "meta"], RW, async |tx| {
        tx.put("worlds", "w1", &Sample::new(1)).await?;
        tx.put("meta", "count", &Sample::new(1)).await?;
        // Reads inside the transaction see its own writes.
        assert_eq!(
            tx.get::<Sample>("worlds", "w1").await?,
            Some(Sample::new(1))
        );
        Ok::<_, StorageError>(())
    })
    .await
    .unwrap();
    let (w, m) = db
        .transaction(&["worlds", "meta"], RO, async |tx| {
            let w = tx.get::<Sample>("worlds", "w1").await?;
            let m = tx.get::<Sample>("meta", "count").await?;
            Ok::<_, StorageError>((w, m))
        })
        .await
        .unwrap();
    assert_eq!((w, m), (Some(Sample::new(1)), Some(Sample::new(1))));
    let outside = db
        .transaction(&["worlds"], RO, async |tx| {
            tx.get::<Sample>("meta", "count").await
        })
        .await;
    assert!(
        matches!(outside, Err(StorageError::NotInTransaction { .. })),
        "store outside the transaction: {outside:?}"
    );
}

/// A transaction whose work fails leaves no trace in any store; so does an
/// explicit abort or a dropped transaction.
pub async fn rollback_on_error<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "rollback", &["a", "b"]).await;
    db.put("a", "keep", &Sample::new(1)).await.unwrap();
    let failed: Result<(), StorageError> = db
        .transaction(&["a", "b"], RW, async |tx| {
            tx.put("a", "new", &Sample::new(2)).await?;
            tx.put("b", "new", &Sample::new(2)).await?;
            tx.delete("a", "keep").await?;
            Err(StorageError::decode("a", "new", "the game refused"))
        })
        .await;
    assert!(failed.is_err());
    assert_eq!(db.get::<Sample>("a", "new").await.unwrap(), None);
    assert_eq!(db.get::<Sample>("b", "new").await.unwrap(), None);
    assert_eq!(
        db.get::<Sample>("a", "keep").await.unwrap(),
        Some(Sample::new(1))
    );

    let mut tx = db.begin(&["a"], RW).await.unwrap();
    tx.put("a", "aborted", &Sample::new(3)).await.unwrap();
    tx.abort().await.unwrap();
    assert_eq!(db.get::<Sample>("a", "aborted").await.unwrap(), None);

    let mut tx = db.begin(&["a"], RW).await.unwrap();
    tx.put("a", "committed", &Sample::new(4)).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        db.get::<Sample>("a", "committed").await.unwrap(),
        Some(Sample::new(4))
    );
}

/// Writes in a read-only transaction are refused.
pub async fn read_only_refuses_writes<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "read-only", &["s"]).await;
    let mut tx = db.begin(&["s"], RO).await.unwrap();
    let put = tx.put("s", "k", &Sample::new(1)).await;
    assert!(matches!(put, Err(StorageError::ReadOnly { .. })), "{put:?}");
    let clear = tx.clear("s").await;
    assert!(
        matches!(clear, Err(StorageError::ReadOnly { .. })),
        "{clear:?}"
    );
    tx.abort().await.unwrap();
    assert_eq!(db.get::<Sample>("s", "k").await.unwrap(), None);
}

/// Records and stores survive closing and opening the database again.
pub async fn reopen_after_close<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "reopen", &["s"]).await;
    db.put("s", "k", &Sample::new(5)).await.unwrap();
    let name = db.name().to_owned();
    db.close();
    let db = backend
        .open(&name, 1, |up| {
            Err(up.fail("no upgrade expected at the same version"))
        })
        .await
        .unwrap();
    assert_eq!(db.version(), 1);
    assert_eq!(db.store_names(), vec!["s".to_string()]);
    assert_eq!(
        db.get::<Sample>("s", "k").await.unwrap(),
        Some(Sample::new(5))
    );
}

/// Opening at version 2 runs the upgrade with `old_version` 1, adds a store
/// and keeps every record; a failed upgrade changes nothing; an older version
/// is refused.
pub async fn upgrade_keeps_data<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "upgrade", &["worlds"]).await;
    db.put("worlds", "w1", &Sample::new(1)).await.unwrap();
    let name = db.name().to_owned();
    db.close();

    let refused = backend
        .open(&name, 2, |up| {
            up.create_store("doomed")?;
            Err(up.fail("refused on purpose"))
        })
        .await;
    assert!(
        matches!(refused, Err(StorageError::UpgradeFailed { .. })),
        "{refused:?}"
    );

    let mut seen = None;
    let db = backend
        .open(&name, 2, |up| {
            seen = Some((up.old_version(), up.new_version()));
            assert!(up.has_store("worlds"));
            assert!(!up.has_store("doomed"), "a failed upgrade left a store");
            up.create_store("settings")?;
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(seen, Some((1, 2)));
    assert_eq!(db.version(), 2);
    assert_eq!(
        db.store_names(),
        vec!["settings".to_string(), "worlds".to_string()]
    );
    assert_eq!(
        db.get::<Sample>("worlds", "w1").await.unwrap(),
        Some(Sample::new(1))
    );
    db.put("settings", "fov", &Sample::new(90)).await.unwrap();
    db.close();

    let older = backend.open(&name, 1, |_| Ok(())).await;
    assert!(
        matches!(
            older,
            Err(StorageError::VersionTooOld {
                existing: 2,
                requested: 1,
                ..
            })
        ),
        "{older:?}"
    );
    let db = backend.open(&name, 2, |_| Ok(())).await.unwrap();
    assert_eq!(
        db.get::<Sample>("settings", "fov").await.unwrap(),
        Some(Sample::new(90))
    );
}

/// A version-1 record is upgraded on load; a record from a newer version is
/// refused with an error naming store and key and stays byte-for-byte as it was.
pub async fn record_versions<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "record-versions", &["s"]).await;
    let old = br#"{"version":1,"data":{"name":"old","n":3}}"#;
    let newer = br#"{"version":9,"data":{"name":"future","n":4,"mode":"x","more":1}}"#;
    db.transaction(&["s"], RW, async |tx| {
        tx.put_raw("s", "old", old).await?;
        tx.put_raw("s", "newer", newer).await?;
        Ok::<_, StorageError>(())
    })
    .await
    .unwrap();
    let upgraded = db.get::<Sample>("s", "old").await.unwrap().unwrap();
    assert_eq!(upgraded.mode, "creative");
    assert_eq!(upgraded.n, 3);
    let refused = db.get::<Sample>("s", "newer").await;
    match refused {
        Err(StorageError::NewerRecord {
            store,
            key,
            found: 9,
            supported: 2,
        }) => {
            assert_eq!((store.as_str(), key.as_str()), ("s", "newer"));
        }
        other => panic!("a newer record must be refused, got {other:?}"),
    }
    // A version with no upgrade step is a migration error naming the record.
    db.transaction(&["s"], RW, async |tx| {
        tx.put_raw("s", "ancient", br#"{"version":0,"data":{}}"#)
            .await
    })
    .await
    .unwrap();
    match db.get::<Sample>("s", "ancient").await {
        Err(StorageError::Migration {
            store,
            key,
            from: 0,
            ..
        }) => {
            assert_eq!((store.as_str(), key.as_str()), ("s", "ancient"));
        }
        other => panic!("a record with no upgrade step must fail, got {other:?}"),
    }
    let raw = db
        .transaction(&["s"], RO, async |tx| tx.get_raw("s", "newer").await)
        .await
        .unwrap();
    assert_eq!(
        raw.as_deref(),
        Some(&newer[..]),
        "the newer record was modified"
    );
}

/// A record that fails to decode gives an error naming store and key; the
/// other records stay readable, one by one and through `get_each`.
pub async fn bad_record_isolated<B: StorageBackend>(backend: &B) {
    let db = fresh(backend, "bad-record", &["s"]).await;
    db.put("s", "a", &Sample::new(1)).await.unwrap();
    db.put("s", "c", &Sample::new(3)).await.unwrap();
    db.transaction(&["s"], RW, async |tx| {
        tx.put_raw("s", "b", b"\xff not json").await
    })
    .await
    .unwrap();
    let bad = db.get::<Sample>("s", "b").await;
    match &bad {
        Err(e @ StorageError::Decode { store, key, .. }) => {
            assert_eq!((store.as_str(), key.as_str()), ("s", "b"));
            let text = e.to_string();
            assert!(text.contains("\"b\"") && text.contains("\"s\""), "{text}");
        }
        other => panic!("undecodable record: {other:?}"),
    }
    assert_eq!(
        db.get::<Sample>("s", "a").await.unwrap(),
        Some(Sample::new(1))
    );
    assert!(matches!(
        db.get_all::<Sample>("s").await,
        Err(StorageError::Decode { .. })
    ));
    let each = db
        .transaction(&["s"], RO, async |tx| tx.get_each::<Sample>("s").await)
        .await
        .unwrap();
    assert_eq!(each.len(), 3);
    assert_eq!(each[0].1.as_ref().unwrap(), &Sample::new(1));
    assert!(each[1].1.is_err());
    assert_eq!(each[2].1.as_ref().unwrap(), &Sample::new(3));
}
