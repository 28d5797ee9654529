// What both ambient-occlusion sampling passes (SSAO, GTAO) bind and share:
// the camera matrices and settings, the G-buffer, its depth read texel by
// texel, and view-space positions and normals rebuilt from them.

struct AoUniform {
    projection: mat4x4<f32>,
    inverse_projection: mat4x4<f32>,
    view: mat4x4<f32>,
    params: vec4<f32>,           // radius, intensity, bias, samples
    kernel: array<vec4<f32>, 32>, // SSAO's hemisphere points; GTAO ignores them
};

@group(0) @binding(0) var<uniform> ao: AoUniform;
@group(0) @binding(1) var gbuffer: texture_2d<u32>;
@group(0) @binding(2) var depth_buffer: texture_2d<f32>;
// Nearest, for the depth (see `DEPTH_AS_FLOAT` in gpu_util.rs).
@group(0) @binding(3) var depth_sampler: sampler;

// The depth at `texel`, read through the nearest sampler.
fn depth_at(texel: vec2<i32>) -> f32 {
    let size = vec2<f32>(textureDimensions(depth_buffer));
    return textureSampleLevel(depth_buffer, depth_sampler, (vec2<f32>(texel) + 0.5) / size, 0.0).r;
}

// The view-space position seen at framebuffer position `at` with `depth`.
fn view_position(at: vec2<f32>, depth: f32) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(depth_buffer));
    let ndc = vec2(at.x / size.x * 2.0 - 1.0, 1.0 - at.y / size.y * 2.0);
    let p = ao.inverse_projection * vec4(ndc, depth, 1.0);
    return p.xyz / p.w;
}

// The G-buffer's normal at `texel`, in view space.
fn view_normal(texel: vec2<i32>) -> vec3<f32> {
    let world_normal = unpack_gbuffer(textureLoad(gbuffer, texel, 0)).normal;
    return normalize((ao.view * vec4(world_normal, 0.0)).xyz);
}
