//! Node animations: keyframed translation, rotation, scale and morph target weights, and
//! sampling them.

use glam::{Quat, Vec3, Vec4};
use gltf::animation::{Interpolation as GltfInterpolation, Property};

use crate::accessor::{Buffers, Encoding, read_floats};
use crate::error::{AccessorProblem, AnimationProblem, ElementName, GltfError};
use crate::index::NodeIndex;
use crate::mesh::Mesh;
use crate::nodes::Node;

/// A keyframe of a cubic spline: the value with its incoming and outgoing tangents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicKey<T> {
    /// Incoming tangent (used by the segment ending at this key).
    pub in_tangent: T,
    /// The value at the key.
    pub value: T,
    /// Outgoing tangent (used by the segment starting at this key).
    pub out_tangent: T,
}

/// Keyframe values, one per input time, with their interpolation.
#[derive(Debug, Clone, PartialEq)]
pub enum Keyframes<T> {
    /// Hold each value until the next key.
    Step(Vec<T>),
    /// Interpolate linearly (spherically for rotations).
    Linear(Vec<T>),
    /// Cubic Hermite spline (glTF spec, appendix C).
    CubicSpline(Vec<CubicKey<T>>),
}

impl<T> Keyframes<T> {
    /// Number of keys.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Step(v) | Self::Linear(v) => v.len(),
            Self::CubicSpline(v) => v.len(),
        }
    }

    /// No keys (never the case for imported animations).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The property a channel animates, with its keyframes.
#[derive(Debug, Clone, PartialEq)]
pub enum Track {
    /// The node's translation.
    Translation(Keyframes<Vec3>),
    /// The node's rotation (Step and Linear keys are unit quaternions).
    Rotation(Keyframes<Quat>),
    /// The node's scale.
    Scale(Keyframes<Vec3>),
}

/// One sampled value of a [`Track`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChannelValue {
    /// A translation.
    Translation(Vec3),
    /// A unit rotation.
    Rotation(Quat),
    /// A scale.
    Scale(Vec3),
}

/// An animation channel: keyframes of one property of one node.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The animated node.
    pub target: NodeIndex,
    /// Key times in seconds: finite, non-negative, strictly increasing, at least one.
    pub times: Vec<f32>,
    /// The property and its values (as many keys as `times`).
    pub track: Track,
}

/// An animation channel of a node's morph target weights (glTF path `weights`).
#[derive(Debug, Clone, PartialEq)]
pub struct WeightsChannel {
    /// The animated node; its mesh has [`targets`](WeightsChannel::targets) morph targets.
    pub target: NodeIndex,
    /// Key times in seconds: finite, non-negative, strictly increasing, at least one.
    pub times: Vec<f32>,
    /// How many weights each key holds (the mesh's morph target count, at least 1).
    pub targets: usize,
    /// One list of `targets` weights per key (tangents too, for cubic splines).
    pub weights: Keyframes<Vec<f32>>,
}

impl WeightsChannel {
    /// The weights at time `t` seconds, clamped to the first and last keys: Step holds, Linear
    /// lerps, CubicSpline evaluates the glTF Hermite spline, each weight on its own.
    #[must_use]
    pub fn sample(&self, t: f32) -> Vec<f32> {
        let (k, s, dt) = segment(&self.times, t);
        match &self.weights {
            Keyframes::Step(v) => v[k].clone(),
            Keyframes::Linear(v) if s == 0.0 => v[k].clone(),
            Keyframes::Linear(v) => (v[k].iter().zip(&v[k + 1]))
                .map(|(a, b)| a + (b - a) * s)
                .collect(),
            Keyframes::CubicSpline(v) if s == 0.0 => v[k].value.clone(),
            Keyframes::CubicSpline(v) => (0..self.targets)
                .map(|i| {
                    let scalar = |key: &CubicKey<Vec<f32>>| CubicKey {
                        in_tangent: key.in_tangent[i],
                        value: key.value[i],
                        out_tangent: key.out_tangent[i],
                    };
                    hermite(&scalar(&v[k]), &scalar(&v[k + 1]), s, dt)
                })
                .collect(),
        }
    }
}

/// A glTF animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    /// The animation's `name`.
    pub name: Option<String>,
    /// Its translation, rotation and scale channels.
    pub channels: Vec<Channel>,
    /// Its morph target weight channels (a `weights` channel whose node has no mesh with
    /// morph targets is skipped with a warning).
    pub weight_channels: Vec<WeightsChannel>,
}

