//! Depth of field: what lies off the focus plane blurs as through a real
//! lens with a round aperture.
//!
//! The circle of confusion comes from the thin-lens model. The focal length
//! follows from the camera's vertical field of view and
//! [`DofOptions::sensor_height`], so a wider aperture (a smaller f-number),
//! a longer lens or a nearer focus blurs more, as on a camera. Two
//! fragment passes: the signed CoC per pixel from the scene depth, then a
//! 48-sample disk gather in which each sample spreads its light over its
//! own circle. The near field (in front of the focus) blurs over what lies
//! behind it; the far field does not bleed over sharper surfaces in front.

use super::TaaJitter;
use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, fullscreen_entry_pipeline, fullscreen_vs_wgsl, nearest_sampler, sampler_entry,
    texture_entry, uniform_buffer, uniform_entry,
};
use crate::frame::{CameraView, FrameData, HDR_FORMAT, HDR_USAGE};
use crate::graph::{TextureDesc, TextureHandle};
use crate::resources::Assets;

/// Depth-of-field settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DofOptions {
    /// Distance from the camera to the plane in sharp focus, in metres.
    pub focus_distance: f32,
    /// The aperture as an f-number (focal length / aperture diameter):
    /// smaller blurs more. Real lenses go down to about 1.2; smaller values
    /// exaggerate the effect.
    pub aperture_f_stops: f32,
    /// Height of the simulated sensor in metres (Super 35 film by
    /// default): with the field of view it sets the focal length.
    pub sensor_height: f32,
    /// Largest blur radius in pixels (the gather's reach and cost).
    pub max_radius: f32,
}

impl Default for DofOptions {
    fn default() -> Self {
        Self {
            focus_distance: 5.0,
            aperture_f_stops: 1.4,
            sensor_height: 0.018_66,
            max_radius: 12.0,
        }
    }
}

impl DofOptions {
    /// The options with non-finite or out-of-range values replaced.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let positive_or = |value: f32, fallback: f32| {
            if value.is_finite() && value > 0.0 {
                value
            } else {
                fallback
            }
        };
        let defaults = Self::default();
        Self {
            focus_distance: positive_or(self.focus_distance, defaults.focus_distance),
            aperture_f_stops: positive_or(self.aperture_f_stops, defaults.aperture_f_stops),
            sensor_height: positive_or(self.sensor_height, defaults.sensor_height),
            max_radius: positive_or(self.max_radius, defaults.max_radius).clamp(1.0, 64.0),
        }
    }

    /// The circle of confusion's radius in pixels, for a surface infinitely
    /// far away, seen by `camera` in a frame `height` pixels tall. A surface
    /// at distance `d` has a signed radius of this times `1 - focus / d`
    /// (negative in front of the focus plane).
    #[must_use]
    pub fn coc_radius_at_infinity(&self, camera: &CameraView, height: u32) -> f32 {
        let options = self.sanitized();
        // The projection's y scale is cot(fov_y / 2) = focal / (sensor / 2).
        let cot_half_fov = camera.projection.y_axis.y.abs();
        let focal = 0.5 * options.sensor_height * cot_half_fov;
        if !focal.is_finite() || focal <= 0.0 {
            return 0.0;
        }
        let focus = options.focus_distance.max(focal * 1.01);
        let diameter_on_sensor = focal * focal / (options.aperture_f_stops * (focus - focal));
        0.5 * diameter_on_sensor / options.sensor_height * height as f32
    }
}

