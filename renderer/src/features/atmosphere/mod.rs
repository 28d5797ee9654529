//! A physically based sky: sunlight scattered by the air of a planet,
//! after Hillaire's 2020 "scalable and production ready" sky model.
//!
//! Three look-up tables, each filled by a full-screen fragment pass (no
//! compute, so WebGL2-class backends draw it too), then one sky pass:
//!
//! | table | size | holds | re-rendered |
//! | --- | --- | --- | --- |
//! | transmittance | 256 x 64 | light surviving from a point to space | when the settings change |
//! | multiple scattering | 32 x 32 | light of two bounces and more | with the transmittance |
//! | sky view | 192 x 108 | the sky's radiance around the viewer | when the sun's elevation changes |
//!
//! The sky pass looks each pixel's view ray up in the sky-view table and
//! adds the sun's limb-darkened disk. The viewer stands
//! [`VIEWER_ALTITUDE_KM`](uniform::VIEWER_ALTITUDE_KM) above the ground
//! wherever the camera is, so the sky depends on the view direction alone.

mod gpu;
mod luts;
mod settings;
mod sun;
mod uniform;

pub(crate) use gpu::{AtmosphereGpu, LutRenders};
pub(crate) use luts::AtmosphereShader;
pub use settings::Atmosphere;
pub(crate) use sun::direction_towards_sun;
