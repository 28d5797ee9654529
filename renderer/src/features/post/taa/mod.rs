//! Temporal anti-aliasing: every frame samples the scene at a different
//! spot inside each pixel, and a history blended over frames turns those
//! samples into smooth edges and stable thin geometry.
//!
//! - **Jitter.** In `early_update`, before any feature reads the camera,
//!   the projection moves by a sub-pixel offset from the Halton (2, 3)
//!   sequence ([`jitter_offset`]). The renderer gives the caller its
//!   unjittered camera back after the frame.
//! - **Reprojection.** Each pixel finds where its surface was last frame:
//!   from the depth and the camera's motion, or, for items that moved
//!   ([`MovingDraw`](crate::frame::MovingDraw)), from motion vectors drawn
//!   from their last and current world matrices. The nearest surface in
//!   the 3x3 neighbourhood lends its motion, so edges move with it.
//! - **Clamping.** The history is clipped to this frame's neighbourhood
//!   (variance clipping in YCoCg), so what is no longer there fades at once
//!   instead of leaving a ghost.
//! - **Reset.** The history starts over on the first frame, on a resize,
//!   on a camera cut ([`TaaOptions::cut_distance`], [`TaaOptions::cut_angle`]),
//!   after frames rendered without TAA, and on
//!   [`TaaFeature::reset_history`].
//!
//! Register it after the lighting and before depth of field, bloom and the
//! tonemap (the presets do). MSAA is unneeded under TAA: see the book's
//! post chapter for how the two combine.

mod history;
mod jitter;
mod motion;

use std::sync::atomic::{AtomicBool, Ordering};

use glam::{Mat4, Vec2};

pub use jitter::{halton, jitter_offset, jittered_projection};

use self::history::{FrameCamera, History, is_camera_cut};
use self::motion::{MOTION_FORMAT, MotionCameras, MotionVectors};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, fullscreen_pipeline, fullscreen_vs_wgsl, nearest_sampler, sampler_entry,
    single_texel, texture_entry, uniform_buffer, uniform_entry,
};
use crate::frame::{FrameData, HDR_FORMAT};
use crate::graph::{ImportedTexture, TextureDesc};
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// TAA settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaaOptions {
    /// The smallest weight a new frame gets in the blend (0..1). A pixel
    /// averages its first `1 / blend` frames evenly, then keeps this
    /// weight: smaller is smoother, larger follows changes of light
    /// sooner. 1/16 by default (a 16-sample average once converged).
    pub blend: f32,
    /// How many jitter positions the sequence cycles through (8 or 16 are
    /// usual). 16 by default.
    pub jitter_samples: u32,
    /// How far a still pixel's history may lie outside the colours of
    /// its neighbourhood this frame (in colour compressed to 0..1 by
    /// `c / (1 + luma)`) before it is clipped. Larger keeps sub-pixel
    /// detail steadier, smaller lets changes of light through faster.
    /// Moving pixels are always clipped tightly. 0.2 by default.
    pub still_margin: f32,
    /// A camera move longer than this in one frame, in metres, is a cut:
    /// the history starts over. 10 by default.
    pub cut_distance: f32,
    /// A camera turn sharper than this in one frame, in radians, is a cut.
    /// 60 degrees by default.
    pub cut_angle: f32,
}

impl Default for TaaOptions {
    fn default() -> Self {
        Self {
            blend: 1.0 / 16.0,
            jitter_samples: 16,
            still_margin: 0.2,
            cut_distance: 10.0,
            cut_angle: 60f32.to_radians(),
        }
    }
}

impl TaaOptions {
    /// The options with non-finite or out-of-range values replaced.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let defaults = Self::default();
        let finite_or = |value: f32, fallback: f32| {
            if value.is_finite() { value } else { fallback }
        };
        Self {
            blend: finite_or(self.blend, defaults.blend).clamp(0.01, 1.0),
            jitter_samples: self.jitter_samples.clamp(1, 1024),
            still_margin: finite_or(self.still_margin, defaults.still_margin).clamp(0.0, 1.0),
            cut_distance: finite_or(self.cut_distance, defaults.cut_distance).max(0.0),
            cut_angle: finite_or(self.cut_angle, defaults.cut_angle).max(0.0),
        }
    }
}

/// This frame's jitter, in [`FrameData::slots`] for features that want the
/// camera without it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaaJitter {
    /// Offset from the pixel centre in pixels (x right, y down).
    pub offset: Vec2,
    /// The projection before the jitter.
    pub unjittered_projection: Mat4,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ResolveParams {
    inverse_view_proj: [[f32; 4]; 4],
    view_proj: [[f32; 4]; 4],
    previous_view_proj: [[f32; 4]; 4],
    texel: [f32; 4],
    settings: [f32; 4],
}

