// The temporal resolve: this frame's jittered samples blended into the
// history, reprojected by camera and object motion, with the history
// clipped to this frame's neighbourhood so stale colour cannot linger.
// The neighbourhood and the clip work on colours compressed by
// c / (1 + luma), so a few very bright samples do not widen the box. The history's alpha packs two counts
// (`frames + 32 * still`): the frames it holds, so a pixel averages its
// first frames evenly (16 jittered frames make a 16-sample average) and
// then keeps a floor weight for new ones, clipping lowering the count; and
// the frames since anything moved there, up to 8.

struct TaaParams {
    // This frame as rasterised (jittered, reversed Z), clip to world.
    inverse_view_proj: mat4x4<f32>,
    // World to clip, this frame and the last, without jitter.
    view_proj: mat4x4<f32>,
    previous_view_proj: mat4x4<f32>,
    // xy: 1 / size, zw: size in pixels.
    texel: vec4<f32>,
    // x: smallest weight of a new frame, y: 1 to ignore the history,
    // z: 1 when motion vectors were drawn, w: how far (in compressed
    // colour) a still pixel's history may lie outside its neighbourhood.
    settings: vec4<f32>,
};

@group(0) @binding(0) var<uniform> taa: TaaParams;
@group(0) @binding(1) var scene: texture_2d<f32>;
@group(0) @binding(2) var depth: texture_2d<f32>;
@group(0) @binding(3) var motion: texture_2d<f32>;
@group(0) @binding(4) var history: texture_2d<f32>;
@group(0) @binding(5) var history_sampler: sampler;
// Nearest, for the depth (see `DEPTH_AS_FLOAT` in gpu_util.rs).
@group(0) @binding(6) var depth_sampler: sampler;

