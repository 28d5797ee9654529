//! The sky behind everything: nothing, a flat colour, an equirectangular
//! panorama texture, or a physically based atmosphere.

use glam::Vec3;

use super::atmosphere::{Atmosphere, AtmosphereGpu, LutRenders, direction_towards_sun};
use super::gpu_util::{
    fullscreen_pipeline, sampler_entry, texture_entry, uniform_buffer, uniform_entry,
};
use super::ibl::{EnvironmentSource, IblBaker, IblOptions};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::FrameData;
use crate::frame::{HDR_FORMAT, HDR_USAGE};
use crate::graph::TextureDesc;
use crate::resources::{Assets, ColorSpace, SamplerKind, Texture};
use crate::{GpuContext, RenderStats};

/// What fills the background.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum SkyOption {
    /// Black.
    #[default]
    None,
    /// A flat linear colour (HDR: values above 1 are allowed).
    Color(Vec3),
    /// An equirectangular panorama (longitude across, latitude down, sRGB),
    /// times an intensity. Uploaded once per image (`Arc`): at setup, and
    /// at the next frame after [`SkyFeature::sky`] gets another one.
    Texture {
        /// The panorama.
        image: std::sync::Arc<image::RgbaImage>,
        /// Radiance multiplier.
        intensity: f32,
    },
    /// Sunlight scattered by a planet's air ([`Atmosphere`]): blue by day,
    /// red at sunset, dark at night, the sun's disk included. The sun is the
    /// frame's [`SunLight`](crate::frame::SunLight) (only its direction:
    /// the atmosphere's own illuminance sets the brightness); without one
    /// it stands 30 degrees above the horizon towards -Z.
    Atmosphere(Atmosphere),
}

/// Creates the frame's HDR target and fills it with the sky; with
/// [`ibl`](Self::ibl) on, also bakes the sky into image-based lighting for
/// the lit passes, once, and again only when the sky changes.
///
/// A frame with a zero width or height gets no sky pass (and no HDR target
/// from this feature).
#[derive(Debug)]
pub struct SkyFeature {
    /// The sky. A change shows at the next frame: a new panorama is
    /// uploaded, an atmosphere's tables follow its settings, and the
    /// image-based lighting is baked again once.
    pub sky: SkyOption,
    /// Image-based lighting from this sky (`None`: off). A change takes
    /// effect at the next frame: turning it on bakes the sky once, a new
    /// intensity only rewrites a uniform, turning it off frees the maps.
    pub ibl: Option<IblOptions>,
    /// What the GPU objects were made for: the panorama uploaded and the
    /// image-based lighting's options.
    made_for: MadeFor,
    gpu: Option<Gpu>,
    atmosphere: Option<AtmosphereGpu>,
    /// Tables rendered since the last `after_frame`.
    lut_renders: LutRenders,
    baker: Option<IblBaker>,
    baked: Option<BakedSky>,
}

/// The settings the sky's GPU objects follow.
#[derive(Debug, Default)]
struct MadeFor {
    /// The panorama uploaded (kept, so its address names it).
    panorama: Option<std::sync::Arc<image::RgbaImage>>,
    ibl: Option<IblOptions>,
}

/// What the environment was last baked from.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BakedSky {
    Uniform(Vec3),
    Panorama(usize, f32),
    Atmosphere(Atmosphere, Vec3),
}

impl BakedSky {
    /// Whether a bake of `self` still stands for `now`: the same sky, and
    /// for an atmosphere a sun within a quarter of a degree (a slowly
    /// turning sun re-bakes every few seconds, not every frame).
    fn still_matches(&self, now: &Self) -> bool {
        match (self, now) {
            (Self::Atmosphere(settings, sun), Self::Atmosphere(now_settings, now_sun)) => {
                settings == now_settings && sun.dot(*now_sun) > 0.25f32.to_radians().cos()
            }
            _ => self == now,
        }
    }
}

#[derive(Debug)]
struct Gpu {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    sampler: wgpu::Sampler,
    panorama: Option<Texture>,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SkyUniform {
    inverse_view_proj: [[f32; 4]; 4],
    intensity: [f32; 4],
}

impl SkyFeature {
    /// A sky feature showing `sky`.
    #[must_use]
    pub fn new(sky: SkyOption) -> Self {
        Self {
            sky,
            ibl: None,
            made_for: MadeFor::default(),
            gpu: None,
            atmosphere: None,
            lut_renders: LutRenders::default(),
            baker: None,
            baked: None,
        }
    }

