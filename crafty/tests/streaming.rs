//! Chunks beyond the player's reach are generated on worker threads: the
//! view fills in without stalling the tick, and the simulation plays the
//! same whether a chunk arrived early or late.

use crafty::game::{state, state_mut, teleport};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::TerrainGenerator;
use glam::Vec3;
use taos_engine::game_loop::{ActionFlags, GameLoop, ManualClock};

const FORWARD: ActionFlags = ActionFlags(1 << 15);

fn walk(background: bool, ticks: u32) -> (Session, GameLoop) {
    let mut record = SavedWorld::create("Walk", 3, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: 16.5,
        y: 100.0,
        z: 16.5,
        yaw: 0.0,
        pitch: 0.0,
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    state_mut(&mut game).set_view_radius(6);
    state_mut(&mut game).set_background_generation(background);
    for tick in 0..ticks {
        // Carried along -z high over the land, half a block a tick, and
        // walking (so the controller, collision and targeting all run).
        let z = 16.5 - tick as f32 * 0.5;
        teleport(&mut game, Vec3::new(16.5, 110.0, z));
        game.step_with(FORWARD);
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
    }
    (session, game)
}

#[test]
fn the_view_fills_in_from_the_workers_and_play_is_the_same() {
    let (mut background, mut moved) = walk(true, 600);
    let (_, mut in_tick) = walk(false, 600);
    let start = 16.5;
    let travelled = start - state(&moved).player.body.position.z;
    assert!(
        travelled > 32.0,
        "crossed a chunk border: {travelled} blocks"
    );
    assert_eq!(moved.state_checksum(), in_tick.state_checksum());

    background.finish_meshing(&mut moved);
    let (loaded, total) = background.generation_progress(&moved);
    assert_eq!(loaded, total, "the whole view arrived");
    assert_eq!(total, 13 * 13 * 4);
    assert!(state(&moved).chunks_wanted().is_empty());
}

#[test]
fn without_workers_everything_is_generated_in_the_tick() {
    let (session, game) = walk(false, 1);
    assert!(state(&game).chunks_wanted().is_empty());
    let (loaded, total) = session.generation_progress(&game);
    assert_eq!(loaded, total);
}

#[test]
fn the_far_view_fills_in_and_a_far_edit_changes_it() {
    use crafty::lod::LodTile;
    use crafty::render::Upload;
    use crafty::world::BlockType;
    let mut record = SavedWorld::create("Far", 42, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: 16.5,
        y: 120.0,
        z: 16.5,
        yaw: 0.0,
        pitch: -0.2,
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render.clone());
    session.set_view_distance(&mut game, 24);
    assert_eq!(state(&game).view_radius, crafty::session::NEAR_CHUNKS);
    // Paced by hand: frames until the whole view is drawn.
    let mut frames = 0;
    while !session.horizon_complete(&game) {
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        std::thread::sleep(std::time::Duration::from_millis(2));
        frames += 1;
        assert!(frames < 20_000, "the horizon never completed");
    }
    let far = session.far_stats();
    assert!(far.planned > 50 && far.ready == far.planned, "{far:?}");
    let uploads = render.take_uploads();
    let tiles: Vec<LodTile> = uploads
        .iter()
        .filter_map(|(key, _)| match key {
            Upload::Far(tile, _) => Some(*tile),
            Upload::Chunk(_) => None,
        })
        .collect();
    assert!(tiles.iter().any(|t| t.level >= 2), "coarse tiles far away");

    // A tower 600 blocks away, in a far tile: that tile is built again.
    let at = glam::IVec3::new(16, 0, -600);
    for y in 100..127 {
        state_mut(&mut game)
            .world
            .set_block(at.with_y(y), BlockType::Planks)
            .expect("inside the world");
    }
    let column = glam::IVec2::new(0, -19);
    let covering = (0..=crafty::lod::MAX_LOD_LEVEL)
        .map(|level| LodTile::containing(level, column))
        .find(|t| tiles.contains(t))
        .expect("a far tile covers the tower");
    let mut rebuilt = false;
    for _ in 0..2000 {
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        rebuilt |= render.take_uploads().iter().any(|(key, mesh)| {
            matches!(key, Upload::Far(t, _) if *t == covering) && mesh.is_some()
        });
        if rebuilt {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(rebuilt, "{covering:?} was not rebuilt after the edit");
    // Back to a short view: no far terrain left.
    session.set_view_distance(&mut game, 6);
    session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
    assert_eq!(session.far_stats().resident, 0);
}
