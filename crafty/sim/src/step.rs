//! One player's tick, as the server steps it and as a client predicts it:
//! the single-player [`PlayerController`] in a scene whose [`StepWorld`]
//! is the voxel world it collides with, turned to the tick's look angles
//! and driven by the flags in its object's [`NetInput`]
//! ([`apply_input`]). Both sides build players here, so a prediction steps
//! exactly as the server does.

use crate::inventory::GameMode;
use crate::player::{command_from_flags, motor_settings};
use crate::world::World;
use bevy_ecs::prelude::{Component, Resource};
use bevy_ecs::world::World as Ecs;
use crafty_net::protocol::{BodyState, TickInput};
use glam::Vec3;
use taos_core::controllers::{CollisionQuery, PlayerController, PlayerDrive};
use taos_core::game_loop::ActionFlags;
use taos_core::{GameObject, Scene};

/// The world the players' controllers collide with.
#[derive(Resource, Debug)]
pub struct StepWorld(pub World);

fn step_collision(world: &Ecs) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<StepWorld>()
        .map(|w| &w.0 as &dyn CollisionQuery)
}

/// The flags a player's controller steps with this tick.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct NetInput(pub u32);

/// Readies `object` (made by [`spawn_player`]) for one tick of `input`:
/// turns its view to the tick's look angles (wrapped and clamped as mouse
/// look is) and sets the flags its controller steps with.
pub fn apply_input(scene: &mut Scene, object: GameObject, input: TickInput) {
    if let Some(c) = scene.behaviour_mut::<PlayerController>(object) {
        let (yaw, pitch) = (c.yaw, c.pitch);
        c.look(input.yaw - yaw, input.pitch - pitch);
    }
    let _ = scene.add_component(object, NetInput(input.flags));
}

/// Spawns a player object named `name` standing at `feet`, looking
/// `yaw`/`pitch`, stepped once per tick of a `tick_hz` loop.
pub fn spawn_player(
    scene: &mut Scene,
    name: &str,
    feet: Vec3,
    (yaw, pitch): (f32, f32),
    mode: GameMode,
    tick_hz: u32,
) -> GameObject {
    let object = scene.spawn(format!("Player {name}"));
    let mut controller = PlayerController::new(motor_settings());
    let entity = object.entity();
    controller.drive = PlayerDrive::commands(move |world: &Ecs| {
        let flags = world.get::<NetInput>(entity).map_or(0, |input| input.0);
        command_from_flags(ActionFlags(flags))
    });
    controller.collision = step_collision;
    controller.touch = None;
    controller.mouse_look = false;
    controller.can_fly = mode == GameMode::Creative;
    controller.step_hz = tick_hz as f32;
    controller.interpolate = false;
    controller.teleport(feet);
    controller.yaw = yaw;
    controller.pitch = pitch;
    let _ = scene.add_component(object, NetInput(0));
    let _ = scene.add_behaviour(object, controller);
    object
}

/// The body of `object`'s controller as the protocol carries it.
pub fn body_of(scene: &Scene, object: GameObject) -> Option<BodyState> {
    let c = scene.behaviour::<PlayerController>(object)?;
    Some(BodyState {
        position: c.motor.position.to_array(),
        velocity: c.motor.velocity.to_array(),
        yaw: c.yaw,
        pitch: c.pitch,
        on_ground: c.motor.on_ground,
        flying: c.motor.flying,
        crouching: c.motor.crouching,
    })
}

/// Puts `object`'s controller in `body`'s state (a correction from the
/// server).
pub fn set_body(scene: &mut Scene, object: GameObject, body: &BodyState) {
    if let Some(c) = scene.behaviour_mut::<PlayerController>(object) {
        c.teleport(Vec3::from_array(body.position));
        c.motor.velocity = Vec3::from_array(body.velocity);
        c.motor.on_ground = body.on_ground;
        c.motor.flying = body.flying;
        c.motor.crouching = body.crouching;
        c.yaw = body.yaw;
        c.pitch = body.pitch;
    }
}

/// A body at rest at the origin: what a player object without a controller
/// (never the case for the ones made here) reads as.
pub fn origin_body() -> BodyState {
    BodyState {
        position: [0.0; 3],
        velocity: [0.0; 3],
        yaw: 0.0,
        pitch: 0.0,
        on_ground: false,
        flying: false,
        crouching: false,
    }
}
