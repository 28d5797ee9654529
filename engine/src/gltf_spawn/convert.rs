//! glTF data to renderer and core types, one value at a time: vertices,
//! materials, samplers, cameras, lights and animation channels. No GPU and
//! no scene here, so each conversion is unit-tested on its own.

use glam::{Quat, Vec2, Vec3};
use taos_gltf as gltf;
use taos_renderer::deform::{DeformDataError, DeformableMeshData, MorphTargetData};
use taos_renderer::resources::{
    AlphaMode, Filter, MeshData, MeshDataError, PbrMaterial, TextureId, TextureSampler,
    TextureSlot, UvTransform, Vertex, Wrap,
};

use crate::{AnimationChannel, Camera, CameraError, GameObject, Interpolation};

/// A primitive's vertices and indices as renderer mesh data. Missing
/// attributes get the renderer's neutral values: texture coordinates
/// (0, 0), no tangent (the shader derives one), `uv1 = uv`, white.
pub(crate) fn mesh_data(primitive: &gltf::Primitive) -> Result<MeshData, MeshDataError> {
    let uv0 = primitive.tex_coords_0.as_deref();
    let uv1 = primitive.tex_coords_1.as_deref();
    let tangents = primitive.tangents.as_deref();
    let colors = primitive.colors.as_deref();
    let vertices = primitive
        .positions
        .iter()
        .zip(&primitive.normals)
        .enumerate()
        .map(|(i, (&position, &normal))| {
            let uv = uv0.map_or(Vec2::ZERO, |uv| uv[i]);
            let mut vertex = Vertex::new(position, normal, uv);
            if let Some(uv1) = uv1 {
                vertex = vertex.with_uv1(uv1[i]);
            }
            if let Some(tangents) = tangents {
                vertex = vertex.with_tangent(tangents[i]);
            }
            if let Some(colors) = colors {
                vertex = vertex.with_color(colors[i]);
            }
            vertex
        })
        .collect();
    MeshData::new(vertices, primitive.indices.clone())
}

/// The renderer's sampler for a glTF sampler.
pub(crate) fn sampler(sampler: &gltf::Sampler) -> TextureSampler {
    let wrap = |mode| match mode {
        gltf::WrapMode::Repeat => Wrap::Repeat,
        gltf::WrapMode::ClampToEdge => Wrap::ClampToEdge,
        gltf::WrapMode::MirroredRepeat => Wrap::MirroredRepeat,
    };
    let (min, mipmap) = match sampler.min_filter {
        gltf::MinFilter::Nearest => (Filter::Nearest, None),
        gltf::MinFilter::Linear => (Filter::Linear, None),
        gltf::MinFilter::NearestMipmapNearest => (Filter::Nearest, Some(Filter::Nearest)),
        gltf::MinFilter::LinearMipmapNearest => (Filter::Linear, Some(Filter::Nearest)),
        gltf::MinFilter::NearestMipmapLinear => (Filter::Nearest, Some(Filter::Linear)),
        gltf::MinFilter::LinearMipmapLinear => (Filter::Linear, Some(Filter::Linear)),
    };
    TextureSampler {
        wrap_u: wrap(sampler.wrap_s),
        wrap_v: wrap(sampler.wrap_t),
        mag: match sampler.mag_filter {
            gltf::MagFilter::Nearest => Filter::Nearest,
            gltf::MagFilter::Linear => Filter::Linear,
        },
        min,
        mipmap,
    }
}

/// A texture reference as a slot, reading `texture` (the image uploaded in
/// the colour space the slot needs).
pub(crate) fn slot(reference: &gltf::TextureRef, texture: TextureId) -> TextureSlot {
    let transform = reference
        .transform
        .map_or(UvTransform::default(), |t| UvTransform {
            offset: t.offset,
            rotation: t.rotation,
            scale: t.scale,
        });
    TextureSlot::new(texture)
        .with_tex_coord(reference.tex_coord)
        .with_transform(transform)
        .with_sampler(sampler(&reference.sampler))
}

