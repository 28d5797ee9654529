//! Pictures out of an [`Engine`]: screenshots, pixels, and captures at
//! another size (now or read back later).

#[allow(clippy::wildcard_imports)]
use super::*;

impl Engine {
    /// Writes the last headless frame to a PNG file.
    ///
    /// # Errors
    /// [`EngineError::NotHeadless`], [`EngineError::Target`] if the read-back
    /// fails, [`EngineError::Screenshot`] if the file cannot be written.
    pub fn screenshot(&mut self, path: impl AsRef<Path>) -> Result<(), EngineError> {
        let render = &self.render;
        let Output::Offscreen(target) = &render.output else {
            return Err(EngineError::NotHeadless);
        };
        let pixels = target.read_rgba8(render.renderer.gpu())?;
        let (width, height) = target.size();
        let image = image::RgbaImage::from_raw(width, height, pixels)
            .expect("read-back returns width * height RGBA pixels");
        image
            .save(path.as_ref())
            .map_err(|source| EngineError::Screenshot {
                path: path.as_ref().to_owned(),
                source,
            })
    }

    /// Renders the current state once more into an offscreen image of
    /// `width` x `height` (a save thumbnail, a photo mode) and returns its
    /// RGBA8 pixels; the window is not touched and no tick runs. The camera
    /// takes the image's aspect for that frame. The frame counts as one
    /// (`after_frame` hooks see it). Waits for the GPU: in the browser use
    /// [`capture_later`](Self::capture_later).
    ///
    /// # Errors
    /// [`EngineError::Target`] for a zero size or a failed read-back,
    /// [`EngineError::Render`] if the frame failed.
    pub fn capture(&mut self, width: u32, height: u32) -> Result<Vec<u8>, EngineError> {
        Ok(self.capture_later(width, height)?.wait()?)
    }

    /// Renders as [`capture`](Self::capture) does, now, but returns before
    /// the GPU has finished: the pixels come through the returned future,
    /// which owns everything it needs (move it into an async task and await
    /// it there). This is how a page captures, since it must not block on
    /// the GPU; keep frames coming while it is awaited, as on WebGL2 the
    /// answer is collected on a later submit.
    ///
    /// ```no_run
    /// # fn demo(engine: &mut taos_engine::Engine) -> Result<(), taos_engine::EngineError> {
    /// let pixels = engine.capture_later(320, 180)?;
    /// let rgba: Vec<u8> = taos_engine::storage::block_on(pixels)?;
    /// assert_eq!(rgba.len(), 320 * 180 * 4);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`EngineError::Target`] for a zero size, [`EngineError::Render`] if
    /// the frame failed.
    pub fn capture_later(
        &mut self,
        width: u32,
        height: u32,
    ) -> Result<PendingReadback, EngineError> {
        let render = &mut self.render;
        let format = match &render.output {
            Output::Offscreen(target) => target.format(),
            Output::Window(surface) => surface.format(),
        };
        let target = OffscreenTarget::new(render.renderer.gpu(), width, height, format)?;
        let own = std::mem::replace(&mut render.output, Output::Offscreen(target));
        let (own_width, own_height) = self.game.frame_info().size;
        self.set_camera_aspect(width, height);
        let rendered = self.present();
        self.set_camera_aspect(own_width, own_height);
        let render = &mut self.render;
        let Output::Offscreen(target) = std::mem::replace(&mut render.output, own) else {
            unreachable!("the offscreen target put in above");
        };
        rendered?;
        Ok(target.read_rgba8_later(render.renderer.gpu()))
    }

    pub(super) fn set_camera_aspect(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        let scene = self.game.scene_mut();
        if let Some(camera) = scene.render_camera()
            && let Some(mut camera) = scene.get_component_mut::<crate::Camera>(camera)
        {
            camera.set_aspect(width as f32 / height as f32);
        }
    }

    /// The last headless frame as RGBA8 pixels.
    ///
    /// # Errors
    /// As [`screenshot`](Self::screenshot), without the file.
    pub fn read_pixels(&mut self) -> Result<Vec<u8>, EngineError> {
        let render = &self.render;
        let Output::Offscreen(target) = &render.output else {
            return Err(EngineError::NotHeadless);
        };
        Ok(target.read_rgba8(render.renderer.gpu())?)
    }
}
