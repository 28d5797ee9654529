//! [`AssetError`]: why an asset could not be had, naming the file.

use std::sync::Arc;

use super::{AssetPath, PathProblem};
use crate::scene_file::SceneFileError;

/// Why an asset could not be read or decoded. Every variant names the
/// file by its [`AssetPath`] (or the string refused as one); reading
/// variants also say where it was looked for (`location`: the file on
/// disk natively, the URL in the browser).
///
/// Cheap to clone: the underlying errors are shared.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum AssetError {
    /// Not a path inside the asset folder (see [`AssetPath::new`]).
    #[error("asset path {path:?}: {reason}")]
    InvalidPath {
        /// The path as given (for a path a model names: joined to the
        /// model's folder).
        path: String,
        /// What is wrong with it.
        reason: PathProblem,
    },
    /// No such file (natively), or the server answered 404 (in the browser).
    #[error("{path}: not found (looked for {location})")]
    NotFound {
        /// The file.
        path: AssetPath,
        /// Where it was looked for.
        location: String,
    },
    /// The server answered with an HTTP error other than 404.
    #[error("{path}: the server answered HTTP {status} ({location})")]
    Http {
        /// The file.
        path: AssetPath,
        /// The HTTP status.
        status: u16,
        /// The URL asked for.
        location: String,
    },
    /// The file exists but could not be read (permissions, I/O error).
    #[error("{path}: cannot read {location}: {source}")]
    Io {
        /// The file.
        path: AssetPath,
        /// Where it was read from.
        location: String,
        /// The operating system's error.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The file is larger than the limit for one file
    /// ([`Assets::with_max_file_bytes`](super::Assets::with_max_file_bytes));
    /// refused from its size (metadata, `Content-Length`) before it is
    /// read, or as soon as reading passes the limit.
    #[error("{path}: {size} bytes or more, more than the {limit}-byte limit for one file")]
    TooLarge {
        /// The file.
        path: AssetPath,
        /// Its size, or as far as it was read.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Natively: the path leads out of the asset folder through a
    /// symbolic link.
    #[error("{path}: resolves to {location}, outside the asset folder (through a symbolic link)")]
    OutsideRoot {
        /// The file.
        path: AssetPath,
        /// Where it resolves to, links followed.
        location: String,
    },
    /// Natively: a folder, FIFO, device or socket, refused before it is
    /// opened.
    #[error("{path}: {location} is not a regular file")]
    NotAFile {
        /// The file.
        path: AssetPath,
        /// Where it resolves to.
        location: String,
    },
    /// In the browser: the request failed without an answer (offline, a
    /// page opened from `file://`, a refused cross-origin request).
    #[error("{path}: the request failed: {message}")]
    Network {
        /// The file.
        path: AssetPath,
        /// The browser's message.
        message: String,
    },
    /// An image wider or taller than
    /// [`MAX_IMAGE_SIZE`](super::MAX_IMAGE_SIZE), refused from its header
    /// before it is decoded.
    #[error("{path}: a {width}x{height} image, larger than {max} pixels a side")]
    ImageTooLarge {
        /// The file.
        path: AssetPath,
        /// Width in the header.
        width: u32,
        /// Height in the header.
        height: u32,
        /// The largest side accepted.
        max: u32,
    },
    /// The file was read but is not what it should be: a corrupt image,
    /// a malformed glTF or scene file, text that is not UTF-8.
    #[error("{path}: cannot decode: {source}")]
    Decode {
        /// The file.
        path: AssetPath,
        /// The decoder's error.
        #[source]
        source: DecodeError,
    },
    /// A scene file's model or prefab that was not fetched with it (the
    /// scene was instantiated with types that add model files of their
    /// own).
    #[error("{path}: not fetched with the scene file {scene}")]
    NotFetched {
        /// The model or prefab.
        path: AssetPath,
        /// The scene file.
        scene: AssetPath,
    },
}

/// The decoder's error inside [`AssetError::Decode`].
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// Text that is not UTF-8.
    #[error("not UTF-8 text: {0}")]
    Text(#[from] std::str::Utf8Error),
    /// The image decoder's error (corrupt data, an unsupported format).
    #[error(transparent)]
    Image(Arc<image::ImageError>),
    /// The glTF importer's error (it names the file and the element).
    #[error(transparent)]
    Gltf(Arc<taos_gltf::GltfError>),
    /// The scene file loader's error (it names the file, line and object).
    #[error(transparent)]
    Scene(Box<SceneFileError>),
    /// A scene file whose prefabs name more prefab files than this.
    #[error("its prefabs name more than {limit} prefab files")]
    TooManyPrefabs {
        /// The most prefab files one scene file may bring.
        limit: usize,
    },
}

impl AssetError {
    /// The file the error is about, when it is a valid [`AssetPath`]
    /// (every variant but [`InvalidPath`](Self::InvalidPath)).
    #[must_use]
    pub fn path(&self) -> Option<&AssetPath> {
        match self {
            Self::InvalidPath { .. } => None,
            Self::NotFound { path, .. }
            | Self::Http { path, .. }
            | Self::Io { path, .. }
            | Self::TooLarge { path, .. }
            | Self::OutsideRoot { path, .. }
            | Self::NotAFile { path, .. }
            | Self::Network { path, .. }
            | Self::ImageTooLarge { path, .. }
            | Self::Decode { path, .. }
            | Self::NotFetched { path, .. } => Some(path),
        }
    }

    pub(super) fn decode(path: &AssetPath, source: impl Into<DecodeError>) -> Self {
        Self::Decode {
            path: path.clone(),
            source: source.into(),
        }
    }
}

impl From<image::ImageError> for DecodeError {
    fn from(error: image::ImageError) -> Self {
        Self::Image(Arc::new(error))
    }
}

impl From<taos_gltf::GltfError> for DecodeError {
    fn from(error: taos_gltf::GltfError) -> Self {
        Self::Gltf(Arc::new(error))
    }
}

impl From<SceneFileError> for DecodeError {
    fn from(error: SceneFileError) -> Self {
        Self::Scene(Box::new(error))
    }
}
