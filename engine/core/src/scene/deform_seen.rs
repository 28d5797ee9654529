//! What the deformation gather remembers between frames: where each joint's
//! transform lives, and what the last changed-only gather handed on (so the
//! next one can leave out every pose that cannot have changed).

use bevy_ecs::change_detection::Tick;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use glam::Affine3A;

use crate::components::MeshHandle;
use crate::object::GameObject;
use crate::transform::{TransformSlot, TransformStore};

/// Per joint, in gather order (every active skin's joints, gathered or
/// not), the transform slot it was found at. A gather reads a joint's world
/// matrix straight from the store when that slot still holds the same
/// entity (a slot holds one entity from its allocation to its release),
/// instead of looking the joint up in the ECS: a dense table that only a
/// changed skin or a respawned joint touches again.
#[derive(Debug, Default)]
pub(super) struct JointSlots(Vec<u32>);

impl JointSlots {
    /// The slot of `joint`, the `index`-th joint, when the table still
    /// holds it there.
    fn cached(&self, index: usize, joint: Entity, store: &TransformStore) -> Option<u32> {
        let &slot = self.0.get(index)?;
        (store.is_live(slot) && store.entity(slot) == joint).then_some(slot)
    }

    /// The world matrix of `joint`, the `index`-th joint.
    pub(super) fn world(
        &mut self,
        index: usize,
        joint: Entity,
        world: &World,
        store: &TransformStore,
    ) -> Option<Affine3A> {
        if let Some(slot) = self.cached(index, joint, store) {
            return Some(*store.world(slot));
        }
        let slot = world.get::<TransformSlot>(joint)?.slot;
        if self.0.len() <= index {
            self.0.resize(index + 1, u32::MAX);
        }
        self.0[index] = slot;
        store.is_live(slot).then(|| *store.world(slot))
    }
}

/// What the last changed-only gather saw.
#[derive(Debug)]
pub(in crate::scene) struct DeformSeen {
    pub(super) joints: JointSlots,
    /// Per mesh object's transform slot: the object and mesh it posed.
    posed: Vec<Option<(Entity, MeshHandle)>>,
    /// The newest world-matrix version at that gather: a transform whose
    /// version is above it moved since.
    pub(super) version: u64,
    /// The change tick of that gather: components written after it are
    /// newer.
    pub(super) tick: Tick,
}

impl Default for DeformSeen {
    fn default() -> Self {
        Self {
            joints: JointSlots::default(),
            posed: Vec::new(),
            version: 0,
            tick: Tick::new(0),
        }
    }
}

impl DeformSeen {
    /// Whether the last gather posed `mesh` for the object at `slot`.
    pub(super) fn posed(&self, slot: u32, entity: Entity, mesh: MeshHandle) -> bool {
        self.posed.get(slot as usize).copied().flatten() == Some((entity, mesh))
    }

    /// Records that this gather poses `mesh` for the object at `slot`.
    pub(super) fn mark_posed(&mut self, slot: u32, entity: Entity, mesh: MeshHandle) {
        let i = slot as usize;
        if self.posed.len() <= i {
            self.posed.resize(i + 1, None);
        }
        self.posed[i] = Some((entity, mesh));
    }

    /// Whether none of `joints` (the skin's, from gather index `first`)
    /// moved since the last gather. A joint not found where the table
    /// says (respawned, removed, a new skin) counts as moved.
    pub(super) fn joints_unmoved(
        &self,
        first: usize,
        joints: &[GameObject],
        store: &TransformStore,
    ) -> bool {
        joints.iter().enumerate().all(|(k, joint)| {
            self.joints
                .cached(first + k, joint.entity(), store)
                .is_some_and(|slot| store.world_version(slot) <= self.version)
        })
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat4, Vec3};

    use crate::components::{MaterialHandle, MeshRenderer, MorphWeights, SkinnedMesh};
    use crate::scene::Scene;
    use crate::scene::deformations::Deformations;
    use crate::transform::Transform;
    use crate::{GameObject, MeshHandle};

