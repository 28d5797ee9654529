//! Headless play end to end, without a GPU: scripted input through the
//! engine's fixed-tick loop, deterministic results, saves that load back.

use crafty::cli::{HeadlessArgs, WorldChoice};
use crafty::game::state;
use crafty::headless::{HeadlessError, run_headless};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{SavedWorld, WorldStore};
use crafty::script;
use crafty::session::Session;
use taos_engine::game_loop::ManualClock;
use taos_engine::storage::{MemoryBackend, block_on};

/// Walks, looks down at the ground, digs, and builds with what is selected.
const DIG_AND_BUILD: &str = "walk 40, look-down 25, break, wait 3, break, wait 3, \
    turn-left 30, break, next, place, wait 10, turn-right 12, place, walk 20, jump, wait 30";

fn args(
    world: WorldChoice,
    mode: GameMode,
    replay: Option<std::path::PathBuf>,
    ticks: u64,
) -> HeadlessArgs {
    HeadlessArgs {
        world,
        mode,
        replay,
        ticks,
        screenshot: None,
        size: (64, 36),
        time: None,
        weather: None,
        view: None,
    }
}

#[test]
fn weather_picks_the_sky_and_is_saved_with_the_world() {
    use crafty::weather::WeatherKind;
    let backend = MemoryBackend::new();
    let mut stormy = args(WorldChoice::New(5), GameMode::Creative, None, 30);
    stormy.weather = Some(WeatherKind::Storm);
    let report = run_headless(&stormy, &backend, 1_000, |_, _| {}).unwrap();
    let store = block_on(WorldStore::open(&backend)).unwrap();
    let saved = block_on(store.load(&report.world_id)).unwrap().record;
    let weather = saved.weather.expect("the weather is saved");
    assert_eq!(weather.forced, Some(WeatherKind::Storm));
    // Played on by name, the storm goes on from where it was.
    let again = args(
        WorldChoice::Named(report.world_name),
        GameMode::Creative,
        None,
        30,
    );
    let report = run_headless(&again, &backend, 2_000, |_, _| {}).unwrap();
    let resumed = block_on(store.load(&report.world_id)).unwrap().record;
    let later = resumed.weather.expect("still saved");
    assert_eq!(later.forced, Some(WeatherKind::Storm));
    assert!(
        (later.elapsed - weather.elapsed - 0.5).abs() < 1e-3,
        "{later:?}"
    );
}

#[test]
fn time_picks_the_hour_the_run_starts_at() {
    use crafty::time_of_day::TimeOfDay;
    for (clock, hour) in [(6 * 60, "06:00"), (18 * 60 + 30, "18:30"), (0, "00:00")] {
        let backend = MemoryBackend::new();
        let mut at = args(WorldChoice::New(3), GameMode::Creative, None, 1);
        at.time = Some(clock);
        let report = run_headless(&at, &backend, 1_000, |_, _| {}).unwrap();
        let store = block_on(WorldStore::open(&backend)).unwrap();
        let saved = block_on(store.load(&report.world_id)).unwrap().record;
        let sun = TimeOfDay::new(saved.sun_angle, 0.0);
        // One tick later is still the same minute.
        assert_eq!(sun.clock_minutes(), clock, "{hour}");
    }
}

fn replay_file(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("dig.replay");
    script::compile(DIG_AND_BUILD, 42)
        .unwrap()
        .save(&path)
        .unwrap();
    path
}

#[test]
fn headless_runs_are_deterministic_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let replay = replay_file(&dir);
    let run = || {
        let backend = MemoryBackend::new();
        let report = run_headless(
            &args(
                WorldChoice::New(42),
                GameMode::Creative,
                Some(replay.clone()),
                400,
            ),
            &backend,
            1_000,
            |_, _| {},
        )
        .unwrap();
        let store = block_on(WorldStore::open(&backend)).unwrap();
        let loaded = block_on(store.load(&report.world_id)).unwrap();
        (report, loaded)
    };
    let (first, loaded) = run();
    let (second, _) = run();
    assert_eq!(first.ticks, 400);
    assert!(
        first.edits >= 4,
        "the script breaks and places blocks: {} edits",
        first.edits
    );
    assert_eq!(
        (first.checksum, first.ticks, first.edits),
        (second.checksum, second.ticks, second.edits)
    );
    assert_eq!(first.edits, second.edits);
    assert_eq!(loaded.edits.len(), first.edits);
    assert_eq!(first.saved.new_edits, first.edits);
}

