//! A uniform buffer of equal slots read through a dynamic offset: one bind
//! group for many draws (per-draw transforms, per-chunk origins).

/// A buffer of `slots` slots of `stride` bytes (a multiple of the device's
/// uniform offset alignment, usually 256) and a bind group for `layout`
/// exposing one `window`-byte slot at binding 0; pick the slot with a dynamic
/// offset of `slot * stride` when binding.
#[must_use]
pub fn uniform_slab(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    stride: u64,
    slots: u64,
    window: u64,
) -> (wgpu::Buffer, wgpu::BindGroup) {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: stride * slots.max(1),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &buffer,
                offset: 0,
                size: wgpu::BufferSize::new(window),
            }),
        }],
    });
    (buffer, group)
}
