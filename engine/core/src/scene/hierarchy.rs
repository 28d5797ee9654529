//! Parent/child links: re-parenting with cycle refusal, detaching, removal of
//! whole subtrees, and the observers that keep the transform store in step with
//! bevy's `ChildOf` however it is changed.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::lifecycle::{Insert, Remove};
use bevy_ecs::observer::On;
use bevy_ecs::system::{Commands, Query, ResMut};
use bevy_ecs::world::World;

use super::{Scene, with_behaviours};
use crate::behaviour::Behaviours;
use crate::error::SceneError;
use crate::object::GameObject;
use crate::transform::store::NO_SLOT;
use crate::transform::{TransformSlot, TransformStore};

impl Scene {
    /// Makes `child` a child of `parent`, detaching it from any previous parent.
    /// The child keeps its local transform (so its world placement follows the new parent).
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object;
    /// [`SceneError::WouldCreateCycle`] if `child` is `parent` or one of its ancestors.
    pub fn add_child(&mut self, parent: GameObject, child: GameObject) -> Result<(), SceneError> {
        let parent_slot = self.slot_of(parent)?;
        let child_slot = self.slot_of(child)?;
        let store = self.world.resource::<TransformStore>();
        if store.is_ancestor_or_self(child_slot, parent_slot) {
            return Err(SceneError::WouldCreateCycle { parent, child });
        }
        self.world
            .entity_mut(child.entity())
            .insert(ChildOf(parent.entity()));
        Ok(())
    }

    /// Spawns a new GameObject as a child of `parent`.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] if `parent` was removed.
    pub fn spawn_child(
        &mut self,
        parent: GameObject,
        name: impl Into<String>,
    ) -> Result<GameObject, SceneError> {
        self.slot_of(parent)?;
        let child = self.spawn(name);
        self.add_child(parent, child)?;
        Ok(child)
    }

