//! User behaviour with a lifecycle: `on_attach`, `update`, `update_render`, `on_detach`.

use std::any::Any;

use bevy_ecs::change_detection::Mut;
use bevy_ecs::component::Component;
use bevy_ecs::world::World;
use glam::{Quat, Vec3};

use crate::object::GameObject;
use crate::time::Time;
use crate::transform::Transform;

/// Per-object game logic, attached with [`Scene::add_behaviour`](crate::Scene::add_behaviour).
///
/// Every method has an empty default. `update` runs once per frame for objects
/// that are enabled (and whose ancestors are), parents before children;
/// `update_render` runs right after all updates and the transform refresh, for
/// render-side caches. The context gives the scene clock, the object and the ECS
/// world, so the signature never has to grow.
///
/// ```
/// use taos_engine::prelude::*;
///
/// struct Spin { speed: f32 }
///
/// impl Behaviour for Spin {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) {
///         let bob = cx.time().elapsed().sin() as f32; // absolute game time
///         let mut transform = cx.transform_mut();
///         transform.rotation *= Quat::from_rotation_y(self.speed * dt);
///         transform.position.y = bob;
///     }
/// }
///
/// let mut scene = Scene::new();
/// let top = scene.spawn("Top");
/// scene.add_behaviour(top, Spin { speed: 1.0 }).unwrap();
/// scene.tick(0.016);
/// ```
pub trait Behaviour: Any + Send + Sync {
    /// Called once when the behaviour is attached.
    fn on_attach(&mut self, _cx: &mut BehaviourContext<'_>) {}
    /// Called once when the behaviour is removed, or its object removed from the scene.
    fn on_detach(&mut self, _cx: &mut BehaviourContext<'_>) {}
    /// Called every frame with `dt == cx.time().delta()`.
    fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) {}
    /// Called every frame after all updates, once world transforms are current.
    fn update_render(&mut self, _cx: &mut BehaviourContext<'_>) {}
    /// The name stage timings and watchdog warnings use; the type's name by default.
    fn name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

/// What a behaviour sees while it runs: its object, the scene clock, the world.
pub struct BehaviourContext<'w> {
    pub(crate) world: &'w mut World,
    pub(crate) object: GameObject,
    pub(crate) time: Time,
}

impl<'w> BehaviourContext<'w> {
    /// The object this behaviour is attached to.
    #[must_use]
    pub fn object(&self) -> GameObject {
        self.object
    }

    /// The scene clock (`delta`, `elapsed`, `frame_count`, `scale`, ...).
    #[must_use]
    pub fn time(&self) -> &Time {
        &self.time
    }

    /// The object's local transform, for in-place mutation.
    ///
    /// # Panics
    /// If the behaviour removed its own object's `Transform` (never done by the engine).
    pub fn transform_mut(&mut self) -> Mut<'_, Transform> {
        self.world
            .get_mut::<Transform>(self.object.entity())
            .expect("a GameObject always has a Transform")
    }

    /// Local position, mutable in place.
    pub fn position_mut(&mut self) -> Mut<'_, Vec3> {
        self.transform_mut().map_unchanged(|t| &mut t.position)
    }

    /// Local rotation, mutable in place.
    pub fn rotation_mut(&mut self) -> Mut<'_, Quat> {
        self.transform_mut().map_unchanged(|t| &mut t.rotation)
    }

    /// The object's world position, compare-on-read.
    pub fn world_position(&mut self) -> Vec3 {
        crate::transform::read::refresh(self.world, self.object.entity())
            .map(|slot| {
                Vec3::from(
                    self.world
                        .resource::<crate::transform::TransformStore>()
                        .world(slot)
                        .translation,
                )
            })
            .unwrap_or(Vec3::ZERO)
    }

    /// The whole ECS world, for anything else (other objects, resources, components).
    pub fn world_mut(&mut self) -> &mut World {
        self.world
    }

    /// Read-only world access.
    #[must_use]
    pub fn world(&self) -> &World {
        self.world
    }
}

/// The behaviours attached to one object, in attach order.
#[derive(Component, Default)]
pub(crate) struct Behaviours {
    pub(crate) list: Vec<Box<dyn Behaviour>>,
}

impl Behaviours {
    pub(crate) fn first<B: Behaviour>(&self) -> Option<&B> {
        self.list
            .iter()
            .find_map(|b| (&**b as &dyn Any).downcast_ref::<B>())
    }

    pub(crate) fn first_mut<B: Behaviour>(&mut self) -> Option<&mut B> {
        self.list
            .iter_mut()
            .find_map(|b| (&mut **b as &mut dyn Any).downcast_mut::<B>())
    }

    pub(crate) fn all<B: Behaviour>(&self) -> impl Iterator<Item = &B> {
        self.list
            .iter()
            .filter_map(|b| (&**b as &dyn Any).downcast_ref::<B>())
    }

    /// Takes out the first behaviour of type `B`.
    pub(crate) fn take_first<B: Behaviour>(&mut self) -> Option<Box<dyn Behaviour>> {
        let at = self
            .list
            .iter()
            .position(|b| (&**b as &dyn Any).is::<B>())?;
        Some(self.list.remove(at))
    }
}
