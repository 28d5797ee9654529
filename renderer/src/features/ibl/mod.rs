//! Image-based lighting: the sky baked into a diffuse irradiance cube, a
//! prefiltered specular cube (one mip per roughness step) and a split-sum
//! BRDF table, by full-screen passes (no compute). The sky feature owns the
//! baker and re-bakes only when its sky changes; the lit passes read the
//! maps through [`Environment`] in the frame's slots.

use glam::{Mat4, Vec3, Vec4};

use super::atmosphere::AtmosphereGpu;

use super::gpu_util::{ONE_TEXEL, fullscreen_vs_wgsl, uniform_buffer};
use crate::GpuContext;
use crate::frame::HDR_FORMAT;

/// Edge of the environment cube the sky is first rendered into (texels).
pub const ENVIRONMENT_SIZE: u32 = 128;
/// Edge of the irradiance cube.
pub const IRRADIANCE_SIZE: u32 = 32;
/// Mips of the prefiltered specular cube (roughness 0, 0.25 ... 1), the
/// first [`ENVIRONMENT_SIZE`] texels wide.
pub const SPECULAR_MIPS: u32 = 5;
/// Edge of the BRDF table.
pub const BRDF_SIZE: u32 = 64;
const ENVIRONMENT_MIPS: u32 = 8;
const BRDF_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// Settings of image-based lighting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IblOptions {
    /// Multiplier of the environment's light (non-finite or negative: 1).
    pub intensity: f32,
}

impl Default for IblOptions {
    fn default() -> Self {
        Self { intensity: 1.0 }
    }
}

/// What the environment is baked from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum EnvironmentSource<'a> {
    /// One radiance in every direction.
    Uniform(Vec3),
    /// An equirectangular panorama (with mips) times an intensity.
    Panorama(&'a wgpu::TextureView, f32),
    /// The atmosphere sky, its tables prepared for the current sun.
    Atmosphere(&'a AtmosphereGpu),
}

/// The baked maps, as the lit passes bind them (cheap to clone).
#[derive(Debug, Clone)]
pub(crate) struct Environment {
    pub(crate) irradiance: wgpu::TextureView,
    pub(crate) specular: wgpu::TextureView,
    pub(crate) brdf: wgpu::TextureView,
    /// `EnvironmentParams` of the shaders: intensity, last specular mip, 1.
    pub(crate) params: wgpu::Buffer,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BakeUniform {
    face: u32,
    samples: u32,
    roughness: f32,
    intensity: f32,
    size: f32,
    source_level: f32,
    pad: [f32; 2],
}

/// Bakes [`Environment`]s.
#[derive(Debug)]
pub(crate) struct IblBaker {
    layout: wgpu::BindGroupLayout,
    panorama: wgpu::RenderPipeline,
    irradiance: wgpu::RenderPipeline,
    specular: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
    environment_cube: wgpu::Texture,
    irradiance_cube: wgpu::Texture,
    specular_cube: wgpu::Texture,
    dummy_2d: wgpu::TextureView,
    maps: Environment,
    bakes: u64,
}

fn cube(device: &wgpu::Device, label: &str, size: u32, mips: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: 6,
        },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: HDR_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    })
}

fn cube_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::Cube),
        ..Default::default()
    })
}

/// One face and mip of a cube as a render target.
fn face_view(texture: &wgpu::Texture, face: u32, mip: u32) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2),
        base_array_layer: face,
        array_layer_count: Some(1),
        base_mip_level: mip,
        mip_level_count: Some(1),
        ..Default::default()
    })
}

