//! The gizmo: the selection's X, Y and Z arrows, and dragging one to move,
//! turn or scale the selection along that axis (snapped when a snap step
//! is set). The rotate mode's rings are in `rings.rs`.

use glam::Vec2;

use super::Editor;
use crate::edit::EditCommand;
use crate::edit::EditError;
use crate::edit::viewport::{drag_on_axis, ray_through_pixel, snap};
use crate::{Engine, Transform};

/// What dragging a gizmo arrow does (W, E and R switch, as in most
/// editors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GizmoMode {
    /// Moves along the arrow's axis.
    #[default]
    Move,
    /// Turns about the arrow's axis (a metre of drag is a radian).
    Rotate,
    /// Scales along the arrow's axis (a metre of drag adds the object's
    /// size once).
    Scale,
}

/// A drag of a gizmo arrow in progress.
#[derive(Debug, Clone, Copy)]
pub(super) struct AxisDrag {
    pub(super) axis: glam::Vec3,
    pub(super) from_pixel: Vec2,
    pub(super) start: Transform,
    pub(super) gesture: u64,
    /// A rotate ring's drag (turns by the angle swept on screen), not an
    /// arrow's.
    pub(super) ring: bool,
}

/// How far (pixels) a gizmo arrow reaches from the selection's centre.
pub const GIZMO_PIXELS: f32 = 60.0;

impl Editor {
    /// Where the selection's gizmo arrows end on screen: `(axis, from,
    /// to)` for X, Y and Z, from the selection's centre.
    #[must_use]
    pub fn gizmo(&self, engine: &Engine) -> Vec<(glam::Vec3, Vec2, Vec2)> {
        let scene = engine.scene();
        let (Some(object), Some(camera)) = (
            self.selected.and_then(|id| scene.find_by_id(id)),
            scene.render_camera(),
        ) else {
            return Vec::new();
        };
        let Some(centre) = scene.world_position(object) else {
            return Vec::new();
        };
        let (w, h) = engine.output_size();
        let viewport = Vec2::new(w as f32, h as f32);
        let Some(from) = project(engine, camera, viewport, centre) else {
            return Vec::new();
        };
        [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z]
            .into_iter()
            .filter_map(|axis| {
                let tip = project(engine, camera, viewport, centre + axis * 0.01)?;
                let direction = (tip - from).try_normalize()?;
                Some((axis, from, from + direction * GIZMO_PIXELS))
            })
            .collect()
    }

    /// Starts dragging the selection along `axis` from `pixel`.
    pub fn begin_axis_drag(&mut self, engine: &Engine, axis: glam::Vec3, pixel: Vec2) -> bool {
        self.start_drag(engine, axis, pixel, false)
    }

    /// Starts a drag of an arrow or (`ring`) a rotate ring, from the
    /// selection's transform now.
    pub(super) fn start_drag(
        &mut self,
        engine: &Engine,
        axis: glam::Vec3,
        pixel: Vec2,
        ring: bool,
    ) -> bool {
        let scene = engine.scene();
        let Some(start) = self
            .selected
            .and_then(|id| scene.find_by_id(id))
            .and_then(|object| scene.transform(object).copied())
        else {
            return false;
        };
        self.gesture += 1;
        self.drag = Some(AxisDrag {
            axis,
            from_pixel: pixel,
            start,
            gesture: self.gesture,
            ring,
        });
        true
    }

