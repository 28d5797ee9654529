//! `crafty --apply-edits FILE`: edits exported when saving failed are saved
//! into their world later, once, however often the file is applied.

use std::process::Command;

use crafty::save::{UnsavedEdits, WorldStore};
use crafty::world::{BlockEdit, BlockType};
use glam::IVec3;
use taos_engine::storage::{RedbBackend, block_on};

fn crafty(data: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_crafty"));
    command
        .arg("--data-dir")
        .arg(data)
        .env_remove("RUST_BACKTRACE");
    command
}

#[test]
fn exported_edits_are_saved_once_by_apply_edits() {
    let data = tempfile::tempdir().unwrap();
    let made = crafty(data.path())
        .args([
            "--headless",
            "--world",
            "new:42",
            "--ticks",
            "1",
            "--size",
            "8x8",
        ])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let store = block_on(WorldStore::open(&RedbBackend::new(data.path()))).unwrap();
    let world = block_on(store.list()).unwrap().worlds.remove(0);
    drop(store);

    let edits = vec![
        BlockEdit::new(IVec3::new(3, 90, 4), BlockType::Glass),
        BlockEdit::new(IVec3::new(4, 90, 4), BlockType::Planks),
    ];
    let file = data.path().join("unsaved.json");
    std::fs::write(&file, UnsavedEdits::new(&world, 0, edits.clone()).to_json()).unwrap();
    for expected in [
        "2 of the file's 2 edits saved",
        "0 of the file's 2 edits saved",
    ] {
        let out = crafty(data.path())
            .arg("--apply-edits")
            .arg(&file)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains(expected), "{stdout}");
    }
    let store = block_on(WorldStore::open(&RedbBackend::new(data.path()))).unwrap();
    assert_eq!(block_on(store.load(&world.id)).unwrap().edits, edits);
    drop(store);

    // Not an unsaved-edits file: a clear error, nothing changed.
    std::fs::write(&file, b"{\"format\": \"something else\"}").unwrap();
    let out = crafty(data.path())
        .arg("--apply-edits")
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("unsaved edits file") && !stderr.contains("panicked"),
        "{stderr}"
    );
}
