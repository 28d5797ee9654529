// The sun's (or moon's) shadow on chunk geometry: up to four cascades in one
// depth atlas of 2 x 2 tiles, drawn by shadow_caster.wgsl.

struct ShadowUniform {
    // World to light clip space, one per cascade (x, y in -1..1, depth 0..1).
    cascades: array<mat4x4<f32>, 4>,
    // The world size of one shadow texel in each cascade.
    texel: vec4<f32>,
    // x: cascades in use (0: no shadows); y: the distance where shadows
    // end; z: how long they take to fade out before it; w: texels per tile
    // edge.
    params: vec4<f32>,
};

@group(2) @binding(0) var<uniform> shadow: ShadowUniform;
@group(2) @binding(1) var shadow_atlas: texture_depth_2d;
@group(2) @binding(2) var shadow_sampler: sampler_comparison;

// How much of the direct light reaches `world` on a face with normal `n`,
// `distance` from the camera: x is 1 in full light, 0 in shadow; y is how
// far the cascades can be trusted there (1 inside them, fading to 0 where
// they end), so the caller can blend to its own estimate beyond.
fn sun_shadow(world: vec3<f32>, n: vec3<f32>, distance: f32) -> vec2<f32> {
    let count = u32(shadow.params.x);
    let coverage = 1.0 - smoothstep(shadow.params.y - shadow.params.z, shadow.params.y, distance);
    if count == 0u || coverage <= 0.0 {
        return vec2(1.0, 0.0);
    }
    let texels = shadow.params.w;
    for (var i = 0u; i < count; i++) {
        // Pushed off the face along its normal, a texel and a half: no
        // surface shadows itself.
        let p = shadow.cascades[i] * vec4(world + n * shadow.texel[i] * 1.5, 1.0);
        if any(abs(p.xy) > vec2(0.97)) || p.z < 0.0 || p.z > 1.0 {
            continue;
        }
        let tile = vec2(f32(i % 2u), f32(i / 2u)) * 0.5;
        let local = p.xy * vec2(0.5, -0.5) + 0.5;
        let step = 1.0 / texels;
        // 3 x 3 filtered comparisons, kept inside the cascade's tile.
        var lit = 0.0;
        for (var y = -1; y <= 1; y++) {
            for (var x = -1; x <= 1; x++) {
                let at = clamp(local + vec2(f32(x), f32(y)) * step, vec2(step), vec2(1.0 - step));
                lit += textureSampleCompareLevel(shadow_atlas, shadow_sampler, tile + at * 0.5, p.z - 0.0005);
            }
        }
        return vec2(lit / 9.0, coverage);
    }
    return vec2(1.0, 0.0);
}
