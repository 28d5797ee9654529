//! Keyframe sampling: where a time falls among the keys, and the step,
//! linear and cubic-spline interpolation of `Vec3` and `Quat` values.
//!
//! Pure functions over validated keyframes (see
//! [`AnimationClip::new`](super::AnimationClip::new)): `times` is non-empty,
//! finite and strictly increasing, and `values` holds one value per key (three
//! per key for cubic splines: in-tangent, value, out-tangent).
//!
//! Cubic splines follow the glTF 2.0 specification (appendix C,
//! "Interpolation"): between keys `k` and `k + 1`, with `td` the interval
//! between their times and `u` in `0..1`,
//!
//! ```text
//! p(u) = (2u³ - 3u² + 1) v_k + (u³ - 2u² + u) td b_k + (-2u³ + 3u²) v_k+1 + (u³ - u²) td a_k+1
//! ```
//!
//! where `b_k` is key `k`'s out-tangent and `a_k+1` key `k + 1`'s in-tangent.
//! Rotations are interpolated as 4-vectors and normalised after.

use std::ops::{Add, Mul};

use glam::{Quat, Vec3, Vec4};

use super::Interpolation;

/// Where a sample time falls among the key times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Segment {
    /// At or outside a key: before the first (or NaN), after the last, or a
    /// clip with a single key. Holds that key's index.
    Key(usize),
    /// Strictly between key `index` and key `index + 1`, `u` of the way
    /// (`0 <= u < 1`), the keys `interval` seconds apart.
    Between {
        /// The key before the time.
        index: usize,
        /// The fraction of the interval elapsed.
        u: f32,
        /// Seconds from key `index` to key `index + 1`.
        interval: f32,
    },
}

/// Finds the keys around `time`; sampling is clamped before the first key and
/// after the last. `times` must be non-empty and strictly increasing.
pub(crate) fn locate(times: &[f32], time: f32) -> Segment {
    let last = times.len().saturating_sub(1);
    if time.is_nan() || time <= times[0] {
        return Segment::Key(0);
    }
    if time >= times[last] {
        return Segment::Key(last);
    }
    // First key strictly after `time`: in 1..=last, as times[0] < time < times[last].
    let next = times.partition_point(|&key| key <= time);
    let index = next - 1;
    let interval = times[next] - times[index];
    Segment::Between {
        index,
        u: (time - times[index]) / interval,
        interval,
    }
}

/// Samples a translation or scale curve at `time`.
pub(crate) fn sample_vec3(
    times: &[f32],
    values: &[Vec3],
    interpolation: Interpolation,
    time: f32,
) -> Vec3 {
    match (interpolation, locate(times, time)) {
        (Interpolation::CubicSpline, Segment::Key(k)) => values[3 * k + 1],
        (_, Segment::Key(k)) => values[k],
        (Interpolation::Step, Segment::Between { index, .. }) => values[index],
        (Interpolation::Linear, Segment::Between { index, u, .. }) => {
            values[index].lerp(values[index + 1], u)
        }
        (Interpolation::CubicSpline, Segment::Between { index, u, interval }) => {
            let (p0, m0, p1, m1) = spline_segment(values, index, interval);
            hermite(p0, m0, p1, m1, u)
        }
    }
}

/// Samples a rotation curve at `time`: linear is the shortest-path slerp,
/// cubic splines are normalised after interpolating.
pub(crate) fn sample_quat(
    times: &[f32],
    values: &[Quat],
    interpolation: Interpolation,
    time: f32,
) -> Quat {
    match (interpolation, locate(times, time)) {
        (Interpolation::CubicSpline, Segment::Key(k)) => values[3 * k + 1].normalize(),
        (_, Segment::Key(k)) => values[k],
        (Interpolation::Step, Segment::Between { index, .. }) => values[index],
        (Interpolation::Linear, Segment::Between { index, u, .. }) => {
            // glam's slerp negates the end when the dot product is negative:
            // the short way round, as glTF asks.
            values[index].slerp(values[index + 1], u)
        }
        (Interpolation::CubicSpline, Segment::Between { index, u, interval }) => {
            let (p0, m0, p1, m1) = spline_segment(values, index, interval);
            let q = hermite(
                Vec4::from(p0),
                Vec4::from(m0),
                Vec4::from(p1),
                Vec4::from(m1),
                u,
            );
            // Tangents can cancel the values out; fall back to the previous key.
            Quat::from_vec4(q.normalize_or(Vec4::from(p0).normalize_or(Vec4::W)))
        }
    }
}

