//! The native backend under injected disk faults: a full disk or a failing
//! write, length change or sync at every point of a commit. Whatever fails,
//! nothing committed before is lost, the same handle writes again once the
//! fault is gone, and a reopened file holds exactly what was committed.

#![cfg(not(target_arch = "wasm32"))]

use taos_storage::faults::{FileFaults, FileOp, InjectedError};
use taos_storage::{Database, RedbBackend, RedbDatabase, StorageBackend, block_on};

const STORE: &str = "worlds";

fn open(backend: &RedbBackend) -> RedbDatabase {
    block_on(backend.open("saves", 1, |up| up.create_store(STORE).map(drop))).unwrap()
}

fn put(db: &RedbDatabase, key: &str, value: &[u8]) -> Result<(), taos_storage::StorageError> {
    block_on(db.transaction(
        &[STORE],
        taos_storage::TransactionMode::ReadWrite,
        async |tx| {
            use taos_storage::Transaction as _;
            tx.put_raw(STORE, key, value).await
        },
    ))
}

fn get(db: &RedbDatabase, key: &str) -> Option<Vec<u8>> {
    block_on(db.transaction(
        &[STORE],
        taos_storage::TransactionMode::ReadOnly,
        async |tx| {
            use taos_storage::Transaction as _;
            tx.get_raw(STORE, key).await
        },
    ))
    .unwrap()
}

/// Bytes that differ per key, large enough to span several pages.
fn value(seed: u8) -> Vec<u8> {
    (0..40_000_u32)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// How many calls of each operation one commit of a new value makes.
fn calls_per_commit() -> taos_storage::faults::OpCounts {
    let dir = tempfile::tempdir().unwrap();
    let faults = FileFaults::new();
    let db = open(&RedbBackend::with_faults(dir.path(), faults.clone()));
    put(&db, "a", &value(1)).unwrap();
    let before = faults.counts();
    put(&db, "b", &value(2)).unwrap();
    let after = faults.counts();
    taos_storage::faults::OpCounts {
        writes: after.writes - before.writes,
        set_lens: after.set_lens - before.set_lens,
        syncs: after.syncs - before.syncs,
    }
}

/// One injection: `a` is committed, the commit of `b` meets the fault, the
/// fault clears, `b` is written again on the same handle.
fn survive(op: FileOp, nth: u64, error: InjectedError, once: bool) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let faults = FileFaults::new();
    let db = open(&RedbBackend::with_faults(dir.path(), faults.clone()));
    put(&db, "a", &value(1)).unwrap();
    if once {
        faults.fail_once(op, nth, error);
    } else {
        faults.fail_from(op, nth, error);
    }
    let first = put(&db, "b", &value(2));
    if let Err(e) = &first {
        assert_eq!(
            e.is_full(),
            error == InjectedError::Full,
            "{op:?} #{nth}: {e}"
        );
    }
    // Whatever happened, "a" reads back (a reopen if needed).
    faults.clear();
    assert_eq!(get(&db, "a"), Some(value(1)), "{op:?} #{nth} lost a");
    put(&db, "b", &value(2)).unwrap_or_else(|e| panic!("{op:?} #{nth}: retry failed: {e}"));
    put(&db, "c", &value(3)).unwrap();
    drop(db);
    let db = open(&RedbBackend::new(dir.path()));
    assert_eq!(get(&db, "a"), Some(value(1)));
    assert_eq!(get(&db, "b"), Some(value(2)));
    assert_eq!(get(&db, "c"), Some(value(3)));
    faults.injected() > 0
}

#[test]
fn every_write_sync_and_resize_of_a_commit_can_fail_without_losing_anything() {
    let calls = calls_per_commit();
    assert!(calls.writes > 0 && calls.syncs > 0, "{calls:?}");
    let mut injected = 0;
    for op in [FileOp::Write, FileOp::SetLen, FileOp::Sync] {
        // One past the last call too: the fault then never fires.
        for nth in 0..=calls.of(op) {
            for error in [InjectedError::Full, InjectedError::Io] {
                for once in [false, true] {
                    injected += u32::from(survive(op, nth, error, once));
                }
            }
        }
    }
    assert!(
        injected >= 4 * (calls.writes + calls.syncs) as u32,
        "{injected} {calls:?}"
    );
}

#[test]
fn a_disk_that_stays_full_fails_every_write_then_recovers_on_the_same_handle() {
    let dir = tempfile::tempdir().unwrap();
    let faults = FileFaults::new();
    let db = open(&RedbBackend::with_faults(dir.path(), faults.clone()));
    put(&db, "a", &value(1)).unwrap();
    faults.fail_from(FileOp::Write, 0, InjectedError::Full);
    for attempt in 0..3 {
        let error = put(&db, "b", &value(2)).unwrap_err();
        // Every retry reports a full disk, not redb's "previous I/O error".
        assert!(error.is_full(), "attempt {attempt}: {error}");
    }
    faults.clear();
    assert_eq!(get(&db, "b"), None);
    put(&db, "b", &value(2)).unwrap();
    assert_eq!(get(&db, "b"), Some(value(2)));
}

/// A small tmpfs, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a 4 MiB tmpfs, or says why it cannot (not root, no `mount`).
    fn mount() -> Result<Self, String> {
        if !cfg!(target_os = "linux") {
            return Err("only Linux has tmpfs".into());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m", "taos-full-disk"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if status.success() {
            Ok(Self { dir })
        } else {
            Err(format!("mount -t tmpfs failed ({status}); it needs root"))
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

#[test]
fn a_real_full_file_system_refuses_writes_then_the_same_handle_resumes() {
    let disk = match SmallDisk::mount() {
        Ok(disk) => disk,
        Err(reason) => {
            println!("skipped: no small file system to fill: {reason}");
            return;
        }
    };
    let db = open(&RedbBackend::new(disk.dir.path()));
    put(&db, "a", &value(1)).unwrap();
    // Fill what is left with another file.
    let filler = disk.dir.path().join("filler");
    {
        use std::io::Write as _;
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![7_u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
    }
    let mut full = None;
    for n in 0..64 {
        if let Err(e) = put(&db, &format!("b{n}"), &value(2)) {
            full = Some((n, e));
            break;
        }
    }
    let (n, error) = full.expect("a full disk refused no write");
    assert!(error.is_full(), "{error}");
    std::fs::remove_file(&filler).unwrap();
    put(&db, &format!("b{n}"), &value(2)).unwrap();
    drop(db);
    let db = open(&RedbBackend::new(disk.dir.path()));
    assert_eq!(get(&db, "a"), Some(value(1)));
    for k in 0..=n {
        assert_eq!(get(&db, &format!("b{k}")), Some(value(2)), "b{k}");
    }
}
