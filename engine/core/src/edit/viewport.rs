//! The editor's viewport math, without a GPU: the ray under a pixel,
//! picking the object drawn there (a ray against each mesh renderer's
//! bounds, in the object's own space, then against its triangles, nearest
//! first), and moving along a gizmo's axis by a drag.
//!
//! ```
//! use taos_core::edit::viewport::{drag_on_axis, pick, ray_through_pixel};
//! use taos_core::prelude::*;
//!
//! let mut scene = Scene::new();
//! let camera = scene.spawn_with("Camera", Transform::from_position(Vec3::new(0.0, 0.0, 5.0)));
//! scene.add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0)?)?;
//! let crate_ = scene.spawn("Crate");
//! scene.add_component(crate_, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))?;
//! let unit_cube = |_: MeshHandle| Some((Vec3::splat(-0.5), Vec3::splat(0.5)));
//!
//! let viewport = Vec2::new(640.0, 480.0);
//! let hit = pick(&scene, camera, viewport, Vec2::new(320.0, 240.0), unit_cube).unwrap();
//! assert_eq!(hit.object, crate_);
//!
//! // Dragging the X arrow 100 pixels right moves the crate along X only.
//! let from = ray_through_pixel(&scene, camera, viewport, Vec2::new(320.0, 240.0)).unwrap();
//! let to = ray_through_pixel(&scene, camera, viewport, Vec2::new(420.0, 200.0)).unwrap();
//! let moved = drag_on_axis(&from, &to, Vec3::ZERO, Vec3::X).unwrap();
//! assert!(moved.x > 0.0 && moved.y == 0.0 && moved.z == 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::Scene;
use crate::components::{Camera, MeshHandle, MeshRenderer};
use crate::object::GameObject;

/// A ray in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewRay {
    /// Where it starts (on the near plane).
    pub origin: Vec3,
    /// Its direction, unit length.
    pub direction: Vec3,
}

/// What [`pick`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Picked {
    /// The object drawn under the pixel.
    pub object: GameObject,
    /// How far along the ray it is hit, world units: where the ray meets
    /// its nearest triangle ([`pick_exact`]), or enters its bounds.
    pub distance: f32,
    /// Where it is hit, world space.
    pub point: Vec3,
}

/// The world-space ray through `pixel` (x right, y down, in a viewport
/// `viewport` pixels large) of `camera` as it is now (its object's world
/// transform and its projection). `None` for an object without a camera,
/// a zero-size viewport or a degenerate projection.
#[must_use]
pub fn ray_through_pixel(
    scene: &Scene,
    camera: GameObject,
    viewport: Vec2,
    pixel: Vec2,
) -> Option<ViewRay> {
    if !(viewport.x > 0.0 && viewport.y > 0.0 && pixel.is_finite()) {
        return None;
    }
    let lens = scene.get_component::<Camera>(camera)?;
    let view = Mat4::from(scene.world_matrix(camera)?.inverse());
    let clip_to_world = (lens.projection_matrix() * view).inverse();
    let ndc = Vec2::new(
        pixel.x / viewport.x * 2.0 - 1.0,
        1.0 - pixel.y / viewport.y * 2.0,
    );
    let unproject = |depth: f32| {
        let p = clip_to_world * Vec4::new(ndc.x, ndc.y, depth, 1.0);
        (p.w.abs() > f32::EPSILON).then(|| p.truncate() / p.w)
    };
    let (near, far) = (unproject(0.0)?, unproject(1.0)?);
    let direction = (far - near).try_normalize()?;
    near.is_finite().then_some(ViewRay {
        origin: near,
        direction,
    })
}

/// The nearest active object with a [`MeshRenderer`] whose bounds the ray
/// through `pixel` meets: each object's local bounds (`bounds` gives a
/// mesh's box, from the renderer's assets) tested in the object's own
/// space, so rotated and scaled objects pick by their real box.
#[must_use]
pub fn pick(
    scene: &Scene,
    camera: GameObject,
    viewport: Vec2,
    pixel: Vec2,
    bounds: impl Fn(MeshHandle) -> Option<(Vec3, Vec3)>,
) -> Option<Picked> {
    pick_exact(scene, camera, viewport, pixel, bounds, |_| {
        None::<&MeshTriangles>
    })
}

