//! [`DecalFeature`]: validates, orders and uploads the frame's decals,
//! and adds the passes of its [`DecalTarget`].

use super::draw::{DecalWarnings, draw_order};
use super::passes;
use super::pipelines::{BoxPipelines, DecalTarget, scene_layout};
use super::textures::{DecalTextures, TextureKey};
use super::uniforms::{DecalUniform, DecalUniforms};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::AmbientLight;
use crate::features::gpu_util::nearest_sampler;
use crate::features::lit::{LightBinding, LitGpu, TileParams};
use crate::frame::FrameData;
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// Projects the frame's [decals](crate::FrameData::decals) onto the opaque
/// surfaces drawn before it: into the G-buffer
/// ([`DecalTarget::GBuffer`]) or over the lit frame ([`DecalTarget::Lit`]).
/// The presets register it. Adds no pass in a frame without decals.
///
/// Each frame, unusable decals (see [`DecalDraw::check`](super::DecalDraw::check))
/// are skipped, logged once per kind of problem for the feature's life;
/// at most [`MAX_DECALS`](super::MAX_DECALS) are drawn.
#[derive(Debug)]
pub struct DecalFeature {
    /// Ambient light on lit decals ([`DecalTarget::Lit`]; the deferred
    /// lighting lights G-buffer decals with the rest of the surface). The
    /// forward presets set it to theirs.
    pub ambient: AmbientLight,
    target: DecalTarget,
    warnings: DecalWarnings,
    /// This frame's decals, as indices into `FrameData::decals`, in draw order.
    order: Vec<usize>,
    gpu: Option<Gpu>,
}

/// One decal's draw: its texture group and whether its box is mirrored.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoxDraw {
    pub(crate) textures: TextureKey,
    pub(crate) mirrored: bool,
}

#[derive(Debug)]
pub(crate) struct Gpu {
    pub(crate) lit: LitGpu,
    pub(crate) textures: DecalTextures,
    pub(crate) uniforms: DecalUniforms,
    pub(crate) scene_layout: wgpu::BindGroupLayout,
    pub(crate) depth_sampler: wgpu::Sampler,
    pub(crate) boxes: BoxPipelines,
    /// The G-buffer target's full-screen fold of the layers.
    pub(crate) resolve: Option<passes::Resolve>,
    pub(crate) draws: Vec<BoxDraw>,
}

impl DecalFeature {
    /// Decals drawn into `target`, with the default ambient light.
    #[must_use]
    pub fn new(target: DecalTarget) -> Self {
        Self {
            ambient: AmbientLight::default(),
            target,
            warnings: DecalWarnings::default(),
            order: Vec::new(),
            gpu: None,
        }
    }

    /// What the decals are drawn into.
    #[must_use]
    pub fn target(&self) -> DecalTarget {
        self.target
    }

    /// How many decals the last frame drew.
    #[must_use]
    pub fn drawn(&self) -> usize {
        self.gpu.as_ref().map_or(0, |gpu| gpu.draws.len())
    }
}

impl RenderFeature for DecalFeature {
    fn name(&self) -> &'static str {
        "Decals"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let binding = LightBinding::for_device(device);
        let lit = LitGpu::new(setup.gpu, binding);
        let textures = DecalTextures::new(device);
        let scene_layout = scene_layout(device, self.target);
        let layout = lit.fullscreen_layout(device, textures.layout(), Some(&scene_layout));
        self.gpu = Some(Gpu {
            boxes: BoxPipelines::new(device, &layout, binding, self.target),
            resolve: (self.target == DecalTarget::GBuffer).then(|| passes::Resolve::new(device)),
            uniforms: DecalUniforms::new(device),
            depth_sampler: nearest_sampler(device, "decal depth"),
            draws: Vec::new(),
            lit,
            textures,
            scene_layout,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, assets: &Assets) {
        let Some(state) = &mut self.gpu else { return };
        state.draws.clear();
        let check = |decal: &super::DecalDraw| decal.check(assets);
        draw_order(&data.decals, check, &mut self.warnings, &mut self.order);
        if self.order.is_empty() {
            return;
        }
        let ambient = match self.target {
            DecalTarget::Lit => self.ambient,
            DecalTarget::GBuffer => AmbientLight::NONE,
        };
        state
            .lit
            .update_frame(data, gpu, ambient, TileParams::default());
        state.textures.start_frame();
        for &index in &self.order {
            let decal = &data.decals[index];
            let key = TextureKey::new(decal, assets);
            state.textures.prepare(gpu.device(), assets, decal, key);
            state.draws.push(BoxDraw {
                textures: key,
                mirrored: decal.world.matrix3.determinant() < 0.0,
            });
        }
        state.textures.drop_unused();
        let uniforms = self
            .order
            .iter()
            .map(|&index| DecalUniform::new(&data.decals[index]));
        state.uniforms.upload(gpu, uniforms);
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        if gpu.draws.is_empty() {
            return;
        }
        match self.target {
            DecalTarget::Lit => passes::add_lit_pass(gpu, frame),
            DecalTarget::GBuffer => passes::add_gbuffer_passes(gpu, frame),
        }
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        if let Some(gpu) = &self.gpu
            && !gpu.draws.is_empty()
        {
            // A draw per box, and the G-buffer target's full-screen fold.
            stats.draw_calls += (gpu.draws.len() + usize::from(gpu.resolve.is_some())) as u32;
        }
    }

    fn destroy(&mut self) {
        self.gpu = None;
    }
}
