//! View frusta and the bounding-box test that culls draws against them.
//!
//! Planes come from a view-projection matrix in wgpu's clip space
//! (x, y in -1..1, depth 0..1), extracted the Gribb–Hartmann way. Boxes are
//! tested conservatively: a box is rejected only when it lies wholly behind
//! one plane, so a box that straddles a frustum corner may be kept, never the
//! other way round. NaN in a box or a matrix keeps the box.

use std::cmp::Ordering;

use glam::{Affine3A, Mat4, Vec3, Vec3A, Vec4};

/// Where the near plane sits among [`Frustum`]'s planes.
const NEAR: usize = 4;

/// Six inward-facing planes `(normal, d)` bounding what a view-projection
/// matrix keeps: a point `p` is inside a plane when `normal · p + d >= 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frustum {
    /// Left, right, bottom, top, near, far; normals unit length (or all zero
    /// for a degenerate plane, which rejects nothing).
    planes: [Vec4; 6],
}

impl Frustum {
    /// The frustum of a world-to-clip matrix (depth 0..1, as wgpu and
    /// `glam::camera::rh::proj::directx` produce), in world space.
    #[must_use]
    pub fn from_view_proj(view_proj: Mat4) -> Self {
        let [r0, r1, r2, r3] = [0, 1, 2, 3].map(|i| view_proj.row(i));
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|plane| {
            let length = plane.truncate().length();
            if length > f32::EPSILON && length.is_finite() {
                plane / length
            } else {
                // An infinite far plane, say: rejects nothing.
                Vec4::ZERO
            }
        });
        Self { planes }
    }

    /// The same frustum without its near plane: it reaches back without end,
    /// so a shadow caster between a light and its box is kept.
    #[must_use]
    pub fn without_near(mut self) -> Self {
        self.planes[NEAR] = Vec4::ZERO;
        self
    }

    /// The six planes: left, right, bottom, top, near, far.
    #[must_use]
    pub fn planes(&self) -> &[Vec4; 6] {
        &self.planes
    }

    /// Whether the world-space box with this `center` and `half_extent`
    /// (non-negative) may be visible: false only if it is wholly outside.
    #[must_use]
    pub fn intersects_box(&self, center: Vec3A, half_extent: Vec3A) -> bool {
        self.planes.iter().all(|plane| {
            let normal = Vec3A::from(plane.truncate());
            let distance = normal.dot(center) + plane.w;
            let radius = normal.abs().dot(half_extent);
            // Not `distance >= -radius`: NaN (unordered) keeps the box.
            distance.partial_cmp(&-radius) != Some(Ordering::Less)
        })
    }

    /// Whether the object-space box `bounds` (`(min, max)`, as
    /// [`GpuMesh::bounds`](crate::resources::GpuMesh::bounds) returns it) placed by
    /// `world` may be visible. The box is carried to world space by its centre
    /// and extents (the world box around the transformed box: conservative).
    /// An empty box (`min > max` on an axis, as an empty mesh has) is kept:
    /// it costs nothing to draw.
    #[must_use]
    pub fn intersects_transformed_aabb(&self, bounds: (Vec3, Vec3), world: &Affine3A) -> bool {
        let (min, max) = (Vec3A::from(bounds.0), Vec3A::from(bounds.1));
        if !min.cmple(max).all() {
            return true;
        }
        let center = world.transform_point3a((min + max) * 0.5);
        let local = (max - min) * 0.5;
        let m = world.matrix3;
        let half_extent =
            m.x_axis.abs() * local.x + m.y_axis.abs() * local.y + m.z_axis.abs() * local.z;
        self.intersects_box(center, half_extent)
    }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;

    /// A camera at the origin looking down -Z, 90 degrees, near 0.1, far 100.
    fn frustum() -> Frustum {
        let projection =
            glam::camera::rh::proj::directx::perspective(90f32.to_radians(), 1.0, 0.1, 100.0);
        Frustum::from_view_proj(projection)
    }

    fn unit_box() -> (Vec3, Vec3) {
        (Vec3::splat(-0.5), Vec3::splat(0.5))
    }

    fn at(x: f32, y: f32, z: f32) -> Affine3A {
        Affine3A::from_translation(Vec3::new(x, y, z))
    }

    #[test]
    fn boxes_in_front_are_kept_and_behind_or_beside_are_culled() {
        let f = frustum();
        assert!(f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, -5.0)));
        assert!(
            !f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, 5.0)),
            "behind"
        );
        assert!(
            !f.intersects_transformed_aabb(unit_box(), &at(20.0, 0.0, -5.0)),
            "right"
        );
        assert!(
            !f.intersects_transformed_aabb(unit_box(), &at(0.0, -20.0, -5.0)),
            "below"
        );
        assert!(
            !f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, -200.0)),
            "past far"
        );
        // Straddling the near plane and the side planes: kept.
        assert!(f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, 0.0)));
        assert!(f.intersects_transformed_aabb(unit_box(), &at(5.4, 0.0, -5.0)));
    }

    #[test]
    fn planes_are_normalised_in_world_space() {
        let view =
            glam::camera::rh::view::look_at_mat4(Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO, Vec3::Y);
        let projection =
            glam::camera::rh::proj::directx::perspective(90f32.to_radians(), 1.0, 0.1, 100.0);
        let f = Frustum::from_view_proj(projection * view);
        for plane in f.planes() {
            assert!((plane.truncate().length() - 1.0).abs() < 1e-4, "{plane}");
        }
        // The near plane faces the camera's forward (-X here), 0.1 in front.
        let near = f.planes()[NEAR];
        assert!(near.truncate().abs_diff_eq(Vec3::NEG_X, 1e-4), "{near}");
        assert!((near.w - (3.0 - 0.1)).abs() < 1e-3, "{near}");
    }

    #[test]
    fn a_big_box_whose_origin_is_outside_still_intersects() {
        let f = frustum();
        let big = (Vec3::splat(-10.0), Vec3::splat(10.0));
        // Origin well left of the view at depth 5, right face reaches into it.
        assert!(f.intersects_transformed_aabb(big, &at(-14.0, 0.0, -5.0)));
        // Bounds off-centre in object space: origin behind the camera.
        let forward_slab = (Vec3::new(-1.0, -1.0, -30.0), Vec3::new(1.0, 1.0, -20.0));
        assert!(f.intersects_transformed_aabb(forward_slab, &at(0.0, 0.0, 10.0)));
    }

    #[test]
    fn rotation_and_scale_are_followed() {
        let f = frustum();
        // A rod pointing back from just behind the eye, turned to point ahead.
        let rod = (Vec3::new(-0.1, -0.1, 0.0), Vec3::new(0.1, 0.1, 20.0));
        let behind = at(0.0, 0.0, 5.0);
        assert!(!f.intersects_transformed_aabb(rod, &behind));
        let turned = behind * Affine3A::from_quat(Quat::from_rotation_y(180f32.to_radians()));
        assert!(f.intersects_transformed_aabb(rod, &turned));
        // A unit box 10 behind the eye, scaled until it reaches past it.
        assert!(!f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, 10.0)));
        let scaled = at(0.0, 0.0, 10.0) * Affine3A::from_scale(Vec3::splat(24.0));
        assert!(f.intersects_transformed_aabb(unit_box(), &scaled));
    }

    #[test]
    fn without_near_keeps_what_lies_behind_the_near_plane() {
        let f = frustum();
        let behind = at(0.0, 0.0, 5.0);
        assert!(!f.intersects_transformed_aabb(unit_box(), &behind));
        // Side planes of a perspective frustum cross behind the eye, so use
        // an orthographic box, as the shadow cascades do.
        let ortho = Frustum::from_view_proj(glam::camera::rh::proj::directx::orthographic(
            -2.0, 2.0, -2.0, 2.0, 1.0, 10.0,
        ));
        assert!(!ortho.intersects_transformed_aabb(unit_box(), &behind));
        assert!(
            ortho
                .without_near()
                .intersects_transformed_aabb(unit_box(), &behind)
        );
        assert!(
            !ortho
                .without_near()
                .intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, -20.0)),
            "the far plane still culls"
        );
    }

    #[test]
    fn degenerate_input_keeps_the_box() {
        let f = frustum();
        let empty = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        assert!(f.intersects_transformed_aabb(empty, &at(0.0, 0.0, 50.0)));
        let nan = Affine3A::from_translation(Vec3::splat(f32::NAN));
        assert!(f.intersects_transformed_aabb(unit_box(), &nan));
        let infinite = glam::camera::rh::proj::directx::perspective_infinite(1.0, 1.0, 0.1);
        let f = Frustum::from_view_proj(infinite);
        assert!(f.intersects_transformed_aabb(unit_box(), &at(0.0, 0.0, -1e9)));
    }
}
