//! Metallic-roughness materials with their texture slots.

use glam::{Mat3, Vec2, Vec3, Vec4};

use crate::error::ElementName;
use crate::index::ImageIndex;
use crate::texture::{Sampler, TextureRef, TextureTransform};

/// How a material's alpha is used.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum AlphaMode {
    /// Alpha ignored; fully opaque (glTF's default).
    #[default]
    Opaque,
    /// Alpha tested: drawn where alpha >= `cutoff`, discarded elsewhere.
    Mask {
        /// The threshold (glTF default 0.5).
        cutoff: f32,
    },
    /// Alpha blended ("over" compositing).
    Blend,
}

/// A glTF metallic-roughness material. [`Material::default`] is the glTF default material, used
/// by primitives whose `material` is `None`.
///
/// Colour factors are linear; textures used as colour (base colour, emissive) are sRGB-encoded,
/// the others are linear data (see [`Image::used_as_color`](crate::Image::used_as_color)).
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// The material's `name`.
    pub name: Option<String>,
    /// Linear RGBA multiplier of the base colour.
    pub base_color_factor: Vec4,
    /// Base colour (sRGB, alpha linear).
    pub base_color_texture: Option<TextureRef>,
    /// Metalness multiplier.
    pub metallic_factor: f32,
    /// Roughness multiplier.
    pub roughness_factor: f32,
    /// Roughness in G, metalness in B (linear).
    pub metallic_roughness_texture: Option<TextureRef>,
    /// Tangent-space normal map (linear).
    pub normal_texture: Option<TextureRef>,
    /// Scale of the normal map's X and Y (default 1).
    pub normal_scale: f32,
    /// Ambient occlusion in R (linear).
    pub occlusion_texture: Option<TextureRef>,
    /// How much occlusion applies (default 1).
    pub occlusion_strength: f32,
    /// Linear emitted colour multiplier.
    pub emissive_factor: Vec3,
    /// KHR_materials_emissive_strength multiplier of `emissive_factor` (default 1).
    pub emissive_strength: f32,
    /// Emissive colour (sRGB).
    pub emissive_texture: Option<TextureRef>,
    /// Alpha handling.
    pub alpha_mode: AlphaMode,
    /// Back faces are drawn (and lit with the flipped normal).
    pub double_sided: bool,
    /// KHR_materials_unlit: shade with the base colour only.
    pub unlit: bool,
}

impl Default for Material {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Material {
    /// The glTF default material: white, fully metallic and rough, opaque, single-sided.
    pub const DEFAULT: Self = Self {
        name: None,
        base_color_factor: Vec4::ONE,
        base_color_texture: None,
        metallic_factor: 1.0,
        roughness_factor: 1.0,
        metallic_roughness_texture: None,
        normal_texture: None,
        normal_scale: 1.0,
        occlusion_texture: None,
        occlusion_strength: 1.0,
        emissive_factor: Vec3::ZERO,
        emissive_strength: 1.0,
        emissive_texture: None,
        alpha_mode: AlphaMode::Opaque,
        double_sided: false,
        unlit: false,
    };

    /// `emissive_factor * emissive_strength`: the emitted linear colour before the texture.
    #[must_use]
    pub fn emissive(&self) -> Vec3 {
        self.emissive_factor * self.emissive_strength
    }
}

/// How the materials use each image.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ImageUsage {
    pub(crate) color: bool,
    pub(crate) data: bool,
}

struct Context<'a> {
    file: &'a str,
    material: ElementName,
    usage: &'a mut [ImageUsage],
    warnings: &'a mut Vec<String>,
}

impl Context<'_> {
    fn texture(
        &mut self,
        slot: &str,
        texture: gltf::Texture<'_>,
        tex_coord: u32,
        transform: Option<(TextureTransform, Option<u32>)>,
        color: bool,
    ) -> TextureRef {
        let image = texture.source().index();
        if let Some(u) = self.usage.get_mut(image) {
            if color {
                u.color = true;
            } else {
                u.data = true;
            }
        }
        let (transform, tex_coord) = match transform {
            Some((t, over)) => (Some(t), over.unwrap_or(tex_coord)),
            None => (None, tex_coord),
        };
        let tex_coord = if tex_coord > 1 {
            let message = format!(
                "{}: {}: {slot} uses TEXCOORD_{tex_coord}; only 0 and 1 are supported, using 0",
                self.file, self.material
            );
            log::warn!("{message}");
            self.warnings.push(message);
            0
        } else {
            tex_coord
        };
        TextureRef {
            image: ImageIndex(image),
            tex_coord,
            sampler: Sampler::from_gltf(&texture.sampler()),
            uv_matrix: transform.map_or(Mat3::IDENTITY, |t| t.matrix()),
            transform,
        }
    }

    fn info(
        &mut self,
        slot: &str,
        info: Option<gltf::texture::Info<'_>>,
        color: bool,
    ) -> Option<TextureRef> {
        let info = info?;
        let transform = info.texture_transform().map(|t| {
            (
                TextureTransform {
                    offset: Vec2::from_array(t.offset()),
                    rotation: t.rotation(),
                    scale: Vec2::from_array(t.scale()),
                },
                t.tex_coord(),
            )
        });
        let transform = self.finite(slot, transform);
        Some(self.texture(slot, info.texture(), info.tex_coord(), transform, color))
    }

    fn finite(
        &mut self,
        slot: &str,
        t: Option<(TextureTransform, Option<u32>)>,
    ) -> Option<(TextureTransform, Option<u32>)> {
        match t {
            Some((tt, _))
                if !(tt.offset.is_finite() && tt.rotation.is_finite() && tt.scale.is_finite()) =>
            {
                let message = format!(
                    "{}: {}: {slot}'s KHR_texture_transform is not finite; ignored",
                    self.file, self.material
                );
                log::warn!("{message}");
                self.warnings.push(message);
                None
            }
            t => t,
        }
    }
}

