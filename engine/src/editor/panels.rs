//! The editor's window: toolbar, hierarchy and inspector (egui).

use glam::{EulerRot, Quat, Vec3};

use super::{Editor, EditorMode};
use crate::edit::EditCommand;
use crate::{Engine, GameObject, ObjectId, Shape, Transform};

/// The editor window.
pub(super) fn editor_window(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
    let frame = egui::Frame::window(ui.style()).fill(egui::Color32::from_gray(32));
    egui::Window::new("Editor")
        .frame(frame)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-6.0, 6.0))
        .default_width(230.0)
        .max_height(ui.ctx().content_rect().height() - 12.0)
        .show(ui.ctx(), |ui| {
            toolbar(editor, engine, ui);
            if !editor.status.is_empty() {
                ui.small(editor.status.clone());
            }
            ui.separator();
            egui::CollapsingHeader::new("Hierarchy")
                .default_open(true)
                .show(ui, |ui| hierarchy(editor, engine, ui));
            egui::CollapsingHeader::new("Inspector")
                .default_open(true)
                .show(ui, |ui| inspector(editor, engine, ui));
        });
}

/// A button, greyed out unless `enabled`.
fn button(ui: &mut egui::Ui, enabled: bool, label: &str) -> egui::Response {
    ui.add_enabled(enabled, egui::Button::new(label))
}

fn toolbar(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        let editing = editor.mode == EditorMode::Editing;
        if button(ui, editing && editor.history.undo_len() > 0, "Undo").clicked() {
            let _ = editor.undo(engine);
        }
        if button(ui, editing && editor.history.redo_len() > 0, "Redo").clicked() {
            let _ = editor.redo(engine);
        }
        if button(ui, editing && editor.selected.is_some(), "Frame")
            .on_hover_text("F: look at the selection whole")
            .clicked()
        {
            editor.frame_selection(engine);
        }
        ui.separator();
        match editor.mode {
            EditorMode::Editing | EditorMode::Paused => {
                if ui.button("Play").clicked() {
                    editor.play(engine);
                }
            }
            EditorMode::Playing => {
                if ui.button("Pause").clicked() {
                    editor.pause(engine);
                }
            }
        }
        if button(ui, editor.mode == EditorMode::Paused, "Step").clicked() {
            editor.step(engine);
        }
        if button(ui, !editing, "Stop").clicked() {
            editor.stop(engine);
        }
    });
    ui.horizontal(|ui| {
        let mut file = editor.file.display().to_string();
        if ui
            .add(egui::TextEdit::singleline(&mut file).desired_width(110.0))
            .changed()
        {
            editor.file = file.into();
        }
        if ui.button("Save").clicked() {
            let _ = editor.save(engine);
        }
        if ui
            .add_enabled(
                editor.mode == EditorMode::Editing,
                egui::Button::new("Load"),
            )
            .clicked()
        {
            let _ = editor.load(engine);
        }
    });
    ui.horizontal(|ui| {
        for (mode, label) in [
            (super::GizmoMode::Move, "move (W)"),
            (super::GizmoMode::Rotate, "turn (E)"),
            (super::GizmoMode::Scale, "scale (R)"),
        ] {
            ui.selectable_value(&mut editor.gizmo_mode, mode, label);
        }
        ui.label("snap");
        ui.add(
            egui::DragValue::new(&mut editor.snap_step)
                .range(0.0..=10.0)
                .speed(0.05)
                .suffix(" m"),
        );
        ui.add(
            egui::DragValue::new(&mut editor.snap_degrees)
                .range(0.0..=90.0)
                .speed(0.5)
                .suffix("°"),
        );
    });
}

