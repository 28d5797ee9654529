// Drawing meshes with materials: the material group (@group(1)), the
// instanced vertex stage, the surface a fragment shades, and the depth-only
// fragment stage of pre-passes.

struct Material {
    base_color: vec4<f32>,
    emissive_metallic: vec4<f32>,  // rgb emissive, a metallic
    roughness_cutoff: vec4<f32>,   // x roughness, y alpha cutoff (-1 none), z has texture
};

@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(1) @binding(2) var base_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) model_0: vec4<f32>,
    @location(4) model_1: vec4<f32>,
    @location(5) model_2: vec4<f32>,
    @location(6) model_3: vec4<f32>,
    @location(7) normal_0: vec4<f32>,
    @location(8) normal_1: vec4<f32>,
    @location(9) normal_2: vec4<f32>,
};

struct VertexOut {
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let model = mat4x4(in.model_0, in.model_1, in.model_2, in.model_3);
    let normal = mat3x3(in.normal_0.xyz, in.normal_1.xyz, in.normal_2.xyz);
    let world = model * vec4(in.position, 1.0);
    var out: VertexOut;
    out.clip = frame.view_proj * world;
    out.world = world.xyz;
    out.normal = normal * in.normal;
    out.uv = in.uv;
    return out;
}

// The material's base colour at this fragment (texture included).
fn base_color(in: VertexOut) -> vec4<f32> {
    var base = material.base_color;
    if material.roughness_cutoff.z > 0.5 {
        base = base * textureSample(base_texture, base_sampler, in.uv);
    }
    return base;
}

// The surface a lit fragment shades; alpha-masked texels are discarded.
fn lit_surface(in: VertexOut) -> Surface {
    let base = base_color(in);
    if base.a < material.roughness_cutoff.y {
        discard;
    }
    return surface(in, base);
}

fn surface(in: VertexOut, base: vec4<f32>) -> Surface {
    var s: Surface;
    s.world = in.world;
    s.n = normalize(in.normal);
    s.v = normalize(frame.camera_position.xyz - in.world);
    s.albedo = base.rgb;
    s.alpha = base.a;
    s.metallic = material.emissive_metallic.a;
    s.roughness = material.roughness_cutoff.x;
    return s;
}

// Ambient, emissive and the sun (with its shadow): everything but the
// point and spot lights.
fn sun_and_ambient(s: Surface) -> vec3<f32> {
    return ambient_light(s) + material.emissive_metallic.rgb + sun_light(s);
}

// Depth-only fragment stage (the forward-plus pre-pass): alpha-masked
// texels are cut out of the depth buffer too.
@fragment
fn fs_depth(in: VertexOut) {
    if base_color(in).a < material.roughness_cutoff.y {
        discard;
    }
}
