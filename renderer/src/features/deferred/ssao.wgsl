// Screen-space ambient occlusion: for each pixel, points of a hemisphere
// around its normal (radius `params.x` metres, view space) are projected
// back onto the screen; each one found behind the depth buffer's surface,
// within the radius, occludes. The hemisphere is rotated per pixel on a
// 4 x 4 pattern, which the blur pass that follows averages away. Bindings
// and helpers: ao_sample.wgsl.

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(at.xy);
    let depth = depth_at(pixel);
    if depth <= 0.0 { // reversed Z: nothing drawn
        return vec4(1.0);
    }
    let size = vec2<i32>(textureDimensions(depth_buffer));
    let p = view_position(at.xy, depth);
    let n = view_normal(pixel);
    // A per-pixel rotation about the normal, from a 4 x 4 pattern.
    let cell = vec2<u32>(pixel) % vec2(4u);
    let angle = f32(cell.y * 4u + cell.x) * (6.2831853 / 16.0) + 0.37;
    let seed = vec3(cos(angle), sin(angle), 0.0);
    let t = normalize(seed - n * dot(seed, n) + select(vec3(0.0), vec3(0.0, 0.0, 1e-3), abs(dot(seed, n)) > 0.999));
    let b = cross(n, t);
    let radius = ao.params.x;
    let bias = ao.params.z;
    let samples = u32(ao.params.w);
    var occlusion = 0.0;
    for (var i = 0u; i < samples; i++) {
        let k = ao.kernel[i].xyz;
        let sample_point = p + (t * k.x + b * k.y + n * k.z) * radius;
        let clip = ao.projection * vec4(sample_point, 1.0);
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
    return vec4(clamp(1.0 - ao.params.y * (1.0 - open), 0.0, 1.0));
}
