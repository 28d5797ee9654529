//! External files supplied in memory: [`external_uris`] lists the files a model names,
//! [`ExternalFiles`] holds their bytes, and
//! [`GltfModel::from_slice_with_files`](crate::GltfModel::from_slice_with_files) imports the
//! model with them. For hosts where the importer cannot read files itself: a browser fetching
//! a model and its textures, an archive, a game's packed assets.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{ElementName, GltfError};
use crate::source::{decode_relative_uri, split_container};

/// A file a model names by URI (buffers and images; `data:` URIs are not files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalUri {
    /// The URI as the model writes it (`box%20emissive.png`).
    pub uri: String,
    /// The relative path it names, percent-decoded (`box emissive.png`): where to read it
    /// from, relative to the model, and its key in [`ExternalFiles`]. May hold `..`: the
    /// caller decides what it may reach.
    pub path: String,
}

/// Every file the `.gltf` or `.glb` in `bytes` names by URI, once each (by decoded path), in
/// file order: buffers, then images. `data:` URIs and the GLB chunk are not listed.
///
/// Only the container and the JSON are read: nothing is decoded or validated beyond that, so
/// a model that lists fine may still fail to import.
///
/// # Errors
/// [`GltfError::Glb`] or [`GltfError::Json`] when the container or its JSON is malformed;
/// [`GltfError::Buffer`] or [`GltfError::Image`] with
/// [`SourceProblem::UnsupportedUri`](crate::SourceProblem::UnsupportedUri) for a URI that
/// is absolute, has a scheme (`http:`, `file:`, `C:`) or does not percent-decode to UTF-8.
/// `name_for_messages` starts every message.
pub fn external_uris(bytes: &[u8], name_for_messages: &str) -> Result<Vec<ExternalUri>, GltfError> {
    let file = name_for_messages;
    let container = split_container(bytes).map_err(|problem| GltfError::Glb {
        file: file.to_owned(),
        problem,
    })?;
    let root: gltf::json::Root =
        gltf::json::deserialize::from_slice(container.json).map_err(|e| GltfError::Json {
            file: file.to_owned(),
            source: gltf::Error::Deserialize(e),
        })?;
    let buffers = root.buffers.iter().enumerate().map(|(i, buffer)| {
        let name = ElementName::new(crate::ElementKind::Buffer, i, buffer.name.as_deref());
        (name, buffer.uri.as_deref())
    });
    let images = root.images.iter().enumerate().map(|(i, image)| {
        let name = ElementName::new(crate::ElementKind::Image, i, image.name.as_deref());
        (name, image.uri.as_deref())
    });
    let mut listed: Vec<ExternalUri> = Vec::new();
    for (element, uri) in buffers.chain(images) {
        let Some(uri) = uri.filter(|uri| !uri.starts_with("data:")) else {
            continue;
        };
        let path = decode_relative_uri(uri, true).map_err(|problem| {
            let file = file.to_owned();
            match element.kind {
                crate::ElementKind::Buffer => GltfError::Buffer {
                    file,
                    buffer: element.clone(),
                    problem,
                },
                _ => GltfError::Image {
                    file,
                    image: element.clone(),
                    problem,
                },
            }
        })?;
        if !listed.iter().any(|known| known.path == path) {
            listed.push(ExternalUri {
                uri: uri.to_owned(),
                path,
            });
        }
    }
    Ok(listed)
}

/// The external files of a model imported from memory, by the percent-decoded relative path
/// its URIs name ([`ExternalUri::path`]). Cheap to clone (the bytes are shared).
#[derive(Debug, Clone, Default)]
pub struct ExternalFiles {
    files: HashMap<String, Arc<Vec<u8>>>,
}

impl ExternalFiles {
    /// No files.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Supplies the file at `path` (as [`ExternalUri::path`] spells it), replacing any
    /// bytes given for it before.
    pub fn insert(&mut self, path: impl Into<String>, bytes: Vec<u8>) {
        self.files.insert(path.into(), Arc::new(bytes));
    }