/// Reads a KHR_texture_transform from raw extension JSON (normal and occlusion textures,
/// whose typed API in the `gltf` crate lacks it).
fn transform_from_json(
    value: Option<&serde_json::Value>,
) -> Option<(TextureTransform, Option<u32>)> {
    let value = value?;
    let pair = |key: &str, default: Vec2| {
        value
            .get(key)
            .and_then(|v| v.as_array())
            .filter(|a| a.len() == 2)
            .and_then(|a| Some(Vec2::new(a[0].as_f64()? as f32, a[1].as_f64()? as f32)))
            .unwrap_or(default)
    };
    Some((
        TextureTransform {
            offset: pair("offset", Vec2::ZERO),
            rotation: value
                .get("rotation")
                .and_then(serde_json::Value::as_f64)
                .unwrap_or(0.0) as f32,
            scale: pair("scale", Vec2::ONE),
        },
        value
            .get("texCoord")
            .and_then(serde_json::Value::as_u64)
            .map(|t| u32::try_from(t).unwrap_or(u32::MAX)),
    ))
}

/// Reads every material and marks, in `usage`, which images are used as colour or as data.
pub(crate) fn import_materials(
    doc: &gltf::Document,
    file: &str,
    usage: &mut [ImageUsage],
    warnings: &mut Vec<String>,
) -> Vec<Material> {
    doc.materials()
        .map(|m| {
            let mut cx = Context {
                file,
                material: ElementName::new(
                    crate::ElementKind::Material,
                    m.index().unwrap_or(0),
                    m.name(),
                ),
                usage,
                warnings,
            };
            let pbr = m.pbr_metallic_roughness();
            let normal = m.normal_texture().map(|n| {
                let t = transform_from_json(n.extension_value("KHR_texture_transform"));
                let t = cx.finite("normalTexture", t);
                (
                    cx.texture("normalTexture", n.texture(), n.tex_coord(), t, false),
                    n.scale(),
                )
            });
            let occlusion = m.occlusion_texture().map(|o| {
                let t = transform_from_json(o.extension_value("KHR_texture_transform"));
                let t = cx.finite("occlusionTexture", t);
                (
                    cx.texture("occlusionTexture", o.texture(), o.tex_coord(), t, false),
                    o.strength(),
                )
            });
            Material {
                name: m.name().map(str::to_owned),
                base_color_factor: Vec4::from_array(pbr.base_color_factor()),
                base_color_texture: cx.info("baseColorTexture", pbr.base_color_texture(), true),
                metallic_factor: pbr.metallic_factor(),
                roughness_factor: pbr.roughness_factor(),
                metallic_roughness_texture: cx.info(
                    "metallicRoughnessTexture",
                    pbr.metallic_roughness_texture(),
                    false,
                ),
                normal_scale: normal.as_ref().map_or(1.0, |n| n.1),
                normal_texture: normal.map(|n| n.0),
                occlusion_strength: occlusion.as_ref().map_or(1.0, |o| o.1),
                occlusion_texture: occlusion.map(|o| o.0),
                emissive_factor: Vec3::from_array(m.emissive_factor()),
                emissive_strength: m.emissive_strength().unwrap_or(1.0),
                emissive_texture: cx.info("emissiveTexture", m.emissive_texture(), true),
                alpha_mode: match m.alpha_mode() {
                    gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
                    gltf::material::AlphaMode::Mask => AlphaMode::Mask {
                        cutoff: m.alpha_cutoff().unwrap_or(0.5),
                    },
                    gltf::material::AlphaMode::Blend => AlphaMode::Blend,
                },
                double_sided: m.double_sided(),
                unlit: m.unlit(),
            }
        })
        .collect()
}
