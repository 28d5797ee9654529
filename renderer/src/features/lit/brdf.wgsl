// Cook-Torrance GGX with Smith visibility and Schlick Fresnel, and one
// point or spot light's contribution to a surface.

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
    // Ambient occlusion from the material (1: open).
    occlusion: f32,
    emissive: vec3<f32>,
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