/// The TAA feature: jitters the camera, draws motion vectors for moved
/// items, and resolves [`Frame::hdr`] against its history (see the module
/// docs). Without a depth buffer in the frame it passes the frame through
/// and logs that once.
#[derive(Debug, Default)]
pub struct TaaFeature {
    /// Its settings; change them between frames with
    /// [`Renderer::feature_mut`](crate::Renderer::feature_mut).
    pub options: TaaOptions,
    gpu: Option<Gpu>,
    history: Option<History>,
    /// Frames resolved so far (the jitter index).
    frames: u64,
    /// This frame's camera without jitter, and the last rendered frame's.
    current: Option<FrameCamera>,
    previous: Option<FrameCamera>,
    /// The last rendered frame's number ([`FrameTime::frame`](crate::frame::FrameTime)).
    last_frame_number: Option<u64>,
    reset_requested: bool,
    /// Whether this frame's passes ignore the history.
    resetting: bool,
    moved_items: bool,
    resolved: AtomicBool,
    warned_no_depth: AtomicBool,
}

#[derive(Debug)]
struct Gpu {
    layout: wgpu::BindGroupLayout,
    resolve: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// Reads the depth texel by texel (see [`DEPTH_AS_FLOAT`]).
    depth_sampler: wgpu::Sampler,
    no_motion: wgpu::TextureView,
    motion: MotionVectors,
}

impl TaaFeature {
    /// A TAA feature with these options.
    #[must_use]
    pub fn new(options: TaaOptions) -> Self {
        Self {
            options,
            ..Self::default()
        }
    }

    /// Starts the history over on the next frame: call it on a cut the
    /// automatic test cannot see (a new level with the camera where it was).
    pub fn reset_history(&mut self) {
        self.reset_requested = true;
    }

    /// Whether the last rendered frame ignored the history (first frame,
    /// resize, cut, reset).
    #[must_use]
    pub fn history_was_reset(&self) -> bool {
        self.resetting
    }

    /// Items drawn into the last frame's motion vectors (the opaque ones
    /// that moved).
    #[must_use]
    pub fn moved_draws(&self) -> usize {
        self.gpu.as_ref().map_or(0, |gpu| gpu.motion.count())
    }

    /// The jitter offset, in pixels, the next frame will use.
    #[must_use]
    pub fn next_jitter(&self) -> Vec2 {
        jitter_offset(self.frames, self.options.sanitized().jitter_samples)
    }
}

