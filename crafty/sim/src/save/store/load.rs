//! Loading a world: everything it stores read in one transaction, then a
//! [`LoadPlan`]: the edits that decode, damaged segments moved aside (to
//! their [`quarantine_key`]) with a [`LoadWarning`], old records written
//! back upgraded.

use taos_storage::Transaction;

use super::decode::{Decoded, decode_record};
use super::edit_log::append_to_log;
use super::{
    LoadWarning, LoadedWorld, SEGMENTS_STORE, SaveError, THUMBNAILS_STORE, WORLDS_STORE,
    quarantine_key, segment_key,
};
use crate::save::record::{CURRENT_VERSION, SavedWorld, SegmentInfo};
use crate::save::segment::{SegmentError, decode_segment_into};
use crate::world::BlockEdit;

/// A world as stored: its record, the bytes of each segment it lists, and
/// its thumbnail.
pub(super) struct StoredWorld {
    pub(super) decoded: Decoded,
    pub(super) segments: Vec<Option<Vec<u8>>>,
    pub(super) screenshot: Option<Vec<u8>>,
}

pub(super) async fn read_world<T: Transaction>(
    tx: &mut T,
    id: &str,
) -> Result<StoredWorld, SaveError> {
    let Some(bytes) = tx.get_raw(WORLDS_STORE, id).await? else {
        return Err(SaveError::NotFound { id: id.to_owned() });
    };
    let decoded = decode_record(id, &bytes)?;
    let mut segments = Vec::with_capacity(decoded.world.edit_log.segments.len());
    for info in &decoded.world.edit_log.segments {
        segments.push(
            tx.get_raw(SEGMENTS_STORE, &segment_key(id, info.index))
                .await?,
        );
    }
    let screenshot = tx.get_raw(THUMBNAILS_STORE, id).await?;
    Ok(StoredWorld {
        decoded,
        segments,
        screenshot,
    })
}

/// What a load makes of a stored world: the edits that decode, the
/// segments to move aside, and whether the record must be written back.
pub(super) struct LoadPlan {
    pub(super) world: SavedWorld,
    pub(super) stored_version: u32,
    pub(super) inline_edits: Vec<BlockEdit>,
    pub(super) edits: Vec<BlockEdit>,
    /// Damaged segments with their bytes (`None`: missing).
    pub(super) damaged: Vec<(SegmentInfo, Option<Vec<u8>>)>,
    pub(super) warnings: Vec<LoadWarning>,
}

impl StoredWorld {
    pub(super) fn plan(&self, id: &str) -> Result<LoadPlan, SaveError> {
        let decoded = &self.decoded;
        let mut world = decoded.world.clone();
        // The capacity comes from bytes actually read, never from a count
        // in the record.
        let stored_bytes: usize = self.segments.iter().flatten().map(Vec::len).sum();
        let mut edits = Vec::with_capacity(stored_bytes / crate::save::segment::EDIT_BYTES);
        let mut kept = Vec::with_capacity(self.segments.len());
        let mut damaged = Vec::new();
        let mut warnings = Vec::new();
        for (info, bytes) in world.edit_log.segments.iter().zip(&self.segments) {
            let result = match bytes {
                Some(bytes) => decode_segment_into(bytes, Some(info.edits), &mut edits),
                None => Err(SegmentError::Missing),
            };
            match result {
                Ok(()) => kept.push(*info),
                Err(reason) if reason.is_from_newer_build() => {
                    return Err(SaveError::NewerSegment {
                        id: id.to_owned(),
                        segment: info.index,
                        reason,
                    });
                }
                Err(reason) => {
                    let warning = LoadWarning::SegmentDropped {
                        id: id.to_owned(),
                        segment: info.index,
                        edits: info.edits,
                        reason,
                    };
                    log::warn!("{warning}");
                    warnings.push(warning);
                    damaged.push((*info, bytes.clone()));
                }
            }
        }
        world.edit_log.segments = kept;
        Ok(LoadPlan {
            world,
            stored_version: decoded.stored_version,
            inline_edits: decoded.inline_edits.clone(),
            edits,
            damaged,
            warnings,
        })
    }
}

impl LoadPlan {
    pub(super) fn needs_writing(&self) -> bool {
        self.stored_version < CURRENT_VERSION
            || !self.inline_edits.is_empty()
            || !self.damaged.is_empty()
    }

    /// Moves damaged segments aside, moves inline edits into a segment and
    /// writes the record back.
    pub(super) async fn write<T: Transaction>(
        &mut self,
        tx: &mut T,
        id: &str,
    ) -> Result<(), SaveError> {
        for (info, bytes) in &self.damaged {
            if let Some(bytes) = bytes {
                tx.put_raw(SEGMENTS_STORE, &quarantine_key(id, info.index), bytes)
                    .await?;
                tx.delete(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
            }
        }
        if !self.inline_edits.is_empty() {
            let mut log = self.world.edit_log.clone();
            append_to_log(tx, id, &mut log, &self.inline_edits).await?;
            self.world.edit_log = log;
        }
        tx.put(WORLDS_STORE, id, &self.world).await?;
        if self.stored_version < CURRENT_VERSION {
            log::info!(
                "world {id:?}: migrated from format version {} to {CURRENT_VERSION}",
                self.stored_version
            );
        }
        Ok(())
    }

    pub(super) fn into_loaded(self, screenshot: Option<Vec<u8>>) -> LoadedWorld {
        // Old versions kept edits inline; they come before any segment.
        let mut edits = self.inline_edits;
        edits.extend(self.edits);
        let mut record = self.world;
        record.screenshot = screenshot;
        LoadedWorld {
            record,
            edits,
            warnings: self.warnings,
        }
    }
}
