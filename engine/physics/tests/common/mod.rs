//! Shared setup: a fixed 60 Hz loop on a manual clock with physics installed.

#![allow(dead_code, reason = "each test file uses a different part")]

use glam::Vec3;
use taos_core::game_loop::{GameLoop, LoopConfig, ManualClock};
use taos_core::prelude::*;
use taos_physics::{Collider, Physics, PhysicsConfig, RigidBody};

/// Ticks per second of every test loop.
pub(crate) const HZ: u32 = 60;

/// A fixed 60 Hz loop with physics and its replay hooks installed.
pub(crate) fn game() -> GameLoop {
    let mut scene = Scene::new();
    taos_physics::install(&mut scene, PhysicsConfig::default());
    let config = LoopConfig::fixed(HZ).expect("60 Hz is valid");
    let mut game = GameLoop::new(scene, config, ManualClock::new()).expect("valid loop");
    taos_physics::install_replay(&mut game);
    game
}

/// Runs `ticks` fixed ticks.
pub(crate) fn run(game: &mut GameLoop, ticks: u32) {
    for _ in 0..ticks {
        game.step();
    }
}

/// A fixed ground box whose top face is at y = 0.
pub(crate) fn ground(game: &mut GameLoop, collider: Collider) -> GameObject {
    let scene = game.scene_mut();
    let ground = scene.spawn_with(
        "Ground",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene.add_component(ground, collider).expect("live object");
    ground
}

/// The default ground: 100 x 1 x 100 m.
pub(crate) fn plain_ground(game: &mut GameLoop) -> GameObject {
    ground(
        game,
        Collider::cuboid(Vec3::new(50.0, 0.5, 50.0)).expect("valid box"),
    )
}

/// A dynamic object at `position` with `body` and `collider`.
pub(crate) fn dynamic(
    game: &mut GameLoop,
    name: &str,
    position: Vec3,
    body: RigidBody,
    collider: Collider,
) -> GameObject {
    let scene = game.scene_mut();
    let object = scene.spawn_with(name, Transform::from_position(position));
    scene.add_component(object, body).expect("live object");
    scene.add_component(object, collider).expect("live object");
    object
}

/// The scene's physics world.
pub(crate) fn physics(game: &GameLoop) -> &Physics {
    game.scene().world().resource::<Physics>()
}

/// The scene's physics world, mutable.
pub(crate) fn physics_mut(game: &mut GameLoop) -> bevy_ecs::change_detection::Mut<'_, Physics> {
    game.scene_mut().world_mut().resource_mut::<Physics>()
}

/// An object's world position.
pub(crate) fn position(game: &GameLoop, object: GameObject) -> Vec3 {
    game.scene().world_position(object).expect("live object")
}
