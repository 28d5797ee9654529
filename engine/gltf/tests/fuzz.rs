//! Property test: mutated .gltf text and .glb bytes load or fail with an error, never panic
//! or hang. 400 cases per property (a few seconds); `TAOS_FUZZ_CASES=100000` for a deeper
//! local run (see `taos_hostile_inputs`).

use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use taos_gltf::GltfModel;
use taos_gltf::test_models::{self, Storage};
use taos_hostile_inputs::{apply, mutation};

/// A valid input: file bytes and the directory of its external files.
type Input = (Vec<u8>, PathBuf);

/// Valid inputs, written once (the directory lives as long as the test process).
fn inputs() -> &'static [Input] {
    static INPUTS: OnceLock<(tempfile::TempDir, Vec<Input>)> = OnceLock::new();
    &INPUTS
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let d = dir.path();
            let paths = [
                test_models::textured_box(d).unwrap(),
                test_models::textured_box_with(d, Storage::Glb).unwrap(),
                test_models::hierarchy(d).unwrap(),
                test_models::two_uv_sets(d).unwrap(),
                test_models::alpha_modes(d).unwrap(),
                test_models::texture_transforms(d).unwrap(),
                test_models::animated(d).unwrap(),
                test_models::cameras_and_lights(d).unwrap(),
                test_models::two_bone_skin(d).unwrap(),
                test_models::many_joints_skin(d).unwrap(),
                test_models::morph_targets(d).unwrap(),
                test_models::quantized_mesh(d).unwrap(),
            ];
            let inputs = paths
                .iter()
                .map(|p| (std::fs::read(p).unwrap(), d.to_path_buf()))
                .collect();
            (dir, inputs)
        })
        .1
}

/// 400 cases per property, or `TAOS_FUZZ_CASES`.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: taos_hostile_inputs::cases(400),
        ..taos_hostile_inputs::config()
    }
}

/// The length of the longest input (mutation positions wrap on shorter ones).
fn longest() -> usize {
    inputs()
        .iter()
        .map(|(bytes, _)| bytes.len())
        .max()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_files_never_panic(which in 0usize..8, mutations in prop::collection::vec(mutation(longest()), 1..4)) {
        let (original, dir) = &inputs()[which];
        let bytes = apply(original, &mutations);
        // Ok or Err are both fine; a panic fails the test.
        let _ = GltfModel::from_slice(&bytes, Some(dir), "fuzzed.gltf");
    }
}

/// Every value of a JSON document that `keep` accepts, as a JSON pointer (keys are not
/// escaped: the test models use no `/` or `~` in keys).
fn leaf_pointers(
    v: &serde_json::Value,
    at: String,
    keep: fn(&serde_json::Value) -> bool,
    out: &mut Vec<String>,
) {
    if keep(v) {
        out.push(at.clone());
    }
    match v {
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| leaf_pointers(v, format!("{at}/{i}"), keep, out)),
        serde_json::Value::Object(o) => o
            .iter()
            .for_each(|(k, v)| leaf_pointers(v, format!("{at}/{k}"), keep, out)),
        _ => {}
    }
}

/// Every number of a JSON document, as a JSON pointer.
fn number_pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    leaf_pointers(v, at, serde_json::Value::is_number, out);
}

proptest! {
    #![proptest_config(config())]

    /// Structure-aware: the JSON stays valid and only numbers change, so most cases get past
    /// parsing into the accessor, image, node and animation checks.
    #[test]
    fn changed_numbers_never_panic(
        which in prop::sample::select(vec![0usize, 2, 3, 4, 5, 6, 7]),
        changes in prop::collection::vec((any::<usize>(), prop::sample::select(vec![
            serde_json::json!(0), serde_json::json!(1), serde_json::json!(2), serde_json::json!(3),
            serde_json::json!(-1), serde_json::json!(4_000_000_000u64), serde_json::json!(u64::MAX),
            serde_json::json!(1e30), serde_json::json!(0.5), serde_json::json!(-1e30), serde_json::json!(5121),
            serde_json::json!(5123), serde_json::json!(5125), serde_json::json!(5126), serde_json::json!(4),
        ])), 1..4),
    ) {
        let (original, dir) = &inputs()[which];
        let mut doc: serde_json::Value = serde_json::from_slice(original).unwrap();
        for (pick, value) in changes {
            let mut pointers = Vec::new();
            number_pointers(&doc, String::new(), &mut pointers);
            if let Some(target) = pointers.get(pick % pointers.len().max(1)) {
                *doc.pointer_mut(target).unwrap() = value;
            }
        }
        let bytes = serde_json::to_vec(&doc).unwrap();
        let _ = GltfModel::from_slice(&bytes, Some(dir), "fuzzed.gltf");
    }

    /// The GLB's binary chunk (geometry, images) mutated under an intact container.
    #[test]
    fn mutated_glb_payload_never_panics(flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..16)) {
        let (original, dir) = &inputs()[1];
        let json_len = u32::from_le_bytes(original[12..16].try_into().unwrap()) as usize;
        let bin_start = 12 + 8 + json_len + 8;
        let mut bytes = original.clone();
        let bin_len = bytes.len() - bin_start;
        for (p, b) in flips {
            bytes[bin_start + p % bin_len] = b;
        }
        let _ = GltfModel::from_slice(&bytes, Some(dir), "fuzzed.glb");
    }
}

proptest! {
    #![proptest_config(config())]

    /// Structure-aware: string values swapped for other glTF enum strings, and object keys
    /// removed (a camera's projection, an image's mimeType, a sampler's input...).
    #[test]
    fn changed_strings_and_removed_keys_never_panic(
        which in prop::sample::select(vec![0usize, 2, 3, 4, 5, 6, 7]),
        strings in prop::collection::vec((any::<usize>(), prop::sample::select(vec![
            "perspective", "orthographic", "directional", "point", "spot", "translation", "rotation",
            "scale", "weights", "LINEAR", "STEP", "CUBICSPLINE", "OPAQUE", "MASK", "BLEND", "SCALAR",
            "VEC2", "VEC3", "VEC4", "MAT2", "MAT4", "image/png", "image/jpeg", "image/gif", "data:,",
            "", "/abs.bin", "../x.bin", "KHR_texture_transform", "EXT_other",
        ])), 0..3),
        removals in prop::collection::vec(any::<usize>(), 0..3),
    ) {
        let (original, dir) = &inputs()[which];
        let mut doc: serde_json::Value = serde_json::from_slice(original).unwrap();
        for (pick, value) in strings {
            let mut pointers = Vec::new();
            leaf_pointers(&doc, String::new(), serde_json::Value::is_string, &mut pointers);
            if let Some(target) = pointers.get(pick % pointers.len().max(1)) {
                *doc.pointer_mut(target).unwrap() = serde_json::json!(value);
            }
        }
        for pick in removals {
            let mut objects = Vec::new();
            leaf_pointers(&doc, String::new(), |v| v.as_object().is_some_and(|o| !o.is_empty()), &mut objects);
            if let Some(target) = objects.get(pick % objects.len().max(1)) {
                let object = doc.pointer_mut(target).unwrap().as_object_mut().unwrap();
                let key = object.keys().nth(pick % object.len()).unwrap().clone();
                object.remove(&key);
            }
        }
        let bytes = serde_json::to_vec(&doc).unwrap();
        let _ = GltfModel::from_slice(&bytes, Some(dir), "fuzzed.gltf");
    }
}

#[test]
fn unmutated_inputs_load() {
    for (bytes, dir) in inputs() {
        GltfModel::from_slice(bytes, Some(dir), "input").unwrap();
    }
}
