//! # taos_renderer
//!
//! The GPU half of Taos: a wgpu context (headless or on a window surface), a
//! render graph rebuilt every frame from typed resource handles, and the
//! render features and presets that fill it.
//!
//! It is **not** an ECS: it knows nothing of scenes or GameObjects. The engine
//! fills a frame description (camera, lights, draw lists, time) and hands it
//! over; the renderer turns that into passes.
//!
//! Where this layer stops: its dependency graph has no `bevy_ecs`,
//! `taos_core` or `taos_storage` (`.ci/layers` checks it). Data goes one way:
//! a [`FrameData`] in, passes and a submit out, nothing written back. Features
//! hand each other this frame's resources through the frame's typed
//! [slots](FrameSlots), not through fields that name one feature's type.

#![forbid(unsafe_code)]

mod context;
pub mod deform;
mod feature;
pub mod features;
pub mod frame;
pub mod graph;
pub mod particles;
pub mod presets;
mod renderer;
pub mod resources;
pub mod shaders;
pub mod timings;

pub use context::{
    ContextError, ContextOptions, GpuContext, HDR_OUTPUT_COLOR_SPACE, HDR_OUTPUT_FORMAT,
    HdrFallback, OffscreenTarget, OutputChoice, OutputColor, PendingReadback, ReadbackError,
    SurfaceError, SurfaceFrame, WindowSurface, choose_output_format, without_wayland_noise,
};

pub use feature::{FeatureSetup, Frame, RenderFeature};
pub use frame::{FrameData, FrameSlots};
pub use renderer::{FeatureMissing, RenderError, RenderStats, Renderer, ShaderReload};

/// Re-export of wgpu, whose types appear in this API.
pub use wgpu;
