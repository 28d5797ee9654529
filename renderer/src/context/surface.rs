//! Presenting to a window: configure, resize, acquire, recover.
//!
//! A zero-size (minimised) window is never configured; acquiring a frame then
//! returns `Ok(None)` and the caller skips the frame. An outdated or lost
//! surface is reconfigured and tried once more before it counts as an error.
//!
//! A surface starts in its SDR (sRGB) format; [`WindowSurface::set_format`]
//! moves it to the HDR format it offers ([`WindowSurface::hdr_offer`]), see
//! [`choose_output_format`].

use super::GpuContext;
use super::error::SurfaceError;
use super::output_color::{HdrFallback, OutputColor, choose_output_format};

/// A window's surface and its configuration.
#[derive(Debug)]
pub struct WindowSurface {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    configured: bool,
    /// What the surface offers (formats and colour spaces).
    capabilities: wgpu::SurfaceCapabilities,
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
    /// `width` x `height` pixels, with vsync (FIFO) presentation, in its first
    /// sRGB format (SDR).
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
        let choice =
            choose_output_format(&caps, OutputColor::Sdr).ok_or(SurfaceError::Unsupported)?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format: choice.format,
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
            color_space: choice.color_space,
        };
        let mut this = Self {
            surface,
            config,
            configured: false,
            capabilities: caps,
        };
        this.resize(ctx, width, height);
        Ok(this)
    }

    /// The surface's texture format.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Whether the surface presents an SDR or an HDR image.
    #[must_use]
    pub fn output_color(&self) -> OutputColor {
        OutputColor::of_format(self.config.format)
    }

    /// The HDR format this surface could present in, or why there is none
    /// (see [`choose_output_format`]).
    ///
    /// # Errors
    /// [`HdrFallback::NotOffered`] with what the surface offers.
    pub fn hdr_offer(&self) -> Result<wgpu::TextureFormat, HdrFallback> {
        match choose_output_format(&self.capabilities, OutputColor::Hdr) {
            Some(choice) => choice.fallback.map_or(Ok(choice.format), Err),
            None => Err(HdrFallback::NotOffered {
                offered: Vec::new(),
            }),
        }
    }

    /// Reconfigures the surface to present in `format`, which it must offer
    /// (its SDR format, or the one [`hdr_offer`](Self::hdr_offer) returned),
    /// in the matching colour space (extended linear sRGB for the HDR
    /// format). The renderer's features must be set up for the same format.
    ///
    /// # Errors
    /// [`SurfaceError::FormatNotOffered`] for a format the surface does not
    /// offer; the surface keeps its format.
    pub fn set_format(
        &mut self,
        ctx: &GpuContext,
        format: wgpu::TextureFormat,
    ) -> Result<(), SurfaceError> {
        let choice = [OutputColor::Sdr, OutputColor::Hdr]
            .into_iter()
            .filter_map(|request| choose_output_format(&self.capabilities, request))
            .find(|choice| choice.format == format && choice.fallback.is_none())
            .ok_or(SurfaceError::FormatNotOffered { format })?;
        self.config.format = choice.format;
        self.config.color_space = choice.color_space;
        let (width, height) = self.size();
        self.resize(ctx, width, height);
        Ok(())
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
