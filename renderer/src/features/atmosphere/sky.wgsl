// The sky behind everything: each pixel's view ray, from the inverse
// view-projection matrix in group 1, looks its radiance up in the sky-view
// table, and the sun's disk is added where the ray points at it, dimmed by
// the air in between and darker towards its limb. A pure function of the
// view direction: drawn with another matrix, it fills a cube-map face.

@group(0) @binding(3) var sky_view_lut: texture_2d<f32>;

struct View { inverse_view_proj: mat4x4<f32> };

@group(1) @binding(0) var<uniform> view: View;

// Linear limb darkening: the disk's edge is this much darker than its centre.
const LIMB_DARKENING: f32 = 0.6;
// Half-float targets overflow above 65504.
const MAX_RADIANCE: f32 = 60000.0;

fn view_direction(ndc: vec2<f32>) -> vec3<f32> {
    let near = view.inverse_view_proj * vec4(ndc, 0.0, 1.0);
    let far = view.inverse_view_proj * vec4(ndc, 1.0, 1.0);
    let along = far.xyz / far.w - near.xyz / near.w;
    let length_squared = dot(along, along);
    // A degenerate matrix gives no direction: look straight up.
    if !(length_squared > 1e-20) {
        return vec3(0.0, 1.0, 0.0);
    }
    return along * inverseSqrt(length_squared);
}

// Azimuth between the view ray and the sun, 0..pi.
fn azimuth_from_sun(direction: vec3<f32>, sun: vec3<f32>) -> f32 {
    let view_flat = direction.xz;
    let sun_flat = sun.xz;
    let lengths = length(view_flat) * length(sun_flat);
    if lengths < 1e-6 {
        return 0.0;
    }
    return acos(clamp(dot(view_flat, sun_flat) / lengths, -1.0, 1.0));
}

// Radiance of the sun's disk for unit illuminance: illuminance spread over
// the disk's solid angle, shaped by limb darkening (normalised so the disk
// still delivers unit illuminance), blended over about a pixel at the edge.
fn sun_disk(angle: f32, edge_width: f32) -> f32 {
    let radius = atmosphere.radii.w;
    if radius <= 0.0 {
        return 0.0;
    }
    let coverage = 1.0 - smoothstep(radius - 0.5 * edge_width, radius + 0.5 * edge_width, angle);
    let across = clamp(angle / radius, 0.0, 1.0);
    let limb_mu = sqrt(1.0 - across * across);
    let limb = (1.0 - LIMB_DARKENING * (1.0 - limb_mu)) / (1.0 - LIMB_DARKENING / 3.0);
    return coverage * limb / (PI * radius * radius);
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let direction = view_direction(in.ndc);
    let sun = atmosphere.sun.xyz;
    let angle_to_sun = acos(clamp(dot(direction, sun), -1.0, 1.0));
    // Derivatives before any branch (uniform control flow).
    let pixel_angle = max(fwidth(angle_to_sun), 1e-5);

    let uv = sky_view_texture_coords(direction.y, azimuth_from_sun(direction, sun));
    var radiance = textureSampleLevel(sky_view_lut, lut_sampler, uv, 0.0).rgb;

    let radius = viewer_radius();
    if distance_to_ground(radius, direction.y) < 0.0 {
        let disk = sun_disk(angle_to_sun, pixel_angle);
        if disk > 0.0 {
            radiance += disk * transmittance_to_top(radius, direction.y);
        }
    }
    radiance *= atmosphere.sun.w;
    return vec4(clamp(radiance, vec3(0.0), vec3(MAX_RADIANCE)), 1.0);
}
