//! A headless session finishes meshing around a chunk whose mesh job and a
//! chunk whose terrain job panic, and plays on without them
//! (`finish_meshing` returns). crafty_sim's `tests/job_panics.rs` tests the
//! mesher and the generator on their own.

use crafty::game::{state, state_mut};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::SavedWorld;
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::{ChunkPos, JOB_ATTEMPTS, JobFailures, TerrainGenerator};
use taos_engine::game_loop::{ActionFlags, ManualClock};

#[test]
fn a_headless_world_finishes_meshing_around_a_panicking_chunk_and_plays_on() {
    let record = SavedWorld::create("Panics", 11, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    // One ring wider than the first view: those chunks come from the workers.
    state_mut(&mut game).set_view_radius(5);
    let player = state(&game).player.body.position;
    let distance = |pos: &ChunkPos| (pos.0.as_vec3() * 32.0 + 16.0).distance_squared(player);
    // Loaded, far from the player (not among the first jobs already sent).
    let mesh_bad = state(&game)
        .world
        .loaded_chunks()
        .max_by(|a, b| distance(a).total_cmp(&distance(b)))
        .unwrap();
    // Wanted from the workers, the farthest (not queued yet).
    let terrain_bad = *state(&game).chunks_wanted().last().unwrap();
    session.inject_mesh_panic(mesh_bad);
    session.inject_terrain_panic(terrain_bad);

    session.finish_meshing(&mut game);

    assert_eq!(session.meshes_pending(), 0);
    assert_eq!(
        session.mesh_failures(),
        JobFailures {
            panics: u64::from(JOB_ATTEMPTS),
            given_up: vec![mesh_bad],
        }
    );
    assert_eq!(
        session.terrain_failures(),
        JobFailures {
            panics: u64::from(JOB_ATTEMPTS),
            given_up: vec![terrain_bad],
        }
    );
    let (loaded, total) = session.generation_progress(&game);
    assert_eq!(loaded, total - 1, "all but the given-up chunk loaded");
    assert_eq!(state(&game).chunks_wanted(), vec![terrain_bad]);

    // The game plays on: frames neither wait for nor retry the lost chunks.
    for _ in 0..30 {
        game.step_with(ActionFlags::default());
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
    }
    session.finish_meshing(&mut game);
    assert_eq!(session.terrain_failures().panics, u64::from(JOB_ATTEMPTS));
    assert_eq!(session.mesh_failures().panics, u64::from(JOB_ATTEMPTS));
}
