//! Sync-test mode: catch nondeterminism the tick it happens.
//!
//! Two instances of the same simulation are built. The *primary* runs ahead;
//! the *checkpoint* instance stands still at the last verified tick, which
//! makes it a snapshot of the state k ticks ago. Every k ticks the checkpoint
//! re-simulates those k ticks with the same action flags and compares its
//! state checksum with the primary's after each one. The first tick whose
//! checksums differ is reported; a deterministic simulation never differs.

use std::collections::VecDeque;

use crate::game_loop::runner::GameLoop;
use crate::input::ActionFlags;

/// Where two runs of the same inputs parted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "nondeterminism at tick {tick}: first run's state checksum {first:016x}, re-simulation gave {resimulated:016x}"
)]
pub struct Divergence {
    /// The first tick (1-based count of ticks run) whose state differs.
    pub tick: u64,
    /// Checksum after that tick in the primary run.
    pub first: u64,
    /// Checksum after that tick when re-simulated.
    pub resimulated: u64,
}

/// Runs a simulation twice, k ticks apart, comparing checksums.
///
/// ```
/// use taos_core::game_loop::{ActionFlags, GameLoop, LoopConfig, ManualClock, SyncTest};
/// use taos_core::prelude::*;
///
/// let build = || GameLoop::new(Scene::new(), LoopConfig::fixed(60).unwrap(), ManualClock::new()).unwrap();
/// let mut sync = SyncTest::new(build, 8);
/// for _ in 0..32 {
///     sync.advance(ActionFlags::NONE).expect("an empty scene is deterministic");
/// }
/// ```
#[derive(Debug)]
pub struct SyncTest {
    primary: GameLoop,
    checkpoint: GameLoop,
    window: usize,
    pending: VecDeque<(ActionFlags, u64)>,
}

impl SyncTest {
    /// Builds two instances with `build` and re-simulates every `window` ticks
    /// (at least 1).
    pub fn new(mut build: impl FnMut() -> GameLoop, window: usize) -> Self {
        Self {
            primary: build(),
            checkpoint: build(),
            window: window.max(1),
            pending: VecDeque::new(),
        }
    }

    /// The instance running ahead.
    #[must_use]
    pub fn primary(&self) -> &GameLoop {
        &self.primary
    }

    /// Runs one tick with `flags`; every `window` ticks, re-simulates them.
    ///
    /// # Errors
    /// [`Divergence`] at the first re-simulated tick whose checksum differs.
    pub fn advance(&mut self, flags: ActionFlags) -> Result<(), Divergence> {
        self.primary.step_with(flags);
        let checksum = self.primary.state_checksum();
        self.pending.push_back((flags, checksum));
        if self.pending.len() >= self.window {
            self.verify()?;
        }
        Ok(())
    }

    /// Re-simulates the ticks not yet verified.
    ///
    /// # Errors
    /// [`Divergence`] at the first tick whose checksum differs.
    pub fn verify(&mut self) -> Result<(), Divergence> {
        while let Some((flags, first)) = self.pending.pop_front() {
            self.checkpoint.step_with(flags);
            let resimulated = self.checkpoint.state_checksum();
            if resimulated != first {
                self.pending.clear();
                return Err(Divergence {
                    tick: self.checkpoint.tick_count(),
                    first,
                    resimulated,
                });
            }
        }
        Ok(())
    }
}
