// Drawing meshes with materials: the material group (@group(1)), the
// instanced vertex stage, the surface a fragment shades (textures, normal
// map, occlusion, emissive, double-sided faces), and the depth-only
// fragment stage of pre-passes.

// One texture slot: its coordinate transform's rows (u' = row_u . (u, v, 1)),
// the coordinate set in row_u.w and 1 in row_v.w when a texture is bound.
struct TextureSlot {
    row_u: vec4<f32>,
    row_v: vec4<f32>,
};

struct Material {
    base_color: vec4<f32>,
    emissive_metallic: vec4<f32>,  // rgb emissive, a metallic
    roughness_cutoff: vec4<f32>,   // x roughness, y alpha cutoff (-1 none), z normal scale, w occlusion strength
    flags: vec4<f32>,              // x unlit, y double-sided
    // Base colour, metallic-roughness, normal, occlusion, emissive.
    slots: array<TextureSlot, 5>,
};

const SLOT_BASE: u32 = 0u;
const SLOT_METALLIC_ROUGHNESS: u32 = 1u;
const SLOT_NORMAL: u32 = 2u;
const SLOT_OCCLUSION: u32 = 3u;
const SLOT_EMISSIVE: u32 = 4u;

@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(1) @binding(2) var base_sampler: sampler;
@group(1) @binding(3) var metallic_roughness_texture: texture_2d<f32>;
@group(1) @binding(4) var metallic_roughness_sampler: sampler;
@group(1) @binding(5) var normal_texture: texture_2d<f32>;
@group(1) @binding(6) var normal_sampler: sampler;
@group(1) @binding(7) var occlusion_texture: texture_2d<f32>;
@group(1) @binding(8) var occlusion_sampler: sampler;
@group(1) @binding(9) var emissive_texture: texture_2d<f32>;
@group(1) @binding(10) var emissive_sampler: sampler;

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
    @location(13) tangent: vec4<f32>,
    @location(14) uv1: vec2<f32>,
    @location(15) color: vec4<f32>,
};

struct VertexOut {
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // World-space tangent (zero when the mesh has none) and handedness.
    @location(3) tangent: vec4<f32>,
    @location(4) uv1: vec2<f32>,
    @location(5) color: vec4<f32>,
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
    out.tangent = vec4(mat3x3(model[0].xyz, model[1].xyz, model[2].xyz) * in.tangent.xyz, in.tangent.w);
    out.uv1 = in.uv1;
    out.color = in.color;
    return out;
}

fn slot_bound(slot: u32) -> bool {
    return material.slots[slot].row_v.w > 0.5;
}

// The coordinates texture slot `slot` reads at this fragment: its set, transformed.
fn slot_uv(slot: u32, in: VertexOut) -> vec2<f32> {
    let t = material.slots[slot];
    let uv = vec3(select(in.uv, in.uv1, t.row_u.w > 0.5), 1.0);
    return vec2(dot(t.row_u.xyz, uv), dot(t.row_v.xyz, uv));
}

// The material's base colour at this fragment (vertex colour and texture included).
fn base_color(in: VertexOut) -> vec4<f32> {
    var base = material.base_color * in.color;
    if slot_bound(SLOT_BASE) {
        base = base * textureSample(base_texture, base_sampler, slot_uv(SLOT_BASE, in));
    }
    return base;
}

fn is_unlit() -> bool {
    return material.flags.x > 0.5;
}

// The surface a lit fragment shades; alpha-masked texels are discarded.
// `front` is false on the back face of a double-sided material.
fn lit_surface(in: VertexOut, front: bool) -> Surface {
    let base = base_color(in);
    if base.a < material.roughness_cutoff.y {
        discard;
    }
    return surface(in, base, front);
}

