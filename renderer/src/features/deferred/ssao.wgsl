// Screen-space ambient occlusion: for each pixel, points of a hemisphere
// around its normal (radius `params.x` metres, view space) are projected
// back onto the screen; each one found behind the depth buffer's surface,
// within the radius, occludes. The hemisphere is rotated per pixel on a
// 4 x 4 pattern, which the blur pass that follows averages away.

struct Ssao {
    projection: mat4x4<f32>,
    inverse_projection: mat4x4<f32>,
    view: mat4x4<f32>,
    params: vec4<f32>,           // radius, intensity, bias, samples
    kernel: array<vec4<f32>, 32>,
};

@group(0) @binding(0) var<uniform> ssao: Ssao;
@group(0) @binding(1) var gbuffer: texture_2d<u32>;
@group(0) @binding(2) var depth_buffer: texture_2d<f32>;
// Nearest, for the depth (see `DEPTH_AS_FLOAT` in gpu_util.rs).
@group(0) @binding(3) var depth_sampler: sampler;

// The depth at `texel`, read through the nearest sampler.
fn depth_at(texel: vec2<i32>) -> f32 {
    let size = vec2<f32>(textureDimensions(depth_buffer));
    return textureSampleLevel(depth_buffer, depth_sampler, (vec2<f32>(texel) + 0.5) / size, 0.0).r;
}

fn view_position(at: vec2<f32>, depth: f32) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(depth_buffer));
    let ndc = vec2(at.x / size.x * 2.0 - 1.0, 1.0 - at.y / size.y * 2.0);
    let p = ssao.inverse_projection * vec4(ndc, depth, 1.0);
    return p.xyz / p.w;
}

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(at.xy);
    let depth = depth_at(pixel);
    if depth <= 0.0 { // reversed Z: nothing drawn
        return vec4(1.0);
    }
    let size = vec2<i32>(textureDimensions(depth_buffer));
    let p = view_position(at.xy, depth);
    let world_normal = unpack_gbuffer(textureLoad(gbuffer, pixel, 0)).normal;
    let n = normalize((ssao.view * vec4(world_normal, 0.0)).xyz);
    // A per-pixel rotation about the normal, from a 4 x 4 pattern.
    let cell = vec2<u32>(pixel) % vec2(4u);
    let angle = f32(cell.y * 4u + cell.x) * (6.2831853 / 16.0) + 0.37;
    let seed = vec3(cos(angle), sin(angle), 0.0);
    let t = normalize(seed - n * dot(seed, n) + select(vec3(0.0), vec3(0.0, 0.0, 1e-3), abs(dot(seed, n)) > 0.999));
    let b = cross(n, t);
    let radius = ssao.params.x;
    let bias = ssao.params.z;
    let samples = u32(ssao.params.w);
    var occlusion = 0.0;
    for (var i = 0u; i < samples; i++) {
        let k = ssao.kernel[i].xyz;
        let sample_point = p + (t * k.x + b * k.y + n * k.z) * radius;
        let clip = ssao.projection * vec4(sample_point, 1.0);
        if clip.w <= 0.0 {
            continue;
        }
        let ndc = clip.xy / clip.w;
        let uv = vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
        let texel = clamp(vec2<i32>(uv * vec2<f32>(size)), vec2(0), size - 1);
        let scene_depth = depth_at(texel);
        if scene_depth <= 0.0 {
            continue;
        }
        let scene_z = view_position(vec2<f32>(texel) + 0.5, scene_depth).z;
        let in_range = smoothstep(0.0, 1.0, radius / max(abs(p.z - scene_z), 1e-4));
        if scene_z >= sample_point.z + bias {
            occlusion += in_range;
        }
    }
    let open = 1.0 - occlusion / f32(max(samples, 1u));
    return vec4(clamp(1.0 - ssao.params.y * (1.0 - open), 0.0, 1.0));
}
