// Other players as blocky figures: a body box and a head box per figure
// (one instance each), turned to the figure's heading, lit by the frame's
// light and fogged like the blocks around them.

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec3<f32>,
    @location(1) world: vec3<f32>,
};

// Body and head: centre height above the feet, half extents.
const BODY_CENTRE: f32 = 0.7;
const BODY_HALF: vec3<f32> = vec3(0.3, 0.7, 0.18);
const HEAD_CENTRE: f32 = 1.6;
const HEAD_HALF: vec3<f32> = vec3(0.22, 0.22, 0.22);

@vertex
fn vs_main(@builtin(vertex_index) i: u32, @builtin(instance_index) n: u32) -> Out {
    let figure = frame.avatars[n];
    let part = i / 36u;
    let face = (i % 36u) / 6u;
    let corner = array<u32, 6>(0u, 1u, 2u, 0u, 2u, 3u)[i % 6u];
    // The face's corner in its own square, -1..1.
    let uv = vec2(select(-1.0, 1.0, corner == 1u || corner == 2u), select(-1.0, 1.0, corner >= 2u));
    // Face 0..5: +x, -x, +y, -y, +z, -z.
    let axis = face / 2u;
    let sign = select(1.0, -1.0, face % 2u == 1u);
    var local = vec3(sign, uv.x, uv.y);
    var normal = vec3(sign, 0.0, 0.0);
    if axis == 1u {
        local = vec3(uv.x, sign, uv.y);
        normal = vec3(0.0, sign, 0.0);
    } else if axis == 2u {
        local = vec3(uv.x, uv.y, sign);
        normal = vec3(0.0, 0.0, sign);
    }
    var half = BODY_HALF;
    var centre = BODY_CENTRE;
    var color = vec3(0.16, 0.28, 0.62);
    if part == 1u {
        half = HEAD_HALF;
        centre = HEAD_CENTRE;
        color = vec3(0.85, 0.64, 0.48);
        // The face looks where the figure looks (-z when the heading is 0).
        if face == 5u {
            color = vec3(0.55, 0.38, 0.28);
        }
    }
    let c = cos(figure.w);
    let s = sin(figure.w);
    let turn = mat3x3(vec3(c, 0.0, -s), vec3(0.0, 1.0, 0.0), vec3(s, 0.0, c));
    let world = figure.xyz + vec3(0.0, centre, 0.0) + turn * (local * half);
    let n_world = turn * normal;
    let lit = frame.ambient.rgb + frame.light_color.rgb * max(dot(n_world, frame.light_dir.xyz), 0.0);
    var out: Out;
    out.clip = frame.view_proj * vec4(world, 1.0);
    out.color = color * lit;
    out.world = world;
    return out;
}

@fragment
fn fs_main(in: Out) -> @location(0) vec4<f32> {
    let distance = length(in.world - frame.camera.xyz);
    let fog = smoothstep(frame.fog.x, frame.fog.y, distance);
    let sky = mix(frame.horizon.rgb, frame.zenith.rgb, 0.25);
    return vec4(mix(in.color, sky, fog), 1.0);
}
