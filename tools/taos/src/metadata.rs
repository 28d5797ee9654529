//! The game to build, from `cargo metadata --format-version 1 --no-deps`:
//! its package, binary, workspace root and target folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde_json::Value;

/// What cargo says about the workspace (its members only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The workspace's root folder (where `Cargo.lock` lives).
    pub root: PathBuf,
    /// Cargo's target folder (`CARGO_TARGET_DIR` if set).
    pub target_dir: PathBuf,
    /// The workspace's packages.
    pub packages: Vec<Package>,
}

/// One package of the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// The package's name (`-p`).
    pub name: String,
    /// Its `Cargo.toml`.
    pub manifest_path: PathBuf,
    /// The names of its binary targets.
    pub bins: Vec<String>,
}

impl Package {
    /// The folder holding the package's `Cargo.toml`.
    pub fn dir(&self) -> &Path {
        self.manifest_path.parent().unwrap_or(Path::new("."))
    }
}

/// Parses the JSON of `cargo metadata --format-version 1 --no-deps`.
pub fn parse(json: &str) -> anyhow::Result<Workspace> {
    let value: Value = serde_json::from_str(json).context("cargo metadata's output is not JSON")?;
    let text = |key: &str| -> anyhow::Result<PathBuf> {
        value[key]
            .as_str()
            .map(PathBuf::from)
            .with_context(|| format!("cargo metadata's output has no `{key}`"))
    };
    let packages = value["packages"]
        .as_array()
        .context("cargo metadata's output has no `packages`")?
        .iter()
        .map(parse_package)
        .collect::<anyhow::Result<_>>()?;
    Ok(Workspace {
        root: text("workspace_root")?,
        target_dir: text("target_directory")?,
        packages,
    })
}

fn parse_package(package: &Value) -> anyhow::Result<Package> {
    let name = package["name"]
        .as_str()
        .context("a package without a name in cargo metadata")?;
    let manifest_path = package["manifest_path"]
        .as_str()
        .with_context(|| format!("package {name} has no manifest_path in cargo metadata"))?;
    let bins = package["targets"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|target| {
            target["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"))
        })
        .filter_map(|target| target["name"].as_str().map(String::from))
        .collect();
    Ok(Package {
        name: name.to_string(),
        manifest_path: PathBuf::from(manifest_path),
        bins,
    })
}

/// The package to build: `-p NAME` if given; else the one whose
/// `Cargo.toml` is `manifest` (from `--manifest-path`), else the one whose
/// folder holds `cwd` (the innermost); else the workspace's only package
/// with binaries. Paths are compared canonicalized.
pub fn select_package<'a>(
    workspace: &'a Workspace,
    name: Option<&str>,
    manifest: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<&'a Package> {
    if let Some(name) = name {
        return workspace
            .packages
            .iter()
            .find(|p| p.name == name)
            .with_context(|| {
                format!(
                    "no package `{name}` in the workspace at {} (its packages: {})",
                    workspace.root.display(),
                    names(workspace.packages.iter())
                )
            });
    }
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let found = match manifest {
        Some(manifest) => {
            let manifest = canonical(manifest);
            workspace
                .packages
                .iter()
                .find(|p| canonical(&p.manifest_path) == manifest)
        }
        None => {
            let cwd = canonical(cwd);
            workspace
                .packages
                .iter()
                .filter(|p| cwd.starts_with(canonical(p.dir())))
                .max_by_key(|p| p.dir().components().count())
        }
    };
    if let Some(package) = found {
        return Ok(package);
    }
    let with_bins: Vec<&Package> = workspace
        .packages
        .iter()
        .filter(|p| !p.bins.is_empty())
        .collect();
    match with_bins.as_slice() {
        [only] => Ok(only),
        [] => bail!(
            "the workspace at {} has no package with a binary to build",
            workspace.root.display()
        ),
        several => bail!(
            "which game? The workspace at {} has several packages with binaries: {}; \
             pick one with -p NAME (or run in its folder)",
            workspace.root.display(),
            names(several.iter().copied())
        ),
    }
}

