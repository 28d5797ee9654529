//! The uniform blocks the particle shaders read, laid out as `draw.wgsl`
//! and `simulate.wgsl` declare them.

use glam::{Affine3A, Mat4, Vec3};

use super::curve::CURVE_SAMPLES;
use super::effect::ParticleEffect;
use crate::frame::CameraView;

/// `draw.wgsl`'s `View`.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct ViewUniform {
    view_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    inverse_depth_projection: [[f32; 4]; 4],
    size: [f32; 4],
}

/// A finite matrix, or the identity.
fn finite(matrix: Mat4) -> [[f32; 4]; 4] {
    if matrix.is_finite() {
        matrix.to_cols_array_2d()
    } else {
        Mat4::IDENTITY.to_cols_array_2d()
    }
}

impl ViewUniform {
    /// The camera as the particles are drawn: `projection` is the one
    /// without TAA's jitter (they are drawn after TAA resolves).
    pub(crate) fn new(camera: &CameraView, projection: Mat4, size: (u32, u32)) -> Self {
        Self {
            view_proj: finite(projection * camera.view),
            view: finite(camera.view),
            inverse_depth_projection: finite(camera.depth_projection().inverse()),
            size: [size.0.max(1) as f32, size.1.max(1) as f32, 0.0, 0.0],
        }
    }
}

/// `draw.wgsl`'s `Emitter`.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct EmitterUniform {
    world: [[f32; 4]; 4],
    color: [[f32; 4]; CURVE_SAMPLES],
    size: [[f32; 4]; CURVE_SAMPLES / 4],
    rotation: [[f32; 4]; CURVE_SAMPLES / 4],
    flipbook: [f32; 4],
    options: [f32; 4],
}

/// Sixteen samples as four vec4s.
fn packed(samples: [f32; CURVE_SAMPLES]) -> [[f32; 4]; CURVE_SAMPLES / 4] {
    std::array::from_fn(|i| std::array::from_fn(|j| samples[i * 4 + j]))
}

impl EmitterUniform {
    /// The draw settings of `effect`; `world` places local-space particles
    /// (the identity for world space).
    pub(crate) fn new(effect: &ParticleEffect, world: Mat4, textured: bool) -> Self {
        let step = 1.0 / (CURVE_SAMPLES - 1) as f32;
        let flipbook = effect.flipbook.map_or([1.0, 1.0, 1.0, 0.0], |book| {
            [
                book.columns.clamp(1, 256) as f32,
                book.rows.clamp(1, 256) as f32,
                effect.flipbook_frames() as f32,
                book.fps,
            ]
        });
        let random_start = effect.flipbook.is_some_and(|book| book.random_start);
        let first_cell = effect.flipbook.map_or(0, |book| book.first_cell);
        Self {
            world: finite(world),
            color: std::array::from_fn(|i| effect.color_at(i as f32 * step).to_array()),
            size: packed(effect.size_over_life.baked()),
            rotation: packed(effect.rotation_over_life.baked()),
            flipbook,
            options: [
                effect.soft_distance,
                if textured { 1.0 } else { 0.0 },
                if random_start { 1.0 } else { 0.0 },
                first_cell as f32,
            ],
        }
    }
}

/// `simulate.wgsl`'s `Step`.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct StepUniform {
    view_proj: [[f32; 4]; 4],
    inverse_view_proj: [[f32; 4]; 4],
    gravity_dt: [f32; 4],
    motion: [f32; 4],
    camera: [f32; 4],
    counts: [u32; 4],
}

impl StepUniform {
    /// One step of `effect`'s ring of `slots`, colliding against the depth
    /// buffer `camera` rasterised when `collide`.
    pub(crate) fn new(
        effect: &ParticleEffect,
        step: &super::simulate::Step,
        camera: &CameraView,
        slots: u32,
        collide: bool,
    ) -> Self {
        let view_proj = camera.depth_view_proj();
        let collision = effect.collision.unwrap_or_default();
        Self {
            view_proj: finite(view_proj),
            inverse_view_proj: finite(view_proj.inverse()),
            gravity_dt: step.gravity.extend(step.dt).to_array(),
            motion: [
                step.damping(),
                collision.restitution,
                collision.friction,
                collision.thickness,
            ],
            camera: camera.position.extend(1.0).to_array(),
            counts: [slots, u32::from(collide), 0, 0],
        }
    }
}

/// Gravity in the particles' space: as given in world space, turned into
/// the emitter's space for local simulation.
pub(crate) fn gravity_in_space(effect: &ParticleEffect, world: &Affine3A) -> Vec3 {
    match effect.space {
        super::effect::SimulationSpace::World => effect.gravity,
        super::effect::SimulationSpace::Local => {
            let inverse = world.matrix3.inverse();
            let local = inverse * effect.gravity;
            if local.is_finite() { local } else { Vec3::ZERO }
        }
    }
}
