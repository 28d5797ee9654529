// Back-to-front order for alpha-blended particles on the GPU: a key per
// ring slot (farthest first, dead slots last), a bitonic sort of
// (key, slot) pairs over a power-of-two count, then the living particles
// gathered in that order into the buffer the draw reads.

struct Particle {
    position_age: vec4<f32>,
    velocity_lifetime: vec4<f32>,
    extra: vec4<f32>,
}

struct Sort {
    // Places local-space particles (the identity in world space).
    world: mat4x4<f32>,
    eye: vec4<f32>,
    forward: vec4<f32>,
    // x: ring slots; y: sorted pairs (a power of two).
    counts: vec4<u32>,
}

struct Stage {
    // x: the compare distance j; y: the block size k.
    span: vec4<u32>,
}

@group(0) @binding(0) var<uniform> sorting: Sort;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
@group(0) @binding(2) var<storage, read_write> pairs: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> drawn: array<Particle>;
@group(1) @binding(0) var<uniform> stage: Stage;

// An integer that orders as the float does.
fn ordered(value: f32) -> u32 {
    let bits = bitcast<u32>(value);
    return select(bits | 0x80000000u, ~bits, (bits & 0x80000000u) != 0u);
}

@compute @workgroup_size(256)
fn keys(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= sorting.counts.y {
        return;
    }
    var key = 0xffffffffu;
    if i < sorting.counts.x {
        let p = particles[i];
        if p.position_age.w < p.velocity_lifetime.w {
            let at = (sorting.world * vec4<f32>(p.position_age.xyz, 1.0)).xyz;
            // Farthest first: the largest depth gets the smallest key.
            key = min(~ordered(dot(at - sorting.eye.xyz, sorting.forward.xyz)), 0xfffffffeu);
        }
    }
    pairs[i] = vec2<u32>(key, i);
}

@compute @workgroup_size(256)
fn sort_step(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    let j = stage.span.x;
    let k = stage.span.y;
    let partner = i ^ j;
    if i >= sorting.counts.y || partner <= i {
        return;
    }
    let a = pairs[i];
    let b = pairs[partner];
    let ascending = (i & k) == 0u;
    if (a.x > b.x) == ascending {
        pairs[i] = b;
        pairs[partner] = a;
    }
}

@compute @workgroup_size(256)
fn gather(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= sorting.counts.x {
        return;
    }
    drawn[i] = particles[pairs[i].y];
}
