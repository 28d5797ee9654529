//! [`Renderer`]: features, the per-frame graph, compile and execute.

mod features;
mod output;
mod shader_reload;

pub use features::FeatureMissing;
pub use shader_reload::ShaderReload;

use crate::GpuContext;
use crate::deform::{DeformStats, Deformer, MeshDeformations};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::{FrameData, FrameSlots};
use crate::graph::{
    CompileError, ExecuteError, GraphCompiler, GraphOverview, ImportedTexture, RenderGraph,
    ResourcePool,
};
use crate::resources::Assets;
use crate::timings::{FrameProfiler, FrameTimings, GpuTimings};
use features::FeatureList;

/// Rendering a frame failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The features built an invalid graph.
    #[error("render graph: {0}")]
    Compile(#[from] CompileError),
    /// The graph could not run.
    #[error("render graph execution: {0}")]
    Execute(#[from] ExecuteError),
}

/// What one frame's graph looked like.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Passes that ran.
    pub passes: usize,
    /// Passes culled because nothing imported depended on them.
    pub culled: usize,
    /// Bytes of transient textures and buffers saved by aliasing.
    pub bytes_saved: u64,
    /// Point and spot lights the lit pass shaded from.
    pub lights: u32,
    /// Point and spot lights the lit pass could not take this frame (the
    /// forward pass's uniform fallback on backends without storage buffers);
    /// zero wherever storage buffers exist.
    pub lights_dropped: u32,
    /// Forward-plus screen tiles whose light list overflowed (those tiles
    /// shade only the first lights of their list). Read back from the GPU
    /// without a stall: the figure is that of a frame one or two frames
    /// earlier.
    pub light_tiles_overflowed: u32,
    /// Draw calls of the lit passes (instanced batches; depth pre-passes
    /// included).
    pub draw_calls: u32,
    /// Times the atmosphere sky rendered its transmittance and
    /// multiple-scattering tables this frame: 1 on the first frame and after
    /// its settings changed, else 0.
    pub transmittance_lut_renders: u32,
    /// Times the atmosphere sky rendered its sky-view table this frame: 1 on
    /// the first frame and when the sun's elevation (or the settings)
    /// changed, else 0.
    pub sky_view_lut_renders: u32,
    /// Living particles ([`ParticleFeature::alive`](crate::particles::ParticleFeature::alive):
    /// on the GPU path, as read back a frame or two earlier).
    pub particles: u32,
    /// Particle emitters the renderer keeps particles for.
    pub particle_emitters: u32,
}

/// Owns the GPU context, the assets and the registered features, and renders
/// a [`FrameData`] into an output texture through a fresh render graph.
pub struct Renderer {
    /// First, so that the features are destroyed before the GPU goes.
    features: FeatureList,
    gpu: GpuContext,
    assets: Assets,
    compiler: GraphCompiler,
    pool: ResourcePool,
    output_format: wgpu::TextureFormat,
    /// The HDR format the output could take instead, or why there is none
    /// (see [`Renderer::offer_hdr_output`]).
    hdr_offer: Result<wgpu::TextureFormat, crate::HdrFallback>,
    /// The graph-side slots lent to each frame's [`Frame::slots`].
    graph_slots: FrameSlots,
    /// CPU and GPU timings, and the last frame's graph.
    profiler: FrameProfiler,
    deformer: Deformer,
    /// The WGSL texts features are set up from (hot reload).
    shaders: crate::shaders::ShaderLibrary,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.features.states().collect();
        f.debug_struct("Renderer")
            .field("features", &names)
            .field("output_format", &self.output_format)
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// A renderer with no features, drawing into outputs of `output_format`.
    #[must_use]
    pub fn new(gpu: GpuContext, output_format: wgpu::TextureFormat) -> Self {
        Self {
            profiler: FrameProfiler::new(&gpu),
            gpu,
            assets: Assets::new(),
            features: FeatureList::default(),
            compiler: GraphCompiler::new(),
            pool: ResourcePool::new(),
            hdr_offer: output::own_hdr_offer(output_format),
            output_format,
            graph_slots: FrameSlots::default(),
            deformer: Deformer::default(),
            shaders: crate::shaders::ShaderLibrary::default(),
        }
    }

