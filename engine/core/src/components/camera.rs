//! The camera component.

use bevy_ecs::component::Component;
use glam::camera::rh::proj::directx;
use glam::{Affine3A, Mat4};

/// How a camera maps view space to clip space. Depth runs 0 (near) to 1 (far),
/// as wgpu expects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Projection {
    /// Perspective with a vertical field of view.
    Perspective {
        /// Vertical field of view, radians.
        fov_y: f32,
        /// Width / height.
        aspect: f32,
        /// Near plane distance, > 0.
        near: f32,
        /// Far plane distance, > near.
        far: f32,
    },
    /// Orthographic with a fixed visible height.
    Orthographic {
        /// Half the visible height in world units.
        half_height: f32,
        /// Width / height.
        aspect: f32,
        /// Near plane distance.
        near: f32,
        /// Far plane distance, > near.
        far: f32,
    },
}

/// A projection rejected by [`Camera`]'s constructors, with the offending values.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CameraError {
    /// Field of view outside (0, 180) degrees.
    #[error("vertical field of view must be in (0, 180) degrees, got {degrees}")]
    FieldOfView {
        /// The rejected angle.
        degrees: f32,
    },
    /// Near/far planes that do not describe a depth range.
    #[error(
        "clip planes must satisfy 0 <= near < far (near > 0 for perspective), got near {near}, far {far}"
    )]
    ClipPlanes {
        /// The rejected near plane.
        near: f32,
        /// The rejected far plane.
        far: f32,
    },
    /// Aspect ratio or height that is not a positive finite number.
    #[error("{what} must be positive and finite, got {value}")]
    NotPositive {
        /// Which parameter.
        what: &'static str,
        /// The rejected value.
        value: f32,
    },
}

/// A camera. Looks down its object's local -Z with +Y up.
///
/// Its view and projection matrices are rebuilt in the scene's `update_render`
/// step, after every behaviour has moved things, so render passes always see one
/// consistent snapshot.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Camera {
    /// The projection; change it freely (e.g. the aspect on resize).
    pub projection: Projection,
    view: Mat4,
    projection_matrix: Mat4,
}

fn positive(what: &'static str, value: f32) -> Result<(), CameraError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(CameraError::NotPositive { what, value })
    }
}

impl Camera {
    /// A perspective camera.
    ///
    /// # Errors
    /// [`CameraError`] for a field of view outside (0, 180) degrees, near <= 0,
    /// far <= near, or a non-positive aspect.
    pub fn perspective(
        fov_y_degrees: f32,
        near: f32,
        far: f32,
        aspect: f32,
    ) -> Result<Self, CameraError> {
        // Checked in degrees first, so the error names the value given.
        if !(fov_y_degrees > 0.0 && fov_y_degrees < 180.0) {
            return Err(CameraError::FieldOfView {
                degrees: fov_y_degrees,
            });
        }
        Self::with_projection(Projection::Perspective {
            fov_y: fov_y_degrees.to_radians(),
            aspect,
            near,
            far,
        })
    }

    /// An orthographic camera showing `2 * half_height` world units vertically.
    ///
    /// # Errors
    /// [`CameraError`] for near < 0, far <= near, or a non-positive height or aspect.
    pub fn orthographic(
        half_height: f32,
        near: f32,
        far: f32,
        aspect: f32,
    ) -> Result<Self, CameraError> {
        Self::with_projection(Projection::Orthographic {
            half_height,
            aspect,
            near,
            far,
        })
    }

    /// A camera with `projection` as given (field of view in radians): what
    /// a scene file stores, checked as the constructors check.
    ///
    /// # Errors
    /// [`CameraError`] as [`perspective`](Self::perspective) and
    /// [`orthographic`](Self::orthographic).
    pub fn with_projection(projection: Projection) -> Result<Self, CameraError> {
        match projection {
            Projection::Perspective {
                fov_y,
                aspect,
                near,
                far,
            } => {
                if !(fov_y > 0.0 && fov_y < std::f32::consts::PI) {
                    return Err(CameraError::FieldOfView {
                        degrees: fov_y.to_degrees(),
                    });
                }
                if !(near > 0.0 && far > near && far.is_finite()) {
                    return Err(CameraError::ClipPlanes { near, far });
                }
                positive("aspect", aspect)?;
            }
            Projection::Orthographic {
                half_height,
                aspect,
                near,
                far,
            } => {
                if !(near >= 0.0 && far > near && far.is_finite()) {
                    return Err(CameraError::ClipPlanes { near, far });
                }
                positive("half_height", half_height)?;
                positive("aspect", aspect)?;
            }
        }
        Ok(Self::from_projection(projection))
    }

