// Shared by every atmosphere shader (the Rust side prepends it, after the
// look-up-table sizes): the atmosphere's parameters, what the air holds at
// an altitude, distances to the planet's spheres, phase functions and the
// transmittance table's coordinates. Lengths are in km, the planet's centre
// is the origin, +Y is up at the viewer.

struct Atmosphere {
    // planet radius, top-of-atmosphere radius, viewer radius, sun angular radius
    radii: vec4<f32>,
    // Rayleigh scattering (rgb), Rayleigh scale height
    rayleigh: vec4<f32>,
    // Mie scattering (rgb), Mie scale height
    mie_scattering: vec4<f32>,
    // Mie absorption (rgb), Mie anisotropy g
    mie_absorption: vec4<f32>,
    // ozone absorption at its peak (rgb), peak altitude
    ozone: vec4<f32>,
    // ground albedo (rgb), ozone half width
    ground: vec4<f32>,
    // unit direction towards the sun (xyz, world space), sun illuminance
    sun: vec4<f32>,
};

@group(0) @binding(0) var<uniform> atmosphere: Atmosphere;

const PI: f32 = 3.14159265;

// Every atmosphere pass draws one triangle over its whole target; `ndc` is
// the fragment's position in normalised device coordinates.
struct Varyings { @builtin(position) clip: vec4<f32>, @location(0) ndc: vec2<f32> };

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> Varyings {
    let uv = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Varyings;
    out.ndc = uv * 2.0 - 1.0;
    out.clip = vec4(out.ndc, 0.0, 1.0);
    return out;
}

fn planet_radius() -> f32 { return atmosphere.radii.x; }
fn top_radius() -> f32 { return atmosphere.radii.y; }
fn viewer_radius() -> f32 { return atmosphere.radii.z; }

// Scattering and extinction of the air at one point.
struct Medium {
    rayleigh_scattering: vec3<f32>,
    mie_scattering: vec3<f32>,
    extinction: vec3<f32>,
};

fn medium_at(radius: f32) -> Medium {
    let altitude = max(radius - planet_radius(), 0.0);
    let rayleigh_density = exp(-altitude / atmosphere.rayleigh.w);
    let mie_density = exp(-altitude / atmosphere.mie_scattering.w);
    let ozone_density = max(0.0, 1.0 - abs(altitude - atmosphere.ozone.w) / atmosphere.ground.w);
    var medium: Medium;
    medium.rayleigh_scattering = atmosphere.rayleigh.rgb * rayleigh_density;
    medium.mie_scattering = atmosphere.mie_scattering.rgb * mie_density;
    let absorption = atmosphere.mie_absorption.rgb * mie_density + atmosphere.ozone.rgb * ozone_density;
    medium.extinction = medium.rayleigh_scattering + medium.mie_scattering + absorption;
    return medium;
}

// A ray starts `radius` from the centre, its direction at cos(zenith) `mu`.
// Distance to where it leaves the top of the atmosphere (from inside).
fn distance_to_top(radius: f32, mu: f32) -> f32 {
    let top = top_radius();
    let discriminant = radius * radius * (mu * mu - 1.0) + top * top;
    return max(0.0, -radius * mu + sqrt(max(discriminant, 0.0)));
}

// Distance to where that ray meets the ground, or a negative value if it
// never does.
fn distance_to_ground(radius: f32, mu: f32) -> f32 {
    let ground = planet_radius();
    let discriminant = radius * radius * (mu * mu - 1.0) + ground * ground;
    if mu >= 0.0 || discriminant < 0.0 {
        return -1.0;
    }
    return max(0.0, -radius * mu - sqrt(discriminant));
}

// Light scattered by molecules: symmetric, a little stronger forwards and
// backwards than sideways.
fn rayleigh_phase(cos_angle: f32) -> f32 {
    return 3.0 / (16.0 * PI) * (1.0 + cos_angle * cos_angle);
}

// Light scattered by aerosols: mostly forwards (Cornette-Shanks).
fn mie_phase(cos_angle: f32) -> f32 {
    let g = atmosphere.mie_absorption.w;
    let g2 = g * g;
    let denominator = (2.0 + g2) * pow(max(1.0 + g2 - 2.0 * g * cos_angle, 1e-4), 1.5);
    return 3.0 / (8.0 * PI) * (1.0 - g2) * (1.0 + cos_angle * cos_angle) / denominator;
}

