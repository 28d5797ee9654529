//! Descriptions of graph resources: what a transient is created with, and
//! the key the pool matches physical allocations by.
//!
//! Labels are not part of a description: two transients named differently
//! but described alike may share one physical texture.

/// What a texture is created with. Equal descriptions are interchangeable,
/// so this is also the key of the transient pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureDesc {
    /// Width, height and depth or array layers.
    pub size: wgpu::Extent3d,
    /// Texel format.
    pub format: wgpu::TextureFormat,
    /// Every way the graph may use it; a pass that needs a usage missing
    /// here fails to compile with
    /// [`CompileError::MissingTextureUsage`](super::CompileError::MissingTextureUsage).
    pub usage: wgpu::TextureUsages,
    /// 1D, 2D or 3D.
    pub dimension: wgpu::TextureDimension,
    /// Samples per texel (1 unless multisampled).
    pub sample_count: u32,
    /// Mip levels (1 for render targets).
    pub mip_level_count: u32,
}

impl TextureDesc {
    /// A single-sampled 2D texture with one mip level.
    #[must_use]
    pub fn new_2d(
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> Self {
        Self {
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            format,
            usage,
            dimension: wgpu::TextureDimension::D2,
            sample_count: 1,
            mip_level_count: 1,
        }
    }

    /// The description of an existing wgpu texture (for imports).
    #[must_use]
    pub fn of_texture(texture: &wgpu::Texture) -> Self {
        Self {
            size: texture.size(),
            format: texture.format(),
            usage: texture.usage(),
            dimension: texture.dimension(),
            sample_count: texture.sample_count(),
            mip_level_count: texture.mip_level_count(),
        }
    }

    /// Bytes per block of the format. Depth formats with no defined copy size
    /// (`Depth24Plus`, `Depth24PlusStencil8`) count as 4 bytes, what drivers
    /// commonly use; a stencil aspect adds its byte.
    #[must_use]
    pub fn bytes_per_block(&self) -> u64 {
        if let Some(size) = self.format.block_copy_size(None) {
            return u64::from(size);
        }
        let depth = if self.format.has_depth_aspect() {
            self.format
                .block_copy_size(Some(wgpu::TextureAspect::DepthOnly))
                .unwrap_or(4)
        } else {
            0
        };
        let stencil = if self.format.has_stencil_aspect() {
            1
        } else {
            0
        };
        let sum = u64::from(depth) + stencil;
        // Multi-planar video formats have no single block size; 4 is a fair guess.
        if sum == 0 { 4 } else { sum }
    }

    /// Estimated memory of the texture: every mip level and sample, rounded
    /// up to whole blocks. Drivers add alignment, so this is a lower bound.
    #[must_use]
    pub fn byte_size(&self) -> u64 {
        let (bw, bh) = self.format.block_dimensions();
        let per_block = self.bytes_per_block();
        let samples = u64::from(self.sample_count.max(1));
        if self.mip_level_count <= 1 {
            // The common render target: no mip chain to walk.
            let e = self.size;
            let blocks = u64::from(e.width.div_ceil(bw)) * u64::from(e.height.div_ceil(bh));
            return blocks * u64::from(e.depth_or_array_layers) * per_block * samples;
        }
        let mut total = 0u64;
        for level in 0..self.mip_level_count.max(1) {
            let e = self.size.mip_level_size(level, self.dimension);
            let blocks_x = u64::from(e.width.div_ceil(bw));
            let blocks_y = u64::from(e.height.div_ceil(bh));
            total += blocks_x * blocks_y * u64::from(e.depth_or_array_layers) * per_block;
        }
        total * samples
    }

    /// The wgpu descriptor for this description.
    #[must_use]
    pub fn to_descriptor<'a>(self, label: Option<&'a str>) -> wgpu::TextureDescriptor<'a> {
        wgpu::TextureDescriptor {
            label,
            size: self.size,
            mip_level_count: self.mip_level_count,
            sample_count: self.sample_count,
            dimension: self.dimension,
            format: self.format,
            usage: self.usage,
            view_formats: &[],
        }
    }
}

/// What a buffer is created with; also the key of the transient pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferDesc {
    /// Size in bytes.
    pub size: u64,
    /// Every way the graph may use it.
    pub usage: wgpu::BufferUsages,
}

impl BufferDesc {
    /// A buffer of `size` bytes with `usage`.
    #[must_use]
    pub fn new(size: u64, usage: wgpu::BufferUsages) -> Self {
        Self { size, usage }
    }

    /// The description of an existing wgpu buffer (for imports).
    #[must_use]
    pub fn of_buffer(buffer: &wgpu::Buffer) -> Self {
        Self {
            size: buffer.size(),
            usage: buffer.usage(),
        }
    }

    /// The wgpu descriptor for this description.
    #[must_use]
    pub fn to_descriptor<'a>(self, label: Option<&'a str>) -> wgpu::BufferDescriptor<'a> {
        wgpu::BufferDescriptor {
            label,
            size: self.size,
            usage: self.usage,
            mapped_at_creation: false,
        }
    }
}

/// A texture or buffer description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceDesc {
    /// A texture.
    Texture(TextureDesc),
    /// A buffer.
    Buffer(BufferDesc),
}

impl ResourceDesc {
    /// Estimated bytes of memory.
    #[must_use]
    pub fn byte_size(&self) -> u64 {
        match self {
            Self::Texture(t) => t.byte_size(),
            Self::Buffer(b) => b.size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes() {
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let rgba16 = TextureDesc::new_2d(64, 32, wgpu::TextureFormat::Rgba16Float, usage);
        assert_eq!(rgba16.byte_size(), 64 * 32 * 8);
        let depth = TextureDesc::new_2d(10, 10, wgpu::TextureFormat::Depth24PlusStencil8, usage);
        assert_eq!(depth.byte_size(), 10 * 10 * 5);
        let d32 = TextureDesc::new_2d(10, 10, wgpu::TextureFormat::Depth32Float, usage);
        assert_eq!(d32.byte_size(), 400);
        let mut mips = TextureDesc::new_2d(4, 4, wgpu::TextureFormat::R8Unorm, usage);
        mips.mip_level_count = 3;
        assert_eq!(mips.byte_size(), 16 + 4 + 1);
        let mut msaa = TextureDesc::new_2d(4, 4, wgpu::TextureFormat::Rgba8Unorm, usage);
        msaa.sample_count = 4;
        assert_eq!(msaa.byte_size(), 4 * 4 * 4 * 4);
        let bc = TextureDesc::new_2d(6, 6, wgpu::TextureFormat::Bc1RgbaUnorm, usage);
        assert_eq!(bc.byte_size(), 2 * 2 * 8);
    }
}
