//! egui drawn over the game's frame: input from winit, paint with wgpu.

use std::sync::Arc;

use taos_renderer::GpuContext;
use winit::event::WindowEvent;
use winit::window::Window;

/// The egui context, its winit input state and its wgpu painter.
pub(crate) struct Overlay {
    context: egui::Context,
    state: egui_winit::State,
    painter: egui_wgpu::Renderer,
}

impl Overlay {
    pub(crate) fn new(window: &Arc<Window>, gpu: &GpuContext, format: wgpu::TextureFormat) -> Self {
        let context = egui::Context::default();
        let max_texture = gpu.device().limits().max_texture_dimension_2d as usize;
        let state = egui_winit::State::new(
            context.clone(),
            egui::ViewportId::ROOT,
            window.as_ref(),
            Some(window.scale_factor() as f32),
            None,
            Some(max_texture),
        );
        let painter =
            egui_wgpu::Renderer::new(gpu.device(), format, egui_wgpu::RendererOptions::default());
        Self {
            context,
            state,
            painter,
        }
    }

    /// The egui context (to load textures).
    pub(crate) fn context(&self) -> &egui::Context {
        &self.context
    }

    /// Feeds a window event to egui; true when egui used it (typing in a field).
    pub(crate) fn on_event(&mut self, window: &Window, event: &WindowEvent) -> bool {
        self.state.on_window_event(window, event).consumed
    }

    /// Runs `ui` and paints the result over `target`: over what is there, or
    /// over `clear` when given.
    pub(crate) fn paint(
        &mut self,
        window: &Window,
        gpu: &GpuContext,
        target: &wgpu::TextureView,
        size: (u32, u32),
        clear: Option<wgpu::Color>,
        ui: impl FnMut(&mut egui::Ui),
    ) {
        let input = self.state.take_egui_input(window);
        let output = self.context.run_ui(input, ui);
        self.state
            .handle_platform_output(window, output.platform_output);
        let pixels_per_point = output.pixels_per_point;
        let jobs = self.context.tessellate(output.shapes, pixels_per_point);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point,
        };
        let (device, queue) = (gpu.device(), gpu.queue());
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.painter.update_texture(device, queue, *id, delta);
            }
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("egui"),
        });
        let mut buffers = self
            .painter
            .update_buffers(device, queue, &mut encoder, &jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            let mut pass = pass.forget_lifetime();
            self.painter.render(&mut pass, &jobs, &screen);
        }
        buffers.push(encoder.finish());
        queue.submit(buffers);
        for id in &output.textures_delta.free {
            self.painter.free_texture(id);
        }
        // Every delta is applied above; say so (egui checks on drop).
        let mut deltas = output.textures_delta;
        deltas.clear();
    }
}
