// Shared by the lit passes (forward, forward-plus): bindings, the instanced
// vertex stage, Cook-Torrance GGX with Smith visibility and Schlick Fresnel,
// the sun's cascaded shadow lookup and one point/spot light's contribution.
// The Rust side prepends `light.wgsl` and the declaration of `lights`
// (storage or uniform).

const PI: f32 = 3.14159265;

struct FrameUniform {
    view_proj: mat4x4<f32>,
    cascade_view_proj: array<mat4x4<f32>, 4>,
    cascade_splits: vec4<f32>,
    shadow_params: vec4<f32>,      // x: cascades in use (0: no shadows), y: atlas texel size
    camera_position: vec4<f32>,
    camera_forward: vec4<f32>,
    sun_direction: vec4<f32>,      // w: 1 when there is a sun
    sun_color: vec4<f32>,          // rgb * intensity
    ambient: vec4<f32>,
    counts: vec4<u32>,             // x: lights, y: tile size, z: tiles across, w: lights per tile
};

struct Material {
    base_color: vec4<f32>,
    emissive_metallic: vec4<f32>,  // rgb emissive, a metallic
    roughness_cutoff: vec4<f32>,   // x roughness, y alpha cutoff (-1 none), z has texture
};

@group(0) @binding(0) var<uniform> frame: FrameUniform;
@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_texture: texture_2d<f32>;
@group(1) @binding(2) var base_sampler: sampler;
@group(2) @binding(0) var shadow_atlas: texture_depth_2d;
@group(2) @binding(1) var shadow_sampler: sampler_comparison;

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
    @builtin(position) clip: vec4<f32>,
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

fn distribution_ggx(n_dot_h: f32, a: f32) -> f32 {
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

fn visibility_smith(n_dot_v: f32, n_dot_l: f32, a: f32) -> f32 {
    let a2 = a * a;
    let gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
    let gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
    return 0.5 / max(gv + gl, 1e-5);
}

fn fresnel_schlick(v_dot_h: f32, f0: vec3<f32>) -> vec3<f32> {
    return f0 + (1.0 - f0) * pow(1.0 - v_dot_h, 5.0);
}

// What the lighting needs to know about the point being shaded.
struct Surface {
    world: vec3<f32>,
    n: vec3<f32>,
    v: vec3<f32>,
    albedo: vec3<f32>,
    alpha: f32,
    metallic: f32,
    roughness: f32,
};

// Radiance reflected towards the eye from light arriving along `l` with `radiance`.
fn shade(s: Surface, l: vec3<f32>, radiance: vec3<f32>) -> vec3<f32> {
    let h = normalize(s.v + l);
    let n_dot_l = max(dot(s.n, l), 0.0);
    let n_dot_v = max(dot(s.n, s.v), 1e-4);
    let a = s.roughness * s.roughness;
    let f0 = mix(vec3(0.04), s.albedo, s.metallic);
    let f = fresnel_schlick(max(dot(s.v, h), 0.0), f0);
    let specular = distribution_ggx(max(dot(s.n, h), 0.0), a) * visibility_smith(n_dot_v, n_dot_l, a) * f;
    let diffuse = (1.0 - f) * (1.0 - s.metallic) * s.albedo / PI;
    return (diffuse + specular) * radiance * n_dot_l;
}

// Smooth windowed inverse-square falloff, exactly zero at `range`.
fn range_falloff(distance: f32, range: f32) -> f32 {
    let ratio = distance / max(range, 1e-4);
    let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
    return window * window / max(distance * distance, 1e-4);
}

// One point or spot light's contribution (zero beyond its range or cone).
fn light_contribution(light: Light, s: Surface) -> vec3<f32> {
    let to_light = light.position_range.xyz - s.world;
    let d = length(to_light);
    if d >= light.position_range.w {
        return vec3(0.0);
    }
    let l = to_light / max(d, 1e-4);
    var cone = 1.0;
    if light.outer_kind.y > 0.5 {
        cone = smoothstep(light.outer_kind.x, light.direction_inner.w, dot(-l, light.direction_inner.xyz));
    }
    let radiance = light.color_intensity.rgb * light.color_intensity.a * range_falloff(d, light.position_range.w) * cone;
    return shade(s, l, radiance);
}

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
    var color = frame.ambient.rgb * s.albedo + material.emissive_metallic.rgb;
    if frame.sun_direction.w > 0.5 {
        let visibility = sun_visibility(s.world, s.n);
        color += visibility * shade(s, -frame.sun_direction.xyz, frame.sun_color.rgb);
    }
    return color;
}

// Depth-only fragment stage (the forward-plus pre-pass): alpha-masked
// texels are cut out of the depth buffer too.
@fragment
fn fs_depth(in: VertexOut) {
    if base_color(in).a < material.roughness_cutoff.y {
        discard;
    }
}
