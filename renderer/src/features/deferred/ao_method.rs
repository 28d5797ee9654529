//! The ambient-occlusion methods the [`AoFeature`](super::AoFeature) can
//! sample with, and what tells them apart on the GPU: each one's shader and
//! the names of its passes and targets. Both share the bindings, the
//! helpers (`ao_sample.wgsl`) and the depth-aware blur that follows.

use super::gbuffer::gbuffer_wgsl;
use crate::features::gpu_util::fullscreen_vs_wgsl;

/// How the [`AoFeature`](super::AoFeature) estimates occlusion. Both read
/// `samples` depth texels per pixel and are blurred the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AoMethod {
    /// Screen-space ambient occlusion: points of a hemisphere around the
    /// normal, each counted as occluded when found behind the depth buffer.
    /// Cheap and soft; counts any geometry within the radius.
    #[default]
    Ssao,
    /// Ground-truth ambient occlusion (Jimenez et al. 2016, as Bevy and
    /// Unreal use it): a horizon search along a few screen-space slices,
    /// the visible arc integrated against the cosine in closed form. Closer
    /// to the physical (cosine-weighted) occlusion, exactly open on flat
    /// ground; a little more arithmetic per sample.
    Gtao,
}

impl AoMethod {
    /// Every method, in declaration order.
    pub const ALL: [Self; 2] = [Self::Ssao, Self::Gtao];

    /// The sampling pass's WGSL: full-screen vertex shader, G-buffer
    /// unpacking, the shared bindings, then the method's fragment shader.
    #[must_use]
    pub(crate) fn sample_source(self) -> String {
        let main = match self {
            Self::Ssao => crate::wgsl!("ssao.wgsl"),
            Self::Gtao => crate::wgsl!("gtao.wgsl"),
        };
        format!(
            "{FULLSCREEN_VS_WGSL}{GBUFFER_WGSL}{}{main}",
            crate::wgsl!("ao_sample.wgsl"),
            FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl(),
            GBUFFER_WGSL = gbuffer_wgsl()
        )
    }

    /// The names of the method's passes and targets in the render graph.
    pub(super) const fn labels(self) -> AoLabels {
        match self {
            Self::Ssao => AoLabels {
                sample: "ssao",
                raw: "ssao raw",
                blur: "ssao blur",
                blurred: "ssao",
            },
            Self::Gtao => AoLabels {
                sample: "gtao",
                raw: "gtao raw",
                blur: "gtao blur",
                blurred: "gtao",
            },
        }
    }

    /// The method's position in [`AoMethod::ALL`].
    pub(super) const fn index(self) -> usize {
        self as usize
    }
}

/// Names in the render graph, per [`AoMethod`].
#[derive(Debug, Clone, Copy)]
pub(super) struct AoLabels {
    /// The sampling pass (and its pipeline).
    pub sample: &'static str,
    /// The sampling pass's target.
    pub raw: &'static str,
    /// The blur pass.
    pub blur: &'static str,
    /// The blur's target, published as the frame's occlusion.
    pub blurred: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ssao_is_the_default_and_each_method_has_its_own_shader_and_passes() {
        assert_eq!(AoMethod::default(), AoMethod::Ssao);
        let [ssao, gtao] = AoMethod::ALL.map(AoMethod::sample_source);
        assert_ne!(ssao, gtao);
        assert!(gtao.contains("fn visible_arc"));
        assert_ne!(
            AoMethod::Ssao.labels().sample,
            AoMethod::Gtao.labels().sample
        );
        for (i, method) in AoMethod::ALL.into_iter().enumerate() {
            assert_eq!(method.index(), i);
        }
    }
}
