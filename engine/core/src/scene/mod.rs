//! The scene: an ECS world holding a forest of GameObjects, its clock, and the
//! per-frame update.

mod animation;
mod commands;
mod components;
mod deform_seen;
mod deformations;
mod diagnostics;
pub(crate) mod find;
mod hierarchy;
mod interpolation;
mod queries;
mod render_view;
mod tagging;

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::{QueryState, With};
use bevy_ecs::schedule::{IntoScheduleConfigs, Schedule, ScheduleLabel};
use bevy_ecs::system::ScheduleSystem;
use bevy_ecs::world::World;
use glam::{Affine3A, Mat4};

use crate::behaviour::{Behaviour, BehaviourContext, BehaviourResult, Behaviours, DetachErrors};
use crate::clock::Clock;
use crate::components::{Camera, MeshRenderer};
use crate::error::{SceneError, UpdateError};
use crate::object::{GameObject, ObjectIds, ObjectInfo};
use crate::object_mut::ObjectMut;
use crate::render_context::{RenderContext, RenderView};
use crate::stages::{Stage, StageTimings};
use crate::time::Time;
use crate::transform::sweep::TransformSweep;
use crate::transform::{Transform, TransformSlot, TransformStats, TransformStore};

pub use commands::{CommandQueue, SceneCommands};
pub use deformations::{Deformations, DeformedDraw};
pub use queries::MeshDraw;

/// Label of the schedule that holds a scene's plain bevy_ecs systems; it runs in
/// [`Scene::update`] after the behaviours.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct SceneUpdate;

/// A forest of GameObjects in one bevy_ecs [`World`], with its own [`Time`].
///
/// Per frame ([`Scene::tick`]): advance the clock, [`update`](Scene::update)
/// animation players, behaviours and systems, [`refresh_transforms`](Scene::refresh_transforms),
/// then [`update_render`](Scene::update_render).
pub struct Scene {
    world: World,
    sweep: TransformSweep,
    systems: Schedule,
    with_behaviours: QueryState<(Entity, &'static TransformSlot), With<Behaviours>>,
    cameras: QueryState<(&'static TransformSlot, &'static mut Camera)>,
    mesh_renderers: QueryState<(Entity, &'static TransformSlot, &'static MeshRenderer)>,
    deforming: deformations::DeformingQuery,
    /// Where the last gather found each joint's transform, and what the
    /// last changed-only gather posed.
    deform_seen: deformations::DeformSeen,
    /// (rank, entity) of objects to run, reused every frame.
    run_order: Vec<(u32, Entity)>,
    /// Scratch for [`sync_activity`](Self::sync_activity).
    activity_changes: Vec<(Entity, bool)>,
    /// Per-stage timing, when a loop asked for it.
    profiler: Option<StageProfiler>,
    /// Errors from behaviours and commands, until taken.
    errors: Vec<UpdateError>,
    /// Placements at the last two ticks, when render interpolation is on.
    history: Option<interpolation::TickHistory>,
    /// Steps animation players at the start of every update.
    animation: animation::AnimationStep,
    /// What the scene is called in diagnostics ("World", "Main menu").
    label: Option<String>,
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
        world.init_resource::<CommandQueue>();
        // The services a loop drives exist from the start, so behaviours and
        // systems can use them in a bare scene too (`Scene::tick`); a
        // GameLoop installs and configures them. They live in their own
        // modules: the scene knows nothing of the loop.
        world.init_resource::<crate::input::Input>();
        world.init_resource::<crate::input::Actions>();
        world.init_resource::<crate::timers::Timers>();
        world.init_resource::<crate::timers::FiredTimers>();
        world.init_resource::<crate::control::LoopControl>();
        world.insert_resource(crate::rng::GameRng::new(0));
        world.init_resource::<crate::behaviour::DetachedTransform>();
        world.init_resource::<RenderView>();
        hierarchy::observe_hierarchy(&mut world);
        let sweep = TransformSweep::new(&mut world);
        let animation = animation::AnimationStep::new(&mut world);
        Self {
            with_behaviours: world.query_filtered(),
            cameras: world.query(),
            mesh_renderers: world.query(),
            deforming: world.query_filtered(),
            deform_seen: deformations::DeformSeen::default(),
            sweep,
            systems: Schedule::new(SceneUpdate),
            world,
            run_order: Vec::new(),
            activity_changes: Vec::new(),
            profiler: None,
            errors: Vec::new(),
            history: None,
            animation,
            label: None,
        }
    }

    /// Whether the last [`update`](Self::update) had anything to run: the
    /// number of active objects with behaviours, plus the number of systems,
    /// plus the number of [`AnimationPlayer`](crate::AnimationPlayer)s still playing.
    #[must_use]
    pub fn runnable_work(&self) -> usize {
        self.run_order.len() + self.systems.systems_len() + self.animation.playing()
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
        let info = self.new_object_info(name.into());
        GameObject::from_entity(self.world.spawn((info, transform)).id())
    }

