//! Weather end to end: saved and restored with the world, and how rain,
//! snow and a storm look (image tests on lavapipe). crafty_sim's
//! `tests/weather.rs` tests the sequence a seed gives.

mod common;

use common::assert_session_looks_like;
use crafty::game::{state, state_mut};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{PlayerState, SavedWorld, WorldStore};
use crafty::session::{Session, TICK_HZ};
use crafty::weather::{Weather, WeatherKind, WeatherState};
use taos_engine::game_loop::{GameLoop, ManualClock};
use taos_engine::storage::{MemoryBackend, block_on};

fn tick(game: &mut GameLoop, ticks: u32) {
    for _ in 0..ticks {
        game.step();
    }
}

#[test]
fn the_weather_is_saved_with_the_world_and_goes_on_after_loading() {
    let seed = 1234;
    let mut record = SavedWorld::create("Rainy", seed, GameMode::Creative, 0);
    // Two seconds before the first spell ends, so the run crosses into the next.
    let length = Weather::new(seed).spell_seconds();
    record.weather = Some(WeatherState {
        spell: 0,
        elapsed: length - 2.0,
        forced: None,
        wetness: 0.5,
    });
    let uninterrupted = {
        let (_, render) = CraftyPipelineFeature::new();
        let (_session, mut game) = Session::fresh(record.clone(), ManualClock::new(), render);
        tick(&mut game, 4 * TICK_HZ);
        state(&game).weather.state()
    };
    assert_eq!(
        uninterrupted.spell, 1,
        "the run crossed into the next spell"
    );

    let backend = MemoryBackend::new();
    let store = block_on(WorldStore::open(&backend)).unwrap();
    block_on(store.save(&record)).unwrap();
    let (_, render) = CraftyPipelineFeature::new();
    let loaded = block_on(store.load(&record.id)).unwrap();
    let (mut session, mut game) = Session::start(loaded, ManualClock::new(), render);
    tick(&mut game, TICK_HZ);
    block_on(session.save_now(&game, &store, 10, None)).unwrap();
    let stored = block_on(store.load(&record.id)).unwrap().record;
    assert_eq!(stored.weather, Some(state(&game).weather.state()));

    let (_, render) = CraftyPipelineFeature::new();
    let loaded = block_on(store.load(&record.id)).unwrap();
    let (_session, mut game) = Session::start(loaded, ManualClock::new(), render);
    tick(&mut game, 3 * TICK_HZ);
    assert_eq!(state(&game).weather.state(), uninterrupted);
}

/// A view over seed 42's hills at noon in `kind` weather.
fn weather_session(kind: WeatherKind) -> (Session, GameLoop, CraftyPipelineFeature) {
    let mut record = SavedWorld::create("Weather", 42, GameMode::Creative, 0)
        .with_generator(crafty::world::TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: 20.5,
        y: 90.0,
        z: 40.5,
        yaw: 0.6,
        pitch: -0.2,
    };
    let (feature, render) = CraftyPipelineFeature::new();
    let (session, mut game) = Session::fresh(record, ManualClock::new(), render);
    {
        let mut game = state_mut(&mut game);
        game.time = game.time.at_clock(12 * 60);
        game.weather.force(kind);
    }
    tick(&mut game, 1);
    (session, game, feature)
}

fn assert_looks_like(
    name: &str,
    session: &mut Session,
    game: &mut GameLoop,
    feature: CraftyPipelineFeature,
) {
    // Thin rain streaks and snow flakes move a few edge pixels between
    // rasterisers: 2% outliers.
    assert_session_looks_like(name, session, game, feature, 0.02);
}

#[test]
fn rain_falls_and_wets_the_hills() {
    let (mut session, mut game, feature) = weather_session(WeatherKind::Rain);
    assert_eq!(
        session.render().stats().weather_particles,
        0,
        "nothing drawn yet"
    );
    assert_looks_like("weather_rain", &mut session, &mut game, feature);
    let drawn = session.render().stats().weather_particles;
    assert_eq!(drawn, crafty::render::MAX_WEATHER_PARTICLES);
}