fn layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let fragment = wgpu::ShaderStages::FRAGMENT;
    let texture = |binding, view_dimension| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: fragment,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension,
            multisampled: false,
        },
        count: None,
    };
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("ibl bake"),
        entries: &[
            super::gpu_util::uniform_entry(0, false, fragment),
            texture(1, wgpu::TextureViewDimension::D2),
            texture(2, wgpu::TextureViewDimension::Cube),
            wgpu::BindGroupLayoutEntry {
                binding: 3,
                visibility: fragment,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

fn pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry: &str,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(entry),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

impl IblBaker {
    /// Creates the maps (black until the first bake) and bakes the BRDF
    /// table, which depends on nothing.
    pub(crate) fn new(gpu: &GpuContext, options: IblOptions) -> Self {
        let device = gpu.device();
        let layout = layout(device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ibl bake"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ibl bake.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                format!(
                    "{FULLSCREEN_VS_WGSL}{}",
                    crate::wgsl!("bake.wgsl"),
                    FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
                )
                .into(),
            ),
        });
        let environment_cube = cube(device, "environment", ENVIRONMENT_SIZE, ENVIRONMENT_MIPS);
        let irradiance_cube = cube(device, "irradiance", IRRADIANCE_SIZE, 1);
        let specular_cube = cube(device, "specular", ENVIRONMENT_SIZE, SPECULAR_MIPS);
        let brdf = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("brdf table"),
            size: wgpu::Extent3d {
                width: BRDF_SIZE,
                height: BRDF_SIZE,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: BRDF_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let dummy_2d = super::gpu_util::single_texel(
            device,
            "ibl no panorama",
            HDR_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        )
        .create_view(&wgpu::TextureViewDescriptor::default());
        let params = uniform_buffer(device, "environment params", 16);
        let baker = Self {
            panorama: pipeline(device, &pipeline_layout, &module, "fs_panorama", HDR_FORMAT),
            irradiance: pipeline(
                device,
                &pipeline_layout,
                &module,
                "fs_irradiance",
                HDR_FORMAT,
            ),
            specular: pipeline(device, &pipeline_layout, &module, "fs_specular", HDR_FORMAT),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("ibl"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Linear,
                address_mode_u: wgpu::AddressMode::Repeat,
                address_mode_v: wgpu::AddressMode::ClampToEdge,
                ..Default::default()
            }),
            maps: Environment {
                irradiance: cube_view(&irradiance_cube),
                specular: cube_view(&specular_cube),
                brdf: brdf.create_view(&wgpu::TextureViewDescriptor::default()),
                params,
            },
            environment_cube,
            irradiance_cube,
            specular_cube,
            dummy_2d,
            layout,
            bakes: 0,
        };
        let brdf_pipeline = pipeline(device, &pipeline_layout, &module, "fs_brdf", BRDF_FORMAT);
        let mut encoder = device.create_command_encoder(&Default::default());
        let target = brdf.create_view(&wgpu::TextureViewDescriptor::default());
        baker.draw(
            gpu,
            &mut encoder,
            (&brdf_pipeline, &target, None),
            BakeUniform {
                samples: 512,
                size: BRDF_SIZE as f32,
                ..BakeUniform::zeroed()
            },
            None,
        );
        gpu.queue().submit([encoder.finish()]);
        baker.set_options(gpu, options);
        baker
    }

    /// Writes `options` into the uniform the lit passes read with the maps:
    /// no re-bake.
    pub(crate) fn set_options(&self, gpu: &GpuContext, options: IblOptions) {
        let intensity = if options.intensity.is_finite() && options.intensity >= 0.0 {
            options.intensity
        } else {
            1.0
        };
        let last_mip = (SPECULAR_MIPS - 1) as f32;
        gpu.queue().write_buffer(
            &self.maps.params,
            0,
            bytemuck::cast_slice(&[intensity, last_mip, 1.0, 0.0]),
        );
    }

    /// The maps, for the lit passes.
    pub(crate) fn environment(&self) -> &Environment {
        &self.maps
    }

    /// How many times the environment was baked.
    pub(crate) fn bakes(&self) -> u64 {
        self.bakes
    }

    /// Renders `source` into the environment cube, then convolves it into
    /// the irradiance and specular cubes: one submit.
    pub(crate) fn bake(&mut self, gpu: &GpuContext, source: EnvironmentSource<'_>) {
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
        for face in 0..6 {
            let atmosphere_view = match source {
                EnvironmentSource::Atmosphere(atmosphere) => {
                    let binding = atmosphere.view_binding(gpu.device(), "ibl atmosphere face");
                    binding.write(gpu.queue(), face_view_proj(face));
                    Some(binding)
                }
                _ => None,
            };
            for mip in 0..ENVIRONMENT_MIPS {
                let target = face_view(&self.environment_cube, face, mip);
                match source {
                    EnvironmentSource::Atmosphere(atmosphere) => {
                        let mut pass = begin(&mut encoder, &target, Vec3::ZERO);
                        if let Some(view) = &atmosphere_view {
                            atmosphere.draw_sky(&mut pass, view);
                        }
                    }
                    EnvironmentSource::Uniform(color) => {
                        let color = if color.is_finite() {
                            color.max(Vec3::ZERO)
                        } else {
                            Vec3::ZERO
                        };
                        begin(&mut encoder, &target, color);
                    }
                    EnvironmentSource::Panorama(panorama, intensity) => self.draw(
                        gpu,
                        &mut encoder,
                        (&self.panorama, &target, Some(panorama)),
                        BakeUniform {
                            face,
                            intensity,
                            size: (ENVIRONMENT_SIZE >> mip) as f32,
                            source_level: mip as f32,
                            ..BakeUniform::zeroed()
                        },
                        None,
                    ),
                }
            }
        }
        let environment = cube_view(&self.environment_cube);
        for face in 0..6 {
            let target = face_view(&self.irradiance_cube, face, 0);
            self.draw(
                gpu,
                &mut encoder,
                (&self.irradiance, &target, None),
                BakeUniform {
                    face,
                    samples: 32,
                    size: IRRADIANCE_SIZE as f32,
                    ..BakeUniform::zeroed()
                },
                Some(&environment),
            );
            for mip in 0..SPECULAR_MIPS {
                let target = face_view(&self.specular_cube, face, mip);
                self.draw(
                    gpu,
                    &mut encoder,
                    (&self.specular, &target, None),
                    BakeUniform {
                        face,
                        samples: if mip == 0 { 1 } else { 128 },
                        roughness: mip as f32 / (SPECULAR_MIPS - 1) as f32,
                        size: (ENVIRONMENT_SIZE >> mip) as f32,
                        ..BakeUniform::zeroed()
                    },
                    Some(&environment),
                );
            }
        }
        gpu.queue().submit([encoder.finish()]);
        self.bakes += 1;
    }

    /// One full-screen draw of `pipeline` into `target`.
    fn draw(
        &self,
        gpu: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        (pipeline, target, panorama): (
            &wgpu::RenderPipeline,
            &wgpu::TextureView,
            Option<&wgpu::TextureView>,
        ),
        uniform: BakeUniform,
        cube_source: Option<&wgpu::TextureView>,
    ) {
        let device = gpu.device();
        let buffer = uniform_buffer(device, "ibl bake", std::mem::size_of::<BakeUniform>());
        gpu.queue()
            .write_buffer(&buffer, 0, bytemuck::bytes_of(&uniform));
        let fallback_cube = cube_view(&self.irradiance_cube);
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ibl bake"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(
                        panorama.unwrap_or(&self.dummy_2d),
                    ),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(
                        cube_source.unwrap_or(&fallback_cube),
                    ),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("ibl bake"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
}

