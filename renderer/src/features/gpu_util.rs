//! Small builders the shipped features share: bind-group layout entries,
//! uniform buffers and full-screen-triangle pipelines.

/// A uniform-buffer entry visible to `visibility`.
pub(crate) fn uniform_entry(
    binding: u32,
    dynamic: bool,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    }
}

/// How shaders that read depth texel by texel bind a depth texture: as
/// unfilterable floats (`texture_2d<f32>`, depth in `.r`), which WebGPU
/// allows for depth formats, sampled at texel centres with a
/// [`nearest_sampler`]. A `texture_depth_2d` with `textureLoad` would do on
/// every native backend, but WebGL2's shading language cannot fetch texels
/// of one (the pipeline does not build), and a depth texture read with no
/// sampler there takes the texture's own filtering, which leaves it
/// incomplete: every read gives 0.
pub(crate) const DEPTH_AS_FLOAT: wgpu::TextureSampleType =
    wgpu::TextureSampleType::Float { filterable: false };

/// A sampler without filtering (nearest texel, clamped): with it,
/// `textureSampleLevel` at a texel's centre reads exactly that texel.
pub(crate) fn nearest_sampler(device: &wgpu::Device, label: &str) -> wgpu::Sampler {
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some(label),
        ..Default::default()
    })
}

/// A 2D texture entry for the fragment stage.
pub(crate) fn texture_entry(
    binding: u32,
    sample_type: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// A filterable float cube-texture entry for the fragment stage.
pub(crate) fn cube_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::Cube,
            multisampled: false,
        },
        count: None,
    }
}

/// A sampler entry for the fragment stage.
pub(crate) fn sampler_entry(
    binding: u32,
    kind: wgpu::SamplerBindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Sampler(kind),
        count: None,
    }
}

/// A uniform buffer of `size` bytes that the queue writes.
pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, size: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The full-screen triangle's vertex shader (`vs_main`), for a source to
/// start with.
pub(crate) fn fullscreen_vs_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("fullscreen.wgsl")
}

/// A pipeline drawing one full-screen triangle (`vs_main`, `fs_main` in
/// `source`) into one `format` target, with one bind group `layout`.
pub(crate) fn fullscreen_pipeline(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    layout: &wgpu::BindGroupLayout,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    fullscreen_pipeline_with_groups(device, label, source, &[Some(layout)], format)
}

/// [`fullscreen_pipeline`] with several bind groups, `layouts[i]` at group `i`.
pub(crate) fn fullscreen_pipeline_with_groups(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    layouts: &[Option<&wgpu::BindGroupLayout>],
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: layouts,
        immediate_size: 0,
    });
    fullscreen_pipeline_with(device, label, source, &pipeline_layout, format, None)
}

/// A pipeline drawing one full-screen triangle (`vs_main`, `fs_main` in
/// `source`) into one `format` target with `blend`, under a full pipeline
/// `layout`.
pub(crate) fn fullscreen_pipeline_with(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    layout: &wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    blend: Option<wgpu::BlendState>,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    fullscreen_entry_pipeline(device, label, &module, "fs_main", layout, format, blend)
}

/// A full-screen-triangle pipeline over an already compiled `module`
/// (its `vs_main`, and `fragment` as the fragment entry point).
pub(crate) fn fullscreen_entry_pipeline(
    device: &wgpu::Device,
    label: &str,
    module: &wgpu::ShaderModule,
    fragment: &str,
    layout: &wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    blend: Option<wgpu::BlendState>,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// A 1 x 1 texture: the stand-in bound where a feature has nothing real to
/// sample (no base-colour texture, no shadow map).
pub(crate) fn single_texel(
    device: &wgpu::Device,
    label: &str,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: ONE_TEXEL,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// The extent of one texel.
pub(crate) const ONE_TEXEL: wgpu::Extent3d = wgpu::Extent3d {
    width: 1,
    height: 1,
    depth_or_array_layers: 1,
};
