//! `taos-db` never damages what it is pointed at: an import does not bump a
//! database's schema behind the game's back, an export or backup never
//! overwrites a file it should not (an existing export, a database file), and
//! a restore killed at any moment leaves no half-restored database.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use support::{ok, taos_db};
use taos_storage::{
    Database, RedbBackend, RedbDatabase, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on,
};

/// Fails, with stderr containing every one of `words`.
fn refused(output: &Output, words: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "expected a refusal: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "{word:?} missing from: {stderr}");
    }
}

/// Database `crafty` at schema version 2 with stores `worlds` and `meta`.
fn game_db(dir: &Path) -> RedbDatabase {
    let db = block_on(RedbBackend::new(dir).open("crafty", 2, |up| {
        up.create_store("worlds")?;
        up.create_store("meta")?;
        Ok(())
    }))
    .unwrap();
    block_on(db.put("worlds", "w1", &7_u32)).unwrap();
    db
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn import_into_a_missing_store_or_database_is_refused_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    drop(game_db(d));
    let export = d.join("worlds.json");
    ok(taos_db(d, &["export", "crafty", "worlds", path(&export)]));
    // A store the game does not have: adding it would need schema version 3,
    // and a game opening version 2 would then refuse the whole database.
    let out = taos_db(d, &["import", "crafty", "extra", path(&export)]);
    refused(&out, &["no store \"extra\"", "--create-stores"]);
    let backend = RedbBackend::new(d);
    assert_eq!(backend.existing_version("crafty").unwrap(), Some(2));
    let db = block_on(backend.open("crafty", 2, |_| Ok(()))).unwrap();
    assert_eq!(db.store_names(), ["meta", "worlds"], "nothing added");
    drop(db);

    // A database that does not exist is not created.
    let out = taos_db(d, &["import", "elsewhere", "worlds", path(&export)]);
    refused(&out, &["no database \"elsewhere\"", "--create-stores"]);
    assert!(!d.join("elsewhere.redb").exists());

    // Asked for, both are made.
    ok(taos_db(
        d,
        &[
            "import",
            "crafty",
            "extra",
            path(&export),
            "--create-stores",
        ],
    ));
    assert_eq!(backend.existing_version("crafty").unwrap(), Some(3));
    ok(taos_db(
        d,
        &[
            "import",
            "elsewhere",
            "worlds",
            path(&export),
            "--create-stores",
        ],
    ));
    assert_eq!(backend.existing_version("elsewhere").unwrap(), Some(1));
    // An existing store needs no flag and keeps the version.
    ok(taos_db(d, &["import", "crafty", "worlds", path(&export)]));
    assert_eq!(backend.existing_version("crafty").unwrap(), Some(3));
}

#[test]
fn export_never_overwrites_without_force_and_never_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    drop(game_db(d));
    let export = d.join("worlds.json");
    std::fs::write(&export, "precious").unwrap();

    let out = taos_db(d, &["export", "crafty", "worlds", path(&export)]);
    refused(&out, &["already exists", "--force"]);
    assert_eq!(std::fs::read_to_string(&export).unwrap(), "precious");

    ok(taos_db(
        d,
        &["export", "crafty", "worlds", path(&export), "--force"],
    ));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&export).unwrap()).unwrap();
    assert_eq!(json["records"][0]["key"], "w1");
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A database file is refused even with --force.
    let db_file = d.join("crafty.redb");
    let before = std::fs::read(&db_file).unwrap();
    let out = taos_db(
        d,
        &["export", "crafty", "worlds", path(&db_file), "--force"],
    );
    refused(&out, &["crafty.redb", "database"]);
    assert!(
        std::fs::read(&db_file).unwrap() == before,
        "the database is untouched"
    );
}

#[test]
fn backup_refuses_to_write_over_a_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    drop(game_db(d));
    drop(block_on(RedbBackend::new(d).open("other", 1, |_| Ok(()))).unwrap());
    let live = d.join("crafty.redb");
    let before = std::fs::read(&live).unwrap();
    let other_before = std::fs::read(d.join("other.redb")).unwrap();

    // The live database, directly and by a path that resolves to it.
    refused(
        &taos_db(d, &["backup", "crafty", path(&live)]),
        &["crafty.redb"],
    );
    std::fs::create_dir(d.join("sub")).unwrap();
    let roundabout = d.join("sub").join("..").join("crafty.redb");
    refused(
        &taos_db(d, &["backup", "crafty", path(&roundabout)]),
        &["crafty.redb"],
    );
    #[cfg(unix)]
    {
        let link = d.join("sub").join("innocent.json");
        std::os::unix::fs::symlink(&live, &link).unwrap();
        refused(
            &taos_db(d, &["backup", "crafty", path(&link)]),
            &["crafty.redb"],
        );
    }
    // Another database of the same data directory.
    refused(
        &taos_db(d, &["backup", "crafty", path(&d.join("other.redb"))]),
        &["other.redb"],
    );
    assert!(
        std::fs::read(&live).unwrap() == before,
        "the live database is untouched"
    );
    assert!(std::fs::read(d.join("other.redb")).unwrap() == other_before);
    // The database still opens with its record.
    let db = block_on(RedbBackend::new(d).open("crafty", 2, |_| Ok(()))).unwrap();
    assert_eq!(block_on(db.get::<u32>("worlds", "w1")).unwrap(), Some(7));
}

