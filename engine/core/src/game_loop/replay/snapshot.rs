//! Snapshot and restore of a live game: objects (with the components and
//! behaviours that opt in), the scene clock, the loop's tick and play/pause
//! state, the RNG, event timers, action flags and opted-in resources.

mod apply;

use std::any::{Any, TypeId};

use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::record::ENGINE_VERSION;
use crate::animation::{AnimationPlayer, PlayState};
use crate::behaviour::{Behaviour, Behaviours};
use crate::game_loop::frame_info::PauseReason;
use crate::object::{GameObject, ObjectId};
use crate::time::Time;
use crate::transform::Transform;
use crate::{MeshRenderer, Scene};

const FORMAT: u32 = 1;

/// A saved game state: objects (with the components and behaviours that opt
/// in), the scene clock, the loop's tick and play/pause state, the RNG, event
/// timers, action flags and opted-in resources. Serialises with serde
/// ([`to_bytes`](Self::to_bytes) gives JSON).
///
/// # What restore does
/// Restore applies a snapshot to the loop's current scene, matching objects by
/// [`ObjectId`]: objects in both are overwritten (name, enabled flag, parent,
/// transform, opted-in components and behaviours), objects only in the
/// snapshot are created with their ids, objects only in the scene are
/// despawned. Lifecycle methods do not run (a restored behaviour is state
/// being put back, not a new attachment). Components that did not opt in stay
/// as they are on surviving objects; that is how cameras, lights and other
/// setup-time objects carry over. A loop that was playing when the snapshot
/// was taken resumes playing; a paused one stays paused, and one that had
/// auto-paused waiting for the player stays auto-paused (input resumes it).
///
/// ```
/// use taos_core::deps::serde::{Deserialize, Serialize};
/// use taos_core::game_loop::{GameLoop, LoopConfig, ManualClock};
/// use taos_core::prelude::*;
///
/// #[derive(Component, Serialize, Deserialize)]
/// #[serde(crate = "taos_core::deps::serde")]
/// struct Health(i32);
///
/// let mut game = GameLoop::new(Scene::new(), LoopConfig::fixed(60)?, ManualClock::new())?;
/// game.snapshot_types().component::<Health>("Health");
/// let hero = game.scene_mut().spawn("Hero");
/// game.scene_mut().add_component(hero, Health(10))?;
/// let saved = game.snapshot()?;
/// game.scene_mut().get_component_mut::<Health>(hero).unwrap().0 = 3;
/// game.restore(&saved)?;
/// assert_eq!(game.scene().get_component::<Health>(hero).unwrap().0, 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    format: u32,
    engine_version: String,
    pub(crate) tick: u64,
    pub(crate) playing: bool,
    /// Why a paused game paused, when input resumes from it (an auto-pause):
    /// restored as that pause, not a hard one. Absent otherwise, and in
    /// snapshots written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) resumable_pause: Option<PauseReason>,
    time: Time,
    rng: Option<crate::rng::GameRng>,
    timers: crate::timers::TimersState,
    actions: (u32, u32),
    objects: Vec<ObjectState>,
    /// Where fresh object ids continue from, so objects spawned after a
    /// restore get the ids they got in the original run.
    next_id: u64,
    resources: Vec<(String, Value)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ObjectState {
    id: u64,
    name: String,
    enabled: bool,
    parent: Option<u64>,
    /// Position, rotation (xyzw), scale.
    transform: [f32; 10],
    components: Vec<(String, Value)>,
    behaviours: Vec<(String, Value)>,
}

