//! The rotate gizmo's rings: a circle about each world axis through the
//! selection's centre; dragging a ring turns the selection about that axis
//! by the angle the pointer sweeps around the centre on screen.

use glam::{Quat, Vec2, Vec3};

use super::gizmo::project;
use super::{AxisDrag, Editor, GIZMO_PIXELS};
use crate::edit::viewport::{ray_through_pixel, snap};
use crate::{Engine, Transform};

/// Points per ring.
const RING_POINTS: usize = 48;

/// A ring's radius on screen: inside the arrows' tips, so each is grabbed
/// on its own.
const RING_PIXELS: f32 = GIZMO_PIXELS * 0.7;

/// How near (pixels) the pointer must be to a ring to grab it.
pub const RING_GRAB_PIXELS: f32 = 6.0;

impl Editor {
    /// The rotate gizmo's rings as drawn: for the X, Y and Z axes, the
    /// axis and its circle's points in output pixels (a closed loop; points
    /// behind the camera left out). Empty without a selection.
    #[must_use]
    pub fn rings(&self, engine: &Engine) -> Vec<(Vec3, Vec<Vec2>)> {
        let Some((centre, radius)) = self.ring_placement(engine) else {
            return Vec::new();
        };
        let Some(camera) = engine.scene().render_camera() else {
            return Vec::new();
        };
        let viewport = viewport(engine);
        [Vec3::X, Vec3::Y, Vec3::Z]
            .into_iter()
            .map(|axis| {
                let (u, v) = axis.any_orthonormal_pair();
                let points = (0..=RING_POINTS)
                    .filter_map(|i| {
                        let angle = i as f32 / RING_POINTS as f32 * std::f32::consts::TAU;
                        let point = centre + (u * angle.cos() + v * angle.sin()) * radius;
                        project(engine, camera, viewport, point)
                    })
                    .collect();
                (axis, points)
            })
            .collect()
    }

    /// The ring under `pixel`, if one is within [`RING_GRAB_PIXELS`].
    #[must_use]
    pub fn ring_at(&self, engine: &Engine, pixel: Vec2) -> Option<Vec3> {
        self.rings(engine)
            .into_iter()
            .map(|(axis, points)| {
                let nearest = points
                    .windows(2)
                    .map(|pair| distance_to_segment(pixel, pair[0], pair[1]))
                    .fold(f32::INFINITY, f32::min);
                (axis, nearest)
            })
            .filter(|&(_, distance)| distance <= RING_GRAB_PIXELS)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(axis, _)| axis)
    }

    /// Starts turning the selection about `axis` by dragging its ring from
    /// `pixel`.
    pub fn begin_ring_drag(&mut self, engine: &Engine, axis: Vec3, pixel: Vec2) -> bool {
        self.start_drag(engine, axis, pixel, true)
    }

    /// The transform a ring drag to `pixel` gives: the start turned about
    /// the ring's axis by the angle swept around the centre on screen
    /// (snapped to [`snap_degrees`](Self::snap_degrees)).
    pub(super) fn ring_turn(
        &self,
        engine: &Engine,
        drag: &AxisDrag,
        pixel: Vec2,
    ) -> Option<Transform> {
        let scene = engine.scene();
        let object = scene.find_by_id(self.selected?)?;
        let camera = scene.render_camera()?;
        let centre = scene.world_position(object)?;
        let viewport = viewport(engine);
        let eye = scene.world_position(camera)?;
        let towards_viewer = drag.axis.dot(eye - centre) > 0.0;
        // Where the pointer's rays meet the ring's plane: the angle between
        // those points about the centre is the turn, so following the drawn
        // ring turns by what it shows.
        let in_plane = |pixel: Vec2| {
            let ray = ray_through_pixel(scene, camera, viewport, pixel)?;
            let facing = ray.direction.dot(drag.axis);
            if facing.abs() < 0.05 {
                return None;
            }
            let t = (centre - ray.origin).dot(drag.axis) / facing;
            let offset = ray.origin + ray.direction * t - centre;
            (offset.length_squared() > 1e-10).then_some(offset)
        };
        let radians = match (in_plane(drag.from_pixel), in_plane(pixel)) {
            (Some(a), Some(b)) => a.cross(b).dot(drag.axis).atan2(a.dot(b)),
            _ => {
                // The ring is edge-on: the sweep on screen (y points down,
                // so clockwise is positive there: a negative turn about an
                // axis pointing at the viewer).
                let on_screen = project(engine, camera, viewport, centre)?;
                let (a, b) = (drag.from_pixel - on_screen, pixel - on_screen);
                if a.length_squared() < 1.0 || b.length_squared() < 1.0 {
                    return None;
                }
                let sweep = a.perp_dot(b).atan2(a.dot(b));
                if towards_viewer { -sweep } else { sweep }
            }
        };
        let angle = snap(radians.to_degrees(), self.snap_degrees).to_radians();
        let parent_world = scene
            .parent(object)
            .and_then(|p| scene.world_matrix(p))
            .unwrap_or(glam::Affine3A::IDENTITY);
        let axis = parent_world
            .inverse()
            .transform_vector3(drag.axis)
            .try_normalize()
            .unwrap_or(drag.axis);
        let mut transform = drag.start;
        transform.rotation = (Quat::from_axis_angle(axis, angle) * drag.start.rotation).normalize();
        Some(transform)
    }

    /// The selection's centre and the world radius that draws as
    /// [`RING_PIXELS`] there.
    fn ring_placement(&self, engine: &Engine) -> Option<(Vec3, f32)> {
        let scene = engine.scene();
        let object = scene.find_by_id(self.selected?)?;
        let camera = scene.render_camera()?;
        let centre = scene.world_position(object)?;
        let right = scene
            .world_matrix(camera)?
            .transform_vector3(Vec3::X)
            .try_normalize()?;
        let viewport = viewport(engine);
        let a = project(engine, camera, viewport, centre)?;
        let b = project(engine, camera, viewport, centre + right)?;
        let pixels_per_metre = a.distance(b);
        (pixels_per_metre > 1e-3).then(|| (centre, RING_PIXELS / pixels_per_metre))
    }
}

fn viewport(engine: &Engine) -> Vec2 {
    let (w, h) = engine.output_size();
    Vec2::new(w as f32, h as f32)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
