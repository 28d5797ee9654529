//! Measuring a mixed buffer.

/// The root-mean-square level of each channel of interleaved stereo frames,
/// `(left, right)`. Tests and meters use it; an empty slice gives zeros.
#[must_use]
pub fn channel_rms(frames: &[[f32; 2]]) -> (f32, f32) {
    if frames.is_empty() {
        return (0.0, 0.0);
    }
    let (left, right) = frames.iter().fold((0.0f64, 0.0f64), |(l, r), f| {
        (
            l + f64::from(f[0]) * f64::from(f[0]),
            r + f64::from(f[1]) * f64::from(f[1]),
        )
    });
    let n = frames.len() as f64;
    ((left / n).sqrt() as f32, (right / n).sqrt() as f32)
}
