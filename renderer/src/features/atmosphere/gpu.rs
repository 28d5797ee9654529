//! The atmosphere on the GPU: the three tables, the passes that fill them
//! (each only when its inputs changed) and the sky draw that reads them.

use glam::{Mat4, Vec3};

use super::Atmosphere;
use super::luts::{
    AtmosphereShader, LUT_FORMAT, Lut, MULTI_SCATTERING_LUT_SIZE, SKY_VIEW_LUT_SIZE,
    TRANSMITTANCE_LUT_SIZE,
};
use super::uniform::{AtmosphereUniform, ViewUniform};
use crate::features::gpu_util::{
    fullscreen_pipeline, fullscreen_pipeline_with_groups, sampler_entry, texture_entry,
    uniform_buffer, uniform_entry,
};
use crate::frame::HDR_FORMAT;
use crate::resources::SamplerKind;

/// Which tables one [`AtmosphereGpu::prepare`] re-rendered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LutRenders {
    /// The transmittance and multiple-scattering tables (always together).
    pub(crate) transmittance: u32,
    /// The sky-view table.
    pub(crate) sky_view: u32,
}

impl std::ops::AddAssign for LutRenders {
    fn add_assign(&mut self, other: Self) {
        self.transmittance = self.transmittance.saturating_add(other.transmittance);
        self.sky_view = self.sky_view.saturating_add(other.sky_view);
    }
}

/// A uniform holding one inverse view-projection matrix and its bind group
/// (group 1 of the sky pipeline): what [`AtmosphereGpu::draw_sky`] turns
/// pixels into view rays with. The camera has one; a cube-map bake makes
/// one per face.
#[derive(Debug)]
pub(crate) struct ViewBinding {
    buffer: wgpu::Buffer,
    group: wgpu::BindGroup,
}

impl ViewBinding {
    /// Writes the matrix for `view_proj` (world to clip); see
    /// [`ViewUniform::from_view_proj`] for matrices that cannot be inverted.
    pub(crate) fn write(&self, queue: &wgpu::Queue, view_proj: Mat4) {
        let block = ViewUniform::from_view_proj(view_proj);
        queue.write_buffer(&self.buffer, 0, bytemuck::bytes_of(&block));
    }

    /// The bind group to hand [`AtmosphereGpu::draw_sky`].
    #[must_use]
    pub(crate) fn group(&self) -> &wgpu::BindGroup {
        &self.group
    }
}

/// One table and the pass that fills it.
#[derive(Debug)]
struct LutPass {
    lut: Lut,
    pipeline: wgpu::RenderPipeline,
    group: wgpu::BindGroup,
    label: &'static str,
}

impl LutPass {
    fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(self.label),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.lut.view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// The inputs the tables were last rendered for.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rendered {
    settings: Atmosphere,
    towards_sun: Vec3,
}

/// Tables, passes and the sky pipeline of one atmosphere.
#[derive(Debug)]
pub(crate) struct AtmosphereGpu {
    uniform: wgpu::Buffer,
    transmittance: LutPass,
    multi_scattering: LutPass,
    sky_view: LutPass,
    sky_pipeline: wgpu::RenderPipeline,
    sky_group: wgpu::BindGroup,
    view_layout: wgpu::BindGroupLayout,
    camera: ViewBinding,
    rendered: Option<Rendered>,
    sky_view_renders: u64,
}

fn group_entries<'a>(
    uniform: &'a wgpu::Buffer,
    textures: &[(u32, &'a wgpu::TextureView)],
    sampler: Option<&'a wgpu::Sampler>,
) -> Vec<wgpu::BindGroupEntry<'a>> {
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: uniform.as_entire_binding(),
    }];
    entries.extend(
        textures
            .iter()
            .map(|&(binding, view)| wgpu::BindGroupEntry {
                binding,
                resource: wgpu::BindingResource::TextureView(view),
            }),
    );
    entries.extend(sampler.map(|sampler| wgpu::BindGroupEntry {
        binding: 2,
        resource: wgpu::BindingResource::Sampler(sampler),
    }));
    entries
}

