//! Point and spot lights as the lit shaders read them: one packed array of
//! [`GpuLight`]s in a storage buffer (no cap), or, on backends whose
//! fragment stage has no storage buffers (WebGL2), a fixed uniform array of
//! [`UNIFORM_LIGHT_CAP`] entries whose overflow is counted, never hidden.

use crate::frame::Lights;

/// Most lights a uniform light array holds (64 bytes each: 8 KiB, half of
/// the 16 KiB uniform block every backend guarantees).
pub const UNIFORM_LIGHT_CAP: usize = 128;

/// Kind tag of a [`GpuLight`] (its `outer_kind.y`).
const KIND_POINT: f32 = 0.0;
const KIND_SPOT: f32 = 1.0;

/// One point or spot light, 64 bytes, std140/std430 compatible.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct GpuLight {
    /// World position, range.
    pub(crate) position_range: [f32; 4],
    /// Linear colour, intensity.
    pub(crate) color_intensity: [f32; 4],
    /// Spot direction (unit), cosine of the inner angle; zero for points.
    pub(crate) direction_inner: [f32; 4],
    /// Cosine of the outer angle, kind (0 point, 1 spot), unused, unused.
    pub(crate) outer_kind: [f32; 4],
}

/// How the lit shaders receive the light array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LightBinding {
    /// A read-only storage buffer: every light, no cap.
    Storage,
    /// A uniform array of [`UNIFORM_LIGHT_CAP`] lights; the rest are dropped
    /// and counted in [`RenderStats::lights_dropped`](crate::RenderStats::lights_dropped).
    Uniform,
}

impl LightBinding {
    /// Storage where the device's fragment stage has storage buffers,
    /// otherwise the uniform fallback.
    #[must_use]
    pub fn for_device(device: &wgpu::Device) -> Self {
        if device.limits().max_storage_buffers_per_shader_stage >= 2 {
            Self::Storage
        } else {
            Self::Uniform
        }
    }

    /// The WGSL declaration of `lights` at `@group(0) @binding(1)`.
    pub(crate) fn declaration(self) -> String {
        match self {
            Self::Storage => {
                "@group(0) @binding(1) var<storage, read> lights: array<Light>;\n".to_owned()
            }
            Self::Uniform => format!(
                "@group(0) @binding(1) var<uniform> lights: array<Light, {UNIFORM_LIGHT_CAP}>;\n"
            ),
        }
    }

    fn usage(self) -> wgpu::BufferUsages {
        let binding = match self {
            Self::Storage => wgpu::BufferUsages::STORAGE,
            Self::Uniform => wgpu::BufferUsages::UNIFORM,
        };
        binding | wgpu::BufferUsages::COPY_DST
    }

    /// The bind-group layout entry for the light array.
    pub(crate) fn layout_entry(
        self,
        binding: u32,
        visibility: wgpu::ShaderStages,
    ) -> wgpu::BindGroupLayoutEntry {
        let ty = match self {
            Self::Storage => wgpu::BufferBindingType::Storage { read_only: true },
            Self::Uniform => wgpu::BufferBindingType::Uniform,
        };
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }
    }
}

/// Packs every point light, then every spot light, into `out` (cleared first).
pub(crate) fn pack_lights(lights: &Lights, out: &mut Vec<GpuLight>) {
    out.clear();
    out.extend(lights.points.iter().map(|light| GpuLight {
        position_range: light.position.extend(light.range).to_array(),
        color_intensity: light.color.extend(light.intensity).to_array(),
        direction_inner: [0.0; 4],
        outer_kind: [-1.0, KIND_POINT, 0.0, 0.0],
    }));
    out.extend(lights.spots.iter().map(|light| {
        GpuLight {
            position_range: light.position.extend(light.range).to_array(),
            color_intensity: light.color.extend(light.intensity).to_array(),
            direction_inner: light
                .direction
                .normalize_or_zero()
                .extend(light.inner_cos)
                .to_array(),
            outer_kind: [light.outer_cos, KIND_SPOT, 0.0, 0.0],
        }
    }));
}

/// The light array on the GPU, grown as the light count grows.
#[derive(Debug)]
pub(crate) struct LightBuffer {
    binding: LightBinding,
    buffer: wgpu::Buffer,
    packed: Vec<GpuLight>,
    /// Lights in the buffer this frame.
    count: usize,
    /// Lights this frame that did not fit (uniform binding only).
    dropped: usize,
}

impl LightBuffer {
    pub(crate) fn new(device: &wgpu::Device, binding: LightBinding) -> Self {
        let capacity = match binding {
            LightBinding::Storage => 64,
            LightBinding::Uniform => UNIFORM_LIGHT_CAP,
        };
        Self {
            binding,
            buffer: light_buffer(device, binding, capacity),
            packed: Vec::new(),
            count: 0,
            dropped: 0,
        }
    }

    pub(crate) fn binding(&self) -> LightBinding {
        self.binding
    }

    pub(crate) fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Lights the shaders see this frame.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Lights dropped this frame (the uniform fallback's overflow).
    pub(crate) fn dropped(&self) -> usize {
        self.dropped
    }

    /// Uploads this frame's lights. Returns `true` when the buffer was
    /// replaced (bind groups holding it must be rebuilt).
    pub(crate) fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        lights: &Lights,
    ) -> bool {
        pack_lights(lights, &mut self.packed);
        let size = std::mem::size_of::<GpuLight>() as u64;
        let total = self.packed.len();
        let mut grown = false;
        match self.binding {
            LightBinding::Storage => {
                self.count = total;
                self.dropped = 0;
                if total as u64 * size > self.buffer.size() {
                    let capacity = total.next_power_of_two();
                    self.buffer = light_buffer(device, self.binding, capacity);
                    grown = true;
                }
            }
            LightBinding::Uniform => {
                self.count = total.min(UNIFORM_LIGHT_CAP);
                self.dropped = total - self.count;
            }
        }
        if self.count > 0 {
            queue.write_buffer(
                &self.buffer,
                0,
                bytemuck::cast_slice(&self.packed[..self.count]),
            );
        }
        grown
    }
}

fn light_buffer(device: &wgpu::Device, binding: LightBinding, capacity: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("lights"),
        size: (capacity.max(1) * std::mem::size_of::<GpuLight>()) as u64,
        usage: binding.usage(),
        mapped_at_creation: false,
    })
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::frame::{PointLightData, SpotLightData};

    #[test]
    fn points_come_first_then_spots_with_their_cone() {
        let mut lights = Lights::default();
        lights.spots.push(SpotLightData {
            position: Vec3::ONE,
            direction: Vec3::new(0.0, -2.0, 0.0),
            color: Vec3::X,
            intensity: 2.0,
            range: 5.0,
            inner_cos: 0.9,
            outer_cos: 0.8,
        });
        lights.points.push(PointLightData {
            position: Vec3::Z,
            color: Vec3::Y,
            intensity: 1.0,
            range: 3.0,
        });
        let mut packed = Vec::new();
        pack_lights(&lights, &mut packed);
        assert_eq!(packed.len(), 2);
        assert_eq!(packed[0].position_range, [0.0, 0.0, 1.0, 3.0]);
        assert_eq!(packed[0].outer_kind[1], KIND_POINT);
        assert_eq!(packed[1].direction_inner, [0.0, -1.0, 0.0, 0.9]);
        assert_eq!(packed[1].outer_kind[..2], [0.8, KIND_SPOT]);
    }

    #[test]
    fn the_light_is_sixty_four_bytes() {
        assert_eq!(std::mem::size_of::<GpuLight>(), 64);
    }
}