/// Why a snapshot could not be taken or restored. A restore is all or
/// nothing: every name is checked and every value decoded before the game
/// is touched, so on an error the game is left exactly as it was.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// An object carries a behaviour type that was not registered with
    /// [`SnapshotTypes::behaviour`]: it could not be put back.
    #[error("behaviour {behaviour} on object {object} is not registered for snapshots")]
    UnregisteredBehaviour {
        /// The behaviour's name.
        behaviour: &'static str,
        /// The object's id.
        object: ObjectId,
    },
    /// A callback timer is pending: closures cannot be saved.
    #[error("{count} callback timer(s) pending: only event timers can be saved")]
    CallbackTimer {
        /// How many.
        count: usize,
    },
    /// A value failed to serialise or deserialise.
    #[error("snapshot value {what}")]
    Value {
        /// The component, behaviour or resource name.
        what: String,
        /// The serde error.
        #[source]
        source: serde_json::Error,
    },
    /// The snapshot names a type this game did not register.
    #[error("the snapshot holds {kind} {name}, which this game did not register")]
    UnknownType {
        /// "component", "behaviour" or "resource".
        kind: &'static str,
        /// The registered name in the snapshot.
        name: String,
    },
    /// Written by another snapshot format or engine version.
    #[error(
        "snapshot format {format} from engine {engine}; this is format {FORMAT}, engine {ENGINE_VERSION}"
    )]
    Incompatible {
        /// Format found.
        format: u32,
        /// Engine version found.
        engine: String,
    },
    /// The bytes are not a snapshot.
    #[error("not a snapshot")]
    Malformed(#[source] serde_json::Error),
    /// An object id appears twice, or a parent id is missing.
    #[error("snapshot hierarchy is inconsistent at object {0}")]
    Hierarchy(ObjectId),
    /// A field holds a value no game reaches: a counter (the tick, the
    /// frame count, a timer sequence) past [`MAX_SNAPSHOT_COUNTER`], which could
    /// not count on, or two timers with one sequence number.
    #[error("snapshot field {field} is invalid")]
    Invalid {
        /// The field.
        field: &'static str,
    },
}

/// The largest tick, frame count or timer sequence number a snapshot may
/// hold: half the range, more than any game reaches, with as much room
/// again to count on without overflowing.
pub const MAX_SNAPSHOT_COUNTER: u64 = u64::MAX / 2;

type SaveFn = Box<dyn Fn(&World, Entity) -> Option<Result<Value, serde_json::Error>> + Send + Sync>;
/// Decodes a component's saved value (`None`: the object had none) into
/// what puts it on an entity, without touching the world.
type LoadFn = Box<dyn Fn(Option<&Value>) -> Result<PutComponent, serde_json::Error> + Send + Sync>;
/// Puts a decoded component on an entity (or takes it off).
type PutComponent = Box<dyn FnOnce(&mut World, Entity)>;
type SaveBehaviour = Box<dyn Fn(&dyn Behaviour) -> Result<Value, serde_json::Error> + Send + Sync>;
type LoadBehaviour =
    Box<dyn Fn(&Value) -> Result<Box<dyn Behaviour>, serde_json::Error> + Send + Sync>;
type SaveResource = Box<dyn Fn(&World) -> Option<Result<Value, serde_json::Error>> + Send + Sync>;
/// Decodes a resource's saved value into what inserts it, without touching
/// the world.
type LoadResource = Box<dyn Fn(&Value) -> Result<PutResource, serde_json::Error> + Send + Sync>;
/// Inserts a decoded resource.
type PutResource = Box<dyn FnOnce(&mut World)>;

struct ComponentEntry {
    name: &'static str,
    save: SaveFn,
    load: LoadFn,
}

struct BehaviourEntry {
    name: &'static str,
    type_id: TypeId,
    save: SaveBehaviour,
    load: LoadBehaviour,
}

struct ResourceEntry {
    name: &'static str,
    save: SaveResource,
    load: LoadResource,
}

/// The component, behaviour and resource types a game's snapshots carry,
/// each under a stable name (the name is what the snapshot stores, so
/// renaming a Rust type does not break saves). [`MeshRenderer`],
/// [`MorphWeights`](crate::MorphWeights), [`Tags`](crate::Tags) (a game
/// tags and untags objects as it plays) and the play state of
/// [`AnimationPlayer`](crate::AnimationPlayer)s are registered from the
/// start.
///
/// A player's play state is its layers (clips, times, speeds, weights,
/// fade progress), pause and loop flags, the events of its last step and
/// its root-motion totals: restoring in the middle of a cross-fade carries
/// on exactly. Its clips, masks and root-motion bone are setup, not state:
/// restore puts the state into the player the object has (an object
/// without one gets none).
pub struct SnapshotTypes {
    components: Vec<ComponentEntry>,
    behaviours: Vec<BehaviourEntry>,
    resources: Vec<ResourceEntry>,
}

