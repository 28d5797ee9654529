//! The window's save-on-close and save-on-error paths, driven through the
//! same [`App`] hooks the window driver calls, on a headless engine and the
//! real redb backend with a disk that fills up.

use taos_engine::storage::faults::{FileFaults, FileOp, InjectedError};
use taos_engine::storage::{RedbBackend, block_on};
use taos_engine::{App, Engine, EngineConfig, Propagate, RunError, WindowEvent};

use super::{Crafty, Screen};
use crate::game::state_mut;
use crate::render::{CraftyPipelineFeature, crafty_preset};
use crate::save::WorldStore;
use crate::settings::PlayerSettings;
use crate::world::{BlockEdit, BlockType};

thread_local! {
    /// The wall clock the app reads, per test thread.
    static CLOCK: std::cell::Cell<u64> = const { std::cell::Cell::new(1_700_000_000_000) };
}

fn now() -> u64 {
    CLOCK.with(std::cell::Cell::get)
}

/// Moves the app's wall clock on.
fn advance(ms: u64) {
    CLOCK.with(|clock| clock.set(clock.get() + ms));
}

struct Window {
    dir: tempfile::TempDir,
    faults: FileFaults,
    engine: Engine,
    app: Crafty,
}

/// crafty on a small headless engine, starting in `world` (as `--world`
/// takes it), its wall clock read from `now`.
pub(super) fn headless_app(
    store: WorldStore<RedbBackend>,
    world: &str,
    now: fn() -> u64,
) -> (Engine, Crafty) {
    let (feature, render) = CraftyPipelineFeature::new();
    let engine = Engine::headless(EngineConfig::new(64, 40), crafty_preset(feature)).unwrap();
    let app = Crafty::new(
        store,
        PlayerSettings::default(),
        render,
        Some(world.to_owned()),
        None,
        now,
    );
    (engine, app)
}

/// crafty started straight into a new world, as `crafty --world new:42`.
fn open_window() -> Window {
    let dir = tempfile::tempdir().unwrap();
    let faults = FileFaults::new();
    let store = block_on(WorldStore::open(&RedbBackend::with_faults(
        dir.path(),
        faults.clone(),
    )))
    .unwrap();
    let (mut engine, mut app) = headless_app(store, "new:42", now);
    app.start(&mut engine).unwrap();
    // Creating the world, then opening it: one storage task a frame.
    for _ in 0..4 {
        if matches!(app.screen, Screen::Playing(_)) {
            break;
        }
        app.poll_task(&mut engine);
    }
    assert!(matches!(app.screen, Screen::Playing(_)));
    Window {
        dir,
        faults,
        engine,
        app,
    }
}

impl Window {
    /// The player places `count` blocks.
    fn build(&mut self, count: i32) -> Vec<BlockEdit> {
        let world = &mut state_mut(self.engine.game_loop()).world;
        for x in 0..count {
            world
                .set_block(glam::IVec3::new(x, 100, 7), BlockType::Glass)
                .unwrap();
        }
        world.edits().to_vec()
    }

    fn close_button(&mut self) -> Propagate {
        self.app
            .window_event(&mut self.engine, &WindowEvent::CloseRequested)
            .unwrap()
    }

    /// What a fresh start finds on disk.
    fn saved_edits(self) -> Vec<BlockEdit> {
        let Window { dir, app, .. } = self;
        drop(app);
        let store = block_on(WorldStore::open(&RedbBackend::new(dir.path()))).unwrap();
        let listing = block_on(store.list()).unwrap();
        let id = &listing.worlds[0].id;
        block_on(store.load(id)).unwrap().edits
    }
}

#[test]
fn closing_on_a_full_disk_keeps_the_world_open_until_it_is_saved() {
    let mut window = open_window();
    let edits = window.build(12);
    window
        .faults
        .fail_from(FileOp::Write, 0, InjectedError::Full);
    // The close button: the save fails, the window stays open on the world.
    assert_eq!(window.close_button(), Propagate::Stop);
    assert!(!window.engine.exit_requested());
    let Screen::Playing(play) = &window.app.screen else {
        panic!("the world was closed with its edits unsaved");
    };
    let failure = play
        .save_failure()
        .expect("the failure is shown")
        .to_owned();
    assert!(failure.contains("12 edits are not saved"), "{failure}");
    assert!(failure.contains("storage is full"), "{failure}");
    // Closing again on a disk still full changes nothing.
    assert_eq!(window.close_button(), Propagate::Stop);
    assert!(!window.engine.exit_requested());
    // Space is freed: the next close saves everything and ends the run.
    window.faults.clear();
    assert_eq!(window.close_button(), Propagate::Stop);
    assert!(window.engine.exit_requested());
    assert_eq!(window.saved_edits(), edits);
}

