//! Where native databases live: `TAOS_DATA_DIR`, else the platform data dir.

use std::ffi::OsString;
use std::path::PathBuf;

use taos_storage::{RedbBackend, StorageError, resolve_data_dir};

#[test]
fn env_var_wins_over_the_platform_dir() {
    let dir = resolve_data_dir(
        Some(OsString::from("/saves")),
        Some(PathBuf::from("/home/p/.local/share")),
    );
    assert_eq!(dir.unwrap(), PathBuf::from("/saves"));
}

#[test]
fn platform_dir_gets_a_taos_folder() {
    let dir = resolve_data_dir(None, Some(PathBuf::from("/home/p/.local/share")));
    assert_eq!(dir.unwrap(), PathBuf::from("/home/p/.local/share/taos"));
    let empty_env = resolve_data_dir(Some(OsString::new()), Some(PathBuf::from("/data")));
    assert_eq!(empty_env.unwrap(), PathBuf::from("/data/taos"));
}

#[test]
fn no_dir_at_all_is_a_clear_error() {
    let error = resolve_data_dir(None, None).unwrap_err();
    assert!(matches!(error, StorageError::NoDataDirectory));
    assert!(error.to_string().contains("TAOS_DATA_DIR"));
}

#[test]
fn caller_dir_and_file_names() {
    let backend = RedbBackend::new("/games/crafty");
    assert_eq!(
        backend.path_of("worlds").unwrap(),
        PathBuf::from("/games/crafty/worlds.redb")
    );
    for bad in ["", "../escape", "a/b", ".hidden", "späce"] {
        let error = backend.path_of(bad).unwrap_err();
        assert!(
            matches!(error, StorageError::InvalidName { .. }),
            "{bad:?}: {error:?}"
        );
    }
}

#[test]
fn database_names_lists_only_databases() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path().join("not-yet"));
    assert!(backend.database_names().unwrap().is_empty());
    let backend = RedbBackend::new(dir.path());
    for file in ["b.redb", "a.redb", "notes.txt", "bad name.redb"] {
        std::fs::write(dir.path().join(file), b"").unwrap();
    }
    assert_eq!(backend.database_names().unwrap(), vec!["a", "b"]);
}
