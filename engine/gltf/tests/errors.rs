//! Bad input gives a `GltfError` naming the file and the element, never a panic.

use base64::Engine as _;
use serde_json::{Value, json};
use taos_gltf::*;

/// A .gltf with one embedded buffer holding `bin`.
fn gltf_with(bin: &[u8], mut doc: Value) -> Vec<u8> {
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bin)
    );
    doc["asset"] = json!({"version": "2.0"});
    if !bin.is_empty() {
        doc["buffers"] = json!([{"byteLength": bin.len(), "uri": uri}]);
    }
    serde_json::to_vec(&doc).unwrap()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// A triangle: positions (view 0, accessor 0) then u16 indices (view 1, accessor 1).
fn triangle(positions: &[f32], indices: &[u16]) -> (Vec<u8>, Value) {
    let mut bin = f32s(positions);
    let pos_len = bin.len();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    let doc = json!({
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": pos_len},
            {"buffer": 0, "byteOffset": pos_len, "byteLength": indices.len() * 2},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": positions.len() / 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 1.0]},
            {"bufferView": 1, "componentType": 5123, "count": indices.len(), "type": "SCALAR"},
        ],
        "meshes": [{"name": "Wheel", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": [{"mesh": 0}],
    });
    (bin, doc)
}

const TRI: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];

fn load(bytes: &[u8]) -> Result<GltfModel, GltfError> {
    GltfModel::from_slice(bytes, None, "model.gltf")
}

fn message(bytes: &[u8]) -> String {
    let e = load(bytes).expect_err("should fail");
    let m = e.to_string();
    assert!(m.starts_with("model.gltf: "), "{m}");
    m
}

#[test]
fn a_valid_triangle_loads() {
    let (bin, doc) = triangle(&TRI, &[0, 1, 2]);
    let model = load(&gltf_with(&bin, doc)).unwrap();
    assert_eq!(model.meshes[0].primitives[0].indices, [0, 1, 2]);
    assert_eq!(
        model.meshes[0].primitives[0].normals,
        vec![glam::Vec3::Z; 3]
    );
}

#[test]
fn malformed_json() {
    let m = message(b"{\"asset\": {\"version\": \"2.0\"");
    assert!(m.contains("malformed glTF"), "{m}");
    let m = message(br#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 3}]}"#);
    assert!(m.contains("nodes[0].mesh"), "{m}");
}

#[test]
fn bad_glb_headers_and_chunks() {
    let json = br#"{"asset":{"version":"2.0"}}"#;
    let mut glb = b"glTF".to_vec();
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + json.len()) as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(b"JSON");
    glb.extend(json);
    assert!(load(&glb).is_ok());

    let mut bad = glb.clone();
    bad[4] = 1;
    assert!(message(&bad).contains("version 1 is not supported"));
    let mut bad = glb.clone();
    bad[8] = 200;
    assert!(message(&bad).contains("the header says"));
    let mut bad = glb.clone();
    bad[12] = 200;
    assert!(message(&bad).contains("runs past the end"));
    assert!(message(&glb[..10]).contains("shorter than the 12-byte header"));
}

#[test]
fn missing_buffer_and_image_files() {
    let dir = tempfile::tempdir().unwrap();
    let doc =
        json!({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "gone.bin"}]});
    let path = dir.path().join("model.gltf");
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let m = GltfModel::load(&path).unwrap_err().to_string();
    assert!(
        m.contains("buffer 0: cannot read") && m.contains("gone.bin"),
        "{m}"
    );

    let doc =
        json!({"asset": {"version": "2.0"}, "images": [{"uri": "gone.png", "name": "Albedo"}]});
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    let m = GltfModel::load(&path).unwrap_err().to_string();
    assert!(
        m.contains("image 0 (\"Albedo\"): cannot read") && m.contains("gone.png"),
        "{m}"
    );

    // In memory, an external URI has nothing to resolve against.
    let m = message(&serde_json::to_vec(&doc).unwrap());
    assert!(m.contains("no base directory"), "{m}");
    let m = GltfModel::load(dir.path().join("nothing.gltf"))
        .unwrap_err()
        .to_string();
    assert!(m.contains("nothing.gltf: cannot read the file"), "{m}");
}

