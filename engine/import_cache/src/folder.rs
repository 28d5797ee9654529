//! The native store: one file per entry, `<folder>/images/<hash>.timg`, read and written by
//! the importer's decoding threads as it goes (no prefetch: the files are there to be read).
//!
//! Why files and not a `redb` database here: measured on the FlightHelmet-sized bench, `redb`
//! gave each 16 MiB entry a 32 MiB region (a 436 MB file for 251 MB of pixels) and read it
//! back through its page cache with a copy, one entry at a time; a file per entry is read
//! with one copy, on both decoding threads at once, takes exactly its size, and needs no
//! lock between processes (a game and `taos assets` can share the folder). A new file is
//! written under a temporary name and renamed into place, so a reader sees a whole entry or
//! none; one cut short by a crash is refused by its trailer.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use image::RgbaImage;
use taos_gltf::{ImageCache, ImageKey};

use crate::CacheError;
use crate::entry::{self, Compression, TRAILER};
use crate::record::{Record, lock};

/// Where the entries live inside a cache folder.
const IMAGES: &str = "images";

/// Temporary files' numbers, unique within the process (with its id, across processes).
static NEXT_TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// A cache folder's entries, as one import uses them.
pub(crate) struct FolderImages {
    images: PathBuf,
    compression: Compression,
    record: Mutex<Record>,
}

impl FolderImages {
    /// The entries in `folder`, whose `images` subfolder is created if needed.
    pub(crate) fn open(folder: &Path, compression: Compression) -> Result<Self, CacheError> {
        let images = folder.join(IMAGES);
        std::fs::create_dir_all(&images).map_err(|source| CacheError::Io {
            path: images.clone(),
            source,
        })?;
        Ok(Self {
            images,
            compression,
            record: Mutex::default(),
        })
    }

    /// What the import did.
    pub(crate) fn finish(self) -> Record {
        self.record
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn path(&self, key: &ImageKey) -> PathBuf {
        self.images.join(format!("{}.timg", key.hash))
    }

    /// The entry's bytes; `Ok(None)` when there is none or it is larger than any entry of
    /// that size can be (refused before it is read).
    fn read(&self, key: &ImageKey) -> std::io::Result<Option<Vec<u8>>> {
        let file = match File::open(self.path(key)) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let largest = u64::from(key.width) * u64::from(key.height) * 4 + TRAILER as u64;
        let size = file.metadata()?.len();
        if size > largest {
            lock(&self.record).refused += 1;
            return Ok(None);
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(largest).read_to_end(&mut bytes)?;
        Ok(Some(bytes))
    }

    /// Writes `pixels`' entry under a temporary name, then renames it into place.
    fn write(&self, key: &ImageKey, pixels: &RgbaImage) -> std::io::Result<u64> {
        let stored = entry::encode(pixels, self.compression);
        let temporary = self.images.join(format!(
            "{}.{}-{}.tmp",
            key.hash,
            std::process::id(),
            NEXT_TEMPORARY.fetch_add(1, Ordering::Relaxed)
        ));
        let written = File::create(&temporary).and_then(|mut file| {
            file.write_all(&stored.payload)?;
            file.write_all(&stored.trailer)
        });
        let renamed = written.and_then(|()| std::fs::rename(&temporary, self.path(key)));
        if renamed.is_err() {
            // Best effort: the error that matters is the write's or the rename's.
            let _ = std::fs::remove_file(&temporary);
        }
        renamed.map(|()| stored.len() as u64)
    }

    fn io_problem(&self, key: &ImageKey, what: &str, source: std::io::Error) {
        let error = CacheError::Io {
            path: self.path(key),
            source,
        };
        lock(&self.record).fail(what, error);
    }
}

impl ImageCache for FolderImages {
    fn get(&self, key: &ImageKey) -> Option<RgbaImage> {
        lock(&self.record).ask(key.hash);
        let bytes = match self.read(key) {
            Ok(bytes) => bytes?,
            Err(e) => {
                self.io_problem(key, "reading an entry", e);
                return None;
            }
        };
        let len = bytes.len() as u64;
        let answer = entry::decode(bytes, key);
        let mut record = lock(&self.record);
        record.bytes_read += len;
        record.answer(key, answer)
    }

    fn put(&self, key: &ImageKey, pixels: &RgbaImage) {
        match self.write(key, pixels) {
            Ok(bytes) => {
                let mut record = lock(&self.record);
                record.entries_written += 1;
                record.bytes_written += bytes;
            }
            Err(e) => self.io_problem(key, "writing an entry", e),
        }
    }
}
