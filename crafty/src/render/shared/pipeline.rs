//! Building crafty's pipelines: [`PassSetup`], what every pass is built
//! from, and [`pipeline`], the one render pipeline builder for the passes
//! that draw into the HDR target.

use taos_engine::renderer::features::{DEPTH_FORMAT, HDR_FORMAT};
use taos_engine::renderer::wgpu;

use super::CraftyShader;
use crate::mesh::PackedQuad;

/// What every pass is built from: the device, the layouts of the bind
/// groups passes share, and the atlas constants the quad shaders include.
pub(crate) struct PassSetup<'a> {
    pub(crate) device: &'a wgpu::Device,
    /// Group 0 of every pipeline: the frame uniform, atlas and
    /// precipitation map.
    pub(crate) frame_layout: &'a wgpu::BindGroupLayout,
    /// Group 1 of the pipelines that draw chunk quads: the chunk origin.
    pub(crate) chunk_layout: &'a wgpu::BindGroupLayout,
    /// [`AtlasTexture::shader_constants`](crate::render::atlas_texture::AtlasTexture::shader_constants).
    pub(crate) atlas_constants: &'a str,
}

impl PassSetup<'_> {
    /// Compiles `shader`.
    pub(crate) fn module(&self, shader: CraftyShader) -> wgpu::ShaderModule {
        shader.module(self.device, self.atlas_constants)
    }

    /// A pipeline layout of these bind group layouts, in group order.
    pub(crate) fn layout(
        &self,
        label: &str,
        groups: &[&wgpu::BindGroupLayout],
    ) -> wgpu::PipelineLayout {
        let groups: Vec<_> = groups.iter().copied().map(Some).collect();
        self.device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &groups,
                immediate_size: 0,
            })
    }
}

/// The usage of the frame's render targets (HDR, depth, godray mask):
/// drawn into, then sampled by a later pass.
pub(crate) const TARGET_USAGE: wgpu::TextureUsages =
    wgpu::TextureUsages::RENDER_ATTACHMENT.union(wgpu::TextureUsages::TEXTURE_BINDING);

/// How one of crafty's pipelines (all into the HDR target) differs from the
/// others.
pub(crate) struct PipelineSpec<'a> {
    pub(crate) label: &'a str,
    pub(crate) module: &'a wgpu::ShaderModule,
    pub(crate) layout: &'a wgpu::PipelineLayout,
    pub(crate) fragment: &'a str,
    pub(crate) instanced_quads: bool,
    pub(crate) topology: wgpu::PrimitiveTopology,
    pub(crate) blend: Option<wgpu::BlendState>,
    /// Depth write and compare; `None` for no depth at all.
    pub(crate) depth: Option<(bool, wgpu::CompareFunction)>,
}

/// The vertex buffer of the pipelines that draw chunk quads: one
/// [`PackedQuad`] per instance.
pub(crate) fn quad_instances() -> wgpu::VertexBufferLayout<'static> {
    const QUAD_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Uint32x2];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<PackedQuad>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &QUAD_ATTRIBUTES,
    }
}

pub(crate) fn pipeline(device: &wgpu::Device, spec: &PipelineSpec<'_>) -> wgpu::RenderPipeline {
    let buffers = if spec.instanced_quads {
        vec![Some(quad_instances())]
    } else {
        Vec::new()
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: Some(spec.layout),
        vertex: wgpu::VertexState {
            module: spec.module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &buffers,
        },
        fragment: Some(wgpu::FragmentState {
            module: spec.module,
            entry_point: Some(spec.fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: spec.blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            topology: spec.topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: spec.instanced_quads.then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: spec.depth.map(|(write, compare)| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}
