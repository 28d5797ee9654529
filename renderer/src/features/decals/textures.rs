//! The decals' texture bind groups (`@group(1)`: base colour, normal map,
//! roughness map, sampler), one per combination of textures in use,
//! kept from frame to frame and rebuilt when a texture is replaced.

use std::collections::HashMap;

use super::draw::DecalDraw;
use crate::features::gpu_util::{sampler_entry, single_texel, texture_entry};
use crate::resources::{Assets, SamplerKind, TextureId};

/// A decal's textures with their versions (a replaced texture rebinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TextureKey {
    base: (TextureId, u32),
    normal: Option<(TextureId, u32)>,
    roughness: Option<(TextureId, u32)>,
}

impl TextureKey {
    pub(crate) fn new(decal: &DecalDraw, assets: &Assets) -> Self {
        let versioned = |id: TextureId| (id, assets.texture_version(id));
        Self {
            base: versioned(decal.base_color),
            normal: decal.normal.map(versioned),
            roughness: decal.roughness.map(versioned),
        }
    }
}

/// The groups, their layout, and the sampler and stand-in they share.
#[derive(Debug)]
pub(crate) struct DecalTextures {
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    /// Bound where a decal has no normal or roughness map.
    none: wgpu::TextureView,
    groups: HashMap<TextureKey, (wgpu::BindGroup, bool)>,
}

impl DecalTextures {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let filterable = wgpu::TextureSampleType::Float { filterable: true };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("decal textures"),
            entries: &[
                texture_entry(0, filterable),
                texture_entry(1, filterable),
                texture_entry(2, filterable),
                sampler_entry(3, wgpu::SamplerBindingType::Filtering),
            ],
        });
        let none = single_texel(
            device,
            "no decal map",
            wgpu::TextureFormat::Rgba8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        Self {
            layout,
            sampler: SamplerKind::LinearClamp.create(device),
            none: none.create_view(&wgpu::TextureViewDescriptor::default()),
            groups: HashMap::new(),
        }
    }

    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Marks every group unused; [`prepare`](Self::prepare) marks the ones
    /// this frame needs and [`drop_unused`](Self::drop_unused) lets the
    /// others go.
    pub(crate) fn start_frame(&mut self) {
        for (_, used) in self.groups.values_mut() {
            *used = false;
        }
    }

    /// Builds the group of `key` if it is new. `decal` passed
    /// [`DecalDraw::check`] against `assets`, so its textures exist.
    pub(crate) fn prepare(
        &mut self,
        device: &wgpu::Device,
        assets: &Assets,
        decal: &DecalDraw,
        key: TextureKey,
    ) {
        if let Some((_, used)) = self.groups.get_mut(&key) {
            *used = true;
            return;
        }
        let view = |id: Option<TextureId>| {
            id.and_then(|id| assets.texture(id))
                .map_or(&self.none, |texture| texture.view())
        };
        let views = [
            view(Some(decal.base_color)),
            view(decal.normal),
            view(decal.roughness),
        ];
        let mut entries: Vec<_> = views
            .into_iter()
            .enumerate()
            .map(|(binding, view)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: wgpu::BindingResource::TextureView(view),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: 3,
            resource: wgpu::BindingResource::Sampler(&self.sampler),
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("decal textures"),
            layout: &self.layout,
            entries: &entries,
        });
        self.groups.insert(key, (group, true));
    }

    pub(crate) fn drop_unused(&mut self) {
        self.groups.retain(|_, (_, used)| *used);
    }

    pub(crate) fn group(&self, key: &TextureKey) -> Option<&wgpu::BindGroup> {
        self.groups.get(key).map(|(group, _)| group)
    }
}
