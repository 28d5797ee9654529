//! Layer arithmetic: how a layer's time travels through a step (loop wraps
//! included), and the blend of every layer's sample into one pose.

use std::collections::HashMap;

use glam::{Quat, Vec3, Vec4};

use super::clip::Sample;
use super::mask::AnimationMask;
use super::player::AnimationLayer;
use super::{AnimatedProperty, AnimationChannel, AnimationClip};
use crate::object::GameObject;

/// One piece of a layer's path through its clip in one step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Leg {
    /// From the first time to the second, in the direction of play.
    Span(f32, f32),
    /// Across the loop point: from the end to the start going forward,
    /// from the start to the end going backward.
    Wrap,
    /// This many whole laps, each a span over the clip and a wrap.
    Laps(u64),
}

/// Moves a time `step` seconds through a clip of `duration` (clamped, or
/// wrapped when `looping`), telling `leg` the path taken; returns the new time.
pub(crate) fn travel(
    from: f32,
    step: f32,
    duration: f32,
    looping: bool,
    mut leg: impl FnMut(Leg),
) -> f32 {
    if !looping {
        let to = (from + step).clamp(0.0, duration);
        if to != from {
            leg(Leg::Span(from, to));
        }
        return to;
    }
    if duration <= 0.0 {
        return 0.0;
    }
    let total = from + step;
    let to = total.rem_euclid(duration);
    let wraps = if step > 0.0 {
        (total / duration).floor()
    } else if total >= 0.0 {
        0.0
    } else {
        (-total / duration).ceil()
    };
    if wraps < 1.0 {
        leg(Leg::Span(from, to));
        return to;
    }
    let (end, start) = if step > 0.0 {
        (duration, 0.0)
    } else {
        (0.0, duration)
    };
    leg(Leg::Span(from, end));
    leg(Leg::Wrap);
    // Saturates for absurd steps; the laps then only count travel.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let laps = (wraps - 1.0) as u64;
    if laps > 0 {
        leg(Leg::Laps(laps));
    }
    leg(Leg::Span(start, to));
    to
}

/// The translation curve of a root-motion bone in one clip.
pub(crate) struct RootCurve<'a>(&'a AnimationChannel);

impl RootCurve<'_> {
    /// The bone's translation at `time`.
    pub(crate) fn at(&self, time: f32) -> Vec3 {
        match self.0.sample(time) {
            Some(Sample::Translation(v)) => v,
            _ => Vec3::ZERO,
        }
    }
}

/// The first translation channel of `clip` driving `root`.
pub(crate) fn root_displacement(clip: &AnimationClip, root: GameObject) -> Option<RootCurve<'_>> {
    clip.channels()
        .iter()
        .find(|c| c.target() == root && c.property() == AnimatedProperty::Translation)
        .map(RootCurve)
}

/// A blended property value, ready to write.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PoseValue<'a> {
    /// A local position.
    Translation(Vec3),
    /// A local rotation.
    Rotation(Quat),
    /// A local scale.
    Scale(Vec3),
    /// Morph weights.
    Weights(&'a [f32]),
}

/// One target property's accumulator.
#[derive(Debug, Clone, Copy)]
struct Entry {
    target: GameObject,
    property: AnimatedProperty,
    /// Sum of the weights of the layers that sampled it.
    total: f32,
    /// How many layers sampled it.
    count: u32,
    /// Translation or scale: the first sample, then the weighted sum, then the result.
    vec: Vec3,
    /// Rotation: the first sample (the hemisphere to align to), then the result.
    rotation: Quat,
    /// Rotation: the weighted sum of aligned samples.
    sum: Vec4,
    /// Weights: where they lie in [`Pose::weights`].
    start: usize,
    len: usize,
}

/// The pose of one player: every animated target property, blended.
/// Buffers are kept between steps, so a steady animation allocates nothing.
#[derive(Debug, Default)]
pub(crate) struct Pose {
    entries: Vec<Entry>,
    index: HashMap<(GameObject, AnimatedProperty), usize>,
    weights: Vec<f32>,
    sample: Vec<f32>,
    reference: Vec<f32>,
}