/// Samples a morph-weights curve of `targets` weights per key at `time`
/// into `out` (`out.len()` weights are written, at most `targets`).
///
/// Step and linear keys hold `targets` floats each; cubic-spline keys hold
/// `3 * targets`: every in-tangent, then every value, then every out-tangent
/// (glTF 2.0's layout for `weights`).
pub(crate) fn sample_weights(
    times: &[f32],
    values: &[f32],
    targets: usize,
    interpolation: Interpolation,
    time: f32,
    out: &mut [f32],
) {
    let n = out.len().min(targets);
    let per_key = interpolation.values_per_key() * targets;
    // The start of key `k`'s values (past its in-tangents for splines).
    let value_at = |k: usize| per_key * k + targets * (interpolation.values_per_key() / 2);
    match (interpolation, locate(times, time)) {
        (_, Segment::Key(k)) | (Interpolation::Step, Segment::Between { index: k, .. }) => {
            out[..n].copy_from_slice(&values[value_at(k)..value_at(k) + n]);
        }
        (Interpolation::Linear, Segment::Between { index, u, .. }) => {
            let (a, b) = (value_at(index), value_at(index + 1));
            for (i, w) in out[..n].iter_mut().enumerate() {
                *w = values[a + i] + (values[b + i] - values[a + i]) * u;
            }
        }
        (Interpolation::CubicSpline, Segment::Between { index, u, interval }) => {
            let (a, b) = (value_at(index), value_at(index + 1));
            for (i, w) in out[..n].iter_mut().enumerate() {
                let p0 = values[a + i];
                let out_tangent = values[a + targets + i] * interval;
                let p1 = values[b + i];
                let in_tangent = values[b - targets + i] * interval;
                *w = hermite(p0, out_tangent, p1, in_tangent, u);
            }
        }
    }
}

/// The value, scaled out-tangent, next value and scaled in-tangent of the
/// cubic-spline segment starting at key `index` (three entries per key).
fn spline_segment<T>(values: &[T], index: usize, interval: f32) -> (T, T, T, T)
where
    T: Copy + Mul<f32, Output = T>,
{
    let at = 3 * index;
    (
        values[at + 1],
        values[at + 2] * interval,
        values[at + 4],
        values[at + 3] * interval,
    )
}

/// The cubic Hermite curve from `p0` (tangent `m0`) to `p1` (tangent `m1`) at `u` in 0..1.
#[must_use]
pub(crate) fn hermite<T>(p0: T, m0: T, p1: T, m1: T, u: f32) -> T
where
    T: Copy + Mul<f32, Output = T> + Add<Output = T>,
{
    let u2 = u * u;
    let u3 = u2 * u;
    p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
        + m0 * (u3 - 2.0 * u2 + u)
        + p1 * (-2.0 * u3 + 3.0 * u2)
        + m1 * (u3 - u2)
}

#[cfg(test)]
mod tests {
    use std::f32::consts::{FRAC_PI_2, PI};

    use super::*;

    const EPS: f32 = 1e-5;

    fn close(a: Vec3, b: Vec3) -> bool {
        a.abs_diff_eq(b, EPS)
    }

    /// Same rotation (q and -q are the same rotation).
    fn same_rotation(a: Quat, b: Quat) -> bool {
        a.dot(b).abs() > 1.0 - EPS
    }

    #[test]
    fn locate_clamps_and_finds_the_segment() {
        let times = [0.0, 1.0, 3.0];
        assert_eq!(locate(&times, -1.0), Segment::Key(0));
        assert_eq!(locate(&times, 0.0), Segment::Key(0));
        assert_eq!(locate(&times, f32::NAN), Segment::Key(0));
        assert_eq!(locate(&times, 3.0), Segment::Key(2));
        assert_eq!(locate(&times, 99.0), Segment::Key(2));
        assert_eq!(
            locate(&times, 1.0),
            Segment::Between {
                index: 1,
                u: 0.0,
                interval: 2.0
            }
        );
        assert_eq!(
            locate(&times, 2.5),
            Segment::Between {
                index: 1,
                u: 0.75,
                interval: 2.0
            }
        );
        assert_eq!(locate(&[0.5], 0.0), Segment::Key(0));
        assert_eq!(locate(&[0.5], 7.0), Segment::Key(0));
    }

