//! What an [`Engine`] in a window controls: the pointer, the cursor, the
//! title, redraws and wake-ups, exit, the UI overlay and the backdrop, and
//! what the window driver tells it (a resize).

#[allow(clippy::wildcard_imports)]
use super::*;

impl Engine {
    /// Whether this engine draws into a window (`false`: headless).
    #[must_use]
    pub fn is_windowed(&self) -> bool {
        self.window.is_some()
    }

    /// Locks the pointer to the window and hides it (mouse look), or frees
    /// and shows it. Returns whether the pointer is now held: `false` when
    /// the platform refused (the error is logged) or the engine is headless.
    pub fn set_pointer_locked(&mut self, locked: bool) -> bool {
        let Some(window) = &self.window else {
            return false;
        };
        let grab = if locked {
            window
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| window.set_cursor_grab(CursorGrabMode::Confined))
        } else {
            window.set_cursor_grab(CursorGrabMode::None)
        };
        window.set_cursor_visible(!locked);
        match grab {
            Ok(()) => locked,
            Err(error) => {
                log::warn!("pointer lock unavailable: {error}");
                false
            }
        }
    }

    /// Shows or hides the mouse cursor over the window.
    pub fn set_cursor_visible(&mut self, visible: bool) {
        if let Some(window) = &self.window {
            window.set_cursor_visible(visible);
        }
    }

    /// Sets the window's title (in the browser, the page's title).
    pub fn set_title(&mut self, title: &str) {
        if let Some(window) = &self.window {
            window.set_title(title);
            // A canvas has no title bar: the page's (its tab's) title.
            #[cfg(target_arch = "wasm32")]
            if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                document.set_title(title);
            }
        }
    }

    /// Asks for a redraw soon, even if the loop is paused (a UI change).
    pub fn request_redraw(&self) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }

    /// Ends [`run_app`](Self::run_app) after the current event, as if the
    /// window closed (without asking the app again).
    pub fn request_exit(&mut self) {
        self.exit_requested = true;
    }

    /// Asks the window driver to run a frame by `at` even if the loop has
    /// nothing due then (a deadline outside the simulation: an autosave, the
    /// end of a measurement). [`App::update`](crate::App::update) runs then.
    /// The earliest request wins; each is used once.
    pub fn wake_at(&mut self, at: web_time::Instant) {
        self.wake_at = Some(self.wake_at.map_or(at, |earlier| earlier.min(at)));
    }

    /// The answer of `task` if it has come (once), else `None` with a frame
    /// asked for soon (16 ms) so the game's [`App::update`](crate::App::update)
    /// looks again even when nothing else would wake the window. The way to
    /// wait for saves and assets in a per-frame hook, natively and in the
    /// browser alike (see [`Task`](crate::Task)).
    pub fn poll<T>(&mut self, task: &mut crate::Task<T>) -> Option<T> {
        let answer = task.take();
        if answer.is_none() && !task.is_taken() {
            self.wake_at(crate::time::Instant::now() + std::time::Duration::from_millis(16));
        }
        answer
    }

    pub(crate) fn take_wake_at(&mut self) -> Option<web_time::Instant> {
        self.wake_at.take()
    }

    /// Whether [`request_exit`](Self::request_exit) was called: the run
    /// ends after the current event.
    #[must_use]
    pub fn exit_requested(&self) -> bool {
        self.exit_requested
    }

    /// The UI overlay's egui context (to load textures, set styles);
    /// `None` for a headless engine.
    #[must_use]
    pub fn ui_context(&self) -> Option<&egui::Context> {
        self.ui_context.as_ref()
    }

    /// Renders the scene (`true`, the default), or only the UI overlay over a
    /// plain backdrop (`false`: a launcher or menu screen costs no scene
    /// rendering).
    pub fn show_scene(&mut self, show: bool) {
        self.render.show_scene = show;
    }

    /// The colour behind the UI while the scene is hidden (linear RGBA).
    pub fn set_backdrop(&mut self, rgba: [f64; 4]) {
        let [r, g, b, a] = rgba;
        self.render.backdrop = wgpu::Color { r, g, b, a };
    }

    /// What the window driver did so far (zero for a headless engine).
    #[must_use]
    pub fn window_stats(&self) -> WindowStats {
        self.stats
    }

    /// Gives a headless engine a UI overlay: `context` is what
    /// [`ui_context`](Self::ui_context) returns, and its frames are painted
    /// over the offscreen output (in screenshots too).
    pub(crate) fn attach_ui(&mut self, context: egui::Context) {
        let format = match &self.render.output {
            Output::Offscreen(target) => target.format(),
            Output::Window(surface) => surface.format(),
        };
        self.render.ui = Some(UiPainter::new(self.render.renderer.gpu(), format));
        self.ui_context = Some(context);
    }

    pub(crate) fn set_ui_frame(&mut self, frame: crate::ui::UiFrame) {
        let render = &mut self.render;
        if let Some(ui) = &mut render.ui {
            ui.set(render.renderer.gpu(), frame);
        }
    }

    /// Follows a new output size: the surface, the loop's reported size, the
    /// camera's aspect. A zero-size (minimised) window stops ticking.
    pub(crate) fn resize(&mut self, width: u32, height: u32) {
        let visible = width > 0 && height > 0;
        self.game.set_visible(visible);
        self.game.set_size(width, height);
        let render = &mut self.render;
        if let Output::Window(surface) = &mut render.output {
            surface.resize(render.renderer.gpu(), width, height);
        }
        self.set_camera_aspect(width, height);
    }
}
