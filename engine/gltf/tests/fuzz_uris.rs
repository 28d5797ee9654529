//! Property tests: a model whose folder holds links out of it, a FIFO and a link to
//! `/dev/zero`, beside a parent folder holding copies of its files. Hostile URIs swapped into
//! the .gltf are always refused; mutated .gltf and .glb bytes never panic or hang.
//!
//! 256 cases per property (about a second); `TAOS_FUZZ_CASES=100000` for a deeper run (see
//! `taos_hostile_inputs`).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use proptest::prelude::*;
use taos_gltf::test_models::{self, Storage};
use taos_gltf::{GltfError, GltfModel};
use taos_hostile_inputs::{Mutation, apply};

/// URIs that must be refused: they leave the folder, or name something that is not a file.
const REFUSED: &[&str] = &[
    "../textured_box.bin",
    "..%2Ftextured_box.bin",
    "%2E%2E/textured_box.bin",
    "sub/../../textured_box.bin",
    "./../textured_box.bin",
    "../../../../../../../../dev/zero",
    "/dev/zero",
    "file:///dev/zero",
    "sub",
    ".",
    "",
    // Links and a FIFO, made on Unix only (elsewhere: missing files, refused too).
    "link.bin",
    "up/textured_box.bin",
    "pipe.bin",
    "zero.bin",
];

/// URIs inside the folder (they load, or fail as the wrong kind of data).
const INSIDE: &[&str] = &[
    "textured_box.bin",
    "./textured_box.bin",
    "textured_box%2Ebin",
    "sub/inner.bin",
    "box_mr.png",
];

struct Fixture {
    _dir: tempfile::TempDir,
    model_dir: PathBuf,
    gltf: Vec<u8>,
    glb: Vec<u8>,
    /// The absolute path of the parent's copy of the .bin.
    absolute: String,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().to_path_buf();
        let model_dir = outside.join("model");
        std::fs::create_dir(&model_dir).unwrap();
        let gltf = test_models::textured_box_with(&model_dir, Storage::ExternalBin).unwrap();
        let glb = test_models::textured_box_with(&model_dir, Storage::Glb).unwrap();
        // Copies outside: a load that escaped the folder would find what it looks for.
        for entry in std::fs::read_dir(&model_dir).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, outside.join(path.file_name().unwrap())).unwrap();
        }
        std::fs::create_dir(model_dir.join("sub")).unwrap();
        std::fs::copy(
            model_dir.join("textured_box.bin"),
            model_dir.join("sub/inner.bin"),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::symlink;
            symlink(outside.join("textured_box.bin"), model_dir.join("link.bin")).unwrap();
            symlink(&outside, model_dir.join("up")).unwrap();
            symlink("/dev/zero", model_dir.join("zero.bin")).unwrap();
            let status = std::process::Command::new("mkfifo")
                .arg(model_dir.join("pipe.bin"))
                .status()
                .unwrap();
            assert!(status.success());
        }
        Fixture {
            absolute: outside.join("textured_box.bin").display().to_string(),
            gltf: std::fs::read(gltf).unwrap(),
            glb: std::fs::read(glb).unwrap(),
            model_dir,
            _dir: dir,
        }
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // A hang costs the 10 s timeout per shrinking step.
        max_shrink_iters: 8,
        ..taos_hostile_inputs::config()
    }
}

/// Loads `bytes` from the fixture's folder on a thread; `None` if it did not return in 10 s.
fn load(bytes: Vec<u8>) -> Option<Result<GltfModel, GltfError>> {
    let (send, receive) = mpsc::channel();
    let dir: Arc<Path> = fixture().model_dir.as_path().into();
    std::thread::spawn(move || {
        let _ = send.send(GltfModel::from_slice(&bytes, Some(&dir), "fuzzed.gltf"));
    });
    receive.recv_timeout(Duration::from_secs(10)).ok()
}

