// Deforms the posed instances of one pool, one invocation per vertex per
// instance: morph targets first (in bind space), then the skin (linear
// blend of up to four joint matrices), written as ordinary 72-byte
// vertices into the instance's slot, which every pass draws like any other
// mesh.

struct Params {
    vertex_count: u32,
    // Where this dispatch's instance table starts in `pose`, in vec4s.
    table_offset: u32,
    instance_count: u32,
    // 1 when the mesh is skinned.
    skinned: u32,
};

// One posed instance, read from two vec4s of the table (whole numbers,
// exact in f32 below 2^24).
struct Instance {
    slot: u32,
    // First joint matrix in `pose`, in vec4s (4 per joint).
    joint_offset: u32,
    // First morph weight in `pose`, in vec4s (4 weights each).
    weight_offset: u32,
    target_count: u32,
    // Joint matrices the pose holds: an index past them takes the identity.
    joint_count: u32,
};

@group(0) @binding(0) var<uniform> params: Params;
// This frame's joint matrices (columns), morph weights and instance tables.
@group(0) @binding(1) var<storage, read> pose: array<vec4<f32>>;

// Per vertex, 24 words: the 18 floats of a vertex, two words of four 16-bit
// joint indices, four weights.
@group(1) @binding(0) var<storage, read> source: array<u32>;
// Per target, per vertex: position, normal and tangent displacements (9 floats).
@group(1) @binding(1) var<storage, read> morphs: array<f32>;
@group(1) @binding(2) var<storage, read_write> deformed: array<f32>;

const SOURCE_STRIDE: u32 = 24u;
const VERTEX_STRIDE: u32 = 18u;
const MORPH_STRIDE: u32 = 9u;

fn source_f32(at: u32) -> f32 {
    return bitcast<f32>(source[at]);
}

fn source_vec3(at: u32) -> vec3<f32> {
    return vec3(source_f32(at), source_f32(at + 1u), source_f32(at + 2u));
}

fn morph_vec3(at: u32) -> vec3<f32> {
    return vec3(morphs[at], morphs[at + 1u], morphs[at + 2u]);
}

fn instance(index: u32) -> Instance {
    let a = pose[params.table_offset + index * 2u];
    let b = pose[params.table_offset + index * 2u + 1u];
    return Instance(u32(a.x), u32(a.y), u32(a.z), u32(a.w), u32(b.x));
}

fn weight(at: Instance, target_index: u32) -> f32 {
    return pose[at.weight_offset + target_index / 4u][target_index % 4u];
}

fn joint(at: Instance, index: u32) -> mat4x4<f32> {
    if index >= at.joint_count {
        return mat4x4(vec4(1.0, 0.0, 0.0, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(0.0, 0.0, 1.0, 0.0), vec4(0.0, 0.0, 0.0, 1.0));
    }
    let first = at.joint_offset + index * 4u;
    return mat4x4(pose[first], pose[first + 1u], pose[first + 2u], pose[first + 3u]);
}

@compute @workgroup_size(64)
fn deform(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let g = (group.y * groups.x + group.x) * 64u + local;
    if g >= params.vertex_count * params.instance_count {
        return;
    }
    let v = g % params.vertex_count;
    let at = instance(g / params.vertex_count);
    let base = v * SOURCE_STRIDE;
    var position = source_vec3(base);
    var normal = source_vec3(base + 3u);
    var tangent = vec4(source_vec3(base + 8u), source_f32(base + 11u));
    for (var t = 0u; t < at.target_count; t++) {
        let w = weight(at, t);
        if w != 0.0 {
            let moved = (t * params.vertex_count + v) * MORPH_STRIDE;
            position += w * morph_vec3(moved);
            normal += w * morph_vec3(moved + 3u);
            tangent = vec4(tangent.xyz + w * morph_vec3(moved + 6u), tangent.w);
        }
    }
    if params.skinned != 0u {
        let packed = vec2(source[base + 18u], source[base + 19u]);
        let weights = vec4(source_f32(base + 20u), source_f32(base + 21u), source_f32(base + 22u), source_f32(base + 23u));
        let m = weights.x * joint(at, packed.x & 0xffffu)
            + weights.y * joint(at, packed.x >> 16u)
            + weights.z * joint(at, packed.y & 0xffffu)
            + weights.w * joint(at, packed.y >> 16u);
        let linear = mat3x3(m[0].xyz, m[1].xyz, m[2].xyz);
        // Normals take the cofactor matrix (the inverse transpose times the
        // determinant), signed so a mirroring joint keeps them outward.
        let cofactor = mat3x3(cross(linear[1], linear[2]), cross(linear[2], linear[0]), cross(linear[0], linear[1]));
        let side = select(-1.0, 1.0, determinant(linear) >= 0.0);
        position = (m * vec4(position, 1.0)).xyz;
        normal = side * (cofactor * normal);
        tangent = vec4(linear * tangent.xyz, tangent.w);
    }
    let n = dot(normal, normal);
    if n > 1e-20 {
        normal = normal * inverseSqrt(n);
    }
    let tl = dot(tangent.xyz, tangent.xyz);
    if tl > 1e-20 {
        tangent = vec4(tangent.xyz * inverseSqrt(tl), tangent.w);
    }
    let out = (at.slot * params.vertex_count + v) * VERTEX_STRIDE;
    deformed[out] = position.x;
    deformed[out + 1u] = position.y;
    deformed[out + 2u] = position.z;
    deformed[out + 3u] = normal.x;
    deformed[out + 4u] = normal.y;
    deformed[out + 5u] = normal.z;
    deformed[out + 8u] = tangent.x;
    deformed[out + 9u] = tangent.y;
    deformed[out + 10u] = tangent.z;
    deformed[out + 11u] = tangent.w;
}