impl Animation {
    /// The last key time of any channel, in seconds (0 without channels).
    #[must_use]
    pub fn duration(&self) -> f32 {
        let node_times = self.channels.iter().map(|c| &c.times);
        let weight_times = self.weight_channels.iter().map(|c| &c.times);
        node_times
            .chain(weight_times)
            .filter_map(|times| times.last().copied())
            .fold(0.0, f32::max)
    }
}

impl Channel {
    /// The value at time `t` seconds, clamped to the first and last keys.
    ///
    /// Step holds the previous key; Linear lerps translation and scale and slerps rotation
    /// (shortest path); CubicSpline evaluates the glTF Hermite spline, normalising rotations.
    #[must_use]
    pub fn sample(&self, t: f32) -> ChannelValue {
        let (k, s, dt) = segment(&self.times, t);
        match &self.track {
            Track::Translation(keys) => ChannelValue::Translation(sample_vec(keys, k, s, dt)),
            Track::Scale(keys) => ChannelValue::Scale(sample_vec(keys, k, s, dt)),
            Track::Rotation(keys) => ChannelValue::Rotation(sample_quat(keys, k, s, dt)),
        }
    }
}

/// The key `k` at or before `t`, the fraction `s` towards key `k + 1`, and the segment length.
/// Before the first key or at/after the last, `s = 0` on the clamped key.
fn segment(times: &[f32], t: f32) -> (usize, f32, f32) {
    let last = times.len().saturating_sub(1);
    if times.is_empty() || t.is_nan() || t <= times[0] {
        return (0, 0.0, 0.0);
    }
    if t >= times[last] {
        return (last, 0.0, 0.0);
    }
    let k = times.partition_point(|&x| x <= t) - 1;
    let dt = times[k + 1] - times[k];
    (k, (t - times[k]) / dt, dt)
}

fn hermite<T>(a: &CubicKey<T>, b: &CubicKey<T>, s: f32, dt: f32) -> T
where
    T: Copy + std::ops::Mul<f32, Output = T> + std::ops::Add<Output = T>,
{
    let (s2, s3) = (s * s, s * s * s);
    a.value * (2.0 * s3 - 3.0 * s2 + 1.0)
        + a.out_tangent * (dt * (s3 - 2.0 * s2 + s))
        + b.value * (-2.0 * s3 + 3.0 * s2)
        + b.in_tangent * (dt * (s3 - s2))
}

fn sample_vec(keys: &Keyframes<Vec3>, k: usize, s: f32, dt: f32) -> Vec3 {
    match keys {
        Keyframes::Step(v) => v[k],
        Keyframes::Linear(v) if s == 0.0 => v[k],
        Keyframes::Linear(v) => v[k].lerp(v[k + 1], s),
        Keyframes::CubicSpline(v) if s == 0.0 => v[k].value,
        Keyframes::CubicSpline(v) => hermite(&v[k], &v[k + 1], s, dt),
    }
}

fn sample_quat(keys: &Keyframes<Quat>, k: usize, s: f32, dt: f32) -> Quat {
    match keys {
        Keyframes::Step(v) => v[k],
        Keyframes::Linear(v) if s == 0.0 => v[k],
        Keyframes::Linear(v) => slerp(v[k], v[k + 1], s),
        Keyframes::CubicSpline(v) if s == 0.0 => v[k].value.normalize(),
        Keyframes::CubicSpline(v) => {
            let as_vec = |c: &CubicKey<Quat>| CubicKey {
                in_tangent: Vec4::from(c.in_tangent),
                value: Vec4::from(c.value),
                out_tangent: Vec4::from(c.out_tangent),
            };
            let q = hermite(&as_vec(&v[k]), &as_vec(&v[k + 1]), s, dt);
            try_normalize(Quat::from_vec4(q)).unwrap_or(Quat::IDENTITY)
        }
    }
}

/// `q` scaled to unit length; `None` if it is zero or not finite.
pub(crate) fn try_normalize(q: Quat) -> Option<Quat> {
    Vec4::from(q).try_normalize().map(Quat::from_vec4)
}

