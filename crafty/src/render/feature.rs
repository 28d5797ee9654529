//! [`CraftyPipelineFeature`]: crafty's whole frame as one render feature,
//! composed of the [passes](super::passes): it copies the game's settings
//! out of the handle once per frame, updates the shared frame uniform and
//! every pass from them, and adds the passes (and the extra stages) to the
//! frame in order.

use std::collections::HashMap;
use taos_engine::renderer::wgpu;

use taos_engine::particles::ParticleFeature;
use taos_engine::renderer::features::TonemapFeature;
use taos_engine::renderer::resources::Assets;
use taos_engine::renderer::{
    FeatureSetup, Frame, FrameData, GpuContext, RenderFeature, RenderStats,
};

use super::atlas_texture::AtlasTexture;
use super::chunks::{ChunkKey, ChunkStore};
use super::handle::FarChanges;
use super::handle::{CraftyRenderHandle, CraftyRenderStats};
use super::passes::{
    AvatarPass, ChunkDraws, ChunkScene, ChunkShading, GodrayPasses, HighlightPass,
    OpaqueChunksPass, SkyPass, SunShadows, TransparentChunksPass, WeatherPass,
};
use super::shared::{FrameBindings, FrameInputs, FrameUniform, PassSetup};
use super::weather::PrecipitationTexture;
use crate::mesh::ChunkMesh;
use crate::world::ChunkPos;

/// Where an extra stage's passes go in crafty's frame.
///
/// The built-in passes run in this order, each chaining the frame's `hdr`
/// handle (the shadow cascades come first, but draw no HDR): sky,
/// **`AfterSky`**, opaque chunks (which create `frame.depth`), other
/// players' figures, **`AfterOpaque`**, transparent chunks, weather particles,
/// particle emitters (debris, splashes), **`AfterTransparent`**, block highlight, godrays, **`BeforeTonemap`**,
/// tonemap into `frame.output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StagePoint {
    /// Behind all geometry, no depth yet (distant sky layers: aurora, far
    /// clouds).
    AfterSky,
    /// After opaque blocks, with `frame.depth` holding the scene depth
    /// (volumetric clouds, which blocks hide).
    AfterOpaque,
    /// After water, glass and the falling rain or snow.
    AfterTransparent,
    /// The last HDR work before tonemapping, after the built-in godrays
    /// (bloom, screen-space effects).
    BeforeTonemap,
}

/// Crafty's pipeline in one [`RenderFeature`]: a gradient sky with sun, moon
/// and stars; chunk quads instanced from
/// [`PackedQuad`](crate::mesh::PackedQuad)s, textured from the
/// procedural [atlas](super::block_atlas), lit by the sun or moon with
/// per-corner ambient occlusion and distance fog; water, glass and leaves
/// blended back to front by chunk; rain or snow
/// ([`set_weather`](CraftyRenderHandle::set_weather)); the scene's
/// particle emitters (the engine's [`ParticleFeature`], built in: debris,
/// splashes); the targeted block outlined; and the renderer's
/// [`TonemapFeature`] into the output.
///
/// Add it alone to a [`Renderer`](taos_engine::renderer::Renderer) (no preset), and
/// drive it through the [`CraftyRenderHandle`] that
/// [`new`](Self::new) returns. The sky and its light are the game's
/// ([`set_sky`](CraftyRenderHandle::set_sky)); stages see the direct light as
/// `FrameData::lights.sun`, which the game fills from the same moment.
///
/// # Extending
/// A game's own effects slot in as extra stages
/// ([`with_stage`](Self::with_stage)): ordinary [`RenderFeature`]s run at a
/// [`StagePoint`], whose `setup`, `early_update`, `update` and `destroy` the
/// pipeline forwards, and whose `add_passes` see the same [`Frame`]: read
/// `frame.hdr` (and `frame.depth` from `AfterOpaque` on), declare a pass,
/// put the new `hdr` version back.
pub struct CraftyPipelineFeature {
    handle: CraftyRenderHandle,
    tonemap: TonemapFeature,
    /// The scene's particle emitters (`FrameData::particles`), drawn after
    /// the falling weather.
    particles: ParticleFeature,
    stages: Vec<(StagePoint, Box<dyn RenderFeature>)>,
    gpu: Option<Passes>,
    /// Swapped with the handle's pending map each frame, so neither side
    /// reallocates.
    incoming: HashMap<ChunkPos, Option<ChunkMesh>>,
}

impl std::fmt::Debug for CraftyPipelineFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stages: Vec<_> = self
            .stages
            .iter()
            .map(|(at, stage)| (*at, stage.name()))
            .collect();
        f.debug_struct("CraftyPipelineFeature")
            .field("stages", &stages)
            .field("tonemap", &self.tonemap)
            .field("ready", &self.gpu.is_some())
            .finish_non_exhaustive()
    }
}

