//! Finding objects by name, by path and by tag.
//!
//! Every search reads the world as it stands (no index, no cache) and sees
//! every live GameObject, enabled or not: a disabled door can be found and
//! enabled. When several objects match, the first in hierarchy order wins:
//! the order of their root-to-object paths of insertion numbers, which is
//! the order roots and children were spawned in (as [`Scene::roots`] and
//! [`Scene::find_camera`] use).
//!
//! Costs: a search by name or tag visits every object once and computes the
//! root path of each match (O(objects + matches × depth)); a path from the
//! roots visits every object once for its first segment, then only the
//! children of matching objects; a path below a given object visits only
//! children. The functions here take a bare [`World`], so a
//! [`BehaviourContext`](crate::BehaviourContext) searches exactly as the
//! [`Scene`] does.

use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::Children;
use bevy_ecs::query::With;
use bevy_ecs::world::World;

use super::Scene;
use crate::components::Tags;
use crate::object::{GameObject, ObjectInfo};
use crate::transform::{TransformSlot, TransformStore, read};

/// What a search by name or by tag compares.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Match<'a> {
    /// The object's name equals this.
    Named(&'a str),
    /// The object carries this tag.
    Tagged(&'a str),
}

/// The first object that matches, in hierarchy order.
pub(crate) fn first(world: &World, what: Match<'_>) -> Option<GameObject> {
    let store = world.resource::<TransformStore>();
    let (mut best, mut path) = (None::<(Vec<u64>, Entity)>, Vec::new());
    visit_matches(world, what, &mut |entity, slot| {
        read::root_path(store, slot, &mut path);
        if best.as_ref().is_none_or(|(p, _)| path < *p) {
            best = Some((path.clone(), entity));
        }
    });
    best.map(|(_, entity)| GameObject::from_entity(entity))
}

/// Every object that matches, in hierarchy order.
pub(crate) fn all(world: &World, what: Match<'_>) -> Vec<GameObject> {
    let store = world.resource::<TransformStore>();
    let mut found: Vec<(Vec<u64>, Entity)> = Vec::new();
    visit_matches(world, what, &mut |entity, slot| {
        let mut path = Vec::new();
        read::root_path(store, slot, &mut path);
        found.push((path, entity));
    });
    found.sort_unstable();
    found
        .into_iter()
        .map(|(_, entity)| GameObject::from_entity(entity))
        .collect()
}

/// Calls `visit` with the entity and transform slot of every live object
/// that matches, in no particular order.
fn visit_matches(world: &World, what: Match<'_>, visit: &mut dyn FnMut(Entity, u32)) {
    let store = world.resource::<TransformStore>();
    match what {
        Match::Named(name) => {
            let Some(mut query) = world.try_query::<(Entity, &ObjectInfo, &TransformSlot)>() else {
                return;
            };
            for (entity, info, &TransformSlot { slot, .. }) in query.iter(world) {
                if info.name == name && store.is_live(slot) {
                    visit(entity, slot);
                }
            }
        }
        Match::Tagged(tag) => {
            let Some(mut query) =
                world.try_query_filtered::<(Entity, &Tags, &TransformSlot), With<ObjectInfo>>()
            else {
                return;
            };
            for (entity, tags, &TransformSlot { slot, .. }) in query.iter(world) {
                if tags.contains(tag) && store.is_live(slot) {
                    visit(entity, slot);
                }
            }
        }
    }
}

/// The object at `path` from the roots: `"Level/Door"` is the child `Door`
/// of the root `Level`; one leading `/` is allowed and changes nothing.
pub(crate) fn at_path(world: &World, path: &str) -> Option<GameObject> {
    let path = path.strip_prefix('/').unwrap_or(path);
    let segments = segments(path)?;
    let store = world.resource::<TransformStore>();
    let mut roots = Vec::new();
    let mut query = world.try_query::<(Entity, &ObjectInfo, &TransformSlot)>()?;
    for (entity, info, &TransformSlot { slot, .. }) in query.iter(world) {
        if info.name == segments[0] && store.is_live(slot) && store.parent(slot).is_none() {
            roots.push((store.sequence(slot), entity));
        }
    }
    descend(world, roots, &segments[1..])
}

/// The object at `path` below `parent`: `"Arm"` is a child named `Arm`,
/// `"Arm/Hand"` that child's child `Hand`.
pub(crate) fn below(world: &World, parent: GameObject, path: &str) -> Option<GameObject> {
    let segments = segments(path)?;
    let level = named_children(world, parent.entity(), segments[0]);
    descend(world, level, &segments[1..])
}

/// The segments of a path; `None` when the path is empty or a segment is
/// empty, `.` or `..` (paths only go down, one name at a time).
fn segments(path: &str) -> Option<Vec<&str>> {
    let segments: Vec<&str> = path.split('/').collect();
    segments
        .iter()
        .all(|s| !s.is_empty() && *s != "." && *s != "..")
        .then_some(segments)
}

/// Depth first from `level` (objects that matched the path's first
/// segment, with their insertion numbers), each level in hierarchy order,
/// with an explicit stack (hierarchies can be deep): the first object whose
/// chain of names below `level` is `rest`.
fn descend(world: &World, mut level: Vec<(u64, Entity)>, rest: &[&str]) -> Option<GameObject> {
    level.sort_unstable();
    let mut stack: Vec<(Entity, usize)> = level.into_iter().rev().map(|(_, e)| (e, 0)).collect();
    while let Some((entity, depth)) = stack.pop() {
        let Some(next) = rest.get(depth) else {
            return Some(GameObject::from_entity(entity));
        };
        let mut children = named_children(world, entity, next);
        children.sort_unstable();
        stack.extend(children.into_iter().rev().map(|(_, e)| (e, depth + 1)));
    }
    None
}

/// The children of `parent` named `name`, with their insertion numbers.
fn named_children(world: &World, parent: Entity, name: &str) -> Vec<(u64, Entity)> {
    let store = world.resource::<TransformStore>();
    let Some(children) = world.get::<Children>(parent) else {
        return Vec::new();
    };
    children
        .iter()
        .copied()
        .filter(|&child| {
            world
                .get::<ObjectInfo>(child)
                .is_some_and(|i| i.name == name)
        })
        .filter_map(|child| {
            let slot = world.get::<TransformSlot>(child)?.slot;
            store.is_live(slot).then(|| (store.sequence(slot), child))
        })
        .collect()
}

impl Scene {
    /// The first object named `name` in hierarchy order (spawn order of
    /// roots, then of children), enabled or not; `None` when no object has
    /// that name. Names need not be unique: see [`find_all`](Self::find_all).
    ///
    /// Visits every object (O(objects)); keep the handle rather than
    /// searching every frame.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let level = scene.spawn("Level");
    /// let door = scene.spawn_child(level, "Door")?;
    /// scene.spawn("Door");
    /// assert_eq!(scene.find("Door"), Some(door)); // the older one
    /// assert_eq!(scene.find("Window"), None);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find(&self, name: &str) -> Option<GameObject> {
        first(&self.world, Match::Named(name))
    }

    /// Every object named `name`, in hierarchy order, enabled or not.
    ///
    /// Visits every object, and sorts the matches (O(objects + matches ×
    /// depth)).
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let a = scene.spawn("Coin");
    /// let b = scene.spawn("Coin");
    /// scene.spawn("Crate");
    /// assert_eq!(scene.find_all("Coin"), [a, b]);
    /// ```
    #[must_use]
    pub fn find_all(&self, name: &str) -> Vec<GameObject> {
        all(&self.world, Match::Named(name))
    }

    /// The object at `path` from the roots: `"Level/Door"` is the child named
    /// `Door` of the root named `Level`. A leading `/` is allowed and means
    /// the same (paths always start at a root). Where names repeat, the first
    /// match in hierarchy order wins, trying every `Level` root, not only the
    /// first.
    ///
    /// `None` when nothing is there, and for a malformed path: an empty one,
    /// an empty segment (`"Level//Door"`, a trailing `/`) or a `.` or `..`
    /// segment. A name containing `/` cannot be reached by path; use
    /// [`find`](Self::find) or [`find_child`](Self::find_child).
    ///
    /// Visits every object for the first segment, then only children.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let level = scene.spawn("Level");
    /// let room = scene.spawn_child(level, "Room")?;
    /// let door = scene.spawn_child(room, "Door")?;
    /// assert_eq!(scene.find_path("Level/Room/Door"), Some(door));
    /// assert_eq!(scene.find_path("/Level/Room"), Some(room));
    /// assert_eq!(scene.find_path("Room/Door"), None); // Room is no root
    /// assert_eq!(scene.find_path("Level/../Level"), None);
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_path(&self, path: &str) -> Option<GameObject> {
        at_path(&self.world, path)
    }

    /// The object at `path` below `parent`: `"Arm"` is a child named `Arm`,
    /// `"Arm/Hand"` that child's child `Hand`. Where names repeat, the first
    /// match in hierarchy order wins. `None` for a stale `parent`, and for a
    /// malformed path as in [`find_path`](Self::find_path) (here a leading
    /// `/` is an empty segment).
    ///
    /// Visits only the children along the way.
    ///
    /// ```
    /// use taos_core::prelude::*;
    ///
    /// let mut scene = Scene::new();
    /// let robot = scene.spawn("Robot");
    /// let arm = scene.spawn_child(robot, "Arm")?;
    /// let hand = scene.spawn_child(arm, "Hand")?;
    /// assert_eq!(scene.find_child(robot, "Arm"), Some(arm));
    /// assert_eq!(scene.find_child(robot, "Arm/Hand"), Some(hand));
    /// assert_eq!(scene.find_child(robot, "Hand"), None); // not a child
    /// # Ok::<(), SceneError>(())
    /// ```
    #[must_use]
    pub fn find_child(&self, parent: GameObject, path: &str) -> Option<GameObject> {
        below(&self.world, parent, path)
    }
}
