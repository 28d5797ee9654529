//! The atmosphere's look-up tables: their sizes and textures, and the
//! shader source each pass compiles.

/// Transmittance table: (cos zenith, altitude) to the transmittance to the
/// top of the atmosphere. Depends on the settings only.
pub(crate) const TRANSMITTANCE_LUT_SIZE: (u32, u32) = (256, 64);
/// Multiple-scattering table: (sun cos zenith, altitude) to the light of
/// two bounces and more. Depends on the settings only.
pub(crate) const MULTI_SCATTERING_LUT_SIZE: (u32, u32) = (32, 32);
/// Sky-view table: (azimuth from the sun, zenith angle) to the sky's
/// radiance. Depends on the settings and the sun's elevation.
pub(crate) const SKY_VIEW_LUT_SIZE: (u32, u32) = (192, 108);
/// Every table is linear half-float RGBA: renderable and filterable
/// everywhere, WebGL2 included.
pub(crate) const LUT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

fn common() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("common.wgsl")
}
fn lut_sampling() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("lut_sampling.wgsl")
}

/// Which atmosphere shader to assemble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtmosphereShader {
    /// Fills the transmittance table.
    Transmittance,
    /// Fills the multiple-scattering table.
    MultiScattering,
    /// Fills the sky-view table.
    SkyView,
    /// Draws the sky from the sky-view table.
    Sky,
}

impl AtmosphereShader {
    /// Every shader (for `shader_sources`, the validation test's list).
    pub(crate) const ALL: [Self; 4] = [
        Self::Transmittance,
        Self::MultiScattering,
        Self::SkyView,
        Self::Sky,
    ];

    /// The complete WGSL: the tables' sizes, the shared functions, the
    /// transmittance reads (for every pass after the first), then the
    /// pass's own source.
    #[must_use]
    pub(crate) fn source(self) -> String {
        let (sampling, body) = match self {
            Self::Transmittance => (
                std::borrow::Cow::Borrowed(""),
                crate::wgsl!("transmittance.wgsl"),
            ),
            Self::MultiScattering => (lut_sampling(), crate::wgsl!("multi_scattering.wgsl")),
            Self::SkyView => (lut_sampling(), crate::wgsl!("sky_view.wgsl")),
            Self::Sky => (lut_sampling(), crate::wgsl!("sky.wgsl")),
        };
        format!(
            "{}\n{COMMON}\n{sampling}\n{body}",
            size_constants(),
            COMMON = common()
        )
    }
}

fn size_constants() -> String {
    [
        ("TRANSMITTANCE_LUT_SIZE", TRANSMITTANCE_LUT_SIZE),
        ("MULTI_SCATTERING_LUT_SIZE", MULTI_SCATTERING_LUT_SIZE),
        ("SKY_VIEW_LUT_SIZE", SKY_VIEW_LUT_SIZE),
    ]
    .iter()
    .map(|(name, (width, height))| {
        format!("const {name}: vec2<f32> = vec2<f32>({width}.0, {height}.0);\n")
    })
    .collect()
}

/// One table: a texture passes render into and later passes sample.
#[derive(Debug)]
pub(crate) struct Lut {
    pub(crate) view: wgpu::TextureView,
}

impl Lut {
    /// An uninitialised table of `size` texels.
    #[must_use]
    pub(crate) fn new(device: &wgpu::Device, label: &str, (width, height): (u32, u32)) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: LUT_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        Self {
            view: texture.create_view(&wgpu::TextureViewDescriptor::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::atmosphere::uniform::{AtmosphereUniform, ViewUniform};

    fn parse(shader: AtmosphereShader) -> naga::Module {
        let source = shader.source();
        naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|error| panic!("{shader:?}: {}", error.emit_to_string(&source)))
    }

    fn struct_size(module: &naga::Module, name: &str) -> u32 {
        let (_, ty) = module
            .types
            .iter()
            .find(|(_, ty)| ty.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no struct {name}"));
        ty.inner.size(module.to_ctx())
    }

    #[test]
    fn uniform_blocks_match_their_wgsl_structs() {
        let sky = parse(AtmosphereShader::Sky);
        assert_eq!(
            struct_size(&sky, "Atmosphere") as usize,
            std::mem::size_of::<AtmosphereUniform>()
        );
        assert_eq!(
            struct_size(&sky, "View") as usize,
            std::mem::size_of::<ViewUniform>()
        );
    }

    #[test]
    fn every_atmosphere_shader_parses_and_validates() {
        for shader in AtmosphereShader::ALL {
            let source = shader.source();
            let module = parse(shader);
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::default(),
            )
            .validate(&module)
            .unwrap_or_else(|error| panic!("{shader:?}: {}", error.emit_to_string(&source)));
        }
    }
}
