//! WGSL files that can change while the game runs.
//!
//! A render feature names its shader files with [`wgsl!`](crate::wgsl):
//! the text built into the binary (`include_str!`), and where the file
//! lives in its crate's source tree. While a feature's `setup` runs, the
//! renderer lends it its [`ShaderLibrary`]: `wgsl!` returns the library's
//! newer text for the file if hot reload read one, and the library notes
//! which files each feature read. When a file changes,
//! [`Renderer::reload_shader_files`](crate::Renderer::reload_shader_files)
//! runs the `setup` of each feature that read it again, inside a GPU
//! validation scope; if the new text does not compile (or no longer fits
//! the pipeline), the error is reported and the feature is set up once
//! more from the last text that compiled, so it keeps drawing.
//!
//! A game's own features use the same macro for their files:
//!
//! ```ignore
//! // In a feature's setup (the path is relative to this Rust file, as for
//! // `include_str!`):
//! let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
//!     label: Some("glow.wgsl"),
//!     source: wgpu::ShaderSource::Wgsl(taos_renderer::wgsl!("glow.wgsl")),
//! });
//! ```

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A WGSL file of some crate: its text as built in, and enough to find it
/// on disk. Made by [`wgsl!`](crate::wgsl).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShaderFile {
    /// The file's name relative to the Rust file naming it.
    pub name: &'static str,
    /// Its text when the binary was built.
    pub embedded: &'static str,
    /// The crate's manifest folder when it was built.
    pub manifest_dir: &'static str,
    /// The Rust file naming it, as the compiler saw it (`file!()`).
    pub rust_file: &'static str,
}

impl ShaderFile {
    /// Where the file is on this machine, if its source tree is here (a
    /// game built from a checkout of the engine, or the game's own crate).
    #[must_use]
    pub fn path_on_disk(&self) -> Option<PathBuf> {
        let rust_file = Path::new(self.rust_file);
        let folder = if rust_file.is_absolute() {
            rust_file.parent()?.to_path_buf()
        } else {
            // `file!()` is relative to the workspace the crate was built
            // in: drop leading components until it exists under the crate.
            let manifest = Path::new(self.manifest_dir);
            let mut components = rust_file.components();
            loop {
                let candidate = manifest.join(components.as_path());
                if candidate.is_file() {
                    break candidate.parent()?.to_path_buf();
                }
                components.next()?;
            }
        };
        let path = folder.join(self.name);
        path.is_file().then(|| path.canonicalize().unwrap_or(path))
    }
}

/// A WGSL file's text for the feature being set up: the newer text hot
/// reload read for it, or the text built in. Use it in `setup`; outside a
/// setup it is always the built-in text.
///
#[macro_export]
macro_rules! wgsl {
    ($name:literal) => {
        $crate::shaders::current(&$crate::shaders::ShaderFile {
            name: $name,
            embedded: include_str!($name),
            manifest_dir: env!("CARGO_MANIFEST_DIR"),
            rust_file: file!(),
        })
    };
}

/// Texts read from disk that differ from the built-in ones, per file.
#[derive(Debug, Default)]
struct Texts {
    /// The text features are set up from now, by path.
    current: HashMap<PathBuf, String>,
}

/// The renderer's shader texts and which feature read which file.
#[derive(Debug, Default, Clone)]
pub struct ShaderLibrary {
    texts: Arc<Mutex<Texts>>,
}

thread_local! {
    /// The library lent to the setup running on this thread, and the files
    /// it read so far.
    static LENT: RefCell<Option<(ShaderLibrary, Vec<ShaderFile>)>> = const { RefCell::new(None) };
}

/// The text of `file` for the setup running on this thread (see
/// [`wgsl!`](crate::wgsl)).
#[must_use]
pub fn current(file: &ShaderFile) -> Cow<'static, str> {
    LENT.with(|lent| {
        let mut lent = lent.borrow_mut();
        let Some((library, read)) = lent.as_mut() else {
            return Cow::Borrowed(file.embedded);
        };
        if !read.contains(file) {
            read.push(*file);
        }
        library.text_of(file)
    })
}

impl ShaderLibrary {
    /// The text features get for `file` now.
    fn text_of(&self, file: &ShaderFile) -> Cow<'static, str> {
        let Ok(texts) = self.texts.lock() else {
            return Cow::Borrowed(file.embedded);
        };
        if texts.current.is_empty() {
            return Cow::Borrowed(file.embedded);
        }
        file.path_on_disk()
            .and_then(|path| texts.current.get(&path).cloned())
            .map_or(Cow::Borrowed(file.embedded), Cow::Owned)
    }

    /// Runs `setup` with this library lent to [`wgsl!`](crate::wgsl) on
    /// this thread; returns what it returned and the files it read.
    pub(crate) fn lend<R>(&self, setup: impl FnOnce() -> R) -> (R, Vec<ShaderFile>) {
        let previous = LENT.with(|lent| lent.borrow_mut().replace((self.clone(), Vec::new())));
        let result = setup();
        let read = LENT.with(|lent| {
            let mut lent = lent.borrow_mut();
            let mine = lent.take().map(|(_, read)| read).unwrap_or_default();
            *lent = previous;
            mine
        });
        (result, read)
    }

    /// Sets the text of the file at `path` (`None`: back to the built-in one).
    pub(crate) fn set_text(&self, path: &Path, text: Option<String>) {
        if let Ok(mut texts) = self.texts.lock() {
            match text {
                Some(text) => texts.current.insert(path.to_owned(), text),
                None => texts.current.remove(path),
            };
        }
    }

    /// The text features are set up from for `path`, if it is not the built-in one.
    pub(crate) fn text_at(&self, path: &Path) -> Option<String> {
        self.texts.lock().ok()?.current.get(path).cloned()
    }
}
