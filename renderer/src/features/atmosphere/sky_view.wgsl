// The sky-view table: the radiance of the whole sky around the viewer for a
// sun of unit illuminance, one texel per (zenith angle, azimuth from the
// sun); see sky_view_texture_coords for the layout. Each texel marches its
// view ray through the air, adding at every step the sunlight scattered
// once towards the viewer (Rayleigh and Mie phase functions) and the
// multiply scattered light from the multiple-scattering table, each
// attenuated by the air in between. Rays that meet the ground add the
// sunlit ground (Lambertian, direct sun only) behind that air.

@group(0) @binding(3) var multi_scattering_lut: texture_2d<f32>;

const SKY_VIEW_STEPS: u32 = 32u;

fn multiply_scattered(radius: f32, sun_mu: f32) -> vec3<f32> {
    let uv = multi_scattering_texture_coords(radius, sun_mu);
    return textureSampleLevel(multi_scattering_lut, lut_sampler, uv, 0.0).rgb;
}

// The view direction (zenith up, the sun's azimuth along +X) of a texel.
fn sky_view_direction(uv: vec2<f32>) -> vec3<f32> {
    let x = texture_to_unit(uv, SKY_VIEW_LUT_SIZE);
    let ground = planet_radius();
    let radius = viewer_radius();
    let below_horizon = acos(sqrt(max(radius * radius - ground * ground, 0.0)) / radius);
    let horizon_zenith = PI - below_horizon;
    var zenith: f32;
    if x.y < 0.5 {
        let above = 1.0 - 2.0 * x.y;
        zenith = horizon_zenith * (1.0 - above * above);
    } else {
        let below = 2.0 * x.y - 1.0;
        zenith = horizon_zenith + below_horizon * below * below;
    }
    let azimuth = PI * x.x * x.x;
    return vec3(sin(zenith) * cos(azimuth), cos(zenith), sin(zenith) * sin(azimuth));
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let direction = sky_view_direction(in.clip.xy / SKY_VIEW_LUT_SIZE);
    let radius = viewer_radius();
    let origin = vec3(0.0, radius, 0.0);
    let sun_mu = clamp(atmosphere.sun.y, -1.0, 1.0);
    let sun = vec3(sqrt(1.0 - sun_mu * sun_mu), sun_mu, 0.0);
    let cos_to_sun = dot(direction, sun);
    let rayleigh = rayleigh_phase(cos_to_sun);
    let mie = mie_phase(cos_to_sun);

    let ground_distance = distance_to_ground(radius, direction.y);
    let hits_ground = ground_distance >= 0.0;
    let ray_length = select(distance_to_top(radius, direction.y), ground_distance, hits_ground);
    var radiance = vec3(0.0);
    var throughput = vec3(1.0);
    // Steps grow quadratically: short near the viewer, where the air is
    // densest along low rays, long far out.
    for (var i = 0u; i < SKY_VIEW_STEPS; i++) {
        let start = f32(i) / f32(SKY_VIEW_STEPS);
        let end = f32(i + 1u) / f32(SKY_VIEW_STEPS);
        let t = ray_length * 0.5 * (start * start + end * end);
        let step_length = ray_length * (end * end - start * start);
        let point = origin + t * direction;
        let point_radius = length(point);
        let point_sun_mu = dot(point / point_radius, sun);
        let medium = medium_at(point_radius);
        let sunlight = sunlight_at(point_radius, point_sun_mu);
        let multiple = multiply_scattered(point_radius, point_sun_mu);
        let source = medium.rayleigh_scattering * (sunlight * rayleigh + multiple)
            + medium.mie_scattering * (sunlight * mie + multiple);
        let step_transmittance = exp(-medium.extinction * step_length);
        radiance += throughput * source * (1.0 - step_transmittance)
            / max(medium.extinction, vec3(1e-7));
        throughput *= step_transmittance;
    }
    if hits_ground {
        let point = origin + ground_distance * direction;
        let ground_sun_mu = dot(normalize(point), sun);
        let lit = sunlight_at(planet_radius(), ground_sun_mu) * max(ground_sun_mu, 0.0);
        radiance += throughput * lit * atmosphere.ground.rgb / PI;
    }
    return vec4(radiance, 1.0);
}
