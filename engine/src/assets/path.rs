//! [`AssetPath`]: a file of the asset folder, named relative to it and
//! unable to leave it.

use std::fmt;

use super::AssetError;

/// A file of the asset folder, by its path relative to the folder:
/// `models/fox.glb`, with `/` between folders.
///
/// Made by [`AssetPath::new`], which refuses what could name a file
/// outside the folder or read differently on another platform; `.`
/// components and repeated `/` are dropped, so each file has one spelling.
/// It is a plain path, not a URL: `%2e%2e` is a file of that name, not
/// `..` (the browser side encodes it for the request).
///
/// ```
/// use taos_engine::assets::{AssetPath, PathProblem};
/// use taos_engine::assets::AssetError;
///
/// let fox = AssetPath::new("./models//fox.glb")?;
/// assert_eq!(fox.as_str(), "models/fox.glb");
/// // Files a model names are relative to the model's folder.
/// assert_eq!(fox.join_relative("textures/fur.png")?.as_str(), "models/textures/fur.png");
/// assert_eq!(fox.join_relative("../shared/fur.png")?.as_str(), "shared/fur.png");
/// assert!(fox.join_relative("../../fur.png").is_err());
///
/// let refused = AssetPath::new("../secrets.txt").unwrap_err();
/// assert!(matches!(refused, AssetError::InvalidPath { reason: PathProblem::ParentDir, .. }));
/// # Ok::<(), AssetError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AssetPath(String);

/// Why a string is not an [`AssetPath`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathProblem {
    /// Nothing names a file (`""`, `"."`, `"/"` alone is [`Absolute`](Self::Absolute)).
    #[error("the path is empty")]
    Empty,
    /// Starts with `/`: asset paths are relative to the asset folder.
    #[error("absolute paths are refused; name files relative to the asset folder")]
    Absolute,
    /// A `..` component (for a path a model names: one that climbs above
    /// the asset folder).
    #[error("`..` is refused: the path would leave the asset folder")]
    ParentDir,
    /// A `\`: folders are separated by `/` on every platform.
    #[error("`\\` is refused; separate folders with `/`")]
    Backslash,
    /// A NUL character.
    #[error("NUL characters are refused")]
    Nul,
    /// A `:`, as in a URL scheme (`http:`) or a drive (`C:`); not portable
    /// in file names either.
    #[error("`:` is refused (URL schemes and drive letters; not portable in file names)")]
    Colon,
}

impl AssetPath {
    /// Checks and normalises `path`, a path relative to the asset folder.
    ///
    /// # Errors
    /// [`AssetError::InvalidPath`] with the [`PathProblem`]: empty,
    /// absolute, holding `..`, `\`, NUL or `:`.
    pub fn new(path: &str) -> Result<Self, AssetError> {
        let invalid = |reason| AssetError::InvalidPath {
            path: path.to_owned(),
            reason,
        };
        check_characters(path).map_err(invalid)?;
        if path.starts_with('/') {
            return Err(invalid(PathProblem::Absolute));
        }
        let mut parts = Vec::new();
        for part in path.split('/') {
            match part {
                "" | "." => {}
                ".." => return Err(invalid(PathProblem::ParentDir)),
                _ => parts.push(part),
            }
        }
        if parts.is_empty() {
            return Err(invalid(PathProblem::Empty));
        }
        Ok(Self(parts.join("/")))
    }

    /// The path `relative` names from this file's folder, as a model names
    /// its textures (`models/fox.gltf` naming `fur.png` is
    /// `models/fur.png`). `..` is allowed while the result stays inside the
    /// asset folder (`models/../shared/x.bin` is `shared/x.bin`).
    ///
    /// # Errors
    /// [`AssetError::InvalidPath`] for what [`AssetPath::new`] refuses,
    /// with [`PathProblem::ParentDir`] for a path climbing above the
    /// asset folder.
    pub fn join_relative(&self, relative: &str) -> Result<Self, AssetError> {
        let joined = match self.folder() {
            "" => relative.to_owned(),
            folder => format!("{folder}/{relative}"),
        };
        let invalid = |reason| AssetError::InvalidPath {
            path: joined.clone(),
            reason,
        };
        check_characters(relative).map_err(invalid)?;
        if relative.starts_with('/') {
            return Err(invalid(PathProblem::Absolute));
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in joined.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(invalid(PathProblem::ParentDir));
                    }
                }
                _ => parts.push(part),
            }
        }
        if parts.is_empty() {
            return Err(invalid(PathProblem::Empty));
        }
        Ok(Self(parts.join("/")))
    }

    /// The path, `/` between folders, no `.`, `..` or empty components.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its last component: `fox.glb` for `models/fox.glb`.
    #[must_use]
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// Its folder: `models` for `models/fox.glb`, empty for `fox.glb`.
    #[must_use]
    pub fn folder(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(folder, _)| folder)
    }

    /// Its components, outermost folder first.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }
}

