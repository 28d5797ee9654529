//! The transparency overlay of the deferred path: blended draws, which a
//! G-buffer cannot hold, shaded after the deferred lighting by a forward
//! pass, depth-tested against the G-buffer depth.

use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::{ForwardLitFeature, ForwardPlusFeature};
use crate::frame::FrameData;
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// Which forward pass shades the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OverlayLighting {
    /// The forward pass: every point and spot light for every fragment.
    #[default]
    Forward,
    /// The forward-plus pass: lights culled per tile against the G-buffer
    /// depth (and the blended surfaces' own), for a transparent layer lit
    /// by hundreds of lights. Falls back to `Forward`, logged, without
    /// compute.
    ForwardPlus,
}

/// Shades the frame's blended draws over the deferred-lit image.
#[derive(Debug)]
pub struct ForwardOverlayFeature {
    pass: OverlayPass,
}

#[derive(Debug)]
enum OverlayPass {
    Forward(Box<ForwardLitFeature>),
    Plus(Box<ForwardPlusFeature>),
}

impl ForwardOverlayFeature {
    /// The overlay shaded by `lighting`.
    #[must_use]
    pub fn new(lighting: OverlayLighting) -> Self {
        let pass = match lighting {
            OverlayLighting::Forward => {
                OverlayPass::Forward(Box::new(ForwardLitFeature::overlay()))
            }
            OverlayLighting::ForwardPlus => {
                OverlayPass::Plus(Box::new(ForwardPlusFeature::overlay()))
            }
        };
        Self { pass }
    }

    /// The lighting in use (after a fallback at setup).
    #[must_use]
    pub fn lighting(&self) -> OverlayLighting {
        match self.pass {
            OverlayPass::Forward(_) => OverlayLighting::Forward,
            OverlayPass::Plus(_) => OverlayLighting::ForwardPlus,
        }
    }

    /// Sets the ambient light of the overlay's surfaces.
    pub fn set_ambient(&mut self, ambient: impl Into<crate::features::AmbientLight>) {
        let ambient = ambient.into();
        match &mut self.pass {
            OverlayPass::Forward(pass) => pass.ambient = ambient,
            OverlayPass::Plus(pass) => pass.ambient = ambient,
        }
    }

    fn inner(&self) -> &dyn RenderFeature {
        match &self.pass {
            OverlayPass::Forward(pass) => pass.as_ref(),
            OverlayPass::Plus(pass) => pass.as_ref(),
        }
    }

    fn inner_mut(&mut self) -> &mut dyn RenderFeature {
        match &mut self.pass {
            OverlayPass::Forward(pass) => pass.as_mut(),
            OverlayPass::Plus(pass) => pass.as_mut(),
        }
    }
}

impl RenderFeature for ForwardOverlayFeature {
    fn name(&self) -> &'static str {
        "ForwardOverlay"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        if let OverlayPass::Plus(_) = self.pass
            && let Err(error) = ForwardPlusFeature::check_support(setup.gpu)
        {
            log::warn!("{error}: the transparency overlay uses the forward pass instead");
            self.pass = OverlayPass::Forward(Box::new(ForwardLitFeature::overlay()));
        }
        self.inner_mut().setup(setup);
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, assets: &Assets) {
        self.inner_mut().update(data, gpu, assets);
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        self.inner().add_passes(frame);
    }

    fn after_frame(&mut self, gpu: &GpuContext, stats: &mut RenderStats) {
        // The deferred passes already counted the lights.
        let lights = stats.lights;
        self.inner_mut().after_frame(gpu, stats);
        stats.lights = lights;
    }
}
