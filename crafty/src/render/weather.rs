//! The GPU side of the weather: the precipitation map texture (where rain
//! and snow stop, which columns are cold) and how many particles a frame
//! draws. Particles are not stored anywhere: the vertex shader
//! (`shaders/weather.wgsl`) places drop or flake `i` from a hash of `i` and
//! the time, wrapped in a box around the camera, and drops it when it is
//! below the top of its column.

use glam::IVec2;
use taos_engine::renderer::wgpu;

use crate::weather::{PRECIPITATION_MAP_SIZE, WeatherView};

/// Particles drawn at full intensity.
pub const MAX_WEATHER_PARTICLES: u32 = 9000;
/// Snow falls in columns whose top is higher than this, whatever the
/// weather (rain on the lowlands is snow on the peaks).
pub const SNOW_ALTITUDE: f32 = 96.0;

/// Particles to draw for `weather`.
#[must_use]
pub fn particle_count(weather: &WeatherView) -> u32 {
    let intensity = weather.intensity;
    if weather.kind == crate::weather::WeatherKind::Clear || !intensity.is_finite() {
        return 0;
    }
    (intensity.clamp(0.0, 1.0) * MAX_WEATHER_PARTICLES as f32).round() as u32
}

/// The precipitation map on the GPU.
#[derive(Debug)]
pub(super) struct PrecipitationTexture {
    texture: wgpu::Texture,
    pub(super) view: wgpu::TextureView,
    /// World `(x, z)` of texel 0; `None` until a map was uploaded (nothing
    /// falls, nothing is wet).
    pub(super) origin: Option<IVec2>,
}

impl PrecipitationTexture {
    pub(super) fn new(device: &wgpu::Device) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("crafty precipitation map"),
            size: extent(),
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rg8Uint,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            texture,
            view,
            origin: None,
        }
    }

    pub(super) fn upload(&mut self, queue: &wgpu::Queue, origin: IVec2, texels: &[u8]) {
        let side = PRECIPITATION_MAP_SIZE;
        if texels.len() != (side * side * 2) as usize {
            log::warn!("precipitation map of {} bytes ignored", texels.len());
            return;
        }
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            texels,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(side * 2),
                rows_per_image: Some(side),
            },
            extent(),
        );
        self.origin = Some(origin);
    }
}

fn extent() -> wgpu::Extent3d {
    wgpu::Extent3d {
        width: PRECIPITATION_MAP_SIZE,
        height: PRECIPITATION_MAP_SIZE,
        depth_or_array_layers: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weather::WeatherKind;

    #[test]
    fn particles_follow_intensity_and_clear_or_broken_values_draw_none() {
        let mut view = WeatherView {
            kind: WeatherKind::Rain,
            intensity: 0.5,
            ..WeatherView::default()
        };
        assert_eq!(particle_count(&view), MAX_WEATHER_PARTICLES / 2);
        view.intensity = 3.0;
        assert_eq!(particle_count(&view), MAX_WEATHER_PARTICLES);
        view.intensity = f32::NAN;
        assert_eq!(particle_count(&view), 0);
        view.kind = WeatherKind::Clear;
        view.intensity = 1.0;
        assert_eq!(particle_count(&view), 0);
    }
}
