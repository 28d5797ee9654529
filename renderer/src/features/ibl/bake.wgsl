// Image-based lighting, baked from the sky by full-screen passes into
// cube-map faces (no compute, so WebGL2 bakes too):
//   fs_panorama   the environment cube from an equirectangular panorama;
//   fs_irradiance diffuse irradiance: the environment convolved with a
//                 cosine lobe, on a regular grid of directions;
//   fs_specular   one mip of the prefiltered specular cube: GGX importance
//                 samples around the texel's direction (view = normal), for
//                 the mip's roughness;
//   fs_brdf       the split-sum BRDF table: scale and bias of F0 by
//                 (n.v, roughness).

const PI: f32 = 3.14159265;
// Radiance above this is clipped when convolving: the sun's disk (already
// lit by the directional light) and HDR hot spots would otherwise turn into
// fireflies in the rough mips and double the sun.
const MAX_RADIANCE: f32 = 8.0;

fn environment_sample(direction: vec3<f32>, level: f32) -> vec3<f32> {
    return min(textureSampleLevel(source_cube, linear, direction, level).rgb, vec3(MAX_RADIANCE));
}

struct Bake {
    face: u32,
    samples: u32,
    roughness: f32,
    intensity: f32,
    size: f32,         // edge of the target in texels
    source_level: f32, // panorama mip to read (environment mips)
    _pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> bake: Bake;
@group(0) @binding(1) var source_2d: texture_2d<f32>;
@group(0) @binding(2) var source_cube: texture_cube<f32>;
@group(0) @binding(3) var linear: sampler;

// The direction through framebuffer position `at` of cube face `face`
// (order +X, -X, +Y, -Y, +Z, -Z; the usual cube-map orientation).
fn face_direction(face: u32, at: vec2<f32>, size: f32) -> vec3<f32> {
    let u = at.x / size * 2.0 - 1.0;
    let v = at.y / size * 2.0 - 1.0;
    var d: vec3<f32>;
    switch face {
        case 0u: { d = vec3(1.0, -v, -u); }
        case 1u: { d = vec3(-1.0, -v, u); }
        case 2u: { d = vec3(u, 1.0, v); }
        case 3u: { d = vec3(u, -1.0, -v); }
        case 4u: { d = vec3(u, -v, 1.0); }
        default: { d = vec3(-u, -v, -1.0); }
    }
    return normalize(d);
}

// WGSL's reverseBits, spelled out: WebGL2's GLSL ES 3.00 has no
// bitfieldReverse (it came in 3.10).
fn reverse_bits(value: u32) -> u32 {
    var v = value;
    v = ((v >> 1u) & 0x55555555u) | ((v & 0x55555555u) << 1u);
    v = ((v >> 2u) & 0x33333333u) | ((v & 0x33333333u) << 2u);
    v = ((v >> 4u) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4u);
    v = ((v >> 8u) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8u);
    return (v >> 16u) | (v << 16u);
}

// The i-th of n points of the Hammersley set.
fn hammersley(i: u32, n: u32) -> vec2<f32> {
    return vec2(f32(i) / f32(n), f32(reverse_bits(i)) * 2.3283064e-10);
}

// A GGX-distributed half vector around +z for roughness `a` (squared).
fn ggx_half_vector(xi: vec2<f32>, a: f32) -> vec3<f32> {
    let phi = 2.0 * PI * xi.x;
    let cos_theta = sqrt((1.0 - xi.y) / (1.0 + (a * a - 1.0) * xi.y));
    let sin_theta = sqrt(1.0 - cos_theta * cos_theta);
    return vec3(cos(phi) * sin_theta, sin(phi) * sin_theta, cos_theta);
}

fn tangent_frame(n: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    let up = select(vec3(1.0, 0.0, 0.0), vec3(0.0, 0.0, 1.0), abs(n.z) < 0.999);
    let t = normalize(cross(up, n));
    let b = cross(n, t);
    return t * v.x + b * v.y + n * v.z;
}

@fragment
fn fs_panorama(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let dir = face_direction(bake.face, at.xy, bake.size);
    let longitude = atan2(dir.x, -dir.z);
    let latitude = asin(clamp(dir.y, -1.0, 1.0));
    let uv = vec2(longitude / (2.0 * PI) + 0.5, 0.5 - latitude / PI);
    let color = textureSampleLevel(source_2d, linear, uv, bake.source_level).rgb;
    return vec4(color * bake.intensity, 1.0);
}

@fragment
fn fs_irradiance(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let n = face_direction(bake.face, at.xy, bake.size);
    // Midpoint rule over (azimuth, elevation) with a cos * sin weight.
    let steps = max(bake.samples, 4u);
    var sum = vec3(0.0);
    var weight = 0.0;
    for (var i = 0u; i < steps * 2u; i++) {
        let phi = (f32(i) + 0.5) / f32(steps * 2u) * 2.0 * PI;
        for (var j = 0u; j < steps; j++) {
            let theta = (f32(j) + 0.5) / f32(steps) * 0.5 * PI;
            let local = vec3(cos(phi) * sin(theta), sin(phi) * sin(theta), cos(theta));
            let w = cos(theta) * sin(theta);
            sum += environment_sample(tangent_frame(n, local), 0.0) * w;
            weight += w;
        }
    }
    // Irradiance over pi: the radiance a white Lambertian surface reflects.
    return vec4(sum / weight, 1.0);
}

@fragment
fn fs_specular(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let size = f32(textureDimensions(source_cube).x);
    let n = face_direction(bake.face, at.xy, bake.size);
    let a = bake.roughness * bake.roughness;
    var sum = vec3(0.0);
    var weight = 0.0;
    for (var i = 0u; i < bake.samples; i++) {
        let h = tangent_frame(n, ggx_half_vector(hammersley(i, bake.samples), a));
        let l = normalize(2.0 * dot(n, h) * h - n);
        let n_dot_l = dot(n, l);
        if n_dot_l > 0.0 {
            // Sample a blurrier source mip where samples are sparse.
            let n_dot_h = max(dot(n, h), 0.0);
            let d = a * a / (PI * pow(n_dot_h * n_dot_h * (a * a - 1.0) + 1.0, 2.0));
            let pdf = d / 4.0 + 1e-4;
            let texel_solid_angle = 4.0 * PI / (6.0 * size * size);
            let sample_solid_angle = 1.0 / (f32(bake.samples) * pdf);
            let level = select(0.5 * log2(sample_solid_angle / texel_solid_angle) + 1.0, 0.0, bake.roughness == 0.0);
            sum += environment_sample(l, max(level, 0.0)) * n_dot_l;
            weight += n_dot_l;
        }
    }
    return vec4(sum / max(weight, 1e-4), 1.0);
}

@fragment
fn fs_brdf(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let size = bake.size;
    let n_dot_v = max(at.x / size, 1e-3);
    let roughness = at.y / size;
    let a = roughness * roughness;
    let v = vec3(sqrt(1.0 - n_dot_v * n_dot_v), 0.0, n_dot_v);
    var scale = 0.0;
    var bias = 0.0;
    for (var i = 0u; i < bake.samples; i++) {
        let h = ggx_half_vector(hammersley(i, bake.samples), a);
        let l = normalize(2.0 * dot(v, h) * h - v);
        let n_dot_l = max(l.z, 0.0);
        let n_dot_h = max(h.z, 0.0);
        let v_dot_h = max(dot(v, h), 0.0);
        if n_dot_l > 0.0 {
            // Smith height-correlated visibility, as the direct lighting uses.
            let a2 = a * a;
            let gv = n_dot_l * sqrt(n_dot_v * n_dot_v * (1.0 - a2) + a2);
            let gl = n_dot_v * sqrt(n_dot_l * n_dot_l * (1.0 - a2) + a2);
            let vis = 0.5 / max(gv + gl, 1e-5);
            let g = vis * 4.0 * n_dot_l * v_dot_h / max(n_dot_h, 1e-5);
            let fc = pow(1.0 - v_dot_h, 5.0);
            scale += (1.0 - fc) * g;
            bias += fc * g;
        }
    }
    return vec4(scale / f32(bake.samples), bias / f32(bake.samples), 0.0, 1.0);
}
