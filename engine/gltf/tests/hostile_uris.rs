//! External URIs stay inside the model's folder, name regular files only, are read at most to
//! the remaining decoded-data budget, and each file is read once per load.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::json;
use taos_gltf::{GltfError, GltfModel, LoadOptions};

/// A folder `outside/` holding `secret.bin`, and the model's folder `outside/model/`.
struct Layout {
    _dir: tempfile::TempDir,
    outside: PathBuf,
    model_dir: PathBuf,
}

fn layout() -> Layout {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    let model_dir = outside.join("model");
    std::fs::create_dir_all(&model_dir).unwrap();
    std::fs::write(outside.join("secret.bin"), [7u8; 16]).unwrap();
    Layout {
        _dir: dir,
        outside,
        model_dir,
    }
}

/// A .gltf with one buffer per URI, each `byte_length` long.
fn gltf_naming(uris: &[&str], byte_length: usize) -> Vec<u8> {
    let buffers: Vec<_> = uris
        .iter()
        .map(|uri| json!({"byteLength": byte_length, "uri": uri}))
        .collect();
    serde_json::to_vec(&json!({"asset": {"version": "2.0"}, "buffers": buffers})).unwrap()
}

/// Writes `model.gltf` naming `uris` into `dir` and loads it with `options`.
fn load_naming(
    dir: &Path,
    uris: &[&str],
    byte_length: usize,
    options: &LoadOptions,
) -> Result<GltfModel, GltfError> {
    let path = dir.join("model.gltf");
    std::fs::write(&path, gltf_naming(uris, byte_length)).unwrap();
    GltfModel::load_with_options(&path, options, &mut |_| {})
}

/// Runs `f` on a thread and fails the test if it has not finished within 10 s (a hang).
fn promptly<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("{what}: the load did not return within 10 s"))
}

fn refused(result: Result<GltfModel, GltfError>, uri: &str, expect: &str) {
    let message = result.expect_err("should be refused").to_string();
    assert!(
        message.contains(uri),
        "the message names the URI: {message}"
    );
    assert!(
        message.contains(expect),
        "expected {expect:?} in: {message}"
    );
}

#[test]
fn parent_dirs_cannot_escape_the_model_folder() {
    let l = layout();
    let options = LoadOptions::default();
    for uri in ["../secret.bin", "sub/../../secret.bin", "..%2Fsecret.bin"] {
        refused(
            load_naming(&l.model_dir, &[uri], 16, &options),
            uri,
            "`..` is refused",
        );
    }
}

