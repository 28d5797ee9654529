//! Idle detection for auto-pause: has the progress fingerprint stopped changing?

/// Counts consecutive ticks with an unchanged fingerprint.
#[derive(Debug, Clone, Default)]
pub(crate) struct IdleTracker {
    last: Option<u64>,
    unchanged: u32,
}

impl IdleTracker {
    /// Feeds one tick's fingerprint; `true` once it has been unchanged for
    /// `settle_ticks` consecutive ticks.
    pub(crate) fn observe(&mut self, fingerprint: u64, settle_ticks: u32) -> bool {
        if self.last == Some(fingerprint) {
            self.unchanged = self.unchanged.saturating_add(1);
        } else {
            self.last = Some(fingerprint);
            self.unchanged = 0;
        }
        self.unchanged >= settle_ticks
    }

    /// Forgets the history (on resume).
    pub(crate) fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settles_after_n_unchanged_ticks_and_resets() {
        let mut idle = IdleTracker::default();
        assert!(!idle.observe(1, 2));
        assert!(!idle.observe(1, 2));
        assert!(idle.observe(1, 2));
        assert!(!idle.observe(2, 2), "a change restarts the count");
        idle.reset();
        assert!(!idle.observe(2, 2));
    }
}
