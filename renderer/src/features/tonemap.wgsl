// Exposure, then ACES (Narkowicz's fit) or a plain clamp, into the output.
// When the output format is not sRGB, the shader encodes sRGB itself.
// Into a floating-point (HDR) output it writes linear values, unclamped:
// the radiance itself, or ACES divided by its value at 1.0 so that paper
// white stays 1.0 (see tonemap.rs).

struct Params { exposure: f32, aces: f32, encode_srgb: f32, extended: f32 };

@group(0) @binding(0) var hdr: texture_2d<f32>;
@group(0) @binding(1) var<uniform> params: Params;

// ACES(1.0) of the fit below: 2.54 / 3.16.
const ACES_AT_PAPER_WHITE: f32 = 0.8037975;

fn aces_curve(x: vec3<f32>) -> vec3<f32> {
    return (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14);
}

fn aces(x: vec3<f32>) -> vec3<f32> {
    return clamp(aces_curve(x), vec3(0.0), vec3(1.0));
}

fn srgb_encode(c: vec3<f32>) -> vec3<f32> {
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3(0.0031308));
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let radiance = textureLoad(hdr, vec2<i32>(position.xy), 0).rgb * params.exposure;
    if params.extended > 0.5 {
        let positive = max(radiance, vec3(0.0));
        let curved = max(aces_curve(positive), vec3(0.0)) / ACES_AT_PAPER_WHITE;
        return vec4(select(positive, curved, params.aces > 0.5), 1.0);
    }
    var color = select(clamp(radiance, vec3(0.0), vec3(1.0)), aces(radiance), params.aces > 0.5);
    if params.encode_srgb > 0.5 {
        color = srgb_encode(color);
    }
    return vec4(color, 1.0);
}
