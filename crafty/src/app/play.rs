//! One world being played in the window: input, the frame, autosave, and
//! saving with a thumbnail on the way out.

use taos_engine::game_loop::{Input, InputEvent, Key, MouseButton, RealClock};
use taos_engine::storage::{RedbBackend, block_on};
use taos_renderer::{FrameData, OffscreenTarget};
use winit::event::{ElementState, MouseButton as WinitButton, WindowEvent};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, Window};

use super::{Graphics, hud};
use crate::render::CraftyRenderHandle;
use crate::save::{LoadedWorld, SaveError, WorldStore, encode_thumbnail};
use crate::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};

/// Radians of view turn per pixel of mouse motion.
const MOUSE_SENSITIVITY: f32 = 0.0025;
/// Size of the thumbnail render (scaled to 160x90 when encoded).
const THUMBNAIL_RENDER: (u32, u32) = (320, 180);

pub(super) struct Play {
    session: Session,
    render: CraftyRenderHandle,
    captured: bool,
    data: FrameData,
    fps: FpsCounter,
    notice: Option<String>,
    /// After a failed autosave, no new attempt before this time.
    retry_autosave_at: u64,
}

impl Play {
    pub(super) fn start(
        loaded: LoadedWorld,
        render: CraftyRenderHandle,
        window: &Window,
        warnings: Vec<String>,
    ) -> Self {
        for warning in &warnings {
            log::warn!("{warning}");
        }
        window.set_title(&format!("crafty: {}", loaded.record.name));
        let session = Session::start(loaded, RealClock::new(), render.clone());
        Self {
            session,
            render,
            captured: false,
            data: FrameData::default(),
            fps: FpsCounter::default(),
            notice: (!warnings.is_empty()).then(|| warnings.join("\n")),
            retry_autosave_at: 0,
        }
    }

    /// One frame: ticks due on the real clock, autosave, meshing, render,
    /// HUD. Returns false when there was nothing to draw on (minimised).
    pub(super) fn frame(
        &mut self,
        store: &WorldStore<RedbBackend>,
        now_ms: u64,
        graphics: &mut Graphics,
    ) -> bool {
        self.session.game_loop().on_clock();
        self.session.note_progress(now_ms);
        if now_ms >= self.retry_autosave_at {
            match block_on(self.session.autosave_if_due(store, now_ms)) {
                Ok(Some(_)) => self.notice = None,
                Ok(None) => {}
                Err(e) => {
                    log::warn!("autosave failed (retrying in 5 s): {e}");
                    self.notice = Some(format!("autosave failed (retrying in 5 s): {e}"));
                    self.retry_autosave_at = now_ms + crate::save::AUTOSAVE_DELAY_MS;
                }
            }
        }
        self.session
            .sync_render(MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        let size = graphics.surface.size();
        let gpu_frame = match graphics.surface.acquire(graphics.renderer.gpu()) {
            Ok(Some(frame)) => frame,
            Ok(None) => return false,
            Err(e) => {
                log::warn!("skipping a frame: {e}");
                return false;
            }
        };
        self.session.frame_data(&mut self.data, size);
        if let Err(e) = graphics
            .renderer
            .render(&mut self.data, gpu_frame.texture())
        {
            log::error!("frame failed: {e}");
        }
        let fps = self.fps.tick(now_ms);
        let captured = self.captured;
        let notice = self.notice.clone();
        let game = self.session.game();
        graphics.overlay.paint(
            &graphics.window,
            graphics.renderer.gpu(),
            gpu_frame.view(),
            size,
            None,
            |ui| {
                hud::draw(ui, &game.player, fps, captured);
                if let Some(notice) = &notice {
                    ui.colored_label(egui::Color32::YELLOW, notice);
                }
            },
        );
        gpu_frame.present(graphics.renderer.gpu());
        true
    }

    /// Handles a window event; true when the player asked to leave (F10).
    pub(super) fn on_window_event(
        &mut self,
        window: &Window,
        event: &WindowEvent,
        input: Option<InputEvent>,
    ) -> bool {
        match event {
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: WinitButton::Left,
                ..
            } if !self.captured => {
                self.capture(window, true);
                return false;
            }
            WindowEvent::Focused(false) => {
                self.capture(window, false);
                self.release_held_input();
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                match event.physical_key {
                    PhysicalKey::Code(KeyCode::Escape) => self.capture(window, false),
                    PhysicalKey::Code(KeyCode::F10) => return true,
                    _ => {}
                }
            }
            _ => {}
        }
        if let Some(input) = input {
            if let InputEvent::KeyDown(key) = input
                && let Some(slot) = hotbar_key(key)
            {
                self.session.game_mut().player.hotbar.select(slot);
            }
            self.session.game_loop().push_input(input);
        }
        false
    }

