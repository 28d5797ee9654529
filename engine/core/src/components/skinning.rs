//! Deforming meshes: [`SkinnedMesh`] (joints are ordinary GameObjects) and
//! [`MorphWeights`] (blend-shape weights), both read by the renderer each
//! frame through [`Scene::collect_deformations_into`](crate::Scene::collect_deformations_into).

use std::sync::Arc;

use bevy_ecs::component::Component;
use glam::Mat4;

use crate::object::GameObject;

/// Why a [`SkinnedMesh`] or [`MorphWeights`] was refused. Nothing was made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DeformError {
    /// A skin needs one inverse bind matrix per joint.
    #[error("a skin of {joints} joints needs {joints} inverse bind matrices, got {matrices}")]
    BindMatrixCount {
        /// Joints given.
        joints: usize,
        /// Matrices given.
        matrices: usize,
    },
    /// A skin with no joints deforms nothing.
    #[error("a skin needs at least one joint")]
    NoJoints,
    /// More joints than a vertex's 16-bit joint index can name.
    #[error("a skin may have at most {max} joints, got {joints}")]
    TooManyJoints {
        /// Joints given.
        joints: usize,
        /// The most allowed ([`SkinnedMesh::MAX_JOINTS`]).
        max: usize,
    },
    /// An inverse bind matrix with NaN or infinity in it.
    #[error("inverse bind matrix {joint} is not finite")]
    NonFiniteBindMatrix {
        /// Its joint.
        joint: usize,
    },
    /// A morph weight that is NaN or infinite.
    #[error("morph weight {index} must be finite, got {weight}")]
    NonFiniteWeight {
        /// Its target.
        index: usize,
        /// The rejected value.
        weight: f32,
    },
}

/// Deforms the [`MeshRenderer`](crate::MeshRenderer) on the same object by
/// a skeleton: each vertex follows up to four of these joints.
///
/// Joints are ordinary GameObjects (a glTF import spawns them as the file's
/// nodes), so a game attaches a sword to a hand bone with
/// [`Scene::add_child`](crate::Scene::add_child) and drives a bone from code
/// by writing its [`Transform`](crate::Transform). Each frame the renderer
/// gets, per joint, `inverse(world(mesh object)) * world(joint) *
/// inverse_bind_matrix` (glTF 2.0 skinning): the mesh object's own transform
/// only places the result, so moving the object moves the character. A
/// joint that was removed holds its vertices in the bind pose.
///
/// The mesh must be one the renderer can deform (the engine's glTF spawn
/// makes one per skinned primitive); on a rigid mesh the skin is ignored.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct SkinnedMesh {
    joints: Vec<GameObject>,
    /// Shared by every copy of one model: gathering reads them once per
    /// joint each frame, so one list for many characters stays in cache.
    inverse_bind_matrices: Arc<[Mat4]>,
}

impl SkinnedMesh {
    /// The most joints one skin may have: what a 16-bit joint index names.
    pub const MAX_JOINTS: usize = 65_536;

    /// A skin of `joints`, each with the matrix that brings the mesh from
    /// its bind pose into that joint's space. Copies of one model share the
    /// matrices when they are given the same [`Arc`] (a `Vec` is copied
    /// into a new one).
    ///
    /// # Errors
    /// [`DeformError`] for no joints, more than [`MAX_JOINTS`](Self::MAX_JOINTS),
    /// a matrix count that differs from the joint count, or a non-finite matrix.
    pub fn new(
        joints: Vec<GameObject>,
        inverse_bind_matrices: impl Into<Arc<[Mat4]>>,
    ) -> Result<Self, DeformError> {
        let inverse_bind_matrices = inverse_bind_matrices.into();
        if joints.is_empty() {
            return Err(DeformError::NoJoints);
        }
        if joints.len() > Self::MAX_JOINTS {
            return Err(DeformError::TooManyJoints {
                joints: joints.len(),
                max: Self::MAX_JOINTS,
            });
        }
        if joints.len() != inverse_bind_matrices.len() {
            return Err(DeformError::BindMatrixCount {
                joints: joints.len(),
                matrices: inverse_bind_matrices.len(),
            });
        }
        if let Some(joint) = inverse_bind_matrices.iter().position(|m| !m.is_finite()) {
            return Err(DeformError::NonFiniteBindMatrix { joint });
        }
        Ok(Self {
            joints,
            inverse_bind_matrices,
        })
    }

    /// The joint objects, in the order vertices' joint indices name them.
    #[must_use]
    pub fn joints(&self) -> &[GameObject] {
        &self.joints
    }

