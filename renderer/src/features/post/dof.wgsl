// Depth of field in two passes: the circle of confusion per pixel from the
// scene depth, then a gather over a disk (the shape of a round aperture)
// in which every sample scatters its light over its own circle.
//
// Signed CoC radii in pixels: negative in front of the focus plane (the
// near field), positive behind it (the far field). A sample lights the
// pixel when its circle reaches it, with its light spread over that
// circle's area. A sample behind the pixel's own surface reaches it only as
// far as the pixel's own circle: the far field does not bleed over a
// sharper surface in front of it, while the near field spreads over
// whatever lies behind it (after Gustafsson's single-pass bokeh, 2018).

struct DofParams {
    inverse_projection: mat4x4<f32>,
    // CoC radius in pixels at infinite distance (signed CoC = this x
    // (1 - focus / distance)), focus distance, largest radius, and the
    // frame number that turns the sample spiral (0 without TAA).
    coc: vec4<f32>,
};

@group(0) @binding(0) var<uniform> dof: DofParams;
@group(0) @binding(1) var depth_buffer: texture_2d<f32>;
@group(0) @binding(2) var scene: texture_2d<f32>;
@group(0) @binding(3) var coc_buffer: texture_2d<f32>;
@group(0) @binding(4) var smooth_sampler: sampler;
// Nearest, for the depth (see `DEPTH_AS_FLOAT` in gpu_util.rs).
@group(0) @binding(5) var depth_sampler: sampler;

const SAMPLES: u32 = 48u;
const GOLDEN_ANGLE: f32 = 2.39996323;
const PI: f32 = 3.14159265;
const TAU: f32 = 6.28318531;

fn view_distance(depth: f32) -> f32 {
    let p = dof.inverse_projection * vec4(0.0, 0.0, depth, 1.0);
    return -p.z / p.w;
}

@fragment
fn fs_coc(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let depth_uv = (floor(at.xy) + 0.5) / vec2<f32>(textureDimensions(depth_buffer));
    let depth = textureSampleLevel(depth_buffer, depth_sampler, depth_uv, 0.0).r;
    let max_radius = dof.coc.z;
    // Reversed Z: 0 is nothing drawn, as far as it gets.
    var coc = dof.coc.x;
    if depth > 0.0 {
        coc = dof.coc.x * (1.0 - dof.coc.y / max(view_distance(depth), 1e-4));
    }
    return vec4(clamp(coc, -max_radius, max_radius), 0.0, 0.0, 1.0);
}

// How much of a pixel at `distance` a circle of radius `radius` covers
// (a one-pixel soft edge).
fn coverage(radius: f32, distance: f32) -> f32 {
    return clamp(radius - distance + 0.5, 0.0, 1.0);
}

// Interleaved gradient noise: in [0, 1), evenly spread over small pixel
// neighbourhoods (Jimenez, "Next generation post processing in Call of Duty").
fn pixel_noise(at: vec2<f32>) -> f32 {
    return fract(52.9829189 * fract(dot(at, vec2(0.06711056, 0.00583715))));
}

@fragment
fn fs_gather(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let size = vec2<i32>(textureDimensions(scene));
    let pixel = vec2<i32>(at.xy);
    let centre = textureLoad(scene, pixel, 0);
    let centre_coc = textureLoad(coc_buffer, pixel, 0).r;
    let max_radius = dof.coc.z;
    // Each disk sample stands for this many pixels.
    let sample_area = PI * max_radius * max_radius / f32(SAMPLES);
    let own = max(abs(centre_coc), 0.5);
    var weight = 1.0 / (PI * own * own);
    var sum = centre.rgb * weight;
    // The spiral turns by a different angle at each pixel (and each frame
    // under TAA): one fixed spiral would print its sample pattern along
    // long out-of-focus edges as bands; a turning one leaves fine noise,
    // which neighbouring pixels and TAA's history average away.
    let turn = TAU * pixel_noise(at.xy + dof.coc.w * vec2(5.588238, 5.588238));
    for (var i = 0u; i < SAMPLES; i++) {
        let r = max_radius * sqrt((f32(i) + 0.5) / f32(SAMPLES));
        let angle = f32(i) * GOLDEN_ANGLE + turn;
        let offset = vec2(cos(angle), sin(angle)) * r;
        // Filtered reads between texels: a smooth blur from few samples.
        let uv = (at.xy + offset) / vec2<f32>(size);
        let sample_coc = textureSampleLevel(coc_buffer, smooth_sampler, uv, 0.0).r;
        var radius = abs(sample_coc);
        if sample_coc > centre_coc {
            // Behind this pixel's surface: no wider than this pixel's circle.
            radius = min(radius, abs(centre_coc));
        }
        radius = max(radius, 0.5);
        let w = coverage(radius, r) * sample_area / (PI * radius * radius);
        sum += textureSampleLevel(scene, smooth_sampler, uv, 0.0).rgb * w;
        weight += w;
    }
    // Alpha: the share of the light that came from other pixels' circles,
    // for the smoothing pass.
    let own_share = 1.0 / (PI * own * own) / weight;
    return vec4(sum / weight, 1.0 - own_share);
}

// The gather's noise (its spiral turns per pixel) smoothed away: a 3 x 3
// average of the blurred neighbours, as strong as the pixel is blurred or
// lit by other pixels' circles (a sharp surface under a blurred one in
// front). Interleaved gradient noise spreads its turns evenly over any
// 3 x 3 block, so the average is close to a gather with nine times the
// samples. Pixels that are sharp and lit only by themselves keep their
// value, and such neighbours do not smear into a blurred pixel. Writes
// alpha 1.
fn smoothing(pixel: vec2<i32>) -> f32 {
    let blur = saturate(abs(textureLoad(coc_buffer, pixel, 0).r) - 1.0);
    let foreign = saturate(4.0 * textureLoad(scene, pixel, 0).a);
    return max(blur, foreign);
}

@fragment
fn fs_smooth(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let size = vec2<i32>(textureDimensions(scene));
    let pixel = vec2<i32>(at.xy);
    let centre = textureLoad(scene, pixel, 0).rgb;
    let amount = smoothing(pixel);
    if amount <= 0.0 {
        return vec4(centre, 1.0);
    }
    var sum = centre;
    var weight = 1.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let neighbour = clamp(pixel + vec2(x, y), vec2(0), size - 1);
            if all(neighbour == pixel) {
                continue;
            }
            let w = smoothing(neighbour);
            sum += textureLoad(scene, neighbour, 0).rgb * w;
            weight += w;
        }
    }
    return vec4(mix(centre, sum / weight, amount), 1.0);
}
