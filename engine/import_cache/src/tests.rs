//! The cache's promises: a warm load gives the same model, a changed source is decoded
//! again, a damaged entry is a miss that gets replaced, an unusable database fails nothing.

use std::path::{Path, PathBuf};

use taos_gltf::test_models::{self, Storage};
use taos_gltf::{ExternalFiles, GltfModel, ImageKey, LoadOptions, external_uris};
use taos_storage::{Database, block_on};

use super::database::{DATABASE, IMAGES, Opened};
use super::entry::{self, Compression};
use super::place::Place;
use super::{ImportCache, ImportStats};

/// A model's bytes and its external files, read as the engine reads them.
struct Source {
    bytes: Vec<u8>,
    files: ExternalFiles,
}

fn read(path: &Path) -> Source {
    let bytes = std::fs::read(path).unwrap();
    let dir = path.parent().unwrap();
    let mut files = ExternalFiles::new();
    for uri in external_uris(&bytes, "model").unwrap() {
        files.insert(
            uri.path.clone(),
            std::fs::read(dir.join(&uri.path)).unwrap(),
        );
    }
    Source { bytes, files }
}

fn import(cache: &ImportCache, source: &Source) -> (GltfModel, ImportStats) {
    block_on(cache.import(
        &source.bytes,
        "model.gltf",
        &source.files,
        &LoadOptions::default(),
    ))
    .unwrap()
}

fn uncached(source: &Source) -> GltfModel {
    GltfModel::from_slice_with_files(
        &source.bytes,
        "model.gltf",
        &source.files,
        &LoadOptions::default(),
        &mut |_| {},
    )
    .unwrap()
}

/// Three 64 x 64 PNGs beside a `.gltf`.
fn three_textures(dir: &Path) -> PathBuf {
    test_models::many_textures(dir, 3, 64).unwrap()
}

#[test]
fn a_warm_load_gives_the_identical_model_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&three_textures(dir.path()));
    for cache in [
        ImportCache::in_memory(),
        ImportCache::in_folder(dir.path().join("cache")),
        ImportCache::in_memory().with_compression(Compression::None),
    ] {
        let (cold, stats) = import(&cache, &source);
        assert_eq!(
            (stats.images, stats.from_cache, stats.entries_written),
            (3, 0, 3)
        );
        assert!(stats.problem.is_none(), "{:?}", stats.problem);
        let (warm, stats) = import(&cache, &source);
        assert_eq!(
            (stats.from_cache, stats.entries_written),
            (3, 0),
            "{stats:?}"
        );
        assert!(stats.bytes_read > 0);
        assert_eq!(cold, warm);
        assert_eq!(warm, uncached(&source));
    }
}

#[test]
fn images_inside_a_glb_are_cached_through_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&test_models::textured_box_with(dir.path(), Storage::Glb).unwrap());
    assert!(source.files.is_empty());
    let cache = ImportCache::in_memory();
    let (_, cold) = import(&cache, &source);
    assert!(cold.images > 0);
    assert_eq!((cold.from_cache, cold.entries_written), (0, cold.images));
    let (warm, stats) = import(&cache, &source);
    assert_eq!(
        (stats.from_cache, stats.entries_written),
        (cold.images, 0),
        "{stats:?}"
    );
    assert_eq!(warm, uncached(&source));
}

#[test]
fn a_changed_image_is_decoded_again_and_the_others_still_come_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let mut source = read(&three_textures(dir.path()));
    let cache = ImportCache::in_memory();
    import(&cache, &source);

    // The artist repaints noise_1.png: same name, new content.
    let repainted = image::RgbaImage::from_pixel(64, 64, image::Rgba([9, 8, 7, 255]));
    let mut png = std::io::Cursor::new(Vec::new());
    repainted
        .write_to(&mut png, image::ImageFormat::Png)
        .unwrap();
    source.files.insert("noise_1.png", png.into_inner());

    let (model, stats) = import(&cache, &source);
    assert_eq!(
        (stats.from_cache, stats.entries_written),
        (2, 1),
        "{stats:?}"
    );
    assert_eq!(model.images[1].pixels.rgba8(), Some(&repainted));
    assert_eq!(model, uncached(&source));
    // The next load has all three again.
    let (_, stats) = import(&cache, &source);
    assert_eq!(
        (stats.from_cache, stats.entries_written),
        (3, 0),
        "{stats:?}"
    );
}

