//! The [`Transform`] component: plain public TRS fields plus the baked snapshot
//! that compare-on-read checks against.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::world::DeferredWorld;
use glam::{Affine3A, Quat, Vec3};

use super::store::{NO_SLOT, TransformStore};

/// Local position, rotation and scale of a GameObject, relative to its parent.
///
/// The three fields are plain and public: write them directly
/// (`transform.position.y += dt`). Nothing is marked on write; the world matrix
/// notices the change the next time it is read, by comparing the ten current
/// scalars with the ten it last baked into the local matrix (see the
/// [module docs](crate::transform)).
///
/// Conventions: right-handed, +Y up, a camera looks down its local -Z.
#[derive(Component, Debug, Clone)]
#[component(on_add = Transform::on_add, on_remove = Transform::on_remove)]
pub struct Transform {
    /// Position relative to the parent (or the world, for a root).
    pub position: Vec3,
    /// Rotation relative to the parent. Keep it normalised.
    pub rotation: Quat,
    /// Per-axis scale. Negative values mirror.
    pub scale: Vec3,
    /// The ten scalars last baked into the local matrix; NaN until the first read,
    /// so the first read always counts as a change.
    baked: [f32; 10],
    /// Index of this transform's caches in [`TransformStore`]; assigned by the add hook.
    slot: u32,
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
        baked: [f32::NAN; 10],
        slot: NO_SLOT,
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
            ..Self::IDENTITY
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

    fn current_scalars(&self) -> [f32; 10] {
        let (p, r, s) = (self.position, self.rotation, self.scale);
        [p.x, p.y, p.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z]
    }

    /// Compares the current TRS with the baked snapshot. On a difference (IEEE
    /// comparison, so the NaN start always differs) re-bakes and returns the
    /// new local matrix; otherwise returns `None` and does no matrix work.
    #[inline]
    pub(crate) fn rebake_if_changed(&mut self) -> Option<Affine3A> {
        let now = self.current_scalars();
        // Written as a plain loop over fixed-size arrays: the compiler unrolls it.
        #[expect(clippy::float_cmp, reason = "compare-on-read wants exact equality")]
        let unchanged = now.iter().zip(&self.baked).all(|(a, b)| a == b);
        if unchanged {
            return None;
        }
        self.baked = now;
        Some(self.compute_local_matrix())
    }

    pub(crate) fn slot(&self) -> u32 {
        self.slot
    }

    fn on_add(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let parent_slot = world
            .get::<ChildOf>(ctx.entity)
            .and_then(|child_of| world.get::<Transform>(child_of.parent()))
            .map_or(NO_SLOT, Transform::slot);
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
        if let Some(mut transform) = world.get_mut::<Transform>(ctx.entity) {
            transform.bypass_change_detection().slot = slot;
        }
    }

    fn on_remove(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let Some(slot) = world
            .get::<Transform>(ctx.entity)
            .map(Transform::slot)
            .filter(|&slot| slot != NO_SLOT)
        else {
            return;
        };
        let children = child_slots(&world, ctx.entity);
        let Some(mut store) = world.get_resource_mut::<TransformStore>() else {
            return;
        };
        for child in children {
            store.make_root(child);
        }
        store.free(slot);
    }
}

/// Store slots of the children of `entity` that carry a Transform.
fn child_slots(world: &DeferredWorld<'_>, entity: Entity) -> Vec<u32> {
    world
        .get::<Children>(entity)
        .map(|children| {
            children
                .iter()
                .filter_map(|&child| world.get::<Transform>(child).map(Transform::slot))
                .filter(|&slot| slot != NO_SLOT)
                .collect()
        })
        .unwrap_or_default()
}
