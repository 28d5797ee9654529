//! What crafty's image tests share: one 320 x 180 offscreen frame of a
//! session on the GPU (lavapipe in CI), compared with a reference PNG.

use std::path::Path;

use crafty::headless::render_offscreen;
use crafty::render::CraftyPipelineFeature;
use crafty::session::Session;
use taos_engine::game_loop::GameLoop;
use taos_image_compare::{Tolerance, assert_matches_reference};

/// Renders `session` as it stands and compares the frame with reference
/// `name`, allowing 3 steps per channel (software rasterisers differ a
/// little at edges) and `outliers` of the pixels beyond that; returns the
/// pixels (RGBA8).
pub(crate) fn assert_session_looks_like(
    name: &str,
    session: &mut Session,
    game: &mut GameLoop,
    feature: CraftyPipelineFeature,
    outliers: f64,
) -> Vec<u8> {
    let (width, height) = (320, 180);
    let pixels =
        render_offscreen(session, game, feature, (width, height)).expect("a GPU (lavapipe)");
    assert_matches_reference(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference"),
        name,
        width,
        height,
        &pixels,
        Tolerance {
            per_channel: 3,
            outlier_fraction: outliers,
        },
    );
    pixels
}
