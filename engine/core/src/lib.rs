//! # taos_core
//!
//! The simulation core of the Taos engine: GameObjects on a [`bevy_ecs`] world, a
//! compare-on-read [`Transform`] hierarchy, per-scene [`Time`], behaviours with a
//! lifecycle, the built-in component types the renderer consumes, node
//! [`animation`], tick-buffered [`input`], and the [`game_loop`].
//!
//! It is **not** a renderer, a window or a database (`.ci/layers` checks its
//! dependency graph): its dependencies are `bevy_ecs`, `glam`, `serde` and
//! `serde_json`, `thiserror`, `log` and `web-time`; it builds for
//! `wasm32-unknown-unknown` as it is, and everything runs and is tested
//! headless. Games usually reach it through the `taos_engine` facade, which
//! re-exports it (`use taos_engine::prelude::*`) and adds the `Engine`, whose
//! presenter reads the [`Scene`] through
//! [`Scene::collect_mesh_renderers_into`], [`Scene::find_camera`] and friends
//! into the renderer's (`taos_renderer`) frame, and a window. The loop never
//! owns the renderer: the engine passes a
//! [`FramePresenter`](game_loop::FramePresenter) to each frame's call. Saving
//! worlds lives in `taos_storage`.
//!
//! ## Conventions
//! Right-handed coordinates, +Y up, cameras look down their local -Z, clip-space
//! depth runs 0..1 (wgpu). Angles in public constructors are degrees; stored
//! angles are radians. Time is in seconds.
//!
//! ## A tiny hierarchy
//! ```
//! use taos_core::prelude::*;
//!
//! let mut scene = Scene::new();
//! let parent = scene.spawn("Parent");
//! let child = scene.spawn_child(parent, "Child").unwrap();
//! scene.object_mut(child).unwrap().set_position(Vec3::new(0.0, 1.0, 0.0));
//!
//! // Move the parent by writing its field in place.
//! scene.object_mut(parent).unwrap().position_mut().x += 5.0;
//!
//! // The child's world position follows; only the moved chain is re-multiplied.
//! let p = scene.object_mut(child).unwrap().world_position();
//! assert_eq!(p, Vec3::new(5.0, 1.0, 0.0));
//! ```
//!
//! ## Where to start
//! - [`Scene`]: spawn, parent, update, and find objects by name
//!   ([`Scene::find`], [`Scene::find_path`], [`Scene::find_child`]) or by
//!   [`Tags`] ([`Scene::find_tagged`]).
//! - [`ObjectMut`]: one object's local and world transform.
//! - [`Behaviour`]: per-object logic with `on_attach`, `update`, `update_render`, `on_detach`.
//! - [`transform`]: how world matrices are cached and what a read costs.
//! - [`animation`]: keyframed node animation ([`AnimationClip`], [`AnimationPlayer`]) on scene
//!   time, in blended layers with cross-fades, masks, events and root motion.
//! - [`game_loop`]: the clock seam, fixed ticks, timers, auto-pause, and
//!   ([`game_loop::replay`]) recordings, checksums and snapshots.
//! - [`input`]: keys, mouse, touch and gamepads per tick, bindings, action flags.
//! - [`scene_file`]: a scene's objects saved to and loaded from readable JSON files.
//! - [`edit`]: scene edits as data, with undo and redo (the editor's model).

#![forbid(unsafe_code)]

pub mod animation;
mod behaviour;
mod clock;
mod components;
mod control;
pub mod controllers;
pub mod edit;
mod error;
pub mod game_loop;
pub mod input;
mod object;
mod object_mut;
mod render_context;
mod rng;
mod scene;
pub mod scene_file;
mod stages;
mod time;
mod timers;
pub mod transform;

pub use animation::{
    AnimatedProperty, AnimationChannel, AnimationClip, AnimationClipError, AnimationEvent,
    AnimationEventError, AnimationLayer, AnimationMask, AnimationPlayer, AnimationPlayerError,
    ChannelProblem, ClipEvent, ClipId, Interpolation, LayerSettings, MaskId,
};
pub use animation::{Locomotion, LocomotionError, LocomotionWeights};
pub use behaviour::{Behaviour, BehaviourContext, BehaviourResult, behaviour_in, behaviour_in_mut};
pub use components::{
    Camera, CameraError, Cascades, DeformError, DirectionalLight, MaterialHandle, MeshHandle,
    MeshRenderer, MorphWeights, PointLight, Projection, SkinnedMesh, SpotLight, Tags,
};
pub use error::{SceneError, UpdateError};
pub use object::{GameObject, Inactive, ObjectId, ObjectInfo};
pub use object_mut::ObjectMut;
pub use render_context::RenderContext;
pub use scene::{
    CommandQueue, Deformations, DeformedDraw, MeshDraw, Scene, SceneCommands, SceneUpdate,
};
pub use time::{InvalidTimeScale, MAX_FRAME_DELTA, Time};
pub use transform::{Transform, TransformStats};

/// Re-exports of the crates whose types appear in this API, so a game needs
/// no direct dependency on them.
///
/// To derive serde's traits through this re-export (for storage records),
/// name it on the type: `#[serde(crate = "taos_core::deps::serde")]` (or
/// `"taos_engine::deps::serde"` through the facade).
pub mod deps {
    pub use bevy_ecs;
    pub use glam;
    /// The logging facade the engine reports through (`log::warn!`): its
    /// messages reach the engine's logger, natively and in the page's console.
    pub use log;
    pub use serde;
}

/// The names a game needs: `use taos_core::prelude::*;` (the facade's
/// `taos_engine::prelude` adds the `Engine`).
pub mod prelude {
    pub use crate::game_loop::{
        ActionFlags, Actions, Delay, FiredTimers, GameLoop, GameRng, Input, InputEvent, Key,
        LoopConfig, ManualClock, MouseButton, RealClock, TimerAction, Timers,
    };
    pub use crate::{
        AnimationChannel, AnimationClip, AnimationPlayer, Behaviour, BehaviourContext,
        BehaviourResult, Camera, ClipId, DirectionalLight, GameObject, Inactive, Interpolation,
        LayerSettings, MaterialHandle, MeshHandle, MeshRenderer, MorphWeights, ObjectId, ObjectMut,
        PointLight, Projection, Scene, SceneCommands, SceneError, SkinnedMesh, SpotLight, Tags,
        Time, Transform, UpdateError,
    };
    /// `bevy_ecs` by name, so `#[derive(Component)]` and `#[derive(Resource)]`
    /// (whose expansions name `bevy_ecs::`) compile in a game that depends
    /// only on `taos_core` or `taos_engine`.
    pub use bevy_ecs;
    pub use bevy_ecs::component::Component;
    pub use bevy_ecs::resource::Resource;
    pub use glam::{Affine3A, EulerRot, Mat4, Quat, Vec2, Vec3, Vec4};
}
