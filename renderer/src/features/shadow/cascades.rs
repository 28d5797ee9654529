//! Fitting shadow cascades to the camera frustum.

use glam::{Mat4, Vec3, Vec4};

use crate::frame::{CameraView, CascadeSettings};

/// Most cascades the atlas holds (2 x 2 tiles).
pub const MAX_CASCADES: usize = 4;

/// The sun's shadow cascades for one frame: light matrices and where each
/// cascade ends, in view depth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShadowCascades {
    /// World to light clip space per cascade (depth 0..1).
    pub view_proj: [Mat4; MAX_CASCADES],
    /// Far view depth of each cascade.
    pub splits: [f32; MAX_CASCADES],
    /// Cascades in use (1..=4).
    pub count: usize,
    /// Texels per cascade tile edge.
    pub resolution: u32,
}

/// Fits `settings.count` cascades between the camera's near plane and
/// `settings.max_distance` (or the far plane, if nearer), for a sun shining
/// along `direction`.
///
/// Splits blend logarithmic and uniform spacing by `settings.split_lambda`
/// (1 logarithmic, 0 uniform; clamped to 0..=1); each cascade
/// is a bounding sphere of its slice, so its size does not change as the
/// camera turns, and the light matrix is snapped to whole shadow texels so
/// shadows do not shimmer as the camera moves.
#[must_use]
pub fn fit_cascades(
    camera: &CameraView,
    direction: Vec3,
    settings: &CascadeSettings,
    resolution: u32,
) -> ShadowCascades {
    let count = settings.count.clamp(1, MAX_CASCADES);
    let max_distance = settings.max_distance;
    let lambda = if settings.split_lambda.is_finite() {
        settings.split_lambda.clamp(0.0, 1.0)
    } else {
        0.7
    };
    let near = camera.near.max(1e-3);
    let far = camera.far.min(max_distance).max(near + 1e-3);
    let direction = direction.normalize_or(Vec3::NEG_Y);
    let inverse = (camera.projection * camera.view).inverse();
    // Frustum corners on the near (z = 0) and far (z = 1) planes.
    let corner = |x: f32, y: f32, z: f32| {
        let p = inverse * Vec4::new(x, y, z, 1.0);
        p.truncate() / p.w
    };
    let xy = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    let near_corners = xy.map(|(x, y)| corner(x, y, 0.0));
    let far_corners = xy.map(|(x, y)| corner(x, y, 1.0));
    let full = camera.far - camera.near;
    let mut cascades = ShadowCascades {
        view_proj: [Mat4::IDENTITY; MAX_CASCADES],
        splits: [far; MAX_CASCADES],
        count,
        resolution,
    };
    let mut start = near;
    for i in 0..count {
        let t = (i + 1) as f32 / count as f32;
        let log = near * (far / near).powf(t);
        let uniform = near + (far - near) * t;
        let end = lambda * log + (1.0 - lambda) * uniform;
        let at = |d: f32, k: usize| {
            let s = ((d - camera.near) / full).clamp(0.0, 1.0);
            near_corners[k].lerp(far_corners[k], s)
        };
        let slice: [Vec3; 8] =
            std::array::from_fn(|k| if k < 4 { at(start, k) } else { at(end, k - 4) });
        let center = slice.iter().copied().sum::<Vec3>() / 8.0;
        let radius = slice.iter().map(|p| p.distance(center)).fold(0.0, f32::max);
        let radius = (radius * 16.0).ceil() / 16.0;
        let up = if direction.y.abs() > 0.99 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let eye = center - direction * (radius * 4.0);
        let view = glam::camera::rh::view::look_at_mat4(eye, center, up);
        let projection = glam::camera::rh::proj::directx::orthographic(
            -radius,
            radius,
            -radius,
            radius,
            0.0,
            radius * 8.0,
        );
        let mut view_proj = projection * view;
        // Snap the world origin to a whole texel.
        let half = resolution as f32 * 0.5;
        let origin = view_proj * Vec4::W;
        let snapped = (origin.truncate().truncate() * half).round() / half;
        let offset = snapped - origin.truncate().truncate();
        view_proj = Mat4::from_translation(Vec3::new(offset.x, offset.y, 0.0)) * view_proj;
        cascades.view_proj[i] = view_proj;
        cascades.splits[i] = end;
        start = end;
    }
    cascades
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(count: usize, max_distance: f32) -> CascadeSettings {
        CascadeSettings {
            count,
            max_distance,
            ..CascadeSettings::default()
        }
    }

    #[test]
    fn the_split_lambda_moves_the_splits() {
        let cam = camera();
        let uniform = CascadeSettings {
            split_lambda: 0.0,
            ..settings(3, 60.0)
        };
        let log = CascadeSettings {
            split_lambda: 1.0,
            ..settings(3, 60.0)
        };
        let dir = Vec3::new(-0.3, -1.0, -0.2);
        let (u, l) = (
            fit_cascades(&cam, dir, &uniform, 512),
            fit_cascades(&cam, dir, &log, 512),
        );
        assert!(
            l.splits[0] < u.splits[0],
            "log splits crowd near the camera"
        );
        assert!(
            (u.splits[0] - (0.1 + (60.0 - 0.1) / 3.0)).abs() < 1e-3,
            "{}",
            u.splits[0]
        );
    }

    fn camera() -> CameraView {
        let view =
            glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 2.0, 5.0), Vec3::ZERO, Vec3::Y);
        CameraView {
            view,
            projection: glam::camera::rh::proj::directx::perspective(1.0, 1.5, 0.1, 200.0),
            position: Vec3::new(0.0, 2.0, 5.0),
            forward: (-Vec3::new(0.0, 2.0, 5.0)).normalize(),
            near: 0.1,
            far: 200.0,
        }
    }

    #[test]
    fn cascades_cover_their_slices_and_grow_with_distance() {
        let cam = camera();
        let c = fit_cascades(&cam, Vec3::new(-0.3, -1.0, -0.2), &settings(3, 60.0), 1024);
        assert_eq!(c.count, 3);
        assert!(c.splits[0] < c.splits[1] && c.splits[1] < c.splits[2]);
        assert!(
            (c.splits[2] - 60.0).abs() < 1e-3,
            "the last cascade ends at max_distance"
        );
        // A point on the view axis inside each slice lands inside its cascade.
        let mut start = cam.near;
        for i in 0..3 {
            let d = (start + c.splits[i]) * 0.5;
            let p = cam.position + cam.forward * d;
            let clip = c.view_proj[i] * p.extend(1.0);
            assert!(
                clip.x.abs() <= 1.0 && clip.y.abs() <= 1.0,
                "cascade {i}: {clip:?}"
            );
            assert!(
                (0.0..=1.0).contains(&clip.z),
                "cascade {i} depth {}",
                clip.z
            );
            start = c.splits[i];
        }
    }

    #[test]
    fn degenerate_input_stays_finite() {
        let c = fit_cascades(&camera(), Vec3::ZERO, &settings(9, f32::INFINITY), 512);
        assert_eq!(c.count, MAX_CASCADES);
        assert!(c.view_proj.iter().all(|m| m.is_finite()));
        let straight_down = fit_cascades(&camera(), Vec3::NEG_Y, &settings(2, 30.0), 512);
        assert!(straight_down.view_proj[0].is_finite());
    }
}
