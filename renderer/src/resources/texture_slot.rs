//! How a material reads one of its textures: which texture, which set of
//! texture coordinates, a transform of those coordinates, and the sampler
//! (wrap and filter modes), as glTF describes a texture reference.

use glam::{Mat3, Vec2};

use super::assets::TextureId;

/// What happens to texture coordinates outside 0..1 on one axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// The texture tiles.
    #[default]
    Repeat,
    /// Every other tile is mirrored.
    MirroredRepeat,
    /// The edge texel stretches outwards.
    ClampToEdge,
}

/// How texels are blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Filter {
    /// The nearest texel (pixel art, masks).
    Nearest,
    /// Bilinear.
    #[default]
    Linear,
}

/// How a texture is sampled: per-axis wrap, magnification, minification
/// and mip filters (`None`: only the full-size level is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextureSampler {
    /// Along u.
    pub wrap_u: Wrap,
    /// Along v.
    pub wrap_v: Wrap,
    /// When a texel covers more than a pixel.
    pub mag: Filter,
    /// When a pixel covers more than a texel.
    pub min: Filter,
    /// Between mip levels; `None` reads level 0 only.
    pub mipmap: Option<Filter>,
}

impl Default for TextureSampler {
    /// Trilinear and repeating, what glTF assumes when a file says nothing.
    fn default() -> Self {
        Self {
            wrap_u: Wrap::Repeat,
            wrap_v: Wrap::Repeat,
            mag: Filter::Linear,
            min: Filter::Linear,
            mipmap: Some(Filter::Linear),
        }
    }
}

impl TextureSampler {
    /// The wgpu sampler this describes.
    #[must_use]
    pub fn descriptor(&self) -> wgpu::SamplerDescriptor<'static> {
        let address = |wrap| match wrap {
            Wrap::Repeat => wgpu::AddressMode::Repeat,
            Wrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
            Wrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        };
        let filter = |filter| match filter {
            Filter::Nearest => wgpu::FilterMode::Nearest,
            Filter::Linear => wgpu::FilterMode::Linear,
        };
        let (mipmap_filter, lod_max_clamp) = match self.mipmap {
            Some(Filter::Nearest) => (wgpu::MipmapFilterMode::Nearest, 32.0),
            Some(Filter::Linear) => (wgpu::MipmapFilterMode::Linear, 32.0),
            // Level 0 only: clamp the level of detail to it.
            None => (wgpu::MipmapFilterMode::Nearest, 0.0),
        };
        wgpu::SamplerDescriptor {
            label: Some("material sampler"),
            address_mode_u: address(self.wrap_u),
            address_mode_v: address(self.wrap_v),
            address_mode_w: wgpu::AddressMode::Repeat,
            mag_filter: filter(self.mag),
            min_filter: filter(self.min),
            mipmap_filter,
            lod_max_clamp,
            ..Default::default()
        }
    }
}

/// A transform of texture coordinates (glTF's `KHR_texture_transform`):
/// scale, then a rotation in radians (counter-clockwise as seen on the
/// image), then an offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UvTransform {
    /// Added last.
    pub offset: Vec2,
    /// Radians, counter-clockwise in texture space.
    pub rotation: f32,
    /// Applied first.
    pub scale: Vec2,
}

impl Default for UvTransform {
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            rotation: 0.0,
            scale: Vec2::ONE,
        }
    }
}

impl UvTransform {
    /// The 3x3 matrix taking `(u, v, 1)` to transformed coordinates:
    /// translation x rotation x scale, as the extension defines it.
    /// Non-finite parts fall back to the identity's.
    #[must_use]
    pub fn matrix(&self) -> Mat3 {
        let finite2 = |v: Vec2, fallback: Vec2| if v.is_finite() { v } else { fallback };
        let offset = finite2(self.offset, Vec2::ZERO);
        let scale = finite2(self.scale, Vec2::ONE);
        let rotation = if self.rotation.is_finite() {
            self.rotation
        } else {
            0.0
        };
        let (sin, cos) = rotation.sin_cos();
        let translation = Mat3::from_translation(offset);
        // Counter-clockwise as seen on the image, whose v points down:
        // (1, 0) turns towards (0, -1). This is how the Khronos sample
        // viewer, three.js and Bevy read the extension (its sample model,
        // TextureTransformTest, marks the opposite direction as wrong).
        let rotation = Mat3::from_cols(
            glam::Vec3::new(cos, -sin, 0.0),
            glam::Vec3::new(sin, cos, 0.0),
            glam::Vec3::Z,
        );
        translation * rotation * Mat3::from_scale(scale)
    }

