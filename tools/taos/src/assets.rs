//! Copying the game's asset folder beside the page.
//!
//! Symbolic links are followed only when they resolve inside the folder;
//! others are skipped with a warning (a link to `~/.ssh` must not end up on
//! a web server), as are broken links and links that loop.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// What [`copy_assets`] copied and skipped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Copied {
    /// Files copied.
    pub files: usize,
    /// Bytes copied.
    pub bytes: u64,
    /// Each entry skipped, with why.
    pub skipped: Vec<String>,
}

/// Copies the tree at `from` to `to` (created). `to` must not lie inside
/// `from`.
pub fn copy_assets(from: &Path, to: &Path) -> anyhow::Result<Copied> {
    let root = from
        .canonicalize()
        .with_context(|| format!("the asset folder {} cannot be read", from.display()))?;
    if !root.is_dir() {
        bail!("the asset folder {} is not a folder", from.display());
    }
    fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let target = to.canonicalize()?;
    if target.starts_with(&root) {
        bail!(
            "the output folder {} lies inside the asset folder {}: choose another --out",
            to.display(),
            from.display()
        );
    }
    let mut copied = Copied::default();
    let mut chain = vec![root.clone()];
    copy_dir(&root, to, &root, &mut chain, &mut copied)?;
    Ok(copied)
}

/// Copies the folder `from` (canonical, inside `root`) into `to`; `chain`
/// holds the canonical folders being copied (to stop link loops).
fn copy_dir(
    from: &Path,
    to: &Path,
    root: &Path,
    chain: &mut Vec<PathBuf>,
    copied: &mut Copied,
) -> anyhow::Result<()> {
    let mut entries = fs::read_dir(from)
        .with_context(|| format!("cannot list {}", from.display()))?
        .collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let destination = to.join(entry.file_name());
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let source = if entry.file_type()?.is_symlink() {
            match path.canonicalize() {
                Ok(resolved) if resolved.starts_with(root) => resolved,
                Ok(resolved) => {
                    copied.skipped.push(format!(
                        "{shown}: a link to {}, outside the asset folder",
                        resolved.display()
                    ));
                    continue;
                }
                Err(_) => {
                    copied.skipped.push(format!("{shown}: a broken link"));
                    continue;
                }
            }
        } else {
            path.clone()
        };
        if source.is_dir() {
            let canonical = source.canonicalize()?;
            if chain.contains(&canonical) {
                copied
                    .skipped
                    .push(format!("{shown}: a link back to a folder above it"));
                continue;
            }
            fs::create_dir_all(&destination)
                .with_context(|| format!("cannot create {}", destination.display()))?;
            chain.push(canonical.clone());
            copy_dir(&canonical, &destination, root, chain, copied)?;
            chain.pop();
        } else if source.is_file() {
            copied.bytes += fs::copy(&source, &destination).with_context(|| {
                format!(
                    "cannot copy {} to {}",
                    path.display(),
                    destination.display()
                )
            })?;
            copied.files += 1;
        } else {
            copied
                .skipped
                .push(format!("{shown}: not a file or a folder"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn copies_the_tree() {
        let dir = TestDir::new("assets");
        dir.write("game/assets/a.png", b"png");
        dir.write("game/assets/models/b.glb", b"glb!");
        let out = dir.path().join("out/assets");
        let copied = copy_assets(&dir.path().join("game/assets"), &out).unwrap();
        assert_eq!((copied.files, copied.bytes), (2, 7));
        assert!(copied.skipped.is_empty());
        assert_eq!(fs::read(out.join("models/b.glb")).unwrap(), b"glb!");
    }

    #[cfg(unix)]
    #[test]
    fn links_outside_the_folder_and_loops_are_skipped() {
        use std::os::unix::fs::symlink;
        let dir = TestDir::new("links");
        dir.write("secret.txt", b"secret");
        dir.write("game/assets/a.png", b"png");
        let assets = dir.path().join("game/assets");
        symlink(dir.path().join("secret.txt"), assets.join("leak.txt")).unwrap();
        symlink(dir.path(), assets.join("up")).unwrap();
        symlink(assets.join("a.png"), assets.join("alias.png")).unwrap();
        symlink(&assets, assets.join("loop")).unwrap();
        symlink(assets.join("gone"), assets.join("broken")).unwrap();

        let out = dir.path().join("out");
        let copied = copy_assets(&assets, &out).unwrap();
        assert_eq!(copied.files, 2, "a.png and alias.png");
        assert_eq!(fs::read(out.join("alias.png")).unwrap(), b"png");
        assert!(!out.join("leak.txt").exists());
        assert!(!out.join("up").exists());
        assert_eq!(copied.skipped.len(), 4, "{:?}", copied.skipped);
        let skipped = copied.skipped.join("\n");
        assert!(skipped.contains("leak.txt: a link to"), "{skipped}");
        assert!(skipped.contains("broken: a broken link"), "{skipped}");
        assert!(skipped.contains("loop: a link back"), "{skipped}");
    }

    #[test]
    fn the_output_may_not_lie_inside_the_assets() {
        let dir = TestDir::new("inside");
        dir.write("assets/a.png", b"png");
        let error = copy_assets(&dir.path().join("assets"), &dir.path().join("assets/out"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("inside the asset folder"), "{error}");
    }
}
