//! Skins: the joints that deform a mesh, their inverse bind matrices, and the checks that tie
//! them to the nodes and meshes using them.

use std::sync::Arc;

use glam::Mat4;

use crate::accessor::{Buffers, Encoding, read_floats};
use crate::error::{ElementKind, ElementName, GltfError, SkinProblem};
use crate::index::NodeIndex;
use crate::mesh::Mesh;
use crate::nodes::Node;

/// A glTF skin: the joint nodes that deform the meshes of the nodes using it.
///
/// A skinned vertex's position is `sum(weight_k * world(joints[j_k]) * inverse_bind_matrices[j_k])`
/// applied to the bind-pose position; the skinned node's own transform is ignored (glTF 2.0
/// 3.7.3). How many joints a renderer can take is a render-side limit: check
/// [`Skin::joint_count`] against it (this importer accepts up to 65,536, the most a u16
/// `JOINTS_n` index can name).
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    /// The skin's `name`.
    pub name: Option<String>,
    /// The joint nodes; `JOINTS_n` values index this list.
    pub joints: Vec<NodeIndex>,
    /// One matrix per joint, bringing the mesh into the joint's space at bind time; identity
    /// matrices when the file has none. Shared, so every copy of a model spawned from this skin
    /// shares one list.
    pub inverse_bind_matrices: Arc<[Mat4]>,
    /// The `skeleton` node, the common root of the joints, if the file names one (informative
    /// only: joints are placed by their own world transforms).
    pub skeleton: Option<NodeIndex>,
}

impl Skin {
    /// How many joints the skin has (what a renderer's joint limit is checked against).
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }
}

fn skin_name(skin: usize, json: &gltf::json::Skin) -> ElementName {
    ElementName::new(ElementKind::Skin, skin, json.name.as_deref())
}

/// Checks every skin's joints and skeleton name nodes of the document. Runs on the JSON
/// before `gltf-json` validation, so that the error is typed and names the skin.
pub(crate) fn check_skin_nodes(root: &gltf::json::Root, file: &str) -> Result<(), GltfError> {
    let nodes = root.nodes.len();
    for (s, skin) in root.skins.iter().enumerate() {
        let error = |problem| GltfError::Skin {
            file: file.to_owned(),
            skin: skin_name(s, skin),
            problem,
        };
        if let Some(joint) = skin.joints.iter().map(|j| j.value()).find(|&j| j >= nodes) {
            return Err(error(SkinProblem::JointNotANode { joint, nodes }));
        }
        if let Some(node) = skin.skeleton.map(|n| n.value()).filter(|&n| n >= nodes) {
            return Err(error(SkinProblem::SkeletonNotANode { node, nodes }));
        }
        if skin.joints.len() > usize::from(u16::MAX) + 1 {
            return Err(error(SkinProblem::TooManyJoints {
                joints: skin.joints.len(),
            }));
        }
    }
    Ok(())
}

/// Reads every skin and its inverse bind matrices.
pub(crate) fn import_skins(
    doc: &gltf::Document,
    buffers: &Buffers<'_>,
    file: &str,
) -> Result<Vec<Skin>, GltfError> {
    doc.skins()
        .map(|skin| {
            let name = ElementName::new(ElementKind::Skin, skin.index(), skin.name());
            let joints: Vec<NodeIndex> = skin.joints().map(|j| NodeIndex(j.index())).collect();
            let inverse_bind_matrices = match skin.inverse_bind_matrices() {
                None => vec![Mat4::IDENTITY; joints.len()].into(),
                Some(acc) => {
                    let matrices = read_floats::<16>(&acc, buffers, "MAT4 of f32", Encoding::Float)
                        .map_err(|problem| GltfError::Accessor {
                            file: file.to_owned(),
                            element: name.to_string(),
                            usage: "inverseBindMatrices".to_owned(),
                            accessor: acc.index(),
                            problem,
                        })?;
                    if matrices.len() != joints.len() {
                        return Err(GltfError::Skin {
                            file: file.to_owned(),
                            skin: name,
                            problem: SkinProblem::InverseBindMatrixCount {
                                matrices: matrices.len(),
                                joints: joints.len(),
                            },
                        });
                    }
                    matrices.iter().map(Mat4::from_cols_array).collect()
                }
            };
            Ok(Skin {
                name: skin.name().map(str::to_owned),
                joints,
                inverse_bind_matrices,
                skeleton: skin.skeleton().map(|n| NodeIndex(n.index())),
            })
        })
        .collect()
}

/// Checks that every node drawing a skinned mesh uses only joints its skin has. `warn` receives
/// skinned meshes drawn without a skin and skins on nodes without a mesh.
pub(crate) fn check_skin_usage(
    doc: &gltf::Document,
    nodes: &[Node],
    meshes: &[Mesh],
    skins: &[Skin],
    file: &str,
    warn: &mut dyn FnMut(String),
) -> Result<(), GltfError> {
    for (n, (node, gn)) in nodes.iter().zip(doc.nodes()).enumerate() {
        let node_name = ElementName::new(ElementKind::Node, n, gn.name());
        let skin = gn.skin().map(|s| (s.index(), &skins[s.index()]));
        let Some(mesh) = node.mesh else {
            if skin.is_some() {
                warn(format!("{file}: {node_name} has a skin but no mesh"));
            }
            continue;
        };
        let mesh = &meshes[mesh.0];
        for primitive in &mesh.primitives {
            let Some(max) = primitive.influences.as_ref().and_then(|i| i.max_joint()) else {
                continue;
            };
            match skin {
                Some((s, skin)) if usize::from(max) >= skin.joints.len() => {
                    return Err(GltfError::Skin {
                        file: file.to_owned(),
                        skin: ElementName::new(ElementKind::Skin, s, skin.name.as_deref()),
                        problem: SkinProblem::JointIndexOutOfRange {
                            node: n,
                            primitive: primitive.source_index,
                            joint: max,
                            joints: skin.joints.len(),
                        },
                    });
                }
                Some(_) => {}
                None => warn(format!(
                    "{file}: {node_name} draws a mesh with JOINTS/WEIGHTS but has no skin; drawn unskinned"
                )),
            }
        }
    }
    Ok(())
}