impl std::fmt::Debug for SnapshotTypes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |v: Vec<&str>| v.join(", ");
        f.debug_struct("SnapshotTypes")
            .field(
                "components",
                &names(self.components.iter().map(|e| e.name).collect()),
            )
            .field(
                "behaviours",
                &names(self.behaviours.iter().map(|e| e.name).collect()),
            )
            .field(
                "resources",
                &names(self.resources.iter().map(|e| e.name).collect()),
            )
            .finish()
    }
}

impl Default for SnapshotTypes {
    fn default() -> Self {
        let mut types = Self {
            components: Vec::new(),
            behaviours: Vec::new(),
            resources: Vec::new(),
        };
        types.component::<MeshRenderer>("taos.MeshRenderer");
        types.component::<crate::MorphWeights>("taos.MorphWeights");
        types.component::<crate::Tags>("taos.Tags");
        types.animation_players();
        types
    }
}

impl SnapshotTypes {
    /// Snapshots carry component `C` under `name`.
    pub fn component<C>(&mut self, name: &'static str) -> &mut Self
    where
        C: Component<Mutability = Mutable> + Serialize + DeserializeOwned,
    {
        self.components.retain(|e| e.name != name);
        self.components.push(ComponentEntry {
            name,
            save: Box::new(|world, entity| world.get::<C>(entity).map(serde_json::to_value)),
            load: Box::new(|value| {
                let value = value.map(C::deserialize).transpose()?;
                Ok(Box::new(move |world: &mut World, entity: Entity| {
                    let mut entity = world.entity_mut(entity);
                    match value {
                        Some(value) => {
                            entity.insert(value);
                        }
                        None => {
                            entity.remove::<C>();
                        }
                    }
                }))
            }),
        });
        self
    }

    /// Carries the play state of [`AnimationPlayer`]s, restored into the
    /// player already on the object (clips are not saved).
    fn animation_players(&mut self) {
        const NAME: &str = "taos.AnimationPlayer";
        self.components.retain(|e| e.name != NAME);
        self.components.push(ComponentEntry {
            name: NAME,
            save: Box::new(|world, entity| {
                world
                    .get::<AnimationPlayer>(entity)
                    .map(|player| serde_json::to_value(player.play_state()))
            }),
            load: Box::new(|value| {
                let state = value.map(PlayState::deserialize).transpose()?;
                Ok(Box::new(move |world: &mut World, entity: Entity| {
                    if let Some(state) = state
                        && let Some(mut player) = world.get_mut::<AnimationPlayer>(entity)
                    {
                        player.restore_play_state(state);
                    }
                }))
            }),
        });
    }

    /// Snapshots carry behaviour `B` under `name`. Every behaviour type a
    /// game uses must be registered for [`GameLoop::snapshot`](crate::game_loop::GameLoop::snapshot) to succeed.
    pub fn behaviour<B>(&mut self, name: &'static str) -> &mut Self
    where
        B: Behaviour + Serialize + DeserializeOwned,
    {
        self.behaviours.retain(|e| e.name != name);
        self.behaviours.push(BehaviourEntry {
            name,
            type_id: TypeId::of::<B>(),
            save: Box::new(|behaviour| {
                let any: &dyn Any = behaviour;
                let behaviour = any.downcast_ref::<B>().expect("matched by TypeId");
                serde_json::to_value(behaviour)
            }),
            load: Box::new(|value| Ok(Box::new(B::deserialize(value)?))),
        });
        self
    }

    /// Snapshots carry resource `R` under `name`.
    pub fn resource<R>(&mut self, name: &'static str) -> &mut Self
    where
        R: Resource + Serialize + DeserializeOwned,
    {
        self.resources.retain(|e| e.name != name);
        self.resources.push(ResourceEntry {
            name,
            save: Box::new(|world| world.get_resource::<R>().map(serde_json::to_value)),
            load: Box::new(|value| {
                let value = R::deserialize(value)?;
                Ok(Box::new(move |world: &mut World| {
                    world.insert_resource(value)
                }))
            }),
        });
        self
    }
}

fn value_error(what: &str) -> impl FnOnce(serde_json::Error) -> SnapshotError + '_ {
    move |source| SnapshotError::Value {
        what: what.to_owned(),
        source,
    }
}

impl Snapshot {
    /// The snapshot as JSON bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("snapshot values are plain data")
    }

    /// Parses bytes from [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`SnapshotError::Malformed`] for anything else.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SnapshotError> {
        serde_json::from_slice(bytes).map_err(SnapshotError::Malformed)
    }

