//! The uniform blocks the atmosphere shaders read (`Atmosphere` and `View`
//! in `common.wgsl` and `sky.wgsl`).

use glam::{Mat4, Vec3};

use super::Atmosphere;

/// Height of the viewer the sky is seen from, in km: 200 m above the
/// ground, wherever the camera is. The sky is a function of the view
/// direction alone, so it can be baked into a cube map and the sky-view
/// table need not follow the camera. (Capped at half the atmosphere's
/// height for thin atmospheres.)
pub(crate) const VIEWER_ALTITUDE_KM: f32 = 0.2;

/// `Atmosphere` in `common.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct AtmosphereUniform {
    radii: [f32; 4],
    rayleigh: [f32; 4],
    mie_scattering: [f32; 4],
    mie_absorption: [f32; 4],
    ozone: [f32; 4],
    ground: [f32; 4],
    sun: [f32; 4],
}

impl AtmosphereUniform {
    /// The block for `settings` (already sanitised) and a unit direction
    /// `towards_sun`.
    #[must_use]
    pub(crate) fn new(settings: &Atmosphere, towards_sun: Vec3) -> Self {
        let bottom = settings.planet_radius;
        let top = bottom + settings.atmosphere_height;
        let viewer = bottom + VIEWER_ALTITUDE_KM.min(0.5 * settings.atmosphere_height);
        Self {
            radii: [bottom, top, viewer, settings.sun_angular_radius],
            rayleigh: settings
                .rayleigh_scattering
                .extend(settings.rayleigh_scale_height)
                .to_array(),
            mie_scattering: settings
                .mie_scattering
                .extend(settings.mie_scale_height)
                .to_array(),
            mie_absorption: settings
                .mie_absorption
                .extend(settings.mie_anisotropy)
                .to_array(),
            ozone: settings
                .ozone_absorption
                .extend(settings.ozone_peak_altitude)
                .to_array(),
            ground: settings
                .ground_albedo
                .extend(settings.ozone_half_width)
                .to_array(),
            sun: towards_sun.extend(settings.sun_illuminance).to_array(),
        }
    }
}

/// `View` in `sky.wgsl`: the matrix a sky draw turns pixels into view rays with.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct ViewUniform {
    inverse_view_proj: [[f32; 4]; 4],
}

impl ViewUniform {
    /// The block for a camera's `view_proj` (world to clip). A matrix that
    /// cannot be inverted, or is not finite, is replaced by a camera looking
    /// along -Z with a 90 degree field of view, so the sky stays defined.
    #[must_use]
    pub(crate) fn from_view_proj(view_proj: Mat4) -> Self {
        let inverse = view_proj.inverse();
        let inverse = if view_proj.determinant().abs() > f32::MIN_POSITIVE && inverse.is_finite() {
            inverse
        } else {
            let fallback = glam::camera::rh::proj::directx::perspective(
                std::f32::consts::FRAC_PI_2,
                1.0,
                0.1,
                10.0,
            );
            fallback.inverse()
        };
        Self {
            inverse_view_proj: inverse.to_cols_array_2d(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewer_stays_inside_a_thin_atmosphere() {
        let thin = Atmosphere {
            atmosphere_height: 0.1,
            ..Atmosphere::default()
        };
        let block = AtmosphereUniform::new(&thin, Vec3::Y);
        assert!(block.radii[2] < block.radii[1]);
        assert!(block.radii[2] > block.radii[0]);
    }

    #[test]
    fn a_singular_matrix_gets_a_finite_inverse() {
        for matrix in [Mat4::ZERO, Mat4::from_cols_array(&[f32::NAN; 16])] {
            let block = ViewUniform::from_view_proj(matrix);
            assert!(
                block
                    .inverse_view_proj
                    .iter()
                    .flatten()
                    .all(|x| x.is_finite())
            );
        }
    }
}
