//! Texture references: image, UV set, sampler and KHR_texture_transform.

use glam::{Mat3, Vec2};

use crate::index::ImageIndex;

/// How UVs outside `[0, 1]` are wrapped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WrapMode {
    /// Tile the image (glTF's default).
    #[default]
    Repeat,
    /// Clamp to the edge texel.
    ClampToEdge,
    /// Tile, mirroring every other tile.
    MirroredRepeat,
}

/// Magnification filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MagFilter {
    /// Nearest texel.
    Nearest,
    /// Bilinear (our default when the file gives none).
    #[default]
    Linear,
}

/// Minification filter, with its mipmap mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MinFilter {
    /// Nearest texel, no mipmaps.
    Nearest,
    /// Bilinear, no mipmaps.
    Linear,
    /// Nearest texel in the nearest mip.
    NearestMipmapNearest,
    /// Bilinear in the nearest mip.
    LinearMipmapNearest,
    /// Nearest texel, blended between two mips.
    NearestMipmapLinear,
    /// Trilinear (our default when the file gives none).
    #[default]
    LinearMipmapLinear,
}

impl MinFilter {
    /// Whether this filter samples mipmaps (so the image needs a mip chain).
    #[must_use]
    pub fn uses_mipmaps(self) -> bool {
        !matches!(self, Self::Nearest | Self::Linear)
    }
}

/// A texture's sampler.
///
/// glTF leaves filters without a value to the implementation; ours are `Linear` magnification
/// and `LinearMipmapLinear` minification, the usual choice for PBR textures. Wrapping defaults
/// to `Repeat` as the spec says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sampler {
    /// Wrapping of u.
    pub wrap_s: WrapMode,
    /// Wrapping of v.
    pub wrap_t: WrapMode,
    /// Magnification filter.
    pub mag_filter: MagFilter,
    /// Minification filter.
    pub min_filter: MinFilter,
}

impl Sampler {
    pub(crate) fn from_gltf(s: &gltf::texture::Sampler<'_>) -> Self {
        use gltf::texture as t;
        let wrap = |w| match w {
            t::WrappingMode::Repeat => WrapMode::Repeat,
            t::WrappingMode::ClampToEdge => WrapMode::ClampToEdge,
            t::WrappingMode::MirroredRepeat => WrapMode::MirroredRepeat,
        };
        Self {
            wrap_s: wrap(s.wrap_s()),
            wrap_t: wrap(s.wrap_t()),
            mag_filter: match s.mag_filter() {
                Some(t::MagFilter::Nearest) => MagFilter::Nearest,
                Some(t::MagFilter::Linear) | None => MagFilter::Linear,
            },
            min_filter: match s.min_filter() {
                Some(t::MinFilter::Nearest) => MinFilter::Nearest,
                Some(t::MinFilter::Linear) => MinFilter::Linear,
                Some(t::MinFilter::NearestMipmapNearest) => MinFilter::NearestMipmapNearest,
                Some(t::MinFilter::LinearMipmapNearest) => MinFilter::LinearMipmapNearest,
                Some(t::MinFilter::NearestMipmapLinear) => MinFilter::NearestMipmapLinear,
                Some(t::MinFilter::LinearMipmapLinear) | None => MinFilter::LinearMipmapLinear,
            },
        }
    }
}

/// A KHR_texture_transform: offset, rotation and scale of the UVs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureTransform {
    /// Offset of the UV origin, in UV units.
    pub offset: Vec2,
    /// Rotation of the UVs in radians, counter-clockwise in UV space as the extension defines.
    pub rotation: f32,
    /// Scale of the UVs.
    pub scale: Vec2,
}

impl Default for TextureTransform {
    fn default() -> Self {
        Self {
            offset: Vec2::ZERO,
            rotation: 0.0,
            scale: Vec2::ONE,
        }
    }
}

impl TextureTransform {
    /// The UV matrix `translation * rotation * scale` of the extension, applied as
    /// `uv' = (M * vec3(uv, 1)).xy`.
    ///
    /// The rotation block is the extension's `[cos sin; -sin cos]`, read row by row as the Khronos
    /// sample viewer, three.js and bevy do: rotating by +90° maps UV `(1, 0)` to `(0, -1)`.
    #[must_use]
    pub fn matrix(&self) -> Mat3 {
        Mat3::from_scale_angle_translation(self.scale, -self.rotation, self.offset)
    }
}

/// A material's reference to a texture: which image, which UVs, how to sample, how to transform.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRef {
    /// The decoded image.
    pub image: ImageIndex,
    /// The UV set: 0 (TEXCOORD_0) or 1 (TEXCOORD_1), after KHR_texture_transform's `texCoord`
    /// override. Other sets are not supported: they become 0 with a warning.
    pub tex_coord: u32,
    /// The sampler (spec defaults when the texture has none).
    pub sampler: Sampler,
    /// The KHR_texture_transform, if the file has one.
    pub transform: Option<TextureTransform>,
    /// `transform`'s [`TextureTransform::matrix`], or identity.
    pub uv_matrix: Mat3,
}

impl TextureRef {
    /// Applies [`TextureRef::uv_matrix`] to one UV.
    #[must_use]
    pub fn transform_uv(&self, uv: Vec2) -> Vec2 {
        self.uv_matrix.transform_point2(uv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_is_translation_rotation_scale() {
        let t = TextureTransform {
            offset: Vec2::new(0.5, 0.25),
            rotation: std::f32::consts::FRAC_PI_2,
            scale: Vec2::new(2.0, 3.0),
        };
        let m = t.matrix();
        // scale (1,0) -> (2,0); rotate +90° -> (0,-2); offset -> (0.5,-1.75)
        assert!((m.transform_point2(Vec2::X) - Vec2::new(0.5, -1.75)).length() < 1e-6);
        // (0,1) -> (0,3) -> (3,0) -> (3.5,0.25)
        assert!((m.transform_point2(Vec2::Y) - Vec2::new(3.5, 0.25)).length() < 1e-6);
        assert_eq!(TextureTransform::default().matrix(), Mat3::IDENTITY);
    }
}
