//! The editor's own camera: placed where the game's is when the editor
//! opens, turned by a right-button drag, moved along its view by the wheel.

use glam::Vec2;

use super::Editor;
use crate::{Engine, GameObject, Transform};

/// The editor's own camera while it is open, the game's to go back to, and
/// the turn a right-button drag gives it.
#[derive(Debug, Default)]
pub(super) struct EditorCamera {
    /// The editor's camera object while the editor is open.
    pub(super) object: Option<GameObject>,
    /// The game's camera to go back to (`None`: the scene's first camera).
    pub(super) game: Option<GameObject>,
    /// Whether the right button is held (the mouse turns the camera).
    pub(super) looking: bool,
    yaw: f32,
    pitch: f32,
}

impl Editor {
    pub(super) fn spawn_camera(&mut self, engine: &mut Engine) {
        let scene = engine.scene();
        let game = engine.camera();
        // The game's explicit choice, if it made one (else: the first camera).
        self.view.game = game.filter(|&c| Some(c) != scene.find_camera());
        let (placement, lens) = game
            .and_then(|c| {
                let world = scene.world_matrix(c)?;
                let lens = scene.get_component::<crate::Camera>(c)?.clone();
                Some((world, lens))
            })
            .map_or_else(
                || {
                    let at = glam::Affine3A::from_translation(glam::Vec3::new(0.0, 3.0, 10.0));
                    let lens = crate::Camera::perspective(60.0, 0.1, 500.0, 16.0 / 9.0);
                    (at, lens.ok())
                },
                |(world, lens)| (world, Some(lens)),
            );
        let (_, rotation, position) = placement.to_scale_rotation_translation();
        let (yaw, pitch, _) = rotation.to_euler(glam::EulerRot::YXZ);
        (self.view.yaw, self.view.pitch) = (yaw, pitch);
        let scene = engine.scene_mut();
        let camera = scene.spawn_with(
            "Editor camera",
            Transform::from_trs(position, rotation.normalize(), glam::Vec3::ONE),
        );
        let _ = scene.add_component(camera, crate::scene_file::EditorOnly);
        if let Some(lens) = lens {
            let _ = scene.add_component(camera, lens);
        }
        engine.set_camera(Some(camera));
        self.view.object = Some(camera);
    }

    /// Turns the editor camera by a mouse motion of `delta` pixels (what a
    /// right-button drag does).
    pub fn look(&mut self, engine: &mut Engine, delta: Vec2) {
        let Some(camera) = self.view.object else {
            return;
        };
        let view = &mut self.view;
        view.yaw -= delta.x * 0.005;
        view.pitch = (view.pitch - delta.y * 0.005).clamp(-1.5, 1.5);
        let rotation = glam::Quat::from_euler(glam::EulerRot::YXZ, view.yaw, view.pitch, 0.0);
        if let Ok(mut object) = engine.scene_mut().object_mut(camera) {
            object.set_rotation(rotation);
        }
    }

    /// Moves the editor camera `metres` along its view (what the wheel does).
    pub fn dolly(&mut self, engine: &mut Engine, metres: f32) {
        let Some(camera) = self.view.object else {
            return;
        };
        let scene = engine.scene_mut();
        let Some(t) = scene.transform(camera).copied() else {
            return;
        };
        let forward = t.rotation * glam::Vec3::NEG_Z;
        if let Ok(mut object) = scene.object_mut(camera) {
            object.set_position(t.position + forward * metres);
        }
    }
}