#[test]
fn buffer_shorter_than_its_byte_length() {
    let (bin, mut doc) = triangle(&TRI, &[0, 1, 2]);
    let mut bytes = gltf_with(&bin, doc.clone());
    let text = String::from_utf8(bytes.clone()).unwrap();
    bytes = text
        .replace(
            &format!("\"byteLength\":{}", bin.len()),
            "\"byteLength\":1000",
        )
        .into_bytes();
    assert!(message(&bytes).contains("byteLength is 1000"));
    doc["bufferViews"][1]["byteLength"] = json!(100);
    let m = message(&gltf_with(&bin, doc));
    assert!(m.contains("mesh 0 (\"Wheel\") primitive 0: indices accessor 1 uses buffer view 1, which reads past the end of buffer 0"), "{m}");
}

#[test]
fn accessor_past_its_view_names_everything() {
    let (bin, mut doc) = triangle(&TRI, &[0, 1, 2]);
    doc["accessors"][0]["count"] = json!(4);
    let m = message(&gltf_with(&bin, doc.clone()));
    assert_eq!(
        m,
        "model.gltf: mesh 0 (\"Wheel\") primitive 0: attribute POSITION accessor 0 reads past the end of buffer view 0 (48 bytes needed, 36 available)"
    );
    // A count of 4 billion is refused by arithmetic, not by allocating.
    doc["accessors"][0]["count"] = json!(4_000_000_000u64);
    assert!(message(&gltf_with(&bin, doc.clone())).contains("reads past the end of buffer view 0"));
    doc["accessors"][0]["byteOffset"] = json!(u64::MAX / 2);
    assert!(message(&gltf_with(&bin, doc)).contains("reads past the end"));
}

#[test]
fn huge_accessor_without_view_is_refused() {
    let (bin, mut doc) = triangle(&TRI, &[0, 1, 2]);
    doc["accessors"][0] = json!({"componentType": 5126, "count": 4_000_000_000u64, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [0.0, 0.0, 0.0],
        "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123}, "values": {"bufferView": 0}}});
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("has no buffer view and 4000000000 elements"),
        "{m}"
    );
}

#[test]
fn index_out_of_range() {
    let (bin, doc) = triangle(&TRI, &[0, 1, 5]);
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("indices accessor 1 index 5 at position 2 is out of range (3 vertices)"),
        "{m}"
    );
}

#[test]
fn non_finite_positions() {
    let mut tri = TRI;
    tri[4] = f32::NAN;
    let (bin, doc) = triangle(&tri, &[0, 1, 2]);
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("attribute POSITION accessor 0 element 1 is not finite"),
        "{m}"
    );
    tri[4] = f32::INFINITY;
    let (bin, doc) = triangle(&tri, &[0, 1, 2]);
    assert!(message(&gltf_with(&bin, doc)).contains("not finite"));
}

#[test]
fn mismatched_attribute_counts() {
    let (mut bin, mut doc) = triangle(&TRI, &[0, 1, 2]);
    let at = bin.len();
    bin.extend(f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]));
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 0, "byteOffset": at, "byteLength": 24}));
    doc["accessors"]
        .as_array_mut()
        .unwrap()
        .push(json!({"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"}));
    doc["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = json!(2);
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("attribute NORMAL accessor 2 has 2 elements, expected 3"),
        "{m}"
    );
}

#[test]
fn wrong_component_types() {
    let (bin, mut doc) = triangle(&TRI, &[0, 1, 2]);
    doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = json!(1);
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("attribute TEXCOORD_0 accessor 1 has type SCALAR of u16, expected VEC2"),
        "{m}"
    );
}