impl Pose {
    /// The blended values, in the order their first layer and channel came.
    pub(crate) fn values(&self) -> impl Iterator<Item = (GameObject, PoseValue<'_>)> + '_ {
        self.entries.iter().filter(|e| e.count > 0).map(|e| {
            let value = match e.property {
                AnimatedProperty::Translation => PoseValue::Translation(e.vec),
                AnimatedProperty::Scale => PoseValue::Scale(e.vec),
                AnimatedProperty::Rotation => PoseValue::Rotation(e.rotation),
                AnimatedProperty::Weights => {
                    PoseValue::Weights(&self.weights[e.start..e.start + e.len])
                }
            };
            (e.target, value)
        })
    }

    /// Blends `layers` (at their times and weights) into the pose: blended
    /// layers first, as weighted averages, then additive layers on top.
    pub(crate) fn build(
        &mut self,
        clips: &[AnimationClip],
        masks: &[AnimationMask],
        layers: &[AnimationLayer],
        root: Option<GameObject>,
    ) {
        self.entries.clear();
        self.index.clear();
        self.weights.clear();
        let playing = |additive: bool| {
            layers
                .iter()
                .filter(move |layer| layer.is_additive() == additive && layer.weight() > 0.0)
                .filter_map(|layer| Some((layer, clips.get(layer.clip().index())?)))
        };
        let allowed = |layer: &AnimationLayer, target: GameObject| {
            layer
                .mask()
                .and_then(|mask| masks.get(mask.index()))
                .is_none_or(|mask| mask.contains(target))
        };
        for (layer, clip) in playing(false) {
            for channel in clip.channels() {
                if allowed(layer, channel.target()) {
                    self.blend(channel, layer.time(), layer.weight(), root);
                }
            }
        }
        for entry in &mut self.entries {
            if entry.count < 2 {
                continue;
            }
            match entry.property {
                AnimatedProperty::Translation | AnimatedProperty::Scale => {
                    entry.vec /= entry.total;
                }
                AnimatedProperty::Rotation => {
                    let fallback = Vec4::from(entry.rotation);
                    entry.rotation = Quat::from_vec4(entry.sum.normalize_or(fallback));
                }
                AnimatedProperty::Weights => {
                    for w in &mut self.weights[entry.start..entry.start + entry.len] {
                        *w /= entry.total;
                    }
                }
            }
        }
        for (layer, clip) in playing(true) {
            for channel in clip.channels() {
                if allowed(layer, channel.target()) {
                    self.add(channel, layer.time(), layer.weight(), root);
                }
            }
        }
    }

    /// The accumulator for `target`'s `property`, made on first use.
    fn entry(&mut self, target: GameObject, property: AnimatedProperty, targets: usize) -> usize {
        let (entries, weights) = (&mut self.entries, &mut self.weights);
        *self.index.entry((target, property)).or_insert_with(|| {
            let start = weights.len();
            if property == AnimatedProperty::Weights {
                weights.resize(start + targets, 0.0);
            }
            entries.push(Entry {
                target,
                property,
                total: 0.0,
                count: 0,
                vec: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                sum: Vec4::ZERO,
                start,
                len: if property == AnimatedProperty::Weights {
                    targets
                } else {
                    0
                },
            });
            entries.len() - 1
        })
    }

    /// Adds one blended layer's sample with `weight` (> 0).
    fn blend(
        &mut self,
        channel: &AnimationChannel,
        time: f32,
        weight: f32,
        root: Option<GameObject>,
    ) {
        let target = channel.target();
        let slot = self.entry(target, channel.property(), channel.morph_targets());
        let entry = &mut self.entries[slot];
        // The first sample is kept as it is (one layer writes its clip's
        // values bit for bit); a second turns the sum into a weighted one.
        match channel.sample(time) {
            Some(Sample::Translation(mut v)) => {
                if root == Some(target) {
                    // Root motion: the bone keeps the clip's start X and Z.
                    let start = RootCurve(channel).at(0.0);
                    v.x = start.x;
                    v.z = start.z;
                }
                entry.add_vec(v, weight);
            }
            Some(Sample::Scale(v)) => entry.add_vec(v, weight),
            Some(Sample::Rotation(q)) => {
                if entry.count == 0 {
                    entry.rotation = q;
                }
                let aligned = if entry.rotation.dot(q) < 0.0 { -q } else { q };
                entry.sum += Vec4::from(aligned) * weight;
                entry.count += 1;
                entry.total += weight;
            }
            None => {
                self.sample.resize(entry.len, 0.0);
                if !channel.sample_weights(time, &mut self.sample) {
                    return;
                }
                let n = entry.len.min(channel.morph_targets());
                let out = &mut self.weights[entry.start..entry.start + n];
                if entry.count == 0 {
                    out.copy_from_slice(&self.sample[..n]);
                } else {
                    if entry.count == 1 {
                        out.iter_mut().for_each(|w| *w *= entry.total);
                    }
                    for (w, s) in out.iter_mut().zip(&self.sample) {
                        *w += s * weight;
                    }
                }
                entry.count += 1;
                entry.total += weight;
            }
        }
    }

    /// Adds one additive layer's change since its clip's first frame, times
    /// `weight`, to a property the blended layers animate.
    fn add(
        &mut self,
        channel: &AnimationChannel,
        time: f32,
        weight: f32,
        root: Option<GameObject>,
    ) {
        let target = channel.target();
        let Some(&slot) = self.index.get(&(target, channel.property())) else {
            return; // nothing blended to add to
        };
        let entry = &mut self.entries[slot];
        match (channel.sample(time), channel.sample(0.0)) {
            (Some(Sample::Translation(now)), Some(Sample::Translation(start))) => {
                let mut change = now - start;
                if root == Some(target) {
                    change.x = 0.0;
                    change.z = 0.0;
                }
                entry.vec += change * weight;
            }
            (Some(Sample::Scale(now)), Some(Sample::Scale(start))) => {
                entry.vec += (now - start) * weight;
            }
            (Some(Sample::Rotation(now)), Some(Sample::Rotation(start))) => {
                let delta = now * start.inverse();
                entry.rotation = (Quat::IDENTITY.slerp(delta, weight) * entry.rotation).normalize();
            }
            _ => {
                let len = entry.len.min(channel.morph_targets());
                self.sample.resize(len, 0.0);
                self.reference.resize(len, 0.0);
                if !channel.sample_weights(time, &mut self.sample)
                    || !channel.sample_weights(0.0, &mut self.reference)
                {
                    return;
                }
                let out = &mut self.weights[entry.start..entry.start + len];
                for ((w, now), start) in out.iter_mut().zip(&self.sample).zip(&self.reference) {
                    *w += (now - start) * weight;
                }
            }
        }
    }
}

impl Entry {
    fn add_vec(&mut self, v: Vec3, weight: f32) {
        match self.count {
            0 => self.vec = v,
            1 => self.vec = self.vec * self.total + v * weight,
            _ => self.vec += v * weight,
        }
        self.count += 1;
        self.total += weight;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(from: f32, step: f32, duration: f32, looping: bool) -> (f32, Vec<Leg>) {
        let mut legs = Vec::new();
        let to = travel(from, step, duration, looping, |leg| legs.push(leg));
        (to, legs)
    }

    #[test]
    fn travel_clamps_or_wraps_and_names_every_leg() {
        assert_eq!(path(0.5, 1.0, 2.0, false), (1.5, vec![Leg::Span(0.5, 1.5)]));
        assert_eq!(path(1.5, 1.0, 2.0, false), (2.0, vec![Leg::Span(1.5, 2.0)]));
        assert_eq!(path(2.0, 1.0, 2.0, false), (2.0, vec![]));
        assert_eq!(
            path(1.5, 1.0, 2.0, true),
            (
                0.5,
                vec![Leg::Span(1.5, 2.0), Leg::Wrap, Leg::Span(0.0, 0.5)]
            )
        );
        assert_eq!(
            path(1.5, 5.0, 2.0, true),
            (
                0.5,
                vec![
                    Leg::Span(1.5, 2.0),
                    Leg::Wrap,
                    Leg::Laps(2),
                    Leg::Span(0.0, 0.5)
                ]
            )
        );
        assert_eq!(
            path(0.5, -1.0, 2.0, true),
            (
                1.5,
                vec![Leg::Span(0.5, 0.0), Leg::Wrap, Leg::Span(2.0, 1.5)]
            )
        );
        assert_eq!(path(0.5, -0.5, 2.0, true), (0.0, vec![Leg::Span(0.5, 0.0)]));
        assert_eq!(path(0.5, 3.0, 0.0, true), (0.0, vec![]));
    }
}
