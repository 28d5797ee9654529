//! Presenting to a window: configure, resize, acquire, recover.
//!
//! A zero-size (minimised) window is never configured; acquiring a frame then
//! returns `Ok(None)` and the caller skips the frame. An outdated or lost
//! surface is reconfigured and tried once more before it counts as an error.

use super::GpuContext;
use super::error::SurfaceError;

/// A window's surface and its configuration.
#[derive(Debug)]
pub struct WindowSurface {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    configured: bool,
}

/// One acquired frame: render into [`view`](Frame::view), then
/// [`present`](Frame::present).
#[derive(Debug)]
pub struct Frame {
    texture: wgpu::SurfaceTexture,
    view: wgpu::TextureView,
}

impl Frame {
    /// The view to render into.
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// The texture behind the frame (to import into a render graph).
    #[must_use]
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture.texture
    }

    /// Shows the frame.
    pub fn present(self, ctx: &GpuContext) {
        ctx.queue().present(self.texture);
    }
}

impl WindowSurface {
    /// Configures `surface` (created from `ctx.instance()`) for a window of
    /// `width` x `height` pixels, with vsync (FIFO) presentation.
    ///
    /// # Errors
    /// [`SurfaceError::Unsupported`] if the adapter cannot present to it.
    pub fn new(
        ctx: &GpuContext,
        surface: wgpu::Surface<'static>,
        width: u32,
        height: u32,
    ) -> Result<Self, SurfaceError> {
        let caps = surface.get_capabilities(ctx.adapter());
        let format = caps
            .formats
            .iter()
            .copied()
            .find(wgpu::TextureFormat::is_srgb)
            .or_else(|| caps.formats.first().copied())
            .ok_or(SurfaceError::Unsupported)?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width,
            height,
            present_mode: wgpu::PresentMode::Fifo,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: Vec::new(),
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        let mut this = Self {
            surface,
            config,
            configured: false,
        };
        this.resize(ctx, width, height);
        Ok(this)
    }

    /// The surface's texture format.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Current size in pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Follows a window resize. A zero width or height leaves the surface
    /// unconfigured until the window has a size again.
    pub fn resize(&mut self, ctx: &GpuContext, width: u32, height: u32) {
        self.config.width = width;
        self.config.height = height;
        self.configured = width > 0 && height > 0;
        if self.configured {
            self.surface.configure(ctx.device(), &self.config);
        }
    }

    /// Acquires the next frame; `Ok(None)` when there is nothing to draw on
    /// (zero-size, occluded, timed out): skip this frame.
    ///
    /// # Errors
    /// [`SurfaceError::Lost`] when reconfiguring does not recover the surface,
    /// [`SurfaceError::Validation`] on a validation error.
    pub fn acquire(&mut self, ctx: &GpuContext) -> Result<Option<Frame>, SurfaceError> {
        if !self.configured {
            return Ok(None);
        }
        for attempt in 0..2 {
            match self.surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(texture) => return Ok(Some(frame(texture))),
                wgpu::CurrentSurfaceTexture::Suboptimal(texture) => {
                    // Use this one; reconfigure for the next.
                    let frame = frame(texture);
                    self.surface.configure(ctx.device(), &self.config);
                    return Ok(Some(frame));
                }
                wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                    return Ok(None);
                }
                wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                    log::warn!(
                        "window surface outdated or lost; reconfiguring (attempt {attempt})"
                    );
                    self.surface.configure(ctx.device(), &self.config);
                }
                wgpu::CurrentSurfaceTexture::Validation => return Err(SurfaceError::Validation),
            }
        }
        Err(SurfaceError::Lost)
    }
}

fn frame(texture: wgpu::SurfaceTexture) -> Frame {
    let view = texture
        .texture
        .create_view(&wgpu::TextureViewDescriptor::default());
    Frame { texture, view }
}
