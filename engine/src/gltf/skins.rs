//! Joining skinned primitives to their joints once every node of the model
//! exists: each gets a [`SkinnedMesh`] naming its joints' objects.

use glam::Mat4;

use super::{GltfSpawnError, SkinSpawnProblem, Spawner};
use crate::SkinnedMesh;

impl Spawner<'_> {
    /// Adds a [`SkinnedMesh`] to every skinned primitive's object, and grows
    /// the model's bounds by each primitive's box as its joints place it.
    pub(super) fn spawn_skins(&mut self) -> Result<(), GltfSpawnError> {
        for (object, skin_index, local) in std::mem::take(&mut self.pending_skins) {
            let skin = &self.model.skins[skin_index.0];
            let error = |problem| GltfSpawnError::Skin {
                file: self.file.to_owned(),
                skin: skin_index.0,
                problem,
            };
            let joints = skin
                .joints
                .iter()
                .enumerate()
                .map(|(joint, node)| {
                    self.spawned.nodes[node.0].ok_or(SkinSpawnProblem::JointOutsideScene {
                        joint,
                        node: node.0,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(error)?;
            // Bind pose: each joint's world times its inverse bind matrix.
            let placements: Vec<Mat4> = joints
                .iter()
                .zip(&skin.inverse_bind_matrices)
                .map(|(&joint, bind)| {
                    Mat4::from(self.scene.world_matrix(joint).unwrap_or_default()) * *bind
                })
                .collect();
            let component = SkinnedMesh::new(joints, skin.inverse_bind_matrices.clone())
                .map_err(|source| error(SkinSpawnProblem::Refused(source)))?;
            self.add(object, component)?;
            self.spawned.skinned.push(object);
            for placement in placements {
                self.grow_bounds(placement, local);
            }
        }
        Ok(())
    }
}
