// Image-based lighting (@group(2), beside the shadow): the sky's diffuse
// irradiance, its prefiltered specular cube and the split-sum BRDF table.
// Off (zero) until the sky feature has baked them.

struct EnvironmentParams {
    params: vec4<f32>,   // x intensity, y last specular mip, z 1 when baked
};

@group(2) @binding(2) var irradiance_map: texture_cube<f32>;
@group(2) @binding(3) var specular_map: texture_cube<f32>;
@group(2) @binding(4) var brdf_table: texture_2d<f32>;
@group(2) @binding(5) var environment_sampler: sampler;
@group(2) @binding(6) var<uniform> environment: EnvironmentParams;

fn fresnel_schlick_roughness(n_dot_v: f32, f0: vec3<f32>, roughness: f32) -> vec3<f32> {
    return f0 + (max(vec3(1.0 - roughness), f0) - f0) * pow(1.0 - n_dot_v, 5.0);
}

// The environment's light reflected by `s` (diffuse and specular).
fn image_based_light(s: Surface) -> vec3<f32> {
    if environment.params.z < 0.5 {
        return vec3(0.0);
    }
    let n_dot_v = max(dot(s.n, s.v), 1e-4);
    let f0 = mix(vec3(0.04), s.albedo, s.metallic);
    let f = fresnel_schlick_roughness(n_dot_v, f0, s.roughness);
    let diffuse = (1.0 - f) * (1.0 - s.metallic) * s.albedo
        * textureSampleLevel(irradiance_map, environment_sampler, s.n, 0.0).rgb;
    let r = reflect(-s.v, s.n);
    let prefiltered = textureSampleLevel(specular_map, environment_sampler, r, s.roughness * environment.params.y).rgb;
    let brdf = textureSampleLevel(brdf_table, environment_sampler, vec2(n_dot_v, s.roughness), 0.0).rg;
    return (diffuse + prefiltered * (f0 * brdf.x + brdf.y)) * environment.params.x;
}

// Ambient light on `s`: the hemisphere (sky above, ground below, blended
// by how far the normal leans up) plus the environment's.
fn ambient_light(s: Surface) -> vec3<f32> {
    let hemisphere = mix(frame.ambient_ground.rgb, frame.ambient.rgb, clamp(s.n.y * 0.5 + 0.5, 0.0, 1.0));
    return hemisphere * s.albedo + image_based_light(s);
}
