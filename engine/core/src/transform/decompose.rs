//! Recovering world rotation and scale from a world matrix.

use glam::{Affine3A, Mat3, Quat, Vec3};

/// Splits the linear part of `m` into a rotation and a per-axis scale.
///
/// Scale is the length of each basis column; a mirrored basis (negative
/// determinant) is expressed as a negative X scale, so the remaining basis is a
/// proper rotation. A zero-length axis has no recoverable rotation: the identity
/// is returned with the (zero) scale. Sheared matrices (non-uniform scale under a
/// rotated parent) decompose to the nearest rotation.
pub(crate) fn rotation_scale(m: &Affine3A) -> (Quat, Vec3) {
    let basis = m.matrix3;
    let mirror = if basis.determinant() < 0.0 { -1.0 } else { 1.0 };
    let scale = Vec3::new(
        basis.x_axis.length() * mirror,
        basis.y_axis.length(),
        basis.z_axis.length(),
    );
    let inverse_scale = scale.recip();
    if !inverse_scale.is_finite() {
        return (Quat::IDENTITY, scale);
    }
    let rotation = Mat3::from_cols(
        Vec3::from(basis.x_axis) * inverse_scale.x,
        Vec3::from(basis.y_axis) * inverse_scale.y,
        Vec3::from(basis.z_axis) * inverse_scale.z,
    );
    (Quat::from_mat3(&rotation).normalize(), scale)
}