impl BakeUniform {
    fn zeroed() -> Self {
        bytemuck::Zeroable::zeroed()
    }
}

/// A view-projection matrix whose inverse sends cube face `face`'s
/// normalised device coordinates along the face's directions (the same
/// orientation as `face_direction` in `bake.wgsl`), so a sky drawn through
/// it fills that face.
fn face_view_proj(face: u32) -> Mat4 {
    // Direction = x * across + y * up + forward, for ndc (x, y).
    let (across, up, forward) = match face {
        0 => (Vec3::NEG_Z, Vec3::Y, Vec3::X),
        1 => (Vec3::Z, Vec3::Y, Vec3::NEG_X),
        2 => (Vec3::X, Vec3::NEG_Z, Vec3::Y),
        3 => (Vec3::X, Vec3::Z, Vec3::NEG_Y),
        4 => (Vec3::X, Vec3::Y, Vec3::Z),
        _ => (Vec3::NEG_X, Vec3::Y, Vec3::NEG_Z),
    };
    // Depth 0 lands on the direction, depth 1 twice as far along it.
    let inverse = Mat4::from_cols(
        across.extend(0.0),
        up.extend(0.0),
        Vec4::new(0.0, 0.0, 0.0, -0.5),
        forward.extend(1.0),
    );
    inverse.inverse()
}

/// Begins a render pass on `target`, cleared to `color`.
fn begin<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    color: Vec3,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("ibl uniform environment"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color {
                    r: f64::from(color.x),
                    g: f64::from(color.y),
                    b: f64::from(color.z),
                    a: 1.0,
                }),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    })
}

/// Stand-ins bound when no environment was baked: black cubes, a zero
/// table, and parameters that switch image-based lighting off.
#[derive(Debug)]
pub(crate) struct NoEnvironment(pub(crate) Environment);

impl NoEnvironment {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let cube = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("no environment"),
            size: wgpu::Extent3d {
                depth_or_array_layers: 6,
                ..ONE_TEXEL
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: HDR_FORMAT,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let table = super::gpu_util::single_texel(
            device,
            "no brdf table",
            BRDF_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        // A new buffer is zeroed: intensity 0, image-based lighting off.
        let params = uniform_buffer(device, "no environment params", 16);
        Self(Environment {
            irradiance: cube_view(&cube),
            specular: cube_view(&cube),
            brdf: table.create_view(&wgpu::TextureViewDescriptor::default()),
            params,
        })
    }
}
