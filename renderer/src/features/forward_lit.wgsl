// Forward-lit PBR (metallic-roughness): one directional sun plus up to eight
// point and eight spot lights, Cook-Torrance GGX with Smith visibility and
// Schlick Fresnel. Outputs linear HDR radiance.

const MAX_POINTS: u32 = 8u;
const MAX_SPOTS: u32 = 8u;
const PI: f32 = 3.14159265;

struct PointLight { position_range: vec4<f32>, color_intensity: vec4<f32> };
struct SpotLight {
    position_range: vec4<f32>,
    direction_inner: vec4<f32>,
    color_intensity: vec4<f32>,
    outer: vec4<f32>,
};

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
    counts: vec4<u32>,             // x: points, y: spots
    points: array<PointLight, MAX_POINTS>,
    spots: array<SpotLight, MAX_SPOTS>,
};

struct DrawUniform { model: mat4x4<f32>, normal: mat4x4<f32> };

struct Material {
    base_color: vec4<f32>,
    emissive_metallic: vec4<f32>,  // rgb emissive, a metallic
    roughness_cutoff: vec4<f32>,   // x roughness, y alpha cutoff (-1 none), z has texture
};

@group(0) @binding(0) var<uniform> frame: FrameUniform;
@group(1) @binding(0) var<uniform> draw: DrawUniform;
@group(2) @binding(0) var<uniform> material: Material;
@group(2) @binding(1) var base_texture: texture_2d<f32>;
@group(2) @binding(2) var base_sampler: sampler;
@group(3) @binding(0) var shadow_atlas: texture_depth_2d;
@group(3) @binding(1) var shadow_sampler: sampler_comparison;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let world = draw.model * vec4(in.position, 1.0);
    var out: VertexOut;
    out.clip = frame.view_proj * world;
    out.world = world.xyz;
    out.normal = (draw.normal * vec4(in.normal, 0.0)).xyz;
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

// Radiance reflected towards the eye from light arriving along `l` with `radiance`.
fn shade(n: vec3<f32>, v: vec3<f32>, l: vec3<f32>, radiance: vec3<f32>,
         albedo: vec3<f32>, metallic: f32, roughness: f32) -> vec3<f32> {
    let h = normalize(v + l);
    let n_dot_l = max(dot(n, l), 0.0);
    let n_dot_v = max(dot(n, v), 1e-4);
    let a = roughness * roughness;
    let f0 = mix(vec3(0.04), albedo, metallic);
    let f = fresnel_schlick(max(dot(v, h), 0.0), f0);
    let specular = distribution_ggx(max(dot(n, h), 0.0), a) * visibility_smith(n_dot_v, n_dot_l, a) * f;
    let diffuse = (1.0 - f) * (1.0 - metallic) * albedo / PI;
    return (diffuse + specular) * radiance * n_dot_l;
}

fn range_falloff(distance: f32, range: f32) -> f32 {
    let ratio = distance / max(range, 1e-4);
    let window = clamp(1.0 - ratio * ratio * ratio * ratio, 0.0, 1.0);
    return window * window / max(distance * distance, 1e-4);
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

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    var base = material.base_color;
    if material.roughness_cutoff.z > 0.5 {
        base = base * textureSample(base_texture, base_sampler, in.uv);
    }
    if base.a < material.roughness_cutoff.y {
        discard;
    }
    let n = normalize(in.normal);
    let v = normalize(frame.camera_position.xyz - in.world);
    let metallic = material.emissive_metallic.a;
    let roughness = material.roughness_cutoff.x;
    var color = frame.ambient.rgb * base.rgb + material.emissive_metallic.rgb;
    if frame.sun_direction.w > 0.5 {
        let visibility = sun_visibility(in.world, n);
        color += visibility * shade(n, v, -frame.sun_direction.xyz, frame.sun_color.rgb, base.rgb, metallic, roughness);
    }
    for (var i = 0u; i < min(frame.counts.x, MAX_POINTS); i++) {
        let light = frame.points[i];
        let to_light = light.position_range.xyz - in.world;
        let d = length(to_light);
        let radiance = light.color_intensity.rgb * light.color_intensity.a * range_falloff(d, light.position_range.w);
        color += shade(n, v, to_light / max(d, 1e-4), radiance, base.rgb, metallic, roughness);
    }
    for (var i = 0u; i < min(frame.counts.y, MAX_SPOTS); i++) {
        let light = frame.spots[i];
        let to_light = light.position_range.xyz - in.world;
        let d = length(to_light);
        let l = to_light / max(d, 1e-4);
        let cone = smoothstep(light.outer.x, light.direction_inner.w, dot(-l, light.direction_inner.xyz));
        let radiance = light.color_intensity.rgb * light.color_intensity.a * range_falloff(d, light.position_range.w) * cone;
        color += shade(n, v, l, radiance, base.rgb, metallic, roughness);
    }
    return vec4(color, base.a);
}
