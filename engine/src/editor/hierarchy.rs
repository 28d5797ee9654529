//! The hierarchy panel: every object as a tree; click a row to select it,
//! drag a row onto another to make it that object's child.

use glam::Vec2;

use super::panels::button;
use super::{Editor, EditorMode};
use crate::edit::EditCommand;
use crate::{Engine, GameObject, ObjectId, Shape};

/// The hierarchy's rows as last drawn (where a click or drop lands), and
/// the row being dragged onto its new parent's.
#[derive(Debug, Default)]
pub(super) struct HierarchyRows {
    /// The row being dragged (to drop on its new parent's row).
    dragged: Option<ObjectId>,
    /// Where each row was drawn in the last frame.
    rects: Vec<(ObjectId, egui::Rect)>,
}

impl Editor {
    /// The centre of `object`'s row in the hierarchy as last drawn, in
    /// output pixels (`None` when it was not drawn): where a test or a
    /// script points to click or drag it.
    #[must_use]
    pub fn hierarchy_row(&self, object: ObjectId) -> Option<Vec2> {
        self.rows
            .rects
            .iter()
            .find(|(id, _)| *id == object)
            .map(|(_, rect)| Vec2::new(rect.center().x, rect.center().y))
    }
}

/// The hierarchy panel.
pub(super) fn hierarchy(editor: &mut Editor, engine: &mut Engine, ui: &mut egui::Ui) {
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
    editor.rows.rects.clear();
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
    let Some(dragged) = editor.rows.dragged else {
        return;
    };
    let (released, pointer) = ui.input(|i| (i.pointer.any_released(), i.pointer.interact_pos()));
    if !released {
        return;
    }
    editor.rows.dragged = None;
    let target = pointer.and_then(|at| {
        editor
            .rows
            .rects
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
            editor.rows.dragged = Some(id);
        }
        if editor.rows.dragged.is_some_and(|dragged| dragged != id) && row.contains_pointer() {
            // Where the dragged row would go.
            ui.painter().rect_stroke(
                row.rect,
                2.0,
                egui::Stroke::new(1.5, ui.visuals().selection.stroke.color),
                egui::StrokeKind::Outside,
            );
        }
        editor.rows.rects.push((id, row.rect));
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
