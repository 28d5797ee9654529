// The cloud layer: a slab of sky between two heights, its density a drifting
// 2D noise field shaped into domes (thicker in the middle of the slab), ray
// marched in a few steps from the camera. Each step is lit by the sun or
// moon through the cloud towards the light (self-shadowing) plus the sky's
// ambient light, and fades into the horizon haze with distance. Drawn by the
// sky pass over the sun, moon and stars, so clouds hide them; terrain is
// drawn over the clouds.

const CLOUD_BOTTOM: f32 = 150.0;
const CLOUD_TOP: f32 = 172.0;
// Noise cells per block of the largest cloud features.
const CLOUD_SCALE: f32 = 0.011;
const CLOUD_STEPS: i32 = 6;
// The deepest stretch of slab one view ray marches through, in blocks.
const CLOUD_MARCH: f32 = 240.0;

fn cloud_hash(p: vec2<f32>) -> f32 {
    var q = fract(p * vec2(0.1031, 0.1030));
    q += dot(q, q.yx + 33.33);
    return fract((q.x + q.y) * q.x);
}

fn cloud_noise(p: vec2<f32>) -> f32 {
    let i = floor(p);
    let f = fract(p);
    let u = f * f * (3.0 - 2.0 * f);
    let a = cloud_hash(i);
    let b = cloud_hash(i + vec2(1.0, 0.0));
    let c = cloud_hash(i + vec2(0.0, 1.0));
    let d = cloud_hash(i + vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// Four octaves, each turned a little so no grid shows.
fn cloud_fbm(p: vec2<f32>) -> f32 {
    let turn = mat2x2<f32>(0.8, 0.6, -0.6, 0.8);
    var q = p;
    var sum = 0.0;
    var amplitude = 0.5;
    for (var i = 0; i < 4; i++) {
        sum += cloud_noise(q) * amplitude;
        q = turn * q * 2.03 + vec2(17.1, 9.2);
        amplitude *= 0.5;
    }
    return sum / 0.9375;
}

// Cloud density at `p`: where the drifting field exceeds what the coverage
// leaves clear, thickest at mid-height.
fn cloud_density(p: vec3<f32>) -> f32 {
    let h = clamp((p.y - CLOUD_BOTTOM) / (CLOUD_TOP - CLOUD_BOTTOM), 0.0, 1.0);
    let profile = 4.0 * h * (1.0 - h);
    let field = cloud_fbm((p.xz + frame.clouds.yz) * CLOUD_SCALE);
    let excess = field - (1.0 - frame.clouds.x);
    return clamp(excess * 5.0 - (1.0 - profile) * 0.8, 0.0, 1.0);
}

// The clouds along unit direction `dir` from the camera: rgb light they
// send back, a their opacity.
fn clouds_along(dir: vec3<f32>) -> vec4<f32> {
    let eye = frame.camera.xyz;
    if frame.clouds.x <= 0.0 || abs(dir.y) < 1e-3 {
        return vec4(0.0);
    }
    let ta = (CLOUD_BOTTOM - eye.y) / dir.y;
    let tb = (CLOUD_TOP - eye.y) / dir.y;
    let t0 = max(min(ta, tb), 0.0);
    let t1 = min(max(ta, tb), t0 + CLOUD_MARCH);
    if t1 <= t0 {
        return vec4(0.0);
    }
    let step = (t1 - t0) / f32(CLOUD_STEPS);
    let sun = frame.light_dir.xyz;
    let ambient = frame.ambient.rgb * 0.85 + frame.zenith.rgb * 0.25;
    // Clouds high up still see a sun on the horizon, and glow brightest
    // looking towards it (light scattered forwards through them).
    let sun_up = smoothstep(-0.12, 0.04, sun.y);
    let forward = 0.7 + 1.6 * pow(max(dot(dir, sun), 0.0), 6.0);
    let glow = frame.glow.rgb * pow(max(dot(dir, frame.sun_dir.xyz), 0.0), 3.0);
    var transmittance = 1.0;
    var light = vec3(0.0);
    for (var i = 0; i < CLOUD_STEPS; i++) {
        let p = eye + dir * (t0 + (f32(i) + 0.5) * step);
        let density = cloud_density(p);
        if density <= 0.0 {
            continue;
        }
        // How much cloud lies between this point and the light.
        let shadow = cloud_density(p + sun * 10.0) + cloud_density(p + sun * 24.0);
        let lit = exp(-shadow * 1.6) * sun_up * forward;
        let color = ambient + frame.light_color.rgb * lit * 1.5 + glow
            + vec3(frame.weather.z * 1.5);
        let alpha = 1.0 - exp(-density * step * 0.1);
        light += transmittance * alpha * color;
        transmittance *= 1.0 - alpha;
    }
    // Far clouds thin into the horizon haze.
    let haze = exp(-t0 / 2200.0);
    let opacity = (1.0 - transmittance) * haze;
    let color = mix(frame.horizon.rgb, light / max(1.0 - transmittance, 1e-4), haze);
    return vec4(color, opacity);
}
