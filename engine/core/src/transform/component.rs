//! The [`Transform`] component: plain public TRS fields plus the baked snapshot
//! that compare-on-read checks against.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::world::{DeferredWorld, World};
use glam::{Affine3A, Quat, Vec3};

use super::store::{NO_SLOT, TransformStore};

/// Local position, rotation and scale of a GameObject, relative to its parent.
///
/// The three fields are plain and public: write them directly
/// (`transform.position.y += dt`), or assign a whole transform
/// (`*object.transform_mut() = Transform::from_position(..)`). Nothing is
/// marked on write; the world matrix notices the change the next time it is
/// read, by comparing the ten current scalars with the ten it last baked into
/// the local matrix (see the [module docs](crate::transform)).
///
/// A `Transform` is plain data: copying one, cloning one that has been read,
/// or assigning one over another is always safe. The caches it is read
/// through live with the object, not in the value.
///
/// Conventions: right-handed, +Y up, a camera looks down its local -Z.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(on_add = Transform::on_add, on_remove = Transform::on_remove)]
#[require(TransformSlot)]
pub struct Transform {
    /// Position relative to the parent (or the world, for a root).
    pub position: Vec3,
    /// Rotation relative to the parent. Keep it normalised.
    pub rotation: Quat,
    /// Per-axis scale. Negative values mirror.
    pub scale: Vec3,
}

/// An object's own compare-on-read state, added with every [`Transform`]:
/// the index of its caches in [`TransformStore`] (assigned by the add hook)
/// and the ten scalars last baked into its local matrix (NaN until the first
/// read, so the first read always bakes). Kept apart from the public fields,
/// so writing a whole `Transform` never touches it; kept in the ECS table
/// beside the transform, so the sweep reads both in one pass.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub(crate) struct TransformSlot {
    pub(crate) slot: u32,
    pub(crate) baked: [f32; 10],
}

impl Default for TransformSlot {
    fn default() -> Self {
        Self {
            slot: NO_SLOT,
            baked: [f32::NAN; 10],
        }
    }
}

impl TransformSlot {
    /// `true` when `transform` equals what was last baked.
    #[inline]
    pub(crate) fn matches(&self, transform: &Transform) -> bool {
        #[expect(clippy::float_cmp, reason = "compare-on-read wants exact equality")]
        let same = transform
            .scalars()
            .iter()
            .zip(&self.baked)
            .all(|(a, b)| a == b);
        same
    }
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Self = Self {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// A transform at `position` with no rotation and unit scale.
    #[must_use]
    pub const fn from_position(position: Vec3) -> Self {
        Self {
            position,
            ..Self::IDENTITY
        }
    }

    /// A transform from all three parts.
    #[must_use]
    pub const fn from_trs(position: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            position,
            rotation,
            scale,
        }
    }

    /// The local matrix these fields describe, computed now (no caching).
    #[must_use]
    pub fn compute_local_matrix(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.position)
    }

    /// `true` when every field is finite (no NaN or infinity).
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.position.is_finite() && self.rotation.is_finite() && self.scale.is_finite()
    }

    /// The ten scalars compare-on-read looks at.
    #[inline]
    pub(crate) fn scalars(&self) -> [f32; 10] {
        let (p, r, s) = (self.position, self.rotation, self.scale);
        [p.x, p.y, p.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z]
    }

    fn on_add(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let parent_slot = world
            .get::<ChildOf>(ctx.entity)
            .map_or(NO_SLOT, |child_of| slot_of(&world, child_of.parent()));
        let children = child_slots(&world, ctx.entity);
        let Some(mut store) = world.get_resource_mut::<TransformStore>() else {
            log::error!(
                "Transform added to {:?} in a World without a TransformStore: create worlds with Scene::new",
                ctx.entity
            );
            return;
        };
        let slot = store.allocate(ctx.entity, parent_slot);
        for child in children {
            if store.set_parent(child, slot).is_err() {
                log::error!(
                    "a child of {:?} is also its ancestor; left as a root",
                    ctx.entity
                );
            }
        }
        if let Some(mut own) = world.get_mut::<TransformSlot>(ctx.entity) {
            *own.bypass_change_detection() = TransformSlot {
                slot,
                baked: [f32::NAN; 10],
            };
        }
    }

    fn on_remove(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let slot = slot_of(&world, ctx.entity);
        if slot == NO_SLOT {
            return;
        }
        let children = child_slots(&world, ctx.entity);
        if let Some(mut own) = world.get_mut::<TransformSlot>(ctx.entity) {
            own.bypass_change_detection().slot = NO_SLOT;
        }
        let Some(mut store) = world.get_resource_mut::<TransformStore>() else {
            return;
        };
        for child in children {
            store.make_root(child);
        }
        store.free(slot);
    }
}

/// The store slot of `entity`, or `NO_SLOT` when it has no live transform.
pub(crate) fn slot_of(world: &World, entity: Entity) -> u32 {
    world
        .get::<TransformSlot>(entity)
        .map_or(NO_SLOT, |own| own.slot)
}

/// Store slots of the children of `entity` that carry a Transform.
fn child_slots(world: &World, entity: Entity) -> Vec<u32> {
    world
        .get::<Children>(entity)
        .map(|children| {
            children
                .iter()
                .map(|&child| slot_of(world, child))
                .filter(|&slot| slot != NO_SLOT)
                .collect()
        })
        .unwrap_or_default()
}
