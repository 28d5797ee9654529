//! Running an [`Engine`] in a winit window: the one event loop of the
//! workspace. The real clock, the loop's [`Wake`] turned into winit's control
//! flow, window events through the UI overlay and the game's [`App`] hooks
//! to the engine.

mod entry;
mod gamepad;
mod input;
pub(crate) mod route;
#[cfg(target_arch = "wasm32")]
mod web;

use std::sync::Arc;

use web_time::Instant;

use taos_renderer::{GpuContext, Renderer, WindowSurface};
use winit::application::ApplicationHandler;
use winit::event::{DeviceEvent, DeviceId, StartCause};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};

/// How often an idle window looks for changed files while hot reload is on.
const FILE_POLL: std::time::Duration = std::time::Duration::from_millis(50);
use winit::window::{Window, WindowId};

use crate::app::{App, AppError, WindowEvent};
use crate::facade::{Engine, EngineConfig, EngineError};
use crate::game_loop::{Clock, Wake};
use crate::ui::UiInput;

pub use input::{input_from_window_event, text_from_window_event, window_event_from_device};
#[cfg(target_arch = "wasm32")]
pub use web::show_page_error;

/// What a windowed game's setup closure may return: any error (`?` works on
/// `anyhow::Error` and on every `std::error::Error`).
pub type SetupError = AppError;

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
    /// The game's setup closure (or [`App::start`]) failed.
    #[error("the game's setup failed")]
    Setup(#[source] AppError),
    /// A hook of the [`App`] failed while the game ran; the window closed.
    #[error("the game failed")]
    App(#[source] AppError),
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

/// The one winit application of the workspace: a window, its engine, and the
/// game's [`App`] hooks.
struct Driver<A: App> {
    config: EngineConfig,
    title: String,
    preset: Option<Preset>,
    app: A,
    window: Option<Arc<Window>>,
    engine: Option<Engine>,
    ui: Option<UiInput>,
    error: Option<RunError>,
    pads: gamepad::Gamepads,
    /// When the loop (or the UI) asked to be woken, if it did: wakes before
    /// that (to poll gamepads) do not redraw.
    loop_wake: Option<Instant>,
    /// In the browser, the GPU request in flight (it cannot block there).
    #[cfg(target_arch = "wasm32")]
    gpu_request: Option<web::GpuSlot>,
}

/// Runs a setup closure as an [`App`] with no other hooks.
struct SetupOnly<F>(Option<F>);

impl<F> App for SetupOnly<F>
where
    F: FnOnce(&mut Engine) -> Result<(), AppError> + 'static,
{
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        self.0.take().map_or(Ok(()), |setup| setup(engine))
    }
}

/// Opens a window titled `title`, builds an [`Engine`] on it with `preset`,
/// lets `setup` fill the scene, and runs until the window closes (an
/// [`App`] with only [`App::start`]; see [`Engine::run_app`] for the rest).
///
/// # Errors
/// As [`Engine::run_app`].
pub fn run_windowed(
    title: &str,
    config: EngineConfig,
    preset: impl FnOnce(&mut Renderer) + 'static,
    setup: impl FnOnce(&mut Engine) -> Result<(), SetupError> + 'static,
) -> Result<(), RunError> {
    run_app(title, config, preset, SetupOnly(Some(setup)))
}

/// What [`Engine::run_app`] does (see there). In the browser the loop is
/// handed to the page and this returns at once; errors while it runs are
/// shown in the page (see `web::show_error`).
pub(crate) fn run_app(
    title: &str,
    config: EngineConfig,
    preset: impl FnOnce(&mut Renderer) + 'static,
    app: impl App,
) -> Result<(), RunError> {
    crate::init_logging();
    let event_loop = EventLoop::new().map_err(RunError::NoDisplay)?;
    let driver = Driver {
        config,
        title: title.to_owned(),
        preset: Some(Box::new(preset)),
        app,
        window: None,
        engine: None,
        ui: None,
        error: None,
        pads: gamepad::Gamepads::open(),
        loop_wake: None,
        #[cfg(target_arch = "wasm32")]
        gpu_request: None,
    };
    #[cfg(target_arch = "wasm32")]
    {
        use winit::platform::web::EventLoopExtWebSys;
        event_loop.spawn_app(driver);
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut driver = driver;
        event_loop
            .run_app(&mut driver)
            .map_err(RunError::EventLoop)?;
        driver.error.map_or(Ok(()), Err)
    }
}

impl<A: App> Driver<A> {
    /// Opens the window and asks for a GPU: natively it waits for the
    /// answer and finishes starting; in the browser the answer comes later
    /// (see [`Self::gpu_answered`]).
    #[cfg(not(target_arch = "wasm32"))]
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
        let gpu = taos_renderer::without_wayland_noise(|| {
            pollster::block_on(GpuContext::from_instance(instance, Some(&surface)))
        })
        .map_err(EngineError::from)?;
        self.finish_start(window, gpu, surface)
    }

    /// In the page: a canvas appended to the body (the page's style sizes
    /// it; its pixels follow the device pixel ratio), and the GPU requested
    /// in the background.
    #[cfg(target_arch = "wasm32")]
    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), RunError> {
        use winit::platform::web::WindowAttributesExtWebSys;
        if self.gpu_request.is_some() {
            return Ok(());
        }
        // The page's own canvas when it has one (`<canvas id="taos-canvas">`),
        // else a new one appended to the body.
        let attributes = match web::page_canvas() {
            Some(canvas) => Window::default_attributes()
                .with_title(self.title.clone())
                .with_canvas(Some(canvas)),
            None => Window::default_attributes()
                .with_title(self.title.clone())
                .with_append(true),
        };
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(RunError::Window)?,
        );
        web::resume_audio_on_gesture();
        self.gpu_request = Some(web::request_gpu(window.clone()));
        self.window = Some(window);
        Ok(())
    }

    /// In the page: finishes starting once the browser has answered the
    /// GPU request (a no-op before that, and after).
    #[cfg(target_arch = "wasm32")]
    fn gpu_answered(&mut self, event_loop: &ActiveEventLoop) {
        let Some(answer) = self
            .gpu_request
            .as_ref()
            .and_then(|slot| slot.borrow_mut().take())
        else {
            return;
        };
        self.gpu_request = None;
        let started = match (answer, self.window.clone()) {
            (Ok((gpu, surface)), Some(window)) => self.finish_start(window, gpu, surface),
            (Err(error), _) => Err(error),
            (Ok(_), None) => return,
        };
        if let Err(error) = started {
            self.fail(error, event_loop);
        }
    }

    /// Everything after the GPU: the surface configured, the renderer with
    /// the preset's features, the UI, the engine, and the app's start.
    fn finish_start(
        &mut self,
        window: Arc<Window>,
        gpu: GpuContext,
        surface: wgpu::Surface<'static>,
    ) -> Result<(), RunError> {
        let size = window.inner_size();
        let mut surface = WindowSurface::new(&gpu, surface, size.width, size.height)?;
        let max_texture = gpu.device().limits().max_texture_dimension_2d as usize;
        let ui = UiInput::new(&window, max_texture);
        let mut renderer = Renderer::new(gpu, surface.format());
        // A preset asked for HDR output (`PresetOptions::hdr_output`) takes
        // the surface's HDR format before it sets up any feature; the
        // surface then presents in whatever the renderer settled on.
        renderer.offer_hdr_output(surface.hdr_offer());
        if let Some(preset) = self.preset.take() {
            preset(&mut renderer);
        }
        if renderer.output_format() != surface.format() {
            surface.set_format(renderer.gpu(), renderer.output_format())?;
            log::info!(
                "presenting in {:?} ({:?})",
                surface.format(),
                surface.output_color()
            );
        }
        let mut engine = Engine::windowed(
            self.config,
            renderer,
            surface,
            window.clone(),
            ui.context().clone(),
        )?;
        self.app.start(&mut engine).map_err(RunError::Setup)?;
        engine.resize(size.width, size.height);
        window.request_redraw();
        self.window = Some(window);
        self.engine = Some(engine);
        self.ui = Some(ui);
        Ok(())
    }

    fn fail(&mut self, error: RunError, event_loop: &ActiveEventLoop) {
        // In the page nobody waits for `run_app` to return: show it there.
        #[cfg(target_arch = "wasm32")]
        web::show_error(&error);
        if self.error.is_none()
            && let Some(engine) = &mut self.engine
        {
            self.app.stopping(engine, &error);
        }
        if self.error.is_none() {
            self.error = Some(error);
        }
        event_loop.exit();
    }

    /// One redraw: the app's update and UI, then the loop's clock callback
    /// (which renders and paints the UI when it presents).
    fn redraw(&mut self, event_loop: &ActiveEventLoop) -> Result<(), RunError> {
        let (Some(engine), Some(window), Some(ui)) = (&mut self.engine, &self.window, &mut self.ui)
        else {
            return Ok(());
        };
        engine.stats.redraws += 1;
        self.app.update(engine).map_err(RunError::App)?;
        let app = &mut self.app;
        let frame = ui.run(window, |ui| {
            app.ui(engine, ui);
            engine.draw_graph_overlay(ui);
            engine.draw_reload_error(ui);
        });
        let ui_repaint_at = frame.repaint_after.map(|after| Instant::now() + after);
        let ui_wants_frame = frame.repaint_after.is_some_and(|after| after.is_zero());
        engine.set_ui_frame(frame);
        // A frame that failed to render was logged by the renderer; the
        // window goes on with the next one.
        let (outcome, _rendered) = engine.on_clock();
        if !outcome.presented && engine.game_loop().is_paused() {
            // Exposed, resized or UI input while paused: repaint the
            // current state, no tick.
            let _rendered = engine.present();
        }
        if let Some(error) = engine.game_loop().take_errors().into_iter().next() {
            return Err(RunError::Update(error));
        }
        if engine.exit_requested() {
            event_loop.exit();
            return Ok(());
        }
        let game = engine.game_loop();
        let mut flow = control_flow_for(outcome.wake, game.clock().as_ref(), window);
        for at in [ui_repaint_at, engine.take_wake_at()].into_iter().flatten() {
            flow = match flow {
                ControlFlow::Wait => ControlFlow::WaitUntil(at),
                ControlFlow::WaitUntil(t) => ControlFlow::WaitUntil(t.min(at)),
                poll => poll,
            };
        }
        if ui_wants_frame {
            window.request_redraw();
        }
        self.loop_wake = match flow {
            ControlFlow::WaitUntil(at) => Some(at),
            _ => None,
        };
        event_loop.set_control_flow(flow);
        Ok(())
    }

    /// While hot reload is on, wakes at least every [`FILE_POLL`] to see
    /// whether a watched file changed, and redraws (which applies it) when
    /// one did: an idle or paused game still shows an edit at once.
    fn poll_file_changes(&mut self, event_loop: &ActiveEventLoop) {
        let (Some(engine), Some(window)) = (&self.engine, &self.window) else {
            return;
        };
        if !engine.hot_reload().is_enabled() {
            return;
        }
        if engine.hot_reload().has_pending() {
            window.request_redraw();
        }
        let poll_at = Instant::now() + FILE_POLL;
        let flow = match event_loop.control_flow() {
            ControlFlow::Poll => ControlFlow::Poll,
            _ => ControlFlow::WaitUntil(self.loop_wake.map_or(poll_at, |t| t.min(poll_at))),
        };
        event_loop.set_control_flow(flow);
    }

    /// Hands new gamepad input to the game (as input events, through the
    /// app's hook like any other) and keeps polling while a pad is
    /// connected. Returns whether the window should close.
    fn poll_gamepads(&mut self, event_loop: &ActiveEventLoop) -> Result<bool, RunError> {
        let events = self.pads.poll();
        let any = !events.is_empty();
        for event in events {
            if self.dispatch(WindowEvent::Input {
                event,
                ui_consumed: false,
            })? {
                return Ok(true);
            }
        }
        if any && let Some(window) = &self.window {
            window.request_redraw();
        }
        if self.pads.any_connected() {
            let poll_at = Instant::now() + gamepad::PAD_POLL;
            let flow = match event_loop.control_flow() {
                ControlFlow::Poll => ControlFlow::Poll,
                _ => ControlFlow::WaitUntil(self.loop_wake.map_or(poll_at, |t| t.min(poll_at))),
            };
            event_loop.set_control_flow(flow);
        }
        Ok(false)
    }

    /// Hands `event` to the app, then does the engine's part unless the app
    /// stopped it ([`route::route_event`]). Returns whether the window should close.
    fn dispatch(&mut self, event: WindowEvent) -> Result<bool, RunError> {
        let Some(engine) = &mut self.engine else {
            return Ok(false);
        };
        route::route_event(engine, &mut self.app, event)
    }
}

