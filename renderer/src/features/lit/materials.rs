//! One bind group per material (uniform, then a texture and a sampler for
//! each of the five texture slots), rebuilt only when a material's
//! textures or samplers change. Samplers are shared between materials.

use std::collections::HashMap;

use super::super::gpu_util::{
    ONE_TEXEL, sampler_entry, single_texel, texture_entry, uniform_buffer, uniform_entry,
};
use crate::resources::{
    Assets, MATERIAL_TEXTURE_SLOTS, MaterialId, MaterialUniform, PbrMaterial, TextureId,
    TextureSampler,
};

/// What a material's bind group was built from, per slot: the texture, its
/// version (a replaced texture rebinds) and the sampler.
type SlotKeys = [Option<(TextureId, u32, TextureSampler)>; MATERIAL_TEXTURE_SLOTS];

#[derive(Debug)]
struct MaterialBinding {
    buffer: wgpu::Buffer,
    group: wgpu::BindGroup,
    slots: SlotKeys,
    double_sided: bool,
}

/// The material bind groups of every material in the asset store.
#[derive(Debug)]
pub(crate) struct MaterialBindings {
    layout: wgpu::BindGroupLayout,
    bindings: Vec<MaterialBinding>,
    white: wgpu::TextureView,
    samplers: HashMap<TextureSampler, wgpu::Sampler>,
}

impl MaterialBindings {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let filterable = wgpu::TextureSampleType::Float { filterable: true };
        let mut entries = vec![uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT)];
        for slot in 0..MATERIAL_TEXTURE_SLOTS as u32 {
            entries.push(texture_entry(1 + 2 * slot, filterable));
            entries.push(sampler_entry(
                2 + 2 * slot,
                wgpu::SamplerBindingType::Filtering,
            ));
        }
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lit material"),
            entries: &entries,
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
            samplers: HashMap::new(),
        }
    }

    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The bind group of `material`, once [`update`](Self::update) saw it.
    pub(crate) fn group(&self, material: MaterialId) -> Option<&wgpu::BindGroup> {
        self.bindings.get(material.0 as usize).map(|b| &b.group)
    }

    /// Whether `material` draws both faces (as of the last update).
    pub(crate) fn double_sided(&self, material: MaterialId) -> bool {
        self.bindings
            .get(material.0 as usize)
            .is_some_and(|b| b.double_sided)
    }

    /// Uploads every material's uniform; rebinds those whose textures or
    /// samplers changed.
    pub(crate) fn update(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, assets: &Assets) {
        for index in 0..assets.material_count() {
            let Some(material) = assets.material(MaterialId(index as u32)) else {
                continue;
            };
            let slots = slot_keys(material, assets);
            if self.bindings.get(index).is_none_or(|m| m.slots != slots) {
                let binding = self.binding(device, assets, slots);
                if index < self.bindings.len() {
                    self.bindings[index] = binding;
                } else {
                    self.bindings.push(binding);
                }
            }
            let binding = &mut self.bindings[index];
            binding.double_sided = material.double_sided;
            let uniform = material.uniform(slots.map(|slot| slot.is_some()));
            queue.write_buffer(&binding.buffer, 0, bytemuck::bytes_of(&uniform));
        }
    }

    fn binding(
        &mut self,
        device: &wgpu::Device,
        assets: &Assets,
        slots: SlotKeys,
    ) -> MaterialBinding {
        let buffer = uniform_buffer(
            device,
            "material uniform",
            std::mem::size_of::<MaterialUniform>(),
        );
        for (_, _, sampler) in slots.iter().flatten() {
            self.samplers
                .entry(*sampler)
                .or_insert_with(|| device.create_sampler(&sampler.descriptor()));
        }
        let default_sampler = self
            .samplers
            .entry(TextureSampler::default())
            .or_insert_with(|| device.create_sampler(&TextureSampler::default().descriptor()))
            .clone();
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }];
        for (slot, key) in slots.iter().enumerate() {
            let view = key
                .and_then(|(texture, _, _)| assets.texture(texture))
                .map_or(&self.white, |t| t.view());
            let sampler = key
                .and_then(|(_, _, sampler)| self.samplers.get(&sampler))
                .unwrap_or(&default_sampler);
            entries.push(wgpu::BindGroupEntry {
                binding: 1 + 2 * slot as u32,
                resource: wgpu::BindingResource::TextureView(view),
            });
            entries.push(wgpu::BindGroupEntry {
                binding: 2 + 2 * slot as u32,
                resource: wgpu::BindingResource::Sampler(sampler),
            });
        }
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: &self.layout,
            entries: &entries,
        });
        MaterialBinding {
            buffer,
            group,
            slots,
            double_sided: false,
        }
    }
}

/// Each slot's texture and sampler, where the texture is in the store.
fn slot_keys(material: &PbrMaterial, assets: &Assets) -> SlotKeys {
    material.texture_slots().map(|slot| {
        slot.filter(|slot| assets.texture(slot.texture).is_some())
            .map(|slot| {
                (
                    slot.texture,
                    assets.texture_version(slot.texture),
                    slot.sampler,
                )
            })
    })
}
