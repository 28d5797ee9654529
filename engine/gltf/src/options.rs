//! [`LoadOptions`]: how much one load may decode, and which folders it may read from.

use std::path::PathBuf;

/// How much one load may decode and which folders its external files may come from.
///
/// [`LoadOptions::default()`] is what [`GltfModel::load`](crate::GltfModel::load) and
/// [`GltfModel::from_slice`](crate::GltfModel::from_slice) use; pass your own to
/// [`GltfModel::load_with_options`](crate::GltfModel::load_with_options) or
/// [`GltfModel::from_slice_with_options`](crate::GltfModel::from_slice_with_options).
///
/// ```
/// use taos_gltf::LoadOptions;
///
/// let options = LoadOptions::default().with_max_decoded_bytes(64 << 20);
/// assert_eq!(options.max_decoded_bytes, 64 << 20);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// At most this many bytes come out of one load: vertex data, indices, keyframes,
    /// decoded pixels. Defaults to [`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES).
    pub max_decoded_bytes: u64,
    /// Folders, besides the model's own, that external files may come from.
    pub allowed_roots: Vec<PathBuf>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            max_decoded_bytes: crate::MAX_DECODED_BYTES,
            allowed_roots: Vec::new(),
        }
    }
}

impl LoadOptions {
    /// These options with a different [`LoadOptions::max_decoded_bytes`].
    #[must_use]
    pub fn with_max_decoded_bytes(mut self, bytes: u64) -> Self {
        self.max_decoded_bytes = bytes;
        self
    }

    /// These options with `folder` added to [`LoadOptions::allowed_roots`].
    #[must_use]
    pub fn allow_root(mut self, folder: impl Into<PathBuf>) -> Self {
        self.allowed_roots.push(folder.into());
        self
    }
}
