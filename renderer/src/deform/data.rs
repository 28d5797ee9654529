//! Deformable geometry on the CPU: a mesh with joint influences and/or
//! morph targets, validated once.

use glam::Vec3;

use crate::resources::{MeshData, Vertex};

/// The most morph targets one mesh may have.
pub const MAX_MORPH_TARGETS: usize = 256;

/// One morph target (blend shape): per-vertex displacements added, scaled by
/// the target's weight, to the base mesh. An empty list: that attribute is
/// not displaced.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MorphTargetData {
    /// Position displacements, one per vertex (or none).
    pub positions: Vec<Vec3>,
    /// Normal displacements, one per vertex (or none).
    pub normals: Vec<Vec3>,
    /// Tangent displacements (xyz), one per vertex (or none).
    pub tangents: Vec<Vec3>,
}

impl MorphTargetData {
    /// The largest position displacement (how far the target can move a vertex at weight 1).
    #[must_use]
    pub fn reach(&self) -> f32 {
        self.positions
            .iter()
            .map(|d| d.length())
            .fold(0.0, f32::max)
    }
}

/// Which attribute of a morph target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MorphAttribute {
    /// Positions.
    Position,
    /// Normals.
    Normal,
    /// Tangents.
    Tangent,
}

impl std::fmt::Display for MorphAttribute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Position => "position",
            Self::Normal => "normal",
            Self::Tangent => "tangent",
        })
    }
}

/// Why deformable geometry was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DeformDataError {
    /// Joint influences must be given per vertex.
    #[error("{got} joint influences for {expected} vertices")]
    InfluenceCount {
        /// Vertices.
        expected: usize,
        /// Influences given.
        got: usize,
    },
    /// A weight that is negative, NaN or infinite.
    #[error("vertex {vertex} has a weight that is negative or not finite")]
    BadWeight {
        /// The vertex.
        vertex: usize,
    },
    /// A morph target's list is neither empty nor one per vertex.
    #[error("morph target {target} {attribute}: {got} displacements for {expected} vertices")]
    MorphLength {
        /// The target.
        target: usize,
        /// The attribute.
        attribute: MorphAttribute,
        /// Vertices.
        expected: usize,
        /// Displacements given.
        got: usize,
    },
    /// A displacement with NaN or infinity.
    #[error("morph target {target} {attribute} has a non-finite displacement")]
    MorphNonFinite {
        /// The target.
        target: usize,
        /// The attribute.
        attribute: MorphAttribute,
    },
    /// More than [`MAX_MORPH_TARGETS`].
    #[error("a mesh may have at most {max} morph targets, got {count}")]
    TooManyTargets {
        /// Targets given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// Neither influences nor morph targets: use an ordinary mesh.
    #[error("a deformable mesh needs joint influences or morph targets")]
    NothingToDeform,
}

/// Each vertex's four joint indices and their weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influences<'a> {
    /// Joint indices, one `[u16; 4]` per vertex.
    pub joints: &'a [[u16; 4]],
    /// Weights matching `joints`.
    pub weights: &'a [[f32; 4]],
}

type InfluenceLists = (Vec<[u16; 4]>, Vec<[f32; 4]>);

/// A mesh that a skeleton and/or morph weights deform each frame.
///
/// ```
/// use taos_renderer::deform::DeformableMeshData;
/// use taos_renderer::resources::MeshData;
///
/// // A cube that follows joint 0 entirely.
/// let cube = MeshData::cube(1.0);
/// let count = cube.vertices().len();
/// let data = DeformableMeshData::new(cube)
///     .with_skin(vec![[0, 0, 0, 0]; count], vec![[1.0, 0.0, 0.0, 0.0]; count])?;
/// assert_eq!(data.joints_needed(), 1);
/// # Ok::<(), taos_renderer::deform::DeformDataError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DeformableMeshData {
    mesh: MeshData,
    influences: Option<InfluenceLists>,
    targets: Vec<MorphTargetData>,
}

