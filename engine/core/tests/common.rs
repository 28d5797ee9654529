//! Helpers shared by the integration tests: a from-scratch world matrix, and
//! fixed-rate loops on a manual clock.

#![allow(dead_code, reason = "each test binary uses a subset")]

use taos_core::deps::glam::Affine3A;
use taos_core::game_loop::{FixedStep, LoopPolicy, LoopWarning, ManualClock, PresentOn, Rate};
use taos_core::prelude::*;

/// World matrix recomputed from scratch by walking the parent chain, with no caches.
pub(crate) fn scratch_world(scene: &Scene, object: GameObject) -> Affine3A {
    let mut matrix = scene.transform(object).unwrap().compute_local_matrix();
    let mut current = object;
    while let Some(parent) = scene.parent(current) {
        matrix = scene.transform(parent).unwrap().compute_local_matrix() * matrix;
        current = parent;
    }
    matrix
}

pub(crate) fn assert_affine_close(a: &Affine3A, b: &Affine3A, tolerance: f32, what: &str) {
    let (a, b) = (Mat4::from(*a), Mat4::from(*b));
    let scale = 1.0
        + a.abs()
            .to_cols_array()
            .iter()
            .fold(0.0f32, |m, v| m.max(*v));
    assert!(
        a.abs_diff_eq(b, tolerance * scale),
        "{what}: cached {a:?} != scratch {b:?}"
    );
}

/// A fixed-rate loop configuration presenting as `present` says.
pub(crate) fn fixed(hz: u32, present: PresentOn) -> LoopConfig {
    let mut step = FixedStep::new(Rate::hz(hz).unwrap());
    step.present = present;
    LoopConfig {
        policy: LoopPolicy::Fixed(step),
        ..LoopConfig::default()
    }
}

/// A loop over `scene`, with its clock, already past its first (time-base) callback.
pub(crate) fn started(scene: Scene, config: LoopConfig) -> (GameLoop, ManualClock) {
    let clock = ManualClock::new();
    let mut game = GameLoop::new(scene, config, clock.clone()).unwrap();
    game.on_clock();
    (game, clock)
}

/// Taps `down` then `up` four times, stepping 14 ticks after each, and says
/// whether the watchdog called the game unresponsive on any of those ticks.
pub(crate) fn unresponsive_after_taps(
    game: &mut GameLoop,
    down: InputEvent,
    up: InputEvent,
) -> bool {
    let mut hang = false;
    for _ in 0..4 {
        game.push_input(down);
        game.push_input(up);
        for _ in 0..14 {
            game.step();
            hang |= game
                .warnings()
                .iter()
                .any(|w| matches!(w, LoopWarning::Unresponsive { .. }));
        }
    }
    hang
}