impl RenderFeature for TaaFeature {
    fn name(&self) -> &'static str {
        "Taa"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let float = wgpu::TextureSampleType::Float { filterable: false };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("taa resolve"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, float),
                texture_entry(2, DEPTH_AS_FLOAT),
                texture_entry(3, float),
                texture_entry(4, wgpu::TextureSampleType::Float { filterable: true }),
                sampler_entry(5, wgpu::SamplerBindingType::Filtering),
                sampler_entry(6, wgpu::SamplerBindingType::NonFiltering),
            ],
        });
        let source = format!(
            "{FULLSCREEN_VS_WGSL}{}",
            crate::wgsl!("resolve.wgsl"),
            FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
        );
        let no_motion = single_texel(
            device,
            "taa no motion",
            MOTION_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        self.gpu = Some(Gpu {
            resolve: fullscreen_pipeline(device, "taa resolve", &source, &layout, HDR_FORMAT),
            params: uniform_buffer(device, "taa params", std::mem::size_of::<ResolveParams>()),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("taa history"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                address_mode_u: wgpu::AddressMode::ClampToEdge,
                address_mode_v: wgpu::AddressMode::ClampToEdge,
                ..Default::default()
            }),
            depth_sampler: nearest_sampler(device, "taa depth"),
            no_motion: no_motion.create_view(&Default::default()),
            motion: MotionVectors::new(device),
            layout,
        });
    }

    fn early_update(&mut self, data: &mut FrameData) {
        let camera = data.camera;
        self.current = Some(FrameCamera::new(camera));
        let offset = self.next_jitter();
        data.camera.projection = jittered_projection(camera.projection, offset, data.size);
        data.slots.insert(TaaJitter {
            offset,
            unjittered_projection: camera.projection,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, assets: &Assets) {
        let Some(state) = &mut self.gpu else { return };
        let Some(current) = self.current else { return };
        let options = self.options.sanitized();
        let size = (data.size.0.max(1), data.size.1.max(1));
        if self.history.as_ref().is_none_or(|h| h.size() != size) {
            self.history = Some(History::new(gpu.device(), size));
        }
        let skipped_frames = self
            .last_frame_number
            .is_some_and(|last| data.time.frame > last + 1);
        let previous = self.previous.filter(|previous| {
            !is_camera_cut(
                &previous.view,
                &current.view,
                options.cut_distance,
                options.cut_angle,
            )
        });
        let history_valid = self.history.as_ref().is_some_and(History::valid);
        self.resetting =
            self.reset_requested || skipped_frames || previous.is_none() || !history_valid;
        let previous_view_proj = previous.map_or(current.view_proj, |p| p.view_proj);
        self.moved_items = !self.resetting
            && state.motion.update(
                gpu,
                &data.buckets,
                assets,
                MotionCameras {
                    rasterised: data.camera.depth_view_proj(),
                    current: current.view_proj,
                    previous: previous_view_proj,
                },
            );
        let inverse = data.camera.depth_view_proj().inverse();
        let params = ResolveParams {
            inverse_view_proj: if inverse.is_finite() {
                inverse.to_cols_array_2d()
            } else {
                Mat4::IDENTITY.to_cols_array_2d()
            },
            view_proj: current.view_proj.to_cols_array_2d(),
            previous_view_proj: previous_view_proj.to_cols_array_2d(),
            texel: [
                1.0 / size.0 as f32,
                1.0 / size.1 as f32,
                size.0 as f32,
                size.1 as f32,
            ],
            settings: [
                options.blend,
                if self.resetting { 1.0 } else { 0.0 },
                if self.moved_items { 1.0 } else { 0.0 },
                options.still_margin,
            ],
        };
        gpu.queue()
            .write_buffer(&state.params, 0, bytemuck::bytes_of(&params));
        self.last_frame_number = Some(data.time.frame);
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(history), Some(scene)) = (&self.gpu, &self.history, frame.hdr) else {
            return;
        };
        let Some(depth) = frame.depth else {
            if !self.warned_no_depth.swap(true, Ordering::Relaxed) {
                log::warn!("taa: no depth buffer in the frame; the frame passes unresolved");
            }
            return;
        };
        if history.size() != frame.data.size {
            return;
        }
        let (width, height) = history.size();
        let assets = frame.assets;
        let motion = self.moved_items.then(|| {
            let usage =
                wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
            let target = frame.graph.create_texture(
                "motion vectors",
                TextureDesc::new_2d(width, height, MOTION_FORMAT, usage),
            );
            frame.graph.add_render_pass("taa motion", |pass| {
                let target =
                    pass.write_color(target, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT));
                pass.read_depth(depth);
                pass.execute(move |rp, _| gpu.motion.draw(rp, assets));
                target
            })
        });
        let latest = frame.graph.import_texture(
            "taa history",
            ImportedTexture::new(history.latest().clone()),
        );
        let next = frame
            .graph
            .import_texture("taa resolved", ImportedTexture::new(history.next().clone()));
        frame.hdr = Some(frame.graph.add_render_pass("taa resolve", |pass| {
            pass.read_texture(scene);
            pass.read_texture(depth);
            pass.read_texture(latest);
            if let Some(motion) = motion {
                pass.read_texture(motion);
            }
            let next = pass.write_color(next, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, res| {
                let motion = motion.map_or(Some(&gpu.no_motion), |m| res.texture_view(m));
                if let (Some(scene), Some(depth), Some(latest), Some(motion)) = (
                    res.texture_view(scene),
                    res.texture_view(depth),
                    res.texture_view(latest),
                    motion,
                ) {
                    let group = gpu.group(res.device(), [scene, depth, motion, latest]);
                    rp.set_pipeline(&gpu.resolve);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            next
        }));
        self.resolved.store(true, Ordering::Relaxed);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, _stats: &mut RenderStats) {
        if self.resolved.swap(false, Ordering::Relaxed) {
            if let Some(history) = &mut self.history {
                history.advance();
            }
            self.previous = self.current;
            self.frames += 1;
            self.reset_requested = false;
        } else if let Some(history) = &mut self.history {
            history.invalidate();
        }
    }
}

impl Gpu {
    /// The resolve's bind group over the scene, depth, motion and history views.
    fn group(&self, device: &wgpu::Device, views: [&wgpu::TextureView; 4]) -> wgpu::BindGroup {
        let [scene, depth, motion, history] = views;
        let view = |binding, view| wgpu::BindGroupEntry {
            binding,
            resource: wgpu::BindingResource::TextureView(view),
        };
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("taa resolve"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.params.as_entire_binding(),
                },
                view(1, scene),
                view(2, depth),
                view(3, motion),
                view(4, history),
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 6,
                    resource: wgpu::BindingResource::Sampler(&self.depth_sampler),
                },
            ],
        })
    }
}