impl DeformableMeshData {
    /// The base (bind-pose) mesh, not yet deformable: add a skin or targets.
    #[must_use]
    pub fn new(mesh: MeshData) -> Self {
        Self {
            mesh,
            influences: None,
            targets: Vec::new(),
        }
    }

    /// Adds each vertex's four joint indices and weights. Weights that do
    /// not sum to 1 are used as given (the importer normalises them).
    ///
    /// # Errors
    /// [`DeformDataError::InfluenceCount`] unless both lists have one entry
    /// per vertex; [`DeformDataError::BadWeight`] for a negative or non-finite weight.
    pub fn with_skin(
        mut self,
        joints: Vec<[u16; 4]>,
        weights: Vec<[f32; 4]>,
    ) -> Result<Self, DeformDataError> {
        let expected = self.mesh.vertices().len();
        for got in [joints.len(), weights.len()] {
            if got != expected {
                return Err(DeformDataError::InfluenceCount { expected, got });
            }
        }
        if let Some(vertex) = weights
            .iter()
            .position(|w| w.iter().any(|w| !w.is_finite() || *w < 0.0))
        {
            return Err(DeformDataError::BadWeight { vertex });
        }
        self.influences = Some((joints, weights));
        Ok(self)
    }

    /// Adds a morph target.
    ///
    /// # Errors
    /// [`DeformDataError`] for a list that is neither empty nor one per
    /// vertex, a non-finite displacement, or one target past [`MAX_MORPH_TARGETS`].
    pub fn with_morph_target(mut self, target: MorphTargetData) -> Result<Self, DeformDataError> {
        let index = self.targets.len();
        if index >= MAX_MORPH_TARGETS {
            return Err(DeformDataError::TooManyTargets {
                count: index + 1,
                max: MAX_MORPH_TARGETS,
            });
        }
        let expected = self.mesh.vertices().len();
        for (attribute, list) in [
            (MorphAttribute::Position, &target.positions),
            (MorphAttribute::Normal, &target.normals),
            (MorphAttribute::Tangent, &target.tangents),
        ] {
            if !list.is_empty() && list.len() != expected {
                return Err(DeformDataError::MorphLength {
                    target: index,
                    attribute,
                    expected,
                    got: list.len(),
                });
            }
            if !list.iter().all(|d| d.is_finite()) {
                return Err(DeformDataError::MorphNonFinite {
                    target: index,
                    attribute,
                });
            }
        }
        self.targets.push(target);
        Ok(self)
    }

    /// The base mesh.
    #[must_use]
    pub fn mesh(&self) -> &MeshData {
        &self.mesh
    }

