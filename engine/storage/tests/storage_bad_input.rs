//! Bad input on the native backend: garbage and truncated files, a database
//! held by another process. Each gives an error naming the file and leaves the
//! file exactly as it was.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use taos_storage::{Database, RedbBackend, StorageBackend, StorageError, block_on};

fn open(backend: &RedbBackend) -> Result<impl Database + std::fmt::Debug, StorageError> {
    block_on(backend.open("saves", 1, |up| {
        up.create_store("worlds")?;
        Ok(())
    }))
}

fn assert_names_file(error: &StorageError, path: &Path) {
    let text = error.to_string();
    assert!(
        text.contains(&path.display().to_string()),
        "error does not name {}: {text}",
        path.display()
    );
}

#[test]
fn garbage_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let path = backend.path_of("saves").unwrap();
    let garbage: Vec<u8> = (0..20_000_u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&path, &garbage).unwrap();

    let error = open(&backend).unwrap_err();
    eprintln!("garbage: {error}");
    assert!(matches!(error, StorageError::Corrupt { .. }), "{error:?}");
    assert_names_file(&error, &path);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        garbage,
        "the garbage file was modified"
    );
}

#[test]
fn text_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let path = backend.path_of("saves").unwrap();
    std::fs::write(&path, b"{\"not\": \"a database\"}\n").unwrap();
    let error = open(&backend).unwrap_err();
    assert_names_file(&error, &path);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"{\"not\": \"a database\"}\n"
    );
}

#[test]
fn truncated_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let path = backend.path_of("saves").unwrap();
    {
        let db = open(&backend).unwrap();
        for n in 0..200_u32 {
            block_on(db.put("worlds", &format!("w{n:03}"), &vec![n; 256])).unwrap();
        }
    }
    let full = std::fs::read(&path).unwrap();
    for keep in [full.len() / 2, full.len() / 5, 600, 100] {
        std::fs::write(&path, &full[..keep]).unwrap();
        let error = open(&backend).unwrap_err();
        eprintln!("truncated to {keep} bytes: {error}");
        assert_names_file(&error, &path);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            &full[..keep],
            "the truncated file ({keep} bytes) was modified"
        );
    }
    // The intact file still opens with every record.
    std::fs::write(&path, &full).unwrap();
    let db = open(&backend).unwrap();
    assert_eq!(
        block_on(db.get_all::<Vec<u32>>("worlds")).unwrap().len(),
        200
    );
}

#[test]
fn second_handle_in_this_process_gets_locked_error() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let _first = open(&backend).unwrap();
    let error = open(&backend).unwrap_err();
    assert!(matches!(error, StorageError::Locked { .. }), "{error:?}");
    assert_names_file(&error, &backend.path_of("saves").unwrap());
}

const HOLD_ENV: &str = "TAOS_TEST_HOLD_DB_DIR";

/// Child side of `database_held_by_another_process`: opens the database,
/// says so, and holds it until its stdin closes.
#[test]
#[ignore = "helper process for database_held_by_another_process"]
fn hold_database_child() {
    let Some(dir) = std::env::var_os(HOLD_ENV) else {
        return;
    };
    let backend = RedbBackend::new(dir);
    let db = open(&backend).unwrap();
    block_on(db.put("worlds", "held", &1_u32)).unwrap();
    println!("HOLDING");
    std::io::stdout().flush().unwrap();
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
}

#[test]
fn database_held_by_another_process() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "hold_database_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(HOLD_ENV, dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("HOLDING") {
        line.clear();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "child exited before opening"
        );
    }
    let path = backend.path_of("saves").unwrap();
    let before = std::fs::read(&path).unwrap();
    let error = open(&backend).unwrap_err();
    assert!(matches!(error, StorageError::Locked { .. }), "{error:?}");
    assert_names_file(&error, &path);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "a refused open wrote to the file"
    );

    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
    let db = open(&backend).unwrap();
    assert_eq!(block_on(db.get::<u32>("worlds", "held")).unwrap(), Some(1));
}
