//! The skeleton overlay (K): a small unlit sphere on every joint of the
//! model's skins and a thin box along every bone (from a joint to each
//! child joint), children of the joints so they follow the animation.
//! Hidden until asked for.

use glam::{Quat, Vec3};
use taos_engine::gltf::SpawnedGltf;
use taos_engine::prelude::*;
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{AssetHandle, Engine, SkinnedMesh};

/// The overlay's objects and whether they show.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skeleton {
    /// The markers: a sphere per joint, a box per bone.
    pub markers: Vec<GameObject>,
    /// The joints they mark, each once.
    pub joints: Vec<GameObject>,
    shown: bool,
}

impl Skeleton {
    /// Builds the overlay for every skin of `model`, markers `size` metres
    /// across in their joint's own scale, hidden.
    ///
    /// # Errors
    /// When a marker cannot be added (a joint removed meanwhile).
    pub fn build(engine: &mut Engine, model: &SpawnedGltf, size: f32) -> anyhow::Result<Self> {
        let mut joints: Vec<GameObject> = Vec::new();
        for &skinned in &model.skinned {
            if let Some(skin) = engine.scene().get_component::<SkinnedMesh>(skinned) {
                for &joint in skin.joints() {
                    if !joints.contains(&joint) {
                        joints.push(joint);
                    }
                }
            }
        }
        let mut skeleton = Self {
            joints,
            ..Self::default()
        };
        if skeleton.joints.is_empty() {
            return Ok(skeleton);
        }
        let (assets, gpu) = engine.renderer().assets_mut();
        let ball = assets.add_mesh(gpu, "joint marker", &MeshData::sphere(size * 0.5, 10, 6));
        let bone = assets.add_mesh(gpu, "bone marker", &MeshData::cube(1.0));
        let unlit = |rgb: Vec3| PbrMaterial {
            unlit: true,
            ..PbrMaterial::color(rgb)
        };
        let joint_colour = assets.add_material(unlit(Vec3::new(1.0, 0.8, 0.1)));
        let bone_colour = assets.add_material(unlit(Vec3::new(0.2, 0.8, 1.0)));
        let scene = engine.scene_mut();
        for &joint in &skeleton.joints {
            let marker = scene.spawn_child(joint, "joint marker")?;
            let mut renderer = MeshRenderer::new(ball.handle(), joint_colour.handle());
            renderer.cast_shadows = false;
            scene.add_component(marker, renderer)?;
            skeleton.markers.push(marker);
            // A bone to the joint from its parent joint, along the child's offset.
            let Some(parent) = scene.parent(joint).filter(|p| skeleton.joints.contains(p)) else {
                continue;
            };
            let offset = scene.transform(joint).map_or(Vec3::ZERO, |t| t.position);
            let length = offset.length();
            if length < 1e-6 {
                continue;
            }
            let transform = Transform::from_trs(
                offset * 0.5,
                Quat::from_rotation_arc(Vec3::Y, offset / length),
                Vec3::new(size * 0.25, length, size * 0.25),
            );
            let marker = scene.spawn_with("bone marker", transform);
            scene.add_child(parent, marker)?;
            let mut renderer = MeshRenderer::new(bone.handle(), bone_colour.handle());
            renderer.cast_shadows = false;
            scene.add_component(marker, renderer)?;
            skeleton.markers.push(marker);
        }
        skeleton.show(engine.scene_mut(), false)?;
        Ok(skeleton)
    }

    /// Whether the overlay shows.
    #[must_use]
    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// Shows or hides the overlay.
    ///
    /// # Errors
    /// When a marker was removed.
    pub fn show(&mut self, scene: &mut Scene, shown: bool) -> anyhow::Result<()> {
        for &marker in &self.markers {
            scene.set_enabled(marker, shown)?;
        }
        self.shown = shown;
        Ok(())
    }
}
