//! Deferred scene changes: what behaviours (and plain systems) use to spawn
//! and remove objects, add and remove components and behaviours, and
//! re-parent, without holding `&mut Scene`.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;

use super::Scene;
use crate::behaviour::Behaviour;
use crate::error::SceneError;
use crate::object::GameObject;
use crate::transform::Transform;

type Command = Box<dyn FnOnce(&mut Scene) -> Result<(), SceneError> + Send + Sync>;

/// The queue behind [`SceneCommands`]; a scene resource, so plain systems can
/// queue through `ResMut<CommandQueue>` too.
#[derive(Resource, Default)]
pub struct CommandQueue {
    commands: Vec<Command>,
}

impl std::fmt::Debug for CommandQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandQueue")
            .field("queued", &self.commands.len())
            .finish()
    }
}

impl CommandQueue {
    /// Queues `command`; it runs with the whole scene when the queue is applied.
    pub fn push(
        &mut self,
        command: impl FnOnce(&mut Scene) -> Result<(), SceneError> + Send + Sync + 'static,
    ) {
        self.commands.push(Box::new(command));
    }

    /// Number of commands waiting.
    #[must_use]
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// `true` when nothing is queued.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }
}

/// Queues scene changes from inside a behaviour
/// ([`BehaviourContext::commands`](crate::BehaviourContext::commands)).
///
/// Handles of spawned objects are valid at once (they can be parented, given
/// components and behaviours by later commands); the object is built when the
/// queue is applied.
///
/// # When commands apply
/// The queue is a scene resource. [`Scene::update`] applies it after the
/// behaviours' pass and again after the systems; [`Scene::update_render`]
/// after its pass; [`Scene::apply_commands`] applies it on demand. Commands
/// apply in the order they were queued. An object spawned by a command
/// exists (with its transform, components and behaviours) from the moment
/// its queue is applied: its behaviours first run in the next tick.
///
///
/// ```
/// use taos_core::prelude::*;
///
/// struct Gun;
/// struct Bullet { life: f32 }
///
/// impl Behaviour for Gun {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
///         let at = cx.world_position();
///         let mut commands = cx.commands();
///         let bullet = commands.spawn_with("Bullet", Transform::from_position(at));
///         commands.add_behaviour(bullet, Bullet { life: 0.05 });
///         Ok(())
///     }
/// }
///
/// impl Behaviour for Bullet {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
///         self.life -= dt;
///         if self.life <= 0.0 {
///             let me = cx.object();
///             cx.commands().remove(me);
///         }
///         Ok(())
///     }
/// }
///
/// let mut scene = Scene::new();
/// let gun = scene.spawn("Gun");
/// scene.add_behaviour(gun, Gun)?;
/// scene.tick(0.02);
/// assert_eq!(scene.len(), 2, "the gun and its first bullet");
/// for _ in 0..10 {
///     scene.tick(0.02);
/// }
/// // Each bullet updates three times (0.05 s of life) and removes itself.
/// assert_eq!(scene.len(), 4, "the gun and the three bullets in flight");
/// # Ok::<(), SceneError>(())
/// ```
pub struct SceneCommands<'w> {
    world: &'w mut World,
}

impl<'w> SceneCommands<'w> {
    pub(crate) fn new(world: &'w mut World) -> Self {
        world.get_resource_or_init::<CommandQueue>();
        Self { world }
    }

    fn push(
        &mut self,
        command: impl FnOnce(&mut Scene) -> Result<(), SceneError> + Send + Sync + 'static,
    ) {
        self.world.resource_mut::<CommandQueue>().push(command);
    }

    /// Spawns a root object with an identity transform.
    pub fn spawn(&mut self, name: impl Into<String>) -> GameObject {
        self.spawn_with(name, Transform::IDENTITY)
    }

    /// Spawns a root object with `transform`.
    pub fn spawn_with(&mut self, name: impl Into<String>, transform: Transform) -> GameObject {
        // The entity is reserved now so the handle works in later commands;
        // until the queue applies it carries nothing and no scene query sees it.
        let entity = self.world.spawn_empty().id();
        let name = name.into();
        self.push(move |scene| scene.build_reserved(entity, name, transform));
        GameObject::from_entity(entity)
    }

    /// Spawns an object under `parent`.
    pub fn spawn_child(&mut self, parent: GameObject, name: impl Into<String>) -> GameObject {
        let child = self.spawn(name);
        self.set_parent(child, parent);
        child
    }

    /// Removes `object` and its subtree (behaviours get `on_detach`). Removing
    /// an object that is already gone does nothing.
    pub fn remove(&mut self, object: GameObject) {
        self.push(move |scene| {
            if scene.contains(object) {
                scene.remove(object)?;
            }
            Ok(())
        });
    }

    /// Adds (or replaces) a component.
    pub fn add_component<C: Component>(&mut self, object: GameObject, component: C) {
        self.push(move |scene| scene.add_component(object, component));
    }

    /// Removes a component of type `C`, if present.
    pub fn remove_component<C: Component>(&mut self, object: GameObject) {
        self.push(move |scene| {
            scene.remove_component::<C>(object);
            Ok(())
        });
    }

    /// Attaches a behaviour (its `on_attach` runs when the queue applies).
    pub fn add_behaviour<B: Behaviour>(&mut self, object: GameObject, behaviour: B) {
        self.push(move |scene| scene.add_behaviour(object, behaviour));
    }

    /// Detaches the first behaviour of type `B` (after its `on_detach`).
    pub fn remove_behaviour<B: Behaviour>(&mut self, object: GameObject) {
        self.push(move |scene| {
            scene.remove_behaviour::<B>(object);
            Ok(())
        });
    }

    /// Makes `child` a child of `parent` (refused, with an error, if it would close a cycle).
    pub fn set_parent(&mut self, child: GameObject, parent: GameObject) {
        self.push(move |scene| scene.add_child(parent, child));
    }

    /// Makes `object` a root.
    pub fn detach(&mut self, object: GameObject) {
        self.push(move |scene| scene.detach(object));
    }

    /// Enables or disables `object` (and so its subtree).
    pub fn set_enabled(&mut self, object: GameObject, enabled: bool) {
        self.push(move |scene| scene.set_enabled(object, enabled));
    }

    /// Queues any change that needs the whole scene.
    pub fn add(
        &mut self,
        command: impl FnOnce(&mut Scene) -> Result<(), SceneError> + Send + Sync + 'static,
    ) {
        self.push(command);
    }
}

impl Scene {
    /// Applies every queued command in order (see [`SceneCommands`] for when
    /// the loop applies them).
    /// A command that fails is reported through
    /// [`take_errors`](Self::take_errors); the rest still apply.
    pub fn apply_commands(&mut self) {
        // Commands may queue more commands; apply until the queue stays empty.
        loop {
            let Some(mut queue) = self.world.get_resource_mut::<CommandQueue>() else {
                return;
            };
            if queue.commands.is_empty() {
                return;
            }
            let batch = std::mem::take(&mut queue.commands);
            for command in batch {
                if let Err(error) = command(self) {
                    self.report(crate::UpdateError::Command(error));
                }
            }
        }
    }

    /// Turns an entity reserved by [`SceneCommands::spawn_with`] into a GameObject.
    fn build_reserved(
        &mut self,
        entity: Entity,
        name: String,
        transform: Transform,
    ) -> Result<(), SceneError> {
        let object = GameObject::from_entity(entity);
        if self.world.get_entity(entity).is_err() {
            return Err(SceneError::StaleObject(object));
        }
        let info = self.new_object_info(name);
        self.world.entity_mut(entity).insert((info, transform));
        Ok(())
    }
}
