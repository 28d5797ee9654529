//! What deforming meshes look like this frame: each skinned mesh's joint
//! matrices and each morphing mesh's weights, gathered in one pass into
//! flat lists the renderer uploads once.

use std::ops::Range;

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::{Or, QueryState, With};
use glam::{Affine3A, Mat4};

use super::Scene;
use crate::components::{MeshHandle, MeshRenderer, MorphWeights, SkinnedMesh};
use crate::object::GameObject;
use crate::transform::{TransformSlot, TransformStore};

/// One deforming mesh this frame: where its joints and weights sit in
/// [`Deformations`]' flat lists.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformedDraw {
    /// The object carrying the mesh renderer.
    pub object: GameObject,
    /// The mesh it draws (a deformable instance in the renderer).
    pub mesh: MeshHandle,
    /// Its joint matrices in [`Deformations::joint_matrices`] (empty: not skinned).
    pub joints: Range<u32>,
    /// Its morph weights in [`Deformations::morph_weights`] (empty: no morphing).
    pub weights: Range<u32>,
}

/// Every deforming mesh of a scene this frame, in flat lists (cleared and
/// refilled by [`Scene::collect_deformations_into`], so it stops allocating
/// once grown).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Deformations {
    /// One entry per active object with a [`MeshRenderer`] and a
    /// [`SkinnedMesh`] or [`MorphWeights`].
    pub draws: Vec<DeformedDraw>,
    /// Per joint: `inverse(world(mesh object)) * world(joint) * inverse_bind`.
    pub joint_matrices: Vec<Mat4>,
    /// Morph weights, mesh after mesh.
    pub morph_weights: Vec<f32>,
}

impl Deformations {
    /// Empties the lists, keeping their memory.
    pub fn clear(&mut self) {
        self.draws.clear();
        self.joint_matrices.clear();
        self.morph_weights.clear();
    }

    /// The joint matrices of `draw`.
    #[must_use]
    pub fn joints_of(&self, draw: &DeformedDraw) -> &[Mat4] {
        self.joint_matrices
            .get(draw.joints.start as usize..draw.joints.end as usize)
            .unwrap_or_default()
    }

    /// The morph weights of `draw`.
    #[must_use]
    pub fn weights_of(&self, draw: &DeformedDraw) -> &[f32] {
        self.morph_weights
            .get(draw.weights.start as usize..draw.weights.end as usize)
            .unwrap_or_default()
    }
}

/// Active-or-not objects with a mesh renderer and a skin or morph weights.
pub(super) type DeformingQuery = QueryState<
    (
        Entity,
        &'static TransformSlot,
        &'static MeshRenderer,
        Option<&'static SkinnedMesh>,
        Option<&'static MorphWeights>,
    ),
    Or<(With<SkinnedMesh>, With<MorphWeights>)>,
>;

fn index(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl Scene {
    /// Fills `out` with every active deforming mesh's joint matrices and
    /// morph weights (transforms are refreshed first). With render
    /// interpolation on, the mesh object and its joints are placed at
    /// `alpha` between their last two ticks, as the presenter draws them;
    /// otherwise `alpha` is ignored.
    pub fn collect_deformations_into(&mut self, alpha: f32, out: &mut Deformations) {
        out.clear();
        self.refresh_transforms();
        self.world
            .resource_mut::<TransformStore>()
            .bypass_change_detection()
            .prepare();
        self.deforming.update_archetypes(&self.world);
        let interpolates = self.interpolates();
        let world = &self.world;
        let store = world.resource::<TransformStore>();
        let query = &self.deforming;
        let placed = |entity: Entity| -> Option<Affine3A> {
            if interpolates
                && let Some(world) =
                    self.interpolated_world_matrix(GameObject::from_entity(entity), alpha)
            {
                return Some(world);
            }
            let slot = world.get::<TransformSlot>(entity)?.slot;
            store.is_live(slot).then(|| *store.world(slot))
        };
        for (entity, &TransformSlot { slot, .. }, renderer, skin, morph) in query.iter_manual(world)
        {
            if !store.is_active(slot) {
                continue;
            }
            let start = index(out.joint_matrices.len());
            if let Some(skin) = skin {
                let to_mesh = Mat4::from(placed(entity).unwrap_or(*store.world(slot)).inverse());
                for (joint, bind) in skin.joints().iter().zip(skin.inverse_bind_matrices()) {
                    // A removed joint holds its vertices in the bind pose.
                    let matrix = placed(joint.entity())
                        .map_or(Mat4::IDENTITY, |joint| to_mesh * Mat4::from(joint) * *bind);
                    out.joint_matrices.push(matrix);
                }
            }
            let joints = start..index(out.joint_matrices.len());
            let start = index(out.morph_weights.len());
            if let Some(morph) = morph {
                out.morph_weights.extend_from_slice(morph.weights());
            }
            out.draws.push(DeformedDraw {
                object: GameObject::from_entity(entity),
                mesh: renderer.mesh,
                joints,
                weights: start..index(out.morph_weights.len()),
            });
        }
    }
}