impl AtmosphereGpu {
    /// Creates the tables (not yet rendered: [`prepare`](Self::prepare)
    /// does that), the pipelines and the camera's view binding.
    #[must_use]
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let uniform = uniform_buffer(
            device,
            "atmosphere uniform",
            std::mem::size_of::<AtmosphereUniform>(),
        );
        let sampler = SamplerKind::LinearClamp.create(device);
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let filterable = wgpu::TextureSampleType::Float { filterable: true };
        let layout = |label: &str, textures: &[u32]| {
            let mut entries = vec![uniform_entry(0, false, fragment)];
            if !textures.is_empty() {
                entries.push(sampler_entry(2, wgpu::SamplerBindingType::Filtering));
            }
            entries.extend(
                textures
                    .iter()
                    .map(|&binding| texture_entry(binding, filterable)),
            );
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries: &entries,
            })
        };
        let uniform_only = layout("atmosphere transmittance", &[]);
        let one_table = layout("atmosphere multi-scattering", &[1]);
        let two_tables = layout("atmosphere sky", &[1, 3]);
        let view_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("atmosphere view"),
            entries: &[uniform_entry(0, false, fragment)],
        });

        let lut_pass = |label: &'static str,
                        size: (u32, u32),
                        shader: AtmosphereShader,
                        layout: &wgpu::BindGroupLayout,
                        textures: &[(u32, &wgpu::TextureView)]| {
            let lut = Lut::new(device, label, size);
            let pipeline = fullscreen_pipeline(device, label, &shader.source(), layout, LUT_FORMAT);
            let sampler = (!textures.is_empty()).then_some(&sampler);
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout,
                entries: &group_entries(&uniform, textures, sampler),
            });
            LutPass {
                lut,
                pipeline,
                group,
                label,
            }
        };
        let transmittance = lut_pass(
            "atmosphere transmittance",
            TRANSMITTANCE_LUT_SIZE,
            AtmosphereShader::Transmittance,
            &uniform_only,
            &[],
        );
        let multi_scattering = lut_pass(
            "atmosphere multi-scattering",
            MULTI_SCATTERING_LUT_SIZE,
            AtmosphereShader::MultiScattering,
            &one_table,
            &[(1, &transmittance.lut.view)],
        );
        let sky_view = lut_pass(
            "atmosphere sky-view",
            SKY_VIEW_LUT_SIZE,
            AtmosphereShader::SkyView,
            &two_tables,
            &[
                (1, &transmittance.lut.view),
                (3, &multi_scattering.lut.view),
            ],
        );
        let sky_pipeline = fullscreen_pipeline_with_groups(
            device,
            "atmosphere sky",
            &AtmosphereShader::Sky.source(),
            &[Some(&two_tables), Some(&view_layout)],
            HDR_FORMAT,
        );
        let sky_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("atmosphere sky"),
            layout: &two_tables,
            entries: &group_entries(
                &uniform,
                &[(1, &transmittance.lut.view), (3, &sky_view.lut.view)],
                Some(&sampler),
            ),
        });
        let camera = Self::create_view_binding(device, &view_layout, "atmosphere camera view");
        Self {
            uniform,
            transmittance,
            multi_scattering,
            sky_view,
            sky_pipeline,
            sky_group,
            view_layout,
            camera,
            rendered: None,
            sky_view_renders: 0,
        }
    }

    fn create_view_binding(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        label: &str,
    ) -> ViewBinding {
        let buffer = uniform_buffer(device, label, std::mem::size_of::<ViewUniform>());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        ViewBinding { buffer, group }
    }

    /// A new view binding for [`draw_sky`](Self::draw_sky) with another
    /// matrix (a cube-map face, say).
    #[must_use]
    #[allow(dead_code, reason = "for the image-based-lighting bake to come")]
    pub(crate) fn view_binding(&self, device: &wgpu::Device, label: &str) -> ViewBinding {
        Self::create_view_binding(device, &self.view_layout, label)
    }

    /// The camera's view binding, which the sky feature writes every frame.
    #[must_use]
    pub(crate) fn camera(&self) -> &ViewBinding {
        &self.camera
    }

    /// Brings the tables up to date for `settings` and the unit direction
    /// `towards_sun`, rendering (in one submit of its own) only what
    /// changed: the transmittance and multiple-scattering tables when the
    /// (sanitised) settings differ from last time, the sky-view table when
    /// they did or when the sun's elevation moved. A sun that only turned
    /// in azimuth rewrites the uniform and renders nothing: the sky-view
    /// table is laid out around the sun's azimuth.
    pub(crate) fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        settings: &Atmosphere,
        towards_sun: Vec3,
    ) -> LutRenders {
        let now = Rendered {
            settings: settings.sanitized(),
            towards_sun,
        };
        if self.rendered == Some(now) {
            return LutRenders::default();
        }
        let settings_changed = self.rendered.map(|last| last.settings) != Some(now.settings);
        let elevation_changed = self.rendered.map(|last| last.towards_sun.y) != Some(towards_sun.y);
        self.rendered = Some(now);
        let block = AtmosphereUniform::new(&now.settings, towards_sun);
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&block));
        let renders = LutRenders {
            transmittance: u32::from(settings_changed),
            sky_view: u32::from(settings_changed || elevation_changed),
        };
        if renders.sky_view == 0 {
            return renders;
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("atmosphere tables"),
        });
        if settings_changed {
            self.transmittance.encode(&mut encoder);
            self.multi_scattering.encode(&mut encoder);
        }
        self.sky_view.encode(&mut encoder);
        queue.submit([encoder.finish()]);
        self.sky_view_renders += 1;
        renders
    }

    /// Sky-view table renders since creation.
    #[must_use]
    pub(crate) fn towards_sun(&self) -> Vec3 {
        self.rendered
            .map_or(Vec3::Y, |rendered| rendered.towards_sun)
    }

    /// The sky-view table renders so far.
    pub(crate) fn sky_view_renders(&self) -> u64 {
        self.sky_view_renders
    }

    /// Draws the sky into `pass` (one `HDR_FORMAT` colour target) with the
    /// view rays of `view`'s matrix: the pipeline, both bind groups, one
    /// full-screen triangle. Call [`prepare`](Self::prepare) first.
    pub(crate) fn draw_sky(&self, pass: &mut wgpu::RenderPass<'_>, view: &ViewBinding) {
        pass.set_pipeline(&self.sky_pipeline);
        pass.set_bind_group(0, &self.sky_group, &[]);
        pass.set_bind_group(1, view.group(), &[]);
        pass.draw(0..3, 0..1);
    }
}