impl CraftyPipelineFeature {
    /// The pipeline (ACES tonemapping at exposure 1) and the handle the game
    /// keeps to feed it.
    #[must_use]
    pub fn new() -> (Self, CraftyRenderHandle) {
        let handle = CraftyRenderHandle::new();
        let feature = Self {
            handle: handle.clone(),
            tonemap: TonemapFeature::new(1.0, true),
            particles: ParticleFeature::default(),
            stages: Vec::new(),
            gpu: None,
            incoming: HashMap::new(),
        };
        (feature, handle)
    }

    /// Adds an extra stage at `at`, after any stage already there. Add
    /// stages before the feature goes into the renderer (that is when their
    /// `setup` runs).
    #[must_use]
    pub fn with_stage(mut self, at: StagePoint, stage: impl RenderFeature + 'static) -> Self {
        self.stages.push((at, Box::new(stage)));
        self
    }

    /// Another handle to this pipeline.
    #[must_use]
    pub fn handle(&self) -> CraftyRenderHandle {
        self.handle.clone()
    }

    /// The inner tonemapper (exposure, curve).
    pub fn tonemap_mut(&mut self) -> &mut TonemapFeature {
        &mut self.tonemap
    }

    fn add_stage_passes<'a>(&'a self, at: StagePoint, frame: &mut Frame<'a>) {
        for (_, stage) in self.stages.iter().filter(|(point, _)| *point == at) {
            stage.add_passes(frame);
        }
    }
}

impl Default for CraftyPipelineFeature {
    fn default() -> Self {
        Self::new().0
    }
}

/// Everything on the GPU: the frame's bindings, the chunks, and the passes.
#[derive(Debug)]
struct Passes {
    frame: FrameBindings,
    precipitation: PrecipitationTexture,
    chunks: ChunkStore,
    draws: ChunkDraws,
    /// World chunk columns far terrain covers (not drawn).
    hidden: std::collections::HashSet<glam::IVec2>,
    shadows: SunShadows,
    sky: SkyPass,
    opaque: OpaqueChunksPass,
    transparent: TransparentChunksPass,
    weather: WeatherPass,
    highlight: HighlightPass,
    avatars: AvatarPass,
    godrays: GodrayPasses,
    _atlas: AtlasTexture,
}

impl Passes {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let atlas = AtlasTexture::new(device, queue);
        let precipitation = PrecipitationTexture::new(device);
        let frame = FrameBindings::new(device, &atlas, &precipitation);
        let chunks = ChunkStore::new(device);
        let atlas_constants = atlas.shader_constants();
        let setup = PassSetup {
            device,
            frame_layout: &frame.layout,
            chunk_layout: chunks.layout(),
            atlas_constants: &atlas_constants,
        };
        let shadows = SunShadows::new(&setup);
        let shading = ChunkShading::new(&setup, &shadows.receiver_layout);
        Self {
            sky: SkyPass::new(&setup),
            opaque: OpaqueChunksPass::new(device, &shading),
            transparent: TransparentChunksPass::new(device, &shading),
            weather: WeatherPass::new(&setup),
            highlight: HighlightPass::new(&setup),
            avatars: AvatarPass::new(&setup),
            godrays: GodrayPasses::new(&setup),
            shadows,
            draws: ChunkDraws::default(),
            hidden: std::collections::HashSet::new(),
            frame,
            precipitation,
            chunks,
            _atlas: atlas,
        }
    }

    /// Uploads the frame's new chunks and precipitation map, then updates
    /// the frame uniform and every pass from `inputs`; returns the frame's
    /// stats.
    fn update(
        &mut self,
        gpu: &GpuContext,
        data: &FrameData,
        inputs: FrameInputs,
        incoming: &mut HashMap<ChunkPos, Option<ChunkMesh>>,
        far: FarChanges,
        precipitation: Option<(glam::IVec2, Vec<u8>)>,
    ) -> CraftyRenderStats {
        let (device, queue) = (gpu.device(), gpu.queue());
        if let Some((origin, texels)) = precipitation {
            self.precipitation.upload(queue, origin, &texels);
        }
        self.chunks.advance_fades(queue);
        for (pos, mesh) in incoming.drain() {
            let key = ChunkKey::Chunk(pos);
            match mesh {
                Some(mesh) => self.chunks.set(device, queue, key, &mesh, false),
                None => self.chunks.remove(key),
            }
        }
        for ((tile, section), change) in far.sections {
            let key = ChunkKey::Far(tile, section);
            match change {
                Some((mesh, fade)) => self.chunks.set(device, queue, key, &mesh, fade),
                None => self.chunks.remove(key),
            }
        }
        if let Some(hidden) = far.hidden {
            self.hidden = hidden;
        }
        let inputs = FrameInputs {
            precipitation_origin: self.precipitation.origin,
            ..inputs
        };
        self.shadows
            .update(device, queue, &data.camera, &inputs, &self.chunks);
        self.godrays.update(queue, data, &inputs);
        self.frame.write(queue, &FrameUniform::new(data, &inputs));
        self.highlight.update(&inputs);
        self.avatars.update(&inputs);
        let weather_particles = self.weather.update(&inputs);
        CraftyRenderStats {
            weather_particles,
            shadow_draws: self.shadows.caster_draws(),
            godrays: self.godrays.active(),
            far_sections: self
                .chunks
                .iter()
                .filter(|(_, c)| matches!(c.key, ChunkKey::Far(..)))
                .count(),
            buffer_bytes: self.chunks.buffer_bytes(),
            ..self.draws.update(&self.chunks, &data.camera, &self.hidden)
        }
    }

    /// What the lit chunk passes draw from, with the shadow atlas the
    /// shadow pass hands them.
    fn chunk_scene(
        &self,
        shadow_atlas: Option<taos_engine::renderer::graph::TextureHandle>,
    ) -> ChunkScene<'_> {
        ChunkScene {
            frame: &self.frame,
            chunks: &self.chunks,
            draws: &self.draws,
            receiver: &self.shadows.receiver_group,
            shadow_atlas,
        }
    }
}

