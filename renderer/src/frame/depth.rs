//! The scene depth convention: reversed Z. The near plane is depth 1, the
//! far plane (and the clear value) depth 0, and nearer surfaces win with a
//! *greater* compare.
//!
//! [`CameraView::projection`](super::CameraView::projection) stays the
//! conventional `0..1` projection (near at 0) that `glam` builds; the
//! renderer rasterises through [`reversed_z`] of it. A 32-bit float holds
//! far more precision near 0 than near 1, and perspective depth crowds
//! distant surfaces towards the far value: reversed, the two cancel out and
//! a surface 10 m away lands within about a micrometre (against about
//! 0.1 mm the conventional way, with a 0.1 m near plane). Deferred lighting
//! rebuilds positions from this depth, so its precision is the lighting's.
//!
//! Shadow maps are separate depth targets with their own orthographic
//! projections and keep the conventional direction.

use glam::{Mat4, Vec4};

/// Value the scene depth is cleared to: the far plane.
pub const DEPTH_CLEAR: f32 = 0.0;
/// Depth test for surfaces that must be strictly nearer.
pub const DEPTH_NEARER: wgpu::CompareFunction = wgpu::CompareFunction::Greater;
/// Depth test for surfaces that may also lie exactly on the stored depth
/// (drawing again after a depth pre-pass).
pub const DEPTH_NEARER_OR_EQUAL: wgpu::CompareFunction = wgpu::CompareFunction::GreaterEqual;

/// `projection` with its depth flipped (`d` becomes `1 - d`): the near plane
/// at 1 and the far plane at 0.
pub fn reversed_z(projection: Mat4) -> Mat4 {
    // Clip z' = w - z, so z'/w = 1 - z/w.
    let flip = Mat4::from_cols(
        Vec4::X,
        Vec4::Y,
        Vec4::new(0.0, 0.0, -1.0, 0.0),
        Vec4::new(0.0, 0.0, 1.0, 1.0),
    );
    flip * projection
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn projection() -> Mat4 {
        glam::camera::rh::proj::directx::perspective(1.0, 1.5, 0.1, 60.0)
    }

    #[test]
    fn near_maps_to_one_and_far_to_zero() {
        let reversed = reversed_z(projection());
        let near = reversed.project_point3(Vec3::new(0.0, 0.0, -0.1));
        let far = reversed.project_point3(Vec3::new(0.0, 0.0, -60.0));
        assert!((near.z - 1.0).abs() < 1e-6, "{near}");
        assert!(far.z.abs() < 1e-6, "{far}");
    }

    #[test]
    fn reversed_depth_resolves_distant_surfaces_far_better() {
        // Positions rebuilt from a depth one float step off the exact one.
        let error_at = |projection: Mat4| {
            let inverse = projection.inverse();
            let point = Vec3::new(0.3, -0.2, -10.0);
            let depth = projection.project_point3(point);
            let nudged = f32::from_bits(depth.z.to_bits() + 1);
            let rebuilt = inverse.project_point3(Vec3::new(depth.x, depth.y, nudged));
            (rebuilt - point).length()
        };
        let conventional = error_at(projection());
        let reversed = error_at(reversed_z(projection()));
        assert!(conventional > 3e-5, "{conventional}");
        assert!(
            reversed < 2e-6 && reversed < conventional / 20.0,
            "{reversed} vs {conventional}"
        );
    }
}
