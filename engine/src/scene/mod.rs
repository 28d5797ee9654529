//! The scene: an ECS world holding a forest of GameObjects, its clock, and the
//! per-frame update.

mod components;
mod hierarchy;
mod queries;

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::{QueryState, With};
use bevy_ecs::schedule::{IntoScheduleConfigs, Schedule, ScheduleLabel};
use bevy_ecs::system::ScheduleSystem;
use bevy_ecs::world::World;
use glam::{Affine3A, Mat4};

use crate::behaviour::{Behaviour, BehaviourContext, Behaviours};
use crate::components::{Camera, MeshRenderer};
use crate::error::SceneError;
use crate::game_loop::{Clock, Stage, StageTimings};
use crate::object::{GameObject, ObjectIds, ObjectInfo};
use crate::object_mut::ObjectMut;
use crate::time::Time;
use crate::transform::sweep::TransformSweep;
use crate::transform::{Transform, TransformStats, TransformStore};

pub use queries::MeshDraw;

/// Label of the schedule that holds a scene's plain bevy_ecs systems; it runs in
/// [`Scene::update`] after the behaviours.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SceneUpdate;

/// A forest of GameObjects in one bevy_ecs [`World`], with its own [`Time`].
///
/// Per frame ([`Scene::tick`]): advance the clock, [`update`](Scene::update)
/// behaviours and systems, [`refresh_transforms`](Scene::refresh_transforms),
/// then [`update_render`](Scene::update_render).
pub struct Scene {
    world: World,
    sweep: TransformSweep,
    systems: Schedule,
    transforms: QueryState<(Entity, &'static Transform)>,
    with_behaviours: QueryState<(Entity, &'static Transform), With<Behaviours>>,
    cameras: QueryState<(&'static Transform, &'static mut Camera)>,
    mesh_renderers: QueryState<(Entity, &'static Transform, &'static MeshRenderer)>,
    /// (rank, entity) of objects to run, reused every frame.
    run_order: Vec<(u32, Entity)>,
    /// Per-stage timing, when a loop asked for it.
    profiler: Option<StageProfiler>,
}

/// A clock to time stages with, and what it measured.
struct StageProfiler {
    clock: std::sync::Arc<dyn Clock>,
    timings: StageTimings,
}

impl Default for Scene {
    fn default() -> Self {
        Self::new()
    }
}

impl Scene {
    /// An empty scene.
    #[must_use]
    pub fn new() -> Self {
        let mut world = World::new();
        world.init_resource::<TransformStore>();
        world.init_resource::<ObjectIds>();
        world.init_resource::<Time>();
        hierarchy::observe_hierarchy(&mut world);
        let sweep = TransformSweep::new(&mut world);
        Self {
            transforms: world.query(),
            with_behaviours: world.query_filtered(),
            cameras: world.query(),
            mesh_renderers: world.query(),
            sweep,
            systems: Schedule::new(SceneUpdate),
            world,
            run_order: Vec::new(),
            profiler: None,
        }
    }

    /// Times every stage of [`update`](Self::update) and
    /// [`update_render`](Self::update_render) (each behaviour type, the systems,
    /// transform refreshes) with `clock`; `None` stops timing. The
    /// [`GameLoop`](crate::game_loop::GameLoop) sets this to its own clock.
    pub fn set_stage_clock(&mut self, clock: Option<std::sync::Arc<dyn Clock>>) {
        self.profiler = clock.map(|clock| StageProfiler {
            clock,
            timings: StageTimings::default(),
        });
    }

    /// Stage timings gathered since they were last cleared, if timing is on.
    #[must_use]
    pub fn stage_timings(&self) -> Option<&StageTimings> {
        self.profiler.as_ref().map(|p| &p.timings)
    }

    /// Clears the gathered stage timings.
    pub fn clear_stage_timings(&mut self) {
        if let Some(profiler) = &mut self.profiler {
            profiler.timings.clear();
        }
    }

    /// The profiler's clock reading, when timing is on.
    pub(crate) fn stage_start(&self) -> Option<std::time::Duration> {
        self.profiler.as_ref().map(|p| p.clock.now())
    }

    /// Adds the time since `start` to `stage`.
    pub(crate) fn stage_end(&mut self, stage: Stage, start: Option<std::time::Duration>) {
        if let (Some(profiler), Some(start)) = (&mut self.profiler, start) {
            let spent = profiler.clock.now().saturating_sub(start);
            profiler.timings.add(stage, spent);
        }
    }

    /// Whether the last [`update`](Self::update) had anything to run: the
    /// number of active objects with behaviours, plus the number of systems.
    #[must_use]
    pub fn runnable_work(&self) -> usize {
        self.run_order.len() + self.systems.systems_len()
    }

    /// The ECS world, for plain bevy_ecs queries and resources.
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The ECS world, mutable. Spawn GameObjects with [`Scene::spawn`] so they get
    /// a name and id; plain entities with a [`Transform`] also take part in
    /// transform propagation.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Adds bevy_ecs systems that run every [`update`](Scene::update), after behaviours.
    pub fn add_systems<M>(
        &mut self,
        systems: impl IntoScheduleConfigs<ScheduleSystem, M>,
    ) -> &mut Self {
        self.systems.add_systems(systems);
        self
    }

    /// The scene clock.
    #[must_use]
    pub fn time(&self) -> &Time {
        self.world.resource::<Time>()
    }

    /// The scene clock, mutable (e.g. to change its scale).
    pub fn time_mut(&mut self) -> &mut Time {
        self.world.resource_mut::<Time>().into_inner()
    }

    /// Spawns a new root GameObject with an identity transform.
    pub fn spawn(&mut self, name: impl Into<String>) -> GameObject {
        self.spawn_with(name, Transform::IDENTITY)
    }

    /// Spawns a new root GameObject with the given transform.
    pub fn spawn_with(&mut self, name: impl Into<String>, transform: Transform) -> GameObject {
        let id = self.world.resource_mut::<ObjectIds>().fresh();
        let info = ObjectInfo {
            id,
            name: name.into(),
        };
        GameObject::from_entity(self.world.spawn((info, transform)).id())
    }

    /// `true` while `object` is a live GameObject of this scene.
    #[must_use]
    pub fn contains(&self, object: GameObject) -> bool {
        self.world.get::<ObjectInfo>(object.entity()).is_some()
            && self.world.get::<Transform>(object.entity()).is_some()
    }

    pub(crate) fn slot_of(&self, object: GameObject) -> Result<u32, SceneError> {
        if self.world.get::<ObjectInfo>(object.entity()).is_none() {
            return Err(SceneError::StaleObject(object));
        }
        self.world
            .get::<Transform>(object.entity())
            .map(Transform::slot)
            .ok_or(SceneError::StaleObject(object))
    }

    /// A view of one object for reading and writing its transform.
    ///
    /// # Errors
    /// [`SceneError::StaleObject`] if the object was removed.
    pub fn object_mut(&mut self, object: GameObject) -> Result<ObjectMut<'_>, SceneError> {
        let slot = self.slot_of(object)?;
        Ok(ObjectMut::new(&mut self.world, object, slot))
    }

    /// The object's local transform.
    #[must_use]
    pub fn transform(&self, object: GameObject) -> Option<&Transform> {
        self.world.get::<Transform>(object.entity())
    }

    /// The object's world matrix (compare-on-read), or `None` for a stale handle.
    pub fn world_matrix(&mut self, object: GameObject) -> Option<Affine3A> {
        self.object_mut(object).ok().map(|mut o| o.world_matrix())
    }

    /// The object's local-to-world matrix as a `Mat4`, or `None` for a stale handle.
    pub fn local_to_world(&mut self, object: GameObject) -> Option<Mat4> {
        self.world_matrix(object).map(Mat4::from)
    }

    /// Brings every world matrix up to date: compares what was written since the
    /// last call, re-multiplies only what moved (and below it).
    pub fn refresh_transforms(&mut self) {
        let start = self.stage_start();
        self.sweep.run(&mut self.world);
        self.stage_end(Stage::Transforms, start);
    }

    /// Refreshes transforms, then calls `visit` with every object's world matrix.
    /// This is how a renderer reads the whole scene; it allocates nothing.
    pub fn for_each_world_matrix(&mut self, mut visit: impl FnMut(GameObject, &Affine3A)) {
        self.refresh_transforms();
        let store = self.world.resource::<TransformStore>();
        for (entity, transform) in self.transforms.iter(&self.world) {
            visit(
                GameObject::from_entity(entity),
                store.world(transform.slot()),
            );
        }
    }

    /// Counters of matrix work done so far (for tests and profiling).
    #[must_use]
    pub fn transform_stats(&self) -> TransformStats {
        self.world.resource::<TransformStore>().stats()
    }

    /// Number of objects with a transform.
    #[must_use]
    pub fn len(&self) -> usize {
        self.world.resource::<TransformStore>().len()
    }

    /// `true` when the scene holds no objects.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// One whole frame: advance the clock by `raw_delta` real seconds (clamped to
    /// 100 ms, then scaled), [`update`](Self::update) with the scaled delta,
    /// [`refresh_transforms`](Self::refresh_transforms) and
    /// [`update_render`](Self::update_render). Returns the scaled delta.
    pub fn tick(&mut self, raw_delta: f32) -> f32 {
        let dt = self.world.resource_mut::<Time>().advance(raw_delta);
        self.update(dt);
        self.update_render();
        dt
    }

    /// Runs `update(dt)` on every behaviour of every active object (parents before
    /// children), then the scene's bevy_ecs systems.
    pub fn update(&mut self, dt: f32) {
        self.collect_run_order();
        self.run_behaviours(|behaviour, cx| behaviour.update(cx, dt));
        let start = self.stage_start();
        self.systems.run(&mut self.world);
        self.stage_end(Stage::Systems, start);
        self.world.check_change_ticks();
    }

    /// Refreshes transforms, runs `update_render` on every behaviour of every active
    /// object, and rebuilds camera view/projection matrices.
    pub fn update_render(&mut self) {
        self.refresh_transforms();
        self.collect_run_order();
        self.run_behaviours(|behaviour, cx| behaviour.update_render(cx));
        self.refresh_transforms();
        self.world.resource_scope(
            |world, mut store: bevy_ecs::change_detection::Mut<'_, TransformStore>| {
                let store = store.bypass_change_detection();
                for (transform, mut camera) in self.cameras.iter_mut(world) {
                    let inverse = store.inverse(transform.slot());
                    camera.refresh(&inverse);
                }
            },
        );
    }

