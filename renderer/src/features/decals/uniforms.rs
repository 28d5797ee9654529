//! Each drawn decal's uniform (its box, tint and fade), packed into one
//! buffer read at a dynamic offset per draw.

use super::draw::{DecalDraw, FADE_START, FORWARD_ROUGHNESS};
use crate::GpuContext;

/// `Decal` in `decal.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct DecalUniform {
    world: [[f32; 4]; 4],
    to_box: [[f32; 4]; 4],
    tint: [f32; 4],
    params: [f32; 4],
}

impl DecalUniform {
    /// The uniform of a decal that passed [`DecalDraw::check`].
    pub(crate) fn new(decal: &DecalDraw) -> Self {
        let world = glam::Mat4::from(decal.world);
        let (hidden, full) = fade_cosines(decal.fade_angle);
        let flags = u32::from(decal.normal.is_some()) + 2 * u32::from(decal.roughness.is_some());
        Self {
            world: world.to_cols_array_2d(),
            to_box: world.inverse().to_cols_array_2d(),
            tint: decal.tint.to_array(),
            params: [hidden, full, flags as f32, FORWARD_ROUGHNESS],
        }
    }
}

/// The cosines between surface normal and the box's +Z at which the decal
/// is hidden and at full strength. A fade angle of PI or more never hides
/// it; the angle is at least a thousandth of a radian.
pub(crate) fn fade_cosines(fade_angle: f32) -> (f32, f32) {
    if fade_angle >= std::f32::consts::PI {
        return (-3.0, -2.0);
    }
    let angle = fade_angle.max(1e-3);
    let (hidden, full) = (angle.cos(), (angle * FADE_START).cos());
    // smoothstep needs distinct edges.
    (hidden, full.max(hidden + 1e-6))
}

/// The buffer of this frame's decal uniforms, one slice per draw.
#[derive(Debug)]
pub(crate) struct DecalUniforms {
    buffer: wgpu::Buffer,
    stride: u64,
    staging: Vec<u8>,
}

/// Bytes of one uniform.
pub(crate) const UNIFORM_SIZE: u64 = std::mem::size_of::<DecalUniform>() as u64;

impl DecalUniforms {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let alignment = u64::from(device.limits().min_uniform_buffer_offset_alignment);
        let stride = UNIFORM_SIZE.div_ceil(alignment) * alignment;
        Self {
            buffer: buffer(device, stride * 16),
            stride,
            staging: Vec::new(),
        }
    }

    /// Uploads `uniforms`, growing the buffer when they do not fit.
    pub(crate) fn upload(
        &mut self,
        gpu: &GpuContext,
        uniforms: impl Iterator<Item = DecalUniform>,
    ) {
        self.staging.clear();
        for uniform in uniforms {
            let start = self.staging.len();
            self.staging.extend_from_slice(bytemuck::bytes_of(&uniform));
            self.staging.resize(start + self.stride as usize, 0);
        }
        let needed = self.staging.len() as u64;
        if needed == 0 {
            return;
        }
        if needed > self.buffer.size() {
            self.buffer = buffer(gpu.device(), needed.next_power_of_two());
        }
        gpu.queue().write_buffer(&self.buffer, 0, &self.staging);
    }

    /// The dynamic offset of draw `index`.
    pub(crate) fn offset(&self, index: usize) -> u32 {
        (index as u64 * self.stride) as u32
    }

    /// The binding of one uniform (bound at each draw's offset).
    pub(crate) fn binding(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(UNIFORM_SIZE),
        })
    }
}

fn buffer(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("decal uniforms"),
        size,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fade_hides_beyond_its_angle_and_starts_before() {
        let (hidden, full) = fade_cosines(80f32.to_radians());
        assert!((hidden - 80f32.to_radians().cos()).abs() < 1e-6);
        assert!(full > hidden);
        // A wall at 90 degrees lies beyond an 80-degree fade: cos 90 = 0.
        assert!(0.0 < hidden);
        assert_eq!(fade_cosines(4.0), (-3.0, -2.0));
        let (hidden, full) = fade_cosines(0.0);
        assert!(full > hidden && hidden < 1.0);
    }

    #[test]
    fn the_uniform_matches_the_wgsl_struct() {
        // world, to_box: 2 x 64 bytes; tint, params: 2 x 16.
        assert_eq!(UNIFORM_SIZE, 160);
    }
}