    /// Number of ticks the game had run.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Whether the game was playing (not paused) when saved.
    #[must_use]
    pub fn was_playing(&self) -> bool {
        self.playing
    }

    /// How restoring pauses the loop: `None` for a game saved while playing,
    /// the auto-pause it was in when input resumes from it, otherwise
    /// [`PauseReason::Requested`].
    #[must_use]
    pub fn restored_pause(&self) -> Option<PauseReason> {
        if self.playing {
            return None;
        }
        Some(
            self.resumable_pause
                .filter(|reason| reason.resumes_on_input())
                .unwrap_or(PauseReason::Requested),
        )
    }

    /// Takes the scene part of a snapshot; the loop adds its own state.
    pub(crate) fn capture(
        scene: &Scene,
        types: &SnapshotTypes,
        tick: u64,
        paused: Option<PauseReason>,
    ) -> Result<Self, SnapshotError> {
        let world = scene.world();
        let timers = world.resource::<crate::game_loop::Timers>();
        let callbacks = timers.callback_count();
        if callbacks > 0 {
            return Err(SnapshotError::CallbackTimer { count: callbacks });
        }
        let mut objects = Vec::new();
        let mut ids: Vec<(ObjectId, Entity)> = world
            .try_query::<(Entity, &crate::ObjectInfo)>()
            .map(|mut q| q.iter(world).map(|(e, info)| (info.id(), e)).collect())
            .unwrap_or_default();
        // In insertion order, which restore puts back (so behaviours update
        // in the same order after a restore).
        ids.sort_unstable_by_key(|&(id, entity)| {
            (scene.insertion(GameObject::from_entity(entity)), id)
        });
        for (id, entity) in ids {
            let object = GameObject::from_entity(entity);
            let Some(transform) = world.get::<Transform>(entity) else {
                continue;
            };
            let mut components = Vec::new();
            for entry in &types.components {
                if let Some(value) = (entry.save)(world, entity) {
                    components.push((
                        entry.name.to_owned(),
                        value.map_err(value_error(entry.name))?,
                    ));
                }
            }
            let mut behaviours = Vec::new();
            if let Some(attached) = world.get::<Behaviours>(entity) {
                for behaviour in &attached.list {
                    let type_id = (&**behaviour as &dyn Any).type_id();
                    let entry = types
                        .behaviours
                        .iter()
                        .find(|e| e.type_id == type_id)
                        .ok_or(SnapshotError::UnregisteredBehaviour {
                            behaviour: behaviour.name(),
                            object: id,
                        })?;
                    let value =
                        (entry.save)(behaviour.as_ref()).map_err(value_error(entry.name))?;
                    behaviours.push((entry.name.to_owned(), value));
                }
            }
            objects.push(ObjectState {
                id: id.0,
                name: scene.name(object).unwrap_or_default().to_owned(),
                enabled: scene.is_enabled(object).unwrap_or(true),
                parent: scene.parent(object).and_then(|p| scene.id(p)).map(|p| p.0),
                transform: transform.scalars(),
                components,
                behaviours,
            });
        }
        let mut resources = Vec::new();
        for entry in &types.resources {
            if let Some(value) = (entry.save)(world) {
                resources.push((
                    entry.name.to_owned(),
                    value.map_err(value_error(entry.name))?,
                ));
            }
        }
        let actions = world.resource::<crate::input::Actions>();
        Ok(Self {
            format: FORMAT,
            engine_version: ENGINE_VERSION.to_owned(),
            tick,
            playing: paused.is_none(),
            resumable_pause: paused.filter(|reason| reason.resumes_on_input()),
            time: *scene.time(),
            rng: world.get_resource::<crate::rng::GameRng>().cloned(),
            timers: timers.state(),
            actions: (actions.current.0, actions.previous.0),
            objects,
            next_id: world.resource::<crate::object::ObjectIds>().counter(),
            resources,
        })
    }
}
