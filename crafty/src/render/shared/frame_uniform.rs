//! [`FrameUniform`]: the per-frame uniform every crafty shader reads
//! (`FrameUniform` in `shaders/common.wgsl`), made from the engine's frame
//! data and the game's [`FrameInputs`].

use glam::{Mat4, Vec3};
use taos_engine::renderer::FrameData;

use super::FrameInputs;
use crate::render::handle::{Clouds, MAX_AVATARS};
use crate::render::weather::SNOW_ALTITUDE;

/// How far one sees under water, in blocks.
const UNDERWATER_FOG_END: f32 = 20.0;

/// The wind's drift wraps after this many blocks: far apart enough that the
/// jump is a rare change of scenery, near enough for f32 precision.
const CLOUD_WRAP: f64 = 65_536.0;

/// The per-frame uniform; mirrors `FrameUniform` in `shaders/common.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct FrameUniform {
    view_proj: [[f32; 4]; 4],
    inverse_view_proj: [[f32; 4]; 4],
    camera: [f32; 4],
    light_dir: [f32; 4],
    light_color: [f32; 4],
    ambient: [f32; 4],
    zenith: [f32; 4],
    horizon: [f32; 4],
    glow: [f32; 4],
    sun_dir: [f32; 4],
    sun_disc: [f32; 4],
    moon_disc: [f32; 4],
    fog: [f32; 4],
    highlight: [f32; 4],
    weather: [f32; 4],
    weather_map: [f32; 4],
    water: [f32; 4],
    clouds: [f32; 4],
    avatars: [[f32; 4]; MAX_AVATARS],
}

fn v4(v: Vec3, w: f32) -> [f32; 4] {
    v.extend(w).to_array()
}

impl FrameUniform {
    /// This frame's uniform.
    pub(crate) fn new(data: &FrameData, inputs: &FrameInputs) -> Self {
        let FrameInputs {
            ref light,
            fog,
            highlight,
            weather,
            precipitation_origin,
            underwater,
            clouds,
            shadows: _,
            godrays: _,
            avatars,
        } = *inputs;
        let camera = &data.camera;
        let view_proj = camera.depth_view_proj();
        let inverse = view_proj.inverse();
        let inverse = if inverse.is_finite() {
            inverse
        } else {
            Mat4::IDENTITY
        };
        let fog_start = if fog.start.is_finite() {
            fog.start
        } else {
            1e6
        };
        let fog_end = if fog.end.is_finite() && fog.end > fog_start {
            fog.end
        } else {
            fog_start + 1.0
        };
        // Rain and snow hide the distance: fog closes in with the overcast.
        let overcast = if weather.overcast.is_finite() {
            weather.overcast.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (fog_start, fog_end) = if underwater {
            (0.0, UNDERWATER_FOG_END.min(fog_end))
        } else {
            (
                fog_start * (1.0 - 0.7 * overcast),
                fog_end * (1.0 - 0.45 * overcast),
            )
        };
        let finite = |v: f32| {
            if v.is_finite() {
                v.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        let map = match precipitation_origin {
            Some(origin) => [
                origin.x as f32,
                origin.y as f32,
                crate::weather::PRECIPITATION_MAP_SIZE as f32,
                SNOW_ALTITUDE,
            ],
            None => [0.0; 4],
        };
        Self {
            view_proj: view_proj.to_cols_array_2d(),
            inverse_view_proj: inverse.to_cols_array_2d(),
            camera: v4(camera.position, 1.0),
            light_dir: v4(light.light_direction, 0.0),
            light_color: v4(light.light_color, 0.0),
            ambient: v4(light.ambient, 0.0),
            zenith: v4(light.zenith, 0.0),
            horizon: v4(light.horizon, 0.0),
            glow: v4(light.glow, 0.0),
            sun_dir: v4(light.sun_direction, 0.0),
            sun_disc: v4(light.sun_disc, 0.0),
            moon_disc: v4(light.moon_disc, light.moon_phase),
            fog: [
                fog_start,
                fog_end,
                light.daylight,
                (data.time.elapsed % 3600.0) as f32,
            ],
            highlight: match highlight {
                Some(block) => v4(block.as_vec3(), 1.0),
                None => [0.0; 4],
            },
            weather: [
                finite(weather.intensity),
                finite(weather.wetness),
                finite(weather.lightning),
                f32::from(weather.kind as u8),
            ],
            weather_map: map,
            water: [f32::from(u8::from(underwater)), 0.0, 0.0, 0.0],
            clouds: cloud_uniform(clouds, overcast, data.time.elapsed),
            avatars: avatars.figures,
        }
    }
}

/// The clouds' uniform: cover (the game's, thickened by the weather's
/// overcast) and how far the wind has carried them after `elapsed` seconds
/// (wrapped, so the numbers stay small enough for f32).
fn cloud_uniform(clouds: Clouds, overcast: f32, elapsed: f64) -> [f32; 4] {
    let cover = if clouds.cover.is_finite() {
        clouds.cover.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let cover = cover + (1.0 - cover) * overcast * 0.8;
    let wind = if clouds.wind.is_finite() {
        clouds.wind
    } else {
        glam::Vec2::ZERO
    };
    let elapsed = if elapsed.is_finite() { elapsed } else { 0.0 };
    let drift = |speed: f32| ((elapsed * f64::from(speed)) % CLOUD_WRAP) as f32;
    [cover, drift(wind.x), drift(wind.y), 0.0]
}
