//! The godray passes: light shafts from the sun and moon
//! (`shaders/godrays.wgsl`), the sky around the light, where no block hides
//! it, gathered along the way to the light's place on screen.
//!
//! Reads the frame bind group, `frame.hdr` and `frame.depth`; writes a
//! half-size mask of the sky around the light, then adds the shafts to a
//! new version of `frame.hdr`. No passes while the light is off screen,
//! under water, or the game turned them off.

use glam::{Mat4, Vec2, Vec3};
use taos_engine::renderer::features::HDR_FORMAT;
use taos_engine::renderer::graph::TextureDesc;
use taos_engine::renderer::wgpu;
use taos_engine::renderer::{Frame, FrameData};

use crate::render::handle::Godrays;
use crate::render::shared::{
    CraftyShader, FrameBindings, FrameInputs, PassSetup, PipelineSpec, TARGET_USAGE, pipeline,
};
use crate::time_of_day::SkyLighting;

/// Steps each pixel takes towards the light.
const STEPS: f32 = 32.0;

/// The shafts' uniform; mirrors `GodrayUniform` in `shaders/godrays.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct GodrayUniform {
    light: [f32; 4],
    direction: [f32; 4],
    sizes: [f32; 4],
}

/// The two godray passes: a half-size mask of the sky around the light,
/// then the march that adds the shafts to the frame.
#[derive(Debug)]
pub(crate) struct GodrayPasses {
    mask: wgpu::RenderPipeline,
    rays: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    uniform_group: wgpu::BindGroup,
    scene_layout: wgpu::BindGroupLayout,
    mask_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    /// Reads the depth texel by texel (nearest, no filtering).
    depth_sampler: wgpu::Sampler,
    /// This frame's strength (0: no passes).
    strength: f32,
}

fn entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty,
        count: None,
    }
}

fn texture(sample_type: wgpu::TextureSampleType) -> wgpu::BindingType {
    wgpu::BindingType::Texture {
        sample_type,
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled: false,
    }
}

const UNIFORM: wgpu::BindingType = wgpu::BindingType::Buffer {
    ty: wgpu::BufferBindingType::Uniform,
    has_dynamic_offset: false,
    min_binding_size: None,
};

impl GodrayPasses {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let (device, frame_layout) = (setup.device, setup.frame_layout);
        let module = &setup.module(CraftyShader::Godrays);
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
        };
        let scene_layout = layout(
            "crafty godray scene",
            &[
                entry(0, UNIFORM),
                entry(
                    1,
                    texture(wgpu::TextureSampleType::Float { filterable: false }),
                ),
                // The depth, read as unfilterable floats through a nearest
                // sampler (see the shader: WebGL2 has no texel fetch of a
                // depth texture without one).
                entry(
                    2,
                    texture(wgpu::TextureSampleType::Float { filterable: false }),
                ),
                entry(
                    3,
                    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                ),
            ],
        );
        let uniform_layout = layout("crafty godray uniform", &[entry(0, UNIFORM)]);
        let mask_layout = layout(
            "crafty godray mask",
            &[
                entry(
                    0,
                    texture(wgpu::TextureSampleType::Float { filterable: true }),
                ),
                entry(
                    1,
                    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                ),
            ],
        );
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("crafty godrays"),
            size: std::mem::size_of::<GodrayUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let uniform_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("crafty godray uniform"),
            layout: &uniform_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        let mask_pipeline_layout =
            setup.layout("crafty godray mask", &[frame_layout, &scene_layout]);
        let rays_pipeline_layout = setup.layout(
            "crafty godrays",
            &[frame_layout, &uniform_layout, &mask_layout],
        );
        let fullscreen = |label, layout, fragment, blend| {
            pipeline(
                device,
                &PipelineSpec {
                    label,
                    module,
                    layout,
                    fragment,
                    instanced_quads: false,
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    blend,
                    depth: None,
                },
            )
        };
        let additive = wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::OVER,
        };
        Self {
            mask: fullscreen("crafty godray mask", &mask_pipeline_layout, "fs_mask", None),
            rays: fullscreen(
                "crafty godrays",
                &rays_pipeline_layout,
                "fs_rays",
                Some(additive),
            ),
            uniform,
            uniform_group,
            scene_layout,
            mask_layout,
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("crafty godray mask"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            }),
            depth_sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("crafty godray depth"),
                ..Default::default()
            }),
            strength: 0.0,
        }
    }

    /// Decides this frame's shafts from the [light](shaft_light) (the sun
    /// while it is up, else the moon): as strong as the game's settings say
    /// while the light is on or near the screen, weaker under cloud, none
    /// under water; uploads where the light is.
    pub(crate) fn update(&mut self, queue: &wgpu::Queue, data: &FrameData, inputs: &FrameInputs) {
        let settings = if inputs.underwater {
            Godrays::OFF
        } else {
            inputs.godrays
        };
        let view_proj = data.camera.depth_view_proj();
        let towards_light = shaft_light(&inputs.light);
        let overcast = inputs.weather.overcast;
        let size = data.size;
        let strength = if settings.strength.is_finite() {
            settings.strength.clamp(0.0, 4.0)
        } else {
            0.0
        };
        let overcast = if overcast.is_finite() {
            overcast.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let towards_light = towards_light.normalize_or_zero();
        let (uv, on_screen) =
            light_on_screen(view_proj, towards_light).unwrap_or((Vec2::ZERO, 0.0));
        self.strength = strength * on_screen * (1.0 - 0.85 * overcast);
        let (width, height) = size;
        let (mask_width, mask_height) = mask_size(size);
        let uniform = GodrayUniform {
            light: [uv.x, uv.y, self.strength, STEPS],
            direction: towards_light.extend(0.0).to_array(),
            sizes: [
                mask_width as f32,
                mask_height as f32,
                width as f32,
                height as f32,
            ],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
    }

    /// Adds the mask and rays passes after everything drawn so far (they
    /// read `frame.hdr` and `frame.depth`); nothing when there are no
    /// shafts this frame.
    pub(crate) fn add_passes<'a>(&'a self, frame: &mut Frame<'a>, bindings: &'a FrameBindings) {
        let (Some(hdr), Some(depth)) = (frame.hdr, frame.depth) else {
            return;
        };
        if self.strength < 1e-3 {
            return;
        }
        let (width, height) = mask_size(frame.data.size);
        let mask = frame.graph.create_texture(
            "godray mask",
            TextureDesc::new_2d(width, height, HDR_FORMAT, TARGET_USAGE),
        );
        let mask = frame.graph.add_render_pass("crafty godray mask", |pass| {
            pass.read_texture(hdr);
            pass.read_texture(depth);
            let mask = pass.write_color(mask, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT));
            pass.execute(move |rp, res| {
                let (Some(scene), Some(depth)) = (res.texture_view(hdr), res.texture_view(depth))
                else {
                    return;
                };
                let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("crafty godray scene"),
                    layout: &self.scene_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: self.uniform.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::TextureView(scene),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: wgpu::BindingResource::TextureView(depth),
                        },
                        wgpu::BindGroupEntry {
                            binding: 3,
                            resource: wgpu::BindingResource::Sampler(&self.depth_sampler),
                        },
                    ],
                });
                rp.set_pipeline(&self.mask);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.set_bind_group(1, &group, &[]);
                rp.draw(0..3, 0..1);
            });
            mask
        });
        frame.hdr = Some(frame.graph.add_render_pass("crafty godrays", |pass| {
            pass.read_texture(mask);
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            pass.execute(move |rp, res| {
                let Some(mask) = res.texture_view(mask) else {
                    return;
                };
                let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("crafty godray mask"),
                    layout: &self.mask_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(mask),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Sampler(&self.sampler),
                        },
                    ],
                });
                rp.set_pipeline(&self.rays);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.set_bind_group(1, &self.uniform_group, &[]);
                rp.set_bind_group(2, &group, &[]);
                rp.draw(0..3, 0..1);
            });
            hdr
        }));
    }

    /// Whether the last update decided on shafts this frame.
    pub(crate) fn active(&self) -> bool {
        self.strength >= 1e-3
    }
}

