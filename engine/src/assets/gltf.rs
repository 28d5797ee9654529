//! glTF models: the `.gltf`/`.glb`, then each external buffer and image it
//! names (relative to the model, inside the asset folder), then the import
//! from memory, through the import cache when there is one.

use taos_gltf::{ExternalFiles, GltfModel, LoadOptions, external_uris};

use super::{AssetError, AssetPath, Assets};
use crate::ProgressReporter;

/// Reads the model at `path` and the files it names, and imports it.
pub(super) async fn load(
    assets: &Assets,
    path: &AssetPath,
    progress: &ProgressReporter,
) -> Result<GltfModel, AssetError> {
    let bytes = assets.fetch(path, progress).await?;
    let name = path.as_str();
    let uris = external_uris(&bytes, name).map_err(|e| AssetError::decode(path, e))?;
    let mut files = ExternalFiles::new();
    for uri in uris {
        // `uri.path` is percent-decoded: a plain relative path.
        let file = path.join_relative(&uri.path)?;
        let data = assets.fetch(&file, progress).await?;
        files.insert(uri.path, data);
    }
    let options = LoadOptions::default();
    match assets.import_cache() {
        Some(cache) => cache
            .import(&bytes, name, &files, &options)
            .await
            .map(|(model, _)| model),
        None => GltfModel::from_slice_with_files(&bytes, name, &files, &options, &mut |_| {}),
    }
    .map_err(|e| AssetError::decode(path, e))
}
