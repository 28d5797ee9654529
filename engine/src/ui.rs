//! The UI overlay: egui, fed by the window's events and painted over the
//! frame after tonemapping.
//!
//! Two halves, because they live on the two sides of a frame: [`UiInput`]
//! belongs to the window driver (it sees window events first and runs the
//! game's [`App::ui`](crate::App::ui)); [`UiPainter`] belongs to the
//! presenter (it draws the finished UI into the frame's output texture, after
//! the render graph ran and before the frame is presented).

use std::time::Duration;

use taos_renderer::GpuContext;
use winit::window::Window;

/// The window side: egui's context and its winit input state.
pub(crate) struct UiInput {
    context: egui::Context,
    state: egui_winit::State,
}

/// One frame of UI, tessellated, waiting for the presenter to paint it.
pub(crate) struct UiFrame {
    jobs: Vec<egui::ClippedPrimitive>,
    textures: egui::TexturesDelta,
    pixels_per_point: f32,
    /// When egui wants to be run again (an animation, a blinking cursor);
    /// `None` when only input will change it.
    pub(crate) repaint_after: Option<Duration>,
}

impl UiInput {
    pub(crate) fn new(window: &Window, max_texture_side: usize) -> Self {
        let context = egui::Context::default();
        let state = egui_winit::State::new(
            context.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(max_texture_side),
        );
        Self { context, state }
    }

    /// The egui context (to load textures, read style).
    pub(crate) fn context(&self) -> &egui::Context {
        &self.context
    }

    /// Feeds a window event to egui; true when egui used it.
    pub(crate) fn on_window_event(
        &mut self,
        window: &Window,
        event: &winit::event::WindowEvent,
    ) -> bool {
        self.state.on_window_event(window, event).consumed
    }

    /// Runs `build` for this frame and tessellates the result.
    pub(crate) fn run(&mut self, window: &Window, build: impl FnMut(&mut egui::Ui)) -> UiFrame {
        let input = self.state.take_egui_input(window);
        let mut output = self.context.run_ui(input, build);
        self.state
            .handle_platform_output(window, std::mem::take(&mut output.platform_output));
        UiFrame::tessellate(&self.context, output)
    }
}

impl UiFrame {
    /// The frame egui produced, tessellated for the painter.
    pub(crate) fn tessellate(context: &egui::Context, mut output: egui::FullOutput) -> Self {
        let viewport = output.viewport_output.remove(&egui::ViewportId::ROOT);
        let pixels_per_point = output.pixels_per_point;
        let jobs = context.tessellate(output.shapes, pixels_per_point);
        // egui says "much later" with Duration::MAX.
        let repaint_after = viewport
            .map(|v| v.repaint_delay)
            .filter(|delay| *delay < Duration::from_secs(3600));
        UiFrame {
            jobs,
            textures: output.textures_delta,
            pixels_per_point,
            repaint_after,
        }
    }
}

/// The presenter side: egui's wgpu painter and the latest UI frame.
pub(crate) struct UiPainter {
    painter: egui_wgpu::Renderer,
    jobs: Vec<egui::ClippedPrimitive>,
    pixels_per_point: f32,
    /// Textures to free once the frame that stopped using them is painted.
    free: Vec<egui::TextureId>,
}

impl UiPainter {
    pub(crate) fn new(gpu: &GpuContext, format: wgpu::TextureFormat) -> Self {
        Self {
            painter: egui_wgpu::Renderer::new(
                gpu.device(),
                format,
                egui_wgpu::RendererOptions::default(),
            ),
            jobs: Vec::new(),
            pixels_per_point: 1.0,
            free: Vec::new(),
        }
    }

    /// Takes the UI to paint on the next frames. Texture uploads happen now,
    /// so a UI frame that is never painted loses nothing.
    pub(crate) fn set(&mut self, gpu: &GpuContext, frame: UiFrame) {
        let UiFrame {
            jobs,
            mut textures,
            pixels_per_point,
            ..
        } = frame;
        for (id, delta) in &textures.set {
            for delta in delta {
                self.painter
                    .update_texture(gpu.device(), gpu.queue(), *id, delta);
            }
        }
        self.free.extend(textures.free.drain());
        // Every delta is applied above or queued in `free`: say so (egui checks on drop).
        textures.clear();
        self.jobs = jobs;
        self.pixels_per_point = pixels_per_point;
    }

    /// Paints the current UI over `target` (over what is there, or over
    /// `clear` when given), in its own submit.
    pub(crate) fn paint(
        &mut self,
        gpu: &GpuContext,
        target: &wgpu::TextureView,
        size: (u32, u32),
        clear: Option<wgpu::Color>,
    ) {
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: self.pixels_per_point,
        };
        let (device, queue) = (gpu.device(), gpu.queue());
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("ui overlay"),
        });
        let mut buffers =
            self.painter
                .update_buffers(device, queue, &mut encoder, &self.jobs, &screen);
        {
            let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui overlay"),
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
            self.painter.render(&mut pass, &self.jobs, &screen);
        }
        buffers.push(encoder.finish());
        queue.submit(buffers);
        for id in self.free.drain(..) {
            self.painter.free_texture(&id);
        }
    }
}