/// The binary to build: `--bin NAME` if given (it must exist), else the
/// package's only one.
pub fn select_bin<'a>(package: &'a Package, name: Option<&str>) -> anyhow::Result<&'a str> {
    match (name, package.bins.as_slice()) {
        (Some(name), bins) => bins
            .iter()
            .find(|b| *b == name)
            .map(String::as_str)
            .with_context(|| {
                format!(
                    "package {} has no binary `{name}` (its binaries: {})",
                    package.name,
                    list(bins)
                )
            }),
        (None, [only]) => Ok(only),
        (None, []) => bail!(
            "package {} has no binary target: a game for the browser is a binary (src/main.rs)",
            package.name
        ),
        (None, bins) => bail!(
            "package {} has several binaries: {}; pick one with --bin NAME",
            package.name,
            list(bins)
        ),
    }
}

fn names<'a>(packages: impl Iterator<Item = &'a Package>) -> String {
    list(&packages.map(|p| p.name.clone()).collect::<Vec<_>>())
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const METADATA: &str = r#"{
      "packages": [
        {"name": "engine", "manifest_path": "/ws/engine/Cargo.toml",
         "targets": [{"kind": ["lib"], "name": "engine"}]},
        {"name": "my_game", "manifest_path": "/ws/games/my_game/Cargo.toml",
         "targets": [{"kind": ["bin"], "name": "my-game"}, {"kind": ["test"], "name": "it"}]},
        {"name": "tools", "manifest_path": "/ws/tools/Cargo.toml",
         "targets": [{"kind": ["bin"], "name": "a"}, {"kind": ["bin"], "name": "b"}]}
      ],
      "workspace_members": [],
      "target_directory": "/ws/target",
      "workspace_root": "/ws",
      "version": 1
    }"#;

    fn workspace() -> Workspace {
        parse(METADATA).unwrap()
    }

    #[test]
    fn parses_packages_and_bins() {
        let ws = workspace();
        assert_eq!(ws.root, PathBuf::from("/ws"));
        assert_eq!(ws.target_dir, PathBuf::from("/ws/target"));
        assert_eq!(ws.packages.len(), 3);
        assert_eq!(ws.packages[1].bins, ["my-game"]);
        assert_eq!(ws.packages[1].dir(), Path::new("/ws/games/my_game"));
        assert!(ws.packages[0].bins.is_empty());
    }

    #[test]
    fn package_by_name_folder_or_only_binary() {
        let ws = workspace();
        let pick = |name, cwd: &str| select_package(&ws, name, None, Path::new(cwd));
        assert_eq!(pick(Some("tools"), "/").unwrap().name, "tools");
        assert!(
            pick(Some("nope"), "/")
                .unwrap_err()
                .to_string()
                .contains("engine, my_game, tools")
        );
        assert_eq!(pick(None, "/ws/games/my_game/src").unwrap().name, "my_game");
        assert_eq!(pick(None, "/ws/engine").unwrap().name, "engine");
        let error = pick(None, "/ws").unwrap_err().to_string();
        assert!(
            error.contains("my_game, tools") && error.contains("-p NAME"),
            "{error}"
        );
        assert_eq!(
            select_package(
                &ws,
                None,
                Some(Path::new("/ws/tools/Cargo.toml")),
                Path::new("/")
            )
            .unwrap()
            .name,
            "tools"
        );
    }

    #[test]
    fn bin_by_name_or_the_only_one() {
        let ws = workspace();
        assert_eq!(select_bin(&ws.packages[1], None).unwrap(), "my-game");
        assert_eq!(select_bin(&ws.packages[2], Some("b")).unwrap(), "b");
        let several = select_bin(&ws.packages[2], None).unwrap_err().to_string();
        assert!(
            several.contains("a, b") && several.contains("--bin"),
            "{several}"
        );
        let missing = select_bin(&ws.packages[2], Some("c"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("a, b"), "{missing}");
        assert!(select_bin(&ws.packages[0], None).is_err());
    }
}
