//! Restoring a snapshot into a scene, all or nothing: every name and the
//! hierarchy are checked and every component, behaviour and resource value
//! is decoded before the scene is touched, so a snapshot that fails (a value
//! that does not decode, an unknown type, a parent cycle) leaves the game
//! exactly as it was.

use std::collections::{HashMap, HashSet};

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;

use super::{
    FORMAT, MAX_SNAPSHOT_COUNTER, PutComponent, PutResource, Snapshot, SnapshotError,
    SnapshotTypes, value_error,
};
use crate::Scene;
use crate::behaviour::{Behaviour, Behaviours};
use crate::game_loop::replay::record::ENGINE_VERSION;
use crate::object::{GameObject, ObjectId};
use crate::time::Time;
use crate::transform::Transform;

/// One object's decoded state: what puts each registered component on it
/// (or takes it off), and its behaviours.
struct DecodedObject {
    components: Vec<PutComponent>,
    behaviours: Vec<Box<dyn Behaviour>>,
}

/// Everything a snapshot puts back, decoded.
struct Decoded {
    objects: Vec<DecodedObject>,
    resources: Vec<PutResource>,
}

impl Snapshot {
    /// Applies the scene part of this snapshot (see [`Snapshot`]).
    pub(crate) fn apply(
        &self,
        scene: &mut Scene,
        types: &SnapshotTypes,
    ) -> Result<(), SnapshotError> {
        if self.format != FORMAT || self.engine_version != ENGINE_VERSION {
            return Err(SnapshotError::Incompatible {
                format: self.format,
                engine: self.engine_version.clone(),
            });
        }
        self.check(types)?;
        let decoded = self.decode(types)?;
        // Nothing below depends on the snapshot's contents being valid.
        let by_id = self.place_objects(scene)?;
        // The saved order (insertion order when captured) is the hierarchy
        // order again, whichever objects had to be spawned.
        scene.reinsert_in_order(self.objects.iter().map(|state| by_id[&state.id]));
        for (state, object) in self.objects.iter().zip(decoded.objects) {
            let entity = by_id[&state.id].entity();
            let target = by_id[&state.id];
            scene.set_name(target, state.name.clone()).ok();
            scene.set_enabled(target, state.enabled).ok();
            let t = state.transform;
            if let Some(mut transform) = scene.world_mut().get_mut::<Transform>(entity) {
                *transform = Transform::from_trs(
                    glam::Vec3::new(t[0], t[1], t[2]),
                    glam::Quat::from_xyzw(t[3], t[4], t[5], t[6]),
                    glam::Vec3::new(t[7], t[8], t[9]),
                );
            }
            for put in object.components {
                put(scene.world_mut(), entity);
            }
            let mut entity = scene.world_mut().entity_mut(entity);
            if object.behaviours.is_empty() {
                entity.remove::<Behaviours>();
            } else {
                entity.insert(Behaviours {
                    list: object.behaviours,
                });
            }
        }
        // Id counter, clock, RNG, timers, flags, resources.
        let world = scene.world_mut();
        world
            .resource_mut::<crate::object::ObjectIds>()
            .set_counter(self.next_id);
        *world.resource_mut::<Time>() = self.time;
        match &self.rng {
            Some(rng) => world.insert_resource(rng.clone()),
            None => {
                world.remove_resource::<crate::game_loop::GameRng>();
            }
        }
        world
            .resource_mut::<crate::game_loop::Timers>()
            .restore(&self.timers);
        let mut actions = world.resource_mut::<crate::game_loop::Actions>();
        actions.current = crate::game_loop::ActionFlags(self.actions.0);
        actions.previous = crate::game_loop::ActionFlags(self.actions.1);
        for put in decoded.resources {
            put(world);
        }
        scene.refresh_transforms();
        Ok(())
    }

    /// Decodes every value, touching nothing.
    fn decode(&self, types: &SnapshotTypes) -> Result<Decoded, SnapshotError> {
        let unknown = |kind, name: &str| SnapshotError::UnknownType {
            kind,
            name: name.to_owned(),
        };
        let mut objects = Vec::with_capacity(self.objects.len());
        for state in &self.objects {
            let mut components = Vec::with_capacity(types.components.len());
            for entry in &types.components {
                let value = state
                    .components
                    .iter()
                    .find(|(name, _)| name == entry.name)
                    .map(|(_, value)| value);
                components.push((entry.load)(value).map_err(value_error(entry.name))?);
            }
            let mut behaviours = Vec::with_capacity(state.behaviours.len());
            for (name, value) in &state.behaviours {
                let entry = types
                    .behaviours
                    .iter()
                    .find(|e| e.name == name)
                    .ok_or_else(|| unknown("behaviour", name))?;
                behaviours.push((entry.load)(value).map_err(value_error(name))?);
            }
            objects.push(DecodedObject {
                components,
                behaviours,
            });
        }
        let mut resources = Vec::with_capacity(self.resources.len());
        for (name, value) in &self.resources {
            let entry = types
                .resources
                .iter()
                .find(|e| e.name == name)
                .ok_or_else(|| unknown("resource", name))?;
            resources.push((entry.load)(value).map_err(value_error(name))?);
        }
        Ok(Decoded { objects, resources })
    }

