//! Snapshots of the running loop: taking, restoring, and the quick save a
//! game asks for through [`LoopControl`](crate::game_loop::LoopControl).

use super::GameLoop;
use crate::UpdateError;
use crate::control::LoopControl;
use crate::game_loop::replay::snapshot::{Snapshot, SnapshotError, SnapshotTypes};

impl GameLoop {
    /// The component, behaviour and resource types snapshots carry.
    pub fn snapshot_types(&mut self) -> &mut SnapshotTypes {
        &mut self.snapshot_types
    }

    /// Saves the live game: objects with their opted-in components and
    /// behaviours, the clock, tick count, play/pause state, RNG, event timers,
    /// action flags and opted-in resources (see [`Snapshot`]).
    ///
    /// # Errors
    /// [`SnapshotError`] for an unregistered behaviour, a pending callback
    /// timer, or a value that does not serialise.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        Snapshot::capture(&self.scene, &self.snapshot_types, self.ticks, self.paused)
    }

    /// Puts the game back to `snapshot`: a game that was playing resumes
    /// playing, an auto-paused one ([`Settled`](crate::game_loop::PauseReason::Settled),
    /// [`NothingToRun`](crate::game_loop::PauseReason::NothingToRun)) stays auto-paused, so
    /// input resumes it, and any other pause is restored as
    /// [`PauseReason::Requested`](crate::game_loop::PauseReason::Requested) ([`Snapshot::restored_pause`]). The time
    /// since the last callback is dropped, not simulated. Render
    /// interpolation starts again from the restored placements.
    ///
    /// # Errors
    /// [`SnapshotError`] for another format or engine version, an unknown
    /// type name, an inconsistent hierarchy, a value that fails to decode,
    /// or a counter out of range ([`SnapshotError::Invalid`]). On any error
    /// the game is left exactly as it was.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        snapshot.apply(&mut self.scene, &self.snapshot_types)?;
        self.scene.reset_tick_placements();
        self.ticks = snapshot.tick;
        self.scene
            .world_mut()
            .resource_mut::<LoopControl>()
            .set_tick(snapshot.tick);
        self.paused = snapshot.restored_pause();
        self.idle.reset();
        self.sleep_until = None;
        self.waiting_for_timer = false;
        if let Some(watchdog) = &mut self.watchdog {
            watchdog.reset();
        }
        self.pacer.rebase(self.clock.now());
        Ok(())
    }

    /// The last quick save a game asked for with [`LoopControl::quick_save`]
    /// (write it to storage with [`Snapshot::to_bytes`]).
    #[must_use]
    pub fn quick_save(&self) -> Option<&Snapshot> {
        self.quick_save.as_ref()
    }

    /// Sets the snapshot [`LoopControl::quick_load`] restores (e.g. one read from disk).
    pub fn set_quick_save(&mut self, snapshot: Option<Snapshot>) {
        self.quick_save = snapshot;
    }

    /// Carries out quick-save and quick-load requests made during a tick.
    pub(super) fn serve_quick_requests(&mut self) {
        let (save, load) = self
            .scene
            .world_mut()
            .resource_mut::<LoopControl>()
            .take_requests();
        if save {
            match self.snapshot() {
                Ok(snapshot) => self.quick_save = Some(snapshot),
                Err(error) => {
                    log::error!("quick save failed: {error}");
                    self.errors.push(UpdateError::Snapshot(error));
                }
            }
        }
        if load && let Some(snapshot) = self.quick_save.take() {
            if let Err(error) = self.restore(&snapshot) {
                log::error!("quick load failed: {error}");
                self.errors.push(UpdateError::Snapshot(error));
            }
            self.quick_save = Some(snapshot);
        }
    }
}
