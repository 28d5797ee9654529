//! A panicking mesh or terrain job (a bug in the mesher or the generator)
//! is caught on its worker: it is logged and counted, its chunk is tried
//! [`JOB_ATTEMPTS`] times and then given up on, and the other chunks carry
//! on (crafty's `tests/session_job_panics.rs` plays a whole session around
//! one).
//!
//! Without the catch the worker thread died with the job: its chunk stayed
//! "in flight" forever, so waiting for it blocked or spun. The loops here
//! are bounded so that shows up as a failure rather than a hang.

use std::collections::BTreeMap;

use crafty_sim::mesh::{ChunkMesh, MeshScheduler, mesh_now};
use crafty_sim::world::{
    ChunkGenerator, ChunkPos, JOB_ATTEMPTS, JobFailures, Terrain, TerrainGenerator, World,
};
use glam::{IVec3, Vec3};

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