    /// Makes every saved object exist with its id and parent, and removes the
    /// objects the snapshot does not know (without lifecycle calls).
    fn place_objects(&self, scene: &mut Scene) -> Result<HashMap<u64, GameObject>, SnapshotError> {
        let mut by_id: HashMap<u64, GameObject> = HashMap::new();
        for state in &self.objects {
            let id = ObjectId(state.id);
            let object = match scene.find_by_id(id) {
                Some(object) => object,
                None => {
                    let object = scene.spawn(state.name.clone());
                    scene
                        .set_id(object, id)
                        .map_err(|_| SnapshotError::Hierarchy(id))?;
                    object
                }
            };
            by_id.insert(state.id, object);
        }
        let parent_of = |state: &super::ObjectState| {
            state
                .parent
                .map(|parent| {
                    by_id
                        .get(&parent)
                        .copied()
                        .ok_or(SnapshotError::Hierarchy(ObjectId(state.id)))
                })
                .transpose()
        };
        // Every object whose parent changes is detached first, then attached
        // to its saved parent: the saved hierarchy has no cycle (checked), so
        // no attachment can make one. Detaching also keeps saved children
        // out of the despawn of an object the snapshot does not know.
        for state in &self.objects {
            let object = by_id[&state.id];
            let current = scene.parent(object);
            if current.is_some() && current != parent_of(state)? {
                scene.detach(object).ok();
            }
        }
        for state in &self.objects {
            let object = by_id[&state.id];
            if let Some(parent) = parent_of(state)?
                && scene.parent(object) != Some(parent)
            {
                scene
                    .add_child(parent, object)
                    .map_err(|_| SnapshotError::Hierarchy(ObjectId(state.id)))?;
            }
        }
        let saved: HashSet<GameObject> = by_id.values().copied().collect();
        let stale: Vec<Entity> = scene
            .world_mut()
            .try_query::<(Entity, &crate::ObjectInfo)>()
            .map(|mut q| {
                q.iter(scene.world())
                    .map(|(e, _)| e)
                    .filter(|e| !saved.contains(&GameObject::from_entity(*e)))
                    .collect()
            })
            .unwrap_or_default();
        // Without lifecycle calls: the behaviours are dropped before the
        // despawn, so its hook has no `on_detach` to run.
        for &entity in &stale {
            if let Some(mut attached) = scene.world_mut().get_mut::<Behaviours>(entity) {
                attached.bypass_change_detection().list.clear();
            }
        }
        for entity in stale {
            if let Ok(entity) = scene.world_mut().get_entity_mut(entity) {
                entity.despawn();
            }
        }
        Ok(by_id)
    }

    /// Every counter has room to count on and no two timers share a
    /// sequence number: restored, either would overflow or misfire later.
    fn check_counters(&self) -> Result<(), SnapshotError> {
        let invalid = |field| SnapshotError::Invalid { field };
        if self.tick > MAX_SNAPSHOT_COUNTER {
            return Err(invalid("tick"));
        }
        if self.time.frame_count() > MAX_SNAPSHOT_COUNTER {
            return Err(invalid("time.frame_count"));
        }
        let mut sequences = self.timers.sequences();
        let next = sequences.next().unwrap_or_default();
        if next > MAX_SNAPSHOT_COUNTER {
            return Err(invalid("timers.next_sequence"));
        }
        let mut seen = HashSet::new();
        for sequence in sequences {
            if sequence > MAX_SNAPSHOT_COUNTER || !seen.insert(sequence) {
                return Err(invalid("timers.events"));
            }
        }
        Ok(())
    }

    /// Every name in the snapshot is registered, every id is unique, every
    /// parent is saved and no object is its own ancestor.
    fn check(&self, types: &SnapshotTypes) -> Result<(), SnapshotError> {
        self.check_counters()?;
        let unknown = |kind, name: &String| SnapshotError::UnknownType {
            kind,
            name: name.clone(),
        };
        let mut parents = HashMap::new();
        for state in &self.objects {
            if parents.insert(state.id, state.parent).is_some() {
                return Err(SnapshotError::Hierarchy(ObjectId(state.id)));
            }
            for (name, _) in &state.components {
                if !types.components.iter().any(|e| e.name == name) {
                    return Err(unknown("component", name));
                }
            }
            for (name, _) in &state.behaviours {
                if !types.behaviours.iter().any(|e| e.name == name) {
                    return Err(unknown("behaviour", name));
                }
            }
        }
        for (name, _) in &self.resources {
            if !types.resources.iter().any(|e| e.name == name) {
                return Err(unknown("resource", name));
            }
        }
        // Walk up from each object; a walk that meets itself is a cycle.
        let mut acyclic = HashSet::new();
        for state in &self.objects {
            let mut path = HashSet::new();
            let mut at = Some(state.id);
            while let Some(id) = at {
                if acyclic.contains(&id) {
                    break;
                }
                if !path.insert(id) {
                    return Err(SnapshotError::Hierarchy(ObjectId(id)));
                }
                at = *parents
                    .get(&id)
                    .ok_or(SnapshotError::Hierarchy(ObjectId(state.id)))?;
            }
            acyclic.extend(path);
        }
        Ok(())
    }
}
