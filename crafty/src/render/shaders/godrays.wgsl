// Godrays: light shafts from the sun or moon, in screen space. First the
// sky seen around the light (where the depth buffer holds no geometry, so
// terrain and leaves block it, and the clouds drawn into the sky dim it) goes
// into a half-size mask; then every pixel marches towards the light's place
// on screen through that mask and adds what it gathers, fading with each
// step (after Mitchell, GPU Gems 3, ch. 13).

struct GodrayUniform {
    // xy: the light's place on screen (uv, may lie off screen); z: the
    // shafts' strength (0: none); w: steps per pixel.
    light: vec4<f32>,
    // xyz: towards the light.
    direction: vec4<f32>,
    // xy: the mask's size in texels; zw: the frame's.
    sizes: vec4<f32>,
};

@group(1) @binding(0) var<uniform> rays: GodrayUniform;
// The mask pass: the frame so far and its depth.
@group(1) @binding(1) var scene: texture_2d<f32>;
// Read as plain floats through a nearest sampler, not fetched from a
// `texture_depth_2d`: WebGL2's shading language cannot fetch texels of a
// depth binding, and a depth texture read without a nearest sampler is
// incomplete there (it reads as 0).
@group(1) @binding(2) var scene_depth: texture_2d<f32>;
@group(1) @binding(3) var depth_sampler: sampler;

// The rays pass: the mask, filtered.
@group(2) @binding(0) var mask: texture_2d<f32>;
@group(2) @binding(1) var mask_sampler: sampler;

struct RaysOut { @builtin(position) clip: vec4<f32>, @location(0) uv: vec2<f32> };

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> RaysOut {
    let uv = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    var out: RaysOut;
    out.clip = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2(uv.x, 1.0 - uv.y);
    return out;
}

// The brightest a sky texel counts for in the mask: the sun's disc is far
// brighter than its surroundings and would otherwise be all there is.
const MASK_CEILING: f32 = 3.0;

@fragment
fn fs_mask(in: RaysOut) -> @location(0) vec4<f32> {
    let frame_size = vec2<i32>(rays.sizes.zw);
    let texel = clamp(vec2<i32>(in.uv * rays.sizes.zw), vec2(0), frame_size - 1);
    // Reversed Z: nothing was drawn where the depth is still 0.
    let depth_uv = (vec2<f32>(texel) + 0.5) / rays.sizes.zw;
    if textureSampleLevel(scene_depth, depth_sampler, depth_uv, 0.0).r > 0.0 {
        return vec4(0.0);
    }
    let ndc = vec2(in.uv.x * 2.0 - 1.0, 1.0 - in.uv.y * 2.0);
    let near = frame.inverse_view_proj * vec4(ndc, 1.0, 1.0);
    let far = frame.inverse_view_proj * vec4(ndc, 0.0, 1.0);
    let dir = normalize(far.xyz / far.w - near.xyz / near.w);
    // Only the sky near the light sends shafts.
    let towards = max(dot(dir, rays.direction.xyz), 0.0);
    let halo = pow(towards, 24.0);
    let sky = textureLoad(scene, texel, 0).rgb;
    let peak = max(max(sky.r, sky.g), max(sky.b, 1e-4));
    let capped = sky * min(1.0, MASK_CEILING / peak);
    return vec4(capped * halo, 1.0);
}

// A per-pixel offset in [0, 1) that breaks the march's steps into noise
// instead of bands (interleaved gradient noise, Jimenez 2014).
fn step_jitter(pixel: vec2<f32>) -> f32 {
    return fract(52.9829189 * fract(dot(pixel, vec2(0.06711056, 0.00583715))));
}

// How much of the path to the light one march covers, and how much each
// step keeps of the last.
const DENSITY: f32 = 0.85;
const DECAY: f32 = 0.965;

@fragment
fn fs_rays(in: RaysOut) -> @location(0) vec4<f32> {
    let steps = max(rays.light.w, 1.0);
    let delta = (rays.light.xy - in.uv) * (DENSITY / steps);
    var uv = in.uv + delta * step_jitter(in.clip.xy);
    var weight = 1.0;
    var gathered = vec3(0.0);
    for (var i = 0; i < i32(steps); i++) {
        let inside = all(uv >= vec2(0.0)) && all(uv <= vec2(1.0));
        gathered += textureSampleLevel(mask, mask_sampler, uv, 0.0).rgb * weight * f32(inside);
        weight *= DECAY;
        uv += delta;
    }
    return vec4(gathered * (rays.light.z / steps), 0.0);
}