#[test]
fn a_saved_world_resumes_where_it_was_left() {
    let dir = tempfile::tempdir().unwrap();
    let replay = replay_file(&dir);
    let backend = MemoryBackend::new();
    let first = run_headless(
        &args(WorldChoice::New(7), GameMode::Survival, Some(replay), 300),
        &backend,
        1_000,
        |_, _| {},
    )
    .unwrap();
    let again = run_headless(
        &args(
            WorldChoice::Named(first.world_name.clone()),
            GameMode::Creative,
            None,
            60,
        ),
        &backend,
        2_000,
        |_, _| {},
    )
    .unwrap();
    assert_eq!(again.world_id, first.world_id);
    assert_eq!(again.edits, first.edits, "the edit log is replayed");
    assert_eq!(again.saved.new_edits, 0, "nothing new to append");
}

#[test]
fn survival_play_round_trips_inventory_hotbar_and_view() {
    let backend = MemoryBackend::new();
    let store = block_on(WorldStore::open(&backend)).unwrap();
    let record = SavedWorld::create("Dig", 11, GameMode::Survival, 5);
    block_on(store.save(&record)).unwrap();
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) =
        Session::fresh(record.clone(), ManualClock::new(), render.clone());
    game.replay(
        script::compile(
            "wait 60, look-down 30, break, wait 2, break, turn-left 7, break, wait 5",
            11,
        )
        .unwrap(),
    )
    .unwrap();
    for _ in 0..120 {
        game.step();
    }
    let before = Session::snapshot(&game);
    let inventory = before
        .inventory
        .clone()
        .expect("survival carries an inventory");
    assert!(!inventory.stacks.is_empty(), "breaking gathered blocks");
    assert!(inventory.hotbar.iter().any(Option::is_some));
    block_on(session.save_now(&game, &store, 10, Some(&[0xFF, 0xD8, 0xFF, 0xD9]))).unwrap();

    let loaded = block_on(store.load(&record.id)).unwrap();
    assert_eq!(
        loaded.record.screenshot.as_deref(),
        Some(&[0xFF, 0xD8, 0xFF, 0xD9][..])
    );
    let (_, resumed) = Session::start(loaded, ManualClock::new(), render);
    let after = Session::snapshot(&resumed);
    assert_eq!(
        after, before,
        "position, view, time, mode, inventory and hotbar"
    );
    assert_eq!(state(&resumed).world.edits(), state(&game).world.edits());
}

#[test]
fn a_damaged_position_and_view_are_repaired_on_load() {
    let mut record = SavedWorld::create("Far", 3, GameMode::Creative, 0);
    record.player.x = 1e30;
    record.player.yaw = f32::INFINITY;
    record.player.pitch = f32::NAN;
    let (_, render) = CraftyPipelineFeature::new();
    let (_session, mut game) = Session::fresh(record, ManualClock::new(), render);
    let player = &state(&game).player;
    assert!(
        player.body.position.x.abs() < 1000.0,
        "{}",
        player.body.position
    );
    assert_eq!((player.yaw, player.pitch), (0.0, 0.0));
    for _ in 0..10 {
        game.step();
    }
    assert!(state(&game).player.body.position.is_finite());
}

#[test]
fn an_unknown_world_is_named_with_the_ones_that_exist() {
    let backend = MemoryBackend::new();
    let store = block_on(WorldStore::open(&backend)).unwrap();
    block_on(store.save(&SavedWorld::create("Home", 1, GameMode::Creative, 0))).unwrap();
    let error = run_headless(
        &args(
            WorldChoice::Named("Nope".into()),
            GameMode::Creative,
            None,
            1,
        ),
        &backend,
        0,
        |_, _| {},
    )
    .unwrap_err();
    assert!(matches!(error, HeadlessError::UnknownWorld { .. }));
    assert!(error.to_string().contains("Home"), "{error}");
}

#[test]
fn a_corrupt_replay_is_refused_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.replay");
    std::fs::write(&path, b"not a recording").unwrap();
    let error = run_headless(
        &args(WorldChoice::New(1), GameMode::Creative, Some(path), 1),
        &MemoryBackend::new(),
        0,
        |_, _| {},
    )
    .unwrap_err();
    assert!(error.to_string().contains("bad.replay"), "{error}");
}
