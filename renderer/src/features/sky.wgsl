// An equirectangular panorama behind everything: each pixel's view ray is
// turned into longitude and latitude and looked up in the sky texture.

struct Sky { inverse_view_proj: mat4x4<f32>, intensity: vec4<f32> };

@group(0) @binding(0) var<uniform> sky: Sky;
@group(0) @binding(1) var panorama: texture_2d<f32>;
@group(0) @binding(2) var panorama_sampler: sampler;

struct Out { @builtin(position) clip: vec4<f32>, @location(0) ndc: vec2<f32> };

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> Out {
    let uv = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Out;
    out.ndc = uv * 2.0 - 1.0;
    out.clip = vec4(out.ndc, 0.0, 1.0);
    return out;
}

@fragment
fn fs_main(in: Out) -> @location(0) vec4<f32> {
    let near = sky.inverse_view_proj * vec4(in.ndc, 0.0, 1.0);
    let far = sky.inverse_view_proj * vec4(in.ndc, 1.0, 1.0);
    let dir = normalize(far.xyz / far.w - near.xyz / near.w);
    let longitude = atan2(dir.x, -dir.z);
    let latitude = asin(clamp(dir.y, -1.0, 1.0));
    let uv = vec2(longitude / 6.2831853 + 0.5, 0.5 - latitude / 3.14159265);
    let color = textureSampleLevel(panorama, panorama_sampler, uv, 0.0).rgb;
    return vec4(color * sky.intensity.x, 1.0);
}