/// Applies `damage` to every stored image entry of the in-memory `cache`.
fn damage_entries(cache: &ImportCache, damage: impl Fn(&mut Vec<u8>)) {
    let Place::Database(place) = &cache.place else {
        panic!("an in-memory cache")
    };
    let Ok(Opened::Memory(db)) = block_on(place.open()) else {
        panic!("the memory database opens")
    };
    assert_eq!(db.name(), DATABASE);
    let stored = block_on(db.transaction(
        &[IMAGES],
        taos_storage::TransactionMode::ReadWrite,
        async |tx| {
            use taos_storage::Transaction as _;
            let all = tx.get_all_raw(IMAGES).await?;
            for (key, mut value) in all.clone() {
                damage(&mut value);
                tx.put_raw(IMAGES, &key, &value).await?;
            }
            Ok::<_, taos_storage::StorageError>(all.len())
        },
    ))
    .unwrap();
    assert_eq!(stored, 3);
}

/// Ways an entry can be damaged: cut short, a flipped bit, a newer format, an absurd size,
/// something else entirely.
const DAMAGES: [fn(&mut Vec<u8>); 5] = [
    |e| e.truncate(e.len() / 2),
    |e| e[0] ^= 0x40,
    |e| {
        let at = e.len() - 6;
        e[at] = e[at].wrapping_add(1);
    },
    |e| {
        let at = e.len() - 16;
        e[at..at + 8].copy_from_slice(&[0xFF; 8]);
    },
    |e| *e = b"not an entry".to_vec(),
];

#[test]
fn a_damaged_entry_is_a_miss_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&three_textures(dir.path()));
    for damage in DAMAGES {
        let cache = ImportCache::in_memory();
        import(&cache, &source);
        damage_entries(&cache, damage);
        let (model, stats) = import(&cache, &source);
        assert_eq!((stats.from_cache, stats.refused), (0, 3), "{stats:?}");
        assert_eq!(stats.entries_written, 3, "replaced");
        assert_eq!(model, uncached(&source));
        let (_, stats) = import(&cache, &source);
        assert_eq!(stats.from_cache, 3, "the replacements are used: {stats:?}");
    }
}

#[test]
fn a_damaged_entry_file_is_a_miss_and_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&three_textures(dir.path()));
    let folder = dir.path().join("cache");
    let cache = ImportCache::in_folder(&folder);
    import(&cache, &source);
    let entries: Vec<PathBuf> = std::fs::read_dir(folder.join("images"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 3, "{entries:?}");
    for damage in DAMAGES {
        for path in &entries {
            let mut bytes = std::fs::read(path).unwrap();
            damage(&mut bytes);
            std::fs::write(path, bytes).unwrap();
        }
        let (model, stats) = import(&cache, &source);
        assert_eq!((stats.from_cache, stats.refused), (0, 3), "{stats:?}");
        assert_eq!(stats.entries_written, 3, "replaced");
        assert_eq!(model, uncached(&source));
        let (_, stats) = import(&cache, &source);
        assert_eq!(stats.from_cache, 3, "the replacements are used: {stats:?}");
    }
    // A file far larger than the image could need is refused before it is read.
    for path in &entries {
        std::fs::write(path, vec![0; 64 * 64 * 4 + 4096]).unwrap();
    }
    let (_, stats) = import(&cache, &source);
    assert_eq!(
        (stats.from_cache, stats.refused, stats.bytes_read),
        (0, 3, 0)
    );
}

#[test]
fn no_prefix_of_an_entry_decodes_or_panics() {
    let pixels = image::RgbaImage::from_fn(16, 8, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
    let key = ImageKey::new(b"encoded", 16, 8);
    for compression in [Compression::None, Compression::Lz4] {
        let stored = entry::encode(&pixels, compression).to_vec();
        assert_eq!(entry::decode(stored.clone(), &key).unwrap(), pixels);
        for len in 0..stored.len() {
            assert!(
                entry::decode(stored[..len].to_vec(), &key).is_err(),
                "{len}"
            );
        }
        let other_size = ImageKey::new(b"encoded", 8, 16);
        assert!(entry::decode(stored, &other_size).is_err());
    }
}

#[test]
fn an_unusable_folder_leaves_the_import_working() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&three_textures(dir.path()));
    // A file where the cache folder should be.
    let blocked = dir.path().join("blocked");
    std::fs::write(&blocked, b"").unwrap();
    let (model, stats) = import(&ImportCache::in_folder(&blocked), &source);
    assert!(stats.problem.is_some());
    assert_eq!(model, uncached(&source));
}

#[test]
fn two_handles_on_one_folder_share_its_entries() {
    let dir = tempfile::tempdir().unwrap();
    let source = read(&three_textures(dir.path()));
    let folder = dir.path().join("cache");
    import(&ImportCache::in_folder(&folder), &source);
    // Another spelling of the folder (or another process): plain files, no lock.
    let (_, stats) = import(&ImportCache::in_folder(folder.join(".")), &source);
    assert!(stats.problem.is_none(), "{:?}", stats.problem);
    assert_eq!(stats.from_cache, 3);
}
