//! How decal boxes are drawn: the shader modules, the layout of the scene
//! group (`@group(3)`: the decal's uniform, the depth, and for the
//! G-buffer target the old G-buffer), and the box pipelines.
//!
//! Boxes draw only their faces turned away from the camera, with no depth
//! test: every pixel whose view ray crosses the box runs once, with the
//! camera outside the box or inside it, and the fragment shader rejects the
//! surface points outside the box (rebuilt from the depth). A box whose far
//! faces lie beyond the camera's far plane is clipped there.

use crate::features::deferred::gbuffer_wgsl;
use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, fullscreen_vs_wgsl, sampler_entry, texture_entry, uniform_entry,
};
use crate::features::lit::{LightBinding, lighting_source};

/// What the decals draw into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecalTarget {
    /// The deferred G-buffer's albedo, normal and roughness, before the
    /// lighting (register after the
    /// [`GeometryFeature`](crate::features::GeometryFeature)).
    GBuffer,
    /// The lit HDR frame of the forward presets: each decal is lit by the
    /// sun and the ambient light and blended over it (register after the
    /// lit pass, before the post effects).
    Lit,
}

/// Formats of the three layers G-buffer decals blend into: albedo and
/// coverage; normal and coverage; roughness and coverage.
pub(crate) const LAYER_FORMATS: [wgpu::TextureFormat; 3] = [
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::Rg16Float,
];

/// The shared decal WGSL.
fn decal_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("decal.wgsl")
}

/// The box shader of `target`: lighting code, (G-buffer packing,) the
/// shared decal code, then the target's fragment stage.
pub(crate) fn box_source(binding: LightBinding, target: DecalTarget) -> String {
    match target {
        DecalTarget::Lit => lighting_source(
            binding,
            &format!("{}{}", decal_wgsl(), crate::wgsl!("decal_lit.wgsl")),
        ),
        DecalTarget::GBuffer => lighting_source(
            binding,
            &format!(
                "{}{}{}",
                gbuffer_wgsl(),
                decal_wgsl(),
                crate::wgsl!("decal_gbuffer.wgsl")
            ),
        ),
    }
}

/// The full-screen pass folding the layers into a new G-buffer.
pub(crate) fn resolve_source() -> String {
    format!(
        "{}{}{}",
        fullscreen_vs_wgsl(),
        gbuffer_wgsl(),
        crate::wgsl!("decal_resolve.wgsl")
    )
}

/// Every decal shader module, for the device-free validation test.
pub(crate) fn shader_sources() -> Vec<(String, String)> {
    let mut sources = vec![("decals/decal_resolve.wgsl".to_owned(), resolve_source())];
    for binding in [LightBinding::Storage, LightBinding::Uniform] {
        for target in [DecalTarget::Lit, DecalTarget::GBuffer] {
            sources.push((
                format!("decals {target:?} ({binding:?} lights)"),
                box_source(binding, target),
            ));
        }
    }
    sources
}

/// The scene group's layout: the decal uniform (dynamic offset), the depth
/// and its sampler, and for [`DecalTarget::GBuffer`] the old G-buffer.
pub(crate) fn scene_layout(device: &wgpu::Device, target: DecalTarget) -> wgpu::BindGroupLayout {
    let mut entries = vec![
        uniform_entry(0, true, wgpu::ShaderStages::VERTEX_FRAGMENT),
        texture_entry(1, DEPTH_AS_FLOAT),
        sampler_entry(2, wgpu::SamplerBindingType::NonFiltering),
    ];
    if target == DecalTarget::GBuffer {
        entries.push(texture_entry(3, wgpu::TextureSampleType::Uint));
    }
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("decal scene"),
        entries: &entries,
    })
}

/// The box pipelines of one target: for boxes whose transform keeps the
/// winding and for mirrored ones.
#[derive(Debug)]
pub(crate) struct BoxPipelines {
    kept: wgpu::RenderPipeline,
    mirrored: wgpu::RenderPipeline,
}

impl BoxPipelines {
    pub(crate) fn new(
        device: &wgpu::Device,
        layout: &wgpu::PipelineLayout,
        binding: LightBinding,
        target: DecalTarget,
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("decal.wgsl"),
            source: wgpu::ShaderSource::Wgsl(box_source(binding, target).into()),
        });
        let blend = Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING);
        let color = |format| {
            Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })
        };
        let (entry, targets) = match target {
            DecalTarget::Lit => ("fs_lit", vec![color(crate::frame::HDR_FORMAT)]),
            DecalTarget::GBuffer => ("fs_gbuffer", LAYER_FORMATS.map(color).to_vec()),
        };
        let pipeline = |label, cull_mode| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    targets: &targets,
                }),
                primitive: wgpu::PrimitiveState {
                    cull_mode: Some(cull_mode),
                    ..Default::default()
                },
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        Self {
            // The far faces: cull the near (front) ones.
            kept: pipeline("decal boxes", wgpu::Face::Front),
            mirrored: pipeline("decal boxes (mirrored)", wgpu::Face::Back),
        }
    }

    /// The pipeline for a box whose transform mirrors it or not.
    pub(crate) fn for_box(&self, mirrored: bool) -> &wgpu::RenderPipeline {
        if mirrored { &self.mirrored } else { &self.kept }
    }
}