#[test]
fn snow_falls() {
    let (mut session, mut game, feature) = weather_session(WeatherKind::Snow);
    assert_looks_like("weather_snow", &mut session, &mut game, feature);
}

#[test]
fn a_storm_darkens_the_sky_and_lightning_lights_it() {
    let (mut session, mut game, feature) = weather_session(WeatherKind::Storm);
    let wait = state(&game)
        .weather
        .next_lightning(60.0)
        .expect("seed 42's storm strikes within a minute");
    tick(&mut game, (wait * TICK_HZ as f32).ceil() as u32);
    let flash = state(&game).weather.lightning();
    assert!(flash > 0.8, "mid-flash: {flash}");
    assert_looks_like("weather_storm_lightning", &mut session, &mut game, feature);
    let lit = session.render().sky();
    assert!(
        lit.ambient.length() > 1.0,
        "the flash lights the world: {lit:?}"
    );
}

#[test]
fn rain_and_snow_land_on_solid_blocks_and_clear_skies_splash_nothing() {
    use crafty::particles::{Landing, ParticleLevel};
    use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME};
    use taos_engine::particles::ParticleEmitter;

    // The emitters standing on a landing spot after a few frames: their
    // positions and what lands there.
    let landings = |session: &mut Session, game: &mut GameLoop| {
        let mut emitting = Vec::new();
        for _ in 0..4 {
            tick(game, 1);
            session.sync_render(game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
            let scene = game.scene();
            emitting.extend(
                session
                    .particles()
                    .splashes()
                    .filter_map(|(object, landing)| {
                        let emitter = scene.get_component::<ParticleEmitter>(object)?;
                        emitter
                            .emitting
                            .then(|| (scene.world_position(object).unwrap(), landing))
                    }),
            );
        }
        emitting
    };
    for kind in [WeatherKind::Rain, WeatherKind::Snow] {
        let (mut session, mut game, _) = weather_session(kind);
        let spots = landings(&mut session, &mut game);
        assert!(spots.len() >= 8, "{kind:?} lands somewhere: {spots:?}");
        let game_state = state(&game);
        let eye = game_state.player.body.eye();
        for (spot, landing) in &spots {
            let on = (*spot - glam::Vec3::Y * 0.5).floor().as_ivec3();
            let world = &game_state.world;
            assert!(
                world.block(on).is_solid(),
                "{spot} is on {:?}",
                world.block(on)
            );
            assert!(
                world.block(on + glam::IVec3::Y).is_air(),
                "{spot} is open above"
            );
            assert!(
                spot.with_y(0.0).distance(eye.with_y(0.0)) < 18.0,
                "{spot} near {eye}"
            );
            if kind == WeatherKind::Snow {
                assert_eq!(*landing, Landing::Snow);
            }
        }
        session.set_particle_level(&mut game, ParticleLevel::Off);
        assert!(
            landings(&mut session, &mut game).is_empty(),
            "particles off"
        );
    }
    let (mut session, mut game, _) = weather_session(WeatherKind::Clear);
    assert!(landings(&mut session, &mut game).is_empty());
    assert_eq!(
        session.particles().splashes().count(),
        0,
        "no emitters at all"
    );
}

#[test]
fn splashes_are_drawn_over_ticking_frames_while_it_rains() {
    use crafty::render::crafty_preset;
    use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME};
    use taos_engine::{Engine, EngineConfig};

    for kind in [WeatherKind::Rain, WeatherKind::Clear] {
        let (mut session, mut game, feature) = weather_session(kind);
        session.finish_meshing(&mut game);
        let mut engine =
            Engine::headless(EngineConfig::new(64, 36), crafty_preset(feature)).unwrap();
        drop(engine.set_game_loop(game));
        // The GPU path counts living particles a frame or two late.
        for _ in 0..10 {
            engine.step().unwrap();
            session.sync_render(
                engine.game_loop(),
                MESH_JOBS_PER_FRAME,
                MESH_UPLOADS_PER_FRAME,
            );
        }
        let stats = session.render().stats();
        if kind == WeatherKind::Clear {
            assert_eq!((stats.particles, stats.particle_emitters), (0, 0));
        } else {
            assert!(stats.particles > 0, "{kind:?}: {stats:?}");
        }
    }
}