fn check_characters(path: &str) -> Result<(), PathProblem> {
    if path.contains('\\') {
        Err(PathProblem::Backslash)
    } else if path.contains('\0') {
        Err(PathProblem::Nul)
    } else if path.contains(':') {
        Err(PathProblem::Colon)
    } else {
        Ok(())
    }
}

impl fmt::Display for AssetPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for AssetPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for AssetPath {
    type Err = AssetError;

    fn from_str(path: &str) -> Result<Self, AssetError> {
        Self::new(path)
    }
}

impl TryFrom<&str> for AssetPath {
    type Error = AssetError;

    fn try_from(path: &str) -> Result<Self, AssetError> {
        Self::new(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(result: Result<AssetPath, AssetError>) -> Option<PathProblem> {
        match result {
            Err(AssetError::InvalidPath { reason, .. }) => Some(reason),
            Err(other) => panic!("not a path error: {other}"),
            Ok(_) => None,
        }
    }

    #[test]
    fn paths_are_refused_or_normalised_by_the_table() {
        use PathProblem::*;
        let table: &[(&str, Result<&str, PathProblem>)] = &[
            ("models/fox.glb", Ok("models/fox.glb")),
            ("./models/./fox.glb", Ok("models/fox.glb")),
            ("models//fox.glb", Ok("models/fox.glb")),
            ("models/", Ok("models")),
            ("a..b/c..png", Ok("a..b/c..png")),
            ("...", Ok("...")),
            // A plain path, not a URL: a file named `%2e%2e`.
            ("%2e%2e/x", Ok("%2e%2e/x")),
            ("tex ture.png", Ok("tex ture.png")),
            ("", Err(Empty)),
            (".", Err(Empty)),
            ("./", Err(Empty)),
            ("/abs", Err(Absolute)),
            ("/", Err(Absolute)),
            ("../../etc/passwd", Err(ParentDir)),
            ("a/../../b", Err(ParentDir)),
            ("a/../b", Err(ParentDir)),
            ("models/..", Err(ParentDir)),
            ("C:\\x", Err(Backslash)),
            ("models\\fox.glb", Err(Backslash)),
            ("C:/x", Err(Colon)),
            ("http://example.com/fox.glb", Err(Colon)),
            ("file:fox.glb", Err(Colon)),
            ("fox\0.glb", Err(Nul)),
        ];
        for &(input, expected) in table {
            let got = AssetPath::new(input);
            match expected {
                Ok(normal) => assert_eq!(got.unwrap().as_str(), normal, "{input:?}"),
                Err(reason) => assert_eq!(problem(got), Some(reason), "{input:?}"),
            }
        }
    }

    #[test]
    fn model_relative_paths_stay_inside_the_folder() {
        let model = AssetPath::new("models/fox.gltf").unwrap();
        let join = |relative| model.join_relative(relative).map(|p| p.0);
        assert_eq!(join("textures/a.png").unwrap(), "models/textures/a.png");
        assert_eq!(join("./a.bin").unwrap(), "models/a.bin");
        assert_eq!(join("../shared/x.bin").unwrap(), "shared/x.bin");
        assert_eq!(join("a/../../shared/x.bin").unwrap(), "shared/x.bin");
        assert_eq!(
            problem(model.join_relative("../../x")),
            Some(PathProblem::ParentDir)
        );
        assert_eq!(
            problem(model.join_relative("/x")),
            Some(PathProblem::Absolute)
        );
        assert_eq!(
            problem(model.join_relative("http://x")),
            Some(PathProblem::Colon)
        );
        assert_eq!(problem(model.join_relative("..")), Some(PathProblem::Empty));
        let at_root = AssetPath::new("fox.gltf").unwrap();
        assert_eq!(at_root.join_relative("a.bin").unwrap().0, "a.bin");
        assert_eq!(
            problem(at_root.join_relative("../x")),
            Some(PathProblem::ParentDir)
        );
        assert_eq!(model.file_name(), "fox.gltf");
        assert_eq!(model.folder(), "models");
        assert_eq!(at_root.folder(), "");
    }
}
