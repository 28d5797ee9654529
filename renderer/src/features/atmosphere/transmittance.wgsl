// The transmittance table: for each texel's (radius, mu), the fraction of
// light that crosses the air from there to the top of the atmosphere,
// exp(-optical depth), the depth summed over TRANSMITTANCE_STEPS segments.

const TRANSMITTANCE_STEPS: u32 = 40u;

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let radius_mu = transmittance_radius_mu(in.clip.xy / TRANSMITTANCE_LUT_SIZE);
    let radius = radius_mu.x;
    let mu = radius_mu.y;
    let ray_length = distance_to_top(radius, mu);
    let step_length = ray_length / f32(TRANSMITTANCE_STEPS);
    var optical_depth = vec3(0.0);
    for (var i = 0u; i < TRANSMITTANCE_STEPS; i++) {
        let t = (f32(i) + 0.5) * step_length;
        let sample_radius = sqrt(t * t + 2.0 * radius * mu * t + radius * radius);
        optical_depth += medium_at(sample_radius).extinction * step_length;
    }
    return vec4(exp(-optical_depth), 1.0);
}
