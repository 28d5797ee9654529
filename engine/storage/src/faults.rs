//! Injected file faults for the native backend: a full disk or a failing
//! write, length change or sync at the Nth call, under the real `redb` file.
//!
//! This is how tests show that a game keeps every edit through disk errors,
//! as SQLite's and redb's own suites do:
//! [`RedbBackend::with_faults`](crate::RedbBackend::with_faults) opens its
//! files through a
//! [`FileFaults`] plan shared with the test, which turns faults on and off
//! while the game runs.
//!
//! ```
//! use taos_storage::faults::{FileFaults, FileOp, InjectedError};
//! use taos_storage::{Database, RedbBackend, StorageBackend, block_on};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let faults = FileFaults::new();
//! let backend = RedbBackend::with_faults(dir.path(), faults.clone());
//! let db = block_on(backend.open("saves", 1, |up| up.create_store("worlds").map(drop)))?;
//! block_on(db.put("worlds", "a", &1_u32))?;
//!
//! faults.fail_from(FileOp::Write, 0, InjectedError::Full);
//! let error = block_on(db.put("worlds", "b", &2_u32)).unwrap_err();
//! assert!(error.is_full(), "{error}");
//!
//! faults.clear(); // space was freed: the same handle writes again
//! block_on(db.put("worlds", "b", &2_u32))?;
//! assert_eq!(block_on(db.get::<u32>("worlds", "a"))?, Some(1));
//! # Ok::<(), taos_storage::StorageError>(())
//! ```

use std::fmt;
use std::ops::Bound;
use std::sync::{Arc, Mutex, PoisonError};

use redb::backends::FileBackend;
use redb::{BackendError, StorageBackend};

/// A file operation the plan counts and can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileOp {
    /// Writing bytes at an offset.
    Write,
    /// Growing or shrinking the file.
    SetLen,
    /// Flushing to the disk (part of every commit).
    Sync,
}

/// The error an injected fault reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectedError {
    /// The disk is full (`ENOSPC`, [`std::io::ErrorKind::StorageFull`]).
    Full,
    /// Any other I/O failure ([`std::io::ErrorKind::Other`]).
    Io,
}

impl InjectedError {
    fn to_io(self) -> std::io::Error {
        match self {
            Self::Full => std::io::Error::from(std::io::ErrorKind::StorageFull),
            Self::Io => std::io::Error::other("injected I/O error"),
        }
    }
}

/// How many of each operation ran through the plan since it was made
/// (compare two readings to count one commit's calls).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// [`FileOp::Write`] calls.
    pub writes: u64,
    /// [`FileOp::SetLen`] calls.
    pub set_lens: u64,
    /// [`FileOp::Sync`] calls.
    pub syncs: u64,
}

impl OpCounts {
    /// Calls of `op`.
    #[must_use]
    pub fn of(&self, op: FileOp) -> u64 {
        match op {
            FileOp::Write => self.writes,
            FileOp::SetLen => self.set_lens,
            FileOp::Sync => self.syncs,
        }
    }

    fn bump(&mut self, op: FileOp) {
        match op {
            FileOp::Write => self.writes += 1,
            FileOp::SetLen => self.set_lens += 1,
            FileOp::Sync => self.syncs += 1,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Rule {
    op: FileOp,
    /// The count (of `op`, since the rule was set) from which calls fail.
    from: u64,
    /// Only that one call fails (a transient error), not every later one.
    once: bool,
    error: InjectedError,
}

#[derive(Debug, Default)]
struct State {
    counts: OpCounts,
    /// Counts when the rule was set.
    base: OpCounts,
    rule: Option<Rule>,
    injected: u64,
}

/// A fault plan shared between a test and the files it opens: clones share
/// one plan. With no rule set every call passes through untouched.
#[derive(Clone, Default)]
pub struct FileFaults {
    state: Arc<Mutex<State>>,
}

impl fmt::Debug for FileFaults {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileFaults")
            .field("state", &*self.lock())
            .finish()
    }
}

impl FileFaults {
    /// A plan with no faults.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self, op: FileOp, nth: u64, once: bool, error: InjectedError) {
        let mut state = self.lock();
        state.base = state.counts;
        state.rule = Some(Rule {
            op,
            from: nth,
            once,
            error,
        });
    }

    /// From the `nth` (0-based, counted from now) call of `op` on, every
    /// call of `op` fails with `error` until [`clear`](Self::clear): a disk
    /// that fills up and stays full.
    pub fn fail_from(&self, op: FileOp, nth: u64, error: InjectedError) {
        self.set(op, nth, false, error);
    }

    /// Only the `nth` (0-based, counted from now) call of `op` fails.
    pub fn fail_once(&self, op: FileOp, nth: u64, error: InjectedError) {
        self.set(op, nth, true, error);
    }

    /// Removes the rule: space was freed, the device works again.
    pub fn clear(&self) {
        self.lock().rule = None;
    }

    /// Calls counted so far.
    #[must_use]
    pub fn counts(&self) -> OpCounts {
        self.lock().counts
    }

    /// Calls that were failed on purpose so far.
    #[must_use]
    pub fn injected(&self) -> u64 {
        self.lock().injected
    }

    /// Counts `op` and says whether this call fails.
    fn check(&self, op: FileOp) -> Result<(), std::io::Error> {
        let mut state = self.lock();
        let index = state.counts.of(op) - state.base.of(op);
        state.counts.bump(op);
        let Some(rule) = state.rule else {
            return Ok(());
        };
        let hit = rule.op == op
            && if rule.once {
                index == rule.from
            } else {
                index >= rule.from
            };
        if hit {
            state.injected += 1;
            Err(rule.error.to_io())
        } else {
            Ok(())
        }
    }
}

/// redb's file backend with a [`FileFaults`] plan in front of its writes.
#[derive(Debug)]
pub(crate) struct FaultyFile {
    file: FileBackend,
    faults: FileFaults,
}

impl FaultyFile {
    pub(crate) fn new(file: FileBackend, faults: FileFaults) -> Self {
        Self { file, faults }
    }
}

impl StorageBackend for FaultyFile {
    fn len(&self) -> Result<u64, std::io::Error> {
        self.file.len()
    }

    fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), std::io::Error> {
        self.file.read(offset, out)
    }

    fn set_len(&self, len: u64) -> Result<(), std::io::Error> {
        self.faults.check(FileOp::SetLen)?;
        self.file.set_len(len)
    }

    fn sync_data(&self) -> Result<(), std::io::Error> {
        self.faults.check(FileOp::Sync)?;
        self.file.sync_data()
    }

    fn write(&self, offset: u64, data: &[u8]) -> Result<(), std::io::Error> {
        self.faults.check(FileOp::Write)?;
        self.file.write(offset, data)
    }

    fn close(&self) -> Result<(), std::io::Error> {
        self.file.close()
    }

    fn try_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.file.try_lock_range(start, end)
    }

    fn try_lock_shared_range(
        &self,
        start: Bound<u64>,
        end: Bound<u64>,
    ) -> Result<bool, BackendError> {
        self.file.try_lock_shared_range(start, end)
    }

    fn lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.lock_range(start, end)
    }

    fn lock_shared_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.lock_shared_range(start, end)
    }

    fn unlock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<(), BackendError> {
        self.file.unlock_range(start, end)
    }

    fn query_lock_range(&self, start: Bound<u64>, end: Bound<u64>) -> Result<bool, BackendError> {
        self.file.query_lock_range(start, end)
    }
}
