//! Nodes (local transforms, hierarchy) and scenes.

use glam::{Mat4, Quat, Vec3};

use crate::error::{ElementName, GltfError, NodeProblem};
use crate::index::{CameraIndex, LightIndex, MeshIndex, NodeIndex, SceneIndex, SkinIndex};

/// A node's transform relative to its parent: `translation * rotation * scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalTransform {
    /// Translation.
    pub translation: Vec3,
    /// Rotation (unit quaternion).
    pub rotation: Quat,
    /// Scale (may be negative when a `matrix` mirrors).
    pub scale: Vec3,
}

impl Default for LocalTransform {
    fn default() -> Self {
        Self {
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            scale: Vec3::ONE,
        }
    }
}

impl LocalTransform {
    /// The matrix `T * R * S`.
    #[must_use]
    pub fn to_matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Decomposes an affine matrix without shear into translation, rotation and scale; `None`
    /// when it is not finite, has a projective row, a zero scale, or shear (recomposing it
    /// differs from the input by more than a relative 1e-3).
    #[must_use]
    pub fn try_from_matrix(m: Mat4) -> Option<Self> {
        if !m.is_finite() || m.row(3) != glam::Vec4::W || m.determinant().abs() < 1e-12 {
            return None;
        }
        let (scale, rotation, translation) = m.to_scale_rotation_translation();
        let t = Self {
            translation,
            rotation: rotation.normalize(),
            scale,
        };
        let back = t.to_matrix();
        let size = m.to_cols_array().iter().fold(1.0f32, |a, v| a.max(v.abs()));
        let tolerance = 1e-3 * size;
        let close = back
            .to_cols_array()
            .iter()
            .zip(m.to_cols_array())
            .all(|(a, b)| (a - b).abs() <= tolerance);
        (close && t.rotation.is_finite() && scale.is_finite()).then_some(t)
    }
}

/// A node of the hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The node's `name`.
    pub name: Option<String>,
    /// The node listing this one as a child; `None` for a root.
    pub parent: Option<NodeIndex>,
    /// Children, in file order.
    pub children: Vec<NodeIndex>,
    /// Transform relative to the parent (a `matrix` in the file is decomposed).
    pub transform: LocalTransform,
    /// The mesh drawn at this node.
    pub mesh: Option<MeshIndex>,
    /// The camera attached to this node (looks down its local -Z, +Y up).
    pub camera: Option<CameraIndex>,
    /// The KHR_lights_punctual light attached to this node (points down its local -Z).
    pub light: Option<LightIndex>,
    /// The skin deforming this node's mesh (the node's own transform then does not move the
    /// mesh; its joints do).
    pub skin: Option<SkinIndex>,
    /// The node's own morph weights, overriding its mesh's
    /// [`weights`](crate::Mesh::weights) (non-finite values read as 0).
    pub weights: Option<Vec<f32>>,
}

/// A scene: a set of root nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// The scene's `name` (`None` for the implicit scene of a file without scenes).
    pub name: Option<String>,
    /// Root nodes (each has no parent).
    pub roots: Vec<NodeIndex>,
}