/// [`pick`], then against triangles: an object whose bounds the ray meets
/// is picked only where it meets one of its mesh's triangles (`triangles`
/// gives them, in the mesh's space; a mesh it has none for picks by its
/// bounds). A ray through the hole of a ring, or past the corner of a
/// sphere's box, finds what is behind.
#[must_use]
pub fn pick_exact<T: std::ops::Deref<Target = MeshTriangles>>(
    scene: &Scene,
    camera: GameObject,
    viewport: Vec2,
    pixel: Vec2,
    bounds: impl Fn(MeshHandle) -> Option<(Vec3, Vec3)>,
    triangles: impl Fn(MeshHandle) -> Option<T>,
) -> Option<Picked> {
    let ray = ray_through_pixel(scene, camera, viewport, pixel)?;
    let mut best: Option<Picked> = None;
    let world = scene.world();
    let mut query = world.try_query::<(bevy_ecs::entity::Entity, &MeshRenderer)>()?;
    for (entity, renderer) in query.iter(world) {
        let object = GameObject::from_entity(entity);
        if scene.is_active(object) != Some(true)
            || object == camera
            || scene
                .get_component::<crate::scene_file::EditorOnly>(object)
                .is_some()
        {
            continue;
        }
        let (Some((min, max)), Some(matrix)) = (bounds(renderer.mesh), scene.world_matrix(object))
        else {
            continue;
        };
        let to_local = matrix.inverse();
        let origin = to_local.transform_point3(ray.origin);
        let direction = to_local.transform_vector3(ray.direction);
        if slab(origin, direction, min, max).is_none() {
            continue;
        }
        let t = match triangles(renderer.mesh) {
            Some(mesh) => match mesh.ray_hit(origin, direction) {
                Some(t) => t,
                None => continue,
            },
            None => slab(origin, direction, min, max).unwrap_or(0.0),
        };
        let point = matrix.transform_point3(origin + direction * t);
        let distance = (point - ray.origin).length();
        if best.is_none_or(|b| distance < b.distance) {
            best = Some(Picked {
                object,
                distance,
                point,
            });
        }
    }
    best
}

/// A mesh's triangles in its own space: what [`pick_exact`] tests a ray
/// against once the ray meets the mesh's bounds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshTriangles {
    /// Vertex positions.
    pub positions: Vec<Vec3>,
    /// Three indices into `positions` per triangle.
    pub indices: Vec<u32>,
}

impl MeshTriangles {
    /// Where (as a multiple of `direction`, 0 or more) the ray from
    /// `origin` first meets a triangle, from either side; `None` when it
    /// meets none. Indices out of range are skipped.
    #[must_use]
    pub fn ray_hit(&self, origin: Vec3, direction: Vec3) -> Option<f32> {
        let mut nearest: Option<f32> = None;
        for corners in self.indices.chunks_exact(3) {
            let vertex = |i: u32| self.positions.get(i as usize).copied();
            let (Some(a), Some(b), Some(c)) =
                (vertex(corners[0]), vertex(corners[1]), vertex(corners[2]))
            else {
                continue;
            };
            if let Some(t) = ray_triangle(origin, direction, a, b, c)
                && nearest.is_none_or(|n| t < n)
            {
                nearest = Some(t);
            }
        }
        nearest
    }
}

/// Möller and Trumbore's ray-triangle test, two-sided: the ray parameter
/// of the hit, if it is ahead of the origin.
fn ray_triangle(origin: Vec3, direction: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (edge1, edge2) = (b - a, c - a);
    let p = direction.cross(edge2);
    let det = edge1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inverse = 1.0 / det;
    let s = origin - a;
    let u = s.dot(p) * inverse;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(edge1);
    let v = direction.dot(q) * inverse;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = edge2.dot(q) * inverse;
    (t >= 0.0 && t.is_finite()).then_some(t)
}

/// Where (as a multiple of `direction`) a ray enters a box: 0 when it
/// starts inside, `None` when it misses or the box is behind it.
fn slab(origin: Vec3, direction: Vec3, min: Vec3, max: Vec3) -> Option<f32> {
    let (mut near, mut far) = (f32::NEG_INFINITY, f32::INFINITY);
    for axis in 0..3 {
        let (o, d) = (origin[axis], direction[axis]);
        let (lo, hi) = (min[axis], max[axis]);
        if d.abs() < 1e-12 {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo - o) / d, (hi - o) / d);
        near = near.max(a.min(b));
        far = far.min(a.max(b));
        if near > far {
            return None;
        }
    }
    (far >= 0.0 && near.is_finite()).then_some(near.max(0.0))
}

/// How far a drag from ray `from` to ray `to` moves a point at `origin`
/// along `axis` (a gizmo's arrow): each ray's closest point on the axis
/// line, subtracted. The result is a multiple of `axis`, so the other
/// axes do not move. `None` when a ray runs along the axis (looking down
/// the arrow, there is no drag to read).
#[must_use]
pub fn drag_on_axis(from: &ViewRay, to: &ViewRay, origin: Vec3, axis: Vec3) -> Option<Vec3> {
    let axis = axis.try_normalize()?;
    let along = |ray: &ViewRay| closest_on_line(origin, axis, ray);
    let delta = along(to)? - along(from)?;
    delta.is_finite().then(|| axis * delta)
}

