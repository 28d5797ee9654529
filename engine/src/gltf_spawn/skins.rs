//! Joining skinned primitives to their joints once every node of the model
//! exists: each gets a [`SkinnedMesh`] naming its joints' objects.

use glam::Mat4;
use taos_gltf as gltf;

use super::{GltfSpawnError, SkinSpawnProblem, Spawner};
use crate::SkinnedMesh;

/// The roots to spawn for `scene`: its own, then the topmost ancestor of
/// every joint that a skin drawn in the scene names but the scene's
/// hierarchy does not hold. Files do this (the glTF tutorial's
/// `SimpleSkin` lists only the skinned node in its scene); viewers place
/// such joints by their own node hierarchy, so they are spawned, and
/// animated, like the rest.
pub(super) fn spawn_roots(model: &gltf::GltfModel, scene: &gltf::Scene) -> Vec<gltf::NodeIndex> {
    let mut reached = vec![false; model.nodes.len()];
    let mut roots = scene.roots.clone();
    let mut next = 0;
    // Breadth over the roots found so far; joints may add roots.
    while next < roots.len() {
        let mut stack = vec![roots[next]];
        next += 1;
        let mut skins = Vec::new();
        while let Some(index) = stack.pop() {
            let Some(seen) = reached.get_mut(index.0) else {
                continue;
            };
            if std::mem::replace(seen, true) {
                continue;
            }
            let node = &model.nodes[index.0];
            stack.extend(&node.children);
            skins.extend(node.skin);
        }
        for skin in skins {
            let Some(skin) = model.skins.get(skin.0) else {
                continue;
            };
            for &joint in &skin.joints {
                if reached.get(joint.0) == Some(&false) {
                    let mut top = joint;
                    while let Some(parent) = model.nodes[top.0].parent {
                        top = parent;
                    }
                    if !roots.contains(&top) {
                        roots.push(top);
                    }
                }
            }
        }
    }
    roots
}

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
                .zip(skin.inverse_bind_matrices.iter())
                .map(|(&joint, bind)| {
                    Mat4::from(self.scene.world_matrix(joint).unwrap_or_default()) * *bind
                })
                .collect();
            let component =
                SkinnedMesh::new(joints, std::sync::Arc::clone(&skin.inverse_bind_matrices))
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
