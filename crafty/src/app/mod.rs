//! The windowed game: the launcher, then play, with egui on top.
//!
//! crafty drives its own winit loop (rather than [`taos_engine::Engine::run`])
//! because it switches between a launcher and play, grabs the pointer for
//! mouse look, and paints egui over the renderer's frame. The simulation is
//! still the engine's: a [`GameLoop`](taos_engine::game_loop::GameLoop) on
//! the real clock, stepped on every redraw.

mod hud;
mod launcher;
mod overlay;
mod play;

use std::sync::Arc;

use taos_engine::input_from_window_event;
use taos_engine::storage::{RedbBackend, block_on};
use taos_renderer::{GpuContext, Renderer, WindowSurface};
use winit::application::ApplicationHandler;
use winit::event::{DeviceEvent, DeviceId, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use crate::render::{CraftyPipelineFeature, CraftyRenderHandle};
use crate::save::{SaveError, WorldStore, decode_thumbnail};
use launcher::{Launcher, LauncherAction, WorldEntry};
use overlay::Overlay;
use play::Play;

/// The window could not be opened or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// No display to open a window on.
    #[error(
        "cannot open a window: {0}.\nWithout a display, play headless instead, e.g.\n  \
         crafty --headless --world new:42 --ticks 600 --screenshot out.png\nor run under Xvfb: \
         xvfb-run -a crafty"
    )]
    NoDisplay(String),
    /// The window or its event loop failed.
    #[error("window: {0}")]
    Window(String),
    /// The GPU surface failed.
    #[error(transparent)]
    Surface(#[from] taos_renderer::SurfaceError),
    /// No GPU.
    #[error(transparent)]
    Gpu(#[from] taos_renderer::ContextError),
    /// The saved worlds could not be opened.
    #[error(transparent)]
    Save(#[from] SaveError),
}

/// Opens the window on the launcher (or straight into `world`, by name) and
/// runs until it closes. Worlds are saved in `backend`; `now_ms` is the wall
/// clock used for "last played" times.
///
/// # Errors
/// [`AppError::NoDisplay`] (with the headless command to use instead), or
/// what failed while opening the window, GPU or saves.
pub fn run(
    backend: RedbBackend,
    world: Option<String>,
    now_ms: fn() -> u64,
) -> Result<(), AppError> {
    let store = block_on(WorldStore::open(&backend))?;
    let event_loop = EventLoop::new().map_err(|e| AppError::NoDisplay(e.to_string()))?;
    let mut app = App {
        store,
        start_world: world,
        now_ms,
        graphics: None,
        screen: Screen::Starting,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| AppError::Window(e.to_string()))?;
    app.error.map_or(Ok(()), Err)
}

struct Graphics {
    window: Arc<Window>,
    renderer: Renderer,
    surface: WindowSurface,
    overlay: Overlay,
    render: CraftyRenderHandle,
}

enum Screen {
    Starting,
    Launcher(Launcher),
    Playing(Box<Play>),
}

struct App {
    store: WorldStore<RedbBackend>,
    start_world: Option<String>,
    now_ms: fn() -> u64,
    graphics: Option<Graphics>,
    screen: Screen,
    error: Option<AppError>,
}

impl App {
    fn open_window(&mut self, event_loop: &ActiveEventLoop) -> Result<(), AppError> {
        let attributes = Window::default_attributes()
            .with_title("crafty")
            .with_inner_size(winit::dpi::PhysicalSize::new(1024, 640));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| AppError::Window(e.to_string()))?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let surface = instance
            .create_surface(window.clone())
            .map_err(taos_renderer::SurfaceError::from)?;
        let gpu = pollster::block_on(GpuContext::from_instance(instance, Some(&surface)))?;
        let size = window.inner_size();
        let surface = WindowSurface::new(&gpu, surface, size.width, size.height)?;
        let overlay = Overlay::new(&window, &gpu, surface.format());
        let mut renderer = Renderer::new(gpu, surface.format());
        let (feature, render) = CraftyPipelineFeature::new();
        renderer.add_feature(feature);
        self.graphics = Some(Graphics {
            window,
            renderer,
            surface,
            overlay,
            render,
        });
        match self.start_world.take() {
            Some(name) => self.play_named(&name),
            None => self.show_launcher(None),
        }
        Ok(())
    }

    fn show_launcher(&mut self, error: Option<String>) {
        let Some(graphics) = &self.graphics else {
            return;
        };
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        match block_on(self.store.list()) {
            Ok(listing) => {
                for broken in listing.unreadable {
                    problems.push(format!(
                        "world {} cannot be read: {}",
                        broken.id, broken.error
                    ));
                }
                for record in listing.worlds {
                    let thumbnail = record.screenshot.as_deref().and_then(|jpeg| {
                        let image = decode_thumbnail(jpeg).ok()?;
                        let size = [image.width() as usize, image.height() as usize];
                        let pixels = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
                        Some(graphics.overlay.context().load_texture(
                            format!("thumb-{}", record.id),
                            pixels,
                            egui::TextureOptions::LINEAR,
                        ))
                    });
                    entries.push(WorldEntry {
                        mode: record.mode(),
                        id: record.id,
                        name: record.name,
                        seed: record.seed,
                        last_played_ms: record.last_played_at,
                        thumbnail,
                    });
                }
            }
            Err(e) => problems.push(format!("cannot list saved worlds: {e}")),
        }
        problems.extend(error);
        let mut launcher = Launcher::new(entries, (self.now_ms)() % 1_000_000);
        launcher.error = (!problems.is_empty()).then(|| problems.join("\n"));
        self.screen = Screen::Launcher(launcher);
        graphics.window.request_redraw();
    }

    fn play_named(&mut self, name: &str) {
        let id = block_on(self.store.list()).ok().and_then(|listing| {
            listing
                .worlds
                .into_iter()
                .find(|w| w.name == name || w.id == name)
                .map(|w| w.id)
        });
        match id {
            Some(id) => self.play(&id),
            None => self.show_launcher(Some(format!("no saved world is called {name:?}"))),
        }
    }

    fn play(&mut self, id: &str) {
        let Some(graphics) = &self.graphics else {
            return;
        };
        match block_on(self.store.load(id)) {
            Ok(loaded) => {
                let warnings: Vec<String> =
                    loaded.warnings.iter().map(ToString::to_string).collect();
                let play = Play::start(loaded, graphics.render.clone(), &graphics.window, warnings);
                self.screen = Screen::Playing(Box::new(play));
                graphics.window.request_redraw();
            }
            Err(e) => self.show_launcher(Some(format!("cannot open that world: {e}"))),
        }
    }

    fn on_launcher_action(&mut self, action: LauncherAction) {
        let now = (self.now_ms)();
        let result = match &action {
            LauncherAction::Play(id) => {
                self.play(id);
                return;
            }
            LauncherAction::Create { name, seed, mode } => {
                let record = crate::save::SavedWorld::create(name.clone(), *seed, *mode, now);
                let id = record.id.clone();
                match block_on(self.store.save(&record)) {
                    Ok(()) => {
                        self.play(&id);
                        return;
                    }
                    Err(e) => Err(e),
                }
            }
            LauncherAction::Rename { id, name } => block_on(self.store.rename(id, name)),
            LauncherAction::Delete(id) => block_on(self.store.delete(id)),
        };
        self.show_launcher(result.err().map(|e| e.to_string()));
    }

    /// Leaves play: saves (with a thumbnail) and returns to the launcher.
    fn leave_play(&mut self) {
        let Screen::Playing(play) = std::mem::replace(&mut self.screen, Screen::Starting) else {
            return;
        };
        let error = self
            .graphics
            .as_mut()
            .and_then(|g| play.finish(&self.store, (self.now_ms)(), g).err())
            .map(|e| format!("saving failed: {e}"));
        self.show_launcher(error);
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let now = (self.now_ms)();
        let Some(graphics) = &mut self.graphics else {
            return;
        };
        let mut launcher_action = None;
        match &mut self.screen {
            Screen::Starting => {}
            Screen::Launcher(launcher) => {
                let size = graphics.surface.size();
                match graphics.surface.acquire(graphics.renderer.gpu()) {
                    Ok(Some(frame)) => {
                        let clear = wgpu::Color {
                            r: 0.05,
                            g: 0.07,
                            b: 0.1,
                            a: 1.0,
                        };
                        graphics.overlay.paint(
                            &graphics.window,
                            graphics.renderer.gpu(),
                            frame.view(),
                            size,
                            Some(clear),
                            |ui| launcher_action = launcher_action.take().or(launcher.ui(ui, now)),
                        );
                        frame.present(graphics.renderer.gpu());
                    }
                    Ok(None) => {}
                    Err(e) => log::warn!("skipping a frame: {e}"),
                }
                event_loop.set_control_flow(ControlFlow::Wait);
            }
            Screen::Playing(play) => {
                if play.frame(&self.store, now, graphics) {
                    event_loop.set_control_flow(ControlFlow::Poll);
                    graphics.window.request_redraw();
                } else {
                    // Minimised or occluded: look again in a moment, without spinning.
                    let later = std::time::Instant::now() + std::time::Duration::from_millis(100);
                    event_loop.set_control_flow(ControlFlow::WaitUntil(later));
                }
            }
        }
        if let Some(action) = launcher_action {
            self.on_launcher_action(action);
        }
    }
}

impl ApplicationHandler for App {
    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: winit::event::StartCause) {
        if let (winit::event::StartCause::ResumeTimeReached { .. }, Some(graphics)) =
            (cause, &self.graphics)
        {
            graphics.window.request_redraw();
        }
    }

    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.graphics.is_none()
            && let Err(error) = self.open_window(event_loop)
        {
            self.error = Some(error);
            event_loop.exit();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(graphics) = &mut self.graphics else {
            return;
        };
        match &event {
            WindowEvent::CloseRequested => {
                if let Screen::Playing(play) = std::mem::replace(&mut self.screen, Screen::Starting)
                    && let Err(error) = play.finish(&self.store, (self.now_ms)(), graphics)
                {
                    log::error!("saving on quit failed: {error}");
                    self.error = Some(AppError::Save(error));
                }
                event_loop.exit();
                return;
            }
            WindowEvent::Resized(size) => {
                graphics
                    .surface
                    .resize(graphics.renderer.gpu(), size.width, size.height);
            }
            WindowEvent::RedrawRequested => {
                self.redraw(event_loop);
                return;
            }
            _ => {}
        }
        let consumed = graphics.overlay.on_event(&graphics.window, &event);
        match &mut self.screen {
            Screen::Playing(play) => {
                if play.on_window_event(&graphics.window, &event, input_from_window_event(&event)) {
                    self.leave_play();
                }
            }
            Screen::Launcher(_) if consumed => graphics.window.request_redraw(),
            _ => graphics.window.request_redraw(),
        }
    }

    fn device_event(&mut self, _event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let (Screen::Playing(play), DeviceEvent::MouseMotion { delta }) =
            (&mut self.screen, event)
        {
            play.mouse_motion(delta.0, delta.1);
        }
    }
}