fn hierarchy(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
    let editing = editor.mode == EditorMode::Editing;
    ui.horizontal(|ui| {
        ui.add_enabled_ui(editing, |ui| {
            ui.menu_button("Create", |ui| {
                let mut choice = None;
                if ui.button("Empty object").clicked() {
                    choice = Some(None);
                }
                for shape in Shape::ALL {
                    if ui.button(shape.label()).clicked() {
                        choice = Some(Some(shape));
                    }
                }
                if let Some(shape) = choice {
                    let _ = editor.create(engine, shape);
                    ui.close();
                }
                ui.separator();
                ui.label("glTF model (path in the model folder):");
                ui.text_edit_singleline(&mut editor.model_draft);
                if ui.button("Add model").clicked() {
                    let path = editor.model_draft.trim().to_owned();
                    let _ = editor.add_model(engine, &path);
                    ui.close();
                }
            });
        });
        let selected = editor.selected;
        let can = editing && selected.is_some();
        if button(ui, can, "Duplicate").clicked()
            && let Some(object) = selected
        {
            let _ = editor.apply(engine, EditCommand::Duplicate { object });
        }
        if button(ui, can, "Delete").clicked()
            && let Some(object) = selected
        {
            let _ = editor.apply(engine, EditCommand::Delete { object });
        }
        if button(ui, can, "To root").clicked()
            && let Some(object) = selected
        {
            let _ = editor.apply(
                engine,
                EditCommand::Reparent {
                    object,
                    parent: None,
                },
            );
        }
    });
    editor.row_rects.clear();
    egui::ScrollArea::vertical()
        .max_height(160.0)
        .id_salt("hierarchy")
        .show(ui, |ui| {
            for root in engine.scene().roots() {
                // The editor's own camera is not part of the scene.
                if engine
                    .scene()
                    .get_component::<crate::scene_file::EditorOnly>(root)
                    .is_none()
                {
                    tree_row(editor, engine, ui, root, 0);
                }
            }
        });
    drop_dragged_row(editor, engine, ui);
}

/// A row dragged onto another makes its object that one's child (keeping
/// where it is in the world), as one undo step.
fn drop_dragged_row(editor: &mut Editor, engine: &mut Engine, ui: &egui::Ui) {
    let Some(dragged) = editor.row_drag else {
        return;
    };
    let (released, pointer) = ui.input(|i| (i.pointer.any_released(), i.pointer.interact_pos()));
    if !released {
        return;
    }
    editor.row_drag = None;
    let target = pointer.and_then(|at| {
        editor
            .row_rects
            .iter()
            .find(|(_, rect)| rect.contains(at))
            .map(|(id, _)| *id)
    });
    if let Some(parent) = target.filter(|&t| t != dragged) {
        let _ = editor.apply(
            engine,
            EditCommand::Reparent {
                object: dragged,
                parent: Some(parent),
            },
        );
    }
}

/// One object's row and its children's, indented by depth.
fn tree_row(
    editor: &mut Editor,
    engine: &mut Engine,
    ui: &mut egui::Ui,
    object: GameObject,
    depth: usize,
) {
    let scene = engine.scene();
    let Some(id) = scene.id(object) else {
        return;
    };
    let name = scene.name(object).unwrap_or("").to_owned();
    let enabled = scene.is_enabled(object) != Some(false);
    let children: Vec<GameObject> = scene.children(object).collect();
    ui.horizontal(|ui| {
        ui.add_space(depth as f32 * 12.0);
        let label = if enabled {
            egui::RichText::new(&name)
        } else {
            egui::RichText::new(&name).weak()
        };
        let row = ui
            .selectable_label(editor.selected == Some(id), label)
            .interact(egui::Sense::drag());
        if row.clicked() {
            editor.select(Some(id));
        }
        if row.drag_started() {
            editor.row_drag = Some(id);
        }
        if editor.row_drag.is_some_and(|dragged| dragged != id) && row.contains_pointer() {
            // Where the dragged row would go.
            ui.painter().rect_stroke(
                row.rect,
                2.0,
                egui::Stroke::new(1.5, ui.visuals().selection.stroke.color),
                egui::StrokeKind::Outside,
            );
        }
        editor.row_rects.push((id, row.rect));
    });
    for child in children {
        // A model's objects come from its file: the object showing it
        // stands for them.
        if engine
            .scene()
            .get_component::<crate::scene_file::ModelPart>(child)
            .is_none()
        {
            tree_row(editor, engine, ui, child, depth + 1);
        }
    }
}

fn inspector(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
    let Some(id) = editor.selected else {
        ui.weak("Nothing selected: click an object, or a row in the hierarchy.");
        return;
    };
    let Some(object) = engine.scene().find_by_id(id) else {
        editor.select(None);
        return;
    };
    let editing = editor.mode == EditorMode::Editing;
    ui.add_enabled_ui(editing, |ui| {
        identity(editor, engine, ui, id, object);
        transform(editor, engine, ui, id, object);
        components(editor, engine, ui, id, object);
    });
}

