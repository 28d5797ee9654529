//! Every WGSL module the renderer compiles, assembled as its features
//! assemble them, for the device-free validation test
//! (`tests/shaders.rs`).

use super::atmosphere::AtmosphereShader;
use super::deferred::{AoMethod, GBUFFER_WGSL, deferred_source};
use super::gpu_util::FULLSCREEN_VS_WGSL;
use super::lit::{LIGHT_WGSL, LightBinding, shader_source};

/// Every shader module the renderer's features build, as `(name, WGSL)`:
/// each composed variant (both light bindings where a feature picks one by
/// device, each atmosphere pass) once. Mirrors the features' `setup`s;
/// `tests/shaders.rs` parses and validates each with naga and checks that
/// every `.wgsl` file under `src/` appears in one of them.
#[doc(hidden)]
#[must_use]
pub fn shader_sources() -> Vec<(String, String)> {
    let fullscreen = |main: &str| format!("{FULLSCREEN_VS_WGSL}{main}");
    let mut sources: Vec<(String, String)> = vec![
        ("fullscreen.wgsl".into(), FULLSCREEN_VS_WGSL.into()),
        ("sky.wgsl".into(), include_str!("sky.wgsl").into()),
        (
            "resources/mipmaps.wgsl".into(),
            include_str!("../resources/mipmaps.wgsl").into(),
        ),
        (
            "deform/deform.wgsl".into(),
            include_str!("../deform/deform.wgsl").into(),
        ),
        (
            "tonemap.wgsl".into(),
            fullscreen(include_str!("tonemap.wgsl")),
        ),
        (
            "shadow/shadow.wgsl".into(),
            include_str!("shadow/shadow.wgsl").into(),
        ),
        (
            "ibl/bake.wgsl".into(),
            fullscreen(include_str!("ibl/bake.wgsl")),
        ),
        (
            "lit/msaa.wgsl".into(),
            fullscreen(include_str!("lit/msaa.wgsl")),
        ),
        (
            "lit/msaa_depth.wgsl".into(),
            fullscreen(include_str!("lit/msaa_depth.wgsl")),
        ),
        (
            "post/bloom.wgsl".into(),
            fullscreen(include_str!("post/bloom.wgsl")),
        ),
        (
            "post/dof.wgsl".into(),
            fullscreen(include_str!("post/dof.wgsl")),
        ),
        (
            "post/taa/motion.wgsl".into(),
            include_str!("post/taa/motion.wgsl").into(),
        ),
        (
            "post/taa/resolve.wgsl".into(),
            fullscreen(include_str!("post/taa/resolve.wgsl")),
        ),
        (
            "forward_plus/cull.wgsl".into(),
            format!("{LIGHT_WGSL}{}", include_str!("forward_plus/cull.wgsl")),
        ),
        (
            "forward_plus/shade.wgsl (storage lights)".into(),
            shader_source(
                LightBinding::Storage,
                include_str!("forward_plus/shade.wgsl"),
            ),
        ),
        (
            "deferred/point_spot_tiled.wgsl (storage lights)".into(),
            deferred_source(
                LightBinding::Storage,
                include_str!("deferred/point_spot_tiled.wgsl"),
            ),
        ),
        (
            "deferred/ssao_blur.wgsl".into(),
            fullscreen(include_str!("deferred/ssao_blur.wgsl")),
        ),
    ];
    for (binding, lights) in [
        (LightBinding::Storage, "storage lights"),
        (LightBinding::Uniform, "uniform lights"),
    ] {
        sources.extend([
            (
                format!("forward_lit.wgsl ({lights})"),
                shader_source(binding, include_str!("forward_lit.wgsl")),
            ),
            (
                format!("deferred/geometry.wgsl ({lights})"),
                shader_source(
                    binding,
                    &format!("{GBUFFER_WGSL}{}", include_str!("deferred/geometry.wgsl")),
                ),
            ),
            (
                format!("deferred/lighting.wgsl ({lights})"),
                deferred_source(binding, include_str!("deferred/lighting.wgsl")),
            ),
            (
                format!("deferred/light_volume.wgsl ({lights})"),
                deferred_source(binding, include_str!("deferred/light_volume.wgsl")),
            ),
        ]);
    }
    for method in AoMethod::ALL {
        sources.push((format!("deferred AO {method:?}"), method.sample_source()));
    }
    for shader in AtmosphereShader::ALL {
        sources.push((format!("atmosphere {shader:?}"), shader.source()));
    }
    sources
}
