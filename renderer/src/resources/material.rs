//! PBR metallic-roughness materials.

use glam::{Vec3, Vec4};

use super::assets::TextureId;

/// A physically based surface in the metallic-roughness model (glTF's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PbrMaterial {
    /// Linear base colour and alpha (multiplied with the texture, if any).
    pub base_color: Vec4,
    /// sRGB base-colour texture.
    pub base_color_texture: Option<TextureId>,
    /// 0 dielectric, 1 metal.
    pub metallic: f32,
    /// 0 mirror, 1 fully rough.
    pub roughness: f32,
    /// Linear emitted radiance.
    pub emissive: Vec3,
    /// How the material blends.
    pub alpha: AlphaMode,
}

/// How a material's alpha is used.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha ignored; drawn in the opaque bucket.
    #[default]
    Opaque,
    /// Fragments with alpha below the cutoff are discarded; opaque bucket.
    Mask(f32),
    /// Blended over what is behind; transparent bucket, drawn back to front.
    Blend,
}

impl Default for PbrMaterial {
    fn default() -> Self {
        Self {
            base_color: Vec4::ONE,
            base_color_texture: None,
            metallic: 0.0,
            roughness: 0.5,
            emissive: Vec3::ZERO,
            alpha: AlphaMode::Opaque,
        }
    }
}

impl PbrMaterial {
    /// A plain coloured dielectric.
    #[must_use]
    pub fn color(rgb: Vec3) -> Self {
        Self {
            base_color: rgb.extend(1.0),
            ..Self::default()
        }
    }

    /// `true` when the material belongs in the transparent bucket.
    #[must_use]
    pub fn is_transparent(&self) -> bool {
        self.alpha == AlphaMode::Blend
    }

    /// The uniform block shaders read (48 bytes), with parameters clamped to
    /// their valid ranges and non-finite values replaced by defaults.
    #[must_use]
    pub fn uniform(&self) -> MaterialUniform {
        let finite = |v: f32, fallback: f32| if v.is_finite() { v } else { fallback };
        let cutoff = match self.alpha {
            AlphaMode::Mask(c) => finite(c, 0.5).clamp(0.0, 1.0),
            _ => -1.0,
        };
        let base = if self.base_color.is_finite() {
            self.base_color.clamp(Vec4::ZERO, Vec4::ONE)
        } else {
            Vec4::ONE
        };
        let emissive = if self.emissive.is_finite() {
            self.emissive.max(Vec3::ZERO)
        } else {
            Vec3::ZERO
        };
        MaterialUniform {
            base_color: base.to_array(),
            emissive: emissive.to_array(),
            metallic: finite(self.metallic, 0.0).clamp(0.0, 1.0),
            roughness: finite(self.roughness, 0.5).clamp(0.04, 1.0),
            alpha_cutoff: cutoff,
            has_texture: if self.base_color_texture.is_some() {
                1.0
            } else {
                0.0
            },
            _pad: 0.0,
        }
    }
}

/// GPU layout of a material (std140-compatible).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct MaterialUniform {
    /// Linear RGBA.
    pub base_color: [f32; 4],
    /// Linear RGB.
    pub emissive: [f32; 3],
    /// 0..1.
    pub metallic: f32,
    /// 0.04..1.
    pub roughness: f32,
    /// Alpha-mask cutoff, or -1 when not masked.
    pub alpha_cutoff: f32,
    /// 1.0 when a base-colour texture is bound, else 0.0.
    pub has_texture: f32,
    /// Padding to 48 bytes.
    pub _pad: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_sanitises_bad_values() {
        let bad = PbrMaterial {
            base_color: Vec4::new(f32::NAN, 0.0, 0.0, 1.0),
            metallic: 7.0,
            roughness: f32::INFINITY,
            emissive: Vec3::new(-1.0, 2.0, 0.0),
            alpha: AlphaMode::Mask(f32::NAN),
            ..PbrMaterial::default()
        };
        let u = bad.uniform();
        assert_eq!(u.base_color, [1.0; 4]);
        assert_eq!((u.metallic, u.roughness, u.alpha_cutoff), (1.0, 0.5, 0.5));
        assert_eq!(u.emissive, [0.0, 2.0, 0.0]);
        assert_eq!(std::mem::size_of::<MaterialUniform>(), 48);
    }
}
