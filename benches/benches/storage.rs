//! World persistence: the native storage backend (`redb` through the
//! `taos_engine::storage` traits) side by side with `rusqlite` (bundled SQLite)
//! doing the same work in the same run, on files in the same temp directory.
//!
//! Two SQLite baselines: `rusqlite` runs its defaults (rollback journal,
//! `synchronous=FULL`), `rusqlite_wal` runs in WAL mode (`journal_mode=WAL`,
//! with `synchronous=FULL` so a commit is as durable as on the other sides:
//! SQLite's WAL mode is often run with `NORMAL`, which may lose the last
//! commits on power loss).
//!
//! Cases (each write is its own durable transaction on every side: redb
//! commits with `Durability::Immediate`, both SQLite files fsync every commit):
//! - `put/1KiB`, `put/1MiB`: replace one record of that size.
//! - `get/1KiB`, `get/1MiB`: read it back in a read-only transaction.
//! - `get_all_10k`: read all 10,000 records (100-byte values) of a store in key
//!   order; `taos_typed` also decodes each record's envelope into a struct,
//!   which is what a saved-world list does.
//!
//! Run: `cargo bench -p taos_benches --bench storage -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use taos_engine::storage::{
    Database, Record, RedbBackend, RedbDatabase, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on,
};

const SIZES: [(&str, usize); 2] = [("1KiB", 1024), ("1MiB", 1024 * 1024)];
const MANY: usize = 10_000;

#[derive(Serialize, Deserialize)]
struct Small {
    name: String,
    n: u64,
}
impl Record for Small {}

fn small(n: usize) -> Small {
    Small {
        name: format!("{n:0>70}"),
        n: n as u64,
    }
}

fn taos(dir: &std::path::Path) -> RedbDatabase {
    block_on(RedbBackend::new(dir).open("bench", 1, |up| {
        up.create_store("blobs")?;
        up.create_store("many")?;
        Ok(())
    }))
    .unwrap()
}

/// The SQLite baseline: its defaults, or WAL mode when `wal`.
fn sqlite(dir: &std::path::Path, wal: bool) -> Connection {
    let file = if wal {
        "bench-wal.sqlite"
    } else {
        "bench.sqlite"
    };
    let conn = Connection::open(dir.join(file)).unwrap();
    if wal {
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        conn.execute_batch("PRAGMA synchronous=FULL").unwrap();
    }
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, value BLOB NOT NULL);
         CREATE TABLE IF NOT EXISTS many (key TEXT PRIMARY KEY, value BLOB NOT NULL);",
    )
    .unwrap();
    conn
}

fn taos_put(db: &RedbDatabase, store: &str, key: &str, value: &[u8]) {
    block_on(
        db.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
            tx.put_raw(store, key, value).await
        }),
    )
    .unwrap();
}

fn taos_get(db: &RedbDatabase, store: &str, key: &str) -> Option<Vec<u8>> {
    block_on(
        db.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
            tx.get_raw(store, key).await
        }),
    )
    .unwrap()
}

fn sqlite_put(conn: &mut Connection, key: &str, value: &[u8]) {
    let tx = conn.transaction().unwrap();
    tx.prepare_cached("INSERT OR REPLACE INTO blobs (key, value) VALUES (?1, ?2)")
        .unwrap()
        .execute(params![key, value])
        .unwrap();
    tx.commit().unwrap();
}

fn sqlite_get(conn: &Connection, key: &str) -> Option<Vec<u8>> {
    conn.prepare_cached("SELECT value FROM blobs WHERE key = ?1")
        .unwrap()
        .query_row(params![key], |row| row.get(0))
        .optional()
        .unwrap()
}

/// Every `(key, value)` of the `many` table in key order (raw bytes, not
/// decoded: the baseline for both of Taos's `get_all` rows).
fn sqlite_get_all(conn: &Connection) -> Vec<(String, Vec<u8>)> {
    let mut stmt = conn
        .prepare_cached("SELECT key, value FROM many ORDER BY key")
        .unwrap();
    let records: Vec<(String, Vec<u8>)> = stmt
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(records.len(), MANY);
    records
}

fn storage(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let db = taos(dir.path());
    let mut conn = sqlite(dir.path(), false);
    let mut wal = sqlite(dir.path(), true);

    let mut put = c.benchmark_group("storage/put");
    put.sample_size(20);
    for (label, size) in SIZES {
        let value: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        put.throughput(Throughput::Bytes(size as u64));
        put.bench_function(BenchmarkId::new("taos_redb", label), |b| {
            b.iter(|| taos_put(&db, "blobs", label, black_box(&value)));
        });
        put.bench_function(BenchmarkId::new("rusqlite", label), |b| {
            b.iter(|| sqlite_put(&mut conn, label, black_box(&value)));
        });
        put.bench_function(BenchmarkId::new("rusqlite_wal", label), |b| {
            b.iter(|| sqlite_put(&mut wal, label, black_box(&value)));
        });
    }
    put.finish();

    let mut get = c.benchmark_group("storage/get");
    get.sample_size(20);
    for (label, size) in SIZES {
        get.throughput(Throughput::Bytes(size as u64));
        get.bench_function(BenchmarkId::new("taos_redb", label), |b| {
            b.iter(|| {
                assert_eq!(
                    taos_get(&db, "blobs", black_box(label)).unwrap().len(),
                    size
                )
            });
        });
        get.bench_function(BenchmarkId::new("rusqlite", label), |b| {
            b.iter(|| assert_eq!(sqlite_get(&conn, black_box(label)).unwrap().len(), size));
        });
        get.bench_function(BenchmarkId::new("rusqlite_wal", label), |b| {
            b.iter(|| assert_eq!(sqlite_get(&wal, black_box(label)).unwrap().len(), size));
        });
    }
    get.finish();

    // 10,000 records written once, on both sides, in one transaction each.
    block_on(
        db.transaction(&["many"], TransactionMode::ReadWrite, async |tx| {
            for n in 0..MANY {
                tx.put("many", &format!("{n:06}"), &small(n)).await?;
            }
            Ok::<_, StorageError>(())
        }),
    )
    .unwrap();
    let raw = block_on(
        db.transaction(&["many"], TransactionMode::ReadOnly, async |tx| {
            tx.get_all_raw("many").await
        }),
    )
    .unwrap();
    for conn in [&mut conn, &mut wal] {
        let tx = conn.transaction().unwrap();
        for (key, value) in &raw {
            tx.execute(
                "INSERT OR REPLACE INTO many (key, value) VALUES (?1, ?2)",
                params![key, value],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }

    let mut all = c.benchmark_group("storage/get_all_10k");
    all.sample_size(20);
    all.throughput(Throughput::Elements(MANY as u64));
    all.bench_function("taos_redb", |b| {
        b.iter(|| {
            let records = block_on(db.transaction(
                &["many"],
                TransactionMode::ReadOnly,
                async |tx| tx.get_all_raw("many").await,
            ))
            .unwrap();
            assert_eq!(records.len(), MANY);
            records
        });
    });
    all.bench_function("taos_redb_typed", |b| {
        b.iter(|| {
            let records = block_on(db.get_all::<Small>("many")).unwrap();
            assert_eq!(records.len(), MANY);
            records
        });
    });
    all.bench_function("rusqlite", |b| b.iter(|| sqlite_get_all(&conn)));
    all.bench_function("rusqlite_wal", |b| b.iter(|| sqlite_get_all(&wal)));
    all.finish();
}

criterion_group!(benches, storage);
criterion_main!(benches);