fn luma(c: vec3<f32>) -> f32 {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

fn compress(c: vec3<f32>) -> vec3<f32> {
    return c / (1.0 + luma(c));
}

fn expand(c: vec3<f32>) -> vec3<f32> {
    return c / max(1.0 - luma(c), 1e-4);
}

fn to_ycocg(c: vec3<f32>) -> vec3<f32> {
    return vec3(
        0.25 * c.r + 0.5 * c.g + 0.25 * c.b,
        0.5 * c.r - 0.5 * c.b,
        -0.25 * c.r + 0.5 * c.g - 0.25 * c.b,
    );
}

fn from_ycocg(c: vec3<f32>) -> vec3<f32> {
    return vec3(c.x + c.y - c.z, c.x + c.z, c.x - c.y - c.z);
}

const STILL_MAX: f32 = 8.0;
// Frames without motion before a pixel's history is trusted past its
// neighbourhood (the still margin): long enough for a ghost to be clipped.
const STILL_TRUSTED: f32 = 2.0;

fn pack_counts(frames: f32, still: f32) -> f32 {
    return frames + 32.0 * still;
}

// A fresh history holds no ghost: trusted from the start.
fn fresh(current: vec3<f32>) -> vec4<f32> {
    return vec4(expand(current), pack_counts(1.0, STILL_MAX));
}

fn clip_to_uv(clip: vec4<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
}

fn history_at(uv: vec2<f32>) -> vec3<f32> {
    return textureSampleLevel(history, history_sampler, uv, 0.0).rgb;
}

// The history at `uv` through a Catmull-Rom filter (sharper than bilinear,
// so moving surfaces do not soften frame after frame), from five bilinear
// taps; the four corner taps of the full 4x4 kernel weigh little and are
// left out.
fn history_catmull_rom(uv: vec2<f32>) -> vec3<f32> {
    let position = uv * taa.texel.zw;
    let centre = floor(position - 0.5) + 0.5;
    let f = position - centre;
    let f2 = f * f;
    let f3 = f2 * f;
    let w0 = -0.5 * f3 + f2 - 0.5 * f;
    let w1 = 1.5 * f3 - 2.5 * f2 + 1.0;
    let w2 = -1.5 * f3 + 2.0 * f2 + 0.5 * f;
    let w3 = 0.5 * f3 - 0.5 * f2;
    let w12 = w1 + w2;
    let texel = taa.texel.xy;
    let t0 = (centre - 1.0) * texel;
    let t12 = (centre + w2 / w12) * texel;
    let t3 = (centre + 2.0) * texel;
    let weights = vec4(w12.x * w0.y, w0.x * w12.y, w12.x * w12.y, w3.x * w12.y);
    let last = w12.x * w3.y;
    var sum = history_at(vec2(t12.x, t0.y)) * weights.x;
    sum += history_at(vec2(t0.x, t12.y)) * weights.y;
    sum += history_at(t12) * weights.z;
    sum += history_at(vec2(t3.x, t12.y)) * weights.w;
    sum += history_at(vec2(t12.x, t3.y)) * last;
    let total = weights.x + weights.y + weights.z + weights.w + last;
    return max(sum / total, vec3(0.0));
}

// Moves `value` toward the box's centre until it lies inside the box.
fn clip_to_box(value: vec3<f32>, low: vec3<f32>, high: vec3<f32>) -> vec3<f32> {
    let centre = 0.5 * (low + high);
    let extent = max(0.5 * (high - low), vec3(1e-5));
    let offset = value - centre;
    let scale = abs(offset / extent);
    let largest = max(scale.x, max(scale.y, scale.z));
    if largest > 1.0 {
        return centre + offset / largest;
    }
    return value;
}

@fragment
fn fs_main(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let size = vec2<i32>(taa.texel.zw);
    let pixel = vec2<i32>(in.position.xy);
    let current = compress(max(textureLoad(scene, pixel, 0).rgb, vec3(0.0)));

    // The 3x3 neighbourhood: colour moments for the clip box, and the
    // nearest surface (reversed Z: the largest depth), whose motion this
    // pixel takes so edges of moving things carry their motion.
    var moment1 = vec3(0.0);
    var moment2 = vec3(0.0);
    var low = vec3(1e9);
    var high = vec3(-1e9);
    var nearest_depth = 0.0;
    var nearest_pixel = pixel;
    for (var dy = -1; dy <= 1; dy += 1) {
        for (var dx = -1; dx <= 1; dx += 1) {
            let at = clamp(pixel + vec2(dx, dy), vec2(0), size - 1);
            let c = to_ycocg(compress(max(textureLoad(scene, at, 0).rgb, vec3(0.0))));
            moment1 += c;
            moment2 += c * c;
            low = min(low, c);
            high = max(high, c);
            let depth_uv = (vec2<f32>(at) + 0.5) / vec2<f32>(textureDimensions(depth));
            let d = textureSampleLevel(depth, depth_sampler, depth_uv, 0.0).r;
            if d > nearest_depth {
                nearest_depth = d;
                nearest_pixel = at;
            }
        }
    }
    if taa.settings.y > 0.5 {
        return fresh(current);
    }

    let uv = (vec2<f32>(pixel) + 0.5) * taa.texel.xy;
    var velocity: vec2<f32>;
    var moved = vec4(0.0);
    var here = vec4(0.0);
    if taa.settings.z > 0.5 {
        moved = textureLoad(motion, nearest_pixel, 0);
        here = textureLoad(motion, pixel, 0);
    }
    // Background a moving item covered last frame and no longer does.
    let uncovered = here.b > 0.5 && here.a < 0.5;
    if moved.a > 0.5 {
        velocity = moved.xy;
    } else {
        let ndc = vec2(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0);
        let world = taa.inverse_view_proj * vec4(ndc, nearest_depth, 1.0);
        let position = vec4(world.xyz / world.w, 1.0);
        velocity = clip_to_uv(taa.view_proj * position)
            - clip_to_uv(taa.previous_view_proj * position);
    }
    let previous_uv = uv - velocity;
    if any(previous_uv < vec2(0.0)) || any(previous_uv > vec2(1.0))
        || any(velocity != velocity) {
        // Off screen last frame: nothing to reproject from.
        return fresh(current);
    }
    if uncovered {
        // Background a moving item uncovered: its history shows the item.
        return vec4(expand(current), pack_counts(1.0, 0.0));
    }
    let counts = textureLoad(history, vec2<i32>(previous_uv * taa.texel.zw), 0).a;
    let held_still = floor(counts / 32.0);
    let held = counts - 32.0 * held_still;

    // Where things move (the camera, an item, or the background an item
    // uncovered) the history is clipped tightly: variance clipping (mean
    // +- 1.25 standard deviations) inside the neighbourhood's min-max box.
    // Where nothing moves, the box is widened by a margin: a thin line
    // that this frame's jitter missed keeps its history instead of
    // flickering, and changes of light still get through within it.
    let mean = moment1 / 9.0;
    let deviation = sqrt(max(moment2 / 9.0 - mean * mean, vec3(0.0)));
    let speed = length(velocity * taa.texel.zw);
    let strict = clamp(max(max(moved.a, here.b), speed * 2.0), 0.0, 1.0);
    let trusted = select(0.0, 1.0, held_still >= STILL_TRUSTED);
    let margin = vec3(taa.settings.w * (1.0 - strict) * trusted);
    let still = select(0.0, min(held_still + 1.0, STILL_MAX), strict < 0.01);
    let box_low = mix(low - margin, max(low, mean - 1.25 * deviation), strict);
    let box_high = mix(high + margin, min(high, mean + 1.25 * deviation), strict);
    let previous = to_ycocg(compress(history_catmull_rom(previous_uv)));
    let clipped = clip_to_box(previous, box_low, box_high);

    // Frames in the history: one more than last time, up to 1 / floor
    // weight, fewer the farther the clip had to move it.
    let most = 1.0 / taa.settings.x;
    let rejected = clamp(length(previous - clipped) * 4.0, 0.0, 1.0);
    let frames = clamp(mix(held + 1.0, 1.0, rejected), 1.0, most);
    // The average itself is taken in linear light, so a thin bright line
    // converges to its true coverage rather than a darker one.
    let blended = mix(expand(from_ycocg(clipped)), expand(current), 1.0 / frames);
    return vec4(blended, pack_counts(frames, still));
}