    #[test]
    fn linear_lerps_and_clamps() {
        let times = [1.0, 3.0];
        let values = [Vec3::ZERO, Vec3::new(10.0, -4.0, 2.0)];
        let at = |t| sample_vec3(&times, &values, Interpolation::Linear, t);
        assert_eq!(at(0.0), values[0], "held before the first key");
        assert!(close(at(2.0), Vec3::new(5.0, -2.0, 1.0)));
        assert!(close(at(2.5), Vec3::new(7.5, -3.0, 1.5)));
        assert_eq!(at(3.0), values[1]);
        assert_eq!(at(10.0), values[1], "held after the last key");
    }

    #[test]
    fn step_holds_the_previous_value_up_to_the_next_key() {
        let times = [0.0, 1.0, 2.0];
        let values = [Vec3::X, Vec3::Y, Vec3::Z];
        let at = |t| sample_vec3(&times, &values, Interpolation::Step, t);
        assert_eq!(at(0.0), Vec3::X);
        assert_eq!(at(0.999), Vec3::X);
        assert_eq!(at(1.0), Vec3::Y, "the new value from its key on");
        assert_eq!(at(1.5), Vec3::Y);
        assert_eq!(at(2.0), Vec3::Z);
        assert_eq!(at(5.0), Vec3::Z);

        let rotations = [Quat::IDENTITY, Quat::from_rotation_y(1.0)];
        assert_eq!(
            sample_quat(&times[..2], &rotations, Interpolation::Step, 0.9),
            Quat::IDENTITY
        );
    }

    #[test]
    fn slerp_goes_halfway_along_the_arc() {
        let times = [0.0, 1.0];
        let values = [Quat::IDENTITY, Quat::from_rotation_z(FRAC_PI_2)];
        let half = sample_quat(&times, &values, Interpolation::Linear, 0.5);
        assert!(same_rotation(half, Quat::from_rotation_z(FRAC_PI_2 / 2.0)));
        assert!((half.length() - 1.0).abs() < EPS);
    }

    #[test]
    fn slerp_takes_the_short_way_round() {
        // 350 degrees about Y written as a quaternion on the far hemisphere
        // from identity: the short way is -10 degrees, not +350.
        let times = [0.0, 1.0];
        let far = -Quat::from_rotation_y(-10f32.to_radians());
        assert!(
            Quat::IDENTITY.dot(far) < 0.0,
            "the test needs the long representation"
        );
        let values = [Quat::IDENTITY, far];
        let half = sample_quat(&times, &values, Interpolation::Linear, 0.5);
        assert!(
            same_rotation(half, Quat::from_rotation_y(-5f32.to_radians())),
            "halfway is -5 degrees, got {half:?}"
        );
        // And from 170 to -170 degrees (20 degrees apart across 180), halfway is 180.
        let values = [
            Quat::from_rotation_y(170f32.to_radians()),
            Quat::from_rotation_y(-170f32.to_radians()),
        ];
        let half = sample_quat(&times, &values, Interpolation::Linear, 0.5);
        assert!(
            same_rotation(half, Quat::from_rotation_y(PI)),
            "got {half:?}"
        );
    }

    #[test]
    fn hermite_with_zero_tangents_is_smoothstep() {
        for u in [0.0, 0.1, 0.25, 0.5, 0.8, 1.0] {
            let smoothstep = u * u * (3.0 - 2.0 * u);
            let got = hermite(0.0f32, 0.0, 1.0, 0.0, u);
            assert!(
                (got - smoothstep).abs() < EPS,
                "u {u}: {got} != {smoothstep}"
            );
        }
    }

    #[test]
    fn cubic_spline_hits_the_keys_and_eases_with_zero_tangents() {
        let times = [0.0, 2.0, 3.0];
        let v = [Vec3::ZERO, Vec3::new(4.0, 0.0, 8.0), Vec3::splat(-1.0)];
        // (in-tangent, value, out-tangent) per key, all tangents zero.
        let values: Vec<Vec3> = v
            .iter()
            .flat_map(|&v| [Vec3::ZERO, v, Vec3::ZERO])
            .collect();
        let at = |t| sample_vec3(&times, &values, Interpolation::CubicSpline, t);
        for (k, &t) in times.iter().enumerate() {
            assert_eq!(at(t), v[k], "key {k}");
        }
        assert_eq!(at(-1.0), v[0]);
        assert_eq!(at(9.0), v[2]);
        // u = 0.25 of the first segment: smoothstep(0.25) = 0.15625.
        assert!(close(at(0.5), v[1] * 0.15625), "{:?}", at(0.5));
        assert!(close(at(1.0), v[1] * 0.5));
    }