    fn collect_run_order(&mut self) {
        self.run_order.clear();
        self.world
            .resource_mut::<TransformStore>()
            .bypass_change_detection()
            .prepare();
        let store = self.world.resource::<TransformStore>();
        for (entity, transform) in self.with_behaviours.iter(&self.world) {
            let slot = transform.slot();
            if store.is_active(slot) {
                self.run_order.push((store.rank(slot), entity));
            }
        }
        self.run_order.sort_unstable();
    }

    fn run_behaviours(
        &mut self,
        mut call: impl FnMut(&mut dyn Behaviour, &mut BehaviourContext<'_>),
    ) {
        let time = *self.world.resource::<Time>();
        match &mut self.profiler {
            None => {
                for &(_, entity) in &self.run_order {
                    with_behaviours(&mut self.world, entity, time, &mut call);
                }
            }
            Some(profiler) => {
                let mut timed = |behaviour: &mut dyn Behaviour, cx: &mut BehaviourContext<'_>| {
                    let start = profiler.clock.now();
                    call(behaviour, cx);
                    let spent = profiler.clock.now().saturating_sub(start);
                    profiler
                        .timings
                        .add(Stage::Behaviour(behaviour.name()), spent);
                };
                for &(_, entity) in &self.run_order {
                    with_behaviours(&mut self.world, entity, time, &mut timed);
                }
            }
        }
    }
}

/// Takes an object's behaviours out of the world, runs `call` on each with a
/// context that can borrow the whole world, and puts them back (keeping any
/// behaviour added meanwhile).
pub(crate) fn with_behaviours(
    world: &mut World,
    entity: Entity,
    time: Time,
    call: &mut impl FnMut(&mut dyn Behaviour, &mut BehaviourContext<'_>),
) {
    let Some(mut attached) = world.get_mut::<Behaviours>(entity) else {
        return;
    };
    let mut list = std::mem::take(&mut attached.bypass_change_detection().list);
    let mut cx = BehaviourContext {
        world,
        object: GameObject::from_entity(entity),
        time,
    };
    for behaviour in &mut list {
        call(behaviour.as_mut(), &mut cx);
    }
    if let Some(mut attached) = world.get_mut::<Behaviours>(entity) {
        let attached = attached.bypass_change_detection();
        let added = std::mem::replace(&mut attached.list, list);
        attached.list.extend(added);
    }
}
