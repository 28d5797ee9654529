//! Sub-pixel jitter: where inside its pixel each frame samples the scene.
//!
//! The offsets follow the Halton (2, 3) sequence, whose points fill the
//! pixel evenly however many of them are taken, so a history that blends
//! the last frames sees the pixel's whole area, not a few fixed spots.

use glam::{Mat4, Vec2, Vec3};

/// The `index`-th element (from 1) of the radical-inverse sequence in `base`.
#[must_use]
pub fn halton(mut index: u32, base: u32) -> f32 {
    let mut fraction = 1.0;
    let mut result = 0.0;
    while index > 0 {
        fraction /= base as f32;
        result += fraction * (index % base) as f32;
        index /= base;
    }
    result
}

/// Frame `frame`'s offset from the pixel centre in pixels, each axis in
/// `(-0.5, 0.5)`, cycling through the first `length` Halton (2, 3) points.
#[must_use]
pub fn jitter_offset(frame: u64, length: u32) -> Vec2 {
    let index = (frame % u64::from(length.max(1))) as u32 + 1;
    Vec2::new(halton(index, 2), halton(index, 3)) - 0.5
}

/// `projection` moved by `offset` pixels (x right, y down) on a target
/// `size` pixels large: the same camera, sampling elsewhere in each pixel.
/// Works for perspective and orthographic projections alike.
#[must_use]
pub fn jittered_projection(projection: Mat4, offset: Vec2, size: (u32, u32)) -> Mat4 {
    let (width, height) = (size.0.max(1) as f32, size.1.max(1) as f32);
    let ndc = Vec3::new(2.0 * offset.x / width, -2.0 * offset.y / height, 0.0);
    Mat4::from_translation(ndc) * projection
}

#[cfg(test)]
mod tests {
    use glam::Vec4;

    use super::*;

    #[test]
    fn halton_points_are_the_radical_inverse() {
        let base2: Vec<f32> = (1..=4).map(|i| halton(i, 2)).collect();
        assert_eq!(base2, [0.5, 0.25, 0.75, 0.125]);
        let base3: Vec<f32> = (1..=3).map(|i| halton(i, 3)).collect();
        assert!((base3[0] - 1.0 / 3.0).abs() < 1e-6 && (base3[2] - 1.0 / 9.0).abs() < 1e-6);
    }

    #[test]
    fn offsets_cover_the_pixel_evenly_and_average_to_its_centre() {
        let offsets: Vec<Vec2> = (0..16).map(|frame| jitter_offset(frame, 16)).collect();
        assert!(offsets.iter().all(|o| o.abs().max_element() < 0.5));
        let mean = offsets.iter().copied().sum::<Vec2>() / 16.0;
        assert!(mean.length() < 0.05, "{mean}");
        // Every quadrant of the pixel gets samples.
        for (sx, sy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
            let count = offsets
                .iter()
                .filter(|o| o.x * sx > 0.0 && o.y * sy > 0.0)
                .count();
            assert!(count >= 3, "quadrant ({sx}, {sy}): {count}");
        }
        assert_eq!(jitter_offset(3, 16), jitter_offset(19, 16));
    }

    #[test]
    fn the_jitter_moves_every_point_by_the_same_pixel_offset() {
        let size = (200, 100);
        let offset = Vec2::new(0.25, -0.4);
        let to_pixels = |clip: Vec4| {
            let ndc = clip.truncate() / clip.w;
            Vec2::new((ndc.x + 1.0) * 0.5 * 200.0, (1.0 - ndc.y) * 0.5 * 100.0)
        };
        let perspective = glam::camera::rh::proj::directx::perspective(1.0, 2.0, 0.1, 100.0);
        let orthographic =
            glam::camera::rh::proj::directx::orthographic(-2.0, 2.0, -1.0, 1.0, 0.1, 100.0);
        for projection in [perspective, orthographic] {
            let jittered = jittered_projection(projection, offset, size);
            for point in [
                Vec4::new(0.3, -0.2, -2.0, 1.0),
                Vec4::new(-5.0, 3.0, -40.0, 1.0),
            ] {
                let moved = to_pixels(jittered * point) - to_pixels(projection * point);
                assert!((moved - offset).length() < 1e-3, "{moved}");
                // Depth is untouched.
                let (a, b) = (jittered * point, projection * point);
                assert!((a.z / a.w - b.z / b.w).abs() < 1e-6);
            }
        }
    }
}
