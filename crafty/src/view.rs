//! What the renderer sees of a session: the player's eye as a camera.

use glam::Vec3;
use glam::camera::rh::proj::directx;
use glam::camera::rh::view::look_to_mat4;
use taos_renderer::frame::CameraView;

use crate::player::Player;

/// Vertical field of view, degrees.
pub const FOV_DEGREES: f32 = 70.0;
/// Near plane, blocks.
pub const NEAR: f32 = 0.05;
/// Far plane, blocks (beyond the loaded chunks).
pub const FAR: f32 = 400.0;

/// The camera at the player's eye, looking where the player looks, for an
/// output of `width` x `height` pixels.
#[must_use]
pub fn player_camera(player: &Player, width: u32, height: u32) -> CameraView {
    let eye = player.body.eye();
    let forward = player.look_direction();
    let aspect = width.max(1) as f32 / height.max(1) as f32;
    CameraView {
        view: look_to_mat4(eye, forward, Vec3::Y),
        projection: directx::perspective(FOV_DEGREES.to_radians(), aspect, NEAR, FAR),
        position: eye,
        forward,
        near: NEAR,
        far: FAR,
    }
}
