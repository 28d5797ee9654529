//! Reading an asset folder on disk: files and their progress, what is
//! refused, glTF models with their files, scene files with their prefabs
//! and models. (Spawning a scene asset needs a GPU: `tests/gltf_spawn.rs`.)

use std::path::Path;

use taos_gltf::test_models;

use super::*;
use crate::Progress;

fn folder() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path(path: &str) -> AssetPath {
    AssetPath::new(path).unwrap()
}

/// Natively a task is done when it is started.
fn done<T>(mut task: Task<T>) -> T {
    task.take().expect("natively a task is done at once")
}

fn write(root: &Path, file: &str, bytes: impl AsRef<[u8]>) {
    let file = root.join(file);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, bytes).unwrap();
}

#[test]
fn a_file_is_read_with_its_progress_and_a_missing_one_is_named() {
    let dir = folder();
    write(dir.path(), "data/a b.bin", [7u8; 300_000]);
    let assets = Assets::with_root(dir.path());
    let mut task = assets.read_bytes(&path("./data//a b.bin"));
    assert_eq!(
        task.progress(),
        Progress {
            done: 300_000,
            total: Some(300_000)
        }
    );
    assert_eq!(task.take().unwrap().unwrap(), vec![7u8; 300_000]);

    let error = done(assets.read_text(&path("data/missing.txt"))).unwrap_err();
    let AssetError::NotFound {
        path: missing,
        location,
    } = &error
    else {
        panic!("{error}");
    };
    assert_eq!(missing.as_str(), "data/missing.txt");
    assert!(location.ends_with("missing.txt"), "{location}");
    assert!(
        error.to_string().starts_with("data/missing.txt: not found"),
        "{error}"
    );

    write(dir.path(), "bad.txt", [0xff, 0xfe]);
    let error = done(assets.read_text(&path("bad.txt"))).unwrap_err();
    assert!(
        matches!(
            &error,
            AssetError::Decode {
                source: DecodeError::Text(_),
                ..
            }
        ),
        "{error}"
    );
    // A folder is not a file.
    let error = done(assets.read_bytes(&path("data"))).unwrap_err();
    assert!(matches!(error, AssetError::NotAFile { .. }), "{error}");
}

#[test]
fn a_file_over_the_limit_is_refused_before_it_is_read() {
    let dir = folder();
    write(dir.path(), "big.bin", [1u8; 1001]);
    let assets = Assets::with_root(dir.path()).with_max_file_bytes(1000);
    let task = assets.read_bytes(&path("big.bin"));
    // Refused from its size: nothing was read, not even counted.
    assert_eq!(task.progress(), Progress::default());
    let error = done(task).unwrap_err();
    assert!(
        matches!(
            error,
            AssetError::TooLarge {
                size: 1001,
                limit: 1000,
                ..
            }
        ),
        "{error}"
    );
    let assets = assets.with_max_file_bytes(1001);
    assert_eq!(
        done(assets.read_bytes(&path("big.bin"))).unwrap().len(),
        1001
    );
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_folder_is_refused_and_one_inside_is_followed() {
    let dir = folder();
    let root = dir.path().join("assets");
    write(dir.path(), "secret.txt", "secret");
    write(&root, "inside.txt", "inside");
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(root.join("inside.txt"), root.join("alias.txt")).unwrap();
    let assets = Assets::with_root(root.as_path());
    let error = done(assets.read_text(&path("leak.txt"))).unwrap_err();
    assert!(matches!(error, AssetError::OutsideRoot { .. }), "{error}");
    assert_eq!(
        done(assets.read_text(&path("alias.txt"))).unwrap(),
        "inside"
    );
    // The root itself may be a link.
    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&root, &linked).unwrap();
    let assets = Assets::with_root(linked.as_path());
    assert_eq!(
        done(assets.read_text(&path("inside.txt"))).unwrap(),
        "inside"
    );
}