impl RenderFeature for CraftyPipelineFeature {
    fn name(&self) -> &'static str {
        "CraftyPipeline"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let gpu = setup.gpu;
        self.gpu = Some(Passes::new(gpu.device(), gpu.queue()));
        self.tonemap.setup(setup);
        self.particles.setup(setup);
        for (_, stage) in &mut self.stages {
            stage.setup(setup);
        }
    }

    fn early_update(&mut self, data: &mut FrameData) {
        for (_, stage) in &mut self.stages {
            stage.early_update(data);
        }
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        let (inputs, precipitation, far) = {
            let mut shared = self.handle.lock();
            let far = std::mem::take(&mut shared.far);
            std::mem::swap(&mut shared.pending, &mut self.incoming);
            let inputs = FrameInputs {
                light: shared.sky,
                fog: shared.fog,
                highlight: shared.highlight,
                weather: shared.weather,
                precipitation_origin: None,
                underwater: shared.underwater,
                clouds: shared.clouds,
                shadows: shared.shadows,
                godrays: shared.godrays,
                avatars: shared.avatars,
            };
            (inputs, shared.precipitation.take(), far)
        };
        let stats = gpu.update(
            gpu_ctx,
            data,
            inputs,
            &mut self.incoming,
            far,
            precipitation,
        );
        self.particles.update(data, gpu_ctx, assets);
        self.handle.lock().stats = CraftyRenderStats {
            particles: self.particles.alive(),
            particle_emitters: self.particles.emitter_count(),
            ..stats
        };

        self.tonemap.update(data, gpu_ctx, assets);
        for (_, stage) in &mut self.stages {
            stage.update(data, gpu_ctx, assets);
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let shadow_atlas = gpu
            .shadows
            .add_pass(&mut frame.graph, &gpu.frame, &gpu.chunks);
        let scene = gpu.chunk_scene(shadow_atlas);
        gpu.sky.add_pass(frame, &gpu.frame);
        self.add_stage_passes(StagePoint::AfterSky, frame);
        gpu.opaque.add_pass(frame, scene);
        gpu.avatars.add_pass(frame, &gpu.frame);
        self.add_stage_passes(StagePoint::AfterOpaque, frame);
        gpu.transparent.add_pass(frame, scene);
        gpu.weather.add_pass(frame, &gpu.frame);
        self.particles.add_passes(frame);
        self.add_stage_passes(StagePoint::AfterTransparent, frame);
        gpu.highlight.add_pass(frame, &gpu.frame);
        gpu.godrays.add_passes(frame, &gpu.frame);
        self.add_stage_passes(StagePoint::BeforeTonemap, frame);
        self.tonemap.add_passes(frame);
    }

    fn after_frame(&mut self, gpu: &GpuContext, stats: &mut RenderStats) {
        self.particles.after_frame(gpu, stats);
        for (_, stage) in &mut self.stages {
            stage.after_frame(gpu, stats);
        }
    }

    fn destroy(&mut self) {
        self.tonemap.destroy();
        self.particles.destroy();
        for (_, stage) in &mut self.stages {
            stage.destroy();
        }
        self.gpu = None;
    }
}
