//! `shooter` as an image test and a replay test: the scripted demo renders
//! the reference frame, replays to the same checksum twice, and a restored
//! snapshot continues to that same checksum.

use std::path::Path;

use taos_engine::game_loop::PauseReason;
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{Score, shooter, shooter_demo, shooter_loop, shooter_preset};

fn engine(width: u32, height: u32) -> Engine {
    let config = EngineConfig {
        loop_config: shooter_loop(),
        ..EngineConfig::new(width, height)
    };
    let mut engine = Engine::headless(config, shooter_preset())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    shooter(&mut engine).unwrap();
    engine.game_loop().replay(shooter_demo()).unwrap();
    engine
}

fn play(engine: &mut Engine, frames: usize) {
    for _ in 0..frames {
        engine.frame().unwrap();
    }
}

#[test]
fn shooter_matches_its_reference() {
    let mut engine = engine(160, 120);
    play(&mut engine, 200);
    let pixels = engine.read_pixels().unwrap();
    // Lavapipe made the reference; small moving cubes and shots make
    // silhouettes the main difference between drivers: 3 steps per channel,
    // 2% of pixels beyond.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "shooter", 160, 120, &pixels, tolerance);
}

#[test]
fn the_demo_replays_to_the_same_checksum_and_a_restore_continues_to_it() {
    let finish = |engine: &mut Engine| {
        while engine.game_loop().pause_reason() != Some(PauseReason::ReplayFinished) {
            engine.frame().unwrap();
        }
        assert_eq!(engine.game_loop().tick_count(), 360);
        engine.game_loop().state_checksum()
    };
    let mut first = engine(16, 16);
    let expected = finish(&mut first);
    let score = first.scene().world().resource::<Score>().0;
    assert!(score > 0, "the demo hits targets");
    let mut second = engine(16, 16);
    assert_eq!(finish(&mut second), expected);

    // Snapshot mid-game (during slow motion), finish, restore, finish again.
    let mut third = engine(16, 16);
    play(&mut third, 120);
    let saved = third.game_loop().snapshot().unwrap();
    assert_eq!(finish(&mut third), expected);
    third.game_loop().restore(&saved).unwrap();
    // The replay ran out in the original timeline: feed it again from the save.
    third
        .game_loop()
        .replay_from(shooter_demo(), saved.tick())
        .unwrap();
    assert_eq!(finish(&mut third), expected);
}
