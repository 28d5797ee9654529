// Light volumes: one instance per point or spot light (its packed fields as
// instance attributes, so no storage buffer is needed), 36 vertices of a
// box around its range. Only the box's inner faces are drawn: every pixel
// whose view ray crosses the box is shaded exactly once, wherever the
// camera is. Depths beyond the far plane are pulled onto it so a box that
// reaches past it still covers its pixels.

struct VolumeOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) position_range: vec4<f32>,
    @location(1) @interpolate(flat) color_intensity: vec4<f32>,
    @location(2) @interpolate(flat) direction_inner: vec4<f32>,
    @location(3) @interpolate(flat) outer_kind: vec4<f32>,
};

// Corner `vertex` (0..36) of the unit box [-1, 1]^3, outward faces
// counter-clockwise.
fn box_corner(vertex: u32) -> vec3<f32> {
    let face = vertex / 6u;
    let axis = face / 2u;
    let side = select(-1.0, 1.0, face % 2u == 1u);
    var axes = array(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    var u = axes[(axis + 1u) % 3u];
    var v = axes[(axis + 2u) % 3u];
    if side < 0.0 {
        let t = u;
        u = v;
        v = t;
    }
    var quad = array(0u, 1u, 2u, 0u, 2u, 3u);
    let q = quad[vertex % 6u];
    let su = select(-1.0, 1.0, q == 1u || q == 2u);
    let sv = select(-1.0, 1.0, q >= 2u);
    return axes[axis] * side + u * su + v * sv;
}

@vertex
fn vs_volume(
    @builtin(vertex_index) vertex: u32,
    @location(0) position_range: vec4<f32>,
    @location(1) color_intensity: vec4<f32>,
    @location(2) direction_inner: vec4<f32>,
    @location(3) outer_kind: vec4<f32>,
) -> VolumeOut {
    let world = position_range.xyz + box_corner(vertex) * position_range.w;
    var out: VolumeOut;
    out.clip = frame.view_proj * vec4(world, 1.0);
    if out.clip.w > 0.0 {
        out.clip.z = min(out.clip.z, out.clip.w);
    }
    out.position_range = position_range;
    out.color_intensity = color_intensity;
    out.direction_inner = direction_inner;
    out.outer_kind = outer_kind;
    return out;
}

@fragment
fn fs_volume(in: VolumeOut) -> @location(0) vec4<f32> {
    let p = gbuffer_pixel(in.clip.xy);
    // The sky and unlit surfaces take no light.
    if !p.found || p.g.unlit {
        discard;
    }
    var light: Light;
    light.position_range = in.position_range;
    light.color_intensity = in.color_intensity;
    light.direction_inner = in.direction_inner;
    light.outer_kind = in.outer_kind;
    return vec4(light_contribution(light, p.s), 0.0);
}