/// Which uploaded texture an image reference reads.
pub(crate) trait TextureFor {
    /// The image `image` uploaded as colour (sRGB) or data (linear).
    fn texture(&self, image: gltf::ImageIndex, color: bool) -> Option<TextureId>;
}

/// A glTF material as a renderer material.
pub(crate) fn material(material: &gltf::Material, textures: &impl TextureFor) -> PbrMaterial {
    let slot_of = |reference: &Option<gltf::TextureRef>, color: bool| {
        reference.as_ref().and_then(|reference| {
            textures
                .texture(reference.image, color)
                .map(|texture| slot(reference, texture))
        })
    };
    PbrMaterial {
        base_color: material.base_color_factor,
        base_color_texture: slot_of(&material.base_color_texture, true),
        metallic: material.metallic_factor,
        roughness: material.roughness_factor,
        metallic_roughness_texture: slot_of(&material.metallic_roughness_texture, false),
        normal_texture: slot_of(&material.normal_texture, false),
        normal_scale: material.normal_scale,
        occlusion_texture: slot_of(&material.occlusion_texture, false),
        occlusion_strength: material.occlusion_strength,
        emissive: material.emissive(),
        emissive_texture: slot_of(&material.emissive_texture, true),
        alpha: match material.alpha_mode {
            gltf::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::AlphaMode::Mask { cutoff } => AlphaMode::Mask(cutoff),
            gltf::AlphaMode::Blend => AlphaMode::Blend,
        },
        double_sided: material.double_sided,
        unlit: material.unlit,
    }
}

/// A glTF camera as a camera component. A perspective camera without an
/// aspect ratio takes `viewport_aspect`; one without a far plane gets one
/// 10,000 times its near plane (the engine's cameras are finite).
pub(crate) fn camera(camera: &gltf::Camera, viewport_aspect: f32) -> Result<Camera, CameraError> {
    match camera.projection {
        gltf::Projection::Perspective {
            yfov,
            aspect_ratio,
            znear,
            zfar,
        } => Camera::perspective(
            yfov.to_degrees(),
            znear,
            zfar.unwrap_or(znear * 10_000.0),
            aspect_ratio.unwrap_or(viewport_aspect),
        ),
        gltf::Projection::Orthographic {
            xmag,
            ymag,
            znear,
            zfar,
        } => Camera::orthographic(ymag, znear, zfar, xmag / ymag),
    }
}

/// The reach of a light without a range: where its intensity has fallen
/// under 1/256 with the inverse square (at least 1 m).
pub(crate) fn light_range(light: &gltf::Light) -> f32 {
    light
        .range
        .unwrap_or_else(|| (light.intensity.max(0.0) * 256.0).sqrt())
        .max(1.0)
}

/// Converts one glTF animation channel to a core channel on `target`.
pub(crate) fn channel(channel: &gltf::Channel, target: GameObject) -> AnimationChannel {
    fn keys<T: Copy>(keys: &gltf::Keyframes<T>) -> (Vec<T>, Interpolation) {
        match keys {
            gltf::Keyframes::Step(values) => (values.clone(), Interpolation::Step),
            gltf::Keyframes::Linear(values) => (values.clone(), Interpolation::Linear),
            gltf::Keyframes::CubicSpline(keys) => (
                keys.iter()
                    .flat_map(|key| [key.in_tangent, key.value, key.out_tangent])
                    .collect(),
                Interpolation::CubicSpline,
            ),
        }
    }
    let times = channel.times.clone();
    match &channel.track {
        gltf::Track::Translation(k) => {
            let (values, interpolation): (Vec<Vec3>, _) = keys(k);
            AnimationChannel::translation(target, times, values, interpolation)
        }
        gltf::Track::Rotation(k) => {
            let (values, interpolation): (Vec<Quat>, _) = keys(k);
            AnimationChannel::rotation(target, times, values, interpolation)
        }
        gltf::Track::Scale(k) => {
            let (values, interpolation): (Vec<Vec3>, _) = keys(k);
            AnimationChannel::scale(target, times, values, interpolation)
        }
    }
}

