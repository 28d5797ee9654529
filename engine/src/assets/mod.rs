//! A game's asset folder, read the same way natively and in the browser.
//!
//! A game names its files by [`AssetPath`], relative to its asset folder
//! ([`AssetRoot`]): natively `<root>/<path>` is read from disk, in the
//! browser `assets/<path>` is fetched relative to the page (`taos web
//! build` copies the game's `assets/` folder next to its `index.html`).
//! Every read is a [`Task`]: natively it is done when it is started, in the
//! browser it runs on the page's event loop and the game polls it each
//! frame with [`Engine::poll`](crate::Engine::poll), watching its
//! [`progress`](Task::progress) (bytes) meanwhile.
//!
//! - [`Assets::read_bytes`], [`Assets::read_text`]: a file.
//! - [`Assets::load_image`]: a PNG or JPEG decoded to RGBA8, what
//!   [`Texture::from_rgba8`](crate::renderer::resources::Texture::from_rgba8)
//!   uploads.
//! - [`Assets::load_gltf`]: a `.gltf`/`.glb` with the buffers and images it
//!   names, for [`Engine::spawn_gltf`](crate::Engine::spawn_gltf).
//! - [`Assets::load_scene`]: a scene file with the prefabs and models it
//!   names, for [`Engine::spawn_scene_asset`](crate::Engine::spawn_scene_asset).
//!
//! What a path may reach: [`AssetPath::new`] refuses absolute paths, `..`,
//! `\`, `:` and NUL; a file a model names may use `..` as long as it stays
//! inside the folder ([`AssetPath::join_relative`]). Natively only regular
//! files are read, and a symbolic link may not lead out of the folder. A
//! file larger than [`Assets::max_file_bytes`] is refused before it is
//! read, from its size or its `Content-Length`, and again if reading passes
//! the limit. Failures are an [`AssetError`] naming the file.
//!
//! ```no_run
//! use taos_engine::assets::{AssetError, AssetPath, Assets};
//! use taos_engine::gltf::{GltfModel, GltfSpawnOptions};
//! use taos_engine::{App, AppError, Engine, Task, egui};
//!
//! struct Game {
//!     fox: Option<Task<Result<GltfModel, AssetError>>>,
//! }
//!
//! impl App for Game {
//!     fn start(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
//!         // `assets/models/fox.glb` natively and in the browser.
//!         self.fox = Some(Assets::new().load_gltf(&AssetPath::new("models/fox.glb")?));
//!         Ok(())
//!     }
//!
//!     fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
//!         if let Some(task) = &mut self.fox
//!             && let Some(model) = engine.poll(task)
//!         {
//!             self.fox = None;
//!             engine.spawn_gltf(&model?, "fox", &GltfSpawnOptions::default())?;
//!         }
//!         Ok(())
//!     }
//!
//!     fn ui(&mut self, _engine: &mut Engine, ui: &mut egui::Ui) {
//!         if let Some(fraction) = self.fox.as_ref().and_then(|t| t.progress().fraction()) {
//!             ui.add(egui::ProgressBar::new(fraction).text("loading the fox"));
//!         }
//!     }
//! }
//! ```

mod error;
mod gltf;
mod image;
mod import_cache;
#[cfg(not(target_arch = "wasm32"))]
mod native;
mod path;
mod root;
mod scene;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "wasm32")]
mod web;

pub use error::{AssetError, DecodeError};
pub use path::{AssetPath, PathProblem};
pub use root::AssetRoot;
pub use scene::{MAX_SCENE_PREFABS, SceneAsset, SpawnedScene};

use std::future::Future;

use taos_gltf::GltfModel;

use crate::{ProgressReporter, Task};

/// The largest file [`Assets`] reads unless told otherwise
/// ([`Assets::with_max_file_bytes`]): 512 MiB natively.
#[cfg(not(target_arch = "wasm32"))]
pub const DEFAULT_MAX_FILE_BYTES: u64 = 512 << 20;

/// The largest file [`Assets`] reads unless told otherwise
/// ([`Assets::with_max_file_bytes`]): 256 MiB in the browser, whose wasm
/// memory is at most 4 GiB and often granted less.
#[cfg(target_arch = "wasm32")]
pub const DEFAULT_MAX_FILE_BYTES: u64 = 256 << 20;

/// The widest and tallest image [`Assets::load_image`] decodes (the glTF
/// importer's limit too): larger ones are refused from their header.
pub const MAX_IMAGE_SIZE: u32 = taos_gltf::MAX_IMAGE_SIZE;

/// A game's asset folder: reads its files by [`AssetPath`] as [`Task`]s,
/// from disk natively and with `fetch` in the browser. Cheap to clone;
/// each read works on its own copy.
///
/// ```
/// use taos_engine::assets::{AssetPath, Assets};
///
/// let folder = std::env::temp_dir().join(format!("taos_assets_doc_{}", std::process::id()));
/// std::fs::create_dir_all(folder.join("levels"))?;
/// std::fs::write(folder.join("levels/one.txt"), "###\n#.#\n###\n")?;
///
/// let assets = Assets::with_root(folder.as_path());
/// let mut task = assets.read_text(&AssetPath::new("levels/one.txt")?);
/// // Natively the task is done at once; in a game, poll it with `engine.poll(&mut task)`.
/// assert_eq!(task.progress().done, 12);
/// assert_eq!(task.take().unwrap()?.lines().count(), 3);
/// # std::fs::remove_dir_all(&folder)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assets {
    root: AssetRoot,
    max_file_bytes: u64,
    /// Where [`Assets::load_gltf`] keeps decoded images (see [`Assets::with_import_cache`]).
    import_cache: Option<taos_import_cache::ImportCache>,
}

