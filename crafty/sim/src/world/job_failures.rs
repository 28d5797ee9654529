//! Background jobs (terrain generation, meshing) that panic: each panic is
//! caught on the worker, logged and counted, and a chunk is tried at most
//! [`JOB_ATTEMPTS`] times in a row before it is given up on, so nothing
//! waits for it forever and the game plays on without it.

use std::collections::{HashMap, HashSet};

use super::ChunkPos;

/// How many times in a row a chunk's job may panic before it is given up
/// on: a mesh until the chunk changes, terrain for the rest of the session.
pub const JOB_ATTEMPTS: u32 = 3;

/// What panicked in one kind of background job, for the HUD and tests.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobFailures {
    /// Jobs that panicked (each one logged), retries included.
    pub panics: u64,
    /// Chunks given up on after [`JOB_ATTEMPTS`] panics in a row, sorted.
    pub given_up: Vec<ChunkPos>,
}

/// What to do with a chunk whose job just panicked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterPanic {
    /// Queue it again.
    Retry,
    /// Stop: it panicked [`JOB_ATTEMPTS`] times in a row.
    GiveUp,
}

/// The panics of one kind of job, per chunk.
#[derive(Debug)]
pub(crate) struct Retries {
    /// "mesh" or "terrain", for the log.
    what: &'static str,
    panics: u64,
    attempts: HashMap<ChunkPos, u32>,
    given_up: HashSet<ChunkPos>,
}

impl Retries {
    pub(crate) fn new(what: &'static str) -> Self {
        Self {
            what,
            panics: 0,
            attempts: HashMap::new(),
            given_up: HashSet::new(),
        }
    }

    /// Counts and logs a panic of `pos`'s job, and says whether to try again.
    pub(crate) fn panicked(&mut self, pos: ChunkPos, message: &str) -> AfterPanic {
        self.panics += 1;
        let what = self.what;
        let p = pos.0;
        let tries = self.attempts.entry(pos).or_insert(0);
        *tries += 1;
        if *tries < JOB_ATTEMPTS {
            log::error!(
                "the {what} job for chunk {p} panicked ({message}); trying again ({tries} of {JOB_ATTEMPTS})"
            );
            return AfterPanic::Retry;
        }
        log::error!(
            "the {what} job for chunk {p} panicked {JOB_ATTEMPTS} times ({message}); giving up on the chunk"
        );
        self.attempts.remove(&pos);
        self.given_up.insert(pos);
        AfterPanic::GiveUp
    }

    /// Counts and logs a panic of a job for `pos` that no longer matters
    /// (the chunk changed since; a newer job is on its way).
    pub(crate) fn panicked_stale(&mut self, pos: ChunkPos, message: &str) {
        self.panics += 1;
        let (what, p) = (self.what, pos.0);
        log::error!("the {what} job for chunk {p} panicked ({message}); the chunk changed since");
    }

    /// `pos`'s job finished: the panics in a row start again from zero.
    pub(crate) fn succeeded(&mut self, pos: ChunkPos) {
        self.forget(pos);
    }

    /// Whether `pos` was given up on.
    pub(crate) fn gave_up(&self, pos: ChunkPos) -> bool {
        self.given_up.contains(&pos)
    }

    /// Forgets `pos` (it changed, or was unloaded): it gets fresh attempts.
    pub(crate) fn forget(&mut self, pos: ChunkPos) {
        if !self.attempts.is_empty() || !self.given_up.is_empty() {
            self.attempts.remove(&pos);
            self.given_up.remove(&pos);
        }
    }

    pub(crate) fn failures(&self) -> JobFailures {
        let mut given_up: Vec<ChunkPos> = self.given_up.iter().copied().collect();
        given_up.sort_by_key(|pos| pos.0.to_array());
        JobFailures {
            panics: self.panics,
            given_up,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_is_retried_then_given_up_and_a_change_gives_it_fresh_attempts() {
        let mut retries = Retries::new("test");
        let pos = ChunkPos::new(1, 2, 3);
        assert_eq!(retries.panicked(pos, "boom"), AfterPanic::Retry);
        retries.succeeded(pos);
        for _ in 1..JOB_ATTEMPTS {
            assert_eq!(retries.panicked(pos, "boom"), AfterPanic::Retry);
        }
        assert!(!retries.gave_up(pos));
        assert_eq!(retries.panicked(pos, "boom"), AfterPanic::GiveUp);
        assert!(retries.gave_up(pos));
        assert_eq!(
            retries.failures(),
            JobFailures {
                panics: u64::from(JOB_ATTEMPTS) + 1,
                given_up: vec![pos],
            }
        );
        retries.forget(pos);
        assert!(!retries.gave_up(pos));
        assert_eq!(retries.panicked(pos, "boom"), AfterPanic::Retry);
    }
}
