//! The `taos-db` tool end to end: list, export, delete, import (into the same
//! and into a new database), whole-database backup and restore (binary
//! records included), and its errors.

mod support;

use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};
use support::{ok, taos_db};
use taos_storage::{Database, Record, RedbBackend, RedbDatabase, StorageBackend, block_on};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct World {
    name: String,
    seed: u64,
}
impl Record for World {
    const VERSION: u32 = 3;
}

fn world(n: u64) -> World {
    World {
        name: format!("World {n}"),
        seed: n * 1000,
    }
}

fn open(dir: &Path, name: &str) -> RedbDatabase {
    let backend = RedbBackend::new(dir);
    let version = backend.existing_version(name).unwrap().unwrap_or(1);
    block_on(backend.open(name, version, |up| {
        up.create_store("worlds")?;
        up.create_store("meta")?;
        Ok(())
    }))
    .unwrap()
}

#[test]
fn list_export_delete_import() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    {
        let db = open(d, "crafty");
        for n in 1..=3 {
            block_on(db.put("worlds", &format!("w{n}"), &world(n))).unwrap();
        }
        block_on(db.put("meta", "last", &"w3".to_string())).unwrap();
    }

    assert_eq!(ok(taos_db(d, &["databases"])).trim(), "crafty");
    let stores = ok(taos_db(d, &["stores", "crafty"]));
    assert!(stores.contains("meta\t1 records"), "{stores}");
    assert!(stores.contains("worlds\t3 records"), "{stores}");
    let keys = ok(taos_db(d, &["keys", "crafty", "worlds"]));
    let lines: Vec<&str> = keys.lines().collect();
    assert_eq!(lines.len(), 3, "{keys}");
    assert!(lines[0].starts_with("w1\tversion 3\t"), "{keys}");

    let shown: serde_json::Value =
        serde_json::from_str(&ok(taos_db(d, &["show", "crafty", "worlds", "w2"]))).unwrap();
    assert_eq!(shown["version"], 3);
    assert_eq!(shown["data"]["name"], "World 2");

    let backup = d.join("worlds.json");
    ok(taos_db(
        d,
        &["export", "crafty", "worlds", backup.to_str().unwrap()],
    ));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&backup).unwrap()).unwrap();
    assert_eq!(json["records"].as_array().unwrap().len(), 3);
    assert_eq!(json["records"][1]["key"], "w2");
    assert_eq!(json["records"][1]["record"]["data"]["seed"], 2000);
    // Without a file, the export goes to stdout.
    let stdout: serde_json::Value =
        serde_json::from_str(&ok(taos_db(d, &["export", "crafty", "worlds"]))).unwrap();
    assert_eq!(stdout, json);

    ok(taos_db(d, &["delete", "crafty", "worlds", "w2"]));
    {
        let db = open(d, "crafty");
        assert_eq!(block_on(db.get::<World>("worlds", "w2")).unwrap(), None);
        assert_eq!(
            block_on(db.get::<World>("worlds", "w1")).unwrap(),
            Some(world(1))
        );
    }
    let again = taos_db(d, &["delete", "crafty", "worlds", "w2"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no record \"w2\""));

    // Restore the backup into the same database: w2 is back.
    ok(taos_db(
        d,
        &["import", "crafty", "worlds", backup.to_str().unwrap()],
    ));
    {
        let db = open(d, "crafty");
        let all = block_on(db.get_all::<World>("worlds")).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[1], ("w2".to_string(), world(2)));
    }

    // Move it to another machine: a new data directory chosen by TAOS_DATA_DIR
    // (a database that does not exist is only made when asked).
    let other = tempfile::tempdir().unwrap();
    let moved = Command::new(env!("CARGO_BIN_EXE_taos-db"))
        .env("TAOS_DATA_DIR", other.path())
        .args(["import", "moved", "worlds", backup.to_str().unwrap()])
        .arg("--create-stores")
        .output()
        .unwrap();
    ok(moved);
    let db = block_on(RedbBackend::new(other.path()).open("moved", 1, |_| Ok(()))).unwrap();
    assert_eq!(db.store_names(), vec!["worlds".to_string()]);
    let all = block_on(db.get_all::<World>("worlds")).unwrap();
    assert_eq!(
        all,
        (1..=3)
            .map(|n| (format!("w{n}"), world(n)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn bad_import_changes_nothing_and_errors_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    {
        let db = open(d, "crafty");
        block_on(db.put("worlds", "w1", &world(1))).unwrap();
    }
    let before = std::fs::read(d.join("crafty.redb")).unwrap();

    let garbage = d.join("garbage.json");
    std::fs::write(&garbage, "not json at all").unwrap();
    let out = taos_db(
        d,
        &["import", "crafty", "worlds", garbage.to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("garbage.json"));

    // One record without an envelope: nothing at all is imported.
    let partial = d.join("partial.json");
    std::fs::write(
        &partial,
        r#"{"format":"taos-store-export","database":"x","store":"worlds","records":[
            {"key":"w5","record":{"version":3,"data":{"name":"ok","seed":5}}},
            {"key":"w6","record":{"name":"no envelope"}}]}"#,
    )
    .unwrap();
    let out = taos_db(
        d,
        &["import", "crafty", "worlds", partial.to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"w6\""));
    assert_eq!(std::fs::read(d.join("crafty.redb")).unwrap(), before);

    let missing = taos_db(d, &["stores", "nothere"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no database \"nothere\""));

    // A database held open elsewhere: the error names the file.
    let _held = open(d, "crafty");
    let locked = taos_db(d, &["keys", "crafty", "worlds"]);
    assert!(!locked.status.success());
    let stderr = String::from_utf8_lossy(&locked.stderr);
    assert!(
        stderr.contains("crafty.redb") && stderr.contains("locked"),
        "{stderr}"
    );
}

#[test]
fn help_lists_every_command_and_a_bad_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let help = ok(taos_db(dir.path(), &["--help"]));
    for command in [
        "databases",
        "stores",
        "keys",
        "show",
        "export",
        "import",
        "delete",
        "backup",
        "restore",
    ] {
        assert!(help.contains(command), "{command} missing from --help");
    }
    let bad = taos_db(dir.path(), &["frobnicate"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("frobnicate"));
}

#[test]
fn backup_and_restore_a_whole_database_into_a_fresh_directory() {
    let source = tempfile::tempdir().unwrap();
    let binary: Vec<u8> = (0..=255).collect();
    {
        let db = open(source.path(), "crafty");
        block_on(db.put("worlds", "w1", &world(1))).unwrap();
        block_on(db.transaction(
            &["meta"],
            taos_storage::TransactionMode::ReadWrite,
            async |tx| {
                use taos_storage::Transaction as _;
                tx.put_raw("meta", "edits", &binary).await
            },
        ))
        .unwrap();
    }
    let file = source.path().join("crafty-backup.json");
    let file = file.to_str().unwrap();
    let said = taos_db(source.path(), &["backup", "crafty", file]);
    assert!(said.status.success());
    assert!(String::from_utf8_lossy(&said.stderr).contains("2 stores, 2 records"));

    let target = tempfile::tempdir().unwrap();
    ok(taos_db(target.path(), &["restore", file]));
    let backend = RedbBackend::new(target.path());
    assert_eq!(backend.existing_version("crafty").unwrap(), Some(1));
    let db = block_on(backend.open("crafty", 1, |_| panic!("no upgrade needed"))).unwrap();
    assert_eq!(
        block_on(db.get::<World>("worlds", "w1")).unwrap(),
        Some(world(1))
    );
    let edits = block_on(db.transaction(
        &["meta"],
        taos_storage::TransactionMode::ReadOnly,
        async |tx| {
            use taos_storage::Transaction as _;
            tx.get_raw("meta", "edits").await
        },
    ))
    .unwrap();
    assert_eq!(
        edits,
        Some(binary),
        "binary records come back byte for byte"
    );
    drop(db);

    // Restoring over it again is refused and changes nothing.
    let again = taos_db(target.path(), &["restore", file]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    // Under another name it works.
    ok(taos_db(target.path(), &["restore", file, "--as", "copy"]));
    let names = ok(taos_db(target.path(), &["databases"]));
    assert_eq!(names.lines().collect::<Vec<_>>(), ["copy", "crafty"]);
}
