//! The editor's window (egui): the toolbar, then the hierarchy
//! (`hierarchy.rs`) and inspector (`inspector.rs`) panels.

use super::hierarchy::hierarchy;
use super::inspector::inspector;
use super::{Editor, EditorMode};
use crate::Engine;

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
pub(super) fn button(ui: &mut egui::Ui, enabled: bool, label: &str) -> egui::Response {
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
