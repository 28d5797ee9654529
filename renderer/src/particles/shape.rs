//! [`EmitterShape`]: where in the emitter's space a particle starts and
//! which way it leaves. The emitter's local +Y is "up": the cone's axis and
//! the box's launch direction.

use std::sync::Arc;

use glam::Vec3;

use crate::resources::MeshData;

/// A point on a mesh's surface and the surface's normal there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfacePoint {
    /// Position in the emitter's space.
    pub position: Vec3,
    /// Unit normal: the particle's launch direction.
    pub normal: Vec3,
}

/// Where particles start.
#[derive(Debug, Clone, PartialEq)]
pub enum EmitterShape {
    /// At the emitter's origin, leaving in every direction.
    Point,
    /// Inside a ball (on its surface when `shell`), leaving outwards.
    Sphere {
        /// Radius in metres.
        radius: f32,
        /// Start on the surface only.
        shell: bool,
    },
    /// On a disc of `radius`, leaving within `angle` of +Y.
    Cone {
        /// Half-angle of the cone in radians (0: straight up).
        angle: f32,
        /// Radius of the disc particles start on.
        radius: f32,
    },
    /// Inside a box of these half extents, leaving along +Y.
    Box {
        /// Half the box's size on each axis.
        half_extents: Vec3,
    },
    /// On a mesh's surface, leaving along its normal
    /// ([`EmitterShape::mesh_surface`]).
    MeshSurface(Arc<[SurfacePoint]>),
}

impl Default for EmitterShape {
    fn default() -> Self {
        Self::Cone {
            angle: 0.4,
            radius: 0.0,
        }
    }
}

/// Why a mesh cannot be an emitter's surface.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshSurfaceError {
    /// Every triangle has zero area (or a non-finite corner).
    #[error("the mesh has no triangle with an area to emit from")]
    NoArea,
}

/// Most points a mesh surface is sampled to.
pub const MAX_SURFACE_POINTS: usize = 1 << 16;