    /// The bytes supplied for `path`.
    #[must_use]
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(|bytes| bytes.as_slice())
    }

    pub(crate) fn shared(&self, path: &str) -> Option<&Arc<Vec<u8>>> {
        self.files.get(path)
    }

    /// How many files are supplied.
    #[must_use]
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is supplied.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Every file supplied, as `(path, bytes)`, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_slice()))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::*;
    use crate::test_models::{self, Storage};
    use crate::{GltfModel, LoadOptions, SourceProblem};

    /// Reads what `model` names from beside it, as a browser would fetch it.
    fn files_beside(model: &Path, bytes: &[u8]) -> ExternalFiles {
        let dir = model.parent().unwrap();
        let mut files = ExternalFiles::new();
        for uri in external_uris(bytes, "model").unwrap() {
            files.insert(
                uri.path.clone(),
                std::fs::read(dir.join(&uri.path)).unwrap(),
            );
        }
        files
    }

    fn from_memory(bytes: &[u8], files: &ExternalFiles) -> Result<GltfModel, GltfError> {
        GltfModel::from_slice_with_files(
            bytes,
            "model",
            files,
            &LoadOptions::default(),
            &mut |_| {},
        )
    }

    #[test]
    fn a_model_with_its_files_in_memory_equals_the_model_loaded_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        // An external .bin and PNG; a .bin, a JPEG and PNGs named with spaces (%20 in the URI).
        for path in [
            test_models::texture_transforms(dir.path()).unwrap(),
            test_models::textured_box_with(dir.path(), Storage::ExternalBin).unwrap(),
        ] {
            let bytes = std::fs::read(&path).unwrap();
            let files = files_beside(&path, &bytes);
            assert!(files.len() >= 2, "{}", path.display());
            let disk = GltfModel::load(&path).unwrap();
            assert_eq!(from_memory(&bytes, &files).unwrap(), disk);
        }
        let path = test_models::textured_box_with(dir.path(), Storage::ExternalBin).unwrap();
        let uris = external_uris(&std::fs::read(&path).unwrap(), "box").unwrap();
        let emissive = uris.iter().find(|u| u.path == "box emissive.png").unwrap();
        assert_eq!(emissive.uri, "box%20emissive.png");
    }

    #[test]
    fn a_missing_file_is_an_error_naming_its_uri() {
        let dir = tempfile::tempdir().unwrap();
        let path = test_models::textured_box_with(dir.path(), Storage::ExternalBin).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let mut files = ExternalFiles::new();
        for uri in external_uris(&bytes, "box").unwrap() {
            if uri.path != "box emissive.png" {
                files.insert(
                    uri.path.clone(),
                    std::fs::read(dir.path().join(&uri.path)).unwrap(),
                );
            }
        }
        let error = from_memory(&bytes, &files).unwrap_err();
        assert!(
            matches!(&error, GltfError::Image { problem: SourceProblem::NotSupplied { uri, path }, .. }
                if uri == "box%20emissive.png" && &**path == "box emissive.png"),
            "{error}"
        );
        assert!(error.to_string().contains("box%20emissive.png"), "{error}");
        // With nothing supplied, the buffer is missed first.
        let error = from_memory(&bytes, &ExternalFiles::new()).unwrap_err();
        assert!(error.to_string().contains("textured_box.bin"), "{error}");
    }

    #[test]
    fn files_in_memory_are_charged_to_the_budget_once() {
        let doc = json!({
            "asset": {"version": "2.0"},
            "buffers": [
                {"byteLength": 4, "uri": "a.bin"},
                {"byteLength": 4, "uri": "./a.bin"},
                {"byteLength": 4, "uri": "%61.bin"},
            ],
        });
        let bytes = serde_json::to_vec(&doc).unwrap();
        let uris = external_uris(&bytes, "m").unwrap();
        // `./a.bin` is another key; `%61.bin` decodes to `a.bin`.
        assert_eq!(
            uris.iter().map(|u| u.path.as_str()).collect::<Vec<_>>(),
            ["a.bin", "./a.bin"]
        );
        let mut files = ExternalFiles::new();
        files.insert("a.bin", vec![0; 1000]);
        files.insert("./a.bin", vec![0; 1000]);
        let load = |budget| {
            let options = LoadOptions::default().with_max_decoded_bytes(budget);
            GltfModel::from_slice_with_files(&bytes, "m", &files, &options, &mut |_| {})
        };
        assert!(load(2000).is_ok());
        let error = load(1999).unwrap_err();
        assert!(
            matches!(
                &error,
                GltfError::Buffer {
                    problem: SourceProblem::FileTooLarge {
                        size: 1000,
                        remaining: 999,
                        ..
                    },
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn listing_skips_data_uris_and_refuses_schemes_and_absolute_paths() {
        let dir = tempfile::tempdir().unwrap();
        // Embedded buffer, images in files; the GLB names nothing.
        let path = test_models::textured_box(dir.path()).unwrap();
        let uris = external_uris(&std::fs::read(&path).unwrap(), "box").unwrap();
        assert_eq!(uris.len(), 5, "{uris:?}");
        let glb = test_models::textured_box_with(dir.path(), Storage::Glb).unwrap();
        assert!(
            external_uris(&std::fs::read(glb).unwrap(), "glb")
                .unwrap()
                .is_empty()
        );

        let naming = |uri: &str| {
            let doc = json!({"asset": {"version": "2.0"}, "images": [{"uri": uri, "name": "Sky"}]});
            external_uris(&serde_json::to_vec(&doc).unwrap(), "m")
        };
        assert_eq!(
            naming("../shared/sky.png").unwrap()[0].path,
            "../shared/sky.png"
        );
        for bad in [
            "http://example.com/a.png",
            "/etc/passwd",
            "C:\\a.png",
            "%FF.png",
        ] {
            let error = naming(bad).unwrap_err();
            assert!(
                matches!(
                    &error,
                    GltfError::Image {
                        problem: SourceProblem::UnsupportedUri { .. },
                        ..
                    }
                ),
                "{bad}: {error}"
            );
            assert!(error.to_string().contains("image 0 (\"Sky\")"), "{error}");
        }
        assert!(matches!(
            external_uris(b"{", "m"),
            Err(GltfError::Json { .. })
        ));
        assert!(matches!(
            external_uris(b"glTF\x02\0\0\0", "m"),
            Err(GltfError::Glb { .. })
        ));
    }
}
