//! The GPU side of a model: textures per image and colour space, a
//! material per glTF material (plus the default one), and per node of the
//! spawned scene the mesh each of its primitives draws.
//!
//! A primitive becomes:
//! - a rigid mesh, uploaded once and shared by every node drawing it;
//! - a mirrored copy (winding reversed) for nodes whose world transform
//!   mirrors (negative determinant), so they are not drawn inside out;
//! - a deformable mesh (uploaded once) with one instance per node, when the
//!   node has a skin and the primitive has joint influences, or when the
//!   primitive has morph targets.
//!
//! Named glTF meshes and materials keep their names beside their ids: a
//! material by its name; a mesh's first primitive, uploaded rigid and not
//! mirrored, by the mesh's name, and its later primitives as `"{name}
//! primitive {p}"`. A deformable mesh is not named: each object draws its
//! own instance of it.

use std::collections::{BTreeMap, HashMap};

use glam::Mat4;
use taos_gltf::{self as gltf, ImageIndex};
use taos_renderer::Renderer;
use taos_renderer::resources::{
    ColorSpace, DeformableMeshId, MaterialId, MeshId, Texture, TextureId,
};

use super::GltfSpawnError;
use super::convert::{self, DeformableError, TextureFor};

/// What one primitive of one node draws.
#[derive(Debug, Clone, Copy)]
pub(super) struct PrimitiveAsset {
    pub(super) mesh: MeshId,
    pub(super) material: MaterialId,
    pub(super) bounds: gltf::Aabb,
    /// Drawn deformed by its node's skin.
    pub(super) skinned: bool,
    /// How many morph targets it has (0: none).
    pub(super) morph_targets: usize,
}

/// Per node index of the spawned scene: its mesh's primitives; and the
/// named meshes and materials (the first of each name in the file).
pub(super) struct ModelAssets {
    pub(super) nodes: HashMap<usize, Vec<PrimitiveAsset>>,
    pub(super) meshes: BTreeMap<String, MeshId>,
    pub(super) materials: BTreeMap<String, MaterialId>,
}

/// The name a primitive's rigid mesh is found by: the mesh's name for the
/// first primitive, `"{name} primitive {p}"` for the others.
fn primitive_name(mesh: &str, primitive: usize) -> String {
    if primitive == 0 {
        mesh.to_owned()
    } else {
        format!("{mesh} primitive {primitive}")
    }
}

struct Uploaded(HashMap<(usize, bool), TextureId>);

impl TextureFor for Uploaded {
    fn texture(&self, image: ImageIndex, color: bool) -> Option<TextureId> {
        self.0.get(&(image.0, color)).copied()
    }
}