#[test]
fn sparse_accessors_are_applied() {
    // Base positions all zero except via sparse: vertex 1 = (1,0,0), vertex 2 = (0,1,0).
    let (mut bin, mut doc) = triangle(&[0.0; 9], &[0, 1, 2]);
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let idx_at = bin.len();
    bin.extend([1u8, 2, 0, 0]);
    let val_at = bin.len();
    bin.extend(f32s(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]));
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": idx_at, "byteLength": 2}));
    views.push(json!({"buffer": 0, "byteOffset": val_at, "byteLength": 24}));
    doc["accessors"][0]["sparse"] = json!({
        "count": 2,
        "indices": {"bufferView": 2, "componentType": 5121},
        "values": {"bufferView": 3},
    });
    let model = load(&gltf_with(&bin, doc.clone())).unwrap();
    assert_eq!(model.meshes[0].primitives[0].positions[1], glam::Vec3::X);
    assert_eq!(model.meshes[0].primitives[0].positions[2], glam::Vec3::Y);
    // Without a buffer view: zeros plus the sparse values.
    doc["accessors"][0]
        .as_object_mut()
        .unwrap()
        .remove("bufferView");
    let model = load(&gltf_with(&bin, doc.clone())).unwrap();
    assert_eq!(model.meshes[0].primitives[0].positions[2], glam::Vec3::Y);
    // A sparse index past the count.
    bin[idx_at + 1] = 7;
    let m = message(&gltf_with(&bin, doc));
    assert!(
        m.contains("sparse index 7 is out of range (count 3)"),
        "{m}"
    );
}

#[test]
fn unsupported_required_extension() {
    let doc = json!({"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_draco_mesh_compression"], "extensionsRequired": ["KHR_draco_mesh_compression"]});
    assert_eq!(
        message(&serde_json::to_vec(&doc).unwrap()),
        "model.gltf: required extension KHR_draco_mesh_compression is not supported"
    );
    let doc = json!({"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_materials_clearcoat"]});
    let model = load(&serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_eq!(
        model.warnings,
        ["model.gltf: optional extension KHR_materials_clearcoat is not supported; ignored"]
    );
}

fn nodes(nodes: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"asset": {"version": "2.0"}, "nodes": nodes})).unwrap()
}

#[test]
fn cycles_and_two_parents() {
    let m = message(&nodes(
        json!([{"name": "A", "children": [1]}, {"name": "B", "children": [0]}]),
    ));
    assert!(m.contains("is part of a cycle"), "{m}");
    let m = message(&nodes(json!([{"children": [0]}])));
    assert!(m.contains("node 0: is part of a cycle"), "{m}");
    let m = message(&nodes(
        json!([{"children": [2]}, {"children": [2]}, {"name": "Kid"}]),
    ));
    assert!(
        m.contains("node 2 (\"Kid\"): is a child of both node 0 and node 1"),
        "{m}"
    );
    let doc = json!({"asset": {"version": "2.0"}, "nodes": [{"children": [1]}, {}], "scenes": [{"nodes": [1]}]});
    let m = message(&serde_json::to_vec(&doc).unwrap());
    assert!(
        m.contains("node 1: is a root of scene 0 but is a child of node 0"),
        "{m}"
    );
}

