//! [`Record`]: what one import did with a cache, turned into [`ImportStats`] at the end.

use std::sync::{Mutex, MutexGuard, PoisonError};

use image::RgbaImage;
use taos_gltf::{ContentHash, ImageKey};

use crate::entry::Refusal;
use crate::{CacheError, ImportStats};

/// What one import did with a cache so far; shared by its decoding threads.
#[derive(Debug, Default)]
pub(crate) struct Record {
    /// Every image hash the import asked for, in the order asked (no repeats).
    pub(crate) asked: Vec<ContentHash>,
    /// Images answered from an entry.
    pub(crate) hits: usize,
    /// Entries found but refused (corrupt, truncated, another version or size).
    pub(crate) refused: usize,
    /// Bytes of entries read.
    pub(crate) bytes_read: u64,
    /// Entries written (or to be written).
    pub(crate) entries_written: usize,
    /// Their bytes.
    pub(crate) bytes_written: u64,
    /// The first thing that went wrong with the store.
    pub(crate) problem: Option<CacheError>,
}

impl Record {
    /// Notes that `hash` was asked for.
    pub(crate) fn ask(&mut self, hash: ContentHash) {
        if !self.asked.contains(&hash) {
            self.asked.push(hash);
        }
    }

    /// Counts what decoding the entry for `key` gave: the pixels (a hit),
    /// or a refusal (logged; the image is decoded from its source).
    pub(crate) fn answer(
        &mut self,
        key: &ImageKey,
        answer: Result<RgbaImage, Refusal>,
    ) -> Option<RgbaImage> {
        match answer {
            Ok(pixels) => {
                self.hits += 1;
                Some(pixels)
            }
            Err(refusal) => {
                log::warn!(
                    "import cache: entry {} refused ({refusal}); decoding",
                    key.hash
                );
                self.refused += 1;
                None
            }
        }
    }

    /// Notes a store failure (the first one is kept).
    pub(crate) fn fail(&mut self, what: &str, error: CacheError) {
        log::warn!("import cache: {what}: {error}; going on without it");
        self.problem.get_or_insert(error);
    }

    /// The stats of the import.
    pub(crate) fn into_stats(self) -> ImportStats {
        ImportStats {
            images: self.asked.len(),
            from_cache: self.hits,
            refused: self.refused,
            bytes_read: self.bytes_read,
            entries_written: self.entries_written,
            bytes_written: self.bytes_written,
            problem: self.problem,
        }
    }
}

/// Locks `record`, whatever a panicking thread left in it (counters only).
pub(crate) fn lock(record: &Mutex<Record>) -> MutexGuard<'_, Record> {
    record.lock().unwrap_or_else(PoisonError::into_inner)
}
