//! Structure tests for skins, joint influences, morph targets, weights animation and
//! `KHR_mesh_quantization`, and the typed errors of their hostile variants.

use base64::Engine as _;
use glam::{Mat4, Vec3, Vec4};
use serde_json::{Value, json};
use taos_gltf::test_models;
use taos_gltf::*;

fn load(path: std::path::PathBuf) -> GltfModel {
    GltfModel::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The model written by `write` as JSON (every test model here embeds its buffer).
fn model_json(write: fn(&std::path::Path) -> std::io::Result<std::path::PathBuf>) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(write(dir.path()).unwrap()).unwrap();
    serde_json::from_slice(&text).unwrap()
}

fn load_json(doc: &Value) -> Result<GltfModel, GltfError> {
    GltfModel::from_slice(&serde_json::to_vec(doc).unwrap(), None, "hostile.gltf")
}

/// Adds a buffer of `count` zeroed elements of `element_size` bytes, a view of it, and an
/// accessor `template` (type and componentType) reading it; returns the accessor's index.
fn add_zero_accessor(
    doc: &mut Value,
    mut template: Value,
    count: usize,
    element_size: usize,
) -> usize {
    let bytes = vec![0u8; count * element_size];
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let buffers = doc["buffers"].as_array_mut().unwrap();
    buffers.push(json!({"byteLength": bytes.len(), "uri": uri}));
    let buffer = buffers.len() - 1;
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": buffer, "byteLength": bytes.len()}));
    template["bufferView"] = json!(views.len() - 1);
    template["count"] = json!(count);
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors.push(template);
    accessors.len() - 1
}

/// Makes `accessor` unbacked: no buffer view, one sparse substitution (read from a zeroed
/// view), so that its `count` elements come from nothing.
fn make_unbacked(doc: &mut Value, accessor: usize, element_size: usize) {
    let zeros = add_zero_accessor(
        doc,
        json!({"componentType": 5121, "type": "SCALAR"}),
        element_size,
        1,
    );
    let view = doc["accessors"][zeros]["bufferView"].clone();
    let target = doc["accessors"][accessor].as_object_mut().unwrap();
    target.remove("bufferView");
    target.insert(
        "sparse".to_owned(),
        json!({"count": 1, "indices": {"bufferView": view, "componentType": 5121}, "values": {"bufferView": view}}),
    );
}

fn accessor_of(doc: &Value, attribute: &str) -> usize {
    doc["meshes"][0]["primitives"][0]["attributes"][attribute]
        .as_u64()
        .unwrap() as usize
}

#[test]
fn two_bone_skin_has_its_joints_matrices_and_renormalised_weights() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::two_bone_skin(dir.path()).unwrap());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    assert_eq!(model.skins.len(), 1);
    let skin = &model.skins[0];
    assert_eq!(skin.name.as_deref(), Some("Arm"));
    assert_eq!(skin.joints, vec![NodeIndex(1), NodeIndex(2)]);
    assert_eq!(skin.joint_count(), 2);
    assert_eq!(skin.skeleton, Some(NodeIndex(1)));
    assert_eq!(
        *skin.inverse_bind_matrices,
        test_models::two_bone_inverse_bind_matrices()
    );
    assert_eq!(model.nodes[0].skin, Some(SkinIndex(0)));
    assert_eq!(model.nodes[1].skin, None);

    let primitive = &model.meshes[0].primitives[0];
    let influences = primitive.influences.as_ref().expect("JOINTS_0/WEIGHTS_0");
    assert_eq!(influences.joints.len(), 6);
    assert_eq!(influences.max_joint(), Some(1));
    for (v, (joints, weights)) in influences
        .joints
        .iter()
        .zip(&influences.weights)
        .enumerate()
    {
        assert!(
            (weights.element_sum() - 1.0).abs() < 1e-6,
            "vertex {v}: {weights}"
        );
        let raw = test_models::TWO_BONE_WEIGHTS_U8[v];
        // Influences are sorted by weight; both joints keep their raw proportions.
        let weight_of = |joint: u16| -> f32 {
            (0..4)
                .filter(|&k| joints[k] == joint && weights[k] > 0.0)
                .map(|k| weights[k])
                .sum()
        };
        let raw_sum = f32::from(raw[0]) + f32::from(raw[1]);
        assert!((weight_of(0) - f32::from(raw[0]) / raw_sum).abs() < 1e-6);
        assert!((weight_of(1) - f32::from(raw[1]) / raw_sum).abs() < 1e-6);
    }
    assert_eq!(influences.weights[2], Vec4::new(0.5, 0.5, 0.0, 0.0));
    assert_eq!(influences.weights[4], Vec4::X);
    assert_eq!(influences.joints[4], [1, 0, 0, 0]);
}

