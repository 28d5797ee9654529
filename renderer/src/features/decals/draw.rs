//! [`DecalDraw`]: one projected decal as the engine hands it over each
//! frame, what makes one unusable ([`DecalError`]), and the order the
//! frame's decals are drawn in.

use glam::{Affine3A, Vec4};

use crate::resources::{Assets, TextureId};

/// Most decals drawn in one frame. The rest (later in
/// [`FrameData::decals`](crate::FrameData::decals)) are skipped and the
/// first frame that has too many logs it once. Each decal is one draw of 36
/// vertices and a 256-byte uniform slice: 4,096 of them is a 1 MiB upload,
/// already more than a scene can blend over the same pixels at interactive
/// rates on software rasterisers.
pub const MAX_DECALS: usize = 4096;

/// The fade angle of [`DecalDraw::new`]: 60 degrees.
pub const DEFAULT_FADE_ANGLE: f32 = std::f32::consts::FRAC_PI_3;

/// Where the fade towards [`DecalDraw::fade_angle`] starts, as a fraction
/// of it: a surface turned up to 70 % of the fade angle from the projection
/// axis shows the decal fully; from there to the fade angle it fades out
/// smoothly; beyond, it is hidden.
pub const FADE_START: f32 = 0.7;

/// One projected decal: textures projected through a box onto the opaque
/// surfaces inside it.
///
/// Box space: the unit cube `-0.5..0.5` on every axis, which
/// [`world`](Self::world) maps to the box in the scene. The decal projects
/// along the box's local **-Z** axis (as a projector at the box's +Z face
/// shining towards -Z): surfaces whose normal points along the box's +Z see
/// it at full strength. The texture's `u` runs along +X and its `v` down
/// -Y (the image's top row at the box's +Y face).
///
/// ```
/// use glam::{Affine3A, Quat, Vec3};
/// use taos_renderer::features::DecalDraw;
/// use taos_renderer::resources::TextureId;
///
/// // A 2 m x 2 m decal lying on the floor (y = 0), projecting downwards:
/// // the box's +Z turned to the world's +Y, 0.5 m deep.
/// let world = Affine3A::from_scale_rotation_translation(
///     Vec3::new(2.0, 2.0, 0.5),
///     Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
///     Vec3::ZERO,
/// );
/// let decal = DecalDraw { order: 1, ..DecalDraw::new(world, TextureId(0)) };
/// assert!(decal.projection_axis().unwrap().abs_diff_eq(Vec3::NEG_Y, 1e-6));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecalDraw {
    /// Box space (the unit cube `-0.5..0.5`) to world.
    pub world: Affine3A,
    /// The base colour (sRGB texture, alpha is coverage).
    pub base_color: TextureId,
    /// A tangent-space normal map (linear; +X along the box's +X, +Y along
    /// its +Y), or `None` to keep the surface's normal.
    pub normal: Option<TextureId>,
    /// A roughness map (linear; the green channel, as in glTF's
    /// metallic-roughness textures), or `None` to keep the surface's
    /// roughness in the deferred preset. The forward presets keep no
    /// surface roughness to take: there a decal without one is shaded at
    /// [`FORWARD_ROUGHNESS`].
    pub roughness: Option<TextureId>,
    /// Linear colour multiplied with the base colour; alpha is the decal's
    /// opacity.
    pub tint: Vec4,
    /// In radians: surfaces whose normal turns further than this from the
    /// box's +Z (the side the decal is projected from) are hidden; from
    /// [`FADE_START`] of it on they fade out smoothly. Clamped to
    /// `0..=PI` (PI: no fade, even back faces get the decal).
    pub fade_angle: f32,
    /// Draw order: higher draws later, on top. Decals of equal order keep
    /// their order in the list.
    pub order: i32,
}

/// The roughness a decal without a roughness map is lit with in the
/// forward presets.
pub const FORWARD_ROUGHNESS: f32 = 0.7;

impl DecalDraw {
    /// A decal through the box `world` with only a base colour, white tint,
    /// [`DEFAULT_FADE_ANGLE`] and order 0.
    #[must_use]
    pub fn new(world: Affine3A, base_color: TextureId) -> Self {
        Self {
            world,
            base_color,
            normal: None,
            roughness: None,
            tint: Vec4::ONE,
            fade_angle: DEFAULT_FADE_ANGLE,
            order: 0,
        }
    }

    /// The direction the decal is projected in, in world space (the box's
    /// -Z, unit), or `None` for a degenerate box.
    #[must_use]
    pub fn projection_axis(&self) -> Option<glam::Vec3> {
        (-glam::Vec3::from(self.world.matrix3.z_axis)).try_normalize()
    }

    /// Whether this decal can be drawn with `assets`' textures.
    ///
    /// # Errors
    /// [`DecalError`] saying what is wrong with it.
    pub fn check(&self, assets: &Assets) -> Result<(), DecalError> {
        if !self.world.is_finite() {
            return Err(DecalError::NonFiniteTransform);
        }
        let determinant = self.world.matrix3.determinant();
        if !determinant.is_normal() || determinant.abs() < MIN_BOX_VOLUME {
            return Err(DecalError::DegenerateTransform { determinant });
        }
        if !self.tint.is_finite() || !self.fade_angle.is_finite() {
            return Err(DecalError::NonFiniteParameter {
                tint: self.tint,
                fade_angle: self.fade_angle,
            });
        }
        for texture in [Some(self.base_color), self.normal, self.roughness]
            .into_iter()
            .flatten()
        {
            if assets.texture(texture).is_none() {
                return Err(DecalError::UnknownTexture { texture });
            }
        }
        Ok(())
    }
}

