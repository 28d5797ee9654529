//! From a request's target to a file inside the served folder, or a refusal.
//!
//! Two stages, both strict: [`relative_path`] turns the target into a
//! relative path without touching the disk (query and fragment stripped,
//! percent-decoded; any `..`, backslash, NUL, drive or other non-plain
//! component refused), then [`locate`] joins it to the folder, resolves
//! symbolic links and confirms the result still lies inside the folder.

use std::path::{Component, Path, PathBuf};

/// Why a request target cannot be served.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not a path this server understands (no leading `/`, a broken
    /// percent escape, not UTF-8): 400.
    #[error("bad request target")]
    BadRequest,
    /// A path that tries to leave the folder: 403.
    #[error("forbidden path")]
    Forbidden,
}

/// The path part of `target` (before `?` and `#`), still percent-encoded.
pub fn path_part(target: &str) -> &str {
    let end = target.find(['?', '#']).unwrap_or(target.len());
    &target[..end]
}

/// The relative path `target` names (`""` for `/`), or why not.
///
/// Refuses (as [`Refusal::Forbidden`]) any `..` component, backslashes,
/// NUL, colons (Windows drives and streams) and anything that is not a
/// plain name once decoded, including encoded forms like `%2e%2e`.
pub fn relative_path(target: &str) -> Result<PathBuf, Refusal> {
    let raw = path_part(target);
    if !raw.starts_with('/') {
        return Err(Refusal::BadRequest);
    }
    let decoded = percent_decode(raw)?;
    if decoded.contains(['\\', '\0', ':']) {
        return Err(Refusal::Forbidden);
    }
    let mut path = PathBuf::new();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(Refusal::Forbidden),
            name => {
                let mut components = Path::new(name).components();
                match (components.next(), components.next()) {
                    (Some(Component::Normal(_)), None) => path.push(name),
                    _ => return Err(Refusal::Forbidden),
                }
            }
        }
    }
    Ok(path)
}

/// Decodes `%XX` escapes; the result must be UTF-8.
fn percent_decode(text: &str) -> Result<String, Refusal> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or(Refusal::BadRequest)?;
            let hex = std::str::from_utf8(hex).map_err(|_| Refusal::BadRequest)?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| Refusal::BadRequest)?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| Refusal::BadRequest)
}

/// What a relative path names inside the served folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// A file inside the folder (canonical path).
    File(PathBuf),
    /// A folder asked for without its trailing `/`: redirect there, so the
    /// page's relative links resolve inside it.
    AddSlash,
    /// Nothing there (or a folder without `index.html`).
    NotFound,
    /// It resolves (through a symbolic link) outside the folder.
    Forbidden,
}

/// Finds `relative` (from [`relative_path`]) under `root`, which must be
/// canonical. Folders serve their `index.html`; `ends_with_slash` tells
/// whether the request's path ended in `/` (folders without it redirect).
pub fn locate(root: &Path, relative: &Path, ends_with_slash: bool) -> Located {
    let mut path = root.join(relative);
    if path.is_dir() {
        if !ends_with_slash && !relative.as_os_str().is_empty() {
            return Located::AddSlash;
        }
        path.push("index.html");
    }
    let Ok(canonical) = path.canonicalize() else {
        return Located::NotFound;
    };
    if !canonical.starts_with(root) {
        return Located::Forbidden;
    }
    if canonical.is_file() {
        Located::File(canonical)
    } else {
        Located::NotFound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn traversal_is_refused() {
        for target in [
            "/../etc/passwd",
            "/%2e%2e/x",
            "/%2E%2E/x",
            "/a/../../b",
            "/a/../b",
            "/..\\x",
            "/a%5c..%5cb",
            "/x%00.png",
            "/C:/Windows",
            "/assets/..",
        ] {
            assert_eq!(relative_path(target), Err(Refusal::Forbidden), "{target}");
        }
    }

    #[test]
    fn plain_paths_are_relative() {
        let ok = |target: &str| relative_path(target).unwrap();
        assert_eq!(ok("/assets/ok.png"), PathBuf::from("assets/ok.png"));
        assert_eq!(ok("/"), PathBuf::new());
        assert_eq!(ok("/index.html?x=1#top"), PathBuf::from("index.html"));
        assert_eq!(ok("//etc/passwd"), PathBuf::from("etc/passwd"));
        assert_eq!(ok("/./a/./b"), PathBuf::from("a/b"));
        assert_eq!(ok("/my%20game.js"), PathBuf::from("my game.js"));
        assert_eq!(ok("/..x/y.."), PathBuf::from("..x/y.."));
    }

    #[test]
    fn malformed_targets_are_bad_requests() {
        for target in ["", "x.html", "*", "/%zz", "/%2", "/%ff"] {
            assert_eq!(
                relative_path(target),
                Err(Refusal::BadRequest),
                "{target:?}"
            );
        }
    }

    #[test]
    fn locate_stays_inside_the_folder() {
        let dir = TestDir::new("locate");
        let root = dir.path().join("site");
        std::fs::create_dir_all(root.join("empty")).unwrap();
        dir.write("site/index.html", b"home");
        dir.write("site/sub/index.html", b"sub");
        dir.write("site/assets/ok.png", b"png");
        dir.write("secret.txt", b"secret");
        let root = root.canonicalize().unwrap();

        let file = |p: &str| Located::File(root.join(p));
        assert_eq!(locate(&root, Path::new(""), true), file("index.html"));
        assert_eq!(
            locate(&root, Path::new("assets/ok.png"), false),
            file("assets/ok.png")
        );
        assert_eq!(
            locate(&root, Path::new("sub"), true),
            file("sub/index.html")
        );
        assert_eq!(locate(&root, Path::new("sub"), false), Located::AddSlash);
        assert_eq!(locate(&root, Path::new("empty"), true), Located::NotFound);
        assert_eq!(
            locate(&root, Path::new("nope.js"), false),
            Located::NotFound
        );

        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak.txt"))
                .unwrap();
            std::os::unix::fs::symlink(root.join("assets/ok.png"), root.join("alias.png")).unwrap();
            assert_eq!(
                locate(&root, Path::new("leak.txt"), false),
                Located::Forbidden
            );
            assert_eq!(
                locate(&root, Path::new("alias.png"), false),
                file("assets/ok.png")
            );
        }
    }
}
