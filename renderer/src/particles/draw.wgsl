// Particles as camera-facing quads, one instance per ring slot (dead ones
// fold away). The same shader draws both paths' particles.

struct View {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    // View space from the depth buffer's clip space (reversed Z).
    inverse_depth_projection: mat4x4<f32>,
    // xy: depth texture size.
    size: vec4<f32>,
}

struct Emitter {
    world: mat4x4<f32>,
    color: array<vec4<f32>, 16>,
    size: array<vec4<f32>, 4>,
    rotation: array<vec4<f32>, 4>,
    // columns, rows, frames, frames per second (0: once over life).
    flipbook: vec4<f32>,
    // x: soft distance; y: 1 with a texture; z: 1 for a random first frame;
    // w: the sheet's first cell.
    options: vec4<f32>,
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var scene_depth: texture_2d<f32>;
@group(0) @binding(2) var depth_sampler: sampler;
@group(1) @binding(0) var<uniform> emitter: Emitter;
@group(1) @binding(1) var sheet: texture_2d<f32>;
@group(1) @binding(2) var sheet_sampler: sampler;

struct Instance {
    @location(0) position_age: vec4<f32>,
    @location(1) velocity_lifetime: vec4<f32>,
    @location(2) extra: vec4<f32>,
}

struct Varyings {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) corner: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) view_depth: f32,
}

fn table(values: array<vec4<f32>, 4>, t: f32) -> f32 {
    let x = clamp(t, 0.0, 1.0) * 15.0;
    let i = min(u32(floor(x)), 14u);
    let f = x - f32(i);
    let j = i + 1u;
    let a = values[i / 4u][i % 4u];
    let b = values[j / 4u][j % 4u];
    return mix(a, b, f);
}

fn color_at(t: f32) -> vec4<f32> {
    let x = clamp(t, 0.0, 1.0) * 15.0;
    let i = min(u32(floor(x)), 14u);
    return mix(emitter.color[i], emitter.color[i + 1u], x - f32(i));
}

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, particle: Instance) -> Varyings {
    var out: Varyings;
    let age = particle.position_age.w;
    let lifetime = particle.velocity_lifetime.w;
    if !(age < lifetime) {
        // Dead or never used: outside the clip volume, so nothing is drawn.
        out.clip = vec4<f32>(0.0, 0.0, 2.0, 1.0);
        return out;
    }
    let t = age / lifetime;
    // A four-vertex triangle strip.
    let corner = vec2<f32>(f32(vertex & 1u), f32((vertex >> 1u) & 1u)) - 0.5;
    let size = particle.extra.w * table(emitter.size, t);
    let angle = particle.extra.y + particle.extra.z * age + table(emitter.rotation, t);
    let turned = vec2<f32>(
        corner.x * cos(angle) - corner.y * sin(angle),
        corner.x * sin(angle) + corner.y * cos(angle),
    ) * size;
    let right = vec3<f32>(view.view[0].x, view.view[1].x, view.view[2].x);
    let up = vec3<f32>(view.view[0].y, view.view[1].y, view.view[2].y);
    let centre = (emitter.world * vec4<f32>(particle.position_age.xyz, 1.0)).xyz;
    let world = centre + right * turned.x + up * turned.y;
    out.clip = view.view_proj * vec4<f32>(world, 1.0);
    out.view_depth = -(view.view * vec4<f32>(world, 1.0)).z;
    out.color = color_at(t);
    out.corner = corner + 0.5;
    // The flipbook cell.
    let columns = max(emitter.flipbook.x, 1.0);
    let rows = max(emitter.flipbook.y, 1.0);
    let frames = max(emitter.flipbook.z, 1.0);
    let first = floor(particle.extra.x * frames) * emitter.options.z;
    var frame = floor(t * frames);
    if emitter.flipbook.w > 0.0 {
        frame = floor(age * emitter.flipbook.w);
    }
    frame = (frame + first) % frames;
    frame = min(frame, frames - 1.0) + emitter.options.w;
    let cell = vec2<f32>(frame % columns, floor(frame / columns));
    out.uv = (cell + vec2<f32>(out.corner.x, 1.0 - out.corner.y)) / vec2<f32>(columns, rows);
    return out;
}

fn view_depth_at(pixel: vec2<f32>) -> f32 {
    let size = view.size.xy;
    let at = (floor(pixel) + 0.5) / size;
    let depth = textureSampleLevel(scene_depth, depth_sampler, at, 0.0).r;
    let ndc = vec2<f32>(at.x * 2.0 - 1.0, 1.0 - at.y * 2.0);
    let point = view.inverse_depth_projection * vec4<f32>(ndc, depth, 1.0);
    return -point.z / point.w;
}

@fragment
fn fs_main(in: Varyings) -> @location(0) vec4<f32> {
    let texel = textureSample(sheet, sheet_sampler, in.uv);
    let from_centre = length(in.corner * 2.0 - 1.0);
    let round = clamp(1.0 - from_centre, 0.0, 1.0);
    let shape = select(round * round, 1.0, emitter.options.y > 0.5);
    let behind = view_depth_at(in.clip.xy) - in.view_depth;
    if behind <= 0.0 {
        discard;
    }
    var soft = 1.0;
    if emitter.options.x > 0.0 {
        soft = clamp(behind / emitter.options.x, 0.0, 1.0);
    }
    let alpha = clamp(in.color.a * texel.a * shape * soft, 0.0, 1.0);
    return vec4<f32>(in.color.rgb * texel.rgb * alpha, alpha);
}