/// A backup of `crafty` with `records` records in `worlds`.
fn big_backup(dir: &Path, records: u32) -> std::path::PathBuf {
    let source = dir.join("source");
    let db = game_db(&source);
    block_on(
        db.transaction(&["worlds"], TransactionMode::ReadWrite, async |tx| {
            for n in 0..records {
                tx.put(
                    "worlds",
                    &format!("w{n:06}"),
                    &format!("world {n} {}", "x".repeat(200)),
                )
                .await?;
            }
            Ok::<_, StorageError>(())
        }),
    )
    .unwrap();
    drop(db);
    let file = dir.join("backup.json");
    ok(taos_db(&source, &["backup", "crafty", path(&file)]));
    file
}

/// `crafty` in `dir` is absent, or complete (`records` + the sample record).
fn absent_or_complete(dir: &Path, records: u32) -> bool {
    let backend = RedbBackend::new(dir);
    let Some(version) = backend.existing_version("crafty").unwrap() else {
        return false;
    };
    let db = block_on(backend.open("crafty", version, |_| Ok(()))).unwrap();
    let keys = block_on(
        db.transaction(&["worlds"], TransactionMode::ReadOnly, async |tx| {
            tx.keys("worlds").await
        }),
    )
    .unwrap();
    assert_eq!(
        keys.len(),
        records as usize + 1,
        "a killed restore left database version {version} with {} of {} records",
        keys.len(),
        records + 1
    );
    true
}

#[test]
fn a_restore_killed_at_any_moment_leaves_nothing_half_done_and_the_next_one_works() {
    const RECORDS: u32 = 20_000;
    let dir = tempfile::tempdir().unwrap();
    let file = big_backup(dir.path(), RECORDS);
    let restore = |target: &Path| {
        Command::new(env!("CARGO_BIN_EXE_taos-db"))
            .arg("--dir")
            .arg(target)
            .arg("restore")
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let timing = dir.path().join("timing");
    let started = Instant::now();
    assert!(restore(&timing).wait().unwrap().success());
    let full = started.elapsed();

    let rounds = 10;
    let mut complete = 0;
    for round in 0..rounds {
        let target = dir.path().join(format!("round-{round}"));
        let mut child = restore(&target);
        // Kill points spread over the whole run.
        std::thread::sleep(full.mul_f64((f64::from(round) + 0.5) / f64::from(rounds)));
        let _ = child.kill();
        let _ = child.wait();
        let finished = absent_or_complete(&target, RECORDS);
        complete += usize::from(finished);
        // The next restore into the same directory works, whatever was left
        // (after one that finished, it is rightly refused).
        let out = taos_db(&target, &["restore", path(&file)]);
        if finished {
            refused(&out, &["already exists"]);
        } else {
            ok(out);
        }
        assert!(absent_or_complete(&target, RECORDS));
        assert_eq!(ok(taos_db(&target, &["databases"])).trim(), "crafty");
    }
    eprintln!("{complete} of {rounds} killed restores had finished; full restore took {full:?}");
    assert!(
        full > Duration::from_millis(1),
        "the restore is long enough to be killed mid-way"
    );
}

#[test]
fn a_restore_after_an_interrupted_one_takes_over_what_it_left() {
    let dir = tempfile::tempdir().unwrap();
    let file = big_backup(dir.path(), 3);
    let target = dir.path().join("target");
    // What the restore's first step leaves: the database at the backup's
    // schema version with its stores, all empty.
    drop(
        block_on(RedbBackend::new(&target).open("crafty", 2, |up| {
            up.create_store("worlds")?;
            up.create_store("meta")?;
            Ok(())
        }))
        .unwrap(),
    );
    // And a staging directory a killed restore left behind.
    let staging = target.join(".restoring-crafty-999999");
    std::fs::create_dir_all(&staging).unwrap();
    std::fs::write(staging.join("crafty.redb"), b"half a file").unwrap();
    ok(taos_db(&target, &["restore", path(&file)]));
    assert!(absent_or_complete(&target, 3));
    assert!(!staging.exists(), "the leftover is cleared");
}
