//! Animation events: the clip events a step's time crossed, collected in order.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{AnimationClip, AnimationPlayer, ClipId};

/// An event of a playing clip that its time crossed, reported by
/// [`AnimationPlayer::events`] and [`AnimationPlayer::drain_events`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnimationEvent {
    pub(super) clip: ClipId,
    pub(super) index: usize,
    pub(super) time: f32,
    /// Filled in from the clip (a snapshot stores the index only).
    #[serde(skip)]
    pub(super) name: Arc<str>,
}

impl AnimationEvent {
    /// The clip it belongs to.
    #[must_use]
    pub fn clip(&self) -> ClipId {
        self.clip
    }

    /// Its index in the clip's [`events`](AnimationClip::events).
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// Its time in the clip, seconds.
    #[must_use]
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl AnimationPlayer {
    /// The events the last step crossed, in order (layer by layer, each in
    /// the direction it plays). Each step replaces them, so read them in
    /// the same update (behaviours and systems run after animation).
    #[must_use]
    pub fn events(&self) -> &[AnimationEvent] {
        &self.state.events
    }

    /// Takes the events the last step crossed, in order.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, AnimationEvent> {
        self.state.events.drain(..)
    }
}

/// Reports the events with times strictly after `from` up to and
/// including `to` (forward), or from `to` up to but excluding `from`
/// (backward, in descending order).
pub(super) fn fire_span(clip: &AnimationClip, from: f32, to: f32, fire: &mut impl FnMut(usize)) {
    let events = clip.events();
    if from < to {
        let start = events.partition_point(|e| e.time() <= from);
        for (index, event) in events.iter().enumerate().skip(start) {
            if event.time() > to {
                break;
            }
            fire(index);
        }
    } else if from > to {
        let end = events.partition_point(|e| e.time() < from);
        for (index, event) in events[..end].iter().enumerate().rev() {
            if event.time() < to {
                break;
            }
            fire(index);
        }
    }
}

/// Reports the events at exactly `time` (the far side of a loop wrap).
pub(super) fn fire_at(clip: &AnimationClip, time: f32, fire: &mut impl FnMut(usize)) {
    for (index, event) in clip.events().iter().enumerate() {
        if event.time() == time {
            fire(index);
        }
    }
}