    /// Makes `object` a root again. Its local transform becomes its world transform.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn detach(&mut self, object: GameObject) -> Result<(), SceneError> {
        self.slot_of(object)?;
        self.world.entity_mut(object.entity()).remove::<ChildOf>();
        Ok(())
    }

    /// The parent of `object`, if it has one.
    #[must_use]
    pub fn parent(&self, object: GameObject) -> Option<GameObject> {
        self.world
            .get::<ChildOf>(object.entity())
            .map(|c| GameObject::from_entity(c.parent()))
    }

    /// The children of `object`, in the order they were added.
    pub fn children(&self, object: GameObject) -> impl Iterator<Item = GameObject> + '_ {
        self.world
            .get::<Children>(object.entity())
            .into_iter()
            .flat_map(|c| c.iter().copied().map(GameObject::from_entity))
    }

    /// Root objects (those without a parent), in hierarchy order: the order
    /// they were spawned in.
    #[must_use]
    pub fn roots(&self) -> Vec<GameObject> {
        let store = self.world.resource::<TransformStore>();
        // Roots come in insertion order in the hierarchy order (see `root_path`).
        let Some(mut query) = self.world.try_query::<(Entity, &TransformSlot)>() else {
            return Vec::new();
        };
        let mut roots: Vec<(u64, GameObject)> = query
            .iter(&self.world)
            .filter(|(_, s)| store.is_live(s.slot) && store.parent(s.slot).is_none())
            .map(|(e, s)| (store.sequence(s.slot), GameObject::from_entity(e)))
            .collect();
        roots.sort_unstable();
        roots.into_iter().map(|(_, o)| o).collect()
    }

    /// When `object` was inserted relative to the others (`None` for a stale
    /// handle): hierarchy order puts earlier insertions first.
    pub(crate) fn insertion(&self, object: GameObject) -> Option<u64> {
        let slot = self.slot_of(object).ok()?;
        Some(self.world.resource::<TransformStore>().sequence(slot))
    }

    /// Re-inserts `objects`, in the order given, after every other object:
    /// how a restore puts back the saved order.
    pub(crate) fn reinsert_in_order(&mut self, objects: impl IntoIterator<Item = GameObject>) {
        for object in objects {
            if let Ok(slot) = self.slot_of(object) {
                self.world
                    .resource_mut::<TransformStore>()
                    .bypass_change_detection()
                    .move_to_end(slot);
            }
        }
    }

    /// Removes `object` and its whole subtree from the scene (despawning them).
    /// Every behaviour in the subtree gets `on_detach` first, children before parents.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for an already removed object.
    pub fn remove(&mut self, object: GameObject) -> Result<(), SceneError> {
        self.slot_of(object)?;
        let mut subtree = vec![object.entity()];
        let mut next = 0;
        while next < subtree.len() {
            if let Some(children) = self.world.get::<Children>(subtree[next]) {
                subtree.extend(children.iter().copied());
            }
            next += 1;
        }
        let mut errors = std::mem::take(&mut self.errors);
        for &entity in subtree.iter().rev() {
            with_behaviours(
                &mut self.world,
                entity,
                "on_detach",
                None,
                &mut errors,
                &mut |b, cx| b.on_detach(cx),
            );
        }
        self.errors = errors;
        // Detached already: the despawn hook must find nothing left to detach.
        for &entity in &subtree {
            if let Some(mut attached) = self.world.get_mut::<Behaviours>(entity) {
                attached.bypass_change_detection().list.clear();
            }
        }
        if let Ok(entity) = self.world.get_entity_mut(object.entity()) {
            entity.despawn();
        }
        Ok(())
    }

    /// Enables or disables an object. A disabled object, and everything below it,
    /// is skipped by updates and by render collection.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] for a removed object.
    pub fn set_enabled(&mut self, object: GameObject, enabled: bool) -> Result<(), SceneError> {
        let slot = self.slot_of(object)?;
        self.world
            .resource_mut::<TransformStore>()
            .bypass_change_detection()
            .set_enabled(slot, enabled);
        self.sync_activity();
        Ok(())
    }

    /// The object's own enabled flag (`None` for a stale handle).
    #[must_use]
    pub fn is_enabled(&self, object: GameObject) -> Option<bool> {
        let slot = self.slot_of(object).ok()?;
        Some(self.world.resource::<TransformStore>().is_enabled(slot))
    }

    /// `true` when the object and all its ancestors are enabled (`None` for a
    /// stale handle). A `&self` read: a walk up the parent chain.
    #[must_use]
    pub fn is_active(&self, object: GameObject) -> Option<bool> {
        self.slot_of(object).ok()?;
        crate::transform::read::is_active_now(&self.world, object.entity())
    }
}

/// Keeps the transform store's parent links equal to bevy's `ChildOf`, including
/// links made with plain bevy_ecs commands. A link that would close a cycle is
/// refused with an error log and removed again.
pub(super) fn observe_hierarchy(world: &mut World) {
    world.add_observer(on_parent_set);
    world.add_observer(on_parent_removed);
}

fn slot_of(transforms: &Query<'_, '_, &TransformSlot>, entity: Entity) -> u32 {
    transforms.get(entity).map_or(NO_SLOT, |own| own.slot)
}

fn on_parent_set(
    event: On<'_, '_, Insert<ChildOf>>,
    transforms: Query<'_, '_, &TransformSlot>,
    links: Query<'_, '_, &ChildOf>,
    mut store: ResMut<'_, TransformStore>,
    mut commands: Commands<'_, '_>,
) {
    let entity = event.event().entity;
    let child = slot_of(&transforms, entity);
    let Ok(link) = links.get(entity) else { return };
    if child == NO_SLOT {
        return;
    }
    let parent = slot_of(&transforms, link.parent());
    if store
        .bypass_change_detection()
        .set_parent(child, parent)
        .is_err()
    {
        log::error!(
            "refused to parent {entity:?} under {:?}: it would become its own ancestor",
            link.parent()
        );
        commands.entity(entity).remove::<ChildOf>();
    }
}

fn on_parent_removed(
    event: On<'_, '_, Remove<ChildOf>>,
    transforms: Query<'_, '_, &TransformSlot>,
    mut store: ResMut<'_, TransformStore>,
) {
    let entity = event.event().entity;
    let child = slot_of(&transforms, entity);
    if child != NO_SLOT && store.is_live(child) && store.entity(child) == entity {
        store.bypass_change_detection().make_root(child);
    }
}
