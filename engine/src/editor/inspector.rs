//! The inspector panel: the selection's name, enabled flag, local
//! transform (drags merge into one undo step), world position, and every
//! registered component as its scene-file JSON, editable.

use glam::{EulerRot, Quat, Vec3};

use super::{Editor, EditorMode};
use crate::edit::EditCommand;
use crate::{Engine, GameObject, ObjectId, Transform};

/// What the inspector's fields hold while they are being edited.
#[derive(Debug, Default)]
pub(super) struct InspectorDrafts {
    /// Per-component JSON being edited.
    components: std::collections::BTreeMap<String, String>,
    /// The name being typed.
    name: Option<String>,
    /// The gesture of the transform field being dragged.
    field_gesture: Option<u64>,
}

impl InspectorDrafts {
    /// Forgets the typed JSON and name (a new selection).
    pub(super) fn clear(&mut self) {
        self.components.clear();
        self.name = None;
    }

    /// Forgets the typed JSON (an undo or redo changed the components).
    pub(super) fn clear_components(&mut self) {
        self.components.clear();
    }
}

/// The inspector panel.
pub(super) fn inspector(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
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
        let draft = editor.drafts.name.get_or_insert_with(|| current.clone());
        let response = ui.add(egui::TextEdit::singleline(draft).desired_width(150.0));
        if response.lost_focus() && *draft != current {
            let name = draft.clone();
            editor.drafts.name = None;
            let _ = editor.apply(engine, EditCommand::Rename { object: id, name });
        } else if !response.has_focus() && *draft != current {
            editor.drafts.name = Some(current.clone());
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
            Some(*editor.drafts.field_gesture.get_or_insert_with(|| {
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
        editor.drafts.field_gesture = None;
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
                editor.drafts.components.remove(name);
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
            .components
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
                editor.drafts.components.remove(name);
            }
        }
    }
}
