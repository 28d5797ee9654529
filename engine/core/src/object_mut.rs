//! [`ObjectMut`]: one GameObject's transform, read and written in place.

use bevy_ecs::change_detection::Mut;
use bevy_ecs::world::World;
use glam::{Affine3A, Mat4, Quat, Vec3};

use crate::object::GameObject;
use crate::transform::{Transform, TransformStore, read};

/// A borrowed view of one GameObject from [`Scene::object_mut`](crate::Scene::object_mut).
///
/// Local accessors (`position_mut`, ...) hand out the transform's own fields for
/// in-place mutation. World getters are compare-on-read: they walk the parent
/// chain comparing scalars and versions, and multiply only where something moved.
/// Every getter returns a `Copy` value, which never allocates.
pub struct ObjectMut<'w> {
    world: &'w mut World,
    object: GameObject,
    slot: u32,
}

impl<'w> ObjectMut<'w> {
    pub(crate) fn new(world: &'w mut World, object: GameObject, slot: u32) -> Self {
        Self {
            world,
            object,
            slot,
        }
    }

    /// The object this view is for.
    #[must_use]
    pub fn object(&self) -> GameObject {
        self.object
    }

    /// The local transform.
    #[must_use]
    pub fn transform(&self) -> &Transform {
        self.world
            .get::<Transform>(self.object.entity())
            .expect("ObjectMut is only built for live objects")
    }

    /// The local transform, mutable.
    pub fn transform_mut(&mut self) -> Mut<'_, Transform> {
        self.world
            .get_mut::<Transform>(self.object.entity())
            .expect("ObjectMut is only built for live objects")
    }

    /// Local position, mutable in place (`*o.position_mut() += v`, `o.position_mut().y = 1.0`).
    pub fn position_mut(&mut self) -> Mut<'_, Vec3> {
        self.transform_mut().map_unchanged(|t| &mut t.position)
    }

    /// Local rotation, mutable in place.
    pub fn rotation_mut(&mut self) -> Mut<'_, Quat> {
        self.transform_mut().map_unchanged(|t| &mut t.rotation)
    }

    /// Local scale, mutable in place.
    pub fn scale_mut(&mut self) -> Mut<'_, Vec3> {
        self.transform_mut().map_unchanged(|t| &mut t.scale)
    }

    /// Local position.
    #[must_use]
    pub fn position(&self) -> Vec3 {
        self.transform().position
    }

    /// Local rotation.
    #[must_use]
    pub fn rotation(&self) -> Quat {
        self.transform().rotation
    }

    /// Local scale.
    #[must_use]
    pub fn scale(&self) -> Vec3 {
        self.transform().scale
    }

    /// Sets the local position.
    pub fn set_position(&mut self, position: Vec3) {
        self.transform_mut().position = position;
    }

    /// Sets the local rotation.
    pub fn set_rotation(&mut self, rotation: Quat) {
        self.transform_mut().rotation = rotation;
    }

    /// Sets the local scale.
    pub fn set_scale(&mut self, scale: Vec3) {
        self.transform_mut().scale = scale;
    }

    fn store(&mut self) -> &mut TransformStore {
        read::refresh(self.world, self.object.entity());
        self.world.resource_mut::<TransformStore>().into_inner()
    }

    /// The local-to-world matrix in affine form.
    pub fn world_matrix(&mut self) -> Affine3A {
        let slot = self.slot;
        *self.store().world(slot)
    }

    /// A copy of the local-to-world matrix.
    pub fn local_to_world(&mut self) -> Mat4 {
        Mat4::from(self.world_matrix())
    }

    /// The world-to-local matrix (inverse of the world matrix), cached against the
    /// world version: inverted at most once per change.
    pub fn world_to_local(&mut self) -> Mat4 {
        let slot = self.slot;
        Mat4::from(self.store().inverse(slot))
    }

    /// World position: the translation column of the world matrix.
    pub fn world_position(&mut self) -> Vec3 {
        Vec3::from(self.world_matrix().translation)
    }

    /// World rotation, decomposed from the world matrix (cached against its version).
    pub fn world_rotation(&mut self) -> Quat {
        let slot = self.slot;
        self.store().rotation_scale(slot).0
    }

    /// World scale, decomposed from the world matrix; a mirrored world matrix
    /// shows as a negative X.
    pub fn world_scale(&mut self) -> Vec3 {
        let slot = self.slot;
        self.store().rotation_scale(slot).1
    }

    /// Version stamp of the current world matrix; changes exactly when it is recomputed.
    pub fn world_version(&mut self) -> u64 {
        let slot = self.slot;
        self.store().world_version(slot)
    }
}