impl<A: App> ApplicationHandler for Driver<A> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.engine.is_none()
            && let Err(error) = self.start(event_loop)
        {
            self.fail(error, event_loop);
        }
    }

    fn new_events(&mut self, _event_loop: &ActiveEventLoop, cause: StartCause) {
        if let Some(engine) = &mut self.engine {
            engine.stats.wakeups += 1;
        }
        // A wake for the loop redraws; an earlier one (to poll gamepads) does not.
        if let StartCause::ResumeTimeReached {
            requested_resume, ..
        } = cause
            && self.loop_wake.is_some_and(|at| requested_resume >= at)
            && let Some(window) = &self.window
        {
            window.request_redraw();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        match self.poll_gamepads(event_loop) {
            Ok(true) => event_loop.exit(),
            Ok(false) => {}
            Err(error) => self.fail(error, event_loop),
        }
        self.poll_file_changes(event_loop);
    }

    fn window_event(
        &mut self,
        event_loop: &ActiveEventLoop,
        _id: WindowId,
        event: winit::event::WindowEvent,
    ) {
        #[cfg(target_arch = "wasm32")]
        self.gpu_answered(event_loop);
        let (Some(window), Some(ui)) = (&self.window, &mut self.ui) else {
            return;
        };
        if let winit::event::WindowEvent::RedrawRequested = event {
            if let Err(error) = self.redraw(event_loop) {
                self.fail(error, event_loop);
            }
            return;
        }
        let ui_consumed = ui.on_window_event(window, &event);
        let window = window.clone();
        let ours: Vec<WindowEvent> = match &event {
            winit::event::WindowEvent::CloseRequested => vec![WindowEvent::CloseRequested],
            winit::event::WindowEvent::Resized(size) => vec![WindowEvent::Resized {
                width: size.width,
                height: size.height,
            }],
            winit::event::WindowEvent::Occluded(hidden) => vec![WindowEvent::Occluded(*hidden)],
            winit::event::WindowEvent::Focused(focused) => vec![WindowEvent::Focused(*focused)],
            // A key press first, then the characters it typed.
            other => input_from_window_event(other)
                .into_iter()
                .chain(text_from_window_event(other))
                .map(|event| WindowEvent::Input { event, ui_consumed })
                .collect(),
        };
        for event in ours {
            match self.dispatch(event) {
                Ok(true) => {
                    event_loop.exit();
                    break;
                }
                Err(error) => {
                    self.fail(error, event_loop);
                    break;
                }
                Ok(false) => {}
            }
        }
        // Input may change what the game or its UI shows.
        window.request_redraw();
    }

    fn device_event(&mut self, event_loop: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        let Some(event) = window_event_from_device(&event) else {
            return;
        };
        match self.dispatch(event) {
            Ok(true) => event_loop.exit(),
            Ok(false) => {
                // The motion may wake a loop sleeping until input.
                if let Some(window) = &self.window {
                    window.request_redraw();
                }
            }
            Err(error) => self.fail(error, event_loop),
        }
    }
}

