//! crafty's image test: a fixed seed and camera rendered on the GPU
//! (lavapipe in CI) and compared with a reference PNG.

use std::path::Path;

use crafty::headless::render_offscreen;
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::Session;
use taos_engine::game_loop::ManualClock;
use taos_image_compare::{Tolerance, assert_matches_reference};

#[test]
fn seed_42_from_a_fixed_camera_matches_the_reference() {
    let mut record = SavedWorld::create("Image test", 42, GameMode::Creative, 0);
    record.player = PlayerState {
        x: 20.5,
        y: 90.0,
        z: 40.5,
        yaw: 0.6,
        pitch: -0.35,
    };
    record.sun_angle = 1.0;
    let (feature, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    let (width, height) = (320, 180);
    let pixels = render_offscreen(&mut session, &mut game, feature, (width, height))
        .expect("a GPU (lavapipe)");
    // Software rasterisers differ by a step or two per channel at edges and
    // in the atlas's nearest-filtered texels: allow 3 steps and 1% outliers.
    assert_matches_reference(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference"),
        "seed42_view",
        width,
        height,
        &pixels,
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}