/// Reads nodes, checks the hierarchy is a forest, and reads scenes (an implicit one with every
/// root node when the file has none). Returns the nodes, the scenes and the default scene.
pub(crate) fn import_nodes_and_scenes(
    doc: &gltf::Document,
    file: &str,
) -> Result<(Vec<Node>, Vec<Scene>, SceneIndex), GltfError> {
    let error = |n: &gltf::Node<'_>, problem| GltfError::Node {
        file: file.to_owned(),
        node: ElementName::new(crate::ElementKind::Node, n.index(), n.name()),
        problem,
    };
    let mut nodes = Vec::with_capacity(doc.nodes().len());
    for n in doc.nodes() {
        let transform = match n.transform() {
            gltf::scene::Transform::Matrix { matrix } => {
                let flat: [f32; 16] = std::array::from_fn(|i| matrix[i / 4][i % 4]);
                LocalTransform::try_from_matrix(Mat4::from_cols_array(&flat)).ok_or_else(|| {
                    error(
                        &n,
                        NodeProblem::MatrixNotDecomposable {
                            matrix: Box::new(flat),
                        },
                    )
                })?
            }
            gltf::scene::Transform::Decomposed {
                translation,
                rotation,
                scale,
            } => {
                let finite = |property, v: &[f32]| {
                    if v.iter().all(|x| x.is_finite()) {
                        Ok(())
                    } else {
                        Err(error(
                            &n,
                            NodeProblem::NotFinite {
                                property,
                                value: v.to_vec(),
                            },
                        ))
                    }
                };
                finite("translation", &translation)?;
                finite("rotation", &rotation)?;
                finite("scale", &scale)?;
                let rotation = crate::animation::try_normalize(Quat::from_array(rotation))
                    .ok_or_else(|| {
                        error(
                            &n,
                            NodeProblem::NotFinite {
                                property: "rotation",
                                value: rotation.to_vec(),
                            },
                        )
                    })?;
                LocalTransform {
                    translation: Vec3::from_array(translation),
                    rotation,
                    scale: Vec3::from_array(scale),
                }
            }
        };
        nodes.push(Node {
            name: n.name().map(str::to_owned),
            parent: None,
            children: n.children().map(|c| NodeIndex(c.index())).collect(),
            transform,
            mesh: n.mesh().map(|m| MeshIndex(m.index())),
            camera: n.camera().map(|c| CameraIndex(c.index())),
            light: n.light().map(|l| LightIndex(l.index())),
            skin: n.skin().map(|s| SkinIndex(s.index())),
            weights: n.weights().map(|w| {
                w.iter()
                    .map(|&x| if x.is_finite() { x } else { 0.0 })
                    .collect()
            }),
        });
    }

    // Parents: a child listed twice, or by two nodes, is an error.
    for (gn, parent) in doc.nodes().zip(0..) {
        for child in gn.children() {
            let c = child.index();
            if let Some(first) = nodes[c].parent {
                return Err(error(
                    &child,
                    NodeProblem::TwoParents {
                        first: first.0,
                        second: parent,
                    },
                ));
            }
            nodes[c].parent = Some(NodeIndex(parent));
        }
    }
    // Every node must be reachable from a root; the unreachable ones sit on a cycle.
    let mut reached = vec![false; nodes.len()];
    let mut stack: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].parent.is_none())
        .collect();
    while let Some(i) = stack.pop() {
        // Each node has at most one parent, so each is pushed at most once.
        reached[i] = true;
        stack.extend(nodes[i].children.iter().map(|c| c.0));
    }
    if let Some(i) = reached.iter().position(|r| !r) {
        let gn = doc
            .nodes()
            .nth(i)
            .map(|n| ElementName::new(crate::ElementKind::Node, i, n.name()));
        return Err(GltfError::Node {
            file: file.to_owned(),
            node: gn.unwrap_or_else(|| ElementName::new(crate::ElementKind::Node, i, None)),
            problem: NodeProblem::Cycle,
        });
    }

    let mut scenes = Vec::new();
    for s in doc.scenes() {
        let mut roots = Vec::new();
        for n in s.nodes() {
            if let Some(parent) = nodes[n.index()].parent {
                return Err(error(
                    &n,
                    NodeProblem::SceneRootHasParent {
                        scene: s.index(),
                        parent: parent.0,
                    },
                ));
            }
            roots.push(NodeIndex(n.index()));
        }
        scenes.push(Scene {
            name: s.name().map(str::to_owned),
            roots,
        });
    }
    let default_scene = if scenes.is_empty() {
        scenes.push(Scene {
            name: None,
            roots: (0..nodes.len())
                .filter(|&i| nodes[i].parent.is_none())
                .map(NodeIndex)
                .collect(),
        });
        SceneIndex(0)
    } else {
        SceneIndex(doc.default_scene().map_or(0, |s| s.index()))
    };
    Ok((nodes, scenes, default_scene))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_decompose_or_are_refused() {
        let t = LocalTransform {
            translation: Vec3::new(1.0, 2.0, 3.0),
            rotation: Quat::from_rotation_y(0.5),
            scale: Vec3::new(2.0, 2.0, -1.0),
        };
        let back = LocalTransform::try_from_matrix(t.to_matrix()).unwrap();
        assert!(back.to_matrix().abs_diff_eq(t.to_matrix(), 1e-5));
        let mut shear = Mat4::IDENTITY;
        shear.y_axis.x = 1.0;
        assert!(LocalTransform::try_from_matrix(shear).is_none());
        let mut projective = Mat4::IDENTITY;
        projective.x_axis.w = 0.5;
        assert!(LocalTransform::try_from_matrix(projective).is_none());
        assert!(LocalTransform::try_from_matrix(Mat4::ZERO).is_none());
        assert!(LocalTransform::try_from_matrix(Mat4::from_translation(Vec3::NAN)).is_none());
    }
}
