//! User behaviour with a lifecycle: `on_attach`, `update`, `update_render`, `on_detach`.

use std::any::Any;

use bevy_ecs::change_detection::Mut;
use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use glam::{Affine3A, Quat, Vec3};

use crate::object::{GameObject, ObjectId, ObjectIds};
use crate::render_context::RenderContext;
use crate::scene::SceneCommands;
use crate::time::Time;
use crate::transform::{Transform, TransformStore};

mod despawn;
mod find;

pub(crate) use despawn::DetachErrors;

/// What a lifecycle method returns: `Ok(())`, or any error, which reaches
/// the loop's error path as an [`UpdateError`](crate::UpdateError) naming the
/// behaviour and its object (`?` works on any `std::error::Error`).
pub type BehaviourResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// Per-object game logic, attached with [`Scene::add_behaviour`](crate::Scene::add_behaviour).
///
/// Every method has an empty default. `update` runs once per tick for objects
/// that are enabled (and whose ancestors are), parents before children;
/// `update_render` runs once per presented frame, after all updates and the
/// transform refresh, for render-side caches. The context gives the scene
/// clock, the object, [`commands`](BehaviourContext::commands) to spawn and
/// remove things, and the ECS world, so the signature never has to grow.
///
/// ```
/// use taos_core::prelude::*;
///
/// struct Spin { speed: f32 }
///
/// impl Behaviour for Spin {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
///         let bob = cx.time().elapsed().sin() as f32; // absolute game time
///         let mut transform = cx.transform_mut();
///         transform.rotation *= Quat::from_rotation_y(self.speed * dt);
///         transform.position.y = bob;
///         Ok(())
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
    fn on_attach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        Ok(())
    }
    /// Called once when the behaviour is removed, or its object removed from the scene.
    fn on_detach(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        Ok(())
    }
    /// Called every tick with `dt == cx.time().delta()`.
    fn update(&mut self, _cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        Ok(())
    }
    /// Called every presented frame after all updates, once world transforms
    /// are current. [`cx.render()`](BehaviourContext::render) gives the frame
    /// (viewport, camera, frame time, interpolation alpha), and `cx.time()`'s
    /// `delta` is the frame's, not the last tick's.
    fn update_render(&mut self, _cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        Ok(())
    }
    /// The name stage timings, errors and watchdog warnings use; the type's name by default.
    fn name(&self) -> &'static str {
        std::any::type_name::<Self>()
    }
}

/// Stands in for the transform of an object that is gone (a behaviour that
/// despawned its own object through the raw world): writes land here and are
/// dropped, instead of panicking.
#[derive(Resource, Default)]
pub(crate) struct DetachedTransform(Transform);

/// What a behaviour sees while it runs: its object, the scene clock, the
/// command queue and the world.
pub struct BehaviourContext<'w> {
    pub(crate) world: &'w mut World,
    pub(crate) object: GameObject,
    /// The frame being drawn, during `update_render` only.
    pub(crate) render: Option<RenderContext>,
}

impl<'w> BehaviourContext<'w> {
    /// A context for `object`'s behaviours outside `update_render`.
    pub(crate) fn new(world: &'w mut World, object: GameObject) -> Self {
        Self {
            world,
            object,
            render: None,
        }
    }

    /// The frame being drawn: `Some` during `update_render`, `None` in the
    /// other lifecycle methods (a tick is not a frame).
    #[must_use]
    pub fn render(&self) -> Option<RenderContext> {
        self.render
    }

    /// The object this behaviour is attached to.
    #[must_use]
    pub fn object(&self) -> GameObject {
        self.object
    }

    /// The scene clock (`delta`, `elapsed`, `frame_count`, `scale`, ...), by
    /// value, so it never holds a borrow of the context. During
    /// `update_render` its `delta` and `unscaled_delta` are the frame's
    /// ([`Time::for_frame`]): a frame between two fixed ticks animates by
    /// the time since the previous frame, not by the last tick's step.
    #[must_use]
    pub fn time(&self) -> Time {
        let time = self
            .world
            .get_resource::<Time>()
            .copied()
            .unwrap_or_default();
        if self.render.is_some() {
            time.for_frame()
        } else {
            time
        }
    }

