//! The [`Decal`] component: a texture projected through the object's box
//! onto the opaque surfaces inside it. The presenter hands every active
//! decal to the renderer each frame, as a
//! [`DecalDraw`](taos_renderer::features::DecalDraw) (see the renderer's
//! decal feature for how each preset draws it).

use bevy_ecs::component::Component;
use glam::{Affine3A, Vec3, Vec4};
use taos_renderer::features::{DEFAULT_FADE_ANGLE, DecalDraw};
use taos_renderer::resources::TextureId;

/// A projected decal on a game object.
///
/// Its box is [`size`](Self::size) across, centred on the object and
/// turned and scaled with it; it projects along the object's local **-Z**
/// (surfaces facing the object's +Z get the full decal). The texture's top
/// is at the object's +Y.
///
/// ```
/// use taos_engine::Decal;
/// use taos_engine::renderer::resources::TextureId;
/// use glam::{Affine3A, Vec3};
///
/// let decal = Decal { order: 2, ..Decal::new(TextureId(0), Vec3::new(2.0, 1.0, 0.5)) };
/// let draw = decal.draw(Affine3A::from_translation(Vec3::X));
/// assert_eq!(draw.world.transform_point3(Vec3::splat(0.5)), Vec3::new(2.0, 0.5, 0.25));
/// assert_eq!(draw.order, 2);
/// ```
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Decal {
    /// The base colour texture (sRGB; alpha is coverage), from the
    /// renderer's asset store.
    pub base_color: TextureId,
    /// A tangent-space normal map (linear), or `None`.
    pub normal: Option<TextureId>,
    /// A roughness map (linear, green channel), or `None`.
    pub roughness: Option<TextureId>,
    /// Linear colour times the base colour; alpha is the opacity.
    pub tint: Vec4,
    /// Radians: surfaces turned further than this from the object's +Z
    /// show no decal (they fade out towards it).
    pub fade_angle: f32,
    /// Higher draws later, on top of overlapping decals.
    pub order: i32,
    /// The box's size in the object's local units (its extent along X, Y
    /// and the projection depth along Z).
    pub size: Vec3,
}

impl Decal {
    /// A decal of `base_color` through a box of `size`: white tint, the
    /// renderer's default fade angle, order 0.
    #[must_use]
    pub fn new(base_color: TextureId, size: Vec3) -> Self {
        Self {
            base_color,
            normal: None,
            roughness: None,
            tint: Vec4::ONE,
            fade_angle: DEFAULT_FADE_ANGLE,
            order: 0,
            size,
        }
    }

    /// What the renderer draws for this decal on an object whose world
    /// matrix is `world`.
    #[must_use]
    pub fn draw(&self, world: Affine3A) -> DecalDraw {
        DecalDraw {
            world: world * Affine3A::from_scale(self.size),
            base_color: self.base_color,
            normal: self.normal,
            roughness: self.roughness,
            tint: self.tint,
            fade_angle: self.fade_angle,
            order: self.order,
        }
    }
}