    /// A sky feature showing `sky` and lighting the scene with it.
    #[must_use]
    pub fn with_ibl(sky: SkyOption, ibl: IblOptions) -> Self {
        Self {
            ibl: Some(ibl),
            ..Self::new(sky)
        }
    }

    /// How many times the sky was baked into image-based lighting (once
    /// per sky, never per frame) since the image-based lighting was last
    /// turned on.
    #[must_use]
    pub fn environment_bakes(&self) -> u64 {
        self.baker.as_ref().map_or(0, IblBaker::bakes)
    }

    /// Brings the GPU objects up to the settings: uploads a new panorama
    /// (or frees one no longer shown), and makes, updates or frees the
    /// image-based lighting's maps.
    fn follow_settings(&mut self, gpu: &GpuContext) {
        let Some(state) = &mut self.gpu else { return };
        let panorama = match &self.sky {
            SkyOption::Texture { image, .. } => Some(image),
            _ => None,
        };
        let same_panorama = match (panorama, &self.made_for.panorama) {
            (Some(wanted), Some(made)) => std::sync::Arc::ptr_eq(wanted, made),
            (wanted, made) => wanted.is_none() && made.is_none(),
        };
        if !same_panorama {
            state.panorama = panorama.and_then(|image| {
                Texture::from_rgba8(gpu, "sky panorama", image, ColorSpace::Srgb)
                    .map_err(|error| {
                        log::error!("sky texture not loaded, sky stays black: {error}")
                    })
                    .ok()
            });
            self.made_for.panorama = panorama.cloned();
        }
        if self.ibl != self.made_for.ibl {
            match (self.ibl, &self.baker) {
                (Some(options), Some(baker)) => baker.set_options(gpu, options),
                (Some(options), None) => {
                    self.baker = Some(IblBaker::new(gpu, options));
                    self.baked = None;
                }
                (None, _) => {
                    self.baker = None;
                    self.baked = None;
                }
            }
            self.made_for.ibl = self.ibl;
        }
    }

    /// Bakes the environment when the sky differs from the last bake.
    fn bake_if_changed(&mut self, gpu: &GpuContext) {
        let (Some(baker), Some(state)) = (&mut self.baker, &self.gpu) else {
            return;
        };
        let panorama = state.panorama.as_ref().map(Texture::view);
        let (key, source) = match (&self.sky, panorama, &self.atmosphere) {
            (SkyOption::Atmosphere(settings), _, Some(atmosphere)) => (
                BakedSky::Atmosphere(*settings, atmosphere.towards_sun()),
                EnvironmentSource::Atmosphere(atmosphere),
            ),
            (SkyOption::Texture { image, intensity }, Some(view), _) => {
                let intensity = sanitized_intensity(*intensity);
                (
                    BakedSky::Panorama(std::sync::Arc::as_ptr(image) as usize, intensity),
                    EnvironmentSource::Panorama(view, intensity),
                )
            }
            (SkyOption::Color(color), _, _) => (
                BakedSky::Uniform(*color),
                EnvironmentSource::Uniform(*color),
            ),
            _ => (
                BakedSky::Uniform(Vec3::ZERO),
                EnvironmentSource::Uniform(Vec3::ZERO),
            ),
        };
        if !self.baked.is_some_and(|baked| baked.still_matches(&key)) {
            baker.bake(gpu, source);
            self.baked = Some(key);
        }
    }
}

fn sanitized_intensity(intensity: f32) -> f32 {
    if intensity.is_finite() {
        intensity.max(0.0)
    } else {
        1.0
    }
}

impl SkyFeature {
    /// How many times the atmosphere's sky-view table was rendered since
    /// setup: once at the first frame, then whenever the sun's elevation
    /// or the atmosphere's settings changed. Zero for other skies.
    #[must_use]
    pub fn sky_view_renders(&self) -> u64 {
        self.atmosphere
            .as_ref()
            .map_or(0, AtmosphereGpu::sky_view_renders)
    }

    fn update_panorama(&self, intensity: f32, data: &FrameData, gpu: &GpuContext) {
        let Some(state) = &self.gpu else { return };
        let camera = &data.camera;
        let uniform = SkyUniform {
            inverse_view_proj: (camera.projection * camera.view)
                .inverse()
                .to_cols_array_2d(),
            intensity: [sanitized_intensity(intensity), 0.0, 0.0, 0.0],
        };
        gpu.queue()
            .write_buffer(&state.uniform, 0, bytemuck::bytes_of(&uniform));
    }