    /// Moves the dragged selection to where `pixel` puts it along the axis.
    ///
    /// # Errors
    /// As [`apply`](Self::apply).
    pub fn drag_to(&mut self, engine: &mut Engine, pixel: Vec2) -> Result<(), EditError> {
        let (Some(drag), Some(id)) = (self.drag, self.selected) else {
            return Ok(());
        };
        let scene = engine.scene();
        let (Some(object), Some(camera)) = (scene.find_by_id(id), scene.render_camera()) else {
            return Ok(());
        };
        if drag.ring {
            let Some(transform) = self.ring_turn(engine, &drag, pixel) else {
                return Ok(());
            };
            return self.apply_in_gesture(
                engine,
                EditCommand::SetTransform {
                    object: id,
                    transform,
                },
                Some(drag.gesture),
            );
        }
        let (w, h) = engine.output_size();
        let viewport = Vec2::new(w as f32, h as f32);
        let centre = scene.world_position(object).unwrap_or_default();
        let rays = (
            ray_through_pixel(scene, camera, viewport, drag.from_pixel),
            ray_through_pixel(scene, camera, viewport, pixel),
        );
        let (Some(from), Some(to)) = rays else {
            return Ok(());
        };
        // The axis is the world axis; the move is applied in the parent's
        // space (for a root, the same).
        let Some(moved) = drag_on_axis(&from, &to, centre, drag.axis) else {
            return Ok(());
        };
        let along = snap(moved.dot(drag.axis), self.snap_step);
        let parent_world = scene
            .parent(object)
            .and_then(|p| scene.world_matrix(p))
            .unwrap_or(glam::Affine3A::IDENTITY);
        let mut transform = drag.start;
        match self.gizmo_mode {
            GizmoMode::Move => {
                transform.position += parent_world.inverse().transform_vector3(drag.axis * along);
            }
            GizmoMode::Rotate => {
                // A metre of drag is a radian about the axis (in the
                // parent's space); snapping rounds the metres.
                let axis = parent_world
                    .inverse()
                    .transform_vector3(drag.axis)
                    .try_normalize()
                    .unwrap_or(drag.axis);
                transform.rotation =
                    (glam::Quat::from_axis_angle(axis, along) * drag.start.rotation).normalize();
            }
            GizmoMode::Scale => {
                // A metre of drag adds the object's own size along the axis.
                let index = drag.axis.abs().max_position();
                transform.scale[index] = (drag.start.scale[index] * (1.0 + along)).max(0.001);
            }
        }
        self.apply_in_gesture(
            engine,
            EditCommand::SetTransform {
                object: id,
                transform,
            },
            Some(drag.gesture),
        )
    }

    /// Ends a gizmo drag.
    pub fn end_drag(&mut self) {
        self.drag = None;
    }

    /// Paints the selection's arrows (and, in rotate mode, rings) over the view.
    pub(super) fn draw_gizmo(&self, engine: &Engine, ui: &egui::Ui) {
        let painter = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Background,
            egui::Id::unique("taos-editor-gizmo"),
        ));
        if self.gizmo_mode == GizmoMode::Rotate {
            for (axis, points) in self.rings(engine) {
                let colour = axis_colour(axis);
                let points: Vec<egui::Pos2> = points.iter().map(|p| egui::pos2(p.x, p.y)).collect();
                painter.add(egui::Shape::line(points, egui::Stroke::new(2.0, colour)));
            }
        }
        for (axis, from, to) in self.gizmo(engine) {
            let colour = axis_colour(axis);
            let (a, b) = (egui::pos2(from.x, from.y), egui::pos2(to.x, to.y));
            painter.line_segment([a, b], egui::Stroke::new(3.0, colour));
            match self.gizmo_mode {
                GizmoMode::Move => {
                    painter.circle_filled(b, 6.0, colour);
                }
                GizmoMode::Rotate => {
                    painter.circle_stroke(b, 6.0, egui::Stroke::new(2.5, colour));
                }
                GizmoMode::Scale => {
                    painter.rect_filled(
                        egui::Rect::from_center_size(b, egui::vec2(11.0, 11.0)),
                        0.0,
                        colour,
                    );
                }
            }
        }
    }
}

/// The gizmo colour of a world axis: X red, Y green, Z blue.
fn axis_colour(axis: glam::Vec3) -> egui::Color32 {
    egui::Color32::from_rgb(
        (axis.x * 230.0) as u8 + 25,
        (axis.y * 200.0) as u8 + 25,
        (axis.z * 230.0) as u8 + 25,
    )
}

/// Where a world point is drawn, in output pixels.
pub(super) fn project(
    engine: &Engine,
    camera: crate::GameObject,
    viewport: Vec2,
    point: glam::Vec3,
) -> Option<Vec2> {
    let scene = engine.scene();
    let lens = scene.get_component::<crate::Camera>(camera)?;
    let view = glam::Mat4::from(scene.world_matrix(camera)?.inverse());
    let clip = lens.projection_matrix() * view * point.extend(1.0);
    if clip.w <= 1e-6 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    Some(Vec2::new(
        (ndc.x + 1.0) * 0.5 * viewport.x,
        (1.0 - ndc.y) * 0.5 * viewport.y,
    ))
}
