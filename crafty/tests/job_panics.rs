//! A panicking mesh or terrain job (a bug in the mesher or the generator)
//! is caught on its worker: it is logged and counted, its chunk is tried
//! [`JOB_ATTEMPTS`] times and then given up on, the other chunks carry on,
//! and `finish_meshing` returns.
//!
//! Without the catch the worker thread died with the job: its chunk stayed
//! "in flight" forever, so waiting for it blocked or spun. The loops here
//! are bounded so that shows up as a failure rather than a hang (except in
//! `finish_meshing` itself, which has no bound to give).

use std::collections::BTreeMap;

use crafty::game::{state, state_mut};
use crafty::inventory::GameMode;
use crafty::mesh::{ChunkMesh, MeshScheduler, mesh_now};
use crafty::render::CraftyPipelineFeature;
use crafty::save::SavedWorld;
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::{
    ChunkGenerator, ChunkPos, JOB_ATTEMPTS, JobFailures, Terrain, TerrainGenerator, World,
};
use glam::{IVec3, Vec3};
use taos_engine::game_loop::{ActionFlags, ManualClock};

/// Meshes until the scheduler is idle (at most 100 rounds).
fn drain(scheduler: &mut MeshScheduler, world: &World) -> BTreeMap<[i32; 3], ChunkMesh> {
    let mut out = BTreeMap::new();
    for _ in 0..100 {
        if scheduler.is_idle() {
            return out;
        }
        scheduler.gather_jobs(world, Vec3::new(16.0, 70.0, 16.0), usize::MAX);
        for (pos, mesh) in scheduler.wait_finished(usize::MAX) {
            assert!(out.insert(pos.0.to_array(), mesh).is_none(), "{pos:?}");
        }
    }
    panic!(
        "still busy after 100 rounds: {} pending, {} in flight",
        scheduler.pending(),
        scheduler.in_flight()
    );
}

#[test]
fn a_panicking_mesh_job_is_given_up_on_and_the_other_chunks_mesh() {
    let mut world = World::new(5);
    let fresh = world.load_around(IVec3::new(16, 64, 16), 1);
    let bad = ChunkPos::new(1, 1, 0);
    assert!(fresh.contains(&bad));
    // One worker: it must survive the panics to mesh everything else.
    let mut scheduler = MeshScheduler::with_threads(1);
    scheduler.inject_panic(bad);
    scheduler.request_all(fresh.iter().copied());

    let meshed = drain(&mut scheduler, &world);
    assert_eq!(meshed.len(), fresh.len() - 1);
    assert!(!meshed.contains_key(&bad.0.to_array()));
    for (pos, mesh) in &meshed {
        let pos = ChunkPos(IVec3::from(*pos));
        assert_eq!(*mesh, mesh_now(&world, pos), "{pos:?}");
    }
    assert_eq!(
        scheduler.failures(),
        JobFailures {
            panics: u64::from(JOB_ATTEMPTS),
            given_up: vec![bad],
        }
    );

    // A change to the chunk gives it fresh attempts (still bounded).
    scheduler.request(bad);
    assert!(drain(&mut scheduler, &world).is_empty());
    assert_eq!(scheduler.failures().panics, 2 * u64::from(JOB_ATTEMPTS));
    assert_eq!(scheduler.failures().given_up, vec![bad]);
}

#[test]
fn a_panicking_terrain_job_is_given_up_on_and_the_other_chunks_arrive() {
    let terrain = Terrain::with_generator(8, TerrainGenerator::Biomes);
    let mut generator = ChunkGenerator::with_threads(terrain, 1);
    let wanted: Vec<ChunkPos> = (0..5).map(|i| ChunkPos::new(i, 1, -i)).collect();
    let bad = wanted[1];
    generator.inject_panic(bad);
    let mut arrived = BTreeMap::new();
    for _ in 0..100 {
        let missing: Vec<ChunkPos> = wanted
            .iter()
            .copied()
            .filter(|pos| !arrived.contains_key(&pos.0.to_array()))
            .collect();
        generator.request(&missing, usize::MAX);
        for (pos, chunk) in generator.wait_all() {
            assert!(arrived.insert(pos.0.to_array(), chunk).is_none());
        }
        if generator.in_flight() == 0 && missing.iter().all(|&pos| generator.gave_up(pos)) {
            break;
        }
    }
    assert_eq!(generator.in_flight(), 0, "still waiting on a chunk");
    assert_eq!(arrived.len(), wanted.len() - 1);
    for (pos, chunk) in &arrived {
        assert_eq!(*chunk, terrain.generate(ChunkPos(IVec3::from(*pos))));
    }
    assert_eq!(
        generator.failures(),
        JobFailures {
            panics: u64::from(JOB_ATTEMPTS),
            given_up: vec![bad],
        }
    );
    // Given up: not queued again.
    assert_eq!(generator.request(&[bad], usize::MAX), 0);
}

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