#[test]
fn bad_matrices_and_rotations() {
    let shear = [
        1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let m = message(&nodes(json!([{"name": "Sheared", "matrix": shear}])));
    assert!(
        m.contains("node 0 (\"Sheared\"): matrix") && m.contains("cannot be decomposed"),
        "{m}"
    );
    let m = message(&nodes(json!([{"matrix": vec![0.0; 16]}])));
    assert!(m.contains("cannot be decomposed"), "{m}");
    let m = message(&nodes(json!([{"rotation": [0.0, 0.0, 0.0, 0.0]}])));
    assert!(m.contains("rotation"), "{m}");
    // JSON has no NaN, and an f32 overflow is a parse error.
    let m = message(&nodes(json!([{"scale": [1.0, 1e39, 1.0]}])));
    assert!(m.contains("malformed glTF: number out of range"), "{m}");
}

fn animation(times: &[f32], values: &[f32], interpolation: &str) -> Vec<u8> {
    let mut bin = f32s(times);
    let t_len = bin.len();
    bin.extend(f32s(values));
    let doc = json!({
        "nodes": [{}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": t_len},
            {"buffer": 0, "byteOffset": t_len, "byteLength": values.len() * 4},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": times.len(), "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5126, "count": values.len() / 3, "type": "VEC3"},
        ],
        "animations": [{"name": "Walk", "samplers": [{"input": 0, "output": 1, "interpolation": interpolation}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}],
    });
    gltf_with(&bin, doc)
}

#[test]
fn animation_validation() {
    assert!(load(&animation(&[0.0, 1.0], &[0.0; 6], "LINEAR")).is_ok());
    assert!(load(&animation(&[0.0, 1.0], &[0.0; 18], "CUBICSPLINE")).is_ok());
    let m = message(&animation(&[0.0, 1.0, 1.0], &[0.0; 9], "LINEAR"));
    assert!(
        m.contains(
            "animation 0 (\"Walk\") channel 0: input time 1 at key 2 does not increase (previous 1)"
        ),
        "{m}"
    );
    let m = message(&animation(&[-1.0, 1.0], &[0.0; 6], "LINEAR"));
    assert!(m.contains("input time -1 at key 0 is negative"), "{m}");
    let m = message(&animation(&[0.0, 1.0], &[0.0; 6], "CUBICSPLINE"));
    assert!(m.contains("has 2 outputs for 2 inputs (expected 6)"), "{m}");
    let m = message(&animation(&[0.0, 1.0], &[0.0; 9], "STEP"));
    assert!(m.contains("has 3 outputs for 2 inputs (expected 2)"), "{m}");
    let m = message(&animation(&[0.0, f32::NAN], &[0.0; 6], "STEP"));
    assert!(
        m.contains("animation 0 (\"Walk\") channel 0: input accessor 0 element 1 is not finite"),
        "{m}"
    );
}

#[test]
fn unsupported_image_types() {
    let doc = json!({"asset": {"version": "2.0"}, "images": [{"name": "Anim", "uri": "data:image/gif;base64,R0lGODlh"}]});
    let m = message(&serde_json::to_vec(&doc).unwrap());
    assert!(
        m.contains("image 0 (\"Anim\"): unsupported image type \"image/gif\""),
        "{m}"
    );
    let doc =
        json!({"asset": {"version": "2.0"}, "images": [{"uri": "data:image/png;base64,AAAA"}]});
    let m = message(&serde_json::to_vec(&doc).unwrap());
    assert!(m.contains("image 0: cannot decode"), "{m}");
    let doc =
        json!({"asset": {"version": "2.0"}, "images": [{"uri": "data:image/png;base64,@@@"}]});
    assert!(message(&serde_json::to_vec(&doc).unwrap()).contains("bad data URI"));
}

#[test]
fn huge_png_dimensions_are_refused_before_allocating() {
    // A PNG header claiming 100000 x 100000 pixels.
    let mut png = Vec::new();
    image::RgbaImage::new(1, 1)
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let doc = json!({"asset": {"version": "2.0"}, "images": [{"uri": uri}]});
    assert!(message(&serde_json::to_vec(&doc).unwrap()).contains("image 0: cannot decode"));
}

#[test]
fn strips_fans_points_and_lines() {
    let (bin, mut doc) = triangle(
        &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        &[0, 1, 2, 3],
    );
    doc["accessors"][0]["count"] = json!(4);
    let prim = |mode: u32| json!({"attributes": {"POSITION": 0}, "indices": 1, "mode": mode});
    doc["meshes"][0]["primitives"] = json!([prim(0), prim(1), prim(5), prim(6)]);
    let model = load(&gltf_with(&bin, doc)).unwrap();
    let prims = &model.meshes[0].primitives;
    assert_eq!(prims.len(), 2);
    assert_eq!((prims[0].source_index, prims[1].source_index), (2, 3));
    // Strip [0 1 2 3] -> (0 1 2) (1 3 2); fan -> (1 2 0) (2 3 0); flat normals unweld them.
    assert_eq!(prims[0].positions.len(), 6);
    assert_eq!(
        prims[0].positions[3..],
        [glam::Vec3::X, glam::Vec3::new(1.0, 1.0, 0.0), glam::Vec3::Y]
    );
    assert_eq!(
        prims[1].positions[..3],
        [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::ZERO]
    );
    assert!(prims[0].normals.iter().all(|n| *n == glam::Vec3::Z));
    assert_eq!(model.warnings.len(), 2);
    assert!(
        model.warnings[0].contains("mesh 0 (\"Wheel\") primitive 0: mode Points is not supported"),
        "{:?}",
        model.warnings
    );
    assert!(
        model.warnings[1].contains("primitive 1: mode Lines"),
        "{:?}",
        model.warnings
    );
}

#[test]
fn texcoord_sets_beyond_one_fall_back_to_zero() {
    let png = {
        let mut v = Vec::new();
        image::RgbaImage::new(1, 1)
            .write_to(&mut std::io::Cursor::new(&mut v), image::ImageFormat::Png)
            .unwrap();
        v
    };
    let uri = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let doc = json!({
        "asset": {"version": "2.0"},
        "images": [{"uri": uri}],
        "textures": [{"source": 0}],
        "materials": [{"name": "M", "emissiveTexture": {"index": 0, "texCoord": 3}}],
    });
    let model = load(&serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_eq!(
        model.materials[0]
            .emissive_texture
            .as_ref()
            .unwrap()
            .tex_coord,
        0
    );
    assert!(
        model.warnings[0].contains("material 0 (\"M\"): emissiveTexture uses TEXCOORD_3"),
        "{:?}",
        model.warnings
    );
}

#[test]
fn index_and_colour_formats() {
    // u8 and u32 indices widen to u32; no indices means 0..n.
    for (component_type, bytes) in [
        (5121u32, vec![2u8, 1, 0, 0]),
        (
            5125,
            [2u32, 1, 0].iter().flat_map(|i| i.to_le_bytes()).collect(),
        ),
    ] {
        let (mut bin, mut doc) = triangle(&TRI, &[]);
        let at = bin.len();
        bin.extend(&bytes);
        doc["bufferViews"][1] = json!({"buffer": 0, "byteOffset": at, "byteLength": bytes.len()});
        doc["accessors"][1] =
            json!({"bufferView": 1, "componentType": component_type, "count": 3, "type": "SCALAR"});
        let model = load(&gltf_with(&bin, doc)).unwrap();
        // Flat normals unweld, so the order shows in the positions.
        assert_eq!(
            model.meshes[0].primitives[0].positions[0],
            glam::Vec3::new(0.0, 1.0, 0.0),
            "{component_type}"
        );
    }
    let (mut bin, mut doc) = triangle(&TRI, &[]);
    doc["meshes"][0]["primitives"][0]
        .as_object_mut()
        .unwrap()
        .remove("indices");
    // COLOR_0 as float VEC3: alpha 1.
    let at = bin.len();
    bin.extend(f32s(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]));
    doc["bufferViews"][1] = json!({"buffer": 0, "byteOffset": at, "byteLength": 36});
    doc["accessors"][1] =
        json!({"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"});
    doc["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"] = json!(1);
    let model = load(&gltf_with(&bin, doc)).unwrap();
    let p = &model.meshes[0].primitives[0];
    assert_eq!(p.indices, [0, 1, 2]);
    assert_eq!(
        p.colors.as_ref().unwrap()[2],
        glam::Vec4::new(0.0, 0.0, 1.0, 1.0)
    );
}

#[test]
fn camera_type_without_its_projection() {
    let doc = json!({"asset": {"version": "2.0"}, "cameras": [{"name": "Eye", "type": "perspective", "orthographic": {"xmag": 1.0, "ymag": 1.0, "znear": 0.1, "zfar": 10.0}}]});
    let m = message(&serde_json::to_vec(&doc).unwrap());
    assert_eq!(
        m,
        "model.gltf: camera 0 (\"Eye\"): its type names a projection it does not have"
    );
}
