//! GameObject identity: the typed handle, the stable id and the name.

use std::collections::HashMap;
use std::fmt;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::{DeferredWorld, World};

/// A GameObject: a handle to an ECS entity that carries a [`Transform`](crate::Transform),
/// a name, a stable [`ObjectId`] and an enabled flag.
///
/// The handle is `Copy` and cheap; every operation goes through the
/// [`Scene`](crate::Scene) that owns the object. A handle to a removed object is
/// stale: `Scene` methods report it as [`SceneError::StaleObject`](crate::SceneError).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameObject(Entity);

impl GameObject {
    /// Wraps an entity. The entity must have been spawned by a [`Scene`](crate::Scene)
    /// (or carry `Transform` and [`ObjectInfo`]) for Scene methods to accept it.
    #[must_use]
    pub const fn from_entity(entity: Entity) -> Self {
        Self(entity)
    }

    /// The ECS entity behind this GameObject, for use with plain bevy_ecs APIs.
    #[must_use]
    pub const fn entity(self) -> Entity {
        self.0
    }
}

impl From<GameObject> for Entity {
    fn from(object: GameObject) -> Self {
        object.0
    }
}

/// Marks a GameObject that is not active: disabled with
/// [`Scene::set_enabled`](crate::Scene::set_enabled), or below a disabled
/// ancestor. The scene keeps it current before every update, so plain bevy
/// systems skip inactive objects with a `Without<Inactive>` filter, exactly
/// as behaviours are skipped.
///
/// ```
/// use taos_core::prelude::*;
/// use taos_core::deps::bevy_ecs::prelude::*;
///
/// #[derive(Resource, Default)]
/// struct Seen(usize);
///
/// fn count(objects: Query<&Transform, Without<Inactive>>, mut seen: ResMut<Seen>) {
///     seen.0 = objects.iter().count();
/// }
///
/// let mut scene = Scene::new();
/// scene.world_mut().init_resource::<Seen>();
/// scene.add_systems(count);
/// let parent = scene.spawn("Parent");
/// scene.spawn_child(parent, "Child")?;
/// scene.set_enabled(parent, false)?;
/// scene.tick(0.016);
/// assert_eq!(scene.world().resource::<Seen>().0, 0);
/// # Ok::<(), SceneError>(())
/// ```
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Inactive;

/// A stable identity for a GameObject, unlike the [`Entity`], which is recycled.
///
/// New objects get a fresh id; a loader restoring a saved scene overwrites it with
/// [`Scene::set_id`](crate::Scene::set_id) so references survive save and load.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ObjectId(pub u64);

impl ObjectId {
    /// Ids from here up (the top bit set) are derived, not counted: a
    /// prefab part's id mixes its instance's id with its id in the prefab
    /// file ([`part_id`](crate::scene_file::part_id)). Fresh ids stay below.
    pub const DERIVED: u64 = 1 << 63;
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Name and id of a GameObject. Read them through [`Scene`](crate::Scene).
#[derive(Component, Debug, Clone)]
#[component(on_insert = ObjectInfo::on_insert, on_discard = ObjectInfo::on_discard)]
pub struct ObjectInfo {
    pub(crate) id: ObjectId,
    pub(crate) name: String,
}

impl ObjectInfo {
    /// The object's stable id.
    #[must_use]
    pub fn id(&self) -> ObjectId {
        self.id
    }

    /// The object's name (not necessarily unique).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    fn on_insert(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let Some(id) = world.get::<ObjectInfo>(ctx.entity).map(ObjectInfo::id) else {
            return;
        };
        if let Some(mut ids) = world.get_resource_mut::<ObjectIds>() {
            ids.by_id.insert(id, ctx.entity);
            // Derived ids (prefab parts) do not move the counter: fresh ids
            // stay small and readable in scene files.
            if id.0 < ObjectId::DERIVED {
                ids.next = ids.next.max(id.0 + 1);
            }
        }
    }

    fn on_discard(mut world: DeferredWorld<'_>, ctx: HookContext) {
        let Some(id) = world.get::<ObjectInfo>(ctx.entity).map(ObjectInfo::id) else {
            return;
        };
        if let Some(mut ids) = world.get_resource_mut::<ObjectIds>()
            && ids.by_id.get(&id) == Some(&ctx.entity)
        {
            ids.by_id.remove(&id);
        }
    }
}

/// Index from [`ObjectId`] to entity, kept current by [`ObjectInfo`]'s hooks.
#[derive(Resource, Debug)]
pub(crate) struct ObjectIds {
    by_id: HashMap<ObjectId, Entity>,
    next: u64,
}

impl Default for ObjectIds {
    fn default() -> Self {
        Self {
            by_id: HashMap::new(),
            next: 1,
        }
    }
}

impl ObjectIds {
    /// An id no live object has. Counts up from the highest counted id seen
    /// (below [`ObjectId::DERIVED`]); once the counter reaches that bound
    /// it wraps to 1 and skips the ids in use, so it never overflows or
    /// repeats.
    pub(crate) fn fresh(&mut self) -> ObjectId {
        loop {
            if self.next >= ObjectId::DERIVED {
                self.next = 1;
            }
            let id = ObjectId(self.next);
            self.next += 1;
            if !self.by_id.contains_key(&id) {
                return id;
            }
        }
    }

    /// The id counter (what the next fresh id starts from).
    pub(crate) fn counter(&self) -> u64 {
        self.next
    }

    pub(crate) fn set_counter(&mut self, next: u64) {
        self.next = next.max(1);
    }

    /// The id the next fresh one starts from, in `world`.
    pub(crate) fn next_free(world: &World) -> ObjectId {
        ObjectId(world.resource::<Self>().next)
    }

    /// The live object holding `id` in `world`.
    pub(crate) fn find(world: &World, id: ObjectId) -> Option<GameObject> {
        world
            .resource::<Self>()
            .get(id)
            .map(GameObject::from_entity)
    }

    pub(crate) fn get(&self, id: ObjectId) -> Option<Entity> {
        self.by_id.get(&id).copied()
    }
}