/// Where light shafts come from: the sun while any of its disc is above
/// the horizon (the sky's light may already be the moon's), else the moon,
/// opposite it.
fn shaft_light(light: &SkyLighting) -> Vec3 {
    // The sun disc's radius in the sky shader, as a sine.
    const SUN_RADIUS: f32 = 0.06;
    if light.sun_direction.y > -SUN_RADIUS {
        light.sun_direction
    } else {
        -light.sun_direction
    }
}

/// The mask's size: half the frame's, at least one texel.
fn mask_size((width, height): (u32, u32)) -> (u32, u32) {
    ((width / 2).max(1), (height / 2).max(1))
}

/// Where a light in direction `towards_light` appears on screen through
/// `view_proj` (reversed-Z or not), in uv (0..1 across the frame, y down),
/// and how much it counts: 1 on screen, fading to 0 well beyond the edge.
/// `None` when the light is behind the camera.
fn light_on_screen(view_proj: Mat4, towards_light: Vec3) -> Option<(Vec2, f32)> {
    let towards_light = towards_light.normalize_or_zero();
    // A direction is a point at infinity: w = 0.
    let clip = view_proj * towards_light.extend(0.0);
    if !clip.is_finite() || clip.w <= 1e-4 {
        return None;
    }
    let ndc = clip.truncate().truncate() / clip.w;
    let beyond = ndc.abs().max_element();
    let weight = 1.0 - smoothstep(1.0, 1.8, beyond);
    let uv = Vec2::new(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    (weight > 0.0).then_some((uv, weight))
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view_proj(forward: Vec3) -> Mat4 {
        let eye = Vec3::new(0.0, 70.0, 0.0);
        glam::camera::rh::proj::directx::perspective(1.2, 16.0 / 9.0, 0.1, 500.0)
            * glam::camera::rh::view::look_at_mat4(eye, eye + forward, Vec3::Y)
    }

    #[test]
    fn a_light_ahead_is_on_screen_and_one_behind_is_not() {
        let ahead = Vec3::new(-1.0, 0.2, 0.0).normalize();
        let (uv, weight) = light_on_screen(view_proj(Vec3::NEG_X), ahead).expect("ahead");
        assert!((uv.x - 0.5).abs() < 1e-4, "straight ahead: {uv}");
        assert!(uv.y < 0.5, "above the horizon is the upper half: {uv}");
        assert_eq!(weight, 1.0);
        assert!(light_on_screen(view_proj(Vec3::X), ahead).is_none());
    }

    #[test]
    fn a_light_off_to_the_side_fades_out() {
        let forward = Vec3::NEG_Z;
        let near_edge = Vec3::new(0.9, 0.1, -1.0).normalize();
        let far_off = Vec3::new(3.0, 0.1, -1.0).normalize();
        let (_, near_weight) = light_on_screen(view_proj(forward), near_edge).expect("in view");
        let far = light_on_screen(view_proj(forward), far_off);
        assert!(near_weight > 0.0);
        assert!(far.is_none_or(|(_, w)| w < near_weight), "{far:?}");
    }
}
