//! What the engine renders of a session: the player object (its
//! [`PlayerController`](taos_core::controllers::PlayerController) keeps it at the player's eye) as the scene's
//! [`Camera`], and the sun (or moon) of this moment of game time as its
//! [`DirectionalLight`] object.
//!
//! Both are placed in behaviours' `update_render`, which runs after the
//! tick's systems and before the engine reads the scene into the frame: the
//! frame is filled from the scene, and nothing flows back.

use bevy_ecs::resource::Resource;
use glam::Vec3;
use taos_core::{
    Behaviour, BehaviourContext, BehaviourResult, Camera, DirectionalLight, GameObject, Scene,
    SceneError,
};

use crate::game::Game;
use crate::player::player_controller;

/// Vertical field of view, degrees.
pub const FOV_DEGREES: f32 = 70.0;
/// Near plane, blocks.
pub const NEAR: f32 = 0.05;
/// Far plane, blocks (beyond the loaded chunks).
pub const FAR: f32 = 400.0;

/// The objects a session's scene renders through (a resource of the scene).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewObjects {
    /// The player: its [`PlayerController`](taos_core::controllers::PlayerController), and the camera at its eye.
    pub player: GameObject,
    /// The sun or the moon, whichever lights the world.
    pub sun: GameObject,
}

/// Spawns the player object (a [`PlayerController`](taos_core::controllers::PlayerController) for the scene's
/// [`Game`] player, stepping once per tick of a `tick_hz` loop, and the
/// camera) and the sun (kept on game time) into `scene`, and records them as
/// the scene's [`ViewObjects`].
///
/// # Errors
/// [`SceneError`] if the scene refuses the objects (it never does for a new
/// scene).
///
/// # Panics
/// If the scene holds no [`Game`] (install one first).
pub fn spawn_view(scene: &mut Scene, tick_hz: u32) -> Result<ViewObjects, SceneError> {
    let controller = player_controller(&scene.world().resource::<Game>().player, tick_hz);
    let player = scene.spawn("Player");
    let projection = Camera::perspective(FOV_DEGREES, NEAR, FAR, 16.0 / 9.0)
        .expect("the field of view and clip planes are valid constants");
    scene.add_component(player, projection)?;
    scene.add_behaviour(player, controller)?;
    let sun = scene.spawn("Sun");
    scene.add_component(sun, DirectionalLight::new(Vec3::NEG_Y, Vec3::ONE, 1.0))?;
    scene.add_behaviour(sun, LightOfTheHour)?;
    let objects = ViewObjects { player, sun };
    scene.world_mut().insert_resource(objects);
    let light = sun_light(scene.world().resource::<Game>());
    if let Some(mut sun) = scene.get_component_mut::<DirectionalLight>(sun) {
        *sun = light;
    }
    Ok(objects)
}

/// The direct light of this moment: the sun while it is up, else the moon.
fn sun_light(game: &Game) -> DirectionalLight {
    let sky = game.time.sky();
    let mut light = DirectionalLight::new(-sky.light_direction, sky.light_color, 1.0);
    light.cast_shadows = false;
    light
}

/// Keeps its object's [`DirectionalLight`] on the sun or moon of game time.
struct LightOfTheHour;

impl Behaviour for LightOfTheHour {
    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        let Some(light) = cx.world().get_resource::<Game>().map(sun_light) else {
            return Ok(());
        };
        let entity = cx.object().entity();
        if let Some(mut sun) = cx.world_mut().get_mut::<DirectionalLight>(entity) {
            *sun = light;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{GameMode, Player};

    #[test]
    fn the_camera_looks_where_the_player_looks() {
        for (yaw, pitch) in [(0.0, 0.0), (0.6, -0.35), (2.5, 1.2), (-1.0, 0.4)] {
            let player = Player::new(Vec3::ZERO, yaw, pitch, GameMode::Creative);
            let controller = player_controller(&player, 60);
            let forward = controller.view_rotation() * Vec3::NEG_Z;
            assert!(
                forward.abs_diff_eq(player.look_direction(), 1e-5),
                "{forward} vs {}",
                player.look_direction()
            );
        }
    }
}
