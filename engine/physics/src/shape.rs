//! [`Shape`]: the geometry of a collider or a query, checked when made.

use std::sync::Arc;

use glam::Vec3;
use rapier3d::prelude::SharedShape;
use serde::{Deserialize, Serialize};

use crate::convert::to_vector;
use crate::error::ShapeError;

/// A collider's or a query's geometry, in metres, centred on its object
/// (capsules and cylinders stand along local +Y). Made only through its
/// constructors, which refuse NaN, infinite, zero and negative sizes and
/// degenerate hulls and meshes.
///
/// ```
/// use taos_physics::Shape;
/// use glam::Vec3;
///
/// assert!(Shape::cuboid(Vec3::new(1.0, 0.5, 1.0)).is_ok());
/// assert!(Shape::ball(0.0).is_err());
/// assert!(Shape::ball(f32::NAN).is_err());
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Shape(ShapeDesc);

/// What a shape is, as stored (and serialised).
#[derive(Debug, Clone, Serialize, Deserialize)]
enum ShapeDesc {
    Cuboid {
        half_extents: Vec3,
    },
    Ball {
        radius: f32,
    },
    Capsule {
        half_height: f32,
        radius: f32,
    },
    Cylinder {
        half_height: f32,
        radius: f32,
    },
    ConvexHull {
        #[serde(with = "shared")]
        points: Arc<[Vec3]>,
    },
    TriMesh {
        #[serde(with = "shared")]
        positions: Arc<[Vec3]>,
        #[serde(with = "shared")]
        triangles: Arc<[[u32; 3]]>,
    },
}

/// Serde for shared slices (a mesh is shared by every clone of its
/// collider): written as a plain list, read back into a new share.
mod shared {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<T: Serialize, S: Serializer>(
        value: &Arc<[T]>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().serialize(serializer)
    }

    pub(super) fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Arc<[T]>, D::Error> {
        Vec::<T>::deserialize(deserializer).map(Arc::from)
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        use ShapeDesc as D;
        match (&self.0, &other.0) {
            (D::Cuboid { half_extents: a }, D::Cuboid { half_extents: b }) => a == b,
            (D::Ball { radius: a }, D::Ball { radius: b }) => a.to_bits() == b.to_bits(),
            (
                D::Capsule {
                    half_height: h1,
                    radius: r1,
                },
                D::Capsule {
                    half_height: h2,
                    radius: r2,
                },
            )
            | (
                D::Cylinder {
                    half_height: h1,
                    radius: r1,
                },
                D::Cylinder {
                    half_height: h2,
                    radius: r2,
                },
            ) => h1.to_bits() == h2.to_bits() && r1.to_bits() == r2.to_bits(),
            (D::ConvexHull { points: a }, D::ConvexHull { points: b }) => {
                Arc::ptr_eq(a, b) || a == b
            }
            (
                D::TriMesh {
                    positions: p1,
                    triangles: t1,
                },
                D::TriMesh {
                    positions: p2,
                    triangles: t2,
                },
            ) => (Arc::ptr_eq(p1, p2) || p1 == p2) && (Arc::ptr_eq(t1, t2) || t1 == t2),
            _ => false,
        }
    }
}

impl Shape {
    /// A box with these half extents (half its width, height and depth).
    ///
    /// # Errors
    /// [`ShapeError`] unless every half extent is finite and greater than zero.
    pub fn cuboid(half_extents: Vec3) -> Result<Self, ShapeError> {
        size("half extent x", half_extents.x)?;
        size("half extent y", half_extents.y)?;
        size("half extent z", half_extents.z)?;
        Ok(Self(ShapeDesc::Cuboid { half_extents }))
    }

    /// A sphere.
    ///
    /// # Errors
    /// [`ShapeError`] unless `radius` is finite and greater than zero.
    pub fn ball(radius: f32) -> Result<Self, ShapeError> {
        size("radius", radius)?;
        Ok(Self(ShapeDesc::Ball { radius }))
    }

    /// A capsule along local Y: a cylinder of `2 * half_height` capped by two
    /// half spheres of `radius` (total height `2 * (half_height + radius)`).
    ///
    /// # Errors
    /// [`ShapeError`] unless both are finite and greater than zero.
    pub fn capsule(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        size("half height", half_height)?;
        size("radius", radius)?;
        Ok(Self(ShapeDesc::Capsule {
            half_height,
            radius,
        }))
    }

    /// A cylinder along local Y.
    ///
    /// # Errors
    /// [`ShapeError`] unless both are finite and greater than zero.
    pub fn cylinder(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        size("half height", half_height)?;
        size("radius", radius)?;
        Ok(Self(ShapeDesc::Cylinder {
            half_height,
            radius,
        }))
    }

    /// The convex hull of `points` (in the object's local space).
    ///
    /// # Errors
    /// [`ShapeError::PointNotFinite`] for a NaN or infinite point,
    /// [`ShapeError::FlatHull`] for fewer than four points or points that
    /// all lie in one plane.
    pub fn convex_hull(points: &[Vec3]) -> Result<Self, ShapeError> {
        finite_points(points)?;
        if !has_volume(points) {
            return Err(ShapeError::FlatHull {
                points: points.len(),
            });
        }
        let shape = Self(ShapeDesc::ConvexHull {
            points: points.into(),
        });
        // The library's hull must agree that there is one.
        shape.build()?;
        Ok(shape)
    }

