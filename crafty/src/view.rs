//! What the engine renders of a session: the player's eye as the scene's
//! [`Camera`] object, and the sun (or moon) of this moment of game time as
//! its [`DirectionalLight`] object.
//!
//! Both follow the [`Game`] in their behaviours' `update_render`, which runs
//! after the tick's systems and before the engine reads the scene into the
//! frame: the frame is filled from the scene, and nothing flows back.

use bevy_ecs::resource::Resource;
use glam::{Quat, Vec3};
use taos_engine::{
    Behaviour, BehaviourContext, BehaviourResult, Camera, DirectionalLight, GameObject, Scene,
    SceneError,
};

use crate::game::Game;
use crate::player::Player;

/// Vertical field of view, degrees.
pub const FOV_DEGREES: f32 = 70.0;
/// Near plane, blocks.
pub const NEAR: f32 = 0.05;
/// Far plane, blocks (beyond the loaded chunks).
pub const FAR: f32 = 400.0;

/// The objects a session's scene renders through (a resource of the scene).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewObjects {
    /// The camera at the player's eye.
    pub camera: GameObject,
    /// The sun or the moon, whichever lights the world.
    pub sun: GameObject,
}

/// The rotation that turns the engine's forward (-z) to where the player
/// looks ([`Player::look_direction`]).
#[must_use]
pub fn look_rotation(player: &Player) -> Quat {
    Quat::from_rotation_y(player.yaw) * Quat::from_rotation_x(player.pitch)
}

/// Spawns the camera and the sun into `scene`, each kept in step with the
/// scene's [`Game`] resource, and records them as the scene's [`ViewObjects`].
///
/// # Errors
/// [`SceneError`] if the scene refuses the objects (it never does for a new
/// scene).
pub fn spawn_view(scene: &mut Scene) -> Result<ViewObjects, SceneError> {
    let camera = scene.spawn("Player camera");
    let projection = Camera::perspective(FOV_DEGREES, NEAR, FAR, 16.0 / 9.0)
        .expect("the field of view and clip planes are valid constants");
    scene.add_component(camera, projection)?;
    scene.add_behaviour(camera, FollowEye)?;
    let sun = scene.spawn("Sun");
    scene.add_component(sun, DirectionalLight::new(Vec3::NEG_Y, Vec3::ONE, 1.0))?;
    scene.add_behaviour(sun, LightOfTheHour)?;
    let objects = ViewObjects { camera, sun };
    scene.world_mut().insert_resource(objects);
    place(scene);
    Ok(objects)
}

/// Puts the camera at the player's eye and sets the sun from game time now
/// (what the behaviours do every frame; a window calls it after mouse look).
pub fn place(scene: &mut Scene) {
    let world = scene.world();
    let (Some(game), Some(&objects)) = (
        world.get_resource::<Game>(),
        world.get_resource::<ViewObjects>(),
    ) else {
        return;
    };
    let (eye, rotation, light) = (
        game.player.body.eye(),
        look_rotation(&game.player),
        sun_light(game),
    );
    if let Ok(mut camera) = scene.object_mut(objects.camera) {
        *camera.position_mut() = eye;
        *camera.rotation_mut() = rotation;
    }
    if let Some(mut sun) = scene.get_component_mut::<DirectionalLight>(objects.sun) {
        *sun = light;
    }
}

/// The direct light of this moment: the sun while it is up, else the moon.
fn sun_light(game: &Game) -> DirectionalLight {
    let sky = game.time.sky();
    let mut light = DirectionalLight::new(-sky.light_direction, sky.light_color, 1.0);
    light.cast_shadows = false;
    light
}

/// Keeps its object at the player's eye, looking where the player looks.
struct FollowEye;

impl Behaviour for FollowEye {
    fn update_render(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        let Some(game) = cx.world().get_resource::<Game>() else {
            return Ok(());
        };
        let (eye, rotation) = (game.player.body.eye(), look_rotation(&game.player));
        *cx.position_mut() = eye;
        *cx.rotation_mut() = rotation;
        Ok(())
    }
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
    use crate::player::GameMode;

    #[test]
    fn the_camera_looks_where_the_player_looks() {
        for (yaw, pitch) in [(0.0, 0.0), (0.6, -0.35), (2.5, 1.2), (-1.0, 0.4)] {
            let player = Player::new(Vec3::ZERO, yaw, pitch, GameMode::Creative);
            let forward = look_rotation(&player) * Vec3::NEG_Z;
            assert!(
                forward.abs_diff_eq(player.look_direction(), 1e-5),
                "{forward} vs {}",
                player.look_direction()
            );
        }
    }
}