/// A light's colour, never negative or non-finite.
pub(crate) fn light_color(light: &gltf::Light) -> Vec3 {
    if light.color.is_finite() {
        light.color.max(Vec3::ZERO)
    } else {
        Vec3::ONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Uploaded;

    impl TextureFor for Uploaded {
        fn texture(&self, image: gltf::ImageIndex, color: bool) -> Option<TextureId> {
            Some(TextureId(image.0 as u32 * 2 + u32::from(color)))
        }
    }

    #[test]
    fn every_min_filter_maps_to_a_filter_and_a_mip_mode() {
        let mut s = gltf::Sampler {
            wrap_s: gltf::WrapMode::MirroredRepeat,
            wrap_t: gltf::WrapMode::ClampToEdge,
            mag_filter: gltf::MagFilter::Nearest,
            min_filter: gltf::MinFilter::NearestMipmapLinear,
        };
        let mapped = sampler(&s);
        assert_eq!(
            (
                mapped.wrap_u,
                mapped.wrap_v,
                mapped.mag,
                mapped.min,
                mapped.mipmap
            ),
            (
                Wrap::MirroredRepeat,
                Wrap::ClampToEdge,
                Filter::Nearest,
                Filter::Nearest,
                Some(Filter::Linear)
            )
        );
        s.min_filter = gltf::MinFilter::Linear;
        assert_eq!(sampler(&s).mipmap, None);
    }

    #[test]
    fn materials_read_colour_slots_as_srgb_and_data_slots_as_linear() {
        let reference = |image| gltf::TextureRef {
            image: gltf::ImageIndex(image),
            tex_coord: 1,
            sampler: gltf::Sampler::default(),
            transform: Some(gltf::TextureTransform {
                offset: Vec2::new(0.5, 0.0),
                rotation: 0.0,
                scale: Vec2::ONE,
            }),
            uv_matrix: glam::Mat3::IDENTITY,
        };
        let source = gltf::Material {
            base_color_texture: Some(reference(0)),
            normal_texture: Some(reference(1)),
            emissive_factor: Vec3::ONE,
            emissive_strength: 3.0,
            alpha_mode: gltf::AlphaMode::Mask { cutoff: 0.3 },
            unlit: true,
            ..gltf::Material::DEFAULT
        };
        let converted = material(&source, &Uploaded);
        let base = converted.base_color_texture.unwrap();
        assert_eq!(base.texture, TextureId(1)); // image 0 as colour
        assert_eq!(
            (base.tex_coord, base.transform.offset),
            (1, Vec2::new(0.5, 0.0))
        );
        assert_eq!(converted.normal_texture.unwrap().texture, TextureId(2)); // image 1 as data
        assert_eq!(converted.emissive, Vec3::splat(3.0));
        assert_eq!(converted.alpha, AlphaMode::Mask(0.3));
        assert!(converted.unlit && converted.occlusion_texture.is_none());
    }

    #[test]
    fn the_renderer_turns_texture_coordinates_as_the_importer_does() {
        let transform = gltf::TextureTransform {
            offset: Vec2::new(0.25, -0.5),
            rotation: 0.7,
            scale: Vec2::new(2.0, 0.5),
        };
        let reference = gltf::TextureRef {
            image: gltf::ImageIndex(0),
            tex_coord: 0,
            sampler: gltf::Sampler::default(),
            transform: Some(transform),
            uv_matrix: transform.matrix(),
        };
        let converted = slot(&reference, TextureId(0)).transform.matrix();
        assert!(
            converted.abs_diff_eq(transform.matrix(), 1e-6),
            "{converted}"
        );
    }

    #[test]
    fn cameras_fill_in_what_gltf_leaves_open() {
        let open = gltf::Camera {
            name: None,
            projection: gltf::Projection::Perspective {
                yfov: 1.0,
                aspect_ratio: None,
                znear: 0.1,
                zfar: None,
            },
        };
        let camera = camera(&open, 2.0).unwrap();
        match camera.projection {
            crate::Projection::Perspective { aspect, far, .. } => {
                assert_eq!(aspect, 2.0);
                assert!((far - 1000.0).abs() < 1e-3);
            }
            other => panic!("{other:?}"),
        }
        let bad = gltf::Camera {
            name: None,
            projection: gltf::Projection::Orthographic {
                xmag: 1.0,
                ymag: 1.0,
                znear: 5.0,
                zfar: 1.0,
            },
        };
        assert!(super::camera(&bad, 1.0).is_err());
    }

    #[test]
    fn an_unbounded_light_reaches_where_it_fades_out() {
        let light = gltf::Light {
            name: None,
            kind: gltf::LightKind::Point,
            color: Vec3::ONE,
            intensity: 100.0,
            range: None,
        };
        assert_eq!(light_range(&light), 160.0);
        let dim = gltf::Light {
            intensity: 0.001,
            range: None,
            ..light.clone()
        };
        assert_eq!(light_range(&dim), 1.0);
    }
}

/// `primitive`'s mesh as [`mesh_data`] makes it, with every triangle's
/// winding reversed and tangent handedness negated: what a mirrored node
/// (negative determinant) draws, so its front faces stay front faces.
pub(crate) fn mirrored_mesh_data(primitive: &gltf::Primitive) -> Result<MeshData, MeshDataError> {
    let data = mesh_data(primitive)?;
    let vertices = data
        .vertices()
        .iter()
        .map(|v| Vertex {
            tangent: [v.tangent[0], v.tangent[1], v.tangent[2], -v.tangent[3]],
            ..*v
        })
        .collect();
    let indices = data
        .indices()
        .chunks_exact(3)
        .flat_map(|t| [t[0], t[2], t[1]])
        .collect();
    MeshData::new(vertices, indices)
}

/// Why a primitive could not become a deformable mesh.
#[derive(Debug)]
pub(crate) enum DeformableError {
    Mesh(MeshDataError),
    Deform(DeformDataError),
}

/// A skinned (`skinned`: its node has a skin and it has influences) and/or
/// morphing primitive as deformable data; `mirrored` as [`mirrored_mesh_data`].
pub(crate) fn deformable_data(
    primitive: &gltf::Primitive,
    skinned: bool,
    mirrored: bool,
) -> Result<DeformableMeshData, DeformableError> {
    let mesh = if mirrored {
        mirrored_mesh_data(primitive)
    } else {
        mesh_data(primitive)
    }
    .map_err(DeformableError::Mesh)?;
    let mut data = DeformableMeshData::new(mesh);
    if skinned && let Some(influences) = &primitive.influences {
        let weights = influences.weights.iter().map(|w| w.to_array()).collect();
        data = data
            .with_skin(influences.joints.clone(), weights)
            .map_err(DeformableError::Deform)?;
    }
    for target in &primitive.morph_targets {
        data = data
            .with_morph_target(MorphTargetData {
                positions: target.positions.clone().unwrap_or_default(),
                normals: target.normals.clone().unwrap_or_default(),
                tangents: target.tangents.clone().unwrap_or_default(),
            })
            .map_err(DeformableError::Deform)?;
    }
    Ok(data)
}

/// A glTF `weights` channel as a core channel driving `target`'s
/// [`MorphWeights`](crate::MorphWeights).
pub(crate) fn weights_channel(
    channel: &gltf::WeightsChannel,
    target: GameObject,
) -> AnimationChannel {
    let (values, interpolation) = match &channel.weights {
        gltf::Keyframes::Step(keys) => (keys.concat(), Interpolation::Step),
        gltf::Keyframes::Linear(keys) => (keys.concat(), Interpolation::Linear),
        gltf::Keyframes::CubicSpline(keys) => (
            keys.iter()
                .flat_map(|key| {
                    key.in_tangent
                        .iter()
                        .chain(&key.value)
                        .chain(&key.out_tangent)
                        .copied()
                })
                .collect(),
            Interpolation::CubicSpline,
        ),
    };
    AnimationChannel::weights(
        target,
        channel.times.clone(),
        values,
        channel.targets,
        interpolation,
    )
}