/// Uploads what the nodes reachable from `roots` draw.
pub(super) fn upload_assets(
    renderer: &mut Renderer,
    model: &gltf::GltfModel,
    roots: &[gltf::NodeIndex],
    file: &str,
) -> Result<ModelAssets, GltfSpawnError> {
    let (assets, gpu) = renderer.assets_mut();
    let mut textures = HashMap::new();
    for (index, image) in model.images.iter().enumerate() {
        let label = image
            .name
            .clone()
            .unwrap_or_else(|| format!("{file} image {index}"));
        for (used, color, space) in [
            (image.used_as_color, true, ColorSpace::Srgb),
            (image.used_as_data, false, ColorSpace::Linear),
        ] {
            if !used {
                continue;
            }
            // KTX2 (KHR_texture_basisu) is transcoded for this GPU; the usage picks sRGB.
            let texture = match &image.pixels {
                gltf::ImagePixels::Ktx2(bytes) => {
                    Texture::from_ktx2_bytes(gpu, &label, bytes, space)
                }
                gltf::ImagePixels::Rgba8(rgba) => Texture::from_rgba8(gpu, &label, rgba, space),
                _ => {
                    log::warn!("{file}: image {index} is of a kind this engine cannot upload");
                    continue;
                }
            }
            .map_err(|source| GltfSpawnError::Texture {
                file: file.to_owned(),
                image: index,
                source,
            })?;
            textures.insert((index, color), assets.add_texture(texture));
        }
    }
    let uploaded = Uploaded(textures);
    let materials: Vec<MaterialId> = model
        .materials
        .iter()
        .map(|m| assets.add_material(convert::material(m, &uploaded)))
        .collect();
    let default_material =
        assets.add_material(convert::material(&gltf::Material::DEFAULT, &uploaded));
    let mut material_names = BTreeMap::new();
    for (material, &id) in model.materials.iter().zip(&materials) {
        if let Some(name) = &material.name {
            material_names.entry(name.clone()).or_insert(id);
        }
    }
    // Name -> (glTF mesh index, id): the lowest index wins a shared name.
    let mut mesh_names: BTreeMap<String, (usize, MeshId)> = BTreeMap::new();
    // Shared uploads: (mesh, primitive, mirrored) -> rigid mesh, and
    // (mesh, primitive, skinned, mirrored) -> deformable source.
    let mut rigid: HashMap<(usize, usize, bool), MeshId> = HashMap::new();
    let mut deformable: HashMap<(usize, usize, bool, bool), DeformableMeshId> = HashMap::new();
    let mut nodes = HashMap::new();
    // Depth first with an explicit stack, with each node's world matrix.
    let mut stack: Vec<(gltf::NodeIndex, Mat4)> =
        roots.iter().map(|&n| (n, Mat4::IDENTITY)).collect();
    while let Some((index, parent)) = stack.pop() {
        let node = &model.nodes[index.0];
        let world = parent * node.transform.to_matrix();
        stack.extend(node.children.iter().map(|&child| (child, world)));
        let Some(mesh_index) = node.mesh else {
            continue;
        };
        let mesh = &model.meshes[mesh_index.0];
        let mut drawn = Vec::with_capacity(mesh.primitives.len());
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let skinned = node.skin.is_some() && primitive.influences.is_some();
            // A skinned mesh ignores its node's transform (glTF 2.0 3.7.3).
            let mirrored = !skinned && world.determinant() < 0.0;
            let morph_targets = primitive.morph_targets.len();
            let label = format!("{file} {} {p}", mesh.name.as_deref().unwrap_or("mesh"));
            let mesh_error = |source| GltfSpawnError::Mesh {
                file: file.to_owned(),
                mesh: mesh_index.0,
                primitive: primitive.source_index,
                source,
            };
            let id = if skinned || morph_targets > 0 {
                let key = (mesh_index.0, p, skinned, mirrored);
                let source =
                    match deformable.get(&key) {
                        Some(&source) => source,
                        None => {
                            let data = convert::deformable_data(primitive, skinned, mirrored)
                                .map_err(|error| match error {
                                    DeformableError::Mesh(source) => mesh_error(source),
                                    DeformableError::Deform(source) => GltfSpawnError::Deform {
                                        file: file.to_owned(),
                                        mesh: mesh_index.0,
                                        primitive: primitive.source_index,
                                        source,
                                    },
                                })?;
                            let source = assets.add_deformable_mesh(gpu, &label, data).map_err(
                                |source| GltfSpawnError::Deform {
                                    file: file.to_owned(),
                                    mesh: mesh_index.0,
                                    primitive: primitive.source_index,
                                    source,
                                },
                            )?;
                            deformable.insert(key, source);
                            source
                        }
                    };
                // The source was just added to this store.
                assets
                    .add_deformed_instance(gpu, source)
                    .unwrap_or(MeshId(u32::MAX))
            } else {
                let key = (mesh_index.0, p, mirrored);
                match rigid.get(&key) {
                    Some(&id) => id,
                    None => {
                        let data = if mirrored {
                            convert::mirrored_mesh_data(primitive)
                        } else {
                            convert::mesh_data(primitive)
                        }
                        .map_err(mesh_error)?;
                        let id = assets.add_mesh(gpu, &label, &data);
                        rigid.insert(key, id);
                        if let (Some(name), false) = (&mesh.name, mirrored) {
                            let named = mesh_names
                                .entry(primitive_name(name, p))
                                .or_insert((mesh_index.0, id));
                            if mesh_index.0 < named.0 {
                                *named = (mesh_index.0, id);
                            }
                        }
                        id
                    }
                }
            };
            drawn.push(PrimitiveAsset {
                mesh: id,
                material: primitive
                    .material
                    .and_then(|m| materials.get(m.0).copied())
                    .unwrap_or(default_material),
                bounds: primitive.bounds,
                skinned,
                morph_targets,
            });
        }
        nodes.insert(index.0, drawn);
    }
    Ok(ModelAssets {
        nodes,
        meshes: mesh_names
            .into_iter()
            .map(|(name, (_, id))| (name, id))
            .collect(),
        materials: material_names,
    })
}
