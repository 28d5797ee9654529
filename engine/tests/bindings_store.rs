//! Rebinding survives a restart: bindings saved to an on-disk database come
//! back as saved; a corrupt record gives the defaults (with a warning), never
//! a crash.

use taos_engine::bindings_store::{load_bindings, save_bindings};
use taos_engine::game_loop::{Bindings, GameAction, Key, MouseButton};
use taos_engine::storage::{Database, RedbBackend, StorageBackend, block_on};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Act {
    Jump,
    Fire,
    Crouch,
}

impl GameAction for Act {
    fn bit(self) -> u8 {
        self as u8
    }
}

const ALL: [Act; 3] = [Act::Jump, Act::Fire, Act::Crouch];

fn defaults() -> Bindings<Act> {
    Bindings::new()
        .key(Key::Space, Act::Jump)
        .mouse(MouseButton::Left, Act::Fire)
        .key(Key::ShiftLeft, Act::Crouch)
}

fn open(dir: &std::path::Path) -> impl Database {
    let backend = RedbBackend::new(dir);
    block_on(backend.open("settings", 1, |up| up.create_store("input").map(drop))).unwrap()
}

#[test]
fn rebinding_round_trips_through_a_database_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let mut mine = defaults();
    mine.set_keys(Act::Jump, &[Key::J, Key::ArrowUp]);
    mine.set_buttons(Act::Fire, &[MouseButton::Right]);
    mine.set_keys(Act::Crouch, &[]);
    {
        let db = open(dir.path());
        block_on(save_bindings(&db, "input", "bindings", &mine)).unwrap();
        db.close();
    }
    let db = open(dir.path());
    let loaded = block_on(load_bindings(&db, "input", "bindings", &ALL, defaults())).unwrap();
    assert_eq!(
        loaded.keys_for(Act::Jump).collect::<Vec<_>>(),
        [Key::J, Key::ArrowUp]
    );
    assert_eq!(
        loaded.buttons_for(Act::Fire).collect::<Vec<_>>(),
        [MouseButton::Right]
    );
    assert_eq!(loaded.keys_for(Act::Crouch).count(), 0);
    assert_eq!(loaded.to_record(), mine.to_record());
}

#[test]
fn nothing_saved_gives_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let loaded = block_on(load_bindings(&db, "input", "bindings", &ALL, defaults())).unwrap();
    assert_eq!(loaded.to_record(), defaults().to_record());
}

#[test]
fn corrupt_records_give_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    let mut unknown_action = defaults().to_record();
    unknown_action[5] = 31; // an action bit the game does not have
    let corrupt: [Vec<u8>; 3] = [
        b"not bindings at all".to_vec(),
        defaults().to_record()[..6].to_vec(), // cut mid-entry
        unknown_action,
    ];
    for bytes in corrupt {
        block_on(db.put("input", "bindings", &bytes)).unwrap();
        let loaded = block_on(load_bindings(&db, "input", "bindings", &ALL, defaults())).unwrap();
        assert_eq!(loaded.to_record(), defaults().to_record(), "{bytes:?}");
    }
    // A record of another type entirely (not even bytes).
    block_on(db.put("input", "bindings", &"a string".to_string())).unwrap();
    let loaded = block_on(load_bindings(&db, "input", "bindings", &ALL, defaults())).unwrap();
    assert_eq!(loaded.to_record(), defaults().to_record());
}

#[test]
fn a_missing_store_is_an_error_not_a_silent_default() {
    let dir = tempfile::tempdir().unwrap();
    let db = open(dir.path());
    assert!(block_on(load_bindings(&db, "nope", "bindings", &ALL, defaults())).is_err());
}
