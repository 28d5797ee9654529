//! `taos assets`: imports every glTF model of a folder through an import
//! cache, so that a game's first load of each finds its images decoded.
//!
//! Each `.gltf`/`.glb` under the folder (symbolic links are not followed)
//! is read with the files it names, which must lie inside the folder (as
//! the engine's `Assets` requires), and imported through the cache
//! ([`taos_import_cache::ImportCache::import_now`]), its name being its path
//! relative to the folder with `/` separators, as `AssetPath` spells it. A
//! model that fails is reported and the others go on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use taos_gltf::{ExternalFiles, LoadOptions, external_uris};
use taos_import_cache::{ImportCache, ImportStats};

/// How one model went.
#[derive(Debug)]
pub struct ModelOutcome {
    /// Its path relative to the folder, with `/` separators.
    pub name: String,
    /// Bytes read: the model and the files it names.
    pub bytes_in: u64,
    /// What the import did with the cache, or why the model failed.
    pub result: Result<ImportStats, anyhow::Error>,
    /// How long reading and importing took.
    pub elapsed: Duration,
}

/// What [`prepare`] did with the whole folder.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Models found.
    pub models: usize,
    /// Models that failed to read or import.
    pub failed: usize,
    /// Images imported (each distinct image of each model).
    pub images: usize,
    /// Of those, images the cache already had.
    pub from_cache: usize,
    /// Bytes read: models and the files they name.
    pub bytes_in: u64,
    /// Bytes of cache entries written.
    pub bytes_out: u64,
}

/// Every `.gltf` and `.glb` under `folder`, sorted; symbolic links are not
/// followed.
///
/// # Errors
/// A folder that cannot be listed.
pub fn find_models(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            let is_model = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("gltf") || e.eq_ignore_ascii_case("glb"));
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() && is_model {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Imports every model under `folder` through `cache`, calling `report`
/// after each (in path order); a model that fails does not stop the others.
///
/// # Errors
/// Only a folder that cannot be read or listed.
pub fn prepare(
    folder: &Path,
    cache: &ImportCache,
    report: &mut dyn FnMut(usize, usize, &ModelOutcome),
) -> anyhow::Result<Summary> {
    use anyhow::Context as _;
    let root = folder
        .canonicalize()
        .with_context(|| format!("the folder {} cannot be read", folder.display()))?;
    let models = find_models(&root).with_context(|| format!("listing {}", folder.display()))?;
    let mut summary = Summary {
        models: models.len(),
        ..Summary::default()
    };
    for (i, path) in models.iter().enumerate() {
        let started = Instant::now();
        let name = relative_name(&root, path);
        let mut bytes_in = 0;
        let result = import(&root, path, &name, cache, &mut bytes_in);
        let outcome = ModelOutcome {
            name,
            bytes_in,
            result,
            elapsed: started.elapsed(),
        };
        summary.bytes_in += outcome.bytes_in;
        match &outcome.result {
            Ok(stats) => {
                summary.images += stats.images;
                summary.from_cache += stats.from_cache;
                summary.bytes_out += stats.bytes_written;
            }
            Err(_) => summary.failed += 1,
        }
        report(i + 1, models.len(), &outcome);
    }
    Ok(summary)
}

/// `path` relative to `root`, `/`-separated.
fn relative_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Reads the model at `path` and the files it names (inside `root`), and
/// imports it through `cache`.
fn import(
    root: &Path,
    path: &Path,
    name: &str,
    cache: &ImportCache,
    bytes_in: &mut u64,
) -> anyhow::Result<ImportStats> {
    use anyhow::{Context as _, bail};
    let bytes = std::fs::read(path).context("reading the model")?;
    *bytes_in += bytes.len() as u64;
    let dir = path.parent().unwrap_or(root);
    let mut files = ExternalFiles::new();
    for uri in external_uris(&bytes, name)? {
        let file = dir.join(&uri.path);
        let resolved = file
            .canonicalize()
            .with_context(|| format!("{}: {} cannot be read", uri.uri, file.display()))?;
        if !resolved.starts_with(root) {
            bail!(
                "{}: {} lies outside the folder",
                uri.uri,
                resolved.display()
            );
        }
        let data = std::fs::read(&resolved)
            .with_context(|| format!("{}: reading {}", uri.uri, resolved.display()))?;
        *bytes_in += data.len() as u64;
        files.insert(uri.path, data);
    }
    let (_, stats) = cache.import_now(&bytes, name, &files, &LoadOptions::default())?;
    if let Some(problem) = &stats.problem {
        bail!("the cache could not be used: {problem}");
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn every_model_is_imported_and_a_broken_one_does_not_stop_the_others() {
        let assets = TestDir::new("prepare");
        taos_gltf::test_models::textured_box(&assets.path().join("models")).unwrap();
        taos_gltf::test_models::many_textures(&assets.path().join("models/more"), 2, 32).unwrap();
        assets.write("models/broken.glb", b"glTF but not really");
        assets.write("models/notes.txt", b"not a model");
        let out = TestDir::new("prepare-out");
        let cache = ImportCache::in_folder(out.path());

        let mut lines = Vec::new();
        let summary = prepare(assets.path(), &cache, &mut |i, n, outcome| {
            lines.push(format!(
                "{i}/{n} {} {}",
                outcome.name,
                outcome.result.is_ok()
            ));
        })
        .unwrap();
        assert_eq!(
            lines,
            [
                "1/3 models/broken.glb false",
                "2/3 models/more/many_textures_2x32.gltf true",
                "3/3 models/textured_box.gltf true",
            ]
        );
        assert_eq!((summary.models, summary.failed), (3, 1));
        assert!(summary.images >= 3 && summary.bytes_out > 0, "{summary:?}");
        assert_eq!(summary.from_cache, 0);

        // A second run finds every image in the cache and writes nothing.
        let again = prepare(assets.path(), &cache, &mut |_, _, _| {}).unwrap();
        assert_eq!((again.from_cache, again.bytes_out), (summary.images, 0));
    }

    #[test]
    fn a_file_outside_the_folder_is_refused() {
        let outside = TestDir::new("prepare-outside");
        outside.write("secret.bin", &[0; 4]);
        let assets = TestDir::new("prepare-inside");
        let uri = format!(
            "../{}/secret.bin",
            outside.path().file_name().unwrap().to_string_lossy()
        );
        let doc = format!(
            r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": 4, "uri": "{uri}"}}]}}"#
        );
        assets.write("model.gltf", doc.as_bytes());
        let out = TestDir::new("prepare-outside-out");
        let mut errors = Vec::new();
        let summary = prepare(
            assets.path(),
            &ImportCache::in_folder(out.path()),
            &mut |_, _, o| {
                errors.push(format!("{:#}", o.result.as_ref().unwrap_err()));
            },
        )
        .unwrap();
        assert_eq!(summary.failed, 1);
        assert!(errors[0].contains("outside the folder"), "{errors:?}");
    }
}