// The shading normal: the interpolated normal, bent by the normal texture
// in the frame of the mesh's tangents (or, where the mesh has none, of the
// texture coordinates' screen-space derivatives), facing the viewer's side
// on back faces.
fn shading_normal(in: VertexOut, front: bool) -> vec3<f32> {
    let side = select(-1.0, 1.0, front);
    let n = normalize(in.normal);
    if !slot_bound(SLOT_NORMAL) {
        return n * side;
    }
    let uv = slot_uv(SLOT_NORMAL, in);
    // The derivative frame (Schüler's cotangent frame), computed before any
    // branch on per-vertex data: derivatives need uniform control flow.
    let dp_x = dpdx(in.world);
    let dp_y = dpdy(in.world);
    let duv_x = dpdx(uv);
    let duv_y = dpdy(uv);
    let stored = textureSample(normal_texture, normal_sampler, uv).xyz * 2.0 - 1.0;
    let y_perp = cross(dp_y, n);
    let x_perp = cross(n, dp_x);
    let along_u = y_perp * duv_x.x + x_perp * duv_y.x;
    let along_v = y_perp * duv_x.y + x_perp * duv_y.y;
    var t: vec3<f32>;
    var b: vec3<f32>;
    let given = in.tangent.xyz - n * dot(n, in.tangent.xyz);
    if dot(given, given) > 1e-12 {
        t = normalize(given);
        b = cross(n, t) * select(1.0, -1.0, in.tangent.w < 0.0);
    } else {
        // The frame above is the inverse's adjugate: its sign is the
        // determinant's, which framebuffer y pointing down (and a back face)
        // flips. Normalised, only that sign matters.
        let determinant = dot(dp_x, y_perp);
        let sign = select(-1.0, 1.0, determinant > 0.0);
        let scale = sign * inverseSqrt(max(max(dot(along_u, along_u), dot(along_v, along_v)), 1e-20));
        t = along_u * scale;
        // The normal map's +Y points up the image: towards decreasing v.
        b = -along_v * scale;
    }
    let tangent_space = vec3(stored.xy * material.roughness_cutoff.z, stored.z);
    let bent = t * tangent_space.x + b * tangent_space.y + n * tangent_space.z;
    let length_sq = dot(bent, bent);
    return select(n, bent * inverseSqrt(length_sq), length_sq > 1e-12) * side;
}

fn surface(in: VertexOut, base: vec4<f32>, front: bool) -> Surface {
    var s: Surface;
    s.world = in.world;
    s.n = shading_normal(in, front);
    s.v = normalize(frame.camera_position.xyz - in.world);
    s.albedo = base.rgb;
    s.alpha = base.a;
    s.metallic = material.emissive_metallic.a;
    s.roughness = material.roughness_cutoff.x;
    if slot_bound(SLOT_METALLIC_ROUGHNESS) {
        let uv = slot_uv(SLOT_METALLIC_ROUGHNESS, in);
        let texel = textureSample(metallic_roughness_texture, metallic_roughness_sampler, uv);
        s.metallic = s.metallic * texel.b;
        s.roughness = s.roughness * texel.g;
    }
    s.roughness = clamp(s.roughness, 0.04, 1.0);
    s.occlusion = 1.0;
    if slot_bound(SLOT_OCCLUSION) {
        let uv = slot_uv(SLOT_OCCLUSION, in);
        let texel = textureSample(occlusion_texture, occlusion_sampler, uv).r;
        s.occlusion = 1.0 + material.roughness_cutoff.w * (texel - 1.0);
    }
    s.emissive = material.emissive_metallic.rgb;
    if slot_bound(SLOT_EMISSIVE) {
        let uv = slot_uv(SLOT_EMISSIVE, in);
        s.emissive = s.emissive * textureSample(emissive_texture, emissive_sampler, uv).rgb;
    }
    return s;
}

// Ambient (darkened by the occlusion), emissive and the sun (with its
// shadow): everything but the point and spot lights.
fn sun_and_ambient(s: Surface) -> vec3<f32> {
    return ambient_light(s) * s.occlusion + s.emissive + sun_light(s);
}

// Depth-only fragment stage (the forward-plus pre-pass): alpha-masked
// texels are cut out of the depth buffer too.
@fragment
fn fs_depth(in: VertexOut) {
    if base_color(in).a < material.roughness_cutoff.y {
        discard;
    }
}