impl EmitterShape {
    /// `points` (at most [`MAX_SURFACE_POINTS`]) spread over `mesh`'s
    /// triangles by area (a fixed pattern: the same mesh gives the same
    /// points), each with its triangle's normal.
    ///
    /// # Errors
    /// [`MeshSurfaceError::NoArea`] when no triangle has an area.
    pub fn mesh_surface(mesh: &MeshData, points: usize) -> Result<Self, MeshSurfaceError> {
        let vertices = mesh.vertices();
        let corner = |index: u32| {
            vertices
                .get(index as usize)
                .map_or(Vec3::NAN, |v| Vec3::from(v.position))
        };
        let triangles: Vec<[Vec3; 3]> = mesh
            .indices()
            .chunks_exact(3)
            .map(|t| [corner(t[0]), corner(t[1]), corner(t[2])])
            .filter(|[a, b, c]| a.is_finite() && b.is_finite() && c.is_finite())
            .collect();
        let area = |[a, b, c]: &[Vec3; 3]| (*b - *a).cross(*c - *a).length() * 0.5;
        let total: f32 = triangles.iter().map(area).sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(MeshSurfaceError::NoArea);
        }
        let count = points.clamp(1, MAX_SURFACE_POINTS);
        let mut result = Vec::with_capacity(count);
        let mut triangle = 0;
        let mut seen = area(&triangles[0]);
        for i in 0..count {
            // Stratified: point i sits at the (i + 0.5)/count fraction of the area.
            let target = (i as f32 + 0.5) / count as f32 * total;
            while seen < target && triangle + 1 < triangles.len() {
                triangle += 1;
                seen += area(&triangles[triangle]);
            }
            let [a, b, c] = triangles[triangle];
            let (mut u, mut v) = (
                super::random::unit_from(i as u64, 1),
                super::random::unit_from(i as u64, 2),
            );
            if u + v > 1.0 {
                (u, v) = (1.0 - u, 1.0 - v);
            }
            let normal = (b - a).cross(c - a).normalize_or(Vec3::Y);
            result.push(SurfacePoint {
                position: a + (b - a) * u + (c - a) * v,
                normal,
            });
        }
        Ok(Self::MeshSurface(result.into()))
    }

    /// Where a particle starts and the unit direction it leaves in, from
    /// four random numbers in `0..1`.
    pub(super) fn sample(&self, r: [f32; 4]) -> (Vec3, Vec3) {
        match self {
            Self::Point => (Vec3::ZERO, sphere_direction(r[0], r[1])),
            Self::Sphere { radius, shell } => {
                let direction = sphere_direction(r[0], r[1]);
                let distance = if *shell { 1.0 } else { r[2].cbrt() };
                (direction * distance * radius, direction)
            }
            Self::Cone { angle, radius } => {
                let turn = r[0] * std::f32::consts::TAU;
                // Uniform over the cap of the cone's directions.
                let cos_theta = 1.0 - r[1] * (1.0 - angle.cos());
                let sin_theta = (1.0 - cos_theta * cos_theta).max(0.0).sqrt();
                let direction =
                    Vec3::new(turn.cos() * sin_theta, cos_theta, turn.sin() * sin_theta);
                let (spot, distance) = (r[2] * std::f32::consts::TAU, r[3].sqrt() * radius);
                (
                    Vec3::new(spot.cos() * distance, 0.0, spot.sin() * distance),
                    direction,
                )
            }
            Self::Box { half_extents } => (
                (Vec3::new(r[0], r[1], r[2]) * 2.0 - 1.0) * *half_extents,
                Vec3::Y,
            ),
            Self::MeshSurface(points) => {
                let index = ((r[0] * points.len() as f32) as usize).min(points.len() - 1);
                points
                    .get(index)
                    .map_or((Vec3::ZERO, Vec3::Y), |p| (p.position, p.normal))
            }
        }
    }

    /// The shape with its numbers finite (`fix` clamps one number).
    pub(super) fn sanitized(&self, fix: &mut impl FnMut(&'static str, f32) -> f32) -> Self {
        match self {
            Self::Point => Self::Point,
            Self::Sphere { radius, shell } => Self::Sphere {
                radius: fix("sphere radius", *radius).abs(),
                shell: *shell,
            },
            Self::Cone { angle, radius } => Self::Cone {
                angle: fix("cone angle", *angle).clamp(0.0, std::f32::consts::PI),
                radius: fix("cone radius", *radius).abs(),
            },
            Self::Box { half_extents } => Self::Box {
                half_extents: Vec3::new(
                    fix("box half_extents", half_extents.x),
                    fix("box half_extents", half_extents.y),
                    fix("box half_extents", half_extents.z),
                )
                .abs(),
            },
            Self::MeshSurface(points) if points.is_empty() => Self::Point,
            Self::MeshSurface(points) => Self::MeshSurface(points.clone()),
        }
    }
}

/// A uniform unit direction from two random numbers.
fn sphere_direction(u: f32, v: f32) -> Vec3 {
    let z = 1.0 - 2.0 * u;
    let ring = (1.0 - z * z).max(0.0).sqrt();
    let turn = v * std::f32::consts::TAU;
    Vec3::new(ring * turn.cos(), z, ring * turn.sin())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::MeshData;

    #[test]
    fn shapes_start_inside_and_leave_the_right_way() {
        let samples = (0..200u64)
            .map(|i| std::array::from_fn(|k| super::super::random::unit_from(i, k as u32)));
        let cone = EmitterShape::Cone {
            angle: 0.3,
            radius: 1.0,
        };
        let sphere = EmitterShape::Sphere {
            radius: 2.0,
            shell: true,
        };
        for r in samples {
            let (at, direction) = cone.sample(r);
            assert!(at.length() <= 1.0 + 1e-5 && at.y == 0.0);
            assert!(direction.angle_between(Vec3::Y) <= 0.3 + 1e-4);
            let (at, direction) = sphere.sample(r);
            assert!((at.length() - 2.0).abs() < 1e-4);
            assert!((direction.length() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn a_mesh_surface_spreads_points_over_its_triangles() {
        let cube = MeshData::cube(1.0);
        let EmitterShape::MeshSurface(points) = EmitterShape::mesh_surface(&cube, 600).unwrap()
        else {
            panic!("not a mesh surface")
        };
        assert_eq!(points.len(), 600);
        // Every face of a cube has a sixth of the area: about 100 points each.
        let up = points.iter().filter(|p| p.normal.y > 0.9).count();
        assert!((80..=120).contains(&up), "{up}");
        assert!(
            points
                .iter()
                .all(|p| p.position.abs().max_element() <= 0.5 + 1e-5)
        );
    }
}
