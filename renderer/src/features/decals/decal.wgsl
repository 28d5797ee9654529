// Projected decals, the part every decal pass shares: the decal's uniform
// and textures, the box drawn around it, and the surface point each pixel
// shows, rebuilt from the scene depth (reversed Z) through the frame's
// inverse view-projection. Box space is the unit cube -0.5..0.5; the decal
// projects along the box's -Z, its texture's u along +X and v down -Y.

struct Decal {
    world: mat4x4<f32>,      // box to world
    to_box: mat4x4<f32>,     // world to box
    tint: vec4<f32>,         // linear rgb; a: opacity
    // x: cos of the fade angle (hidden at or below), y: cos where the fade
    // starts (full strength at or above), z: 1 with a normal map, 2 with a
    // roughness map (summed), w: roughness without a map (forward only).
    params: vec4<f32>,
};

@group(1) @binding(0) var decal_base: texture_2d<f32>;
@group(1) @binding(1) var decal_normal: texture_2d<f32>;
@group(1) @binding(2) var decal_roughness: texture_2d<f32>;
@group(1) @binding(3) var decal_sampler: sampler;

@group(3) @binding(0) var<uniform> decal: Decal;
@group(3) @binding(1) var scene_depth: texture_2d<f32>;
// Nearest, for the depth (see `DEPTH_AS_FLOAT`).
@group(3) @binding(2) var scene_depth_sampler: sampler;

// The box's 12 triangles, counter-clockwise seen from outside; corner `i`
// is at (i & 1, i >> 1 & 1, i >> 2 & 1) - 0.5. The pipelines draw only the
// faces turned away from the camera (see `pipelines.rs`).
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    var corners = array<u32, 36>(
        0u, 4u, 6u, 0u, 6u, 2u, // -X
        5u, 1u, 3u, 5u, 3u, 7u, // +X
        0u, 1u, 5u, 0u, 5u, 4u, // -Y
        3u, 2u, 6u, 3u, 6u, 7u, // +Y
        1u, 0u, 2u, 1u, 2u, 3u, // -Z
        4u, 5u, 7u, 4u, 7u, 6u, // +Z
    );
    let c = corners[min(index, 35u)];
    let local = vec3(f32(c & 1u), f32((c >> 1u) & 1u), f32((c >> 2u) & 1u)) - 0.5;
    return frame.view_proj * decal.world * vec4(local, 1.0);
}

fn scene_depth_at(pixel: vec2<i32>) -> f32 {
    let size = vec2<i32>(textureDimensions(scene_depth));
    let p = clamp(pixel, vec2(0), size - 1);
    let uv = (vec2<f32>(p) + 0.5) / vec2<f32>(size);
    return textureSampleLevel(scene_depth, scene_depth_sampler, uv, 0.0).r;
}

// The world position seen at the centre of `pixel` with depth `depth`.
fn scene_world_at(pixel: vec2<i32>, depth: f32) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(scene_depth));
    let at = vec2<f32>(pixel) + 0.5;
    let ndc = vec2(at.x / size.x * 2.0 - 1.0, 1.0 - at.y / size.y * 2.0);
    let p = frame.inverse_view_proj * vec4(ndc, depth, 1.0);
    return p.xyz / p.w;
}

// Where a pixel's surface meets the decal.
struct DecalHit {
    world: vec3<f32>,
    uv: vec2<f32>,
    // False on the sky and outside the box.
    inside: bool,
};

fn decal_hit(pixel: vec2<i32>) -> DecalHit {
    var hit: DecalHit;
    let depth = scene_depth_at(pixel);
    hit.world = scene_world_at(pixel, max(depth, 1e-7));
    let local = (decal.to_box * vec4(hit.world, 1.0)).xyz;
    hit.uv = vec2(local.x + 0.5, 0.5 - local.y);
    hit.inside = depth > 0.0 && all(abs(local) <= vec3(0.5));
    return hit;
}

// What the decal puts on a surface with normal `n`: colour and coverage
// (texture, tint and fade), and the normal and roughness it brings.
struct DecalLayer {
    color: vec3<f32>,
    alpha: f32,
    normal: vec3<f32>,
    roughness: f32,
    has_normal: bool,
    has_roughness: bool,
};

// `ddx` and `ddy` are the uv's screen derivatives, taken where control
// flow was still uniform.
fn decal_layer(hit: DecalHit, n: vec3<f32>, ddx: vec2<f32>, ddy: vec2<f32>) -> DecalLayer {
    var layer: DecalLayer;
    let flags = u32(decal.params.z + 0.5);
    layer.has_normal = (flags & 1u) != 0u;
    layer.has_roughness = (flags & 2u) != 0u;
    let facing = dot(n, normalize(decal.world[2].xyz));
    let fade = smoothstep(decal.params.x, decal.params.y, facing);
    let base = textureSampleGrad(decal_base, decal_sampler, hit.uv, ddx, ddy) * decal.tint;
    layer.color = base.rgb;
    layer.alpha = clamp(base.a * fade, 0.0, 1.0);
    layer.normal = n;
    if layer.has_normal {
        // The box's X and Y laid onto the surface; the map's +Y is the box's +Y.
        let x_axis = normalize(decal.world[0].xyz);
        var t = x_axis - n * dot(n, x_axis);
        if dot(t, t) < 1e-8 {
            t = cross(normalize(decal.world[1].xyz), n);
        }
        t = normalize(t);
        var b = cross(n, t);
        b *= select(1.0, -1.0, dot(b, decal.world[1].xyz) < 0.0);
        let stored = textureSampleGrad(decal_normal, decal_sampler, hit.uv, ddx, ddy).xyz * 2.0 - 1.0;
        layer.normal = normalize(t * stored.x + b * stored.y + n * max(stored.z, 1e-3));
    }
    layer.roughness = decal.params.w;
    if layer.has_roughness {
        layer.roughness = textureSampleGrad(decal_roughness, decal_sampler, hit.uv, ddx, ddy).g;
    }
    return layer;
}
