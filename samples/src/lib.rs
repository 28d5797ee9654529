//! # taos_samples
//!
//! Sample scenes for Taos. Each sample is a function that fills an
//! [`Engine`](taos_engine::Engine) and a binary that runs it, in a window or
//! headless:
//!
//! ```sh
//! cargo run -p taos_samples --bin forward_simple
//! cargo run -p taos_samples --bin forward_simple -- --headless --frames 3 --screenshot out.png
//! cargo run --release -p taos_samples --bin many_lights -- --preset forward-plus --lights 2048
//! cargo run -p taos_samples --bin deferred_showcase
//! cargo run -p taos_samples --bin gltf_viewer -- path/to/model.glb
//! cargo run -p taos_samples --bin controllers
//! cargo run -p taos_samples --bin character
//! cargo run -p taos_samples --bin physics
//! cargo run -p taos_samples --bin particles -- --preset deferred --path cpu
//! cargo run -p taos_samples --bin editor
//! cargo run -p taos_samples --bin audio -- --headless --wav mix.wav
//! cargo run -p taos_samples --bin presets_compare -- --headless --out compare/
//! ```
//!
//! Every sample is also an image test (`samples/tests/`), compared with a
//! reference PNG.
//!
//! The samples depend on `taos_engine` alone (renderer presets through
//! `taos_engine::renderer`), as a game does; `.ci/layers` checks it.

mod args;
mod audio;
pub mod character;
mod controllers;
mod deferred_showcase;
mod editor;
mod forward_simple;
mod gltf_viewer;
mod many_lights;
mod particles;
mod physics;
mod physics_checksum;
mod presets_compare;
mod scene_files;
mod shooter;

pub use args::{CommonCli, SampleArgs, run_sample};
pub use audio::{AudioArgs, audio_scene, mix_to_wav};
pub use character::{CharacterScene, character, character_preset, spawn_character_scene};
pub use controllers::{Rig, RigSwitcher, controllers};

/// The API guide (`docs/api-guide.md`), included so its snippets compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/api-guide.md")]
pub struct ApiGuide;
pub use deferred_showcase::{
    GRID, deferred_showcase, deferred_showcase_options, deferred_showcase_preset,
};
pub use editor::{
    EDITOR_LEVEL, EDITOR_SIZE, EditorSample, LAMP_POST_PREFAB, editor_assets, editor_level,
    editor_prefabs, run_editor,
};
pub use forward_simple::{forward_simple, forward_simple_preset, sky_panorama};
pub use gltf_viewer::{
    BackgroundLoad, ClipAction, EFFECT_LABELS, HeadlessView, Orbit, ProgressPrinter, SHOW_AFTER,
    SOLO_FADE, ShownModel, Skeleton, VIEWER_FOV, ViewerCli, ViewerSettings, apply_clip_action,
    clip_panel, focus_on, gltf_viewer, place_camera, scene_tree, show_model, spawn_viewer_camera,
    view_headless,
};
pub use many_lights::{Drift, LightsPreset, ManyLightsOptions, many_lights};
pub use particles::{
    PARTICLES_EYE, ParticlesApp, ParticlesOptions, ParticlesPreset, Spin, particle_counters,
    particles,
};
pub use physics::{
    ARM, BALLS, PHYSICS_HZ, PIVOT, TriggerCount, TriggerCounter, physics, physics_loop,
};
pub use physics_checksum::{CHECKSUM_BODIES, CHECKSUM_TICKS, physics_checksum};
pub use presets_compare::{
    CompareCli, CompareOptions, ComparePreset, Comparison, EFFECTS, Effect, EffectSet, SHEET_FILE,
    Switch, TIMINGS_FILE, Tile, TileTimings, UnknownEffect, compare_preset, effect_sets,
    focus_distance, presets_compare, presets_compare_scene, run_comparison,
};
pub use scene_files::{name_assets, reload_through_scene_file};
pub use shooter::{
    Faller, Play, SHOOTER_HZ, Score, Ship, Shot, Spawner, Target, shooter, shooter_bindings,
    shooter_demo, shooter_loop, shooter_preset,
};
