//! Determinism's tools: recordings of per-tick action flags and input
//! ([`Recording`]), the seeded [`GameRng`](crate::game_loop::GameRng) they restore, state checksums
//! ([`StateChecksum`]) that compare two runs, [`SyncTest`] that finds the
//! first tick where they part, and [`Snapshot`]s of a live game (quick save,
//! restore, a replay resumed from the middle).
//!
//! The [`GameLoop`](crate::game_loop::GameLoop) holds what is being recorded and
//! replayed in one input tape; everything here is also re-exported from
//! [`game_loop`](super).

pub(super) mod checksum;
pub(super) mod record;
pub(super) mod snapshot;
mod sync_test;
pub(super) mod tape;

pub use checksum::{StateChecksum, StateHash, StateHasher};
pub use record::{ENGINE_VERSION, RecordedInput, Recording, RecordingError};
pub use snapshot::{MAX_SNAPSHOT_COUNTER, Snapshot, SnapshotError, SnapshotTypes};
pub use sync_test::{Divergence, SyncTest};
pub(crate) use tape::InputTape;