    /// Relative mouse motion (pointer locked): turns the view.
    pub(super) fn mouse_motion(&mut self, dx: f64, dy: f64) {
        if self.captured {
            let (yaw, pitch) = (
                -dx as f32 * MOUSE_SENSITIVITY,
                -dy as f32 * MOUSE_SENSITIVITY,
            );
            self.session.game_mut().player.look(yaw, pitch);
        }
    }

    /// Lets go of every held key and button (focus moved elsewhere, so
    /// their releases will not arrive).
    fn release_held_input(&mut self) {
        let game_loop = self.session.game_loop();
        let input = game_loop.scene().world().resource::<Input>();
        let keys: Vec<Key> = input.held_keys().collect();
        let buttons: Vec<MouseButton> =
            [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
                .into_iter()
                .filter(|&b| input.mouse_pressed(b))
                .collect();
        for key in keys {
            game_loop.push_input(InputEvent::KeyUp(key));
        }
        for button in buttons {
            game_loop.push_input(InputEvent::MouseUp(button));
        }
    }

    fn capture(&mut self, window: &Window, on: bool) {
        let grab = if on {
            window
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| window.set_cursor_grab(CursorGrabMode::Confined))
        } else {
            window.set_cursor_grab(CursorGrabMode::None)
        };
        if let Err(e) = grab {
            log::warn!("pointer lock unavailable: {e}");
        }
        window.set_cursor_visible(!on);
        self.captured = on;
    }

    /// Saves (with a fresh thumbnail) and clears this world's chunks from the renderer.
    pub(super) fn finish(
        mut self,
        store: &WorldStore<RedbBackend>,
        now_ms: u64,
        graphics: &mut Graphics,
    ) -> Result<(), SaveError> {
        self.capture(&graphics.window, false);
        graphics.window.set_title("crafty");
        let thumbnail = self.thumbnail(graphics);
        let saved = block_on(self.session.save_now(store, now_ms, thumbnail.as_deref()));
        let loaded: Vec<_> = self.session.game().world.loaded_chunks().collect();
        for pos in loaded {
            self.render.remove_chunk(pos);
        }
        saved.map(|_| ())
    }

    fn thumbnail(&mut self, graphics: &mut Graphics) -> Option<Vec<u8>> {
        let (w, h) = THUMBNAIL_RENDER;
        let format = graphics.surface.format();
        let gpu = graphics.renderer.gpu();
        let target = OffscreenTarget::new(gpu, w, h, format).ok()?;
        self.session.frame_data(&mut self.data, (w, h));
        graphics
            .renderer
            .render(&mut self.data, target.texture())
            .ok()?;
        let mut pixels = target.read_rgba8(graphics.renderer.gpu()).ok()?;
        if matches!(
            format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        ) {
            pixels.chunks_exact_mut(4).for_each(|p| p.swap(0, 2));
        }
        encode_thumbnail(&pixels, w, h).ok()
    }
}

fn hotbar_key(key: Key) -> Option<usize> {
    const DIGITS: [Key; 9] = [
        Key::Digit1,
        Key::Digit2,
        Key::Digit3,
        Key::Digit4,
        Key::Digit5,
        Key::Digit6,
        Key::Digit7,
        Key::Digit8,
        Key::Digit9,
    ];
    DIGITS.iter().position(|&d| d == key)
}

/// Frames per second, averaged over each second.
#[derive(Default)]
struct FpsCounter {
    window_start: u64,
    frames: u32,
    fps: f32,
}

impl FpsCounter {
    fn tick(&mut self, now_ms: u64) -> f32 {
        self.frames += 1;
        let elapsed = now_ms.saturating_sub(self.window_start);
        if elapsed >= 1000 {
            self.fps = self.frames as f32 * 1000.0 / elapsed as f32;
            self.frames = 0;
            self.window_start = now_ms;
        }
        self.fps
    }
}
