//! Physics colliders from a spawned glTF model: [`model_collider`] turns
//! the triangles of every spawned mesh node into one triangle-mesh (level
//! geometry) or convex-hull (a prop that moves) [`Collider`], in the frame
//! of the model's root.

use glam::{Affine3A, Vec3};
use taos_gltf::GltfModel;

use crate::physics::{Collider, ShapeError};
use crate::{GameObject, Scene};

use super::SpawnedGltf;

/// Which shape a model's collider takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelShape {
    /// Every triangle as it is: exact, hollow, for fixed level geometry
    /// (terrain, buildings, stairs). Do not give it a dynamic body: a
    /// triangle mesh has no volume for the solver to work with.
    TriangleMesh,
    /// The convex hull of every vertex: a closed solid that may carry a
    /// dynamic body (a barrel, a crate, a rock).
    ConvexHull,
}

/// Why a model gave no collider.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ModelColliderError {
    /// The spawned model's objects are gone from the scene.
    #[error("the model's root object {0:?} is not in the scene")]
    RootGone(GameObject),
    /// None of the spawned nodes carries triangles.
    #[error("the model has no triangles in the spawned scene")]
    NoTriangles,
    /// The model holds more vertices than one collider may (4 billion).
    #[error("the model has {0} vertices, more than one collider holds")]
    TooLarge(usize),
    /// The shape was refused (a flat hull, a mesh of zero-area triangles,
    /// non-finite placements).
    #[error("the model's {shape:?} collider: {source}")]
    Shape {
        /// The shape asked for.
        shape: ModelShape,
        /// Why it was refused.
        #[source]
        source: ShapeError,
    },
}

/// A [`Collider`] for a spawned model, to put on `spawned.root`: the
/// triangles of every mesh node `spawn_gltf` made, placed as they are now
/// (each node's world transform, brought into the root's frame; the
/// root's own scale is applied to the vertices, since colliders take no
/// scale from their object). Skinned meshes count in their bind pose.
///
/// Build it once after spawning: the collider does not follow nodes that
/// move later (an animated door needs its own body).
///
/// ```no_run
/// # fn demo(engine: &mut taos_engine::Engine) -> Result<(), Box<dyn std::error::Error>> {
/// use taos_engine::gltf::{GltfModel, GltfSpawnOptions, ModelShape, model_collider};
///
/// let model = GltfModel::load("assets/level/castle.glb")?;
/// let spawned = engine.spawn_gltf(&model, "castle", &GltfSpawnOptions::default())?;
/// let collider = model_collider(engine.scene(), &model, &spawned, ModelShape::TriangleMesh)?;
/// engine.scene_mut().add_component(spawned.root, collider)?;
/// # Ok(())
/// # }
/// ```
///
/// # Errors
/// [`ModelColliderError`] when the root is gone, the model has no
/// triangles, or the shape is refused.
pub fn model_collider(
    scene: &Scene,
    model: &GltfModel,
    spawned: &SpawnedGltf,
    shape: ModelShape,
) -> Result<Collider, ModelColliderError> {
    let root = scene
        .world_matrix(spawned.root)
        .ok_or(ModelColliderError::RootGone(spawned.root))?;
    let (_, rotation, translation) = root.to_scale_rotation_translation();
    let to_root = Affine3A::from_rotation_translation(rotation, translation).inverse();
    let mut positions: Vec<Vec3> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for (node, object) in model.nodes.iter().zip(&spawned.nodes) {
        let (Some(mesh), Some(object)) = (node.mesh, object) else {
            continue;
        };
        let (Some(mesh), Some(world)) = (model.meshes.get(mesh.0), scene.world_matrix(*object))
        else {
            continue;
        };
        let placement = to_root * world;
        for primitive in &mesh.primitives {
            let base = u32::try_from(positions.len())
                .map_err(|_| ModelColliderError::TooLarge(positions.len()))?;
            positions.extend(
                primitive
                    .positions
                    .iter()
                    .map(|&p| placement.transform_point3(p)),
            );
            if shape == ModelShape::TriangleMesh {
                indices.extend(primitive.indices.iter().map(|&i| base.saturating_add(i)));
            }
        }
    }
    if positions.is_empty() {
        return Err(ModelColliderError::NoTriangles);
    }
    u32::try_from(positions.len()).map_err(|_| ModelColliderError::TooLarge(positions.len()))?;
    let collider = match shape {
        ModelShape::TriangleMesh => Collider::trimesh(&positions, &indices),
        ModelShape::ConvexHull => Collider::convex_hull(&positions),
    };
    collider.map_err(|source| ModelColliderError::Shape { shape, source })
}