#[test]
fn mirrored_skinned_node_keeps_its_negative_scale_and_skin() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::mirrored_skin(dir.path()).unwrap());
    let node = &model.nodes[0];
    assert_eq!(node.transform.scale, Vec3::new(-1.0, 1.0, 1.0));
    assert_eq!(node.skin, Some(SkinIndex(0)));
    assert!(model.world_matrices()[0].determinant() < 0.0);
    assert_eq!(model.skins[0].joints, vec![NodeIndex(1), NodeIndex(2)]);
}

#[test]
fn three_hundred_joints_are_imported_with_identity_matrices() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::many_joints_skin(dir.path()).unwrap());
    let skin = &model.skins[0];
    assert_eq!(skin.joint_count(), test_models::MANY_JOINTS);
    assert_eq!(skin.joints[299], NodeIndex(300));
    assert!(
        skin.inverse_bind_matrices
            .iter()
            .all(|m| *m == Mat4::IDENTITY)
    );
    assert_eq!(skin.inverse_bind_matrices.len(), 300);
    let primitive = &model.meshes[0].primitives[0];
    // No normals: the primitive was unwelded, and its influences with it.
    assert!(primitive.normals_generated);
    let influences = primitive.influences.as_ref().unwrap();
    assert_eq!(influences.joints.len(), primitive.positions.len());
    assert_eq!(influences.max_joint(), Some(299));
    for (i, &index) in primitive.indices.iter().enumerate().take(300) {
        assert_eq!(influences.joints[index as usize][0] as usize, i);
    }
}

#[test]
fn morph_targets_and_weights_channels_are_imported() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::morph_targets(dir.path()).unwrap());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let mesh = &model.meshes[0];
    assert_eq!(mesh.weights, vec![0.5, 0.0]);
    assert_eq!(mesh.morph_target_count(), 2);
    let targets = &mesh.primitives[0].morph_targets;
    assert_eq!(targets.len(), 2);
    assert_eq!(targets[0].positions, Some(vec![Vec3::Z; 4]));
    assert_eq!(targets[0].normals, None);
    let mut expected = vec![Vec3::ZERO; 4];
    expected[2] = Vec3::X;
    assert_eq!(targets[1].positions, Some(expected));
    assert_eq!(targets[1].normals, Some(vec![Vec3::ZERO; 4]));

    let animation = &model.animations[0];
    assert!(animation.channels.is_empty());
    assert_eq!(animation.weight_channels.len(), 2);
    assert_eq!(animation.duration(), 2.0);
    let linear = &animation.weight_channels[0];
    assert_eq!(linear.target, NodeIndex(0));
    assert_eq!(linear.targets, 2);
    assert_eq!(linear.times, vec![0.0, 1.0]);
    assert_eq!(
        linear.weights,
        Keyframes::Linear(vec![vec![0.0, 0.0], vec![1.0, 0.5]])
    );
    assert_eq!(linear.sample(0.5), vec![0.5, 0.25]);
    assert_eq!(linear.sample(5.0), vec![1.0, 0.5]);
    let cubic = &animation.weight_channels[1];
    let Keyframes::CubicSpline(keys) = &cubic.weights else {
        panic!("{:?}", cubic.weights)
    };
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0].out_tangent, vec![1.0, 0.0]);
    assert_eq!(keys[1].value, vec![1.0, 1.0]);
    // Hermite at s = 0.5, dt = 2: 0.5 * v1 + 0.125 * dt * out0 for target 0.
    let mid = cubic.sample(1.0);
    assert!((mid[0] - 0.75).abs() < 1e-6, "{mid:?}");
    assert!((mid[1] - 0.5).abs() < 1e-6, "{mid:?}");
}

#[test]
fn quantized_positions_are_dequantised_and_the_extension_is_supported() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::quantized_mesh(dir.path()).unwrap());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    assert!(SUPPORTED_EXTENSIONS.contains(&"KHR_mesh_quantization"));
    let primitive = &model.meshes[0].primitives[0];
    let expected = [
        Vec3::new(-0.5, -0.5, 0.0),
        Vec3::new(0.5, -0.5, 0.0),
        Vec3::new(0.5, 0.5, 0.0),
        Vec3::new(-0.5, 0.5, 0.0),
    ];
    for (p, e) in primitive.positions.iter().zip(expected) {
        assert!((*p - e).abs().max_element() <= 1.0 / 32767.0, "{p} vs {e}");
    }
    assert!(primitive.normals.iter().all(|n| *n == Vec3::Z));
    assert!(!primitive.normals_generated);
    let uv = primitive.tex_coords_0.as_ref().unwrap();
    assert!((uv[1] - glam::Vec2::new(1.0, 1.0)).abs().max_element() < 1e-6);
    assert_eq!(model.nodes[0].transform.scale, Vec3::splat(2.0));
}

#[test]
fn quantized_positions_need_the_extension() {
    let mut doc = model_json(test_models::quantized_mesh);
    doc["extensionsUsed"] = json!([]);
    doc["extensionsRequired"] = json!([]);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            &error,
            GltfError::Accessor { problem: AccessorProblem::WrongType { .. }, usage, .. } if usage == "attribute POSITION"
        ),
        "{error}"
    );
}

