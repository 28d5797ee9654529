//! Draws an [`OverlayModel`] with egui: a movable window of three tables.

use super::model::{OverlayModel, format_bytes, format_ms};

/// Text colour of culled passes and unused resources.
const DIM: egui::Color32 = egui::Color32::GRAY;

/// Draws the overlay window over `ui`'s screen; `open` turns false when its
/// close button is clicked.
pub(crate) fn draw(ui: &egui::Ui, model: &OverlayModel, open: &mut bool) {
    egui::Window::new("Render graph")
        .open(open)
        .default_pos([12.0, 12.0])
        .resizable(true)
        .show(ui.ctx(), |ui| {
            summary(ui, model);
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                passes(ui, model);
                ui.separator();
                resources(ui, model);
            });
        });
}

fn summary(ui: &mut egui::Ui, model: &OverlayModel) {
    ui.label(format!("frame {}", model.frame));
    ui.label(format!(
        "CPU: build {}, compile {}, record {}",
        format_ms(model.cpu_build),
        format_ms(model.cpu_compile),
        format_ms(model.cpu_record),
    ));
    match (model.gpu, model.gpu_timed) {
        (Some((frame, total)), _) => ui.label(format!("GPU (frame {frame}): {}", format_ms(total))),
        (None, true) => ui.label("GPU: waiting for the first read-back"),
        (None, false) => ui.label("GPU: not timed (no timestamp queries, or turned off)"),
    };
}

fn passes(ui: &mut egui::Ui, model: &OverlayModel) {
    ui.strong("Passes");
    egui::Grid::new("graph overlay passes")
        .striped(true)
        .show(ui, |ui| {
            for header in ["#", "pass", "kind", "CPU", "GPU"] {
                ui.strong(header);
            }
            ui.end_row();
            for pass in &model.passes {
                match pass.position {
                    Some(position) => {
                        ui.label(position.to_string());
                        ui.label(pass.name);
                        ui.label(pass.kind);
                        ui.label(pass.cpu.map_or_else(|| "-".to_owned(), format_ms));
                        ui.label(pass.gpu.map_or_else(|| "-".to_owned(), format_ms));
                    }
                    None => {
                        ui.colored_label(DIM, "culled");
                        ui.colored_label(DIM, pass.name);
                        ui.colored_label(DIM, pass.kind);
                        ui.colored_label(DIM, "-");
                        ui.colored_label(DIM, "-");
                    }
                }
                ui.end_row();
            }
        });
}

fn resources(ui: &mut egui::Ui, model: &OverlayModel) {
    ui.strong(format!(
        "Resources (aliasing saves {})",
        format_bytes(model.bytes_saved)
    ));
    egui::Grid::new("graph overlay resources")
        .striped(true)
        .show(ui, |ui| {
            for header in ["resource", "what", "memory"] {
                ui.strong(header);
            }
            ui.end_row();
            for resource in &model.resources {
                let memory = match (resource.imported, resource.slot) {
                    (true, _) => "imported".to_owned(),
                    (false, Some(slot)) if resource.aliased => format!("#{slot}, aliased"),
                    (false, Some(slot)) => format!("#{slot}"),
                    (false, None) => "unused".to_owned(),
                };
                if resource.live {
                    ui.label(resource.label);
                    ui.label(&resource.description);
                    ui.label(memory);
                } else {
                    ui.colored_label(DIM, resource.label);
                    ui.colored_label(DIM, &resource.description);
                    ui.colored_label(DIM, memory);
                }
                ui.end_row();
            }
        });
}
