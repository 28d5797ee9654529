//! The player object's controller, driven by crafty: the engine's
//! [`PlayerController`] takes each tick's command from crafty's recorded
//! action flags (so replays move the player exactly as played) and collides
//! with the game's voxel world.

use bevy_ecs::world::World as Ecs;
use glam::Vec2;
use taos_core::controllers::{CollisionQuery, PlayerCommand, PlayerController, PlayerDrive};
use taos_core::game_loop::{ActionFlags, Actions};

use super::{ActionFlagsExt as _, Movement, Pitch, Player, PlayerActions, Yaw, motor_settings};
use crate::game::Game;
use crate::inventory::GameMode;

/// Keyboard turning speed, radians per tick.
pub const TURN_PER_TICK: f32 = 0.05;

/// The command of the tick being simulated, from the scene's [`Actions`]
/// (no actions: stand still).
#[must_use]
pub fn command_from_actions(world: &Ecs) -> PlayerCommand {
    let actions = world.get_resource::<Actions>().copied().unwrap_or_default();
    command(&actions.current.decode())
}

/// The command one tick of crafty's action flags gives (what a server
/// steps a remote player with, from the flags its client sent).
#[must_use]
pub fn command_from_flags(flags: ActionFlags) -> PlayerCommand {
    command(&flags.decode())
}

/// What crafty's flags ask of the body: keyboard turning, walking and
/// strafing, jump (rise when flying), sprint, crouch (sink when flying), and
/// the fly toggle.
fn command(now: &PlayerActions) -> PlayerCommand {
    let axis = |plus: bool, minus: bool| f32::from(u8::from(plus)) - f32::from(u8::from(minus));
    let turn_yaw = match now.yaw {
        Yaw::Relative {
            turn_left,
            turn_right,
            ..
        } => axis(turn_left, turn_right),
        Yaw::Absolute(_) => 0.0,
    };
    let turn_pitch = match now.pitch {
        Pitch::Relative {
            look_up, look_down, ..
        } => axis(look_up, look_down),
        Pitch::Absolute(_) => 0.0,
    };
    let (forward, backward, run, crouch) = match now.movement {
        Movement::Relative {
            forward,
            backward,
            run,
            look_dont_turn,
        } => (forward, backward, run, look_dont_turn),
        Movement::Absolute(_) => (false, false, false, false),
    };
    let buttons = now.buttons;
    let walk = Vec2::new(
        axis(buttons.sidestep_right, buttons.sidestep_left),
        axis(forward, backward),
    );
    PlayerCommand {
        walk: walk.normalize_or_zero(),
        turn: Vec2::new(turn_yaw, turn_pitch) * TURN_PER_TICK,
        jump: buttons.swim,
        run,
        crouch,
        toggle_fly: buttons.toggle_map,
    }
}

/// The game's voxel world as the controller's collision.
fn voxel_collision(world: &Ecs) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<Game>()
        .map(|game| &game.world as &dyn CollisionQuery)
}

/// The controller for `player`'s object: crafty's body sizes and speeds, its
/// body and view as they are, flying only in creative, one motor step per
/// tick of a `tick_hz` loop, driven by [`command_from_actions`] against the
/// scene's [`Game`] world. Its touch controls are off: crafty's own touch
/// layout feeds the action flags.
#[must_use]
pub fn player_controller(player: &Player, tick_hz: u32) -> PlayerController {
    let mut controller = PlayerController::new(motor_settings());
    controller.drive = PlayerDrive::commands(command_from_actions);
    controller.collision = voxel_collision;
    controller.touch = None;
    controller.mouse_look = false;
    controller.can_fly = player.mode == GameMode::Creative;
    controller.step_hz = tick_hz as f32;
    // One step per tick: the camera shows the tick just simulated.
    controller.interpolate = false;
    controller.teleport(player.body.position);
    controller.motor = player.body.motor();
    controller.motor.flying &= controller.can_fly;
    controller.yaw = player.yaw;
    controller.pitch = player.pitch;
    controller
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_a_command_in_the_players_frame() {
        // forward (15) + sidestep right (23) + run (17) + swim/jump (31)
        let flags = ActionFlags(1 << 15 | 1 << 23 | 1 << 17 | 1 << 31);
        let c = command(&flags.decode());
        assert!((c.walk - Vec2::new(1.0, 1.0).normalize()).length() < 1e-6);
        assert!(c.run && c.jump && !c.crouch && !c.toggle_fly);
        assert_eq!(c.turn, Vec2::ZERO);
        // turn left (1) + look down (10) + look-don't-turn, crouch (18)
        let flags = ActionFlags(1 << 1 | 1 << 10 | 1 << 18);
        let c = command(&flags.decode());
        assert_eq!(c.turn, Vec2::new(TURN_PER_TICK, -TURN_PER_TICK));
        assert!(c.crouch);
    }
}