/// Spherical interpolation along the shortest arc (glTF spec appendix C).
fn slerp(a: Quat, b: Quat, s: f32) -> Quat {
    let mut d = a.dot(b);
    let b = if d < 0.0 {
        d = -d;
        -b
    } else {
        b
    };
    if d > 0.9995 {
        return a.lerp(b, s).normalize();
    }
    let theta = d.acos();
    let sin = theta.sin();
    let q = a * (((1.0 - s) * theta).sin() / sin) + b * ((s * theta).sin() / sin);
    q.normalize()
}

/// Reads every animation; `warnings` collects skipped weight channels. `nodes` and `meshes`
/// give each weight channel's morph target count.
pub(crate) fn import_animations(
    doc: &gltf::Document,
    buffers: &Buffers<'_>,
    nodes: &[Node],
    meshes: &[Mesh],
    file: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<Animation>, GltfError> {
    let mut out = Vec::new();
    for anim in doc.animations() {
        let name = ElementName::new(crate::ElementKind::Animation, anim.index(), anim.name());
        let mut channels = Vec::new();
        let mut weight_channels = Vec::new();
        // Channel targets come from the JSON: `gltf-json` 1.4.1 does not validate them, and
        // `gltf::animation::Target::{node, property}` unwrap.
        let json = &doc.as_json().animations[anim.index()];
        for (c, (channel, channel_json)) in anim.channels().zip(&json.channels).enumerate() {
            let channel_error = |problem| GltfError::Animation {
                file: file.to_owned(),
                animation: name.clone(),
                channel: c,
                problem,
            };
            let node = channel_json.target.node.value();
            if node >= doc.nodes().len() {
                return Err(channel_error(AnimationProblem::BadTarget {
                    node,
                    nodes: doc.nodes().len(),
                }));
            }
            let gltf::json::validation::Checked::Valid(property) = channel_json.target.path else {
                return Err(channel_error(AnimationProblem::InvalidPath));
            };
            if property == Property::MorphTargetWeights {
                let targets = nodes[node]
                    .mesh
                    .map_or(0, |m| meshes[m.0].morph_target_count());
                if targets == 0 {
                    let message = format!(
                        "{file}: {name} channel {c}: animates the weights of node {node}, which has no mesh with morph targets; skipped"
                    );
                    log::warn!("{message}");
                    warnings.push(message);
                    continue;
                }
                let context = ChannelContext {
                    channel: &channel,
                    animation: &name,
                    c,
                    buffers,
                    file,
                };
                weight_channels.push(import_weights_channel(&context, NodeIndex(node), targets)?);
                continue;
            }
            channels.push(import_channel(
                &channel,
                property,
                NodeIndex(node),
                &name,
                c,
                buffers,
                file,
            )?);
        }
        out.push(Animation {
            name: anim.name().map(str::to_owned),
            channels,
            weight_channels,
        });
    }
    Ok(out)
}

fn import_channel(
    channel: &gltf::animation::Channel<'_>,
    property: Property,
    target: NodeIndex,
    animation: &ElementName,
    c: usize,
    buffers: &Buffers<'_>,
    file: &str,
) -> Result<Channel, GltfError> {
    let accessor_error =
        |usage: &str, accessor: usize, problem: AccessorProblem| GltfError::Accessor {
            file: file.to_owned(),
            element: format!("{animation} channel {c}"),
            usage: usage.to_owned(),
            accessor,
            problem,
        };
    let channel_error = |problem| GltfError::Animation {
        file: file.to_owned(),
        animation: animation.clone(),
        channel: c,
        problem,
    };
    let sampler = channel.sampler();
    let times = read_times(&ChannelContext {
        channel,
        animation,
        c,
        buffers,
        file,
    })?;
    let interpolation = sampler.interpolation();
    let per_key = if interpolation == GltfInterpolation::CubicSpline {
        3
    } else {
        1
    };
    let output = sampler.output();
    let check_count = |outputs: usize| {
        let expected = times.len() * per_key;
        if outputs == expected {
            Ok(())
        } else {
            Err(channel_error(AnimationProblem::CountMismatch {
                inputs: times.len(),
                outputs,
                expected,
            }))
        }
    };
    let track = match property {
        Property::Rotation => {
            let values = read_floats::<4>(
                &output,
                buffers,
                "VEC4 of f32 or normalized integers",
                Encoding::Normalized,
            )
            .map_err(|p| accessor_error("output", output.index(), p))?;
            check_count(values.len())?;
            let mut quats = Vec::with_capacity(values.len());
            for (element, v) in values.into_iter().enumerate() {
                let q = Quat::from_array(v);
                let is_tangent = per_key == 3 && element % 3 != 1;
                quats.push(if is_tangent {
                    q
                } else {
                    try_normalize(q).ok_or(channel_error(AnimationProblem::BadValue { element }))?
                });
            }
            Track::Rotation(keyframes(interpolation, quats))
        }
        _ => {
            let values: Vec<Vec3> =
                read_floats::<3>(&output, buffers, "VEC3 of f32", Encoding::Float)
                    .map_err(|p| accessor_error("output", output.index(), p))?
                    .into_iter()
                    .map(Vec3::from_array)
                    .collect();
            check_count(values.len())?;
            let keys = keyframes(interpolation, values);
            if property == Property::Translation {
                Track::Translation(keys)
            } else {
                Track::Scale(keys)
            }
        }
    };
    Ok(Channel {
        target,
        times,
        track,
    })
}

/// What reading one channel needs, for messages and data.
struct ChannelContext<'a, 'b> {
    channel: &'a gltf::animation::Channel<'a>,
    animation: &'a ElementName,
    c: usize,
    buffers: &'a Buffers<'b>,
    file: &'a str,
}

impl ChannelContext<'_, '_> {
    fn channel_error(&self, problem: AnimationProblem) -> GltfError {
        GltfError::Animation {
            file: self.file.to_owned(),
            animation: self.animation.clone(),
            channel: self.c,
            problem,
        }
    }

    fn accessor_error(&self, usage: &str, accessor: usize, problem: AccessorProblem) -> GltfError {
        GltfError::Accessor {
            file: self.file.to_owned(),
            element: format!("{} channel {}", self.animation, self.c),
            usage: usage.to_owned(),
            accessor,
            problem,
        }
    }
}

/// Reads a channel's input times: at least one, finite, non-negative, strictly increasing.
fn read_times(context: &ChannelContext<'_, '_>) -> Result<Vec<f32>, GltfError> {
    let input = context.channel.sampler().input();
    let times: Vec<f32> =
        read_floats::<1>(&input, context.buffers, "SCALAR of f32", Encoding::Float)
            .map_err(|p| context.accessor_error("input", input.index(), p))?
            .into_iter()
            .map(|[t]| t)
            .collect();
    if times.is_empty() {
        return Err(context.channel_error(AnimationProblem::Empty));
    }
    for (key, &time) in times.iter().enumerate() {
        if !(time.is_finite() && time >= 0.0) {
            return Err(context.channel_error(AnimationProblem::BadTime { key, time }));
        }
        if key > 0 && time <= times[key - 1] {
            return Err(context.channel_error(AnimationProblem::TimesNotIncreasing {
                key,
                time,
                previous: times[key - 1],
            }));
        }
    }
    Ok(times)
}

/// Reads a `weights` channel of a node whose mesh has `targets` morph targets.
fn import_weights_channel(
    context: &ChannelContext<'_, '_>,
    target: NodeIndex,
    targets: usize,
) -> Result<WeightsChannel, GltfError> {
    let times = read_times(context)?;
    let sampler = context.channel.sampler();
    let interpolation = sampler.interpolation();
    let per_key = if interpolation == GltfInterpolation::CubicSpline {
        3
    } else {
        1
    };
    let output = sampler.output();
    let values = read_floats::<1>(
        &output,
        context.buffers,
        "SCALAR of f32 or normalized integers",
        Encoding::Normalized,
    )
    .map_err(|p| context.accessor_error("output", output.index(), p))?;
    let expected = times.len().saturating_mul(targets).saturating_mul(per_key);
    if values.len() != expected {
        return Err(
            context.channel_error(AnimationProblem::WeightsCountMismatch {
                inputs: times.len(),
                targets,
                outputs: values.len(),
                expected,
            }),
        );
    }
    // One Vec per key and tangent: charge its header before allocating them.
    let lists = (values.len() / targets) as u64;
    context
        .buffers
        .charge(lists.saturating_mul(std::mem::size_of::<Vec<f32>>() as u64))
        .map_err(|(needed, remaining)| {
            context.accessor_error(
                "output",
                output.index(),
                AccessorProblem::TooLarge { needed, remaining },
            )
        })?;
    let per_key_lists: Vec<Vec<f32>> = values
        .chunks_exact(targets)
        .map(|key| key.iter().map(|[w]| *w).collect())
        .collect();
    Ok(WeightsChannel {
        target,
        times,
        targets,
        weights: keyframes(interpolation, per_key_lists),
    })
}

fn keyframes<T: Clone>(interpolation: GltfInterpolation, values: Vec<T>) -> Keyframes<T> {
    match interpolation {
        GltfInterpolation::Step => Keyframes::Step(values),
        GltfInterpolation::Linear => Keyframes::Linear(values),
        GltfInterpolation::CubicSpline => Keyframes::CubicSpline(
            values
                .chunks_exact(3)
                .map(|k| CubicKey {
                    in_tangent: k[0].clone(),
                    value: k[1].clone(),
                    out_tangent: k[2].clone(),
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(times: Vec<f32>, track: Track) -> Channel {
        Channel {
            target: NodeIndex(0),
            times,
            track,
        }
    }

    fn translation(v: ChannelValue) -> Vec3 {
        match v {
            ChannelValue::Translation(v) => v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn step_holds_and_clamps() {
        let c = channel(
            vec![1.0, 2.0],
            Track::Scale(Keyframes::Step(vec![Vec3::ONE, Vec3::splat(2.0)])),
        );
        assert_eq!(c.sample(0.0), ChannelValue::Scale(Vec3::ONE));
        assert_eq!(c.sample(1.99), ChannelValue::Scale(Vec3::ONE));
        assert_eq!(c.sample(2.0), ChannelValue::Scale(Vec3::splat(2.0)));
        assert_eq!(c.sample(9.0), ChannelValue::Scale(Vec3::splat(2.0)));
        assert_eq!(c.sample(f32::NAN), ChannelValue::Scale(Vec3::ONE));
    }

    #[test]
    fn linear_lerps_translation() {
        let c = channel(
            vec![0.0, 2.0],
            Track::Translation(Keyframes::Linear(vec![
                Vec3::ZERO,
                Vec3::new(4.0, 0.0, -2.0),
            ])),
        );
        assert_eq!(translation(c.sample(0.5)), Vec3::new(1.0, 0.0, -0.5));
        assert_eq!(translation(c.sample(-1.0)), Vec3::ZERO);
    }

    #[test]
    fn linear_rotation_slerps_the_short_way() {
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let c = channel(
            vec![0.0, 1.0],
            Track::Rotation(Keyframes::Linear(vec![a, -b])),
        );
        let ChannelValue::Rotation(q) = c.sample(0.5) else {
            panic!()
        };
        // Halfway is 45° about +Z, even though the key is stored as -b.
        assert!(
            q.angle_between(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)) < 1e-4,
            "{q}"
        );
    }

    #[test]
    fn cubic_spline_matches_hand_computed_hermite() {
        // One dimension: v0 = 0, b0 = 1 (out), v1 = 1, a1 = 0 (in), t in [0, 2].
        let key = |v: f32, i: f32, o: f32| CubicKey {
            in_tangent: Vec3::splat(i),
            value: Vec3::splat(v),
            out_tangent: Vec3::splat(o),
        };
        let c = channel(
            vec![0.0, 2.0],
            Track::Translation(Keyframes::CubicSpline(vec![
                key(0.0, 0.0, 1.0),
                key(1.0, 0.0, 0.0),
            ])),
        );
        // s = 0.5, dt = 2: (-2/8+3/4)*1 + 2*(1/8-2/4+1/2)*1 = 0.5 + 0.25 = 0.75
        assert!((translation(c.sample(1.0)).x - 0.75).abs() < 1e-6);
        assert_eq!(translation(c.sample(2.0)).x, 1.0);
        assert_eq!(translation(c.sample(0.0)).x, 0.0);
    }

    #[test]
    fn cubic_rotation_is_normalised() {
        let key = |q: Quat| CubicKey {
            in_tangent: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            value: q,
            out_tangent: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        };
        let b = Quat::from_rotation_y(1.0);
        let c = channel(
            vec![0.0, 1.0],
            Track::Rotation(Keyframes::CubicSpline(vec![key(Quat::IDENTITY), key(b)])),
        );
        let ChannelValue::Rotation(q) = c.sample(0.5) else {
            panic!()
        };
        assert!((q.length() - 1.0).abs() < 1e-6);
        // Zero tangents, symmetric: halfway between the keys, so 0.5 rad about +Y.
        assert!(q.angle_between(Quat::from_rotation_y(0.5)) < 1e-3, "{q}");
    }
}
