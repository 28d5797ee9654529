//! A deadline scheduler: a min-heap of dated entries, cancellable by handle.
//!
//! Deadlines are plain nanosecond counts on whatever timeline the owner keeps
//! (the loop uses game time). Ties run first-in, first-out.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// Identifies one scheduled entry, for [`cancel`](Scheduler::cancel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TimerHandle(u64);

impl TimerHandle {
    /// The handle's sequence number: unique per scheduler, increasing in
    /// scheduling order.
    #[must_use]
    pub fn sequence(self) -> u64 {
        self.0
    }
}

/// Min-heap of `(deadline, sequence)` with the payloads kept beside it.
///
/// Invariant: the heap's top is always a live (not cancelled) entry, so
/// [`next_deadline`](Self::next_deadline) is a peek.
#[derive(Debug)]
pub struct Scheduler<T> {
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    entries: BTreeMap<u64, (u64, T)>,
    next_sequence: u64,
}

impl<T> Default for Scheduler<T> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            entries: BTreeMap::new(),
            next_sequence: 0,
        }
    }
}

impl<T> Scheduler<T> {
    /// An empty scheduler.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `payload` to fall due at `deadline`.
    pub fn schedule(&mut self, deadline: u64, payload: T) -> TimerHandle {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        self.heap.push(Reverse((deadline, sequence)));
        self.entries.insert(sequence, (deadline, payload));
        TimerHandle(sequence)
    }

    /// Removes a pending entry; `None` if it already ran or was cancelled.
    pub fn cancel(&mut self, handle: TimerHandle) -> Option<T> {
        let (_, payload) = self.entries.remove(&handle.0)?;
        self.drop_cancelled_top();
        Some(payload)
    }

    /// Takes the earliest entry due at `now` (deadline <= now), earliest
    /// deadline first, then first scheduled first.
    pub fn pop_due(&mut self, now: u64) -> Option<(TimerHandle, T)> {
        let &Reverse((deadline, sequence)) = self.heap.peek()?;
        if deadline > now {
            return None;
        }
        self.heap.pop();
        let (_, payload) = self.entries.remove(&sequence)?;
        self.drop_cancelled_top();
        Some((TimerHandle(sequence), payload))
    }

    /// The earliest pending deadline.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse((deadline, _))| *deadline)
    }

    /// The deadline of a pending entry.
    #[must_use]
    pub fn deadline_of(&self, handle: TimerHandle) -> Option<u64> {
        self.entries.get(&handle.0).map(|(deadline, _)| *deadline)
    }

    /// Number of pending entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when nothing is pending.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Pending `(handle, deadline)` pairs in scheduling order.
    pub fn pending(&self) -> impl Iterator<Item = (TimerHandle, u64)> + '_ {
        self.entries
            .iter()
            .map(|(sequence, (deadline, _))| (TimerHandle(*sequence), *deadline))
    }

    /// Every pending `(sequence, deadline, payload)` and the next sequence
    /// number: what a snapshot keeps.
    pub(crate) fn entries(&self) -> (impl Iterator<Item = (u64, u64, &T)> + '_, u64) {
        let entries = self
            .entries
            .iter()
            .map(|(sequence, (deadline, payload))| (*sequence, *deadline, payload));
        (entries, self.next_sequence)
    }

    /// A scheduler holding exactly `entries`, numbering new ones from `next_sequence`.
    pub(crate) fn from_entries(
        entries: impl IntoIterator<Item = (u64, u64, T)>,
        next_sequence: u64,
    ) -> Self {
        let mut scheduler = Self::new();
        for (sequence, deadline, payload) in entries {
            scheduler.heap.push(Reverse((deadline, sequence)));
            scheduler.entries.insert(sequence, (deadline, payload));
            scheduler.next_sequence = scheduler.next_sequence.max(sequence + 1);
        }
        scheduler.next_sequence = scheduler.next_sequence.max(next_sequence);
        scheduler
    }

    fn drop_cancelled_top(&mut self) {
        while let Some(&Reverse((_, sequence))) = self.heap.peek() {
            if self.entries.contains_key(&sequence) {
                break;
            }
            self.heap.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_entries_pop_in_deadline_order_fifo_on_ties() {
        let mut s = Scheduler::new();
        s.schedule(30, "c");
        s.schedule(10, "a1");
        s.schedule(20, "b");
        s.schedule(10, "a2");
        assert_eq!(s.next_deadline(), Some(10));
        let mut order = Vec::new();
        while let Some((_, name)) = s.pop_due(25) {
            order.push(name);
        }
        assert_eq!(order, ["a1", "a2", "b"]);
        assert_eq!(s.next_deadline(), Some(30));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn cancel_removes_and_keeps_the_top_live() {
        let mut s = Scheduler::new();
        let first = s.schedule(5, 1);
        s.schedule(9, 2);
        assert_eq!(s.cancel(first), Some(1));
        assert_eq!(s.cancel(first), None, "a second cancel finds nothing");
        assert_eq!(s.next_deadline(), Some(9));
        assert!(s.pop_due(8).is_none());
        assert_eq!(s.pop_due(9).map(|(_, v)| v), Some(2));
        assert!(s.is_empty());
        assert_eq!(s.next_deadline(), None);
    }
}