    #[test]
    fn cubic_spline_tangents_are_scaled_by_the_interval() {
        // From 0 to 0 over 2 s, with an out-tangent of 1 unit per second:
        // p(u) = (u³ - 2u² + u) * 2 * 1; at u = 0.5 that is 0.25.
        let times = [0.0, 2.0];
        let values = [
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::X,
            Vec3::ZERO,
            Vec3::ZERO,
            Vec3::ZERO,
        ];
        let got = sample_vec3(&times, &values, Interpolation::CubicSpline, 1.0);
        assert!(close(got, Vec3::new(0.25, 0.0, 0.0)), "{got:?}");
        // A straight line: value 0 -> 2 over 2 s with both tangents 1/s is linear.
        let values = [
            Vec3::X,
            Vec3::ZERO,
            Vec3::X,
            Vec3::X,
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::X,
        ];
        for t in [0.25, 0.5, 1.0, 1.7] {
            let got = sample_vec3(&times, &values, Interpolation::CubicSpline, t);
            assert!(close(got, Vec3::new(t, 0.0, 0.0)), "t {t}: {got:?}");
        }
    }

    #[test]
    fn cubic_spline_rotation_is_normalised_and_hits_the_keys() {
        let times = [0.0, 1.0];
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_x(FRAC_PI_2);
        let values = [
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            a,
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            b,
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        ];
        let at = |t| sample_quat(&times, &values, Interpolation::CubicSpline, t);
        assert!(same_rotation(at(0.0), a));
        assert!(same_rotation(at(1.0), b));
        let mid = at(0.5);
        assert!((mid.length() - 1.0).abs() < EPS, "normalised: {mid:?}");
        // Symmetric zero-tangent spline: halfway is the normalised midpoint, 45 degrees.
        assert!(
            same_rotation(mid, Quat::from_rotation_x(FRAC_PI_2 / 2.0)),
            "{mid:?}"
        );
    }

    #[test]
    fn cubic_spline_rotation_that_cancels_out_falls_back_to_the_previous_key() {
        let times = [0.0, 1.0];
        let q = Quat::from_rotation_y(0.3);
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        // Value q then -q with zero tangents: at u = 0.5 the curve passes through 0.
        let values = [zero, q, zero, zero, -q, zero];
        let mid = sample_quat(&times, &values, Interpolation::CubicSpline, 0.5);
        assert!(mid.is_finite());
        assert!(same_rotation(mid, q));
    }

    /// Random valid keyframes: sorted distinct times, unit rotations,
    /// arbitrary tangents.
    fn keys() -> impl proptest::strategy::Strategy<Value = (Vec<f32>, Vec<Quat>, Vec<Quat>)> {
        use proptest::prelude::*;
        let axis_angle = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -7.0f32..7.0);
        proptest::collection::vec((0.01f32..2.0, axis_angle.clone(), axis_angle), 1..8).prop_map(
            |keys| {
                let mut t = 0.0;
                let mut times = Vec::new();
                let mut values = Vec::new();
                let mut spline = Vec::new();
                for (gap, (x, y, z, angle), (tx, ty, tz, tw)) in keys {
                    times.push(t);
                    t += gap;
                    let axis = Vec3::new(x, y, z).try_normalize().unwrap_or(Vec3::Y);
                    let q = Quat::from_axis_angle(axis, angle);
                    let tangent = Quat::from_xyzw(tx, ty, tz, tw);
                    values.push(q);
                    spline.extend([tangent, q, -tangent]);
                }
                (times, values, spline)
            },
        )
    }

    proptest::proptest! {
        #[test]
        fn sampled_rotations_are_unit_and_hit_the_keys(
            (times, values, spline) in keys(),
            at in -1.0f32..20.0,
        ) {
            for (mode, values) in [
                (Interpolation::Step, &values),
                (Interpolation::Linear, &values),
                (Interpolation::CubicSpline, &spline),
            ] {
                let q = sample_quat(&times, values, mode, at);
                proptest::prop_assert!(q.is_finite(), "{mode:?} at {at}: {q:?}");
                proptest::prop_assert!((q.length() - 1.0).abs() < 1e-4, "{mode:?} at {at}: {q:?}");
                for (k, &time) in times.iter().enumerate() {
                    let key = sample_quat(&times, values, mode, time);
                    let want = values[k * mode.values_per_key() + mode.values_per_key() / 2];
                    proptest::prop_assert!(same_rotation(key, want), "{mode:?} key {k}");
                }
            }
        }
    }
}