    fn new_object_info(&mut self, name: String) -> ObjectInfo {
        let id = self.world.resource_mut::<ObjectIds>().fresh();
        ObjectInfo { id, name }
    }

    /// Errors reported since the last call, oldest first: behaviours that
    /// returned `Err`, commands that were refused. Each is also logged.
    pub fn take_errors(&mut self) -> Vec<UpdateError> {
        let mut errors = std::mem::take(&mut self.errors);
        if let Some(mut detached) = self.world.get_resource_mut::<DetachErrors>() {
            errors.append(&mut detached.bypass_change_detection().0);
        }
        errors
    }

    /// `true` when errors wait in [`take_errors`](Self::take_errors).
    #[must_use]
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
            || self
                .world
                .get_resource::<DetachErrors>()
                .is_some_and(|detached| !detached.0.is_empty())
    }

    pub(crate) fn report(&mut self, error: UpdateError) {
        log::error!("{error}: {}", error_chain(&error));
        self.errors.push(error);
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
        match crate::transform::slot_of(&self.world, object.entity()) {
            crate::transform::store::NO_SLOT => Err(SceneError::StaleObject(object)),
            slot => Ok(slot),
        }
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

    /// The object's world matrix as it stands now, or `None` for a stale handle.
    ///
    /// A `&self` read: it walks the parent chain comparing each level with
    /// what was last baked, returns the cached matrix when nothing moved since
    /// the last refresh, and otherwise multiplies the chain itself without
    /// caching the result (O(depth)). [`ObjectMut::world_matrix`] is the
    /// caching read when you hold `&mut Scene`.
    #[must_use]
    pub fn world_matrix(&self, object: GameObject) -> Option<Affine3A> {
        self.slot_of(object).ok()?;
        crate::transform::read::world_matrix_now(&self.world, object.entity())
    }

    /// The object's local-to-world matrix as a `Mat4` (see [`world_matrix`](Self::world_matrix)).
    #[must_use]
    pub fn local_to_world(&self, object: GameObject) -> Option<Mat4> {
        self.world_matrix(object).map(Mat4::from)
    }

    /// The object's world position (see [`world_matrix`](Self::world_matrix)).
    #[must_use]
    pub fn world_position(&self, object: GameObject) -> Option<glam::Vec3> {
        self.world_matrix(object).map(|m| m.translation.into())
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
    /// Objects come in the order of their transform caches (a dense array
    /// read front to back), which is no particular order.
    pub fn for_each_world_matrix(&mut self, mut visit: impl FnMut(GameObject, &Affine3A)) {
        self.refresh_transforms();
        self.world
            .resource::<TransformStore>()
            .for_each_world(|entity, m| visit(GameObject::from_entity(entity), m));
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

    /// Steps every active [`AnimationPlayer`](crate::AnimationPlayer) by `dt`
    /// (writing the animated transforms), then runs `update(dt)` on every
    /// behaviour of every active object (parents before children), then the
    /// scene's bevy_ecs systems. `dt` is the scaled delta: pass
    /// [`Time::delta`].
    ///
    /// Commands the behaviours queued apply after their pass, and those the
    /// systems queued after the systems (see [`SceneCommands`]).
    pub fn update(&mut self, dt: f32) {
        self.collect_run_order();
        self.animate(dt);
        self.run_behaviours("update", None, |behaviour, cx| behaviour.update(cx, dt));
        self.apply_commands();
        let start = self.stage_start();
        self.systems.run(&mut self.world);
        self.stage_end(Stage::Systems, start);
        self.apply_commands();
        self.world.check_change_ticks();
    }

    /// Refreshes transforms, runs `update_render` on every behaviour of every active
    /// object, and rebuilds camera view/projection matrices. The behaviours'
    /// [`RenderContext`] has alpha 1 (a frame on the latest tick).
    pub fn update_render(&mut self) {
        self.update_render_at(1.0);
    }

    /// [`update_render`](Self::update_render) for a frame presented at
    /// `alpha` between the last two fixed ticks.
    pub(crate) fn update_render_at(&mut self, alpha: f32) {
        self.refresh_transforms();
        self.collect_run_order();
        let render = self.render_context(alpha);
        self.run_behaviours("update_render", Some(render), |behaviour, cx| {
            behaviour.update_render(cx)
        });
        self.apply_commands();
        self.refresh_transforms();
        self.snap_moved_placements();
        self.world.resource_scope(
            |world, mut store: bevy_ecs::change_detection::Mut<'_, TransformStore>| {
                let store = store.bypass_change_detection();
                for (slot, mut camera) in self.cameras.iter_mut(world) {
                    let inverse = store.inverse(slot.slot);
                    camera.refresh(&inverse);
                }
            },
        );
    }

    /// Refreshes the hierarchy index and active flags, and puts the
    /// [`Inactive`](crate::Inactive) marker on exactly the inactive objects.
    pub(crate) fn sync_activity(&mut self) {
        let mut changes = std::mem::take(&mut self.activity_changes);
        {
            let mut store = self.world.resource_mut::<TransformStore>();
            let store = store.bypass_change_detection();
            store.prepare();
            store.take_active_changes(&mut changes);
        }
        for &(entity, active) in &changes {
            if let Ok(mut entity) = self.world.get_entity_mut(entity) {
                if active {
                    entity.remove::<crate::Inactive>();
                } else {
                    entity.insert(crate::Inactive);
                }
            }
        }
        self.activity_changes = changes;
    }

    fn collect_run_order(&mut self) {
        self.run_order.clear();
        self.sync_activity();
        let store = self.world.resource::<TransformStore>();
        for (entity, &TransformSlot { slot, .. }) in self.with_behaviours.iter(&self.world) {
            if store.is_active(slot) {
                self.run_order.push((store.rank(slot), entity));
            }
        }
        self.run_order.sort_unstable();
    }

    fn run_behaviours(
        &mut self,
        stage: &'static str,
        render: Option<RenderContext>,
        mut call: impl FnMut(&mut dyn Behaviour, &mut BehaviourContext<'_>) -> BehaviourResult,
    ) {
        let mut errors = std::mem::take(&mut self.errors);
        // With a profiler, each call is timed under its behaviour's name.
        let mut timed;
        let mut call: &mut dyn FnMut(
            &mut dyn Behaviour,
            &mut BehaviourContext<'_>,
        ) -> BehaviourResult = match &mut self.profiler {
            None => &mut call,
            Some(profiler) => {
                timed = |behaviour: &mut dyn Behaviour, cx: &mut BehaviourContext<'_>| {
                    let start = profiler.clock.now();
                    let result = call(behaviour, cx);
                    let spent = profiler.clock.now().saturating_sub(start);
                    profiler
                        .timings
                        .add(Stage::Behaviour(behaviour.name()), spent);
                    result
                };
                &mut timed
            }
        };
        for &(_, entity) in &self.run_order {
            with_behaviours(
                &mut self.world,
                entity,
                stage,
                render,
                &mut errors,
                &mut call,
            );
        }
        self.errors = errors;
    }
}

/// `source: source: ...` of an error, for the log line.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut parts = Vec::new();
    let mut next = error.source();
    while let Some(source) = next {
        parts.push(source.to_string());
        next = source.source();
    }
    parts.join(": ")
}

