//! The binary encoding of one edit-log segment.
//!
//! ```text
//! offset  size  field
//! 0       4     magic "CEDS"
//! 4       1     encoding version (1)
//! 5       4     edit count n, u32 little-endian
//! 9       4     CRC-32 (IEEE) of the payload, u32 little-endian
//! 13      13·n  payload: per edit x, y, z as i32 little-endian, then the block byte
//! ```
//!
//! A segment whose length, checksum or block bytes do not add up is refused
//! as a whole: a torn or corrupted write never yields half an edit.

use crate::world::{BlockEdit, BlockType};

const MAGIC: &[u8; 4] = b"CEDS";
const ENCODING: u8 = 1;

/// Bytes before the payload.
pub const SEGMENT_HEADER_BYTES: usize = 13;
/// Bytes per encoded edit.
pub const EDIT_BYTES: usize = 13;

/// Why a stored segment was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SegmentError {
    /// The segment named in the world record is not in the store.
    #[error("segment is missing")]
    Missing,
    /// Shorter than its header, or its length disagrees with its edit count (a torn write).
    #[error("segment is truncated: {found} bytes, expected {expected}")]
    Truncated {
        /// Bytes stored.
        found: usize,
        /// Bytes its header (or the world record) calls for.
        expected: usize,
    },
    /// Not a segment at all.
    #[error("segment has a bad header")]
    BadHeader,
    /// The payload does not match its checksum.
    #[error("segment checksum mismatch: stored {stored:#010x}, computed {computed:#010x}")]
    Checksum {
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the payload as read.
        computed: u32,
    },
    /// The header's edit count disagrees with the world record's.
    #[error("segment holds {found} edits, the world record says {expected}")]
    CountMismatch {
        /// Edits in the segment.
        found: u32,
        /// Edits the record lists for it.
        expected: u32,
    },
    /// The segment was written in a newer encoding than this build reads.
    #[error("segment is in encoding {found}, newer than this build reads ({supported})")]
    NewerEncoding {
        /// Its encoding byte.
        found: u8,
        /// The newest encoding this build reads.
        supported: u8,
    },
    /// An edit names a block type this build does not know.
    #[error("segment edit {index} has unknown block type {byte}")]
    UnknownBlock {
        /// Position of the edit in the segment.
        index: usize,
        /// The byte.
        byte: u8,
    },
}

/// The encoded size of a segment of `edits` edits.
#[must_use]
pub const fn segment_len(edits: usize) -> usize {
    SEGMENT_HEADER_BYTES + edits * EDIT_BYTES
}

/// [`segment_len`] without overflow: `None` where it would not fit a
/// `usize` (a hostile count on a 32-bit target).
fn checked_segment_len(edits: u32) -> Option<usize> {
    usize::try_from(edits)
        .ok()?
        .checked_mul(EDIT_BYTES)?
        .checked_add(SEGMENT_HEADER_BYTES)
}

impl SegmentError {
    /// Whether the segment is sound but written by a newer build (a newer
    /// encoding, or a block this build does not know in a segment whose
    /// checksum holds): the world must be left untouched, not repaired.
    #[must_use]
    pub fn is_from_newer_build(&self) -> bool {
        matches!(self, Self::NewerEncoding { .. } | Self::UnknownBlock { .. })
    }
}

