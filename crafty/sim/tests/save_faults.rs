//! crafty's autosave on the real redb backend with disk faults injected at
//! every write, resize and sync of a save: after each failure, once the
//! fault is cleared, the next autosave on the same store saves every edit
//! the player made, and nothing saved before is lost.

use crafty_sim::inventory::GameMode;
use crafty_sim::save::{PlaySnapshot, SaveSession, SavedWorld, WorldStore};
use crafty_sim::world::{BlockType, World};
use glam::IVec3;
use taos_storage::RedbBackend;
use taos_storage::block_on;
use taos_storage::faults::{FileFaults, FileOp, InjectedError, OpCounts};

struct Game {
    _dir: tempfile::TempDir,
    faults: FileFaults,
    store: WorldStore<RedbBackend>,
    world: World,
    session: SaveSession,
    now: u64,
}

impl Game {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let faults = FileFaults::new();
        let store = block_on(WorldStore::open(&RedbBackend::with_faults(
            dir.path(),
            faults.clone(),
        )))
        .unwrap();
        let record = SavedWorld::create("Faults", 7, GameMode::Creative, 1_000);
        block_on(store.save(&record)).unwrap();
        let world = World::with_terrain(record.terrain());
        Self {
            _dir: dir,
            faults,
            store,
            world,
            session: SaveSession::new(record),
            now: 1_000,
        }
    }

    /// The player places `count` blocks in a row starting at `x`.
    fn build(&mut self, x: i32, count: i32) {
        for dx in 0..count {
            self.world
                .set_block(IVec3::new(x + dx, 80, 3), BlockType::Glass)
                .unwrap();
        }
        self.now += 100;
        self.session.note_change(self.now);
    }

    fn autosave(&mut self) -> Result<(), crafty_sim::save::SaveError> {
        self.now += 10_000;
        let snapshot = PlaySnapshot::of(self.session.record());
        block_on(
            self.session
                .autosave(&self.store, &self.world, &snapshot, self.now),
        )
        .map(drop)
    }

    /// What a fresh start of the game loads from the file.
    fn reload(self) -> Vec<crafty_sim::world::BlockEdit> {
        let id = self.session.record().id.clone();
        let dir = self._dir;
        drop(self.store);
        let store = block_on(WorldStore::open(&RedbBackend::new(dir.path()))).unwrap();
        block_on(store.load(&id)).unwrap().edits
    }
}

fn calls_per_autosave() -> OpCounts {
    let mut game = Game::new();
    game.build(0, 50);
    game.autosave().unwrap();
    game.build(100, 50);
    let before = game.faults.counts();
    game.autosave().unwrap();
    let after = game.faults.counts();
    OpCounts {
        writes: after.writes - before.writes,
        set_lens: after.set_lens - before.set_lens,
        syncs: after.syncs - before.syncs,
    }
}

#[test]
fn every_injected_disk_fault_during_an_autosave_loses_no_edit_once_it_clears() {
    let calls = calls_per_autosave();
    let mut cases = 0;
    for op in [FileOp::Write, FileOp::SetLen, FileOp::Sync] {
        for nth in 0..calls.of(op) {
            for error in [InjectedError::Full, InjectedError::Io] {
                let mut game = Game::new();
                game.build(0, 50);
                game.autosave().unwrap();
                game.faults.fail_from(op, nth, error);
                game.build(100, 50);
                let failed = game.autosave().is_err();
                // The player goes on building while the disk is full.
                game.build(200, 20);
                let during = game.autosave();
                assert!(
                    !failed || during.is_err(),
                    "{op:?} #{nth}: saved on a full disk"
                );
                game.faults.clear();
                game.autosave()
                    .unwrap_or_else(|e| panic!("{op:?} #{nth} {error:?}: no save after: {e}"));
                assert_eq!(game.session.unsaved_edits(&game.world), 0);
                let expected = game.world.edits().to_vec();
                assert_eq!(game.reload(), expected, "{op:?} #{nth} {error:?}");
                cases += 1;
            }
        }
    }
    assert!(
        cases >= 2 * (calls.writes + calls.syncs),
        "{cases} {calls:?}"
    );
}