/// Turns the loop's [`Wake`] into winit's control flow: redraw now (and
/// poll), sleep until the deadline, or sleep until an event. The deadline is
/// on the loop's own `clock` (whatever its origin: a game that switched
/// loops brings a new one), so it is measured from that clock's reading now.
fn control_flow_for(wake: Wake, clock: &dyn Clock, window: &Window) -> ControlFlow {
    match wake {
        Wake::Now => {
            window.request_redraw();
            // In the page the redraw is an animation frame, paced by the
            // browser; polling as well would spin the event loop on
            // scheduler tasks and starve those frames.
            if cfg!(target_arch = "wasm32") {
                ControlFlow::Wait
            } else {
                ControlFlow::Poll
            }
        }
        Wake::At(at) => ControlFlow::WaitUntil(deadline(at, clock, Instant::now())),
        Wake::OnEvent => ControlFlow::Wait,
    }
}

/// The instant when `clock` will read `at`, given that it reads `clock.now()`
/// at `now`.
fn deadline(at: std::time::Duration, clock: &dyn Clock, now: Instant) -> Instant {
    now + at.saturating_sub(clock.now())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;
    use web_time::Instant;

    use super::deadline;
    use crate::game_loop::ManualClock;

    #[test]
    fn a_deadline_is_measured_on_the_loops_own_clock() {
        // A loop whose clock started long after the window's (it was built
        // after the GPU, or a game switched loops): its deadlines are still
        // in the future. Measured against another clock's origin they fell
        // in the past and the window spun until the loop's first tick.
        let clock = ManualClock::new();
        clock.advance(Duration::from_millis(5_000));
        let now = Instant::now();
        let at = deadline(Duration::from_millis(5_100), &clock, now);
        assert_eq!(at - now, Duration::from_millis(100));
        assert_eq!(
            deadline(Duration::from_millis(10), &clock, now),
            now,
            "past deadlines are now"
        );
    }
}
