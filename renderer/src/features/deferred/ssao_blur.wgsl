// The occlusion blur: a 4 x 4 average (the size of the rotation pattern)
// that skips texels whose depth differs much from the centre's, so
// occlusion never bleeds across silhouettes.

struct Blur { inverse_projection: mat4x4<f32> };

@group(0) @binding(0) var<uniform> blur: Blur;
@group(0) @binding(1) var raw: texture_2d<f32>;
@group(0) @binding(2) var depth_buffer: texture_2d<f32>;
// Nearest, for the depth (see `DEPTH_AS_FLOAT` in gpu_util.rs).
@group(0) @binding(3) var depth_sampler: sampler;

// The depth at `texel`, read through the nearest sampler.
fn depth_at(texel: vec2<i32>) -> f32 {
    let size = vec2<f32>(textureDimensions(depth_buffer));
    return textureSampleLevel(depth_buffer, depth_sampler, (vec2<f32>(texel) + 0.5) / size, 0.0).r;
}

fn view_depth(depth: f32) -> f32 {
    if depth <= 0.0 {
        return 3.0e38; // reversed Z: nothing drawn, as far as it gets
    }
    let p = blur.inverse_projection * vec4(0.0, 0.0, depth, 1.0);
    return -p.z / p.w;
}

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(at.xy);
    let size = vec2<i32>(textureDimensions(raw));
    let centre = view_depth(depth_at(pixel));
    var sum = 0.0;
    var weight = 0.0;
    for (var y = -2; y < 2; y++) {
        for (var x = -2; x < 2; x++) {
            let texel = clamp(pixel + vec2(x, y), vec2(0), size - 1);
            let z = view_depth(depth_at(texel));
            let w = select(0.0, 1.0, abs(z - centre) <= 0.05 * centre + 0.01);
            sum += textureLoad(raw, texel, 0).r * w;
            weight += w;
        }
    }
    return vec4(sum / max(weight, 1.0));
}
