// A chunk quad's corners: one instance per packed quad (see
// crafty::mesh::PackedQuad), six vertices generated from the vertex index.
// Shared by the lit chunk pipelines and the shadow casters.

// Where the chunk's cell (0, 0, 0) is (w: how far it has faded in, 0 to 1)
// and a cell's size in blocks (far terrain's cells are wider than a block).
struct ChunkUniform { origin: vec4<f32>, scale: vec4<f32> };
@group(1) @binding(0) var<uniform> chunk: ChunkUniform;

struct QuadCorner {
    world: vec3<f32>,
    // Position on the quad in cells along (u, v): one texture tile a cell.
    uv: vec2<f32>,
    // Ambient-occlusion level of the corner, 0 (darkest) to 3.
    ao: u32,
    face: u32,
    tile: u32,
};

// Corner `vi % 6` of the two triangles of `quad`.
fn quad_corner(vi: u32, quad: vec2<u32>) -> QuadCorner {
    let lo = quad.x;
    let hi = quad.y;
    let pos = vec3(f32(lo & 63u), f32((lo >> 6u) & 63u), f32((lo >> 12u) & 63u));
    let size = vec2(f32((lo >> 18u) & 63u), f32((lo >> 24u) & 63u));
    let face = hi & 7u;
    let tile = (hi >> 3u) & 255u;
    let ao_bits = hi >> 11u;
    let ao = vec4(ao_bits & 3u, (ao_bits >> 2u) & 3u, (ao_bits >> 4u) & 3u, (ao_bits >> 6u) & 3u);

    // The face plane's origin and its (u, v) axes; `reversed` when u x v
    // points inwards, so triangles stay counter-clockwise seen from outside.
    var base = pos;
    var u_axis = vec3(1.0, 0.0, 0.0);
    var v_axis = vec3(0.0, 1.0, 0.0);
    var reversed = false;
    switch face {
        case 0u: { base.x += 1.0; u_axis = vec3(0.0, 0.0, 1.0); reversed = true; }
        case 1u: { u_axis = vec3(0.0, 0.0, 1.0); }
        case 2u: { base.y += 1.0; v_axis = vec3(0.0, 0.0, 1.0); reversed = true; }
        case 3u: { v_axis = vec3(0.0, 0.0, 1.0); }
        case 4u: { base.z += 1.0; }
        default: { reversed = true; }
    }

    // Corners 0..3 are (0,0), (1,0), (1,1), (0,1) in (u, v). Split along the
    // diagonal that keeps ambient occlusion from smearing (0fps' rule).
    var corners = array<u32, 6>(0u, 1u, 2u, 0u, 2u, 3u);
    let flip = ao.x + ao.z > ao.y + ao.w;
    if flip && reversed {
        corners = array<u32, 6>(1u, 3u, 2u, 1u, 0u, 3u);
    } else if flip {
        corners = array<u32, 6>(1u, 2u, 3u, 1u, 3u, 0u);
    } else if reversed {
        corners = array<u32, 6>(0u, 2u, 1u, 0u, 3u, 2u);
    }
    let corner = corners[vi % 6u];
    let cu = f32(corner == 1u || corner == 2u);
    let cv = f32(corner >= 2u);
    let uv = vec2(cu, cv) * size;

    var out: QuadCorner;
    out.world = chunk.origin.xyz + (base + u_axis * uv.x + v_axis * uv.y) * chunk.scale.xyz;
    out.uv = uv;
    out.ao = ao[corner];
    out.face = face;
    out.tile = tile;
    return out;
}