/// The frame number that varies the gather's per-pixel spiral turn over
/// time: under TAA (which jitters the camera first) each frame's noise
/// differs and the history averages it away; without TAA the pattern stays
/// put, so a still image does not shimmer.
fn spiral_turn_frame(data: &FrameData) -> f32 {
    if data.slots.get::<TaaJitter>().is_some() {
        (data.time.frame % 64) as f32
    } else {
        0.0
    }
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct DofParams {
    inverse_projection: [[f32; 4]; 4],
    coc: [f32; 4],
}

/// The depth-of-field feature: reads [`Frame::hdr`] and [`Frame::depth`],
/// puts the blurred frame back. Register it after the lighting (and TAA),
/// before bloom and the tonemap. Without a depth buffer in the frame it
/// passes the frame through and logs that once.
#[derive(Debug, Default)]
pub struct DofFeature {
    /// Its settings; change them between frames with
    /// [`Renderer::feature_mut`](crate::Renderer::feature_mut) (a focus
    /// pull is a change of `focus_distance`).
    pub options: DofOptions,
    gpu: Option<Gpu>,
    warned_no_depth: std::sync::atomic::AtomicBool,
}

#[derive(Debug)]
struct Gpu {
    layout: wgpu::BindGroupLayout,
    coc: wgpu::RenderPipeline,
    gather: wgpu::RenderPipeline,
    smooth: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// Reads the depth texel by texel (see [`DEPTH_AS_FLOAT`]).
    depth_sampler: wgpu::Sampler,
}

/// Format of the per-pixel signed circle of confusion.
const COC_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R16Float;

impl DofFeature {
    /// A depth-of-field feature with these options.
    #[must_use]
    pub fn new(options: DofOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }
}

impl RenderFeature for DofFeature {
    fn name(&self) -> &'static str {
        "DepthOfField"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let filterable = wgpu::TextureSampleType::Float { filterable: true };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("depth of field"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, DEPTH_AS_FLOAT),
                texture_entry(2, filterable),
                texture_entry(3, filterable),
                sampler_entry(4, wgpu::SamplerBindingType::Filtering),
                sampler_entry(5, wgpu::SamplerBindingType::NonFiltering),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("dof.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                format!(
                    "{FULLSCREEN_VS_WGSL}{}",
                    crate::wgsl!("dof.wgsl"),
                    FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
                )
                .into(),
            ),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("depth of field"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |label, entry, format| {
            fullscreen_entry_pipeline(
                device,
                label,
                &module,
                entry,
                &pipeline_layout,
                format,
                None,
            )
        };
        self.gpu = Some(Gpu {
            coc: pipeline("dof circle of confusion", "fs_coc", COC_FORMAT),
            gather: pipeline("dof gather", "fs_gather", HDR_FORMAT),
            smooth: pipeline("dof smooth", "fs_smooth", HDR_FORMAT),
            params: uniform_buffer(device, "dof params", std::mem::size_of::<DofParams>()),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("dof"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            }),
            depth_sampler: nearest_sampler(device, "dof depth"),
            layout,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        let Some(state) = &self.gpu else { return };
        let options = self.options.sanitized();
        let inverse = data.camera.depth_projection().inverse();
        let params = DofParams {
            inverse_projection: if inverse.is_finite() {
                inverse.to_cols_array_2d()
            } else {
                glam::Mat4::IDENTITY.to_cols_array_2d()
            },
            coc: [
                options.coc_radius_at_infinity(&data.camera, data.size.1),
                options.focus_distance,
                options.max_radius,
                spiral_turn_frame(data),
            ],
        };
        gpu.queue()
            .write_buffer(&state.params, 0, bytemuck::bytes_of(&params));
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(scene)) = (&self.gpu, frame.hdr) else {
            return;
        };
        let Some(depth) = frame.depth else {
            if !self
                .warned_no_depth
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                log::warn!(
                    "depth of field: no depth buffer in the frame; the frame passes unblurred"
                );
            }
            return;
        };
        let (width, height) = frame.data.size;
        let coc_usage =
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let coc = frame.graph.create_texture(
            "circle of confusion",
            TextureDesc::new_2d(width, height, COC_FORMAT, coc_usage),
        );
        let coc = frame
            .graph
            .add_render_pass("dof circle of confusion", |pass| {
                pass.read_texture(depth);
                pass.read_texture(scene);
                let coc = pass.write_color(coc, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
                pass.execute(move |rp, res| {
                    // The CoC pass binds the scene as a stand-in for itself.
                    if let (Some(depth), Some(scene)) =
                        (res.texture_view(depth), res.texture_view(scene))
                    {
                        let group = gpu.group(res.device(), depth, scene, scene);
                        rp.set_pipeline(&gpu.coc);
                        rp.set_bind_group(0, &group, &[]);
                        rp.draw(0..3, 0..1);
                    }
                });
                coc
            });
        let gathered = gpu.add_pass(frame, "dof gather", &gpu.gather, [depth, scene, coc]);
        let smoothed = gpu.add_pass(frame, "dof smooth", &gpu.smooth, [depth, gathered, coc]);
        frame.hdr = Some(smoothed);
    }
}

