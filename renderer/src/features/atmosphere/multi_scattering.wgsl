// The multiple-scattering table: for each altitude and sun cos(zenith), the
// light that reaches a point after two or more bounces, per unit of
// scattering coefficient. Every direction around the point is marched once
// (MULTI_SCATTERING_DIRECTIONS squared, evenly spread over the sphere),
// gathering the sunlight scattered once towards the point (isotropically:
// after several bounces the phase no longer matters) and the fraction of
// light the air around re-scatters. Assuming every further bounce behaves
// like the second, the bounces form a geometric series:
// total = second order / (1 - fraction re-scattered).

const MULTI_SCATTERING_DIRECTIONS: u32 = 8u;
const MULTI_SCATTERING_STEPS: u32 = 20u;

// Light arriving along one direction: `light` scattered once from the sun,
// `fraction` the share of light from that direction the air re-scatters.
struct Gathered { light: vec3<f32>, fraction: vec3<f32> };

fn gather_along(radius: f32, sun: vec3<f32>, direction: vec3<f32>) -> Gathered {
    let origin = vec3(0.0, radius, 0.0);
    let mu = direction.y;
    let ground_distance = distance_to_ground(radius, mu);
    let hits_ground = ground_distance >= 0.0;
    let ray_length = select(distance_to_top(radius, mu), ground_distance, hits_ground);
    let step_length = ray_length / f32(MULTI_SCATTERING_STEPS);
    let isotropic = 1.0 / (4.0 * PI);
    var gathered: Gathered;
    gathered.light = vec3(0.0);
    gathered.fraction = vec3(0.0);
    var throughput = vec3(1.0);
    for (var i = 0u; i < MULTI_SCATTERING_STEPS; i++) {
        let point = origin + (f32(i) + 0.5) * step_length * direction;
        let point_radius = length(point);
        let sun_mu = dot(point / point_radius, sun);
        let medium = medium_at(point_radius);
        let scattering = medium.rayleigh_scattering + medium.mie_scattering;
        let step_transmittance = exp(-medium.extinction * step_length);
        // The segment's medium is taken as constant: integrate its
        // exponential falloff exactly.
        let segment = throughput * (1.0 - step_transmittance) / max(medium.extinction, vec3(1e-7));
        gathered.light += segment * scattering * sunlight_at(point_radius, sun_mu) * isotropic;
        gathered.fraction += segment * scattering;
        throughput *= step_transmittance;
    }
    if hits_ground {
        let point = origin + ground_distance * direction;
        let sun_mu = dot(normalize(point), sun);
        let lit = sunlight_at(planet_radius(), sun_mu) * max(sun_mu, 0.0);
        gathered.light += throughput * lit * atmosphere.ground.rgb / PI;
    }
    return gathered;
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let x = texture_to_unit(in.clip.xy / MULTI_SCATTERING_LUT_SIZE, MULTI_SCATTERING_LUT_SIZE);
    let sun_mu = clamp(x.x * 2.0 - 1.0, -1.0, 1.0);
    let height = top_radius() - planet_radius();
    let radius = planet_radius() + clamp(x.y, 0.0, 1.0) * height * 0.999 + height * 0.0005;
    let sun = vec3(sqrt(1.0 - sun_mu * sun_mu), sun_mu, 0.0);
    var light = vec3(0.0);
    var fraction = vec3(0.0);
    let n = MULTI_SCATTERING_DIRECTIONS;
    for (var i = 0u; i < n; i++) {
        for (var j = 0u; j < n; j++) {
            let cos_theta = 1.0 - 2.0 * (f32(i) + 0.5) / f32(n);
            let phi = 2.0 * PI * (f32(j) + 0.5) / f32(n);
            let sin_theta = sqrt(max(1.0 - cos_theta * cos_theta, 0.0));
            let direction = vec3(sin_theta * cos(phi), cos_theta, sin_theta * sin(phi));
            let gathered = gather_along(radius, sun, direction);
            light += gathered.light;
            fraction += gathered.fraction;
        }
    }
    // Uniform sphere sampling: the integral of f times the isotropic phase
    // over the sphere is the mean of f.
    let count = f32(n * n);
    light /= count;
    fraction /= count;
    return vec4(light / max(1.0 - fraction, vec3(1e-3)), 1.0);
}