    /// Poses this frame's skinned and morphing instances (see
    /// [`deform`](crate::deform)): places their culling bounds around the
    /// pose, uploads every joint matrix and morph weight once, and deforms
    /// each instance's vertices (one compute dispatch per pool of instances
    /// of one mesh, or on the CPU where the backend has no compute). Call it before bucketing the
    /// frame's draws, so culling sees the posed bounds; an instance not
    /// posed keeps its last pose. While TAA is on, each instance's previous
    /// pose is kept too (one GPU copy per pool of instances), for motion
    /// vectors.
    pub fn deform(&mut self, deformations: &MeshDeformations) -> DeformStats {
        // Only TAA's motion vectors read the previous frame's vertices.
        let keep_previous = self
            .features
            .is_enabled::<crate::features::TaaFeature>()
            .unwrap_or(false);
        self.deformer
            .run(&self.gpu, &mut self.assets, deformations, keep_previous)
    }

    /// Deforms every instance on the CPU even where compute shaders exist
    /// (`false`, the default: each mesh's own path). For comparing the two
    /// paths; the CPU path is what WebGL2 runs.
    pub fn set_deform_on_cpu(&mut self, on_cpu: bool) {
        self.deformer.force_cpu = on_cpu;
    }

    /// Adds a feature at the end of the chain and runs its `setup`.
    pub fn add_feature(&mut self, mut feature: impl RenderFeature + 'static) -> &mut Self {
        let setup = FeatureSetup {
            gpu: &self.gpu,
            output_format: self.output_format,
        };
        let ((), shaders) = self.shaders.lend(|| feature.setup(setup));
        self.features.push(Box::new(feature), shaders);
        self
    }

    /// Destroys every feature (its `destroy` runs; its GPU objects and
    /// history go with it) so that a preset can register a new set:
    /// switching presets at run time. Assets, the output format, the
    /// transient-resource pool and the profiler stay; the next frame builds
    /// its graph from the new features alone. To switch one effect, prefer
    /// [`set_enabled`](Self::set_enabled): it keeps everything built.
    pub fn clear_features(&mut self) {
        self.features.clear();
        self.graph_slots.clear();
    }

    /// Switches the first registered feature of type `T` off (`false`) or
    /// back on, between frames, without removing it. A feature that is off
    /// gets no `early_update`, `update`, `add_passes` or `after_frame`: the
    /// frame's HDR handle passes it by unchanged and the slots it would
    /// fill stay empty (features that read them do without: no shadows
    /// without [`ShadowFeature`](crate::features::ShadowFeature), no ambient
    /// occlusion without [`AoFeature`](crate::features::AoFeature)). It
    /// keeps its pipelines, buffers and settings, so switching it back on
    /// compiles nothing; history that went stale meanwhile (TAA's) starts
    /// over. Every feature is on when added.
    ///
    /// ```no_run
    /// # use taos_renderer::{GpuContext, Renderer, wgpu};
    /// # use taos_renderer::features::BloomFeature;
    /// # use taos_renderer::presets::{PresetOptions, forward_preset};
    /// # let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    /// # let mut renderer = Renderer::new(GpuContext::headless()?, format);
    /// forward_preset(PresetOptions {
    ///     bloom: Some(Default::default()),
    ///     ..PresetOptions::default()
    /// })(&mut renderer);
    /// renderer.set_enabled::<BloomFeature>(false)?;
    /// assert_eq!(renderer.feature_enabled::<BloomFeature>(), Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`FeatureMissing`] when no feature of type `T` is registered.
    pub fn set_enabled<T: RenderFeature>(&mut self, enabled: bool) -> Result<(), FeatureMissing> {
        self.features.set_enabled::<T>(enabled)
    }

    /// Whether the first registered feature of type `T` is on; `None` when
    /// there is none.
    #[must_use]
    pub fn feature_enabled<T: RenderFeature>(&self) -> Option<bool> {
        self.features.is_enabled::<T>()
    }

