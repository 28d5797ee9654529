// Ground-truth ambient occlusion (GTAO, Jimenez et al. 2016). Each pixel
// cuts the view-space hemisphere into a few slices, planes through the eye
// ray at evenly turned screen directions. In each slice it walks the depth
// buffer both ways from the pixel, keeping the highest horizon it meets
// within the radius (`params.x` metres, fading out over its outer 40%);
// the cosine-weighted arc of sky left between the two horizons, around the
// normal projected into the slice, is integrated in closed form. The
// visible fraction is the slices' sum over what they would see without
// occluders: averaged over every slice direction that denominator is 1,
// but two slices per pixel, evenly turned on screen rather than about the
// eye ray, only approach it; as a ratio an open plane is exactly open.
//
// It reads `params.w` depth texels per pixel, as SSAO does: SLICES slices,
// each walked `params.w / (2 SLICES)` steps each way. The slices' turn and
// the steps' offset vary on a 4 x 4 pattern, which the blur pass that
// follows averages away. Bindings and helpers: ao_sample.wgsl.

const SLICES: u32 = 2u;
// The outer part of the radius over which occluders fade out.
const FADE: f32 = 0.4;
const PI: f32 = 3.14159265;
const HALF_PI: f32 = 1.57079633;

// What one slice's walk needs: the pixel's view-space position `p`, its
// normal `n`, the unit vector `v` towards the eye, the radius, its fading
// outer part and the height above the tangent plane below which a texel
// does not occlude.
struct Walk {
    p: vec3<f32>,
    n: vec3<f32>,
    v: vec3<f32>,
    radius: f32,
    fade: f32,
    bias: f32,
};

// The cosine (against `v`) of the horizon the depth texel under
// framebuffer position `at` raises, or `lowest` where it raises none: off
// the screen, the sky, beyond the radius or on the tangent plane (faded in
// between). The texel lies off the slice by up to half a texel; without
// the tangent-plane test flat ground would occlude itself a little.
fn horizon_cos(walk: Walk, at: vec2<f32>, lowest: f32) -> f32 {
    let size = vec2<i32>(textureDimensions(depth_buffer));
    let texel = vec2<i32>(floor(at));
    if any(texel < vec2(0)) || any(texel >= size) {
        return lowest;
    }
    let depth = depth_at(texel);
    if depth <= 0.0 { // reversed Z: the sky occludes nothing
        return lowest;
    }
    let delta = view_position(vec2<f32>(texel) + 0.5, depth) - walk.p;
    let dist = length(delta);
    let near = clamp((walk.radius - dist) / walk.fade, 0.0, 1.0);
    let above = clamp(dot(delta, walk.n) / walk.bias, 0.0, 1.0);
    let weight = near * above;
    return mix(lowest, dot(delta, walk.v) / max(dist, 1e-6), weight);
}

// The cosine-weighted visible arc between the horizon angle `h` and the
// projected normal's angle `n` (both from `v`), for one side of a slice.
fn visible_arc(h: f32, n: f32) -> f32 {
    return 0.25 * (cos(n) + 2.0 * h * sin(n) - cos(2.0 * h - n));
}

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(at.xy);
    let depth = depth_at(pixel);
    if depth <= 0.0 { // reversed Z: nothing drawn
        return vec4(1.0);
    }
    let p = view_position(at.xy, depth);
    let n = view_normal(pixel);
    let radius = ao.params.x;
    let walk = Walk(p, n, normalize(-p), radius, FADE * radius, max(ao.params.z, 1e-5));
    // The radius on screen, in pixels (w is the distance for a perspective
    // camera, 1 for an orthographic one).
    let height = f32(textureDimensions(depth_buffer).y);
    let w = (ao.projection * vec4(p, 1.0)).w;
    let screen_radius = radius * ao.projection[1][1] * 0.5 * height / w;
    if screen_radius < 1.0 {
        return vec4(1.0);
    }
    let steps = max(u32(ao.params.w) / (2u * SLICES), 1u);
    let cell = vec2<u32>(pixel) % vec2(4u);
    let index = cell.y * 4u + cell.x;
    let turn = (f32(index) + 0.5) / 16.0;
    let offset = (f32((index * 7u + 3u) % 16u) + 0.5) / 16.0;
    var visible = 0.0;
    var unoccluded = 0.0;
    for (var slice = 0u; slice < SLICES; slice++) {
        let phi = (f32(slice) + turn) * PI / f32(SLICES);
        // The slice's direction in view space; on screen y points down.
        let direction = vec3(cos(phi), sin(phi), 0.0);
        let on_screen = vec2(direction.x, -direction.y);
        let across = direction - dot(direction, walk.v) * walk.v;
        let axis = normalize(cross(across, walk.v));
        let projected = n - axis * dot(n, axis);
        let projected_length = length(projected);
        let cos_n = clamp(dot(projected, walk.v) / max(projected_length, 1e-6), 0.0, 1.0);
        let angle_n = select(-1.0, 1.0, dot(across, projected) >= 0.0) * acos(cos_n);
        // Horizons start at the tangent plane: below it nothing is seen.
        let lowest_ahead = cos(angle_n + HALF_PI);
        let lowest_behind = cos(angle_n - HALF_PI);
        var ahead = lowest_ahead;
        var behind = lowest_behind;
        for (var i = 0u; i < steps; i++) {
            // Denser near the pixel, at least one texel further each step.
            let t = (f32(i) + offset) / f32(steps);
            let reach = on_screen * max(t * t * screen_radius, f32(i) + 1.0);
            ahead = max(ahead, horizon_cos(walk, at.xy + reach, lowest_ahead));
            behind = max(behind, horizon_cos(walk, at.xy - reach, lowest_behind));
        }
        let h_ahead = acos(clamp(ahead, -1.0, 1.0));
        let h_behind = -acos(clamp(behind, -1.0, 1.0));
        visible += projected_length * (visible_arc(h_ahead, angle_n) + visible_arc(h_behind, angle_n));
        // The same slice with nothing above the tangent plane.
        unoccluded += projected_length * (cos_n + angle_n * sin(angle_n));
    }
    let open = clamp(visible / max(unoccluded, 1e-6), 0.0, 1.0);
    return vec4(clamp(1.0 - ao.params.y * (1.0 - open), 0.0, 1.0));
}