#[test]
fn a_model_is_loaded_with_its_external_buffer_and_image() {
    let dir = folder();
    let models = dir.path().join("models");
    let written = test_models::texture_transforms(&models).unwrap();
    let assets = Assets::with_root(dir.path());
    let task = assets.load_gltf(&path("models/texture_transforms.gltf"));
    let progress = task.progress();
    let model = done(task).unwrap();
    assert_eq!(model, taos_gltf::GltfModel::load(&written).unwrap());
    // The .gltf, its .bin and its .png.
    let sizes: u64 = [
        "texture_transforms.gltf",
        "texture_transforms.bin",
        "transforms_uv.png",
    ]
    .iter()
    .map(|file| std::fs::metadata(models.join(file)).unwrap().len())
    .sum();
    assert_eq!(
        progress,
        Progress {
            done: sizes,
            total: Some(sizes)
        }
    );

    // A missing file the model names is named.
    std::fs::remove_file(models.join("transforms_uv.png")).unwrap();
    let error = done(assets.load_gltf(&path("models/texture_transforms.gltf"))).unwrap_err();
    assert!(
        matches!(&error, AssetError::NotFound { path, .. } if path.as_str() == "models/transforms_uv.png"),
        "{error}"
    );
}

#[test]
fn a_model_may_reach_up_inside_the_folder_but_not_out_of_it() {
    let dir = folder();
    let triangle: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    write(dir.path(), "shared/tri.bin", &triangle);
    let model = |uri: &str| {
        format!(
            r#"{{"asset": {{"version": "2.0"}},
                "buffers": [{{"byteLength": 36, "uri": "{uri}"}}],
                "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
                "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                                "min": [0, 0, 0], "max": [1, 1, 0]}}],
                "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
                "nodes": [{{"mesh": 0}}], "scenes": [{{"nodes": [0]}}]}}"#
        )
    };
    write(dir.path(), "models/up.gltf", model("../shared/tri.bin"));
    write(dir.path(), "models/out.gltf", model("../../tri.bin"));
    write(
        dir.path(),
        "models/web.gltf",
        model("https://example.com/tri.bin"),
    );
    let assets = Assets::with_root(dir.path());
    let up = done(assets.load_gltf(&path("models/up.gltf"))).unwrap();
    assert_eq!(up.meshes[0].primitives[0].positions.len(), 3);
    let error = done(assets.load_gltf(&path("models/out.gltf"))).unwrap_err();
    assert!(
        matches!(
            &error,
            AssetError::InvalidPath {
                reason: PathProblem::ParentDir,
                ..
            }
        ),
        "{error}"
    );
    let error = done(assets.load_gltf(&path("models/web.gltf"))).unwrap_err();
    assert!(
        matches!(
            &error,
            AssetError::Decode {
                source: DecodeError::Gltf(_),
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_corrupt_model_or_image_is_a_decode_error() {
    let dir = folder();
    write(
        dir.path(),
        "broken.gltf",
        r#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 5}]}"#,
    );
    write(dir.path(), "broken.glb", b"glTF\x02\0\0\0\xff\xff\0\0");
    write(dir.path(), "noise.png", [0x89, b'P', b'N', b'G', 1, 2, 3]);
    let assets = Assets::with_root(dir.path());
    for file in ["broken.gltf", "broken.glb"] {
        let error = done(assets.load_gltf(&path(file))).unwrap_err();
        assert!(
            matches!(
                &error,
                AssetError::Decode {
                    source: DecodeError::Gltf(_),
                    ..
                }
            ),
            "{file}: {error}"
        );
        assert!(error.to_string().starts_with(file), "{error}");
    }
    let error = done(assets.load_image(&path("noise.png"))).unwrap_err();
    assert!(matches!(error, AssetError::Decode { .. }), "{error}");
}

#[test]
fn an_image_is_decoded_to_rgba8() {
    let dir = folder();
    test_models::texture_transforms(dir.path()).unwrap();
    let assets = Assets::with_root(dir.path());
    let image = done(assets.load_image(&path("transforms_uv.png"))).unwrap();
    assert_eq!(image.dimensions(), (4, 4));
    assert_eq!(image.get_pixel(1, 2).0, [60, 120, 0, 255]);
}

/// `levels/one.scene.json` naming `props/box.gltf` (beside it, in
/// `levels/props/`) and a prefab, `lamp.prefab.json`, whose object names
/// `props/lamp.gltf`, which is missing.
fn scene_folder(root: &Path) {
    test_models::texture_transforms(&root.join("levels/props")).unwrap();
    std::fs::rename(
        root.join("levels/props/texture_transforms.gltf"),
        root.join("levels/props/box.gltf"),
    )
    .unwrap();
    write(
        root,
        "levels/one.scene.json",
        r#"{"format": 1, "objects": [
            {"id": 1, "name": "Box", "components": {"taos.Model": {"path": "props/box.gltf"}}},
            {"id": 2, "name": "Lamp", "prefab": {"source": "lamp.prefab.json"}}
        ]}"#,
    );
    write(
        root,
        "levels/lamp.prefab.json",
        r#"{"format": 1, "objects": [
            {"id": 1, "name": "Shade", "components": {"taos.Model": {"path": "props/lamp.gltf", "autoplay": true}}}
        ]}"#,
    );
}

