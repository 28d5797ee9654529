//! What deforming meshes look like this frame: each skinned mesh's joint
//! matrices and each morphing mesh's weights, gathered in one pass into
//! flat lists the renderer uploads once.

use std::ops::Range;

use bevy_ecs::change_detection::{DetectChanges as _, DetectChangesMut as _, Ref, Tick};
use bevy_ecs::entity::Entity;
use bevy_ecs::query::{Or, QueryState, With};
use glam::Mat4;

use super::Scene;
use crate::components::{MeshHandle, MeshRenderer, MorphWeights, SkinnedMesh};
use crate::object::GameObject;
use crate::transform::{TransformSlot, TransformStore};

pub(super) use super::deform_seen::DeformSeen;

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
        Ref<'static, MeshRenderer>,
        Option<Ref<'static, SkinnedMesh>>,
        Option<Ref<'static, MorphWeights>>,
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
        self.gather_deformations(alpha, out, false);
    }

    /// Like [`collect_deformations_into`](Self::collect_deformations_into),
    /// but leaves out every mesh whose pose cannot have changed since the
    /// last call of this method: neither the mesh object nor any of its
    /// joints moved, its [`SkinnedMesh`], [`MorphWeights`] and
    /// [`MeshRenderer`] were not written, and it was in that call's list
    /// with the same mesh. A renderer keeps an instance's last pose, so
    /// handing it only these is enough: a crowd that stands still costs a
    /// version check per joint instead of a matrix product and an upload.
    ///
    /// Objects that were inactive, new, or given another mesh are always
    /// in the list. With render interpolation on, every mesh is (its pose
    /// depends on `alpha`). One consumer should call this (the presenter
    /// does): each call is measured against the one before.
    pub fn collect_changed_deformations_into(&mut self, alpha: f32, out: &mut Deformations) {
        self.gather_deformations(alpha, out, true);
    }

    fn gather_deformations(&mut self, alpha: f32, out: &mut Deformations, only_changed: bool) {
        out.clear();
        self.refresh_transforms();
        self.world
            .resource_mut::<TransformStore>()
            .bypass_change_detection()
            .prepare();
        self.deforming.update_archetypes(&self.world);
        let interpolates = self.interpolates();
        let only_changed = only_changed && !interpolates;
        let world = &self.world;
        let this_run = world.read_change_tick();
        let store = world.resource::<TransformStore>();
        let query = &self.deforming;
        // Taken for the pass (the closure below borrows the scene).
        let mut seen = std::mem::take(&mut self.deform_seen);
        let interpolated = |entity: Entity| {
            interpolates
                .then(|| self.interpolated_world_matrix(GameObject::from_entity(entity), alpha))
                .flatten()
        };
        // Every active skin's joints, counted whether gathered or not, so a
        // joint keeps its place in the slot table frame to frame.
        let mut joint_index = 0_usize;
        for (entity, &TransformSlot { slot, .. }, renderer, skin, morph) in query.iter_manual(world)
        {
            if !store.is_active(slot) {
                continue;
            }
            let first_joint = joint_index;
            joint_index += skin.as_ref().map_or(0, |skin| skin.joints().len());
            if only_changed {
                let written = |tick: Tick| tick.is_newer_than(seen.tick, this_run);
                let unchanged = seen.posed(slot, entity, renderer.mesh)
                    && !written(renderer.last_changed())
                    && !skin.as_ref().is_some_and(|s| written(s.last_changed()))
                    && !morph.as_ref().is_some_and(|m| written(m.last_changed()))
                    && store.world_version(slot) <= seen.version
                    && skin
                        .as_ref()
                        .is_none_or(|skin| seen.joints_unmoved(first_joint, skin.joints(), store));
                if unchanged {
                    continue;
                }
                seen.mark_posed(slot, entity, renderer.mesh);
            }
            let start = index(out.joint_matrices.len());
            if let Some(skin) = &skin {
                let to_mesh = interpolated(entity).unwrap_or(*store.world(slot)).inverse();
                for (k, (joint, bind)) in skin
                    .joints()
                    .iter()
                    .zip(skin.inverse_bind_matrices())
                    .enumerate()
                {
                    let placed = interpolated(joint.entity()).or_else(|| {
                        seen.joints
                            .world(first_joint + k, joint.entity(), world, store)
                    });
                    // A removed joint holds its vertices in the bind pose.
                    let matrix =
                        placed.map_or(Mat4::IDENTITY, |joint| Mat4::from(to_mesh * joint) * *bind);
                    out.joint_matrices.push(matrix);
                }
            }
            let joints = start..index(out.joint_matrices.len());
            let start = index(out.morph_weights.len());
            if let Some(morph) = &morph {
                out.morph_weights.extend_from_slice(morph.weights());
            }
            out.draws.push(DeformedDraw {
                object: GameObject::from_entity(entity),
                mesh: renderer.mesh,
                joints,
                weights: start..index(out.morph_weights.len()),
            });
        }
        if only_changed {
            seen.version = store.last_version();
            seen.tick = this_run;
        }
        self.deform_seen = seen;
        if only_changed {
            // Writes after this gather must be newer than `this_run`.
            self.world.increment_change_tick();
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Vec3};

    use super::*;
    use crate::components::MaterialHandle;
    use crate::transform::Transform;

    /// A mesh object at the origin skinned to two joints at x = 1 and 2.
    fn skinned() -> (Scene, [GameObject; 2]) {
        let mut scene = Scene::new();
        let body = scene.spawn_with("Body", Transform::default());
        let joints =
            [1.0, 2.0].map(|x| scene.spawn_with("Joint", Transform::from_position(Vec3::X * x)));
        scene
            .add_component(body, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
            .unwrap();
        let skin = SkinnedMesh::new(joints.to_vec(), vec![Mat4::IDENTITY; 2]).unwrap();
        scene.add_component(body, skin).unwrap();
        (scene, joints)
    }

    fn translations(out: &Deformations) -> Vec<Vec3> {
        out.joint_matrices
            .iter()
            .map(|m| m.w_axis.truncate())
            .collect()
    }

    #[test]
    fn a_removed_joint_never_reads_the_object_that_took_its_slot() {
        let (mut scene, [first, _]) = skinned();
        let mut out = Deformations::default();
        scene.collect_deformations_into(1.0, &mut out);
        assert_eq!(translations(&out), [Vec3::X, Vec3::X * 2.0]);
        scene.remove(first).unwrap();
        // Reuses the freed transform slot.
        scene.spawn_with("Other", Transform::from_position(Vec3::Y * 9.0));
        scene.collect_deformations_into(1.0, &mut out);
        assert_eq!(out.joint_matrices[0], Mat4::IDENTITY, "held in bind pose");
        assert_eq!(translations(&out)[1], Vec3::X * 2.0);
    }

    #[test]
    fn a_skin_given_other_joints_reads_them() {
        let (mut scene, [first, second]) = skinned();
        let mut out = Deformations::default();
        scene.collect_deformations_into(1.0, &mut out);
        let body = out.draws[0].object;
        let swapped = SkinnedMesh::new(vec![second, first], vec![Mat4::IDENTITY; 2]).unwrap();
        scene.add_component(body, swapped).unwrap();
        scene.collect_deformations_into(1.0, &mut out);
        assert_eq!(translations(&out), [Vec3::X * 2.0, Vec3::X]);
    }
}
