//! The append-only edit log: new edits written as one segment, the newest
//! small segments merged into it once a world has more than
//! [`MAX_SEGMENTS`], so each edit is rewritten O(log n) times over a
//! world's life.

use taos_storage::Transaction;

use super::decode::{Decoded, decode_record};
use super::{
    AppendReport, MAX_SEGMENT_EDITS, MAX_SEGMENTS, SEGMENTS_STORE, SaveError, WORLDS_STORE,
    segment_key,
};
use crate::save::record::{EditLog, SavedWorld, SegmentInfo};
use crate::save::segment::{SegmentError, decode_segment_into, encode_segment};
use crate::world::BlockEdit;

/// The newest run of segments to merge when `sizes` (edit counts, oldest
/// first, the pending segment last) holds more than [`MAX_SEGMENTS`]: at
/// least two, then each older one no larger than the run so far, so
/// segments grow geometrically toward the oldest and each edit is rewritten
/// O(log n) times over the life of a world.
pub(super) fn merge_run(sizes: &[u64]) -> usize {
    if sizes.len() <= MAX_SEGMENTS {
        return 1;
    }
    let mut run = 1;
    let mut total = sizes[sizes.len() - 1];
    while run < sizes.len() {
        let older = sizes[sizes.len() - 1 - run];
        if (run >= 2 && older > total) || total + older > MAX_SEGMENT_EDITS as u64 {
            break;
        }
        total += older;
        run += 1;
    }
    run
}

/// Appends `edits` to `log` as one new segment (merging the newest old
/// segments into it when the log is long). Writes segments only; the caller
/// writes the record.
pub(super) async fn append_to_log<T: Transaction>(
    tx: &mut T,
    id: &str,
    log: &mut EditLog,
    edits: &[BlockEdit],
) -> Result<AppendReport, SaveError> {
    let mut report = AppendReport {
        new_edits: edits.len(),
        ..AppendReport::default()
    };
    for chunk in edits.chunks(MAX_SEGMENT_EDITS) {
        let mut sizes: Vec<u64> = log.segments.iter().map(|s| u64::from(s.edits)).collect();
        sizes.push(chunk.len() as u64);
        let old = merge_run(&sizes) - 1;
        let mut merged = Vec::new();
        let mut merged_ok = old > 0;
        if old > 0 {
            for info in &log.segments[log.segments.len() - old..] {
                let bytes = tx
                    .get_raw(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
                let result = match bytes {
                    Some(bytes) => decode_segment_into(&bytes, Some(info.edits), &mut merged),
                    None => Err(SegmentError::Missing),
                };
                if let Err(reason) = result {
                    // Leave a damaged segment for the load path to report.
                    log::warn!(
                        "world {id:?}: not compacting, segment {} is damaged: {reason}",
                        info.index
                    );
                    merged_ok = false;
                    break;
                }
            }
        }
        let bytes = if merged_ok {
            for info in log.segments.split_off(log.segments.len() - old) {
                tx.delete(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
            }
            report.segments_merged += old;
            merged.extend_from_slice(chunk);
            encode_segment(&merged)
        } else {
            merged.clear();
            encode_segment(chunk)
        };
        let count = if merged_ok { merged.len() } else { chunk.len() };
        // Never reuse the index of a listed segment, whatever the record
        // says its next index is.
        let index = log
            .segments
            .iter()
            .map(|s| s.index.checked_add(1))
            .try_fold(log.next_segment, |next, after| after.map(|a| next.max(a)))
            .ok_or_else(|| SaveError::Corrupt {
                id: id.to_owned(),
                reason: "its edit log has used every segment index".to_owned(),
            })?;
        tx.put_raw(SEGMENTS_STORE, &segment_key(id, index), &bytes)
            .await?;
        report.segment_bytes += bytes.len();
        log.segments.push(SegmentInfo {
            index,
            edits: u32::try_from(count).unwrap_or(u32::MAX),
        });
        log.next_segment = index.saturating_add(1);
    }
    report.segments = log.segments.len();
    Ok(report)
}

/// Reads the record of `id` for an update inside a read-write transaction,
/// moving edits an old version kept inline into a segment first.
pub(super) async fn read_for_write<T: Transaction>(
    tx: &mut T,
    id: &str,
) -> Result<Option<SavedWorld>, SaveError> {
    let Some(bytes) = tx.get_raw(WORLDS_STORE, id).await? else {
        return Ok(None);
    };
    let Decoded {
        mut world,
        inline_edits,
        ..
    } = decode_record(id, &bytes)?;
    if !inline_edits.is_empty() {
        append_to_log(tx, id, &mut world.edit_log, &inline_edits).await?;
    }
    Ok(Some(world))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_runs_grow_geometrically() {
        assert_eq!(merge_run(&[5; MAX_SEGMENTS]), 1);
        let mut sizes = vec![1_000_000];
        sizes.extend([1; MAX_SEGMENTS]);
        // All the small ones merge; the big one stays.
        assert_eq!(merge_run(&sizes), MAX_SEGMENTS);
        let mut sizes = vec![1_000_000, 64];
        sizes.extend([1; MAX_SEGMENTS - 1]);
        assert_eq!(merge_run(&sizes), MAX_SEGMENTS - 1);
    }
}