/// Takes an object's behaviours out of the world, runs `call` on each with a
/// context that can borrow the whole world, and puts them back (keeping any
/// behaviour added meanwhile). Errors are collected into `errors`; `render`
/// is the frame's context during `update_render`.
///
/// If a behaviour despawned the object through the raw world, the remaining
/// behaviours of the list are skipped and every behaviour in it gets its
/// `on_detach`, as if the object had been removed with [`Scene::remove`].
pub(crate) fn with_behaviours(
    world: &mut World,
    entity: Entity,
    stage: &'static str,
    render: Option<RenderContext>,
    errors: &mut Vec<UpdateError>,
    call: &mut impl FnMut(&mut dyn Behaviour, &mut BehaviourContext<'_>) -> BehaviourResult,
) {
    let Some(mut attached) = world.get_mut::<Behaviours>(entity) else {
        return;
    };
    let mut list = std::mem::take(&mut attached.bypass_change_detection().list);
    let object = GameObject::from_entity(entity);
    let mut cx = BehaviourContext::new(world, object);
    cx.render = render;
    let mut report = |behaviour: &dyn Behaviour, stage: &'static str, result: BehaviourResult| {
        if let Err(source) = result {
            let error = UpdateError::Behaviour {
                behaviour: behaviour.name(),
                object,
                stage,
                source,
            };
            log::error!("{error}: {}", error_chain(&error));
            errors.push(error);
        }
    };
    let mut gone = false;
    for behaviour in &mut list {
        let result = call(behaviour.as_mut(), &mut cx);
        report(behaviour.as_ref(), stage, result);
        if cx.world.get_entity(entity).is_err() {
            gone = true;
            break;
        }
    }
    if gone {
        if stage != "on_detach" {
            for behaviour in &mut list {
                let result = behaviour.on_detach(&mut cx);
                report(behaviour.as_ref(), "on_detach", result);
            }
        }
        return;
    }
    if let Some(mut attached) = world.get_mut::<Behaviours>(entity) {
        let attached = attached.bypass_change_detection();
        let added = std::mem::replace(&mut attached.list, list);
        attached.list.extend(added);
    }
}
