//! The `crafty` binary end to end: no display, scripted replays, headless
//! runs with a screenshot (GPU: lavapipe in CI), and resuming a named world.

use std::process::Command;

fn crafty() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crafty"));
    command.env_remove("RUST_BACKTRACE");
    command
}

#[test]
fn without_a_display_it_says_how_to_run_headless() {
    let data = tempfile::tempdir().unwrap();
    let output = crafty()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("crafty --headless --world new:42"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_scripted_headless_run_saves_and_screenshots_then_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("demo.replay");
    let shot = dir.path().join("shot.png");
    let status = crafty()
        .arg("--make-replay")
        .arg(&replay)
        .args(["--script", "walk 30, look-down 20, break, wait 5, place"])
        .status()
        .unwrap();
    assert!(status.success());

    let output = crafty()
        .args([
            "--headless",
            "--world",
            "new:42",
            "--ticks",
            "120",
            "--size",
            "96x54",
        ])
        .arg("--replay")
        .arg(&replay)
        .arg("--screenshot")
        .arg(&shot)
        .arg("--data-dir")
        .arg(dir.path())
        // As on a CI runner or over SSH: no desktop session, so libwayland
        // (through Mesa's device-select Vulkan layer) would complain.
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("120 ticks"), "{stdout}");
    assert!(
        !stderr.contains("XDG_RUNTIME_DIR") && !stderr.contains("ALSA lib"),
        "a headless run prints no third-party noise:\n{stderr}"
    );
    let image = image::open(&shot).unwrap();
    assert_eq!((image.width(), image.height()), (96, 54));

    let again = crafty()
        .args(["--headless", "--world", "Seed 42", "--ticks", "1"])
        .arg("--data-dir")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{stdout}");
    assert!(stdout.contains("world \"Seed 42\""), "{stdout}");
}

/// A world crafty saved (two sessions of edits, so two edit-log segments,
/// plus its thumbnail-less record and settings store), backed up as
/// `taos-db backup` does, restored into a fresh data directory, then listed
/// and played there with every edit.
#[test]
fn a_backed_up_world_restores_into_a_fresh_directory_with_every_edit() {
    use crafty::save::WorldStore;
    use taos_engine::storage::{
        DatabaseBackup, RedbBackend, backup_database, block_on, restore_database,
    };

    let played = tempfile::tempdir().unwrap();
    let replay = played.path().join("dig.replay");
    let status = crafty()
        .arg("--make-replay")
        .arg(&replay)
        .args([
            "--script",
            "look-down 25, break, wait 5, break, wait 5, place, walk 20, break",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    for world in ["new:42", "Seed 42"] {
        let output = crafty()
            .args(["--headless", "--world", world, "--ticks", "150"])
            .arg("--replay")
            .arg(&replay)
            .arg("--data-dir")
            .arg(played.path())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let (id, edits, json) = {
        let store = block_on(WorldStore::open(&RedbBackend::new(played.path()))).unwrap();
        let listing = block_on(store.list()).unwrap();
        assert_eq!(listing.worlds.len(), 1);
        let id = listing.worlds[0].id.clone();
        let loaded = block_on(store.load(&id)).unwrap();
        assert!(loaded.edits.len() >= 4, "{} edits", loaded.edits.len());
        let backup = block_on(backup_database(store.database())).unwrap();
        (id, loaded.edits, serde_json::to_string(&backup).unwrap())
    };

    let fresh = tempfile::tempdir().unwrap();
    let backup: DatabaseBackup = serde_json::from_str(&json).unwrap();
    let name = backup.database.clone();
    drop(
        block_on(restore_database(
            &RedbBackend::new(fresh.path()),
            &backup,
            &name,
        ))
        .unwrap(),
    );
    {
        let store = block_on(WorldStore::open(&RedbBackend::new(fresh.path()))).unwrap();
        let listing = block_on(store.list()).unwrap();
        assert!(listing.unreadable.is_empty());
        assert_eq!(listing.worlds.len(), 1, "the launcher lists the world");
        assert_eq!(listing.worlds[0].id, id);
        let loaded = block_on(store.load(&id)).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(loaded.edits, edits, "every edit, in order");
    }
    let output = crafty()
        .args(["--headless", "--world", "Seed 42", "--ticks", "1"])
        .arg("--data-dir")
        .arg(fresh.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("{} edits", edits.len())),
        "crafty plays the restored world: {stdout}"
    );
}
