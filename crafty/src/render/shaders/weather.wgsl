// Rain and snow: particle `i` (one instance, six vertices) is placed from a
// hash of `i` and the time, wrapped into a box that follows the camera while
// staying fixed in the world, and dropped when it is below the top of its
// column (the precipitation map), so nothing falls through roofs or ground.

struct WeatherOut {
    @builtin(position) clip: vec4<f32>,
    // Position on the particle's quad, -1..1.
    @location(0) quad: vec2<f32>,
    @location(1) color: vec4<f32>,
    @location(2) @interpolate(flat) snow: u32,
};

// The box of falling particles around the camera, in blocks.
const BOX = vec3<f32>(48.0, 36.0, 48.0);
const RAIN_SPEED: f32 = 15.0;
const SNOW_SPEED: f32 = 1.7;

fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

fn unit(v: u32) -> f32 {
    return f32(pcg(v) & 0xffffffu) / 16777216.0;
}

fn hidden() -> WeatherOut {
    var out: WeatherOut;
    out.clip = vec4(0.0, 0.0, -2.0, 1.0);
    return out;
}

// `x` wrapped into `lo .. lo + size`.
fn wrap(x: vec3<f32>, lo: vec3<f32>, size: vec3<f32>) -> vec3<f32> {
    return lo + (x - lo) - floor((x - lo) / size) * size;
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> WeatherOut {
    let kind = u32(frame.weather.w + 0.5);
    if kind == 0u || frame.weather_map.z <= 0.0 {
        return hidden();
    }
    let seed = ii * 4u;
    let t = frame.fog.w;
    let eye = frame.camera.xyz;
    let lo = eye - BOX * 0.5;
    let base = vec3(unit(seed), unit(seed + 1u), unit(seed + 2u)) * BOX;
    let jitter = unit(seed + 3u);

    // Where the particle is across the ground first (wind and sway only):
    // the column decides rain or snow.
    let wind = vec2(0.9, 0.35);
    let sway = vec2(sin(t * 0.9 + jitter * 40.0), cos(t * 0.7 + jitter * 30.0)) * 0.6;
    let drift = wind * t;
    var xz = wrap(vec3(base.x + drift.x, 0.0, base.z + drift.y), lo, BOX).xz;
    let column = precipitation_at(floor(xz));
    let stop = f32(column.r);
    let snow = kind == 2u || column.g == SNOWY_TOP || stop > frame.weather_map.w;
    if snow {
        xz = wrap(vec3(xz.x + sway.x, 0.0, xz.y + sway.y), lo, BOX).xz;
    }
    let speed = select(RAIN_SPEED * (0.85 + 0.3 * jitter), SNOW_SPEED * (0.7 + 0.6 * jitter), snow);
    let y = wrap(vec3(0.0, base.y - speed * t, 0.0), lo, BOX).y;
    if y < stop {
        return hidden();
    }
    let center = vec3(xz.x, y, xz.y);

    // A quad facing the camera: a thin streak along the fall for rain, a
    // small square for snow.
    let to_eye = normalize(eye - center);
    var along = normalize(vec3(-wind.x, -speed, -wind.y));
    var half_length = 0.45;
    var half_width = 0.035;
    if snow {
        along = normalize(cross(to_eye, normalize(cross(vec3(0.0, 1.0, 0.0), to_eye))));
        half_length = 0.07;
        half_width = 0.07;
    }
    let side = normalize(cross(along, to_eye));
    let corners = array<vec2<f32>, 6>(
        vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
        vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0),
    );
    let q = corners[vi % 6u];
    let world = center + side * (q.x * half_width) + along * (q.y * half_length);

    // Lit by the sky and the direct light; fading out towards the box's
    // sides so its edges never show.
    let distance = length((center - eye).xz);
    let fade = 1.0 - smoothstep(BOX.x * 0.32, BOX.x * 0.5, distance);
    let light = frame.ambient.rgb + frame.light_color.rgb * 0.35;
    var out: WeatherOut;
    out.clip = frame.view_proj * vec4(world, 1.0);
    out.quad = q;
    out.snow = u32(snow);
    if snow {
        out.color = vec4(vec3(0.95, 0.97, 1.0) * light, 0.9 * fade);
    } else {
        out.color = vec4(vec3(0.62, 0.68, 0.8) * light, 0.42 * fade);
    }
    return out;
}

@fragment
fn fs_main(in: WeatherOut) -> @location(0) vec4<f32> {
    var alpha = in.color.a;
    if in.snow == 1u {
        alpha *= 1.0 - smoothstep(0.6, 1.0, length(in.quad));
    } else {
        // Brighter in the middle of the streak, thinning at its ends.
        alpha *= (1.0 - abs(in.quad.x)) * (1.0 - in.quad.y * in.quad.y);
    }
    if alpha < 0.01 {
        discard;
    }
    return vec4(in.color.rgb, alpha);
}
