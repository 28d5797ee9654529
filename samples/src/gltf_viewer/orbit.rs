//! The viewer's orbit camera: it circles a target point, and frames a box
//! so that the whole box fits the view.

use glam::{Mat3, Quat, Vec2, Vec3};
use taos_engine::Transform;

/// Radians turned per pixel the mouse is dragged.
const TURN_PER_PIXEL: f32 = 0.008;
/// Distance factor per wheel line (closer on positive lines).
const ZOOM_PER_LINE: f32 = 0.85;
/// How far above or below the horizon the eye may go, in radians (short of
/// the poles, where "up" is undefined).
const MAX_ELEVATION: f32 = 1.5;

/// An eye on a sphere around `target`, looking at it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    /// The point looked at.
    pub target: Vec3,
    /// Eye to target, in metres.
    pub distance: f32,
    /// Angle around +Y, from +Z towards +X, in radians.
    pub yaw: f32,
    /// Angle of the eye above the target's horizontal plane, in radians.
    pub elevation: f32,
    /// Radius of the framed model: sets the zoom limits and the clip planes.
    pub radius: f32,
}

impl Orbit {
    /// Frames the box `min`..`max` for a vertical field of view of
    /// `fov_y_degrees` and an output `aspect` (width / height): the box's
    /// bounding sphere fits the narrower of the two angles, seen from the
    /// front right and a little above.
    #[must_use]
    pub fn framing(min: Vec3, max: Vec3, fov_y_degrees: f32, aspect: f32) -> Self {
        let (min, max) = if min.is_finite() && max.is_finite() && min.cmple(max).all() {
            (min, max)
        } else {
            (Vec3::splat(-1.0), Vec3::ONE)
        };
        let radius = ((max - min).length() * 0.5).max(1e-3);
        let half_v = (fov_y_degrees.to_radians() * 0.5).clamp(0.01, 1.5);
        let half_h = (half_v.tan() * aspect.max(0.01)).atan();
        let half = half_v.min(half_h);
        Self {
            target: (min + max) * 0.5,
            distance: radius / half.sin() * 1.05,
            yaw: 0.55,
            elevation: 0.4,
            radius,
        }
    }

    /// Where the eye is.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        let (sin_yaw, cos_yaw) = self.yaw.sin_cos();
        let (sin_el, cos_el) = self.elevation.sin_cos();
        self.target + Vec3::new(cos_el * sin_yaw, sin_el, cos_el * cos_yaw) * self.distance
    }

    /// The camera's transform: at the eye, looking at the target, +Y up.
    #[must_use]
    pub fn transform(&self) -> Transform {
        let forward = (self.target - self.eye()).normalize();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let rotation = Quat::from_mat3(&Mat3::from_cols(right, up, -forward));
        Transform::from_trs(self.eye(), rotation, Vec3::ONE)
    }

    /// Near and far clip planes that hold the model at this distance.
    #[must_use]
    pub fn clip_planes(&self) -> (f32, f32) {
        let near = (self.distance - self.radius * 1.5).max(self.distance * 0.01);
        let far = self.distance + self.radius * 4.0;
        (near.max(1e-4), far.max(near.max(1e-4) * 2.0))
    }

    /// Turns the eye by a mouse drag of `pixels` (right: around to the
    /// right; down: the eye goes up).
    pub fn drag(&mut self, pixels: Vec2) {
        if !pixels.is_finite() {
            return;
        }
        self.yaw -= pixels.x * TURN_PER_PIXEL;
        self.elevation =
            (self.elevation + pixels.y * TURN_PER_PIXEL).clamp(-MAX_ELEVATION, MAX_ELEVATION);
    }

    /// Moves the target across the view by a drag of `pixels` on an output
    /// `height` pixels tall with a vertical field of view of `fov_y_degrees`:
    /// the point under the cursor stays under it.
    pub fn pan(&mut self, pixels: Vec2, height: u32, fov_y_degrees: f32) {
        if !pixels.is_finite() || height == 0 {
            return;
        }
        let metres_per_pixel =
            2.0 * self.distance * (fov_y_degrees.to_radians() * 0.5).tan() / height as f32;
        let rotation = self.transform().rotation;
        let right = rotation * Vec3::X;
        let up = rotation * Vec3::Y;
        self.target += (-right * pixels.x + up * pixels.y) * metres_per_pixel;
    }

    /// Zooms by `lines` of the wheel (positive: closer), between a twentieth
    /// and a hundred times the model's radius.
    pub fn zoom(&mut self, lines: f32) {
        if !lines.is_finite() {
            return;
        }
        self.distance = (self.distance * ZOOM_PER_LINE.powf(lines))
            .clamp(self.radius * 0.05, self.radius * 100.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corners(min: Vec3, max: Vec3) -> impl Iterator<Item = Vec3> {
        (0..8).map(move |i| {
            Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        })
    }

    #[test]
    fn framing_puts_every_corner_of_the_box_inside_the_view_and_clip_planes() {
        for (min, max, aspect) in [
            (Vec3::splat(-1.0), Vec3::ONE, 4.0 / 3.0),
            (Vec3::new(10.0, 0.0, -3.0), Vec3::new(30.0, 2.0, 1.0), 0.5),
            (Vec3::ZERO, Vec3::splat(0.001), 16.0 / 9.0),
        ] {
            let orbit = Orbit::framing(min, max, 45.0, aspect);
            let view = orbit.transform().compute_local_matrix().inverse();
            let (near, far) = orbit.clip_planes();
            let tan_v = 22.5f32.to_radians().tan();
            for corner in corners(min, max) {
                let p = view.transform_point3(corner);
                let depth = -p.z;
                assert!(depth > near && depth < far, "{corner} at depth {depth}");
                assert!(p.y.abs() / depth <= tan_v, "{corner} above the view");
                assert!(p.x.abs() / depth <= tan_v * aspect, "{corner} beside it");
            }
        }
    }

    #[test]
    fn the_camera_looks_at_the_target_upright() {
        let mut orbit = Orbit::framing(Vec3::ZERO, Vec3::ONE, 45.0, 1.0);
        orbit.drag(Vec2::new(120.0, -300.0));
        let transform = orbit.transform();
        let forward = transform.rotation * Vec3::NEG_Z;
        let to_target = (orbit.target - orbit.eye()).normalize();
        assert!(forward.distance(to_target) < 1e-4);
        assert!((transform.rotation * Vec3::Y).y > 0.0, "upright");
        assert!(orbit.elevation.abs() <= MAX_ELEVATION);
    }

    #[test]
    fn zoom_and_pan_stay_in_bounds_and_ignore_nan() {
        let mut orbit = Orbit::framing(Vec3::ZERO, Vec3::ONE, 45.0, 1.0);
        let start = orbit;
        orbit.zoom(f32::NAN);
        orbit.drag(Vec2::NAN);
        orbit.pan(Vec2::NAN, 600, 45.0);
        assert_eq!(orbit, start);
        orbit.zoom(1000.0);
        assert!((orbit.distance - orbit.radius * 0.05).abs() < 1e-6);
        orbit.zoom(-1000.0);
        assert!((orbit.distance - orbit.radius * 100.0).abs() < 1e-3);
        orbit.pan(Vec2::new(10.0, 0.0), 600, 45.0);
        assert!(orbit.target.distance(start.target) > 0.0);
        assert!(
            Orbit::framing(Vec3::NAN, Vec3::ONE, 45.0, 1.0)
                .distance
                .is_finite()
        );
    }
}
