//! Every WGSL module the renderer compiles, assembled as its features
//! assemble them, for the device-free validation test
//! (`tests/shaders.rs`).

use super::atmosphere::AtmosphereShader;
use super::deferred::{AoMethod, deferred_source, gbuffer_wgsl};
use super::gpu_util::fullscreen_vs_wgsl;
use super::lit::{LightBinding, light_wgsl, shader_source};

/// Every shader module the renderer's features build, as `(name, WGSL)`:
/// each composed variant (both light bindings where a feature picks one by
/// device, each atmosphere pass) once. Mirrors the features' `setup`s;
/// `tests/shaders.rs` parses and validates each with naga and checks that
/// every `.wgsl` file under `src/` appears in one of them.
#[doc(hidden)]
#[must_use]
pub fn shader_sources() -> Vec<(String, String)> {
    let fullscreen = |main: &str| {
        format!(
            "{FULLSCREEN_VS_WGSL}{main}",
            FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
        )
    };
    let mut sources: Vec<(String, String)> = vec![
        ("fullscreen.wgsl".into(), fullscreen_vs_wgsl().into()),
        ("sky.wgsl".into(), crate::wgsl!("sky.wgsl").into()),
        (
            "resources/mipmaps.wgsl".into(),
            include_str!("../resources/mipmaps.wgsl").into(),
        ),
        (
            "deform/deform.wgsl".into(),
            crate::wgsl!("../deform/deform.wgsl").into(),
        ),
        (
            "particles/draw.wgsl".into(),
            crate::wgsl!("../particles/draw.wgsl").into(),
        ),
        (
            "particles/sort.wgsl".into(),
            crate::wgsl!("../particles/sort.wgsl").into(),
        ),
        (
            "particles/simulate.wgsl".into(),
            crate::wgsl!("../particles/simulate.wgsl").into(),
        ),
        (
            "tonemap.wgsl".into(),
            fullscreen(&crate::wgsl!("tonemap.wgsl")),
        ),
        (
            "shadow/shadow.wgsl".into(),
            crate::wgsl!("shadow/shadow.wgsl").into(),
        ),
        (
            "ibl/bake.wgsl".into(),
            fullscreen(&crate::wgsl!("ibl/bake.wgsl")),
        ),
        (
            "lit/msaa.wgsl".into(),
            fullscreen(&crate::wgsl!("lit/msaa.wgsl")),
        ),
        (
            "lit/msaa_depth.wgsl".into(),
            fullscreen(&crate::wgsl!("lit/msaa_depth.wgsl")),
        ),
        (
            "post/bloom.wgsl".into(),
            fullscreen(&crate::wgsl!("post/bloom.wgsl")),
        ),
        (
            "post/dof.wgsl".into(),
            fullscreen(&crate::wgsl!("post/dof.wgsl")),
        ),
        (
            "post/taa/motion.wgsl".into(),
            crate::wgsl!("post/taa/motion.wgsl").into(),
        ),
        (
            "post/taa/resolve.wgsl".into(),
            fullscreen(&crate::wgsl!("post/taa/resolve.wgsl")),
        ),
        (
            "forward_plus/cull.wgsl".into(),
            format!(
                "{LIGHT_WGSL}{}",
                crate::wgsl!("forward_plus/cull.wgsl"),
                LIGHT_WGSL = light_wgsl()
            ),
        ),
        (
            "forward_plus/shade.wgsl (storage lights)".into(),
            shader_source(
                LightBinding::Storage,
                &crate::wgsl!("forward_plus/shade.wgsl"),
            ),
        ),
        (
            "deferred/point_spot_tiled.wgsl (storage lights)".into(),
            deferred_source(
                LightBinding::Storage,
                &crate::wgsl!("deferred/point_spot_tiled.wgsl"),
            ),
        ),
        (
            "deferred/ssao_blur.wgsl".into(),
            fullscreen(&crate::wgsl!("deferred/ssao_blur.wgsl")),
        ),
    ];
    for (binding, lights) in [
        (LightBinding::Storage, "storage lights"),
        (LightBinding::Uniform, "uniform lights"),
    ] {
        sources.extend([
            (
                format!("forward_lit.wgsl ({lights})"),
                shader_source(binding, &crate::wgsl!("forward_lit.wgsl")),
            ),
            (
                format!("deferred/geometry.wgsl ({lights})"),
                shader_source(
                    binding,
                    &format!(
                        "{GBUFFER_WGSL}{}",
                        crate::wgsl!("deferred/geometry.wgsl"),
                        GBUFFER_WGSL = gbuffer_wgsl()
                    ),
                ),
            ),
            (
                format!("deferred/lighting.wgsl ({lights})"),
                deferred_source(binding, &crate::wgsl!("deferred/lighting.wgsl")),
            ),
            (
                format!("deferred/light_volume.wgsl ({lights})"),
                deferred_source(binding, &crate::wgsl!("deferred/light_volume.wgsl")),
            ),
        ]);
    }
    for method in AoMethod::ALL {
        sources.push((format!("deferred AO {method:?}"), method.sample_source()));
    }
    sources.extend(super::decals::shader_sources());
    for shader in AtmosphereShader::ALL {
        sources.push((format!("atmosphere {shader:?}"), shader.source()));
    }
    sources
}