    /// A body skinned to two joints, and a second body with morph weights.
    fn crowd() -> (Scene, GameObject, [GameObject; 2], GameObject) {
        let mut scene = Scene::new();
        let body = scene.spawn_with("Body", Transform::default());
        let joints =
            [1.0, 2.0].map(|x| scene.spawn_with("Joint", Transform::from_position(Vec3::X * x)));
        let renderer = MeshRenderer::new(MeshHandle(0), MaterialHandle(0));
        scene.add_component(body, renderer).unwrap();
        let skin = SkinnedMesh::new(joints.to_vec(), vec![Mat4::IDENTITY; 2]).unwrap();
        scene.add_component(body, skin).unwrap();
        let face = scene.spawn_with("Face", Transform::default());
        let face_renderer = MeshRenderer::new(MeshHandle(1), MaterialHandle(0));
        scene.add_component(face, face_renderer).unwrap();
        scene
            .add_component(face, MorphWeights::new(vec![0.0, 1.0]).unwrap())
            .unwrap();
        (scene, body, joints, face)
    }

    /// The objects listed, in entity order (the gather's is table order).
    fn listed(out: &Deformations) -> Vec<GameObject> {
        let mut objects: Vec<_> = out.draws.iter().map(|d| d.object).collect();
        objects.sort_by_key(|o| o.entity());
        objects
    }

    fn sorted<const N: usize>(mut objects: [GameObject; N]) -> Vec<GameObject> {
        objects.sort_by_key(|o| o.entity());
        objects.to_vec()
    }

    fn changed(scene: &mut Scene) -> Vec<GameObject> {
        let mut out = Deformations::default();
        scene.collect_changed_deformations_into(1.0, &mut out);
        listed(&out)
    }

    fn move_to(scene: &mut Scene, object: GameObject, position: Vec3) {
        scene
            .get_component_mut::<Transform>(object)
            .unwrap()
            .position = position;
    }

    #[test]
    fn a_pose_is_handed_on_once_until_something_moves() {
        let (mut scene, body, joints, face) = crowd();
        assert_eq!(
            changed(&mut scene),
            sorted([body, face]),
            "first gather: every mesh"
        );
        assert!(changed(&mut scene).is_empty(), "nothing moved");
        // A write of the value already there is not a move.
        move_to(&mut scene, joints[0], Vec3::X);
        assert!(changed(&mut scene).is_empty());
        move_to(&mut scene, joints[1], Vec3::Y);
        let mut out = Deformations::default();
        scene.collect_changed_deformations_into(1.0, &mut out);
        assert_eq!(out.draws.len(), 1);
        assert_eq!(out.draws[0].object, body);
        assert_eq!(out.joints_of(&out.draws[0])[1].w_axis.truncate(), Vec3::Y);
        assert!(changed(&mut scene).is_empty());
        // The mesh object moving moves its joints in mesh space.
        move_to(&mut scene, body, Vec3::Z);
        assert_eq!(changed(&mut scene), [body]);
    }

    #[test]
    fn written_components_and_new_meshes_are_handed_on() {
        let (mut scene, body, _, face) = crowd();
        changed(&mut scene);
        scene
            .get_component_mut::<MorphWeights>(face)
            .unwrap()
            .set_all(&[1.0, 0.0])
            .unwrap();
        assert_eq!(changed(&mut scene), [face]);
        scene.get_component_mut::<MeshRenderer>(body).unwrap().mesh = MeshHandle(7);
        assert_eq!(changed(&mut scene), [body]);
        assert!(changed(&mut scene).is_empty());
    }

    #[test]
    fn a_removed_joint_is_handed_on_in_the_bind_pose() {
        let (mut scene, body, joints, _) = crowd();
        changed(&mut scene);
        scene.remove(joints[0]).unwrap();
        let mut out = Deformations::default();
        scene.collect_changed_deformations_into(1.0, &mut out);
        assert_eq!(out.draws.len(), 1);
        assert_eq!(out.draws[0].object, body);
        assert_eq!(out.joints_of(&out.draws[0])[0], Mat4::IDENTITY);
    }

    #[test]
    fn objects_never_posed_are_handed_on_when_they_turn_active() {
        let (mut scene, body, _, face) = crowd();
        scene.set_enabled(face, false).unwrap();
        assert_eq!(changed(&mut scene), [body]);
        // Unchanged while disabled: the kept pose is still right.
        scene.set_enabled(body, false).unwrap();
        scene.set_enabled(face, true).unwrap();
        assert_eq!(changed(&mut scene), [face], "never posed before");
        scene.set_enabled(body, true).unwrap();
        assert!(changed(&mut scene).is_empty());
    }

    #[test]
    fn the_full_gather_still_lists_every_mesh() {
        let (mut scene, body, _, face) = crowd();
        changed(&mut scene);
        let mut out = Deformations::default();
        scene.collect_deformations_into(1.0, &mut out);
        assert_eq!(listed(&out), sorted([body, face]));
        assert!(changed(&mut scene).is_empty());
    }
}
