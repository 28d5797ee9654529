//! [`Prefetched`]: the [`ImageCache`] one import sees. It answers from entries read before the
//! import started (so the importer never waits on a database, which in the browser only
//! answers later) and records what the import asked for and decoded, to be written after it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use image::RgbaImage;
use taos_gltf::{ContentHash, ImageCache, ImageKey};

use crate::entry::{self, Compression};

/// Entries read for one import, and what it asked for and decoded.
pub(crate) struct Prefetched {
    entries: HashMap<ContentHash, Vec<u8>>,
    compression: Compression,
    record: Mutex<Record>,
}

/// What one import did with the cache.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// Every image hash the import asked for, in the order asked (no repeats).
    pub(crate) asked: Vec<ContentHash>,
    /// Images answered from an entry.
    pub(crate) hits: usize,
    /// Entries found but refused (corrupt, truncated, another version or size).
    pub(crate) refused: usize,
    /// Entries for the images decoded, to be written.
    pub(crate) new_entries: Vec<(ContentHash, Vec<u8>)>,
}

impl Prefetched {
    /// Answers from `entries` (hash -> entry bytes); new entries are stored with `compression`.
    pub(crate) fn new(entries: HashMap<ContentHash, Vec<u8>>, compression: Compression) -> Self {
        Self {
            entries,
            compression,
            record: Mutex::default(),
        }
    }

    /// What the import did.
    pub(crate) fn into_record(self) -> Record {
        self.record
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn record(&self) -> std::sync::MutexGuard<'_, Record> {
        self.record.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ImageCache for Prefetched {
    fn get(&self, key: &ImageKey) -> Option<RgbaImage> {
        {
            let mut record = self.record();
            if !record.asked.contains(&key.hash) {
                record.asked.push(key.hash);
            }
        }
        let stored = self.entries.get(&key.hash)?;
        // Inflating runs here, on the importer's decoding threads, outside the lock.
        let answer = entry::decode(stored, key);
        let mut record = self.record();
        match answer {
            Ok(pixels) => {
                record.hits += 1;
                Some(pixels)
            }
            Err(refusal) => {
                log::warn!(
                    "import cache: entry {} refused ({refusal}); decoding",
                    key.hash
                );
                record.refused += 1;
                None
            }
        }
    }

    fn put(&self, key: &ImageKey, pixels: &RgbaImage) {
        let stored = entry::encode(pixels, self.compression);
        let mut record = self.record();
        // Two images of a model with the same bytes are decoded twice but stored once.
        if !record.new_entries.iter().any(|(hash, _)| *hash == key.hash) {
            record.new_entries.push((key.hash, stored));
        }
    }
}
