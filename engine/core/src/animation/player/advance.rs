//! Advancing a player by scene time (fades, times, events, root motion) and
//! blending its pose.

use glam::Vec3;

use super::AnimationPlayer;
use super::events::{AnimationEvent, fire_at, fire_span};
use crate::animation::blend::{Leg, Pose, root_displacement, travel};

/// Events past this many whole laps in one step are not reported (a tiny
/// clip looping under a huge step would otherwise report without end).
pub(super) const MAX_EVENT_LAPS: u64 = 16;
impl AnimationPlayer {
    /// Advances by `dt` scene seconds (fades, times, events, root motion);
    /// returns whether the targets need a new pose.
    pub(crate) fn advance(&mut self, dt: f32) -> bool {
        let state = &mut self.state;
        state.events.clear();
        state.root_delta = [0.0; 3];
        if state.paused || dt == 0.0 {
            return std::mem::take(&mut state.pose_pending);
        }
        let mut root_sum = Vec3::ZERO;
        let mut root_weight = 0.0;
        for layer in &mut state.layers {
            if let Some(fade) = &mut layer.fade {
                fade.elapsed = (fade.elapsed + dt.abs()).min(fade.duration);
                let weight = if fade.elapsed >= fade.duration {
                    fade.to
                } else {
                    fade.from + (fade.to - fade.from) * (fade.elapsed / fade.duration)
                };
                if weight != layer.weight {
                    layer.weight = weight;
                    state.pose_pending = true;
                }
                if fade.elapsed >= fade.duration {
                    // A finished fade that removes the layer keeps `fade` as the marker.
                    if !fade.remove {
                        layer.fade = None;
                    }
                    state.pose_pending = true;
                }
            }
            let Some(clip) = self.clips.get(layer.clip.index()) else {
                continue;
            };
            let speed = state.speed * layer.speed;
            let duration = clip.duration();
            if speed == 0.0 || layer.is_finished(duration, speed) {
                continue;
            }
            let root = self
                .root_motion
                .filter(|_| !layer.additive)
                .filter(|&root| {
                    layer
                        .mask
                        .and_then(|mask| self.masks.get(mask.index()))
                        .is_none_or(|mask| mask.contains(root))
                })
                .and_then(|root| root_displacement(clip, root));
            let mut moved = Vec3::ZERO;
            let mut event_laps = 0;
            let events = &mut state.events;
            let clip_id = layer.clip;
            let mut fire = |index: usize| {
                let event = &clip.events()[index];
                events.push(AnimationEvent {
                    clip: clip_id,
                    index,
                    time: event.time(),
                    name: event.shared_name().clone(),
                });
            };
            let forward = speed > 0.0;
            let time = travel(layer.time, dt * speed, duration, layer.looping, |leg| {
                match leg {
                    Leg::Span(from, to) => {
                        fire_span(clip, from, to, &mut fire);
                        if let Some(root) = &root {
                            moved += root.at(to) - root.at(from);
                        }
                    }
                    Leg::Wrap => fire_at(clip, if forward { 0.0 } else { duration }, &mut fire),
                    Leg::Laps(laps) => {
                        for _ in 0..laps.min(MAX_EVENT_LAPS.saturating_sub(event_laps)) {
                            if forward {
                                fire_span(clip, 0.0, duration, &mut fire);
                                fire_at(clip, 0.0, &mut fire);
                            } else {
                                fire_span(clip, duration, 0.0, &mut fire);
                                fire_at(clip, duration, &mut fire);
                            }
                        }
                        event_laps = event_laps.saturating_add(laps);
                        if let Some(root) = &root {
                            let lap = root.at(duration) - root.at(0.0);
                            // Whole laps: u64 to f32 rounds, which only matters past 2^24 laps.
                            #[allow(clippy::cast_precision_loss)]
                            let laps = laps as f32;
                            moved += if forward { lap * laps } else { -lap * laps };
                        }
                    }
                }
            });
            if time != layer.time {
                layer.time = time;
                state.pose_pending = true;
            }
            if root.is_some() && layer.weight > 0.0 {
                root_sum += moved * layer.weight;
                root_weight += layer.weight;
            }
        }
        let before = state.layers.len();
        state.layers.retain(|layer| {
            !layer
                .fade
                .is_some_and(|f| f.remove && f.elapsed >= f.duration)
        });
        if state.layers.len() != before {
            state.pose_pending = true;
        }
        if root_weight > 0.0 {
            let delta = root_sum / root_weight;
            let delta = Vec3::new(delta.x, 0.0, delta.z);
            state.root_delta = delta.to_array();
            state.root_total = (Vec3::from_array(state.root_total) + delta).to_array();
        }
        std::mem::take(&mut state.pose_pending)
    }

    /// Advances by `dt` scene seconds; returns the current clip and time to
    /// write when the targets need a new pose (the single-clip view).
    #[cfg(test)]
    pub(crate) fn step(&mut self, dt: f32) -> Option<(&super::AnimationClip, f32)> {
        if !self.advance(dt) {
            return None;
        }
        let time = self.time();
        self.current_clip().map(|clip| (clip, time))
    }

    /// Blends the layers at their times into the pose buffers.
    pub(crate) fn build_pose(&mut self) -> &Pose {
        self.scratch.0.build(
            &self.clips,
            &self.masks,
            &self.state.layers,
            self.root_motion,
        );
        &self.scratch.0
    }
}