impl Gpu {
    /// A full-screen pass of `pipeline` reading `[depth, scene, coc]` into
    /// a new HDR texture, which it returns.
    fn add_pass<'a>(
        &'a self,
        frame: &mut Frame<'a>,
        name: &'static str,
        pipeline: &'a wgpu::RenderPipeline,
        [depth, scene, coc]: [TextureHandle; 3],
    ) -> TextureHandle {
        let (width, height) = frame.data.size;
        let out = frame.graph.create_texture(
            "focused hdr",
            TextureDesc::new_2d(width, height, HDR_FORMAT, HDR_USAGE),
        );
        frame.graph.add_render_pass(name, |pass| {
            pass.read_texture(depth);
            pass.read_texture(scene);
            pass.read_texture(coc);
            let out = pass.write_color(out, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, res| {
                if let (Some(depth), Some(scene), Some(coc)) = (
                    res.texture_view(depth),
                    res.texture_view(scene),
                    res.texture_view(coc),
                ) {
                    let group = self.group(res.device(), depth, scene, coc);
                    rp.set_pipeline(pipeline);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            out
        })
    }

    fn group(
        &self,
        device: &wgpu::Device,
        depth: &wgpu::TextureView,
        scene: &wgpu::TextureView,
        coc: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("depth of field"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(depth),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(scene),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(coc),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: wgpu::BindingResource::Sampler(&self.depth_sampler),
                },
            ],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera(fov_y_degrees: f32) -> CameraView {
        CameraView {
            projection: glam::camera::rh::proj::directx::perspective(
                fov_y_degrees.to_radians(),
                16.0 / 9.0,
                0.1,
                100.0,
            ),
            ..CameraView::default()
        }
    }

    #[test]
    fn the_circle_follows_the_thin_lens() {
        let options = DofOptions {
            focus_distance: 2.0,
            aperture_f_stops: 2.0,
            sensor_height: 0.024,
            max_radius: 12.0,
        };
        // 2 x atan(12 / 50): a 50 mm lens on a 24 mm sensor.
        let fov = 2.0 * (12.0f32 / 50.0).atan().to_degrees();
        let radius = options.coc_radius_at_infinity(&camera(fov), 1000);
        // f^2 / (N (S - f)) = 0.0025 / (2 x 1.95) m on the sensor.
        let expected = 0.5 * (0.0025 / (2.0 * 1.95)) / 0.024 * 1000.0;
        assert!(
            (radius - expected).abs() < 1e-3 * expected,
            "{radius} vs {expected}"
        );
        // Wider aperture, nearer focus, longer lens: more blur.
        let wider = DofOptions {
            aperture_f_stops: 1.0,
            ..options
        };
        assert!(wider.coc_radius_at_infinity(&camera(fov), 1000) > radius * 1.9);
        let nearer = DofOptions {
            focus_distance: 1.0,
            ..options
        };
        assert!(nearer.coc_radius_at_infinity(&camera(fov), 1000) > radius * 1.9);
        assert!(options.coc_radius_at_infinity(&camera(fov / 2.0), 1000) > radius * 3.0);
    }

    #[test]
    fn bad_options_and_cameras_blur_nothing_wild() {
        let options = DofOptions {
            focus_distance: f32::NAN,
            aperture_f_stops: -1.0,
            sensor_height: 0.0,
            max_radius: 1e9,
        }
        .sanitized();
        assert_eq!(options.focus_distance, DofOptions::default().focus_distance);
        assert_eq!(
            options.aperture_f_stops,
            DofOptions::default().aperture_f_stops
        );
        assert_eq!(options.max_radius, 64.0);
        let degenerate = CameraView {
            projection: glam::Mat4::ZERO,
            ..CameraView::default()
        };
        assert_eq!(options.coc_radius_at_infinity(&degenerate, 720), 0.0);
    }

    #[test]
    fn the_spiral_turns_with_the_frame_only_under_taa() {
        let mut data = FrameData::default();
        data.time.frame = 70;
        assert_eq!(spiral_turn_frame(&data), 0.0);
        data.slots.insert(TaaJitter {
            offset: glam::Vec2::ZERO,
            unjittered_projection: glam::Mat4::IDENTITY,
        });
        assert_eq!(spiral_turn_frame(&data), 6.0);
    }
}
