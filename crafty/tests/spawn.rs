//! A new biome world's player starts standing on solid ground above the
//! sea, whatever the seed.

use crafty::game::state;
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::SavedWorld;
use crafty::session::Session;
use crafty::world::{SEA_LEVEL, TerrainGenerator};
use glam::IVec3;
use taos_engine::game_loop::ManualClock;

#[test]
fn a_new_biome_world_starts_on_dry_land() {
    for seed in 0..12 {
        let record = SavedWorld::create("Spawn", seed, GameMode::Creative, 0)
            .with_generator(TerrainGenerator::Biomes);
        let (_, render) = CraftyPipelineFeature::new();
        let (_session, game) = Session::fresh(record, ManualClock::new(), render);
        let game = state(&game);
        let feet = game.player.body.position;
        assert!(
            feet.y > (SEA_LEVEL + 1) as f32,
            "seed {seed}: feet at {feet}"
        );
        let below = game.world.block(feet.floor().as_ivec3() - IVec3::Y);
        assert!(below.is_solid(), "seed {seed}: standing on {below:?}");
    }
}