// A table of `size` texels stores values for 0..1 at its first and last
// texel centres (not at its edges), so the ends are exact: these convert
// between that 0..1 and texture coordinates.
fn unit_to_texture(x: vec2<f32>, size: vec2<f32>) -> vec2<f32> {
    return 0.5 / size + x * (1.0 - 1.0 / size);
}

fn texture_to_unit(uv: vec2<f32>, size: vec2<f32>) -> vec2<f32> {
    return (uv - 0.5 / size) / (1.0 - 1.0 / size);
}

// The transmittance table holds, for a start radius and a cos(zenith) of
// rays that do not meet the ground, the transmittance to the top of the
// atmosphere. Across: where the distance to the top lies between its
// shortest (straight up) and longest (grazing the ground) values. Down: how
// far the start is from the ground, as its distance to the horizon.
fn transmittance_texture_coords(radius: f32, mu: f32) -> vec2<f32> {
    let ground = planet_radius();
    let top = top_radius();
    let horizon_at_top = sqrt(top * top - ground * ground);
    let horizon = sqrt(max(radius * radius - ground * ground, 0.0));
    let shortest = top - radius;
    let longest = horizon + horizon_at_top;
    let across = (distance_to_top(radius, mu) - shortest) / max(longest - shortest, 1e-6);
    let down = horizon / horizon_at_top;
    return unit_to_texture(clamp(vec2(across, down), vec2(0.0), vec2(1.0)), TRANSMITTANCE_LUT_SIZE);
}

// The inverse: (radius, mu) of a transmittance texel.
fn transmittance_radius_mu(uv: vec2<f32>) -> vec2<f32> {
    let x = texture_to_unit(uv, TRANSMITTANCE_LUT_SIZE);
    let ground = planet_radius();
    let top = top_radius();
    let horizon_at_top = sqrt(top * top - ground * ground);
    let horizon = horizon_at_top * x.y;
    let radius = sqrt(horizon * horizon + ground * ground);
    let shortest = top - radius;
    let longest = horizon + horizon_at_top;
    let distance = shortest + x.x * (longest - shortest);
    var mu = 1.0;
    if distance > 1e-6 {
        mu = (horizon_at_top * horizon_at_top - horizon * horizon - distance * distance)
            / (2.0 * radius * distance);
    }
    return vec2(radius, clamp(mu, -1.0, 1.0));
}

// The multiple-scattering table: across, the sun's cos(zenith) from -1 to
// 1; down, the altitude from the ground to the top of the atmosphere.
fn multi_scattering_texture_coords(radius: f32, sun_mu: f32) -> vec2<f32> {
    let altitude = (radius - planet_radius()) / (top_radius() - planet_radius());
    let x = vec2(sun_mu * 0.5 + 0.5, altitude);
    return unit_to_texture(clamp(x, vec2(0.0), vec2(1.0)), MULTI_SCATTERING_LUT_SIZE);
}

// The sky-view table, seen from the viewer's radius: across, the azimuth
// from the sun's (0 towards the sun, pi away; the sky is symmetric about
// the sun's vertical plane), square-root spaced so the sun's glow gets more
// texels; down, the zenith angle, the horizon in the middle, with texels
// packed quadratically towards the horizon from both sides, where the
// colour changes fastest.
fn sky_view_texture_coords(mu: f32, azimuth: f32) -> vec2<f32> {
    let ground = planet_radius();
    let radius = viewer_radius();
    let below_horizon = acos(sqrt(max(radius * radius - ground * ground, 0.0)) / radius);
    let horizon_zenith = PI - below_horizon;
    let zenith = acos(clamp(mu, -1.0, 1.0));
    var down: f32;
    if zenith < horizon_zenith {
        down = 0.5 - 0.5 * sqrt(max(horizon_zenith - zenith, 0.0) / horizon_zenith);
    } else {
        down = 0.5 + 0.5 * sqrt(max(zenith - horizon_zenith, 0.0) / max(below_horizon, 1e-6));
    }
    let across = sqrt(clamp(azimuth / PI, 0.0, 1.0));
    return unit_to_texture(clamp(vec2(across, down), vec2(0.0), vec2(1.0)), SKY_VIEW_LUT_SIZE);
}
