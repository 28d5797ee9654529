// The sun's cascaded shadow (@group(2)) and the light it brings a surface.

@group(2) @binding(0) var shadow_atlas: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;

// Fraction of sunlight reaching `world` (1 = lit), from the cascade atlas
// with 3x3 percentage-closer filtering.
fn sun_visibility(world: vec3<f32>, n: vec3<f32>) -> f32 {
    let count = u32(frame.shadow_params.x);
    if count == 0u {
        return 1.0;
    }
    let depth = dot(world - frame.camera_position.xyz, frame.camera_forward.xyz);
    var cascade = count;
    for (var i = 0u; i < count; i++) {
        if depth <= frame.cascade_splits[i] {
            cascade = i;
            break;
        }
    }
    if cascade == count {
        return 1.0;
    }
    let texel = frame.shadow_params.y;
    // Offset along the normal by about a texel of this cascade to avoid acne.
    let extent = 2.0 / length(frame.cascade_view_proj[cascade][0].xyz);
    let p = frame.cascade_view_proj[cascade] * vec4(world + n * extent * texel * 2.0, 1.0);
    let uv = p.xy * vec2(0.5, -0.5) + 0.5;
    if any(uv < vec2(0.0)) || any(uv > vec2(1.0)) || p.z > 1.0 {
        return 1.0;
    }
    let tile = vec2(f32(cascade % 2u), f32(cascade / 2u));
    let lo = tile * 0.5 + vec2(texel);
    let hi = tile * 0.5 + vec2(0.5 - texel);
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let at = clamp((uv + tile) * 0.5 + vec2(f32(x), f32(y)) * texel, lo, hi);
            lit += textureSampleCompareLevel(shadow_atlas, shadow_sampler, at, p.z);
        }
    }
    return lit / 9.0;
}

// The sun's light reflected by `s`, its shadow included (zero without a sun).
fn sun_light(s: Surface) -> vec3<f32> {
    if frame.sun_direction.w < 0.5 {
        return vec3(0.0);
    }
    return sun_visibility(s.world, s.n) * shade(s, -frame.sun_direction.xyz, frame.sun_color.rgb);
}
