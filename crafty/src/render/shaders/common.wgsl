// Shared by every crafty pipeline shader: the per-frame uniform, the block
// atlas, and the sky colour (the sky pass draws it, chunks fog into it).

struct FrameUniform {
    view_proj: mat4x4<f32>,
    inverse_view_proj: mat4x4<f32>,
    // xyz: camera position.
    camera: vec4<f32>,
    // xyz: towards the light that shades blocks (sun by day, moon by night).
    light_dir: vec4<f32>,
    light_color: vec4<f32>,
    ambient: vec4<f32>,
    zenith: vec4<f32>,
    horizon: vec4<f32>,
    glow: vec4<f32>,
    // xyz: towards the sun.
    sun_dir: vec4<f32>,
    sun_disc: vec4<f32>,
    // rgb: lit moon radiance; w: moon phase.
    moon_disc: vec4<f32>,
    // x, y: fog start and end; z: daylight (0 night, 1 day); w: seconds.
    fog: vec4<f32>,
    // xyz: the highlighted block; w: 1 when there is one.
    highlight: vec4<f32>,
    // x: precipitation intensity, y: wetness, z: lightning, w: kind
    // (0 clear, 1 rain, 2 snow, 3 storm).
    weather: vec4<f32>,
    // xy: world (x, z) of the precipitation map's first texel; z: its side
    // in columns (0 when there is no map yet); w: the snow altitude.
    weather_map: vec4<f32>,
    // x: 1 when the camera is under water.
    water: vec4<f32>,
    // x: cloud cover, 0 (none) to 1; yz: how far the wind has carried the
    // clouds along x and z, in blocks.
    clouds: vec4<f32>,
    // Other players' figures (as many as the avatar pass draws): xyz the
    // feet, w the heading.
    avatars: array<vec4<f32>, 16>,
};

@group(0) @binding(0) var<uniform> frame: FrameUniform;
// One layer per tile, mipmapped; sampled repeating, nearest up close.
@group(0) @binding(1) var atlas: texture_2d_array<f32>;
// r: the height where rain stops in each column; g: what its top block is
// (SNOWY_TOP, WATER_TOP or 0).
@group(0) @binding(2) var precipitation: texture_2d<u32>;
@group(0) @binding(3) var atlas_sampler: sampler;

const SNOWY_TOP: u32 = 255u;
const WATER_TOP: u32 = 64u;

// The precipitation map texel of world column `column`, or (0, 0) when the
// column is off the map (or there is no map).
fn precipitation_at(column: vec2<f32>) -> vec2<u32> {
    let side = frame.weather_map.z;
    let texel = column - frame.weather_map.xy;
    if side <= 0.0 || any(texel < vec2(0.0)) || any(texel >= vec2(side)) {
        return vec2(0u, 0u);
    }
    return textureLoad(precipitation, vec2<i32>(texel), 0).rg;
}

// Sky radiance seen along unit direction `dir`, without sun and moon discs.
fn sky_color(dir: vec3<f32>) -> vec3<f32> {
    let up = clamp(dir.y, 0.0, 1.0);
    var color = mix(frame.horizon.rgb, frame.zenith.rgb, sqrt(up));
    // Below the horizon, a darker haze (no ground is drawn there).
    color = mix(color, frame.horizon.rgb * 0.55, smoothstep(0.0, 0.4, -dir.y));
    let towards_sun = max(dot(dir, frame.sun_dir.xyz), 0.0);
    let glow = pow(towards_sun, 8.0) * 0.8 + towards_sun * towards_sun * 0.25;
    return color + frame.glow.rgb * glow * (1.0 - 0.7 * up);
}

// The murk seen under water: blue-green, as bright as the light above.
fn underwater_color() -> vec3<f32> {
    let light = frame.ambient.rgb + frame.light_color.rgb * max(frame.light_dir.y, 0.0) * 0.5;
    return vec3(0.02, 0.1, 0.14) * light;
}

// What distant surfaces fade into along `dir`: the sky, or the murk when
// the camera is under water.
fn fog_color(dir: vec3<f32>) -> vec3<f32> {
    if frame.water.x > 0.5 {
        return underwater_color();
    }
    return sky_color(dir);
}