    /// Joint indices and weights per vertex, if skinned.
    #[must_use]
    pub fn influences(&self) -> Option<Influences<'_>> {
        self.influences
            .as_ref()
            .map(|(joints, weights)| Influences { joints, weights })
    }

    /// The morph targets.
    #[must_use]
    pub fn morph_targets(&self) -> &[MorphTargetData] {
        &self.targets
    }

    /// How many joint matrices a pose must give: one past the largest joint
    /// index used with a non-zero weight (0 when not skinned).
    #[must_use]
    pub fn joints_needed(&self) -> usize {
        self.influences.as_ref().map_or(0, |(joints, weights)| {
            joints
                .iter()
                .zip(weights)
                .flat_map(|(j, w)| (0..4).filter(|&k| w[k] > 0.0).map(move |k| j[k]))
                .max()
                .map_or(0, |j| usize::from(j) + 1)
        })
    }

    pub(crate) fn check_deforms(&self) -> Result<(), DeformDataError> {
        if self.influences.is_none() && self.targets.is_empty() {
            return Err(DeformDataError::NothingToDeform);
        }
        Ok(())
    }

    /// The GPU source layout: per vertex, the 18 vertex floats, the four
    /// joint indices packed in two words, the four weights.
    pub(crate) fn source_words(&self) -> Vec<u32> {
        let vertices = self.mesh.vertices();
        let mut words = Vec::with_capacity(vertices.len() * 24);
        for (i, vertex) in vertices.iter().enumerate() {
            words.extend_from_slice(bytemuck::cast_slice::<Vertex, u32>(std::slice::from_ref(
                vertex,
            )));
            let (joints, weights) = self
                .influences
                .as_ref()
                .map_or(([0; 4], [0.0; 4]), |(j, w)| (j[i], w[i]));
            words.push(u32::from(joints[0]) | (u32::from(joints[1]) << 16));
            words.push(u32::from(joints[2]) | (u32::from(joints[3]) << 16));
            words.extend(weights.map(f32::to_bits));
        }
        words
    }

    /// Morph displacements, target after target, 9 floats per vertex.
    pub(crate) fn morph_floats(&self) -> Vec<f32> {
        let count = self.mesh.vertices().len();
        let mut floats = Vec::with_capacity(self.targets.len() * count * 9);
        for target in &self.targets {
            for v in 0..count {
                for list in [&target.positions, &target.normals, &target.tangents] {
                    floats
                        .extend_from_slice(&list.get(v).copied().unwrap_or(Vec3::ZERO).to_array());
                }
            }
        }
        floats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> MeshData {
        MeshData::cube(1.0)
    }

    #[test]
    fn influences_and_targets_are_checked_per_vertex() {
        let n = cube().vertices().len();
        assert_eq!(
            DeformableMeshData::new(cube())
                .with_skin(vec![[0; 4]; n - 1], vec![[1.0, 0.0, 0.0, 0.0]; n]),
            Err(DeformDataError::InfluenceCount {
                expected: n,
                got: n - 1
            })
        );
        let mut weights = vec![[1.0, 0.0, 0.0, 0.0]; n];
        weights[3][1] = -0.5;
        assert_eq!(
            DeformableMeshData::new(cube()).with_skin(vec![[0; 4]; n], weights),
            Err(DeformDataError::BadWeight { vertex: 3 })
        );
        let short = MorphTargetData {
            normals: vec![Vec3::X; 2],
            ..MorphTargetData::default()
        };
        assert!(matches!(
            DeformableMeshData::new(cube()).with_morph_target(short),
            Err(DeformDataError::MorphLength {
                target: 0,
                attribute: MorphAttribute::Normal,
                ..
            })
        ));
        let nan = MorphTargetData {
            positions: vec![Vec3::NAN; n],
            ..MorphTargetData::default()
        };
        assert!(
            DeformableMeshData::new(cube())
                .with_morph_target(nan)
                .is_err()
        );
        assert_eq!(
            DeformableMeshData::new(cube()).check_deforms(),
            Err(DeformDataError::NothingToDeform)
        );
    }

    #[test]
    fn joints_needed_counts_only_weighted_slots() {
        let n = cube().vertices().len();
        let mut joints = vec![[0, 9, 0, 0]; n];
        joints[5] = [2, 40, 0, 0];
        let mut weights = vec![[1.0, 0.0, 0.0, 0.0]; n];
        weights[5] = [0.5, 0.5, 0.0, 0.0];
        let data = DeformableMeshData::new(cube())
            .with_skin(joints, weights)
            .unwrap();
        assert_eq!(data.joints_needed(), 41);
        let words = data.source_words();
        assert_eq!(words.len(), n * 24);
        assert_eq!(words[5 * 24 + 18], 2 | (40 << 16));
    }

    #[test]
    fn the_target_limit_is_enforced() {
        let mut data = DeformableMeshData::new(cube());
        for _ in 0..MAX_MORPH_TARGETS {
            data = data.with_morph_target(MorphTargetData::default()).unwrap();
        }
        assert!(matches!(
            data.with_morph_target(MorphTargetData::default()),
            Err(DeformDataError::TooManyTargets { .. })
        ));
    }
}