    /// The scene clock, mutable: `cx.time_mut().set_scale(0.25)` for slow motion.
    pub fn time_mut(&mut self) -> Mut<'_, Time> {
        self.world.resource_mut::<Time>()
    }

    /// Queues changes to the scene (spawn, remove, add components and
    /// behaviours, re-parent), applied in order when the current pass of
    /// behaviours ends (see [`SceneCommands`]).
    pub fn commands(&mut self) -> SceneCommands<'_> {
        SceneCommands::new(self.world)
    }

    /// The object's local transform, read-only (identity if the object is gone).
    #[must_use]
    pub fn transform(&self) -> &Transform {
        self.world
            .get::<Transform>(self.object.entity())
            .unwrap_or(&Transform::IDENTITY)
    }

    /// The object's local transform, for in-place mutation. If the object was
    /// despawned through the raw world, writes go to a scratch value and are dropped.
    pub fn transform_mut(&mut self) -> Mut<'_, Transform> {
        let entity = self.object.entity();
        if self.world.get::<Transform>(entity).is_none() {
            return self
                .world
                .get_resource_or_init::<DetachedTransform>()
                .map_unchanged(|scratch| &mut scratch.0);
        }
        self.world
            .get_mut::<Transform>(entity)
            .expect("checked just above")
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
        self.world_position_of(self.object).unwrap_or(Vec3::ZERO)
    }

    /// Any object's world matrix, compare-on-read (caches what it computes);
    /// `None` for a stale handle.
    pub fn world_matrix_of(&mut self, object: GameObject) -> Option<Affine3A> {
        crate::transform::read::refresh(self.world, object.entity())
            .map(|slot| *self.world.resource::<TransformStore>().world(slot))
    }

    /// Any object's world position; `None` for a stale handle.
    pub fn world_position_of(&mut self, object: GameObject) -> Option<Vec3> {
        self.world_matrix_of(object).map(|m| m.translation.into())
    }

    /// The live object with this stable id.
    #[must_use]
    pub fn find_by_id(&self, id: ObjectId) -> Option<GameObject> {
        ObjectIds::find(self.world, id)
    }

    /// A resource of the scene (e.g. [`GameRng`](crate::game_loop::GameRng),
    /// [`Actions`](crate::game_loop::Actions)).
    ///
    /// # Panics
    /// If the scene has no `R`; the message names the type.
    #[must_use]
    pub fn resource<R: Resource>(&self) -> &R {
        self.world.get_resource::<R>().unwrap_or_else(|| {
            panic!(
                "the scene has no resource {}: insert it with scene.world_mut().insert_resource(..)",
                std::any::type_name::<R>()
            )
        })
    }

    /// A resource of the scene, mutable.
    ///
    /// # Panics
    /// If the scene has no `R`; the message names the type.
    pub fn resource_mut<R: Resource<Mutability = Mutable>>(&mut self) -> Mut<'_, R> {
        if !self.world.contains_resource::<R>() {
            panic!(
                "the scene has no resource {}: insert it with scene.world_mut().insert_resource(..)",
                std::any::type_name::<R>()
            );
        }
        self.world.resource_mut::<R>()
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

/// The first behaviour of type `B` on `object`, found in a bare ECS world:
/// for bevy systems, which see the world but not the [`Scene`](crate::Scene)
/// (that has [`Scene::behaviour`](crate::Scene::behaviour)).
#[must_use]
pub fn behaviour_in<B: Behaviour>(world: &World, object: GameObject) -> Option<&B> {
    world.get::<Behaviours>(object.entity())?.first::<B>()
}

/// The first behaviour of type `B` on `object`, mutable, found in a bare ECS
/// world (see [`behaviour_in`]).
pub fn behaviour_in_mut<B: Behaviour>(world: &mut World, object: GameObject) -> Option<&mut B> {
    world
        .get_mut::<Behaviours>(object.entity())?
        .into_inner()
        .first_mut::<B>()
}

/// The behaviours attached to one object, in attach order. Despawning the
/// object however it happens detaches them (see the `despawn` module).
#[derive(Component, Default)]
#[component(on_despawn = despawn::detach_on_despawn)]
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
