// Particle motion on the GPU: one invocation per ring slot. The CPU path's
// twin is `simulate.rs` (keep the two in step).

struct Particle {
    position_age: vec4<f32>,
    velocity_lifetime: vec4<f32>,
    extra: vec4<f32>,
}

struct Step {
    // World to clip as the depth buffer was rasterised (reversed Z).
    view_proj: mat4x4<f32>,
    inverse_view_proj: mat4x4<f32>,
    // xyz: gravity in the particles' space; w: seconds.
    gravity_dt: vec4<f32>,
    // x: velocity kept over the step; y: restitution; z: friction; w: thickness.
    motion: vec4<f32>,
    // xyz: camera position.
    camera: vec4<f32>,
    // x: ring slots; y: 1 when particles collide with the depth buffer.
    counts: vec4<u32>,
}

@group(0) @binding(0) var<uniform> step: Step;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(2) var scene_depth: texture_2d<f32>;
@group(0) @binding(3) var<storage, read_write> alive_total: array<atomic<u32>>;

var<workgroup> alive_here: atomic<u32>;

fn unproject(pixel: vec2<i32>, size: vec2<f32>) -> vec3<f32> {
    let depth = textureLoad(scene_depth, pixel, 0).r;
    let ndc = vec2<f32>(
        (f32(pixel.x) + 0.5) / size.x * 2.0 - 1.0,
        1.0 - (f32(pixel.y) + 0.5) / size.y * 2.0,
    );
    let world = step.inverse_view_proj * vec4<f32>(ndc, depth, 1.0);
    return world.xyz / world.w;
}

// Bounces `velocity` off the visible surface `position` went behind; true
// when it did (the particle then stays where it was).
fn collide(position: vec3<f32>, velocity: ptr<function, vec3<f32>>) -> bool {
    let clip = step.view_proj * vec4<f32>(position, 1.0);
    if clip.w <= 0.0 {
        return false;
    }
    let ndc = clip.xyz / clip.w;
    if abs(ndc.x) >= 1.0 || abs(ndc.y) >= 1.0 {
        return false;
    }
    let dims = textureDimensions(scene_depth);
    let size = vec2<f32>(dims);
    let last = vec2<i32>(dims) - vec2<i32>(2, 2);
    let pixel = clamp(
        vec2<i32>(vec2<f32>(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5) * size),
        vec2<i32>(0, 0),
        max(last, vec2<i32>(0, 0)),
    );
    let scene = textureLoad(scene_depth, pixel, 0).r;
    // Reversed Z: a greater depth is nearer. In front of the surface: free.
    if ndc.z >= scene || scene <= 0.0 {
        return false;
    }
    let surface = unproject(pixel, size);
    let eye = step.camera.xyz;
    if distance(position, eye) - distance(surface, eye) > step.motion.w {
        return false;
    }
    let across = unproject(pixel + vec2<i32>(1, 0), size) - surface;
    let down = unproject(pixel + vec2<i32>(0, 1), size) - surface;
    var normal = normalize(cross(across, down));
    if dot(normal, eye - surface) < 0.0 {
        normal = -normal;
    }
    let v = *velocity;
    let into = dot(v, normal);
    if into < 0.0 {
        let along = (v - into * normal) * (1.0 - step.motion.z);
        *velocity = along - into * step.motion.y * normal;
    }
    return true;
}

@compute @workgroup_size(256)
fn simulate(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if local == 0u {
        atomicStore(&alive_here, 0u);
    }
    workgroupBarrier();
    let i = id.x;
    if i < step.counts.x {
        var p = particles[i];
        if p.position_age.w < p.velocity_lifetime.w {
            let dt = step.gravity_dt.w;
            var velocity = (p.velocity_lifetime.xyz + step.gravity_dt.xyz * dt) * step.motion.x;
            var position = p.position_age.xyz + velocity * dt;
            if step.counts.y != 0u && collide(position, &velocity) {
                position = p.position_age.xyz;
            }
            let age = p.position_age.w + dt;
            p.position_age = vec4<f32>(position, age);
            p.velocity_lifetime = vec4<f32>(velocity, p.velocity_lifetime.w);
            particles[i] = p;
            if age < p.velocity_lifetime.w {
                atomicAdd(&alive_here, 1u);
            }
        }
    }
    workgroupBarrier();
    if local == 0u {
        atomicAdd(&alive_total[0], atomicLoad(&alive_here));
    }
}