    /// One matrix per joint.
    #[must_use]
    pub fn inverse_bind_matrices(&self) -> &[Mat4] {
        &self.inverse_bind_matrices
    }

    /// Replaces the joint objects (for a copy of the same model), keeping
    /// the matrices; `map` is called once per joint.
    pub fn retarget(&mut self, mut map: impl FnMut(GameObject) -> GameObject) {
        for joint in &mut self.joints {
            *joint = map(*joint);
        }
    }
}

/// The weights of the morph targets (blend shapes) of the
/// [`MeshRenderer`](crate::MeshRenderer) on the same object: vertex `v` is
/// drawn at `base(v) + sum(weight[t] * displacement[t](v))`, and likewise
/// its normal and tangent. Animation `weights` channels write them; a game
/// may write them too. Weights past the mesh's target count are ignored,
/// missing ones count as 0.
#[derive(Component, Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<f32>", into = "Vec<f32>")]
pub struct MorphWeights {
    weights: Vec<f32>,
}

impl MorphWeights {
    /// Weights, one per target.
    ///
    /// # Errors
    /// [`DeformError::NonFiniteWeight`] for NaN or infinity.
    pub fn new(weights: Vec<f32>) -> Result<Self, DeformError> {
        check_weights(&weights)?;
        Ok(Self { weights })
    }

    /// The weights.
    #[must_use]
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Sets the weight of target `index`, growing the list with zeros if needed.
    ///
    /// # Errors
    /// [`DeformError::NonFiniteWeight`] for NaN or infinity; nothing changes.
    pub fn set(&mut self, index: usize, weight: f32) -> Result<(), DeformError> {
        if !weight.is_finite() {
            return Err(DeformError::NonFiniteWeight { index, weight });
        }
        if index >= self.weights.len() {
            self.weights.resize(index + 1, 0.0);
        }
        self.weights[index] = weight;
        Ok(())
    }

    /// Replaces every weight.
    ///
    /// # Errors
    /// [`DeformError::NonFiniteWeight`] for NaN or infinity; nothing changes.
    pub fn set_all(&mut self, weights: &[f32]) -> Result<(), DeformError> {
        check_weights(weights)?;
        self.weights.clear();
        self.weights.extend_from_slice(weights);
        Ok(())
    }
}

impl TryFrom<Vec<f32>> for MorphWeights {
    type Error = DeformError;

    fn try_from(weights: Vec<f32>) -> Result<Self, DeformError> {
        Self::new(weights)
    }
}

impl From<MorphWeights> for Vec<f32> {
    fn from(weights: MorphWeights) -> Self {
        weights.weights
    }
}

impl crate::game_loop::StateHash for MorphWeights {
    fn hash_state(&self, h: &mut crate::game_loop::StateHasher) {
        self.weights.hash_state(h);
    }
}

fn check_weights(weights: &[f32]) -> Result<(), DeformError> {
    match weights.iter().position(|w| !w.is_finite()) {
        Some(index) => Err(DeformError::NonFiniteWeight {
            index,
            weight: weights[index],
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use bevy_ecs::entity::Entity;

    use super::*;

    fn object(n: u32) -> GameObject {
        GameObject::from_entity(Entity::from_raw_u32(n).unwrap())
    }

    #[test]
    fn a_skin_is_checked_before_it_is_made() {
        assert_eq!(
            SkinnedMesh::new(vec![], Vec::<Mat4>::new()),
            Err(DeformError::NoJoints)
        );
        assert_eq!(
            SkinnedMesh::new(vec![object(1)], vec![]),
            Err(DeformError::BindMatrixCount {
                joints: 1,
                matrices: 0
            })
        );
        assert_eq!(
            SkinnedMesh::new(vec![object(1)], vec![Mat4::NAN]),
            Err(DeformError::NonFiniteBindMatrix { joint: 0 })
        );
        let mut skin = SkinnedMesh::new(vec![object(1)], vec![Mat4::IDENTITY]).unwrap();
        skin.retarget(|_| object(7));
        assert_eq!(skin.joints(), &[object(7)]);
    }

    #[test]
    fn weights_refuse_nan_and_grow_on_demand() {
        assert!(MorphWeights::new(vec![0.0, f32::NAN]).is_err());
        let mut weights = MorphWeights::default();
        weights.set(2, 0.5).unwrap();
        assert_eq!(weights.weights(), &[0.0, 0.0, 0.5]);
        assert!(weights.set(0, f32::INFINITY).is_err());
        assert!(weights.set_all(&[1.0, f32::NAN]).is_err());
        assert_eq!(weights.weights(), &[0.0, 0.0, 0.5]);
    }
}