impl Default for Assets {
    /// [`Assets::new`].
    fn default() -> Self {
        Self::new()
    }
}

impl Assets {
    /// The default asset folder ([`AssetRoot::discover`]): natively
    /// `$TAOS_ASSETS`, else `./assets`, else `$CARGO_MANIFEST_DIR/assets`;
    /// in the browser `assets/` relative to the page.
    #[must_use]
    pub fn new() -> Self {
        Self::with_root(AssetRoot::discover())
    }

    /// The asset folder `root`: a folder natively, a URL base in the
    /// browser (a string is either, see [`AssetRoot`]).
    #[must_use]
    pub fn with_root(root: impl Into<AssetRoot>) -> Self {
        Self {
            root: root.into(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            import_cache: taos_import_cache::ImportCache::platform(),
        }
    }

    /// These assets with another limit on one file's size (default
    /// [`DEFAULT_MAX_FILE_BYTES`]).
    #[must_use]
    pub fn with_max_file_bytes(mut self, bytes: u64) -> Self {
        self.max_file_bytes = bytes;
        self
    }

    /// Where the files come from.
    #[must_use]
    pub fn root(&self) -> &AssetRoot {
        &self.root
    }

    /// The largest file read; larger ones are [`AssetError::TooLarge`].
    #[must_use]
    pub fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }

    /// The bytes of the file at `path`. Progress: bytes read of the file's
    /// size (natively) or its `Content-Length` (in the browser, when the
    /// server sends one).
    pub fn read_bytes(&self, path: &AssetPath) -> Task<Result<Vec<u8>, AssetError>> {
        self.spawn(path, |assets, path, progress| async move {
            assets.fetch(&path, &progress).await
        })
    }

    /// The text of the file at `path` (UTF-8, else
    /// [`DecodeError::Text`]). Progress as [`read_bytes`](Self::read_bytes).
    pub fn read_text(&self, path: &AssetPath) -> Task<Result<String, AssetError>> {
        self.spawn(path, |assets, path, progress| async move {
            assets.fetch_text(&path, &progress).await
        })
    }

    /// The PNG or JPEG at `path`, decoded to RGBA8 (rows top to bottom);
    /// one wider or taller than [`MAX_IMAGE_SIZE`] is refused before it is
    /// decoded. Upload it with
    /// [`Texture::from_rgba8`](crate::renderer::resources::Texture::from_rgba8).
    pub fn load_image(&self, path: &AssetPath) -> Task<Result<::image::RgbaImage, AssetError>> {
        self.spawn(path, |assets, path, progress| async move {
            let bytes = assets.fetch(&path, &progress).await?;
            image::decode(&path, &bytes)
        })
    }

    /// The glTF model at `path` (`.gltf` or `.glb`), with every external
    /// buffer and image it names read relative to it (a URI may use `..`
    /// while it stays inside the asset folder), imported with the
    /// importer's default [`LoadOptions`](taos_gltf::LoadOptions), its
    /// images taken from the [import cache](Assets::with_import_cache) when
    /// it has them (on by default). Spawn
    /// it with [`Engine::spawn_gltf`](crate::Engine::spawn_gltf). Progress:
    /// bytes of the model and its files, the total growing as each file's
    /// size becomes known.
    pub fn load_gltf(&self, path: &AssetPath) -> Task<Result<GltfModel, AssetError>> {
        self.spawn(path, |assets, path, progress| async move {
            gltf::load(&assets, &path, &progress).await
        })
    }

    /// The scene file at `path` with the prefab files and glTF models it
    /// names, read relative to its folder; instantiate it with
    /// [`Engine::spawn_scene_asset`](crate::Engine::spawn_scene_asset).
    /// Fails only when the scene file itself cannot be read or loaded; a
    /// prefab or model that cannot be is kept as its error in the
    /// [`SceneAsset`]. Progress: bytes of every file read.
    pub fn load_scene(&self, path: &AssetPath) -> Task<Result<SceneAsset, AssetError>> {
        self.spawn(path, |assets, path, progress| async move {
            scene::load(&assets, &path, &progress).await
        })
    }

    /// Starts `work` with its own copy of these assets and of `path`.
    fn spawn<T, F>(
        &self,
        path: &AssetPath,
        work: impl FnOnce(Self, AssetPath, ProgressReporter) -> F,
    ) -> Task<T>
    where
        T: 'static,
        F: Future<Output = T> + 'static,
    {
        let assets = self.clone();
        let path = path.clone();
        Task::spawn_with_progress(move |progress| work(assets, path, progress))
    }

    /// Reads one file, growing `progress`'s total by its size when known.
    async fn fetch(
        &self,
        path: &AssetPath,
        progress: &ProgressReporter,
    ) -> Result<Vec<u8>, AssetError> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            native::read(&self.root, path, self.max_file_bytes, progress)
        }
        #[cfg(target_arch = "wasm32")]
        {
            web::read(&self.root, path, self.max_file_bytes, progress).await
        }
    }

    /// Reads one file as UTF-8 text.
    async fn fetch_text(
        &self,
        path: &AssetPath,
        progress: &ProgressReporter,
    ) -> Result<String, AssetError> {
        let bytes = self.fetch(path, progress).await?;
        String::from_utf8(bytes).map_err(|e| AssetError::decode(path, e.utf8_error()))
    }
}
