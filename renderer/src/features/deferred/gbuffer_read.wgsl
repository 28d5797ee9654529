// Reading the G-buffer in a full-screen pass (@group(1)): the packed
// surface, the depth and the ambient occlusion (1 x 1 white without AO), and
// the surface a pixel shows, rebuilt from them.

@group(1) @binding(0) var gbuffer: texture_2d<u32>;
@group(1) @binding(1) var gbuffer_depth: texture_2d<f32>;
@group(1) @binding(2) var ambient_occlusion: texture_2d<f32>;
// Nearest, for the depth (see `DEPTH_AS_FLOAT`).
@group(1) @binding(3) var gbuffer_depth_sampler: sampler;

// The world position seen at framebuffer position `at` with depth `depth`.
fn world_at(at: vec2<f32>, depth: f32) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(gbuffer_depth));
    let ndc = vec2(at.x / size.x * 2.0 - 1.0, 1.0 - at.y / size.y * 2.0);
    let p = frame.inverse_view_proj * vec4(ndc, depth, 1.0);
    return p.xyz / p.w;
}

// The surface at framebuffer position `at`; `found` is false on the sky.
struct GPixel {
    found: bool,
    s: Surface,
    g: GSurface,
};

fn gbuffer_pixel(at: vec2<f32>) -> GPixel {
    var out: GPixel;
    let pixel = vec2<i32>(at);
    let depth_uv = (vec2<f32>(pixel) + 0.5) / vec2<f32>(textureDimensions(gbuffer_depth));
    let depth = textureSampleLevel(gbuffer_depth, gbuffer_depth_sampler, depth_uv, 0.0).r;
    out.found = depth > 0.0; // reversed Z: 0 is the clear value
    if !out.found {
        return out;
    }
    out.g = unpack_gbuffer(textureLoad(gbuffer, pixel, 0));
    out.s.world = world_at(at, depth);
    out.s.n = out.g.normal;
    out.s.v = normalize(frame.camera_position.xyz - out.s.world);
    out.s.albedo = out.g.albedo;
    out.s.alpha = 1.0;
    out.s.metallic = out.g.metallic;
    out.s.roughness = out.g.roughness;
    out.s.occlusion = out.g.occlusion;
    out.s.emissive = out.g.emissive;
    return out;
}

// Screen-space ambient occlusion at `at` (1: open).
fn occlusion_at(at: vec2<f32>) -> f32 {
    let size = vec2<i32>(textureDimensions(ambient_occlusion));
    return textureLoad(ambient_occlusion, min(vec2<i32>(at), size - 1), 0).r;
}