#[test]
fn a_joint_index_beyond_the_skin_is_a_typed_error() {
    let mut doc = model_json(test_models::two_bone_skin);
    doc["skins"][0]["joints"] = json!([1]);
    doc["skins"][0]
        .as_object_mut()
        .unwrap()
        .remove("inverseBindMatrices");
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            GltfError::Skin {
                problem: SkinProblem::JointIndexOutOfRange {
                    node: 0,
                    primitive: 0,
                    joint: 1,
                    joints: 1
                },
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("hostile.gltf: skin 0 (\"Arm\"): "),
        "{error}"
    );
}

#[test]
fn an_inverse_bind_matrix_count_mismatch_is_a_typed_error() {
    let mut doc = model_json(test_models::two_bone_skin);
    let ibm = doc["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    doc["accessors"][ibm]["count"] = json!(1);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            GltfError::Skin {
                problem: SkinProblem::InverseBindMatrixCount {
                    matrices: 1,
                    joints: 2
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_joint_that_is_not_a_node_is_a_typed_error() {
    let mut doc = model_json(test_models::two_bone_skin);
    doc["skins"][0]["joints"] = json!([1, 999]);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            GltfError::Skin {
                problem: SkinProblem::JointNotANode {
                    joint: 999,
                    nodes: 3
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn huge_counts_are_errors_not_allocations() {
    let base = model_json(test_models::two_bone_skin);
    let joints = accessor_of(&base, "JOINTS_0");
    let weights = accessor_of(&base, "WEIGHTS_0");
    let ibm = base["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    for accessor in [joints, weights, ibm] {
        // Backed by a small view: reads past it.
        let mut doc = base.clone();
        doc["accessors"][accessor]["count"] = json!(4_000_000_000u64);
        let error = load_json(&doc).unwrap_err();
        assert!(
            matches!(
                error,
                GltfError::Accessor {
                    problem: AccessorProblem::PastViewEnd { .. },
                    ..
                }
            ),
            "{error}"
        );
        // No view: too many zero-filled elements.
        make_unbacked(&mut doc, accessor, 64);
        let error = load_json(&doc).unwrap_err();
        assert!(
            matches!(
                error,
                GltfError::Accessor {
                    problem: AccessorProblem::TooManyUnbacked { .. },
                    ..
                }
            ),
            "{error}"
        );
    }
    // A count within the unbacked limit is charged to the budget before allocating.
    let mut doc = base.clone();
    doc["accessors"][ibm]["count"] = json!(1 << 24);
    make_unbacked(&mut doc, ibm, 64);
    let options = LoadOptions::default().with_max_decoded_bytes(10_000_000);
    let bytes = serde_json::to_vec(&doc).unwrap();
    let error =
        GltfModel::from_slice_with_options(&bytes, None, "hostile.gltf", &options, &mut |_| {})
            .unwrap_err();
    assert!(error.to_string().contains("decoded-data limit"), "{error}");
}

#[test]
fn a_morph_target_count_mismatch_is_a_typed_error() {
    let mut doc = model_json(test_models::morph_targets);
    let target = doc["meshes"][0]["primitives"][0]["targets"][0]["POSITION"]
        .as_u64()
        .unwrap() as usize;
    doc["accessors"][target]["count"] = json!(3);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            &error,
            GltfError::Accessor {
                problem: AccessorProblem::CountMismatch {
                    found: 3,
                    expected: 4
                },
                usage,
                ..
            } if usage == "target 0 POSITION"
        ),
        "{error}"
    );
}

#[test]
fn mesh_weights_must_match_the_target_count() {
    let mut doc = model_json(test_models::morph_targets);
    doc["meshes"][0]["weights"] = json!([0.5]);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            GltfError::Primitive {
                problem: PrimitiveProblem::MorphTargetCount {
                    found: 2,
                    expected: 1
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_weights_channel_with_the_wrong_output_count_is_a_typed_error() {
    let mut doc = model_json(test_models::morph_targets);
    let output = doc["animations"][0]["samplers"][0]["output"]
        .as_u64()
        .unwrap() as usize;
    doc["accessors"][output]["count"] = json!(3);
    let error = load_json(&doc).unwrap_err();
    assert!(
        matches!(
            error,
            GltfError::Animation {
                channel: 0,
                problem: AnimationProblem::WeightsCountMismatch {
                    inputs: 2,
                    targets: 2,
                    outputs: 3,
                    expected: 4
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn all_zero_weights_bind_to_joint_zero() {
    let mut doc = model_json(test_models::many_joints_skin);
    let zeros = add_zero_accessor(
        &mut doc,
        json!({"componentType": 5126, "type": "VEC4"}),
        test_models::MANY_JOINTS,
        16,
    );
    doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"] = json!(zeros);
    let model = load_json(&doc).unwrap();
    let influences = model.meshes[0].primitives[0].influences.as_ref().unwrap();
    assert!(influences.weights.iter().all(|w| *w == Vec4::X));
    assert!(influences.joints.iter().all(|j| *j == [0; 4]));
}
