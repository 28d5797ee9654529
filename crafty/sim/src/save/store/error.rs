//! What goes wrong saving or loading a world: [`SaveError`] (nothing was
//! done) and [`LoadWarning`] (a world that still loaded, with damage).

use taos_storage::StorageError;

use crate::save::segment::SegmentError;

/// Everything that can go wrong saving or loading a world.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The storage layer failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// No world has this id.
    #[error("no saved world {id:?}")]
    NotFound {
        /// The id asked for.
        id: String,
    },
    /// The world was saved by a newer crafty; it was not modified.
    #[error(
        "world {id:?} was saved in format version {found} by a newer crafty; this build reads \
         versions up to {supported}, so it left the world untouched"
    )]
    NewerVersion {
        /// The world.
        id: String,
        /// Its stored format version.
        found: u32,
        /// [`CURRENT_VERSION`](crate::save::CURRENT_VERSION).
        supported: u32,
    },
    /// A segment of the world's edit log was written by a newer crafty (a
    /// newer encoding, or a block this build does not know); the world was
    /// not modified.
    #[error(
        "world {id:?} was saved by a newer crafty (edit-log segment {segment}: {reason}); \
         this build left the world untouched"
    )]
    NewerSegment {
        /// The world.
        id: String,
        /// The segment's index.
        segment: u32,
        /// What this build could not read.
        reason: SegmentError,
    },
    /// The world's record is not a world record.
    #[error("world {id:?} has an unreadable record: {reason}")]
    Corrupt {
        /// The world.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// An upgrade step refused an older record; it was not modified.
    #[error("world {id:?}: cannot upgrade its record from format version {from}: {reason}")]
    Migration {
        /// The world.
        id: String,
        /// The version the failing step started from.
        from: u32,
        /// What the step said.
        reason: String,
    },
    /// The live world does not continue the saved edit history.
    #[error(
        "world {id:?}: {saved} edits are saved and the live world has {live}; one does not \
         continue the other, so it is not the world this session saves"
    )]
    HistoryMismatch {
        /// The world.
        id: String,
        /// Edits already saved by the session.
        saved: usize,
        /// Edits in the live world.
        live: usize,
    },
    /// The live world has a different seed from the saved one.
    #[error("world {id:?} is saved with seed {saved}, the live world has seed {live}")]
    SeedMismatch {
        /// The world.
        id: String,
        /// The saved seed.
        saved: u64,
        /// The live world's seed.
        live: u64,
    },
    /// Encoding or decoding a thumbnail failed.
    #[error("thumbnail: {0}")]
    Image(#[from] image::ImageError),
    /// A stored thumbnail is larger than
    /// [`MAX_THUMBNAIL_SIZE`](crate::save::MAX_THUMBNAIL_SIZE) (or
    /// empty); it was not decoded.
    #[error("thumbnail of {width}x{height} pixels is outside what a thumbnail may be")]
    ThumbnailTooLarge {
        /// Width in pixels, from the image's header.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// Thumbnail pixels whose length does not match their size.
    #[error("thumbnail: {width}x{height} RGBA needs {expected} bytes, got {found}")]
    PixelCount {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// `width * height * 4`.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
}

/// Something wrong in a world that still loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadWarning {
    /// A segment of the edit log was damaged (a torn or corrupted write) and
    /// its edits were skipped; the segment was taken out of the world's log
    /// and its bytes kept under its [`quarantine_key`](crate::save::quarantine_key).
    #[error("world {id:?}: dropped edit-log segment {segment} ({edits} edits): {reason}")]
    SegmentDropped {
        /// The world.
        id: String,
        /// The segment's index.
        segment: u32,
        /// Edits the record listed for it.
        edits: u32,
        /// What was wrong with it.
        reason: SegmentError,
    },
}
