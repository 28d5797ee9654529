//! PBR metallic-roughness materials.

use glam::{Vec3, Vec4};

use super::texture_slot::TextureSlot;

/// A physically based surface in the metallic-roughness model (glTF's).
///
/// Every texture is optional and multiplies its factor: the base colour
/// (sRGB, alpha too), metallic in blue and roughness in green of the
/// metallic-roughness texture, the emissive texture (sRGB) times
/// `emissive`. The normal texture (tangent space, +Y up) perturbs the
/// normal by `normal_scale`; the occlusion texture's red channel darkens
/// the ambient and image-based light by `occlusion_strength`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PbrMaterial {
    /// Linear base colour and alpha (multiplied with the texture, if any).
    pub base_color: Vec4,
    /// sRGB base-colour texture (alpha in its alpha channel).
    pub base_color_texture: Option<TextureSlot>,
    /// 0 dielectric, 1 metal.
    pub metallic: f32,
    /// 0 mirror, 1 fully rough.
    pub roughness: f32,
    /// Linear metallic (blue) and roughness (green) texture.
    pub metallic_roughness_texture: Option<TextureSlot>,
    /// Linear tangent-space normal texture.
    pub normal_texture: Option<TextureSlot>,
    /// Scales the normal texture's x and y (1: as stored, 0: flat).
    pub normal_scale: f32,
    /// Linear ambient-occlusion texture (red channel).
    pub occlusion_texture: Option<TextureSlot>,
    /// How much occlusion applies (0: none, 1: fully).
    pub occlusion_strength: f32,
    /// Linear emitted radiance (multiplied with the texture, if any).
    pub emissive: Vec3,
    /// sRGB emissive texture.
    pub emissive_texture: Option<TextureSlot>,
    /// How the material blends.
    pub alpha: AlphaMode,
    /// Both faces drawn (the back face lit with the normal flipped);
    /// otherwise back faces are culled.
    pub double_sided: bool,
    /// Shown as its base colour, without lighting (glTF's
    /// `KHR_materials_unlit`): labels, skies on cards, baked lighting.
    pub unlit: bool,
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
            metallic_roughness_texture: None,
            normal_texture: None,
            normal_scale: 1.0,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive: Vec3::ZERO,
            emissive_texture: None,
            alpha: AlphaMode::Opaque,
            double_sided: false,
            unlit: false,
        }
    }
}

/// The texture slots of a material, in the order the shaders bind them.
pub const MATERIAL_TEXTURE_SLOTS: usize = 5;

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

    /// The texture slots in binding order: base colour, metallic-roughness,
    /// normal, occlusion, emissive.
    #[must_use]
    pub fn texture_slots(&self) -> [Option<TextureSlot>; MATERIAL_TEXTURE_SLOTS] {
        [
            self.base_color_texture,
            self.metallic_roughness_texture,
            self.normal_texture,
            self.occlusion_texture,
            self.emissive_texture,
        ]
    }

    /// The uniform block shaders read, with parameters clamped to their
    /// valid ranges and non-finite values replaced by defaults. `bound`
    /// says which texture slots really have a texture bound (a slot whose
    /// texture is missing from the store reads as absent).
    #[must_use]
    pub fn uniform(&self, bound: [bool; MATERIAL_TEXTURE_SLOTS]) -> MaterialUniform {
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
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        let slots = self.texture_slots();
        let mut textures = [TextureSlotUniform::default(); MATERIAL_TEXTURE_SLOTS];
        for ((uniform, slot), bound) in textures.iter_mut().zip(slots).zip(bound) {
            if let (Some(slot), true) = (slot, bound) {
                *uniform = TextureSlotUniform::of(&slot);
            }
        }
        MaterialUniform {
            base_color: base.to_array(),
            emissive: emissive.to_array(),
            metallic: finite(self.metallic, 0.0).clamp(0.0, 1.0),
            roughness: finite(self.roughness, 0.5).clamp(0.04, 1.0),
            alpha_cutoff: cutoff,
            normal_scale: finite(self.normal_scale, 1.0),
            occlusion_strength: finite(self.occlusion_strength, 1.0).clamp(0.0, 1.0),
            unlit: flag(self.unlit),
            double_sided: flag(self.double_sided),
            _pad: [0.0; 2],
            textures,
        }
    }
}

/// One texture slot as the shaders read it: the coordinate transform's two
/// rows (`u' = row_u . (u, v, 1)`), then in `row_u.w` the coordinate set and
/// in `row_v.w` 1 when a texture is bound.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct TextureSlotUniform {
    /// First row of the transform, then the coordinate set (0 or 1).
    pub row_u: [f32; 4],
    /// Second row of the transform, then 1.0 when bound, else 0.0.
    pub row_v: [f32; 4],
}

impl TextureSlotUniform {
    fn of(slot: &TextureSlot) -> Self {
        let m = slot.transform.matrix();
        let set = if slot.tex_coord == 1 { 1.0 } else { 0.0 };
        Self {
            row_u: [m.x_axis.x, m.y_axis.x, m.z_axis.x, set],
            row_v: [m.x_axis.y, m.y_axis.y, m.z_axis.y, 1.0],
        }
    }
}

/// GPU layout of a material (std140-compatible, 224 bytes).
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
    /// The normal texture's x/y scale.
    pub normal_scale: f32,
    /// 0..1.
    pub occlusion_strength: f32,
    /// 1.0 when unlit.
    pub unlit: f32,
    /// 1.0 when double-sided.
    pub double_sided: f32,
    /// Padding to a 16-byte boundary.
    pub _pad: [f32; 2],
    /// Base colour, metallic-roughness, normal, occlusion, emissive.
    pub textures: [TextureSlotUniform; MATERIAL_TEXTURE_SLOTS],
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
        let u = bad.uniform([false; MATERIAL_TEXTURE_SLOTS]);
        assert_eq!(u.base_color, [1.0; 4]);
        assert_eq!((u.metallic, u.roughness, u.alpha_cutoff), (1.0, 0.5, 0.5));
        assert_eq!(u.emissive, [0.0, 2.0, 0.0]);
        assert_eq!(std::mem::size_of::<MaterialUniform>(), 224);
    }

    #[test]
    fn only_bound_slots_reach_the_shader_with_their_set_and_transform() {
        use super::super::TextureId;
        use super::super::texture_slot::UvTransform;
        let material = PbrMaterial {
            normal_texture: Some(TextureSlot::new(TextureId(3)).with_transform(UvTransform {
                offset: glam::Vec2::new(0.25, 0.5),
                scale: glam::Vec2::splat(2.0),
                ..UvTransform::default()
            })),
            occlusion_texture: Some(TextureSlot::new(TextureId(4)).with_tex_coord(1)),
            emissive_texture: Some(TextureSlot::new(TextureId(5))),
            unlit: true,
            ..PbrMaterial::default()
        };
        let u = material.uniform([false, false, true, true, false]);
        let [base, _, normal, occlusion, emissive] = u.textures;
        assert_eq!(base.row_v[3], 0.0);
        assert_eq!(normal.row_u, [2.0, 0.0, 0.25, 0.0]);
        assert_eq!(normal.row_v, [0.0, 2.0, 0.5, 1.0]);
        assert_eq!((occlusion.row_u[3], occlusion.row_v[3]), (1.0, 1.0));
        // The emissive texture is missing from the store: not bound.
        assert_eq!(emissive.row_v[3], 0.0);
        assert_eq!((u.unlit, u.double_sided), (1.0, 0.0));
    }
}