/// Every `"uri"` string in the document, as JSON pointers.
fn uri_pointers(v: &serde_json::Value, at: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| uri_pointers(v, &format!("{at}/{i}"), out)),
        serde_json::Value::Object(o) => o.iter().for_each(|(k, v)| {
            let here = format!("{at}/{k}");
            if k == "uri" && v.is_string() {
                out.push(here.clone());
            }
            uri_pointers(v, &here, out);
        }),
        _ => {}
    }
}

/// An index into `REFUSED` (plus the absolute path) or `INSIDE`.
#[derive(Debug, Clone, Copy)]
enum Pick {
    Refused(usize),
    Absolute,
    Inside(usize),
}

fn pick() -> impl Strategy<Value = Pick> {
    prop_oneof![
        (0..REFUSED.len()).prop_map(Pick::Refused),
        Just(Pick::Absolute),
        (0..INSIDE.len()).prop_map(Pick::Inside),
    ]
}

/// Path pieces and URIs, inserted into the bytes.
const PIECES: &[&str] = &[
    "../",
    "..%2F",
    "%2e%2e/",
    "/",
    "./",
    "sub/",
    "up/",
    "link.bin",
    "pipe.bin",
    "zero.bin",
    "/dev/zero",
    "file:///",
    "%00",
    "%",
    "\\",
    "\"",
];

/// Any of `taos_hostile_inputs`'s mutations, or (one time in four) a path piece inserted.
fn mutation() -> impl Strategy<Value = Mutation> {
    let len = fixture().gltf.len().max(fixture().glb.len());
    prop_oneof![
        3 => taos_hostile_inputs::mutation(len),
        1 => (0..=len, prop::sample::select(PIECES))
            .prop_map(|(at, piece)| Mutation::Insert(at, piece.as_bytes().to_vec())),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Any hostile URI among the model's buffer and image URIs makes the load fail, promptly.
    #[test]
    fn hostile_uris_are_always_refused(picks in prop::collection::vec((any::<usize>(), pick()), 1..4)) {
        let f = fixture();
        let mut doc: serde_json::Value = serde_json::from_slice(&f.gltf).unwrap();
        let mut pointers = Vec::new();
        uri_pointers(&doc, "", &mut pointers);
        for (at, pick) in picks {
            let uri = match pick {
                Pick::Refused(i) => REFUSED[i].to_owned(),
                Pick::Absolute => f.absolute.clone(),
                Pick::Inside(i) => INSIDE[i].to_owned(),
            };
            *doc.pointer_mut(&pointers[at % pointers.len()]).unwrap() = serde_json::json!(uri);
        }
        // A later pick may have overwritten an earlier one: judge the URIs left.
        let hostile: Vec<&str> = pointers
            .iter()
            .filter_map(|p| doc.pointer(p).and_then(serde_json::Value::as_str))
            .filter(|uri| REFUSED.contains(uri) || *uri == f.absolute)
            .collect();
        let hostile = hostile.join(", ");
        let result = load(serde_json::to_vec(&doc).unwrap());
        let Some(result) = result else {
            panic!("the load panicked or hung; hostile URIs {hostile:?}");
        };
        if !hostile.is_empty() {
            prop_assert!(result.is_err(), "loaded with hostile URIs {}", hostile);
        }
    }

    /// Mutated .gltf (external .bin and images) and .glb bytes give a result, promptly.
    #[test]
    fn mutated_bytes_never_panic_or_hang(glb in any::<bool>(), mutations in prop::collection::vec(mutation(), 1..4)) {
        let f = fixture();
        let bytes = apply(if glb { &f.glb } else { &f.gltf }, &mutations);
        // Ok or Err are both fine; a panic (seen as a closed channel) or a hang fails.
        prop_assert!(load(bytes).is_some(), "the load panicked or hung");
    }
}

#[test]
fn the_unmutated_model_loads_from_its_folder() {
    let f = fixture();
    load(f.gltf.clone()).unwrap().unwrap();
    load(f.glb.clone()).unwrap().unwrap();
}