#[test]
fn absolute_paths_are_refused() {
    let l = layout();
    let secret = l.outside.join("secret.bin");
    let uri = secret.to_str().unwrap();
    refused(
        load_naming(&l.model_dir, &[uri], 16, &LoadOptions::default()),
        uri,
        "absolute",
    );
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_folder_are_refused() {
    let l = layout();
    std::os::unix::fs::symlink(l.outside.join("secret.bin"), l.model_dir.join("link.bin")).unwrap();
    std::os::unix::fs::symlink(&l.outside, l.model_dir.join("up")).unwrap();
    for uri in ["link.bin", "up/secret.bin"] {
        refused(
            load_naming(&l.model_dir, &[uri], 16, &LoadOptions::default()),
            uri,
            "outside the model's folder",
        );
    }
    // A link that stays inside the folder is fine.
    std::fs::write(l.model_dir.join("real.bin"), [1u8; 16]).unwrap();
    std::os::unix::fs::symlink(l.model_dir.join("real.bin"), l.model_dir.join("inside.bin"))
        .unwrap();
    load_naming(&l.model_dir, &["inside.bin"], 16, &LoadOptions::default()).unwrap();
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_promptly() {
    let l = layout();
    // /dev/zero reached through a link (the folder check comes first, so allow everything).
    std::os::unix::fs::symlink("/dev/zero", l.model_dir.join("zero.bin")).unwrap();
    let dir = l.model_dir.clone();
    let result = promptly("/dev/zero", move || {
        let options = LoadOptions::default().allow_root("/");
        load_naming(&dir, &["zero.bin"], 16, &options)
    });
    refused(result, "zero.bin", "not a regular file");
    // And by the literal hostile URI, which never gets that far.
    let dir = l.model_dir.clone();
    let result = promptly("../../dev/zero", move || {
        load_naming(
            &dir,
            &["../../../../../../../../dev/zero"],
            16,
            &LoadOptions::default(),
        )
    });
    assert!(result.is_err());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_hanging() {
    let l = layout();
    let fifo = l.model_dir.join("pipe.bin");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let dir = l.model_dir.clone();
    let result = promptly("FIFO", move || {
        load_naming(&dir, &["pipe.bin"], 16, &LoadOptions::default())
    });
    refused(result, "pipe.bin", "not a regular file");
}

#[test]
fn a_directory_is_refused() {
    let l = layout();
    std::fs::create_dir(l.model_dir.join("folder.bin")).unwrap();
    refused(
        load_naming(&l.model_dir, &["folder.bin"], 16, &LoadOptions::default()),
        "folder.bin",
        "not a regular file",
    );
}

#[test]
fn a_file_larger_than_the_budget_is_refused() {
    let l = layout();
    std::fs::write(l.model_dir.join("big.bin"), vec![1u8; 2 << 20]).unwrap();
    let options = LoadOptions::default().with_max_decoded_bytes(1 << 20);
    refused(
        load_naming(&l.model_dir, &["big.bin"], 16, &options),
        "big.bin",
        "decoded-data limit",
    );
    // A sparse 64 GiB file is refused at once, not read.
    let huge = std::fs::File::create(l.model_dir.join("huge.bin")).unwrap();
    huge.set_len(64 << 30).unwrap();
    drop(huge);
    let dir = l.model_dir.clone();
    let result = promptly("64 GiB file", move || {
        load_naming(&dir, &["huge.bin"], 16, &LoadOptions::default())
    });
    refused(result, "huge.bin", "decoded-data limit");
}

#[test]
fn file_reads_count_against_the_budget() {
    let l = layout();
    for name in ["a.bin", "b.bin"] {
        std::fs::write(l.model_dir.join(name), vec![1u8; 1 << 20]).unwrap();
    }
    // Two different 1 MiB files do not fit in 1.5 MiB; one does.
    let options = LoadOptions::default().with_max_decoded_bytes(3 << 19);
    load_naming(&l.model_dir, &["a.bin"], 16, &options).unwrap();
    refused(
        load_naming(&l.model_dir, &["a.bin", "b.bin"], 16, &options),
        "b.bin",
        "decoded-data limit",
    );
}

#[test]
fn one_file_named_by_many_buffers_is_read_once() {
    let l = layout();
    std::fs::write(l.model_dir.join("shared.bin"), vec![1u8; 1 << 20]).unwrap();
    std::fs::create_dir(l.model_dir.join("sub")).unwrap();
    // 100 buffers naming one 1 MiB file, under several spellings.
    let spellings = [
        "shared.bin",
        "./shared.bin",
        "shared%2Ebin",
        "./sub/../shared.bin",
    ];
    let uris: Vec<&str> = spellings.iter().copied().cycle().take(100).collect();
    let budget = |bytes| {
        LoadOptions::default()
            .with_max_decoded_bytes(bytes)
            .allow_root(&l.model_dir)
    };
    // The read is charged: half a MiB is not enough...
    refused(
        load_naming(&l.model_dir, &uris, 1 << 20, &budget(1 << 19)),
        "shared.bin",
        "decoded-data limit",
    );
    // ...but it is charged once: 1.5 MiB is, where 100 reads would need 100 MiB.
    load_naming(&l.model_dir, &uris, 1 << 20, &budget(3 << 19)).unwrap();
    // The same without `..` spellings, under the default folder rules.
    let uris: Vec<&str> = spellings[..3].iter().copied().cycle().take(100).collect();
    let options = LoadOptions::default().with_max_decoded_bytes(3 << 19);
    load_naming(&l.model_dir, &uris, 1 << 20, &options).unwrap();
}

#[test]
fn allowed_roots_let_a_model_use_a_shared_folder() {
    let l = layout();
    std::fs::create_dir(l.outside.join("textures")).unwrap();
    std::fs::write(l.outside.join("textures/shared.bin"), [3u8; 16]).unwrap();
    let uri = "../textures/shared.bin";
    refused(
        load_naming(&l.model_dir, &[uri], 16, &LoadOptions::default()),
        uri,
        "`..` is refused",
    );
    let options = LoadOptions::default().allow_root(l.outside.join("textures"));
    load_naming(&l.model_dir, &[uri], 16, &options).unwrap();
    // The allowed root does not open its parent.
    refused(
        load_naming(&l.model_dir, &["../secret.bin"], 16, &options),
        "../secret.bin",
        "outside the model's folder",
    );
}

#[test]
fn the_model_file_itself_must_be_a_regular_file() {
    let l = layout();
    let dir = l.model_dir.clone();
    let result = promptly("a folder as the model", move || GltfModel::load(&dir));
    let message = result.unwrap_err().to_string();
    assert!(message.contains("not a regular file"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_fifo_as_the_model_is_refused_without_hanging() {
    let l = layout();
    let fifo = l.model_dir.join("model.gltf");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let result = promptly("FIFO model", move || GltfModel::load(&fifo));
    let message = result.unwrap_err().to_string();
    assert!(message.contains("not a regular file"), "{message}");
}