    /// The first registered feature of type `T`, to read its state
    /// (`renderer.feature::<SkyFeature>()`), on or off.
    #[must_use]
    pub fn feature<T: RenderFeature>(&self) -> Option<&T> {
        self.features.get::<T>()
    }

    /// The first registered feature of type `T`, on or off, to change its
    /// settings between frames (see each feature for which settings take
    /// effect at the next frame).
    pub fn feature_mut<T: RenderFeature>(&mut self) -> Option<&mut T> {
        self.features.get_mut::<T>()
    }

    /// Names of the registered features, in order, on or off.
    pub fn feature_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.features.states().map(|(name, _)| name)
    }

    /// Each registered feature's name and whether it is on, in order.
    pub fn feature_states(&self) -> impl Iterator<Item = (&'static str, bool)> + '_ {
        self.features.states()
    }

    /// The GPU context.
    #[must_use]
    pub fn gpu(&self) -> &GpuContext {
        &self.gpu
    }

    /// Meshes, materials and textures.
    #[must_use]
    pub fn assets(&self) -> &Assets {
        &self.assets
    }

    /// Meshes, materials and textures, mutable (and the GPU, to upload).
    pub fn assets_mut(&mut self) -> (&mut Assets, &GpuContext) {
        (&mut self.assets, &self.gpu)
    }

    /// Renders `data` into `output` (a surface texture or an offscreen
    /// target): `early_update` and `update` on every enabled feature, a fresh
    /// graph filled by their `add_passes`, compiled and executed in one submit.
    ///
    /// # Errors
    /// [`RenderError`] when the graph does not compile or cannot run.
    pub fn render(
        &mut self,
        data: &mut FrameData,
        output: &wgpu::Texture,
    ) -> Result<RenderStats, RenderError> {
        self.render_with(data, output, &mut |_| {})
    }

    /// [`render`](Self::render), calling `before_render` with the live
    /// [`Frame`] after every feature's `add_passes` and before the graph is
    /// compiled: the place for a one-off pass (`frame.graph.add_pass(..)`)
    /// or a reassigned `frame.hdr`.
    ///
    /// # Errors
    /// As [`render`](Self::render).
    pub fn render_with(
        &mut self,
        data: &mut FrameData,
        output: &wgpu::Texture,
        before_render: &mut dyn FnMut(&mut Frame<'_>),
    ) -> Result<RenderStats, RenderError> {
        self.with_compiled_graph(
            data,
            output,
            before_render,
            |graph, compiled, gpu, pool, profiler| {
                let stats = RenderStats {
                    passes: compiled.order().len(),
                    culled: compiled.culled().len(),
                    bytes_saved: compiled.bytes_saved(),
                    ..RenderStats::default()
                };
                let (device, queue) = (gpu.device(), gpu.queue());
                let (timer, cpu_passes) = profiler.start_record(device, &graph, compiled);
                graph.execute_timed(compiled, device, queue, pool, timer, Some(cpu_passes))?;
                profiler.end_record();
                Ok(stats)
            },
        )?
        .map(|mut stats| {
            for feature in self.features.enabled_mut() {
                feature.after_frame(&self.gpu, &mut stats);
            }
            stats
        })
    }

    /// Builds and compiles the frame's graph like [`render`](Self::render),
    /// without executing it, and returns it as a Mermaid flowchart (or
    /// Graphviz DOT with `dot = true`): what the features would run, in order,
    /// with culled passes and aliased resources marked.
    ///
    /// # Errors
    /// [`RenderError::Compile`] when the graph does not compile.
    pub fn dump_graph(
        &mut self,
        data: &mut FrameData,
        output: &wgpu::Texture,
        dot: bool,
    ) -> Result<String, RenderError> {
        self.with_compiled_graph(data, output, &mut |_| {}, |graph, compiled, _, _, _| {
            if dot {
                compiled.to_dot(&graph)
            } else {
                compiled.to_mermaid(&graph)
            }
        })
    }

    /// What the last rendered frame cost: CPU time to build, compile and
    /// record its graph, and GPU time per pass of the latest frame whose
    /// timestamps were read back (see [`timings`](crate::timings)).
    /// All zero before the first frame.
    ///
    /// ```no_run
    /// # use taos_renderer::{FrameData, GpuContext, OffscreenTarget, Renderer, wgpu};
    /// # let gpu = GpuContext::headless()?;
    /// # let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    /// # let target = OffscreenTarget::new(&gpu, 64, 64, format)?;
    /// # let mut renderer = Renderer::new(gpu, format);
    /// # let mut data = FrameData::default();
    /// renderer.render(&mut data, target.texture())?;
    /// let timings = renderer.last_timings();
    /// println!("compile: {:?}", timings.cpu_compile);
    /// if let Some(gpu) = &timings.gpu {
    ///     println!("GPU, frame {}: {:?}", gpu.frame, gpu.total);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn last_timings(&self) -> &FrameTimings {
        self.profiler.last()
    }

    /// The last rendered frame's compiled graph as plain data: passes in
    /// registration order with their execution position (or culled),
    /// resources (imported or transient, size, aliased), versions and edges.
    /// Empty before the first frame.
    #[must_use]
    pub fn last_graph(&self) -> &GraphOverview {
        self.profiler.overview()
    }

    /// Times passes on the GPU (`true`, the default) or not. Has no effect
    /// on a device without timestamp queries; turning it off drops the
    /// GPU figures.
    pub fn set_gpu_timings(&mut self, enabled: bool) {
        self.profiler.set_gpu_enabled(enabled);
    }

    /// Whether passes are timed on the GPU: the device has timestamp
    /// queries and [`set_gpu_timings`](Self::set_gpu_timings) did not turn
    /// them off.
    #[must_use]
    pub fn gpu_timings_enabled(&self) -> bool {
        self.profiler.gpu_enabled()
    }

    /// Reads GPU timings whose read-back landed since the last frame
    /// (polling the device without waiting) and returns the latest
    /// (`last_timings().gpu`). Rendering does this by itself; call it to
    /// see the last frame's figures without rendering another (after
    /// waiting for the device in a benchmark or test).
    pub fn collect_gpu_timings(&mut self) -> Option<&GpuTimings> {
        self.profiler.collect(self.gpu.device())
    }

    fn with_compiled_graph<R>(
        &mut self,
        data: &mut FrameData,
        output: &wgpu::Texture,
        before_render: &mut dyn FnMut(&mut Frame<'_>),
        finish: impl FnOnce(
            RenderGraph<'_>,
            &crate::graph::CompiledGraph,
            &GpuContext,
            &mut ResourcePool,
            &mut FrameProfiler,
        ) -> R,
    ) -> Result<R, RenderError> {
        // Features may change the camera for this frame only (TAA's jitter):
        // the caller gets its own back once the frame's borrows end.
        let camera = data.camera;
        let result = 'frame: {
            let Self {
                gpu,
                assets,
                features,
                compiler,
                pool,
                graph_slots,
                profiler,
                ..
            } = self;
            profiler.start_build();
            data.slots.clear();
            graph_slots.clear();
            for feature in features.enabled_mut() {
                feature.early_update(data);
            }
            for feature in features.enabled_mut() {
                feature.update(data, gpu, assets);
            }
            let mut graph = pool.new_graph();
            let output = graph.import_texture("output", ImportedTexture::new(output.clone()));
            let mut frame = Frame {
                data,
                gpu,
                assets,
                graph,
                output,
                hdr: None,
                depth: None,
                slots: graph_slots,
            };
            for feature in features.enabled() {
                feature.add_passes(&mut frame);
            }
            before_render(&mut frame);
            let graph = frame.graph;
            profiler.end_build();
            let compiled = match compiler.compile(&graph) {
                Ok(compiled) => compiled,
                Err(error) => break 'frame Err(error.into()),
            };
            profiler.end_compile();
            Ok(finish(graph, compiled, gpu, pool, profiler))
        };
        data.camera = camera;
        result
    }
}
