//! [`CraftyShader`]: every WGSL program crafty compiles, each assembled
//! from its includes under `shaders/`.

use std::borrow::Cow;

use taos_engine::renderer::{wgpu, wgsl};

/// Declares [`CraftyShader`] and its [`ALL`](CraftyShader::ALL) from one
/// list, so no program can be left out of the validation test.
macro_rules! shader_programs {
    ($($(#[doc = $doc:literal])* $program:ident => $label:literal,)*) => {
        /// One of crafty's shader programs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum CraftyShader {
            $($(#[doc = $doc])* $program,)*
        }

        impl CraftyShader {
            /// Every program (for `shader_sources`, the validation test's
            /// list).
            pub(crate) const ALL: &[Self] = &[$(Self::$program),*];

            /// The module's debug label.
            pub(crate) fn label(self) -> &'static str {
                match self {
                    $(Self::$program => $label,)*
                }
            }
        }
    };
}

shader_programs! {
    /// Chunk quads into the shadow atlas (depth only, cutouts alpha tested).
    ShadowCasters => "crafty shadow casters",
    /// The sky gradient, sun, moon, stars and clouds.
    Sky => "crafty sky",
    /// Lit, textured, fogged chunk quads (opaque, cutout, transparent).
    Chunk => "crafty chunk",
    /// Rain streaks and snow flakes.
    Weather => "crafty weather",
    /// The godray mask and the march towards the light.
    Godrays => "crafty godrays",
    /// The targeted block's edges.
    Outline => "crafty outline",
    /// Other players as blocky figures.
    Avatar => "crafty avatar",
}

impl CraftyShader {
    /// The complete WGSL: the frame uniform and shared functions
    /// (`common.wgsl`), the atlas constants and quad unpacking for the
    /// programs that draw chunk quads, then the program's own files.
    /// `atlas_constants` is
    /// [`AtlasTexture::shader_constants`](super::super::atlas_texture::AtlasTexture::shader_constants).
    /// Read through `wgsl!`: while a feature is set up, hot reload's newer
    /// text of a file replaces the built-in one.
    pub(crate) fn source(self, atlas_constants: &str) -> String {
        let atlas: Cow<'static, str> = Cow::Owned(atlas_constants.to_owned());
        let common = || wgsl!("../shaders/common.wgsl");
        let quad = || wgsl!("../shaders/quad.wgsl");
        let parts: Vec<Cow<'static, str>> = match self {
            Self::ShadowCasters => vec![
                common(),
                atlas,
                quad(),
                wgsl!("../shaders/shadow_caster.wgsl"),
            ],
            Self::Sky => vec![
                common(),
                wgsl!("../shaders/clouds.wgsl"),
                wgsl!("../shaders/sky.wgsl"),
            ],
            Self::Chunk => vec![
                common(),
                atlas,
                quad(),
                wgsl!("../shaders/shadows.wgsl"),
                wgsl!("../shaders/chunk.wgsl"),
            ],
            Self::Weather => vec![common(), wgsl!("../shaders/weather.wgsl")],
            Self::Godrays => vec![common(), wgsl!("../shaders/godrays.wgsl")],
            Self::Outline => vec![common(), wgsl!("../shaders/outline.wgsl")],
            Self::Avatar => vec![common(), wgsl!("../shaders/avatar.wgsl")],
        };
        parts.concat()
    }

    /// Compiles this program on `device`.
    pub(crate) fn module(self, device: &wgpu::Device, atlas_constants: &str) -> wgpu::ShaderModule {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.label()),
            source: wgpu::ShaderSource::Wgsl(self.source(atlas_constants).into()),
        })
    }
}