/// The parameter along `axis` (from `origin`) of the line's point closest
/// to the ray's line.
fn closest_on_line(origin: Vec3, axis: Vec3, ray: &ViewRay) -> Option<f32> {
    let w = origin - ray.origin;
    let b = axis.dot(ray.direction);
    let denominator = 1.0 - b * b;
    if denominator.abs() < 1e-6 {
        return None;
    }
    let d = axis.dot(w);
    let e = ray.direction.dot(w);
    Some((b * e - d) / denominator)
}

/// `value` rounded to the nearest multiple of `step` (a step of 0 or less
/// leaves it as it is): the gizmos' snapping.
#[must_use]
pub fn snap(value: f32, step: f32) -> f32 {
    if step > 0.0 && step.is_finite() {
        (value / step).round() * step
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit square in the XY plane with a square hole in the middle
    /// (eight triangles around it).
    fn frame() -> MeshTriangles {
        let outer = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let mut positions = Vec::new();
        for (x, y) in outer {
            positions.push(Vec3::new(x, y, 0.0));
        }
        for (x, y) in outer {
            positions.push(Vec3::new(x * 0.5, y * 0.5, 0.0));
        }
        let mut indices = Vec::new();
        for i in 0..4u32 {
            let j = (i + 1) % 4;
            indices.extend([i, j, 4 + j, i, 4 + j, 4 + i]);
        }
        MeshTriangles { positions, indices }
    }

    #[test]
    fn a_ray_through_the_hole_misses_and_one_through_the_rim_hits() {
        let mesh = frame();
        let back = Vec3::new(0.0, 0.0, 5.0);
        assert_eq!(mesh.ray_hit(back, Vec3::NEG_Z), None, "through the hole");
        let t = mesh
            .ray_hit(Vec3::new(0.75, 0.0, 5.0), Vec3::NEG_Z)
            .unwrap();
        assert!((t - 5.0).abs() < 1e-5, "{t}");
        // From behind too (two-sided), and nothing behind the origin.
        assert!(mesh.ray_hit(Vec3::new(0.75, 0.0, -5.0), Vec3::Z).is_some());
        assert!(mesh.ray_hit(Vec3::new(0.75, 0.0, 5.0), Vec3::Z).is_none());
        // Indices out of range are skipped, not a panic.
        let broken = MeshTriangles {
            positions: vec![Vec3::ZERO],
            indices: vec![0, 7, 9],
        };
        assert_eq!(broken.ray_hit(back, Vec3::NEG_Z), None);
    }

    #[test]
    fn picking_looks_through_the_hole_to_what_is_behind() {
        let mut scene = Scene::new();
        let camera = scene.spawn_with(
            "Camera",
            crate::Transform::from_position(Vec3::new(0.0, 0.0, 5.0)),
        );
        scene
            .add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 1.0).unwrap())
            .unwrap();
        let ring = scene.spawn("Ring");
        scene
            .add_component(
                ring,
                MeshRenderer::new(MeshHandle(0), crate::MaterialHandle(0)),
            )
            .unwrap();
        let wall = scene.spawn_with(
            "Wall",
            crate::Transform::from_position(Vec3::new(0.0, 0.0, -3.0)),
        );
        scene
            .add_component(
                wall,
                MeshRenderer::new(MeshHandle(1), crate::MaterialHandle(0)),
            )
            .unwrap();
        let bounds = |mesh: MeshHandle| {
            Some(if mesh.0 == 0 {
                (Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 0.0))
            } else {
                (
                    Vec3::splat(-4.0),
                    Vec3::splat(4.0) * Vec3::new(1.0, 1.0, 0.0),
                )
            })
        };
        let ring_triangles = std::sync::Arc::new(frame());
        let triangles = |mesh: MeshHandle| (mesh.0 == 0).then(|| ring_triangles.clone());
        let centre = Vec2::new(50.0, 50.0);
        let viewport = Vec2::new(100.0, 100.0);
        let by_bounds = pick(&scene, camera, viewport, centre, bounds).unwrap();
        assert_eq!(by_bounds.object, ring, "the ring's box covers the hole");
        let exact = pick_exact(&scene, camera, viewport, centre, bounds, triangles).unwrap();
        assert_eq!(exact.object, wall, "through the hole");
    }
}