    fn from_projection(projection: Projection) -> Self {
        let mut camera = Self {
            projection,
            view: Mat4::IDENTITY,
            projection_matrix: Mat4::IDENTITY,
        };
        camera.projection_matrix = camera.compute_projection();
        camera
    }

    /// Changes the aspect ratio (width / height), e.g. on window resize.
    /// Non-positive or non-finite values are ignored.
    pub fn set_aspect(&mut self, new_aspect: f32) {
        if !(new_aspect.is_finite() && new_aspect > 0.0) {
            return;
        }
        match &mut self.projection {
            Projection::Perspective { aspect, .. } | Projection::Orthographic { aspect, .. } => {
                *aspect = new_aspect;
            }
        }
        self.projection_matrix = self.compute_projection();
    }

    /// Changes a perspective camera's vertical field of view (a settings
    /// screen's slider); an orthographic camera has none to change.
    ///
    /// # Errors
    /// [`CameraError::FieldOfView`] outside (0, 180) degrees (or NaN), and
    /// for an orthographic camera; the camera is left as it was.
    pub fn set_fov_y_degrees(&mut self, degrees: f32) -> Result<(), CameraError> {
        match &mut self.projection {
            Projection::Perspective { fov_y, .. } if degrees > 0.0 && degrees < 180.0 => {
                *fov_y = degrees.to_radians();
                self.projection_matrix = self.compute_projection();
                Ok(())
            }
            _ => Err(CameraError::FieldOfView { degrees }),
        }
    }

    /// World-to-view matrix as of the last `update_render`.
    #[must_use]
    pub fn view(&self) -> Mat4 {
        self.view
    }

    /// View-to-clip matrix as of the last `update_render`.
    #[must_use]
    pub fn projection_matrix(&self) -> Mat4 {
        self.projection_matrix
    }

    /// `projection * view`.
    #[must_use]
    pub fn view_projection(&self) -> Mat4 {
        self.projection_matrix * self.view
    }

    /// Rebuilds view and projection from the camera object's inverse world matrix.
    pub(crate) fn refresh(&mut self, world_to_local: &Affine3A) {
        self.view = Mat4::from(*world_to_local);
        self.projection_matrix = self.compute_projection();
    }

    fn compute_projection(&self) -> Mat4 {
        match self.projection {
            Projection::Perspective {
                fov_y,
                aspect,
                near,
                far,
            } => directx::perspective(fov_y, aspect, near, far),
            Projection::Orthographic {
                half_height,
                aspect,
                near,
                far,
            } => {
                let half_width = half_height * aspect;
                directx::orthographic(
                    -half_width,
                    half_width,
                    -half_height,
                    half_height,
                    near,
                    far,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_field_of_view_changes_the_projection_and_bad_ones_change_nothing() {
        let mut camera = Camera::perspective(70.0, 0.1, 100.0, 1.0).unwrap();
        let before = camera.projection_matrix();
        camera.set_fov_y_degrees(90.0).unwrap();
        // Wider view: a smaller x and y scale, exactly 1 / tan(45°) on y.
        let after = camera.projection_matrix();
        assert!((after.y_axis.y - 1.0).abs() < 1e-5 && after.y_axis.y < before.y_axis.y);
        for bad in [0.0, 180.0, f32::NAN] {
            assert!(camera.set_fov_y_degrees(bad).is_err());
            assert_eq!(camera.projection_matrix(), after);
        }
        let mut ortho = Camera::orthographic(5.0, 0.1, 100.0, 1.0).unwrap();
        assert!(ortho.set_fov_y_degrees(60.0).is_err());
    }
}