    /// Where `uv` lands.
    #[must_use]
    pub fn apply(&self, uv: Vec2) -> Vec2 {
        self.matrix().transform_point2(uv)
    }
}

/// One texture of a material and how it is read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureSlot {
    /// The texture (from [`Assets::add_texture`](super::Assets::add_texture)).
    pub texture: TextureId,
    /// Which texture coordinates: 0 ([`Vertex::uv`](super::Vertex::uv)) or 1
    /// ([`Vertex::uv1`](super::Vertex::uv1)); anything else reads set 0.
    pub tex_coord: u32,
    /// Applied to the coordinates before sampling.
    pub transform: UvTransform,
    /// Wrap and filter modes.
    pub sampler: TextureSampler,
}

impl TextureSlot {
    /// `texture` on coordinates 0, untransformed, trilinear and repeating.
    #[must_use]
    pub fn new(texture: TextureId) -> Self {
        Self {
            texture,
            tex_coord: 0,
            transform: UvTransform::default(),
            sampler: TextureSampler::default(),
        }
    }

    /// This slot on texture coordinates `set` (0 or 1).
    #[must_use]
    pub fn with_tex_coord(mut self, set: u32) -> Self {
        self.tex_coord = set;
        self
    }

    /// This slot with a coordinate transform.
    #[must_use]
    pub fn with_transform(mut self, transform: UvTransform) -> Self {
        self.transform = transform;
        self
    }

    /// This slot with a sampler.
    #[must_use]
    pub fn with_sampler(mut self, sampler: TextureSampler) -> Self {
        self.sampler = sampler;
        self
    }
}

impl From<TextureId> for TextureSlot {
    fn from(texture: TextureId) -> Self {
        Self::new(texture)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_scales_then_rotates_then_offsets() {
        let quarter = UvTransform {
            offset: Vec2::new(0.5, 0.0),
            rotation: std::f32::consts::FRAC_PI_2,
            scale: Vec2::new(2.0, 1.0),
        };
        // (1, 0) -> scaled (2, 0) -> turned a quarter counter-clockwise on
        // the image (v down) to (0, -2) -> offset (0.5, -2).
        let moved = quarter.apply(Vec2::new(1.0, 0.0));
        assert!((moved - Vec2::new(0.5, -2.0)).length() < 1e-5, "{moved}");
        assert_eq!(UvTransform::default().matrix(), Mat3::IDENTITY);
        let broken = UvTransform {
            offset: Vec2::NAN,
            rotation: f32::INFINITY,
            scale: Vec2::new(f32::NAN, 1.0),
        };
        assert_eq!(broken.matrix(), Mat3::IDENTITY);
    }

    #[test]
    fn samplers_map_to_wgpu_modes() {
        let pixel_art = TextureSampler {
            wrap_u: Wrap::ClampToEdge,
            wrap_v: Wrap::MirroredRepeat,
            mag: Filter::Nearest,
            min: Filter::Nearest,
            mipmap: None,
        };
        let d = pixel_art.descriptor();
        assert_eq!(d.address_mode_u, wgpu::AddressMode::ClampToEdge);
        assert_eq!(d.address_mode_v, wgpu::AddressMode::MirrorRepeat);
        assert_eq!(d.mag_filter, wgpu::FilterMode::Nearest);
        assert_eq!(d.lod_max_clamp, 0.0);
        let d = TextureSampler::default().descriptor();
        assert_eq!(d.mipmap_filter, wgpu::MipmapFilterMode::Linear);
        assert_eq!(d.address_mode_u, wgpu::AddressMode::Repeat);
    }
}
