// The sky pass: gradient, stars, sun disc, the moon lit by its phase, and
// the clouds in front of them (clouds.wgsl).

struct SkyOut { @builtin(position) clip: vec4<f32>, @location(0) ndc: vec2<f32> };

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> SkyOut {
    let uv = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    var out: SkyOut;
    out.ndc = uv * 2.0 - 1.0;
    out.clip = vec4(out.ndc, 0.0, 1.0);
    return out;
}

fn hash3(p: vec3<f32>) -> f32 {
    let q = fract(p * vec3(0.1031, 0.1030, 0.0973));
    let r = q + dot(q, q.yxz + 33.33);
    return fract((r.x + r.y) * r.z);
}

const SUN_RADIUS: f32 = 0.06;
const MOON_RADIUS: f32 = 0.055;
const TAU: f32 = 6.2831853;

@fragment
fn fs_main(in: SkyOut) -> @location(0) vec4<f32> {
    // Reversed Z: depth 1 is the near plane, 0 the far one.
    let near = frame.inverse_view_proj * vec4(in.ndc, 1.0, 1.0);
    let far = frame.inverse_view_proj * vec4(in.ndc, 0.0, 1.0);
    let dir = normalize(far.xyz / far.w - near.xyz / near.w);
    if frame.water.x > 0.5 {
        return vec4(underwater_color(), 1.0);
    }
    var color = sky_color(dir);
    let above = smoothstep(-0.02, 0.03, dir.y);

    // Stars, fading in as the day goes.
    let night = pow(1.0 - frame.fog.z, 4.0) * smoothstep(0.0, 0.15, dir.y);
    let star = hash3(floor(dir * 110.0));
    color += vec3(0.5, 0.55, 0.65) * night * above * smoothstep(0.9965, 1.0, star) * 4.0;

    // The sun disc and a faint halo.
    let sun_cos = dot(dir, frame.sun_dir.xyz);
    let sun = smoothstep(cos(SUN_RADIUS * 1.15), cos(SUN_RADIUS * 0.95), sun_cos);
    color += frame.sun_disc.rgb * (sun + 0.01 * pow(max(sun_cos, 0.0), 300.0)) * above;

    // The moon, opposite the sun: a sphere lit from the side its phase says
    // (0 new: lit from behind; 0.5 full: lit from the front).
    let moon_dir = -frame.sun_dir.xyz;
    let across = vec3(0.0, 0.0, 1.0);
    let along = normalize(cross(moon_dir, across));
    let p = vec2(dot(dir, along), dot(dir, across)) / sin(MOON_RADIUS);
    let r2 = dot(p, p);
    if dot(dir, moon_dir) > 0.0 && r2 < 1.0 {
        let n = vec3(p, sqrt(1.0 - r2));
        let phase = frame.moon_disc.w * TAU;
        let light = vec3(sin(phase), 0.0, -cos(phase));
        let lit = smoothstep(-0.08, 0.08, dot(n, light));
        let maria = 1.0 - 0.3 * (1.0 - smoothstep(0.15, 0.3, length(p - vec2(-0.3, 0.25))))
            - 0.25 * (1.0 - smoothstep(0.1, 0.22, length(p - vec2(0.25, -0.3))));
        let moon = frame.moon_disc.rgb * (lit * maria + 0.03);
        let edge = 1.0 - smoothstep(0.8, 1.0, r2);
        color = mix(color, moon, edge * above * min(length(frame.moon_disc.rgb) * 4.0, 1.0));
    }
    // Clouds over everything else in the sky.
    let clouds = clouds_along(dir);
    color = mix(color, clouds.rgb, clouds.a);
    return vec4(color, 1.0);
}
