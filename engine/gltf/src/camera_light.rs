//! Cameras and KHR_lights_punctual lights.

use glam::Vec3;

use crate::error::{ElementName, GltfError};

/// A camera's projection, as glTF defines it (the camera looks down its node's -Z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Projection {
    /// Perspective.
    Perspective {
        /// Vertical field of view, radians.
        yfov: f32,
        /// Width / height; `None` means "use the viewport's".
        aspect_ratio: Option<f32>,
        /// Near plane distance.
        znear: f32,
        /// Far plane distance; `None` means infinite.
        zfar: Option<f32>,
    },
    /// Orthographic.
    Orthographic {
        /// Half the view width.
        xmag: f32,
        /// Half the view height.
        ymag: f32,
        /// Near plane distance.
        znear: f32,
        /// Far plane distance.
        zfar: f32,
    },
}

/// A glTF camera.
#[derive(Debug, Clone, PartialEq)]
pub struct Camera {
    /// The camera's `name`.
    pub name: Option<String>,
    /// Its projection.
    pub projection: Projection,
}

/// What kind of punctual light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightKind {
    /// Parallel rays down the node's -Z; intensity in lux.
    Directional,
    /// From the node's origin in all directions; intensity in candela.
    Point,
    /// A cone down the node's -Z; intensity in candela.
    Spot {
        /// Angle from the axis where falloff starts, radians (default 0).
        inner_cone_angle: f32,
        /// Angle from the axis where the light ends, radians (default π/4).
        outer_cone_angle: f32,
    },
}

/// A KHR_lights_punctual light.
#[derive(Debug, Clone, PartialEq)]
pub struct Light {
    /// The light's `name`.
    pub name: Option<String>,
    /// Directional, point or spot.
    pub kind: LightKind,
    /// Linear RGB colour.
    pub color: Vec3,
    /// Intensity (lux for directional, candela otherwise).
    pub intensity: f32,
    /// Distance where the light's intensity reaches zero; `None` means infinite.
    pub range: Option<f32>,
}

/// Reads cameras from the JSON: `gltf-json` 1.4.1 only checks that *a* projection is present,
/// and `gltf::Camera::projection` unwraps the one `type` names.
pub(crate) fn import_cameras(doc: &gltf::Document, file: &str) -> Result<Vec<Camera>, GltfError> {
    use gltf::json::camera::Type;
    use gltf::json::validation::Checked;
    doc.as_json()
        .cameras
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let projection = match (&c.type_, &c.perspective, &c.orthographic) {
                (Checked::Valid(Type::Perspective), Some(p), _) => Projection::Perspective {
                    yfov: p.yfov,
                    aspect_ratio: p.aspect_ratio,
                    znear: p.znear,
                    zfar: p.zfar,
                },
                (Checked::Valid(Type::Orthographic), _, Some(o)) => Projection::Orthographic {
                    xmag: o.xmag,
                    ymag: o.ymag,
                    znear: o.znear,
                    zfar: o.zfar,
                },
                _ => {
                    return Err(GltfError::Camera {
                        file: file.to_owned(),
                        camera: ElementName::new(crate::ElementKind::Camera, i, c.name.as_deref()),
                    });
                }
            };
            Ok(Camera {
                name: c.name.clone(),
                projection,
            })
        })
        .collect()
}

pub(crate) fn import_lights(doc: &gltf::Document) -> Vec<Light> {
    doc.lights()
        .into_iter()
        .flatten()
        .map(|l| Light {
            name: l.name().map(str::to_owned),
            kind: match l.kind() {
                gltf::khr_lights_punctual::Kind::Directional => LightKind::Directional,
                gltf::khr_lights_punctual::Kind::Point => LightKind::Point,
                gltf::khr_lights_punctual::Kind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                } => LightKind::Spot {
                    inner_cone_angle,
                    outer_cone_angle,
                },
            },
            color: Vec3::from_array(l.color()),
            intensity: l.intensity(),
            range: l.range(),
        })
        .collect()
}
