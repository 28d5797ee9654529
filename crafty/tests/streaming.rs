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
