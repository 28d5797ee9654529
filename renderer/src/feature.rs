//! Render features: self-contained units of rendering work, chained through a
//! [`Frame`].
//!
//! Each frame the [`Renderer`](crate::Renderer) calls, over every feature
//! that is on ([`Renderer::set_enabled`](crate::Renderer::set_enabled)) in
//! registration order: [`early_update`](RenderFeature::early_update)
//! (mutate the camera or shared state before anyone samples it), then
//! [`update`](RenderFeature::update) (upload per-frame uniforms), then, on a
//! fresh graph, [`add_passes`](RenderFeature::add_passes). A feature reads the
//! frame's current [`hdr`](Frame::hdr) handle, declares its pass, and puts the
//! new version back, so the next feature picks it up. After the submit,
//! [`after_frame`](RenderFeature::after_frame) lets it report what it counted.

use crate::frame::{FrameData, FrameSlots};
use crate::graph::{RenderGraph, TextureHandle};
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// What a feature gets once, when it is added.
#[derive(Debug, Clone, Copy)]
pub struct FeatureSetup<'a> {
    /// The GPU.
    pub gpu: &'a GpuContext,
    /// Format of the final output (the surface or the read-back target).
    pub output_format: wgpu::TextureFormat,
}

/// The frame being built: the engine's data, the live graph, and the handles
/// features chain through.
pub struct Frame<'a> {
    /// Camera, lights, buckets, time, size.
    pub data: &'a FrameData,
    /// The GPU.
    pub gpu: &'a GpuContext,
    /// Meshes, materials, textures.
    pub assets: &'a Assets,
    /// This frame's render graph.
    pub graph: RenderGraph<'a>,
    /// The final output (imported).
    pub output: TextureHandle,
    /// The current HDR colour target; each feature that draws into it puts
    /// the new version back.
    pub hdr: Option<TextureHandle>,
    /// The scene depth buffer, once a pass has written it.
    pub depth: Option<TextureHandle>,
    /// Graph handles features hand each other this frame, one per type (the
    /// shadow feature's [`ShadowMap`](crate::features::ShadowMap), the
    /// deferred [`GBuffer`](crate::features::GBuffer)),
    /// emptied before every frame: see [`FrameSlots`].
    pub slots: &'a mut FrameSlots,
}

/// One unit of rendering work (sky, shadows, lit geometry, tonemapping...).
pub trait RenderFeature: std::any::Any + Send {
    /// A name for dumps, timings and errors.
    fn name(&self) -> &'static str;

    /// Called once when the feature is added: build pipelines, persistent buffers.
    fn setup(&mut self, _setup: FeatureSetup<'_>) {}

    /// Called every frame before any `update`. Changes to `data.camera`
    /// hold for this frame only (TAA's sub-pixel jitter): the renderer
    /// gives the caller its camera back after the frame.
    fn early_update(&mut self, _data: &mut FrameData) {}

    /// Called every frame after bucketing: upload this frame's uniforms.
    fn update(&mut self, _data: &FrameData, _gpu: &GpuContext, _assets: &Assets) {}

    /// Declares this frame's passes on `frame.graph`.
    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>);

    /// Called after the frame's graph was submitted: map read-backs, and
    /// add what this feature counted to the frame's `stats` (lights, draw
    /// calls, overflowing light tiles).
    fn after_frame(&mut self, _gpu: &GpuContext, _stats: &mut RenderStats) {}

    /// Called once when the renderer lets the feature go (dropped, or
    /// [`clear_features`](crate::Renderer::clear_features), as
    /// `Engine::set_preset` does): release long-lived GPU objects.
    fn destroy(&mut self) {}
}