/// Encodes `edits` as one segment.
///
/// # Panics
/// If there are more than `u32::MAX` edits.
#[must_use]
pub fn encode_segment(edits: &[BlockEdit]) -> Vec<u8> {
    let mut out = Vec::with_capacity(segment_len(edits.len()));
    out.extend_from_slice(MAGIC);
    out.push(ENCODING);
    let count = u32::try_from(edits.len()).expect("a segment holds at most u32::MAX edits");
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for edit in edits {
        out.extend_from_slice(&edit.x.to_le_bytes());
        out.extend_from_slice(&edit.y.to_le_bytes());
        out.extend_from_slice(&edit.z.to_le_bytes());
        out.push(u8::from(edit.block));
    }
    let crc = crc32fast::hash(&out[SEGMENT_HEADER_BYTES..]);
    out[9..13].copy_from_slice(&crc.to_le_bytes());
    out
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks a stored segment and appends its edits to `out`. Nothing is
/// appended unless the whole segment is sound. `expected` is the edit count
/// the world record lists for it, when known.
///
/// # Errors
/// A [`SegmentError`] saying what is wrong.
pub fn decode_segment_into(
    bytes: &[u8],
    expected: Option<u32>,
    out: &mut Vec<BlockEdit>,
) -> Result<(), SegmentError> {
    if bytes.len() < SEGMENT_HEADER_BYTES {
        if !bytes.is_empty() && !MAGIC.starts_with(&bytes[..bytes.len().min(4)]) {
            return Err(SegmentError::BadHeader);
        }
        return Err(SegmentError::Truncated {
            found: bytes.len(),
            expected: expected
                .and_then(checked_segment_len)
                .unwrap_or(SEGMENT_HEADER_BYTES),
        });
    }
    if &bytes[..4] != MAGIC {
        return Err(SegmentError::BadHeader);
    }
    if bytes[4] > ENCODING {
        return Err(SegmentError::NewerEncoding {
            found: bytes[4],
            supported: ENCODING,
        });
    }
    if bytes[4] != ENCODING {
        return Err(SegmentError::BadHeader);
    }
    let count = le_u32(bytes, 5);
    let wanted = checked_segment_len(count).unwrap_or(usize::MAX);
    if bytes.len() != wanted {
        return Err(SegmentError::Truncated {
            found: bytes.len(),
            expected: wanted,
        });
    }
    if let Some(expected) = expected
        && expected != count
    {
        return Err(SegmentError::CountMismatch {
            found: count,
            expected,
        });
    }
    let stored = le_u32(bytes, 9);
    let payload = &bytes[SEGMENT_HEADER_BYTES..];
    let computed = crc32fast::hash(payload);
    if stored != computed {
        return Err(SegmentError::Checksum { stored, computed });
    }
    let start = out.len();
    out.reserve(count as usize);
    for (index, edit) in payload.chunks_exact(EDIT_BYTES).enumerate() {
        let coord = |at: usize| le_u32(edit, at).cast_signed();
        let Ok(block) = BlockType::try_from(edit[12]) else {
            out.truncate(start);
            return Err(SegmentError::UnknownBlock {
                index,
                byte: edit[12],
            });
        };
        out.push(BlockEdit {
            x: coord(0),
            y: coord(4),
            z: coord(8),
            block,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::IVec3;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_edits_round_trip_and_any_cut_is_refused(
            raw in proptest::collection::vec((any::<i32>(), any::<i32>(), any::<i32>(), 0..12_u8), 0..64),
            cut in any::<prop::sample::Index>(),
        ) {
            let edits: Vec<BlockEdit> = raw
                .iter()
                .map(|&(x, y, z, b)| BlockEdit { x, y, z, block: BlockType::try_from(b).unwrap() })
                .collect();
            let bytes = encode_segment(&edits);
            let mut out = Vec::new();
            decode_segment_into(&bytes, Some(edits.len() as u32), &mut out).unwrap();
            prop_assert_eq!(&out, &edits);
            let cut = cut.index(bytes.len());
            let mut none = Vec::new();
            prop_assert!(decode_segment_into(&bytes[..cut], None, &mut none).is_err());
            prop_assert!(none.is_empty());
        }
    }

    fn sample() -> Vec<BlockEdit> {
        vec![
            BlockEdit::new(IVec3::new(-5, 70, 1_000_000), BlockType::Glass),
            BlockEdit::new(IVec3::new(i32::MIN, 0, i32::MAX), BlockType::Air),
            BlockEdit::new(IVec3::new(3, 127, -3), BlockType::Snow),
        ]
    }

    #[test]
    fn segments_round_trip() {
        let bytes = encode_segment(&sample());
        assert_eq!(bytes.len(), segment_len(3));
        let mut out = Vec::new();
        decode_segment_into(&bytes, Some(3), &mut out).unwrap();
        assert_eq!(out, sample());
    }

    #[test]
    fn damage_is_detected_and_adds_nothing() {
        let bytes = encode_segment(&sample());
        let mut out = vec![sample()[0]];
        for cut in 0..bytes.len() {
            assert!(decode_segment_into(&bytes[..cut], None, &mut out).is_err());
        }
        let mut flipped = bytes.clone();
        flipped[20] ^= 0x40;
        assert!(matches!(
            decode_segment_into(&flipped, None, &mut out),
            Err(SegmentError::Checksum { .. })
        ));
        assert_eq!(
            decode_segment_into(&bytes, Some(4), &mut out),
            Err(SegmentError::CountMismatch {
                found: 3,
                expected: 4
            })
        );
        assert_eq!(out.len(), 1);
    }
}