    /// A triangle mesh from vertex positions and an index list, three
    /// indices a triangle (counter-clockwise seen from outside, as the
    /// renderer's meshes). Meant for fixed level geometry: a mesh has no
    /// inside, so a dynamic body with one gets no sensible mass.
    ///
    /// # Errors
    /// [`ShapeError`] for a non-finite position, an index list that is not
    /// whole triangles, an index past the last vertex, or a mesh with no
    /// triangle that has an area.
    pub fn trimesh(positions: &[Vec3], indices: &[u32]) -> Result<Self, ShapeError> {
        finite_points(positions)?;
        if !indices.len().is_multiple_of(3) {
            return Err(ShapeError::PartialTriangle { len: indices.len() });
        }
        if let Some((index, &vertex)) = indices
            .iter()
            .enumerate()
            .find(|&(_, &v)| v as usize >= positions.len())
        {
            return Err(ShapeError::IndexOutOfRange {
                index,
                vertex,
                vertices: positions.len(),
            });
        }
        let triangles: Arc<[[u32; 3]]> = indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect();
        // A triangle has an area when its two edges from one corner are not
        // parallel (the sine of their angle, so it holds at any scale).
        let has_area = triangles.iter().any(|t| {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            let (ab, ac) = (b - a, c - a);
            let lengths = ab.length() * ac.length();
            lengths > 0.0 && ab.cross(ac).length() > 1e-6 * lengths
        });
        if !has_area {
            return Err(ShapeError::DegenerateMesh {
                triangles: triangles.len(),
            });
        }
        let shape = Self(ShapeDesc::TriMesh {
            positions: positions.into(),
            triangles,
        });
        shape.build()?;
        Ok(shape)
    }

    /// Checks the shape as its constructor did (for one that was deserialised).
    ///
    /// # Errors
    /// The [`ShapeError`] its constructor would give.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match &self.0 {
            ShapeDesc::Cuboid { half_extents } => Self::cuboid(*half_extents).map(drop),
            ShapeDesc::Ball { radius } => Self::ball(*radius).map(drop),
            ShapeDesc::Capsule {
                half_height,
                radius,
            } => Self::capsule(*half_height, *radius).map(drop),
            ShapeDesc::Cylinder {
                half_height,
                radius,
            } => Self::cylinder(*half_height, *radius).map(drop),
            ShapeDesc::ConvexHull { points } => Self::convex_hull(points).map(drop),
            ShapeDesc::TriMesh {
                positions,
                triangles,
            } => {
                let indices: Vec<u32> = triangles.iter().flatten().copied().collect();
                Self::trimesh(positions, &indices).map(drop)
            }
        }
    }

    /// The library's shape.
    pub(crate) fn build(&self) -> Result<SharedShape, ShapeError> {
        Ok(match &self.0 {
            ShapeDesc::Cuboid { half_extents } => {
                SharedShape::cuboid(half_extents.x, half_extents.y, half_extents.z)
            }
            ShapeDesc::Ball { radius } => SharedShape::ball(*radius),
            ShapeDesc::Capsule {
                half_height,
                radius,
            } => SharedShape::capsule_y(*half_height, *radius),
            ShapeDesc::Cylinder {
                half_height,
                radius,
            } => SharedShape::cylinder(*half_height, *radius),
            ShapeDesc::ConvexHull { points } => {
                let points: Vec<_> = points.iter().map(|&p| to_vector(p)).collect();
                SharedShape::convex_hull(&points).ok_or(ShapeError::FlatHull {
                    points: points.len(),
                })?
            }
            ShapeDesc::TriMesh {
                positions,
                triangles,
            } => {
                let vertices = positions.iter().map(|&p| to_vector(p)).collect();
                SharedShape::trimesh(vertices, triangles.to_vec()).map_err(|error| {
                    ShapeError::MeshRefused {
                        reason: format!("{error:?}"),
                    }
                })?
            }
        })
    }
}

fn size(what: &'static str, value: f32) -> Result<(), ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NotFinite { what, value });
    }
    if value <= 0.0 {
        return Err(ShapeError::NotPositive { what, value });
    }
    Ok(())
}

fn finite_points(points: &[Vec3]) -> Result<(), ShapeError> {
    match points.iter().position(|p| !p.is_finite()) {
        Some(index) => Err(ShapeError::PointNotFinite {
            index,
            point: points[index].to_array(),
        }),
        None => Ok(()),
    }
}

/// `true` when the points span a volume: some point lies off the plane of
/// the first three that are not in one line (relative to the points' extent).
fn has_volume(points: &[Vec3]) -> bool {
    let Some(&a) = points.first() else {
        return false;
    };
    let extent = points.iter().fold(0.0_f32, |m, p| m.max((*p - a).length()));
    if extent <= 0.0 {
        return false;
    }
    let tolerance = extent * 1e-5;
    let Some(&b) = points.iter().find(|p| (**p - a).length() > tolerance) else {
        return false;
    };
    let line = (b - a).normalize();
    let Some(normal) = points.iter().find_map(|p| {
        let n = line.cross(*p - a);
        (n.length() > tolerance).then(|| n.normalize())
    }) else {
        return false;
    };
    points.len() >= 4 && points.iter().any(|p| normal.dot(*p - a).abs() > tolerance)
}
