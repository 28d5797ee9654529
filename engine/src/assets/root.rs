//! [`AssetRoot`]: where the asset folder is, natively a folder on disk and
//! in the browser a URL base.

use std::fmt;
#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};

use super::AssetPath;

/// Where an [`Assets`](super::Assets) reads its files.
///
/// Natively a folder: [`discover`](Self::discover) picks `$TAOS_ASSETS`
/// when set, else `./assets` when it exists, else
/// `$CARGO_MANIFEST_DIR/assets` when that exists (a game started with
/// `cargo run` from elsewhere in its workspace), else `./assets`. In the
/// browser a URL base, `assets/` relative to the page by default (where
/// `taos web build` copies a game's `assets/` folder).
///
/// Made from a string it is a folder natively and a URL base in the
/// browser, so `AssetRoot::from("game_data")` means the same folder on
/// both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssetRoot {
    #[cfg(not(target_arch = "wasm32"))]
    folder: PathBuf,
    /// Ends with `/` unless empty (the page's own folder).
    #[cfg(target_arch = "wasm32")]
    url: String,
}

impl AssetRoot {
    /// The default asset folder (see the type's docs for the rule).
    #[must_use]
    pub fn discover() -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let folder = discover_folder(
                |name| std::env::var_os(name).filter(|value| !value.is_empty()),
                Path::is_dir,
            );
            Self::folder(std::path::absolute(&folder).unwrap_or(folder))
        }
        #[cfg(target_arch = "wasm32")]
        Self::url("assets/")
    }

    /// Files come from `folder` (natively).
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn folder(folder: impl Into<PathBuf>) -> Self {
        Self {
            folder: folder.into(),
        }
    }

    /// The folder files come from.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.folder
    }

    /// Files come from the URL base `base` (in the browser): relative to
    /// the page (`assets`, `../shared/assets/`) or absolute
    /// (`https://cdn.example.com/game/`). A `/` is added when it lacks one.
    #[cfg(target_arch = "wasm32")]
    #[must_use]
    pub fn url(base: impl Into<String>) -> Self {
        let mut url = base.into();
        if !url.is_empty() && !url.ends_with('/') {
            url.push('/');
        }
        Self { url }
    }

    /// The URL base files come from (ends with `/` unless empty).
    #[cfg(target_arch = "wasm32")]
    #[must_use]
    pub fn url_base(&self) -> &str {
        &self.url
    }

    /// Where `path` is: its file natively, its URL in the browser (each
    /// component percent-encoded).
    #[must_use]
    pub fn locate(&self, path: &AssetPath) -> String {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.file(path).display().to_string()
        }
        #[cfg(target_arch = "wasm32")]
        {
            super::web::url(&self.url, path)
        }
    }

    /// The file `path` names under the folder.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn file(&self, path: &AssetPath) -> PathBuf {
        path.components()
            .fold(self.folder.clone(), |folder, part| folder.join(part))
    }
}

impl Default for AssetRoot {
    /// [`AssetRoot::discover`].
    fn default() -> Self {
        Self::discover()
    }
}

impl From<&str> for AssetRoot {
    /// A folder natively, a URL base in the browser.
    fn from(location: &str) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            Self::folder(location)
        }
        #[cfg(target_arch = "wasm32")]
        {
            Self::url(location)
        }
    }
}

impl From<String> for AssetRoot {
    /// A folder natively, a URL base in the browser.
    fn from(location: String) -> Self {
        Self::from(location.as_str())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl From<PathBuf> for AssetRoot {
    fn from(folder: PathBuf) -> Self {
        Self::folder(folder)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl From<&Path> for AssetRoot {
    fn from(folder: &Path) -> Self {
        Self::folder(folder)
    }
}

impl fmt::Display for AssetRoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(not(target_arch = "wasm32"))]
        {
            write!(f, "{}", self.folder.display())
        }
        #[cfg(target_arch = "wasm32")]
        {
            f.write_str(&self.url)
        }
    }
}

/// The native rule of [`AssetRoot::discover`], with the environment
/// (`env` answers only set, non-empty variables) and the file system's
/// `is_dir` given.
#[cfg(not(target_arch = "wasm32"))]
fn discover_folder(
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
    is_dir: impl Fn(&Path) -> bool,
) -> PathBuf {
    if let Some(folder) = env("TAOS_ASSETS") {
        return PathBuf::from(folder);
    }
    let local = PathBuf::from("assets");
    if is_dir(&local) {
        return local;
    }
    if let Some(manifest) = env("CARGO_MANIFEST_DIR") {
        let beside = PathBuf::from(manifest).join("assets");
        if is_dir(&beside) {
            return beside;
        }
    }
    local
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use std::ffi::OsString;

    use super::*;

    #[test]
    fn the_folder_is_the_variable_then_local_assets_then_the_manifest_folder() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| OsString::from(value))
            }
        };
        let none = |_: &Path| false;
        let manifest_assets = |p: &Path| p == Path::new("/game/assets");
        let local_assets = |p: &Path| p == Path::new("assets");
        let both = &[("TAOS_ASSETS", "/data"), ("CARGO_MANIFEST_DIR", "/game")];
        let manifest = &[("CARGO_MANIFEST_DIR", "/game")];
        assert_eq!(discover_folder(env(both), none), Path::new("/data"));
        assert_eq!(
            discover_folder(env(manifest), manifest_assets),
            Path::new("/game/assets")
        );
        assert_eq!(
            discover_folder(env(manifest), |p: &Path| local_assets(p)
                || manifest_assets(p)),
            Path::new("assets")
        );
        // Nothing exists: `./assets`, which errors name when a file is missing.
        assert_eq!(discover_folder(env(manifest), none), Path::new("assets"));
        assert_eq!(discover_folder(env(&[]), none), Path::new("assets"));
    }
}
