//! One bind group per material (uniform, base-colour texture, sampler),
//! rebuilt only when a material's texture changes.

use super::super::gpu_util::{
    ONE_TEXEL, sampler_entry, single_texel, texture_entry, uniform_buffer, uniform_entry,
};
use crate::resources::{Assets, MaterialId, MaterialUniform, SamplerKind, TextureId};

#[derive(Debug)]
struct MaterialBinding {
    buffer: wgpu::Buffer,
    group: wgpu::BindGroup,
    texture: Option<TextureId>,
}

/// The material bind groups of every material in the asset store.
#[derive(Debug)]
pub(crate) struct MaterialBindings {
    layout: wgpu::BindGroupLayout,
    bindings: Vec<MaterialBinding>,
    white: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl MaterialBindings {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lit material"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, wgpu::TextureSampleType::Float { filterable: true }),
                sampler_entry(2, wgpu::SamplerBindingType::Filtering),
            ],
        });
        let white = single_texel(
            device,
            "white",
            wgpu::TextureFormat::Rgba8UnormSrgb,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        queue.write_texture(
            white.as_image_copy(),
            &[255; 4],
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4),
                rows_per_image: Some(1),
            },
            ONE_TEXEL,
        );
        Self {
            layout,
            bindings: Vec::new(),
            white: white.create_view(&wgpu::TextureViewDescriptor::default()),
            sampler: SamplerKind::LinearRepeat.create(device),
        }
    }

    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The bind group of `material`, once [`update`](Self::update) saw it.
    pub(crate) fn group(&self, material: MaterialId) -> Option<&wgpu::BindGroup> {
        self.bindings.get(material.0 as usize).map(|b| &b.group)
    }

    /// Uploads every material's uniform; rebinds those whose texture changed.
    pub(crate) fn update(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, assets: &Assets) {
        for index in 0..assets.material_count() {
            let Some(material) = assets.material(MaterialId(index as u32)) else {
                continue;
            };
            let texture = material
                .base_color_texture
                .filter(|t| assets.texture(*t).is_some());
            if self
                .bindings
                .get(index)
                .is_none_or(|m| m.texture != texture)
            {
                let binding = self.binding(device, assets, texture);
                if index < self.bindings.len() {
                    self.bindings[index] = binding;
                } else {
                    self.bindings.push(binding);
                }
            }
            queue.write_buffer(
                &self.bindings[index].buffer,
                0,
                bytemuck::bytes_of(&material.uniform()),
            );
        }
    }

    fn binding(
        &self,
        device: &wgpu::Device,
        assets: &Assets,
        texture: Option<TextureId>,
    ) -> MaterialBinding {
        let buffer = uniform_buffer(
            device,
            "material uniform",
            std::mem::size_of::<MaterialUniform>(),
        );
        let view = texture
            .and_then(|t| assets.texture(t))
            .map_or(&self.white, |t| t.view());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        });
        MaterialBinding {
            buffer,
            group,
            texture,
        }
    }
}
