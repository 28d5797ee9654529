//! The block atlas on the GPU: one array layer per tile, each with its
//! linear-light mip chain ([`tile_mips`]), sampled with repeat addressing
//! (a merged quad repeats its tile once per block, with no seams), nearest
//! texels up close and trilinear filtering in linear light at a distance,
//! so far terrain does not shimmer.

use crate::world::{BlockType, Face, TILE_COUNT};
use taos_engine::renderer::wgpu;

use super::atlas::{
    ATLAS_MIP_LEVELS, ATLAS_TILE_SIZE, atlas_tile, block_atlas, is_cutout_tile, tile_mips,
};

#[derive(Debug)]
pub(super) struct AtlasTexture {
    _texture: wgpu::Texture,
    pub(super) view: wgpu::TextureView,
    pub(super) sampler: wgpu::Sampler,
    /// Bit `t` set when tile `t` is alpha tested at every distance.
    pub(super) cutout_tiles: u32,
}

impl AtlasTexture {
    pub(super) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        const { assert!(TILE_COUNT <= 32, "the cutout mask holds 32 tiles") };
        let atlas = block_atlas();
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("crafty atlas"),
            size: wgpu::Extent3d {
                width: ATLAS_TILE_SIZE,
                height: ATLAS_TILE_SIZE,
                depth_or_array_layers: TILE_COUNT,
            },
            mip_level_count: ATLAS_MIP_LEVELS,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8UnormSrgb,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let mut cutout_tiles = 0;
        for tile in 0..TILE_COUNT {
            let image = atlas_tile(&atlas, tile);
            if is_cutout_tile(&image) {
                cutout_tiles |= 1 << tile;
            }
            for (level, mip) in (0u32..).zip(tile_mips(&image)) {
                let (w, h) = mip.dimensions();
                queue.write_texture(
                    wgpu::TexelCopyTextureInfo {
                        texture: &texture,
                        mip_level: level,
                        origin: wgpu::Origin3d {
                            x: 0,
                            y: 0,
                            z: tile,
                        },
                        aspect: wgpu::TextureAspect::All,
                    },
                    mip.as_raw(),
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(4 * w),
                        rows_per_image: Some(h),
                    },
                    wgpu::Extent3d {
                        width: w,
                        height: h,
                        depth_or_array_layers: 1,
                    },
                );
            }
        }
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("crafty atlas"),
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("crafty atlas"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        Self {
            _texture: texture,
            view,
            sampler,
            cutout_tiles,
        }
    }

    /// WGSL constants the chunk shader needs about the atlas.
    pub(super) fn shader_constants(&self) -> String {
        shader_constants(self.cutout_tiles)
    }
}

/// WGSL constants the chunk shader needs about an atlas whose alpha-tested
/// tiles are the bits of `cutout_tiles`.
pub(super) fn shader_constants(cutout_tiles: u32) -> String {
    format!(
        "const WATER_TILE: u32 = {}u;\nconst CUTOUT_TILES: u32 = {cutout_tiles}u;\n",
        BlockType::Water.tile(Face::Top),
    )
}

/// The cutout mask of the block atlas (as [`AtlasTexture::new`] computes
/// it), without a device.
pub(super) fn cutout_tiles() -> u32 {
    let atlas = block_atlas();
    (0..TILE_COUNT)
        .filter(|&tile| is_cutout_tile(&atlas_tile(&atlas, tile)))
        .fold(0, |mask, tile| mask | 1 << tile)
}
