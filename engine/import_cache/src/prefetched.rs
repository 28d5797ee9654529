//! [`Prefetched`]: the [`ImageCache`] an import through a [`Database`](taos_storage::Database)
//! sees. It answers from entries read before the import started (so the importer never
//! waits on the database, which in the browser only answers later) and keeps what the import
//! decoded, to be written after it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use image::RgbaImage;
use taos_gltf::{ContentHash, ImageCache, ImageKey};

use crate::entry::{self, Compression};
use crate::record::{Record, lock};

/// Entries read for one import, and what it asked for and decoded.
pub(crate) struct Prefetched {
    entries: Mutex<HashMap<ContentHash, Vec<u8>>>,
    compression: Compression,
    record: Mutex<Record>,
    new_entries: Mutex<Vec<(ContentHash, Vec<u8>)>>,
}

impl Prefetched {
    /// Answers from `entries` (hash -> entry bytes); new entries are stored with `compression`.
    pub(crate) fn new(entries: HashMap<ContentHash, Vec<u8>>, compression: Compression) -> Self {
        let record = Record {
            bytes_read: entries.values().map(|e| e.len() as u64).sum(),
            ..Record::default()
        };
        Self {
            entries: Mutex::new(entries),
            compression,
            record: Mutex::new(record),
            new_entries: Mutex::default(),
        }
    }

    /// What the import did, and the entries to write.
    pub(crate) fn finish(self) -> (Record, Vec<(ContentHash, Vec<u8>)>) {
        let record = self
            .record
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let new_entries = self
            .new_entries
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        (record, new_entries)
    }
}

impl ImageCache for Prefetched {
    fn get(&self, key: &ImageKey) -> Option<RgbaImage> {
        lock(&self.record).ask(key.hash);
        // Taken out, so that a raw entry becomes the image without a copy.
        let stored = self
            .entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&key.hash)?;
        // Checking and inflating run here, on the importer's decoding threads.
        let answer = entry::decode(stored, key);
        let mut record = lock(&self.record);
        record.answer(key, answer)
    }

    fn put(&self, key: &ImageKey, pixels: &RgbaImage) {
        let stored = entry::encode(pixels, self.compression).to_vec();
        let mut new_entries = self
            .new_entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Two images of a model with the same bytes are decoded twice but stored once.
        if !new_entries.iter().any(|(hash, _)| *hash == key.hash) {
            let mut record = lock(&self.record);
            record.entries_written += 1;
            record.bytes_written += stored.len() as u64;
            new_entries.push((key.hash, stored));
        }
    }
}
