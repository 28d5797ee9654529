//! [`LoadOptions`]: how much one load may decode, and which folders it may read from.

use std::path::PathBuf;
use std::sync::Arc;

use crate::image_cache::{ImageCache, SharedImageCache};

/// How much one load may decode and which folders its external files may come from.
///
/// [`LoadOptions::default()`] is what [`GltfModel::load`](crate::GltfModel::load) and
/// [`GltfModel::from_slice`](crate::GltfModel::from_slice) use; pass your own to
/// [`GltfModel::load_with_options`](crate::GltfModel::load_with_options) or
/// [`GltfModel::from_slice_with_options`](crate::GltfModel::from_slice_with_options).
///
/// # Where external files may come from
///
/// A buffer or image URI that is not a `data:` URI names a file relative to the model's
/// folder (the `.gltf`'s folder, or `base_dir` for the `from_slice` functions). By default:
///
/// - absolute paths and URIs with a scheme (`file:`, `http:`, `C:`) are refused;
/// - `..` components are refused (also percent-encoded, `%2E%2E/`);
/// - the path, with every symbolic link followed, must lie inside the model's folder;
/// - it must name a regular file: folders, FIFOs, devices and sockets are refused before they
///   are opened;
/// - the file is read no further than what is left of [`LoadOptions::max_decoded_bytes`],
///   and its size is charged to it;
/// - a file named by several buffers or images (under any spelling) is read once per load.
///
/// To let models share files in another folder, add it to [`LoadOptions::allowed_roots`]:
/// `..` is then allowed, and a file may lie inside the model's folder or inside any allowed
/// root. Allowing `/` lets a model read any regular file the process can; do that only for
/// models you trust.
///
/// ```
/// use std::fs;
/// use taos_gltf::{GltfModel, LoadOptions};
///
/// let root = std::env::temp_dir().join(format!("taos_gltf_roots_{}", std::process::id()));
/// fs::create_dir_all(root.join("car"))?;
/// fs::create_dir_all(root.join("shared"))?;
/// fs::write(root.join("shared/wheel.bin"), [0u8; 4])?;
/// let model = root.join("car/car.gltf");
/// fs::write(
///     &model,
///     r#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "../shared/wheel.bin"}]}"#,
/// )?;
///
/// // By default the model may only read inside car/: `..` is refused.
/// assert!(GltfModel::load(&model).is_err());
/// // With shared/ allowed it reads shared/wheel.bin (and still nothing else outside car/).
/// let options = LoadOptions::default()
///     .allow_root(root.join("shared"))
///     .with_max_decoded_bytes(64 << 20);
/// GltfModel::load_with_options(&model, &options, &mut |_| {})?;
/// # fs::remove_dir_all(&root)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// At most this many bytes come out of one load: external files as read, `data:` URI
    /// contents, vertex data, indices, keyframes, decoded pixels. The model file itself may be
    /// at most this large too. Defaults to [`MAX_DECODED_BYTES`](crate::MAX_DECODED_BYTES)
    /// (4 GiB natively, 256 MiB on `wasm32`).
    pub max_decoded_bytes: u64,
    /// Folders, besides the model's own, that external files may come from; when not empty,
    /// URIs may also use `..`. Folders that do not exist are skipped. Empty by default.
    pub allowed_roots: Vec<PathBuf>,
    /// Decoded images kept between loads: consulted before each image is decoded, filled
    /// after (see [`ImageCache`]). `None` (the default) decodes every image.
    pub image_cache: Option<SharedImageCache>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            max_decoded_bytes: crate::MAX_DECODED_BYTES,
            allowed_roots: Vec::new(),
            image_cache: None,
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

    /// These options with [`LoadOptions::image_cache`] set to `cache`.
    #[must_use]
    pub fn with_image_cache(mut self, cache: Arc<dyn ImageCache>) -> Self {
        self.image_cache = Some(SharedImageCache(cache));
        self
    }
}