    fn update_atmosphere(&mut self, settings: Atmosphere, data: &FrameData, gpu: &GpuContext) {
        let atmosphere = self
            .atmosphere
            .get_or_insert_with(|| AtmosphereGpu::new(gpu.device()));
        let towards_sun = direction_towards_sun(data.lights.sun.as_ref());
        self.lut_renders += atmosphere.prepare(gpu.device(), gpu.queue(), &settings, towards_sun);
        let camera = &data.camera;
        atmosphere
            .camera()
            .write(gpu.queue(), camera.projection * camera.view);
    }
}

/// What the sky pass draws over its clear colour.
#[derive(Clone, Copy)]
enum Background<'a> {
    Clear,
    Panorama(&'a wgpu::TextureView, &'a Gpu),
    Atmosphere(&'a AtmosphereGpu),
}

impl RenderFeature for SkyFeature {
    fn name(&self) -> &'static str {
        "Sky"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("sky"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, wgpu::TextureSampleType::Float { filterable: true }),
                sampler_entry(2, wgpu::SamplerBindingType::Filtering),
            ],
        });
        let pipeline = fullscreen_pipeline(
            device,
            "sky",
            &crate::wgsl!("sky.wgsl"),
            &layout,
            HDR_FORMAT,
        );
        let uniform = uniform_buffer(device, "sky uniform", std::mem::size_of::<SkyUniform>());
        self.gpu = Some(Gpu {
            pipeline,
            layout,
            uniform,
            sampler: SamplerKind::LinearRepeat.create(device),
            panorama: None,
        });
        if matches!(self.sky, SkyOption::Atmosphere(_)) {
            self.atmosphere = Some(AtmosphereGpu::new(device));
        }
        self.follow_settings(setup.gpu);
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        self.follow_settings(gpu);
        match &self.sky {
            SkyOption::Texture { intensity, .. } => self.update_panorama(*intensity, data, gpu),
            SkyOption::Atmosphere(settings) => self.update_atmosphere(*settings, data, gpu),
            SkyOption::None | SkyOption::Color(_) => {}
        }
        // After the atmosphere's tables are up to date.
        self.bake_if_changed(gpu);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        let renders = std::mem::take(&mut self.lut_renders);
        stats.transmittance_lut_renders += renders.transmittance;
        stats.sky_view_lut_renders += renders.sky_view;
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        if let Some(baker) = &self.baker {
            frame.slots.insert(baker.environment().clone());
        }
        let (width, height) = frame.data.size;
        if width == 0 || height == 0 {
            return;
        }
        let hdr = frame.graph.create_texture(
            "hdr",
            TextureDesc::new_2d(width, height, HDR_FORMAT, HDR_USAGE),
        );
        let color = match &self.sky {
            SkyOption::Color(c) if c.is_finite() => c.max(Vec3::ZERO),
            _ => Vec3::ZERO,
        };
        let clear = wgpu::Color {
            r: f64::from(color.x),
            g: f64::from(color.y),
            b: f64::from(color.z),
            a: 1.0,
        };
        let background = match &self.sky {
            SkyOption::Texture { .. } => self
                .gpu
                .as_ref()
                .and_then(|gpu| {
                    gpu.panorama
                        .as_ref()
                        .map(|t| Background::Panorama(t.view(), gpu))
                })
                .unwrap_or(Background::Clear),
            SkyOption::Atmosphere(_) => self
                .atmosphere
                .as_ref()
                .map_or(Background::Clear, Background::Atmosphere),
            SkyOption::None | SkyOption::Color(_) => Background::Clear,
        };
        frame.hdr = Some(frame.graph.add_render_pass("sky", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Clear(clear));
            pass.execute(move |rp, res| match background {
                Background::Clear => {}
                Background::Atmosphere(atmosphere) => atmosphere.draw_sky(rp, atmosphere.camera()),
                Background::Panorama(view, gpu) => {
                    let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("sky"),
                        layout: &gpu.layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: gpu.uniform.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: wgpu::BindingResource::TextureView(view),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: wgpu::BindingResource::Sampler(&gpu.sampler),
                            },
                        ],
                    });
                    rp.set_pipeline(&gpu.pipeline);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            hdr
        }));
    }
}
