//! Running an [`Engine`] in a winit window: the real clock, the loop's
//! [`Wake`] turned into winit's control flow, resize and input forwarded.

mod input;

use std::sync::Arc;

use taos_renderer::{GpuContext, Renderer, WindowSurface};
use winit::application::ApplicationHandler;
use winit::event::{StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use crate::facade::{Engine, EngineConfig, EngineError};
use crate::game_loop::{RealClock, Wake};

pub use input::input_from_window_event;

/// What a windowed game's setup closure may return: any error (`?` works on
/// `anyhow::Error` and on every `std::error::Error`).
pub type SetupError = Box<dyn std::error::Error + Send + Sync>;

/// The window could not be opened, the engine not built, or the game failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// No display (no X11 or Wayland).
    #[error(
        "cannot open a window (no display). Without a display, run headless (e.g. \
         `--headless`) or under Xvfb: `xvfb-run -a <command>`"
    )]
    NoDisplay(#[source] winit::error::EventLoopError),
    /// The event loop failed while running.
    #[error("the window's event loop failed")]
    EventLoop(#[source] winit::error::EventLoopError),
    /// Creating the window failed.
    #[error("cannot create the window")]
    Window(#[source] winit::error::OsError),
    /// The game's setup closure failed.
    #[error("the game's setup failed")]
    Setup(#[source] SetupError),
    /// A behaviour or queued command failed while the game ran; the window closed.
    #[error(transparent)]
    Update(#[from] crate::UpdateError),
    /// The GPU surface could not be created or configured.
    #[error(transparent)]
    Surface(#[from] taos_renderer::SurfaceError),
    /// Building the engine failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

type Preset = Box<dyn FnOnce(&mut Renderer)>;
type Setup = Box<dyn FnOnce(&mut Engine) -> Result<(), SetupError>>;

struct App {
    config: EngineConfig,
    title: String,
    preset: Option<Preset>,
    setup: Option<Setup>,
    window: Option<Arc<Window>>,
    engine: Option<Engine>,
    clock: RealClock,
    error: Option<RunError>,
}

/// Opens a window titled `title`, builds an [`Engine`] on it with `preset`,
/// lets `setup` fill the scene, and runs until the window closes.
///
/// The window driver follows the loop's [`Wake`]: it sleeps until an event
/// or the next due frame, tick or timer; paints a paused game on expose and
/// resize without ticking it; and lets go of held keys when focus leaves.
///
/// # Errors
/// [`RunError::NoDisplay`] with a hint when there is no display,
/// [`RunError::Setup`] with what `setup` returned, [`RunError::Update`] when a
/// behaviour fails while running, or what building the window, surface or
/// engine reported.
pub fn run_windowed(
    title: &str,
    config: EngineConfig,
    preset: impl FnOnce(&mut Renderer) + 'static,
    setup: impl FnOnce(&mut Engine) -> Result<(), SetupError> + 'static,
) -> Result<(), RunError> {
    crate::init_logging();
    let event_loop = EventLoop::new().map_err(RunError::NoDisplay)?;
    let mut app = App {
        config,
        title: title.to_owned(),
        preset: Some(Box::new(preset)),
        setup: Some(Box::new(setup)),
        window: None,
        engine: None,
        clock: RealClock::new(),
        error: None,
    };
    event_loop.run_app(&mut app).map_err(RunError::EventLoop)?;
    app.error.map_or(Ok(()), Err)
}

impl App {
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), RunError> {
        let attributes = Window::default_attributes()
            .with_title(self.title.clone())
            .with_inner_size(winit::dpi::PhysicalSize::new(
                self.config.width,
                self.config.height,
            ));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(RunError::Window)?,
        );
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let surface = instance
            .create_surface(window.clone())
            .map_err(taos_renderer::SurfaceError::from)?;
        let gpu = pollster::block_on(GpuContext::from_instance(instance, Some(&surface)))
            .map_err(EngineError::from)?;
        let size = window.inner_size();
        let surface = WindowSurface::new(&gpu, surface, size.width, size.height)?;
        let mut renderer = Renderer::new(gpu, surface.format());
        if let Some(preset) = self.preset.take() {
            preset(&mut renderer);
        }
        let mut engine = Engine::windowed(self.config, renderer, surface)?;
        if let Some(setup) = self.setup.take() {
            setup(&mut engine).map_err(RunError::Setup)?;
        }
        engine.resize(size.width, size.height);
        window.request_redraw();
        self.window = Some(window);
        self.engine = Some(engine);
        Ok(())
    }

    fn follow(&self, wake: Wake, event_loop: &ActiveEventLoop) {
        event_loop.set_control_flow(control_flow_for(wake, &self.clock, self.window.as_deref()));
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.engine.is_none()
            && let Err(error) = self.start(event_loop)
        {
            self.error = Some(error);
            event_loop.exit();
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        if matches!(cause, StartCause::ResumeTimeReached { .. })
            && let Some(window) = &self.window
        {
            window.request_redraw();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(engine) = &mut self.engine else {
            return;
        };
        let input = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                return;
            }
            WindowEvent::Resized(size) => {
                engine.resize(size.width, size.height);
                // A paused game gets no callback frames: paint it now.
                if engine.game_loop().is_paused() && size.width > 0 && size.height > 0 {
                    engine.game_loop().present();
                }
                None
            }
            WindowEvent::Occluded(hidden) => {
                engine.game_loop().set_visible(!hidden);
                None
            }
            WindowEvent::Focused(false) => {
                engine.game_loop().release_held_input();
                None
            }
            WindowEvent::RedrawRequested => {
                let game = engine.game_loop();
                let outcome = game.on_clock();
                if !outcome.presented && game.is_paused() {
                    // Exposed while paused: repaint the current state, no tick.
                    game.present();
                }
                if let Some(error) = game.take_errors().into_iter().next() {
                    self.error = Some(RunError::Update(error));
                    event_loop.exit();
                    return;
                }
                self.follow(outcome.wake, event_loop);
                return;
            }
            other => input_from_window_event(&other),
        };
        if let Some(input) = input {
            engine.game_loop().push_input(input);
        }
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }
}

/// Turns the loop's [`Wake`] into winit's control flow: redraw now (and
/// poll), sleep until the deadline on `clock`, or sleep until an event.
#[must_use]
pub fn control_flow_for(wake: Wake, clock: &RealClock, window: Option<&Window>) -> ControlFlow {
    match wake {
        Wake::Now => {
            if let Some(window) = window {
                window.request_redraw();
            }
            ControlFlow::Poll
        }
        Wake::At(at) => ControlFlow::WaitUntil(clock.instant_at(at)),
        Wake::OnEvent => ControlFlow::Wait,
    }
}
