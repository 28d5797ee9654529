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

#[test]
fn a_broken_block_throws_debris_of_its_tile_that_goes_away_after_it_falls() {
    use crafty::game::state_mut;
    use crafty::particles::{DEBRIS_LIFETIME, ParticleLevel};
    use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, TICK_HZ};
    use crafty::world::{BlockType, Face};
    use taos_engine::particles::ParticleEmitter;

    let record = SavedWorld::create("Debris", 42, GameMode::Creative, 0);
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    let frame = |session: &mut Session, game: &mut taos_engine::game_loop::GameLoop| {
        // The replay's end pauses the loop: time goes on without it.
        if game.is_paused() {
            game.resume();
        }
        game.step();
        session.sync_render(game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
    };
    // Down on the ground, looking at it.
    crafty::game::look(&mut game, 0.0, -1.5);
    for _ in 0..600 {
        if state(&game).player.body.on_ground && state(&game).target.is_some() {
            break;
        }
        frame(&mut session, &mut game);
    }
    assert_eq!(
        session.particles().debris().count(),
        0,
        "nothing broken yet"
    );
    let target = state(&game).target.expect("looking at the ground").block;
    game.replay(script::compile("break", 42).unwrap()).unwrap();
    let block = state(&game).world.block(target);
    for _ in 0..2 {
        frame(&mut session, &mut game);
    }
    assert_eq!(state(&game).world.block(target), BlockType::Air);
    let debris: Vec<_> = session.particles().debris().collect();
    assert_eq!(debris.len(), 1, "one emitter for one break");
    let (object, shown) = debris[0];
    assert_eq!(shown, block);
    let scene = game.scene();
    let emitter = scene.get_component::<ParticleEmitter>(object).unwrap();
    let effect = emitter.effect();
    let cell = effect.flipbook.expect("a tile of the atlas").first_cell;
    assert_eq!(
        cell,
        block.tile(Face::North),
        "{block:?} debris shows its tile"
    );
    assert!(effect.bursts.iter().map(|b| b.count).sum::<u32>() >= 12);
    let centre = scene.world_position(object).unwrap();
    assert!(
        (centre - (target.as_vec3() + 0.5)).length() < 1e-4,
        "{centre}"
    );

    // Gone once its particles died.
    let ticks = (f64::from(DEBRIS_LIFETIME) + 0.2) * f64::from(TICK_HZ);
    for _ in 0..ticks.ceil() as u32 {
        frame(&mut session, &mut game);
    }
    assert_eq!(session.particles().debris().count(), 0);
    assert!(
        !game.scene().contains(object),
        "the emitter object is removed"
    );

    // Another player's break on a server throws debris too, unless the
    // player turned particles off.
    let below = target - glam::IVec3::Y;
    let other = state(&game).world.block(below);
    assert!(other.is_solid(), "{other:?}");
    state_mut(&mut game).set_block_from_server(below, BlockType::Air);
    frame(&mut session, &mut game);
    assert_eq!(
        session
            .particles()
            .debris()
            .map(|(_, b)| b)
            .collect::<Vec<_>>(),
        [other]
    );
    // Far away: none. Many at once (a server's chunk state on joining): a
    // few a frame.
    let far = target + glam::IVec3::new(48, 0, 0);
    let (top, _) = state(&game).world.column_top(far.x, far.z).unwrap();
    state_mut(&mut game).set_block_from_server(far.with_y(top), BlockType::Air);
    frame(&mut session, &mut game);
    assert_eq!(session.particles().debris().count(), 1, "only the near one");
    for x in 0..10 {
        let at = below + glam::IVec3::new(x - 5, -2, 3);
        state_mut(&mut game).set_block_from_server(at, BlockType::Air);
    }
    frame(&mut session, &mut game);
    assert_eq!(session.particles().debris().count(), 1 + 4);
    session.set_particle_level(&mut game, ParticleLevel::Off);
    assert_eq!(session.particles().debris().count(), 0);
    state_mut(&mut game).set_block_from_server(below - glam::IVec3::Y, BlockType::Air);
    frame(&mut session, &mut game);
    assert_eq!(session.particles().debris().count(), 0, "particles off");
}