/// Smallest box volume (in cubic metres, the transform's determinant) a
/// decal may have: a flatter box cannot be inverted reliably.
const MIN_BOX_VOLUME: f32 = 1e-12;

/// Why a decal is skipped.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecalError {
    /// Its transform holds a NaN or an infinity.
    #[error("the decal's transform is not finite")]
    NonFiniteTransform,
    /// Its transform flattens the box (a zero scale).
    #[error("the decal's box is degenerate (determinant {determinant})")]
    DegenerateTransform {
        /// The transform's determinant (the box's volume, signed).
        determinant: f32,
    },
    /// Its tint or fade angle is not finite.
    #[error("the decal's tint {tint} or fade angle {fade_angle} is not finite")]
    NonFiniteParameter {
        /// The tint.
        tint: Vec4,
        /// The fade angle.
        fade_angle: f32,
    },
    /// One of its textures is not in the asset store.
    #[error("the decal's texture {texture:?} is not in the asset store")]
    UnknownTexture {
        /// The missing texture.
        texture: TextureId,
    },
}

/// Why decals were left out of a frame, once per kind for the logs.
#[derive(Debug, Default)]
pub(crate) struct DecalWarnings {
    bad: bool,
    too_many: bool,
}

/// The decals of `decals` to draw this frame, as indices in draw order:
/// the first [`MAX_DECALS`] that `check` accepts, stably sorted by
/// [`order`](DecalDraw::order). Refused ones are skipped; the first of
/// each kind of problem is logged once per `warnings`.
pub(crate) fn draw_order(
    decals: &[DecalDraw],
    check: impl Fn(&DecalDraw) -> Result<(), DecalError>,
    warnings: &mut DecalWarnings,
    out: &mut Vec<usize>,
) {
    out.clear();
    for (index, decal) in decals.iter().enumerate() {
        if let Err(error) = check(decal) {
            if !warnings.bad {
                warnings.bad = true;
                log::warn!(
                    "decal {index} skipped (further bad decals are skipped silently): {error}"
                );
            }
            continue;
        }
        if out.len() == MAX_DECALS {
            if !warnings.too_many {
                warnings.too_many = true;
                log::warn!(
                    "{} decals in a frame; only the first {MAX_DECALS} usable ones are drawn",
                    decals.len()
                );
            }
            break;
        }
        out.push(index);
    }
    out.sort_by_key(|&index| decals[index].order);
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn decal(order: i32) -> DecalDraw {
        DecalDraw {
            order,
            ..DecalDraw::new(Affine3A::IDENTITY, TextureId(0))
        }
    }

    #[test]
    fn bad_transforms_and_parameters_are_named() {
        let assets = Assets::new();
        let nan = DecalDraw {
            world: Affine3A::from_translation(Vec3::NAN),
            ..decal(0)
        };
        assert_eq!(nan.check(&assets), Err(DecalError::NonFiniteTransform));
        let flat = DecalDraw {
            world: Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0)),
            ..decal(0)
        };
        assert!(matches!(
            flat.check(&assets),
            Err(DecalError::DegenerateTransform { .. })
        ));
        let tint = DecalDraw {
            tint: Vec4::splat(f32::NAN),
            ..decal(0)
        };
        assert!(matches!(
            tint.check(&assets),
            Err(DecalError::NonFiniteParameter { .. })
        ));
        assert_eq!(
            decal(0).check(&assets),
            Err(DecalError::UnknownTexture {
                texture: TextureId(0)
            })
        );
    }

    #[test]
    fn the_projection_axis_is_the_box_minus_z() {
        let world = Affine3A::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        let axis = DecalDraw::new(world, TextureId(0))
            .projection_axis()
            .unwrap();
        assert!(axis.abs_diff_eq(Vec3::NEG_Y, 1e-6), "{axis}");
    }

    #[test]
    fn refused_decals_are_skipped_ties_keep_the_list_order_and_the_count_is_capped() {
        let assets = Assets::new();
        let mut warnings = DecalWarnings::default();
        let mut order = vec![7];
        // No textures at all: every decal is refused, nothing panics.
        let check = |decal: &DecalDraw| decal.check(&assets);
        draw_order(&[decal(1), decal(0)], check, &mut warnings, &mut order);
        assert!(order.is_empty());
        assert!(warnings.bad && !warnings.too_many);

        let textures_known = |decal: &DecalDraw| match decal.check(&assets) {
            Err(DecalError::UnknownTexture { .. }) | Ok(()) => Ok(()),
            Err(error) => Err(error),
        };
        let mut decals = vec![decal(2), decal(-1), decal(2), decal(0)];
        decals.insert(
            1,
            DecalDraw {
                world: Affine3A::from_scale(Vec3::ZERO),
                ..decal(5)
            },
        );
        draw_order(&decals, textures_known, &mut warnings, &mut order);
        assert_eq!(order, [2, 4, 0, 3]);

        let many = vec![decal(0); MAX_DECALS + 3];
        draw_order(&many, textures_known, &mut warnings, &mut order);
        assert_eq!(order.len(), MAX_DECALS);
        assert!(warnings.too_many);
    }
}
