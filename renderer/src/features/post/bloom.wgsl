// Bloom after Jimenez, "Next Generation Post Processing in Call of Duty:
// Advanced Warfare" (2014): a 13-tap downsample chain, then a 3 x 3 tent
// upsample that adds each level into the next larger one, then a mix into
// the scene. Every filter's weights sum to one, so each level carries the
// scene's energy and the mix keeps it.

struct BloomParams {
    // Share of the scene's light moved into the glow (0: off).
    intensity: f32,
    // Soft threshold (0: none) and its knee, applied in the first downsample.
    threshold: f32,
    knee: f32,
    // 1 / the number of levels summed into the chain's top.
    inverse_levels: f32,
};

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var smooth_sampler: sampler;
@group(0) @binding(2) var<uniform> params: BloomParams;
// Composite only: the scene before bloom.
@group(0) @binding(3) var scene: texture_2d<f32>;

fn fetch(uv: vec2<f32>, offset: vec2<f32>, texel: vec2<f32>) -> vec3<f32> {
    return textureSampleLevel(source, smooth_sampler, uv + offset * texel, 0.0).rgb;
}

// Four overlapping 2 x 2 boxes around the centre and one inner box, each
// read with bilinear taps: 13 taps covering a 4 x 4 source footprint.
fn downsample(uv: vec2<f32>) -> vec3<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source));
    let a = fetch(uv, vec2(-2.0, -2.0), texel);
    let b = fetch(uv, vec2(0.0, -2.0), texel);
    let c = fetch(uv, vec2(2.0, -2.0), texel);
    let d = fetch(uv, vec2(-1.0, -1.0), texel);
    let e = fetch(uv, vec2(1.0, -1.0), texel);
    let f = fetch(uv, vec2(-2.0, 0.0), texel);
    let g = fetch(uv, vec2(0.0, 0.0), texel);
    let h = fetch(uv, vec2(2.0, 0.0), texel);
    let i = fetch(uv, vec2(-1.0, 1.0), texel);
    let j = fetch(uv, vec2(1.0, 1.0), texel);
    let k = fetch(uv, vec2(-2.0, 2.0), texel);
    let l = fetch(uv, vec2(0.0, 2.0), texel);
    let m = fetch(uv, vec2(2.0, 2.0), texel);
    let inner = (d + e + i + j) * 0.125;
    let outer = (a + b + f + g) + (b + c + g + h) + (f + g + k + l) + (g + h + l + m);
    return inner + outer * 0.03125;
}

// A soft knee around the threshold: below `threshold - knee` nothing
// passes, above `threshold + knee` everything over the threshold does.
fn prefilter(color: vec3<f32>) -> vec3<f32> {
    if params.threshold <= 0.0 {
        return color;
    }
    let brightness = max(color.r, max(color.g, color.b));
    let knee = max(params.knee, 1e-5);
    var soft = clamp(brightness - params.threshold + knee, 0.0, 2.0 * knee);
    soft = soft * soft / (4.0 * knee);
    let kept = max(soft, brightness - params.threshold) / max(brightness, 1e-5);
    return color * kept;
}

fn tent(uv: vec2<f32>) -> vec3<f32> {
    let texel = 1.0 / vec2<f32>(textureDimensions(source));
    var sum = fetch(uv, vec2(0.0, 0.0), texel) * 4.0;
    sum += (fetch(uv, vec2(-1.0, 0.0), texel) + fetch(uv, vec2(1.0, 0.0), texel)
        + fetch(uv, vec2(0.0, -1.0), texel) + fetch(uv, vec2(0.0, 1.0), texel)) * 2.0;
    sum += fetch(uv, vec2(-1.0, -1.0), texel) + fetch(uv, vec2(1.0, -1.0), texel)
        + fetch(uv, vec2(-1.0, 1.0), texel) + fetch(uv, vec2(1.0, 1.0), texel);
    return sum / 16.0;
}

@fragment
fn fs_first_downsample(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4(prefilter(downsample(uv)), 1.0);
}

@fragment
fn fs_downsample(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4(downsample(uv), 1.0);
}

// Drawn with additive blending into the next larger level.
@fragment
fn fs_upsample(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4(tent(uv), 1.0);
}

@fragment
fn fs_composite(@builtin(position) at: vec4<f32>, @location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let base = textureLoad(scene, vec2<i32>(at.xy), 0);
    let glow = tent(uv) * params.inverse_levels;
    return vec4(mix(base.rgb, glow, params.intensity), base.a);
}
