//! [`AmbientLight`]: the light that reaches every surface from no light in
//! particular (the sky and the ground bouncing it), so faces turned away
//! from the sun stay readable.

use glam::Vec3;

/// Ambient light as a hemisphere: surfaces facing up get
/// [`sky`](Self::sky), surfaces facing down get [`ground`](Self::ground),
/// and the rest a blend by how far their normal leans up (linear RGB,
/// times the surface's albedo and ambient occlusion).
///
/// The default lights a face turned from a sun of intensity 3 at about a
/// sixth of the lit side (linear; a third to a half as bright on screen
/// after the sRGB curve), a little more from above than from below:
/// shaded faces read, shadows stay shadows, and shapes do not look flat. It is a cheap stand
/// in for image-based lighting; with IBL on, the environment is the
/// ambient light, and the presets turn this one off unless asked.
///
/// ```
/// use glam::Vec3;
/// use taos_renderer::features::AmbientLight;
///
/// let hemisphere = AmbientLight::hemisphere(Vec3::new(0.3, 0.35, 0.45), Vec3::splat(0.1));
/// assert_eq!(hemisphere.at(Vec3::Y), Vec3::new(0.3, 0.35, 0.45));
/// assert_eq!(hemisphere.at(Vec3::NEG_Y), Vec3::splat(0.1));
/// // A plain colour is the same from every side.
/// let flat = AmbientLight::from(Vec3::splat(0.2));
/// assert_eq!(flat.at(Vec3::X), flat.at(Vec3::Y));
/// assert_eq!(AmbientLight::NONE.at(Vec3::Y), Vec3::ZERO);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmbientLight {
    /// What surfaces facing straight up receive.
    pub sky: Vec3,
    /// What surfaces facing straight down receive.
    pub ground: Vec3,
}

impl AmbientLight {
    /// No ambient light: shaded faces are black but for other lights.
    pub const NONE: Self = Self {
        sky: Vec3::ZERO,
        ground: Vec3::ZERO,
    };

    /// One colour from every direction.
    #[must_use]
    pub const fn uniform(color: Vec3) -> Self {
        Self {
            sky: color,
            ground: color,
        }
    }

    /// `sky` from above, `ground` from below.
    #[must_use]
    pub const fn hemisphere(sky: Vec3, ground: Vec3) -> Self {
        Self { sky, ground }
    }

    /// The light reaching a surface whose normal is `normal` (unit length),
    /// as the shaders compute it.
    #[must_use]
    pub fn at(&self, normal: Vec3) -> Vec3 {
        self.ground
            .lerp(self.sky, (normal.y * 0.5 + 0.5).clamp(0.0, 1.0))
    }

    /// The colours as the shaders get them: each channel finite and not
    /// below 0 (anything else reads as 0).
    #[must_use]
    pub(crate) fn sanitized(&self) -> Self {
        let clean = |c: Vec3| {
            Vec3::from_array(
                c.to_array()
                    .map(|v| if v.is_finite() { v.max(0.0) } else { 0.0 }),
            )
        };
        Self {
            sky: clean(self.sky),
            ground: clean(self.ground),
        }
    }
}

impl Default for AmbientLight {
    /// A soft sky above, a darker ground below (see [`AmbientLight`]).
    fn default() -> Self {
        Self::hemisphere(Vec3::new(0.18, 0.2, 0.23), Vec3::new(0.07, 0.065, 0.06))
    }
}

impl From<Vec3> for AmbientLight {
    /// [`AmbientLight::uniform`].
    fn from(color: Vec3) -> Self {
        Self::uniform(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_the_shaders_cannot_use_read_as_zero() {
        let bad = AmbientLight::hemisphere(Vec3::new(f32::NAN, -1.0, 0.5), Vec3::INFINITY);
        let clean = bad.sanitized();
        assert_eq!(clean.sky, Vec3::new(0.0, 0.0, 0.5));
        assert_eq!(clean.ground, Vec3::ZERO);
    }

    #[test]
    fn a_side_face_gets_the_middle_of_the_hemisphere() {
        let light = AmbientLight::hemisphere(Vec3::ONE, Vec3::ZERO);
        assert_eq!(light.at(Vec3::X), Vec3::splat(0.5));
    }
}