#[test]
fn a_scene_file_is_read_with_its_prefabs_and_models_relative_to_it() {
    let dir = folder();
    scene_folder(dir.path());
    let assets = Assets::with_root(dir.path());
    let scene = done(assets.load_scene(&path("levels/one.scene.json"))).unwrap();
    assert_eq!(scene.path().as_str(), "levels/one.scene.json");
    let prefabs: Vec<_> = scene
        .prefabs()
        .map(|(source, text)| (source, text.is_ok()))
        .collect();
    assert_eq!(prefabs, [("lamp.prefab.json", true)]);
    let models: Vec<_> = scene.models().map(|(model, _)| model).collect();
    assert_eq!(models, ["props/box.gltf", "props/lamp.gltf"]);
    assert!(scene.model("props/box.gltf").unwrap().is_ok());
    let missing = scene.model("props/lamp.gltf").unwrap().unwrap_err();
    assert!(
        matches!(missing, AssetError::NotFound { path, .. } if path.as_str() == "levels/props/lamp.gltf"),
        "{missing}"
    );

    // The scene file itself failing fails the task, naming it.
    write(
        dir.path(),
        "levels/bad.scene.json",
        r#"{"format": 1, "objects": [{"id": "x"}]}"#,
    );
    let error = done(assets.load_scene(&path("levels/bad.scene.json"))).unwrap_err();
    assert!(
        matches!(
            &error,
            AssetError::Decode {
                source: DecodeError::Scene(_),
                ..
            }
        ),
        "{error}"
    );
    let error = done(assets.load_scene(&path("levels/none.scene.json"))).unwrap_err();
    assert!(matches!(error, AssetError::NotFound { .. }), "{error}");
}

#[test]
fn asset_errors_go_up_through_a_games_hooks() {
    fn hook() -> Result<(), crate::AppError> {
        Err(AssetPath::new("/abs").unwrap_err())?
    }
    assert!(hook().unwrap_err().to_string().contains("absolute"));
}

#[test]
fn a_model_is_loaded_through_the_import_cache_and_a_changed_image_is_seen() {
    use taos_import_cache::ImportCache;
    let dir = folder();
    let models = dir.path().join("models");
    let written = test_models::texture_transforms(&models).unwrap();
    let cache = dir.path().join("cache");
    let assets = Assets::with_root(dir.path()).with_import_cache(ImportCache::in_folder(&cache));
    let load = || done(assets.load_gltf(&path("models/texture_transforms.gltf"))).unwrap();
    let cold = load();
    let entries = std::fs::read_dir(cache.join("images")).unwrap().count();
    assert_eq!(entries, cold.images.len());
    assert_eq!(load(), cold, "a warm load gives the same model");

    // The artist repaints the texture: the next load decodes the new one.
    let repainted = ::image::RgbaImage::from_pixel(4, 4, ::image::Rgba([1, 2, 3, 255]));
    repainted.save(models.join("transforms_uv.png")).unwrap();
    let changed = load();
    assert_eq!(changed.images[0].pixels.rgba8(), Some(&repainted));
    assert_eq!(changed, taos_gltf::GltfModel::load(&written).unwrap());
    let off = Assets::with_root(dir.path()).without_import_cache();
    assert_eq!(
        done(off.load_gltf(&path("models/texture_transforms.gltf"))).unwrap(),
        changed
    );
}
