//! The editor's viewport math, without a GPU: the ray under a pixel,
//! picking the object drawn there (a ray against each mesh renderer's
//! bounds, in the object's own space, nearest first), and moving along a
//! gizmo's axis by a drag.
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
    /// How far along the ray its bounds begin, world units.
    pub distance: f32,
    /// Where the ray enters its bounds, world space.
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
        let Some(t) = slab(origin, direction, min, max) else {
            continue;
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