fn identity(
    editor: &mut Editor,
    engine: &mut Engine,
    ui: &mut egui::Ui,
    id: ObjectId,
    object: GameObject,
) {
    let scene = engine.scene();
    let current = scene.name(object).unwrap_or("").to_owned();
    let mut enabled = scene.is_enabled(object) != Some(false);
    ui.horizontal(|ui| {
        let draft = editor.name_draft.get_or_insert_with(|| current.clone());
        let response = ui.add(egui::TextEdit::singleline(draft).desired_width(150.0));
        if response.lost_focus() && *draft != current {
            let name = draft.clone();
            editor.name_draft = None;
            let _ = editor.apply(engine, EditCommand::Rename { object: id, name });
        } else if !response.has_focus() && *draft != current {
            editor.name_draft = Some(current.clone());
        }
        if ui.checkbox(&mut enabled, "enabled").changed() {
            let _ = editor.apply(
                engine,
                EditCommand::SetEnabled {
                    object: id,
                    enabled,
                },
            );
        }
    });
    ui.small(format!("id {}", id.0));
}

fn transform(
    editor: &mut Editor,
    engine: &mut Engine,
    ui: &mut egui::Ui,
    id: ObjectId,
    object: GameObject,
) {
    let scene = engine.scene();
    let Some(current) = scene.transform(object).copied() else {
        return;
    };
    let world = scene.world_position(object).unwrap_or_default();
    let mut position = current.position.to_array();
    let (y, x, z) = current.rotation.to_euler(EulerRot::YXZ);
    let mut degrees = [x.to_degrees(), y.to_degrees(), z.to_degrees()];
    let mut scale = current.scale.to_array();
    let mut changed = false;
    let mut dragging = false;
    let mut row = |ui: &mut egui::Ui, label: &str, values: &mut [f32; 3], speed: f64| {
        ui.horizontal(|ui| {
            ui.label(label);
            for value in values.iter_mut() {
                let response = ui.add(egui::DragValue::new(value).speed(speed).max_decimals(3));
                changed |= response.changed();
                dragging |= response.dragged();
            }
        });
    };
    row(ui, "position", &mut position, 0.05);
    row(ui, "rotation", &mut degrees, 1.0);
    row(ui, "scale   ", &mut scale, 0.02);
    ui.small(format!(
        "world {:.2} {:.2} {:.2}",
        world.x, world.y, world.z
    ));
    if changed {
        let rotation = Quat::from_euler(
            EulerRot::YXZ,
            degrees[1].to_radians(),
            degrees[0].to_radians(),
            degrees[2].to_radians(),
        );
        let transform = Transform::from_trs(
            Vec3::from_array(position),
            rotation,
            Vec3::from_array(scale),
        );
        // One drag of a field is one undo step.
        let gesture = if dragging {
            Some(*editor.field_gesture.get_or_insert_with(|| {
                editor.gesture += 1;
                editor.gesture
            }))
        } else {
            None
        };
        let _ = editor.apply_in_gesture(
            engine,
            EditCommand::SetTransform {
                object: id,
                transform,
            },
            gesture,
        );
    }
    if !dragging && !ui.ctx().input(|i| i.pointer.any_down()) {
        editor.field_gesture = None;
    }
}

fn components(
    editor: &mut Editor,
    engine: &mut Engine,
    ui: &mut egui::Ui,
    id: ObjectId,
    object: GameObject,
) {
    let names: Vec<&'static str> = editor.types.component_names().collect();
    for name in names {
        let Ok(Some(text)) = editor.types.component_text(engine.scene(), object, name) else {
            continue;
        };
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong(name);
            if ui.small_button("remove").clicked() {
                editor.drafts.remove(name);
                let _ = editor.apply(
                    engine,
                    EditCommand::SetComponent {
                        object: id,
                        type_name: name.to_owned(),
                        value: None,
                    },
                );
            }
        });
        let draft = editor
            .drafts
            .entry(name.to_owned())
            .or_insert_with(|| text.clone());
        ui.add(
            egui::TextEdit::multiline(draft)
                .code_editor()
                .desired_rows(2)
                .desired_width(f32::INFINITY),
        );
        if *draft != text && ui.small_button("apply").clicked() {
            let value = Some(draft.clone());
            let command = EditCommand::SetComponent {
                object: id,
                type_name: name.to_owned(),
                value,
            };
            if editor.apply(engine, command).is_ok() {
                editor.drafts.remove(name);
            }
        }
    }
}
