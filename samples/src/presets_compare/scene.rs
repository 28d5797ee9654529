//! The scene compared: the deferred showcase's spheres, wall, glass ball and
//! lights, seen from the front right so that the depth runs from the glass
//! ball (near) past the sphere grid (in focus) to the far end of the wall.

use glam::{Mat3, Quat, Vec3};
use taos_engine::Engine;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::presets::{deferred_preset, forward_plus_preset, forward_preset};

use super::effects::EffectSet;
use crate::deferred_showcase_options;

/// Where the camera stands.
const EYE: Vec3 = Vec3::new(4.8, 2.5, 7.2);
/// What it looks at: left of the grid's middle, so the grid recedes.
const LOOK_AT: Vec3 = Vec3::new(-0.4, 2.3, -0.4);
/// What depth of field keeps sharp: the middle sphere of the grid.
const FOCUS: Vec3 = Vec3::new(0.0, 2.55, 0.0);

/// Which preset renders a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ComparePreset {
    /// Forward shading.
    Forward,
    /// Depth pre-pass, tiled light culling, forward shading.
    ForwardPlus,
    /// G-buffer, SSAO, deferred lighting, forward overlay for the glass.
    Deferred,
}

impl ComparePreset {
    /// Every preset, in the order of the contact sheet's rows.
    pub const ALL: [Self; 3] = [Self::Forward, Self::ForwardPlus, Self::Deferred];

    /// The name used on the command line, in the sheet and in the table.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Forward => "forward",
            Self::ForwardPlus => "forward-plus",
            Self::Deferred => "deferred",
        }
    }
}

/// The view direction (unit length).
fn forward() -> Vec3 {
    (LOOK_AT - EYE).normalize()
}

/// The depth-of-field focus distance: the middle sphere's depth along the
/// view axis, in metres.
#[must_use]
pub fn focus_distance() -> f32 {
    (FOCUS - EYE).dot(forward())
}

/// `preset` with the showcase's options (atmosphere sky and image-based
/// light, exposure; the deferred path with its SSAO and overlay) and the
/// `effects` on; HDR output if `hdr_output`.
pub fn compare_preset(
    preset: ComparePreset,
    effects: &EffectSet,
    hdr_output: bool,
) -> impl FnOnce(&mut Renderer) + use<> {
    let mut options = deferred_showcase_options();
    effects.apply(&mut options.common);
    options.common.hdr_output = hdr_output;
    move |renderer: &mut Renderer| match preset {
        ComparePreset::Forward => forward_preset(options.common)(renderer),
        ComparePreset::ForwardPlus => forward_plus_preset(options.common)(renderer),
        ComparePreset::Deferred => deferred_preset(options)(renderer),
    }
}

/// Fills `engine` with the showcase scene and moves its camera to the
/// comparison's view.
///
/// # Errors
/// If the showcase cannot be built (never for this fixed scene).
pub fn presets_compare_scene(engine: &mut Engine) -> anyhow::Result<()> {
    crate::deferred_showcase(engine)?;
    let scene = engine.scene_mut();
    let camera = scene
        .find_camera()
        .ok_or_else(|| anyhow::anyhow!("the showcase scene has a camera"))?;
    let mut object = scene.object_mut(camera)?;
    object.set_position(EYE);
    object.set_rotation(looking_along(forward()));
    Ok(())
}

/// The rotation that turns a camera's view (-Z, +Y up) to `forward`.
fn looking_along(forward: Vec3) -> Quat {
    let right = forward.cross(Vec3::Y).normalize();
    let up = right.cross(forward);
    Quat::from_mat3(&Mat3::from_cols(right, up, -forward))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_camera_looks_where_it_is_told_and_the_focus_is_in_front() {
        let rotation = looking_along(forward());
        assert!((rotation * Vec3::NEG_Z).distance(forward()) < 1e-5);
        assert!((rotation * Vec3::Y).y > 0.9, "upright");
        // The focus lies between the glass ball (near) and the wall's far end.
        let depth = |p: Vec3| (p - EYE).dot(forward());
        let glass = depth(Vec3::new(2.9, 0.75, 1.6));
        let far_wall = depth(Vec3::new(-4.0, 3.0, -0.9));
        assert!(glass < focus_distance() && focus_distance() < far_wall);
    }
}
