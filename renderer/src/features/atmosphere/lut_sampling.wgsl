// Reads of the transmittance table, for the shaders drawn after it.

@group(0) @binding(1) var transmittance_lut: texture_2d<f32>;
@group(0) @binding(2) var lut_sampler: sampler;

// Transmittance from a point `radius` from the centre to the top of the
// atmosphere along cos(zenith) `mu` (the table's rays do not meet the
// ground: callers test that themselves).
fn transmittance_to_top(radius: f32, mu: f32) -> vec3<f32> {
    let uv = transmittance_texture_coords(radius, mu);
    return textureSampleLevel(transmittance_lut, lut_sampler, uv, 0.0).rgb;
}

// Sunlight reaching a point: the transmittance towards the sun, zero where
// the planet stands in the way.
fn sunlight_at(radius: f32, sun_mu: f32) -> vec3<f32> {
    if distance_to_ground(radius, sun_mu) >= 0.0 {
        return vec3(0.0);
    }
    return transmittance_to_top(radius, sun_mu);
}
