//! The deferred path's features: the [`GeometryFeature`] packs opaque
//! surfaces into a [`GBuffer`], the [`AoFeature`] darkens its creases (by
//! SSAO or GTAO, an [`AoMethod`]),
//! the [`DeferredLightingFeature`] lights it with the sun and ambient, the
//! [`PointSpotLightFeature`] adds point and spot lights (per tile or per
//! light volume), and the [`ForwardOverlayFeature`] shades the blended
//! draws on top. The [deferred preset](crate::presets::deferred_preset)
//! registers them in that order.

mod ao;
mod ao_method;
mod gbuffer;
mod geometry;
mod lighting;
mod overlay;
mod point_spot;

pub use ao::{AmbientOcclusion, AoFeature, AoOptions};
pub use ao_method::AoMethod;
pub use gbuffer::{GBUFFER_BYTES_PER_PIXEL, GBuffer};
pub(crate) use gbuffer::{deferred_source, gbuffer_wgsl};
pub use geometry::GeometryFeature;
pub use lighting::DeferredLightingFeature;
pub use overlay::{ForwardOverlayFeature, OverlayLighting};
pub use point_spot::{PointSpotLightFeature, PointSpotMethod};

/// Sampled textures the busiest deferred shader binds in one stage (the
/// lighting pass: G-buffer, depth, occlusion, shadow atlas, irradiance,
/// specular and BRDF table). WebGL2 guarantees 16.
pub const DEFERRED_SAMPLED_TEXTURES: u32 = 7;

/// Why a device cannot run the deferred path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the deferred path needs {missing}, which this {backend} adapter lacks")]
pub struct DeferredUnsupported {
    /// The adapter's backend.
    pub backend: String,
    /// What is missing.
    pub missing: &'static str,
}

/// Whether `gpu` can run the deferred features: half-float packing in
/// shaders (the G-buffer's `pack2x16float`; Vulkan drivers without 16-bit
/// floats, such as llvmpipe without them, lack it), enough sampled textures
/// per stage and 16-byte colour targets (the packed G-buffer texel).
/// Compute is not needed: without it the point and spot lights use light
/// volumes and the overlay the forward pass.
///
/// # Errors
/// [`DeferredUnsupported`] naming what is missing.
pub fn check_deferred_support(gpu: &crate::GpuContext) -> Result<(), DeferredUnsupported> {
    deferred_support(
        gpu.adapter_info().backend,
        gpu.adapter().get_downlevel_capabilities().flags,
        &gpu.device().limits(),
    )
}

fn deferred_support(
    backend: wgpu::Backend,
    flags: wgpu::DownlevelFlags,
    limits: &wgpu::Limits,
) -> Result<(), DeferredUnsupported> {
    let missing = if !flags.contains(wgpu::DownlevelFlags::SHADER_F16_IN_F32) {
        Some("half-float packing in shaders (pack2x16float)")
    } else if limits.max_sampled_textures_per_shader_stage < DEFERRED_SAMPLED_TEXTURES {
        Some("7 sampled textures per shader stage")
    } else if limits.max_color_attachment_bytes_per_sample < 16 {
        Some("16-byte colour attachments")
    } else {
        None
    };
    match missing {
        Some(missing) => Err(DeferredUnsupported {
            backend: backend.to_string(),
            missing,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webgl2_limits_run_the_deferred_path_and_tiny_ones_are_refused() {
        let webgl2 = wgpu::Limits::downlevel_webgl2_defaults();
        // What every GL adapter reports (wgpu-hal's GLES backend).
        let gl = wgpu::DownlevelFlags::SHADER_F16_IN_F32;
        assert_eq!(deferred_support(wgpu::Backend::Gl, gl, &webgl2), Ok(()));
        let tiny = wgpu::Limits {
            max_sampled_textures_per_shader_stage: 4,
            ..webgl2.clone()
        };
        let error = deferred_support(wgpu::Backend::Gl, gl, &tiny).unwrap_err();
        assert!(error.to_string().contains("sampled textures"), "{error}");
    }

    #[test]
    fn a_device_without_half_float_packing_is_refused_not_failed_at_pipeline_creation() {
        // llvmpipe without 16-bit floats reports no SHADER_F16_IN_F32.
        let error = deferred_support(
            wgpu::Backend::Vulkan,
            wgpu::DownlevelFlags::all() - wgpu::DownlevelFlags::SHADER_F16_IN_F32,
            &wgpu::Limits::default(),
        )
        .unwrap_err();
        assert!(error.to_string().contains("pack2x16float"), "{error}");
    }
}
