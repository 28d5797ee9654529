//! Multisample anti-aliasing for the forward lit passes: they draw into a
//! multisampled colour target (cleared to transparent) and depth buffer,
//! then two full-screen passes resolve them: the colour's samples averaged
//! and blended over the frame's HDR target (premultiplied, so the sky
//! drawn there before shows through partly covered pixels), and the depth's
//! nearest sample into the single-sampled depth later passes read (TAA,
//! depth of field, forward-plus light culling).

use crate::GpuContext;
use crate::feature::Frame;
use crate::features::gpu_util::fullscreen_vs_wgsl;
use crate::frame::{DEPTH_FORMAT, HDR_FORMAT};
use crate::graph::{TextureDesc, TextureHandle};

/// The sample counts MSAA may use, largest first.
const SAMPLE_COUNTS: [u32; 4] = [16, 8, 4, 2];

/// The largest sample count, at most `requested`, that the device can
/// render both the HDR target and the depth buffer with; 1 (MSAA off) when
/// `requested` is below 2 or nothing fits.
#[must_use]
pub fn supported_msaa_samples(gpu: &GpuContext, requested: u32) -> u32 {
    let adapter = gpu.adapter();
    let flags = |format| adapter.get_texture_format_features(format).flags;
    let (color, depth) = (flags(HDR_FORMAT), flags(DEPTH_FORMAT));
    SAMPLE_COUNTS
        .into_iter()
        .filter(|&count| count <= requested)
        .find(|&count| color.sample_count_supported(count) && depth.sample_count_supported(count))
        .unwrap_or(1)
}

/// The resolve pipelines of one sample count.
#[derive(Debug)]
pub(crate) struct MsaaResolve {
    /// Samples per pixel.
    samples: u32,
    color_layout: wgpu::BindGroupLayout,
    depth_layout: wgpu::BindGroupLayout,
    color: wgpu::RenderPipeline,
    depth: wgpu::RenderPipeline,
}

fn multisampled_entry(sample_type: wgpu::TextureSampleType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: true,
        },
        count: None,
    }
}

impl MsaaResolve {
    pub(crate) fn new(device: &wgpu::Device, samples: u32) -> Self {
        let layout = |label, sample_type| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries: &[multisampled_entry(sample_type)],
            })
        };
        let color_layout = layout(
            "msaa colour",
            wgpu::TextureSampleType::Float { filterable: false },
        );
        let depth_layout = layout("msaa depth", wgpu::TextureSampleType::Depth);
        let pipeline = |label, source: &str, layout, entry, color: bool| {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(
                    format!(
                        "{FULLSCREEN_VS_WGSL}{source}",
                        FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
                    )
                    .into(),
                ),
            });
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            });
            let premultiplied_over = wgpu::BlendState {
                color: wgpu::BlendComponent {
                    src_factor: wgpu::BlendFactor::One,
                    dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                    operation: wgpu::BlendOperation::Add,
                },
                alpha: wgpu::BlendComponent::OVER,
            };
            let targets = [Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: Some(premultiplied_over),
                write_mask: wgpu::ColorWrites::ALL,
            })];
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
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
                    targets: if color { &targets } else { &[] },
                }),
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: (!color).then_some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let color = pipeline(
            "msaa resolve colour",
            &crate::wgsl!("msaa.wgsl"),
            &color_layout,
            "fs_color",
            true,
        );
        let depth = pipeline(
            "msaa resolve depth",
            &crate::wgsl!("msaa_depth.wgsl"),
            &depth_layout,
            "fs_depth",
            false,
        );
        Self {
            samples,
            color_layout,
            depth_layout,
            color,
            depth,
        }
    }

    /// A multisampled transient target of `format`, frame-sized.
    pub(crate) fn target(
        &self,
        frame: &mut Frame<'_>,
        label: &'static str,
        format: wgpu::TextureFormat,
    ) -> TextureHandle {
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let mut desc = TextureDesc::new_2d(width, height, format, usage);
        desc.sample_count = self.samples;
        frame.graph.create_texture(label, desc)
    }

    /// Averages `color`'s samples over `hdr` (loaded with `load`); returns
    /// the new HDR version.
    pub(crate) fn resolve_color<'a>(
        &'a self,
        frame: &mut Frame<'a>,
        color: TextureHandle,
        (hdr, load): (TextureHandle, wgpu::LoadOp<wgpu::Color>),
    ) -> TextureHandle {
        frame.graph.add_render_pass("msaa resolve", |pass| {
            pass.read_texture(color);
            let hdr = pass.write_color(hdr, load);
            pass.execute(move |rp, res| {
                if let Some(view) = res.texture_view(color) {
                    let group = self.group(res.device(), &self.color_layout, view);
                    rp.set_pipeline(&self.color);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            hdr
        })
    }

    /// The nearest sample of `depth` per pixel, in a new single-sampled
    /// depth buffer (`label`) that can also be copied from.
    pub(crate) fn resolve_depth<'a>(
        &'a self,
        frame: &mut Frame<'a>,
        depth: TextureHandle,
        label: &'static str,
    ) -> TextureHandle {
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC;
        let resolved = frame.graph.create_texture(
            label,
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
        );
        frame.graph.add_render_pass("msaa resolve depth", |pass| {
            pass.read_texture(depth);
            let resolved = pass.write_depth(resolved, wgpu::LoadOp::Clear(0.0));
            pass.execute(move |rp, res| {
                if let Some(view) = res.texture_view(depth) {
                    let group = self.group(res.device(), &self.depth_layout, view);
                    rp.set_pipeline(&self.depth);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            resolved
        })
    }

    fn group(
        &self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        view: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("msaa resolve"),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(view),
            }],
        })
    }
}
