//! The renderer's output format, and asking for HDR output before the
//! features are set up for it.
//!
//! Features build their pipelines for the output format when they are added,
//! so the format is settled first: whoever made the output (the engine's
//! window) offers an HDR format it could present in
//! ([`Renderer::offer_hdr_output`]); a preset with
//! [`PresetOptions::hdr_output`](crate::presets::PresetOptions::hdr_output)
//! takes it ([`Renderer::use_hdr_output`]) before adding its first feature;
//! the owner then presents in [`Renderer::output_format`].

use super::Renderer;
use crate::{HdrFallback, OutputColor};

/// What a renderer made for `format` offers by itself: `format` when it is
/// already an HDR format, else nothing.
pub(super) fn own_hdr_offer(
    format: wgpu::TextureFormat,
) -> Result<wgpu::TextureFormat, HdrFallback> {
    match OutputColor::of_format(format) {
        OutputColor::Hdr => Ok(format),
        OutputColor::Sdr => Err(HdrFallback::NotOffered {
            offered: vec![(format, wgpu::SurfaceColorSpaces::SRGB)],
        }),
    }
}

impl Renderer {
    /// The format of the outputs this renderer draws into (its features'
    /// pipelines are built for it).
    #[must_use]
    pub fn output_format(&self) -> wgpu::TextureFormat {
        self.output_format
    }

    /// Whether the renderer writes an SDR or an HDR image (the tonemap
    /// writes linear values above 1.0 into an HDR output).
    #[must_use]
    pub fn output_color(&self) -> OutputColor {
        OutputColor::of_format(self.output_format)
    }

    /// Tells the renderer which HDR format its output could take instead
    /// of the one it was made for (a window surface's
    /// [`hdr_offer`](crate::WindowSurface::hdr_offer)), or why it cannot.
    /// Whoever made the output calls this before the preset runs, and
    /// afterwards presents in [`output_format`](Self::output_format).
    pub fn offer_hdr_output(&mut self, offer: Result<wgpu::TextureFormat, HdrFallback>) {
        self.hdr_offer = offer;
    }

    /// Switches the output to the offered HDR format (see
    /// [`offer_hdr_output`](Self::offer_hdr_output)). Call it before adding
    /// features: they are set up for the output format when added. An
    /// output that is already HDR stays as it is.
    ///
    /// # Errors
    /// Why the output stays SDR: [`HdrFallback::NotOffered`] (with what the
    /// output offers), or [`HdrFallback::FeaturesAlreadySetUp`]. The caller
    /// decides whether to log it (the presets log one warning).
    pub fn use_hdr_output(&mut self) -> Result<wgpu::TextureFormat, HdrFallback> {
        if self.output_color() == OutputColor::Hdr {
            return Ok(self.output_format);
        }
        let format = self.hdr_offer.clone()?;
        if !self.features.is_empty() {
            return Err(HdrFallback::FeaturesAlreadySetUp {
                features: self.features.len(),
                format: self.output_format,
            });
        }
        self.output_format = format;
        Ok(format)
    }
}