#[test]
fn quitting_without_saving_is_an_explicit_choice() {
    let mut window = open_window();
    window.build(3);
    window.faults.fail_from(FileOp::Sync, 0, InjectedError::Io);
    window.close_button();
    assert!(!window.engine.exit_requested());
    window.app.quit_without_saving(&mut window.engine);
    assert!(window.engine.exit_requested());
    window.faults.clear();
    // The world's record (saved when it was created) is there, the three
    // unsaved edits are not.
    assert!(window.saved_edits().is_empty());
}

#[test]
fn a_run_ending_on_an_error_saves_the_world_first() {
    let mut window = open_window();
    let edits = window.build(5);
    let error = RunError::App(taos_engine::AppError::from("the GPU was lost"));
    window.app.stopping(&mut window.engine, &error);
    assert_eq!(window.saved_edits(), edits);
}

#[test]
fn hiding_the_window_saves_at_once() {
    let mut window = open_window();
    let edits = window.build(4);
    // Well before the autosave delay: a hidden page may get no more frames.
    let propagate = window
        .app
        .window_event(&mut window.engine, &WindowEvent::Occluded(true))
        .unwrap();
    assert_eq!(propagate, Propagate::Continue);
    // Nothing new: no second save.
    let Screen::Playing(play) = &mut window.app.screen else {
        panic!("still playing");
    };
    assert!(!play.save_on_hide(&mut window.engine, &window.app.store, now()));
    assert_eq!(window.saved_edits(), edits);
}

#[test]
fn unsaved_edits_exported_after_a_failed_save_are_saved_later() {
    let mut window = open_window();
    let edits = window.build(6);
    window
        .faults
        .fail_from(FileOp::Write, 0, InjectedError::Full);
    window.close_button();
    let Screen::Playing(play) = &mut window.app.screen else {
        panic!("the world stays open");
    };
    let unsaved = play.unsaved(&mut window.engine);
    assert_eq!(unsaved.edits, edits);
    let files = tempfile::tempdir().unwrap();
    let said = super::export::export_to(files.path(), &unsaved, now()).unwrap();
    play.exported(Ok(said.clone()));
    assert!(
        play.save_failure()
            .unwrap()
            .contains("crafty --apply-edits"),
        "{said}"
    );
    window.app.quit_without_saving(&mut window.engine);
    window.faults.clear();
    let dir = window.dir.path().to_owned();
    drop(window.app);
    // Later, with room again: the file saves every edit.
    let file = std::fs::read_dir(files.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let unsaved = crate::save::UnsavedEdits::from_json(&std::fs::read(file).unwrap()).unwrap();
    let store = block_on(WorldStore::open(&RedbBackend::new(&dir))).unwrap();
    assert_eq!(block_on(store.apply_unsaved(&unsaved)).unwrap(), 6);
    assert_eq!(block_on(store.load(&unsaved.world)).unwrap().edits, edits);
}

#[test]
fn the_hud_promise_holds_freeing_space_is_all_it_takes_for_autosave_to_resume() {
    let mut window = open_window();
    // The first frame notes where the player is; the next notices edits,
    // and the autosave is due 5 s after that.
    window.app.update(&mut window.engine).unwrap();
    window.build(5);
    window
        .faults
        .fail_from(FileOp::Write, 0, InjectedError::Full);
    window.app.update(&mut window.engine).unwrap();
    advance(6_000);
    window.app.update(&mut window.engine).unwrap();
    let Screen::Playing(play) = &window.app.screen else {
        panic!("playing");
    };
    let notice = play.notice().unwrap_or_default().to_owned();
    assert!(notice.contains("storage is full"), "{notice}");
    assert!(notice.contains("saving resumes"), "{notice}");
    // Still full five seconds later: still not saved, same promise.
    let edits = window.build(8);
    window.app.update(&mut window.engine).unwrap();
    advance(6_000);
    window.app.update(&mut window.engine).unwrap();
    let Screen::Playing(play) = &window.app.screen else {
        panic!("playing");
    };
    assert!(play.notice().is_some_and(|n| n.contains("storage is full")));
    // Space is freed: the next retry, on the same store, saves everything.
    window.faults.clear();
    advance(6_000);
    window.app.update(&mut window.engine).unwrap();
    let Screen::Playing(play) = &window.app.screen else {
        panic!("playing");
    };
    assert_eq!(play.notice(), None, "the notice clears once saved");
    assert_eq!(play.unsaved_edits(&mut window.engine), 0);
    assert_eq!(window.saved_edits(), edits);
}
