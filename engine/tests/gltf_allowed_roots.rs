//! `GltfSpawnOptions::load` reaches the importer through
//! `Engine::load_gltf`: a model in `m/` reading `../shared/buf.bin` is
//! refused by default and loads once `shared/` is an allowed root.

use std::fs;
use std::path::{Path, PathBuf};

use taos_engine::gltf::{GltfSpawnError, GltfSpawnOptions, LoadOptions};
use taos_engine::{Engine, EngineConfig};
use taos_gltf::{GltfError, SourceProblem};
use taos_renderer::presets::{PresetOptions, forward_preset};

fn engine() -> Engine {
    Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// `root/m/m.gltf`, one triangle whose positions are `root/shared/buf.bin`.
fn model_reading_a_shared_buffer(root: &Path) -> PathBuf {
    fs::create_dir_all(root.join("m")).unwrap();
    fs::create_dir_all(root.join("shared")).unwrap();
    fs::create_dir_all(root.join("other")).unwrap();
    let positions: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let bytes: Vec<u8> = positions.iter().flat_map(|f| f.to_le_bytes()).collect();
    fs::write(root.join("shared/buf.bin"), &bytes).unwrap();
    let json = r#"{
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 36, "uri": "../shared/buf.bin"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{
            "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
            "min": [0, 0, 0], "max": [1, 1, 0]
        }],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0, "name": "Triangle"}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    }"#;
    let path = root.join("m/m.gltf");
    fs::write(&path, json).unwrap();
    path
}

/// The buffer's problem, when `error` is an import error about buffer 0.
fn buffer_problem(error: &GltfSpawnError) -> &SourceProblem {
    match error {
        GltfSpawnError::Import(import) => match import.as_ref() {
            GltfError::Buffer { problem, .. } => problem,
            other => panic!("not a buffer error: {other}"),
        },
        other => panic!("not an import error: {other}"),
    }
}

#[test]
fn a_shared_folder_is_refused_by_default_and_loads_once_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let path = model_reading_a_shared_buffer(root);
    let mut engine = engine();
    let objects_before = engine.scene().len();

    // By default `..` is refused outright, and nothing is spawned.
    let error = engine
        .load_gltf(&path, &GltfSpawnOptions::default())
        .unwrap_err();
    assert!(
        matches!(buffer_problem(&error), SourceProblem::UnsupportedUri { uri, .. } if uri == "../shared/buf.bin"),
        "{error}"
    );
    assert!(error.to_string().contains("allowed_roots"), "{error}");
    assert_eq!(engine.scene().len(), objects_before);

    // Another allowed root lets `..` through, but shared/ is still outside.
    let elsewhere = GltfSpawnOptions {
        load: LoadOptions::default().allow_root(root.join("other")),
        ..GltfSpawnOptions::default()
    };
    let error = engine.load_gltf(&path, &elsewhere).unwrap_err();
    assert!(
        matches!(buffer_problem(&error), SourceProblem::OutsideFolder { uri, .. } if uri == "../shared/buf.bin"),
        "{error}"
    );
    assert!(
        error.to_string().contains("outside the model's folder"),
        "{error}"
    );

    // With shared/ allowed, through the engine with progress too.
    let allowed = GltfSpawnOptions {
        load: LoadOptions::default().allow_root(root.join("shared")),
        ..GltfSpawnOptions::default()
    };
    let mut reports = 0;
    let model = engine
        .load_gltf_with_progress(&path, &allowed, &mut |_| reports += 1)
        .unwrap();
    assert!(reports > 0);
    assert_eq!(model.mesh_objects.len(), 1);
    assert_eq!(engine.scene().name(model.root), Some("m.gltf"));
    let (min, max) = model.bounds.unwrap();
    assert!(min.abs_diff_eq(glam::Vec3::ZERO, 1e-6), "{min}");
    assert!(
        max.abs_diff_eq(glam::Vec3::new(1.0, 1.0, 0.0), 1e-6),
        "{max}"
    );

    // The budget travels the same way.
    let tight = GltfSpawnOptions {
        load: LoadOptions::default()
            .allow_root(root.join("shared"))
            .with_max_decoded_bytes(16),
        ..GltfSpawnOptions::default()
    };
    let error = engine.load_gltf(&path, &tight).unwrap_err();
    assert!(matches!(error, GltfSpawnError::Import(_)), "{error}");
    assert!(error.to_string().contains("decoded-data limit"), "{error}");
}
