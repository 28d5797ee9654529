// Chunk geometry: one instance per packed quad (see crafty::mesh::PackedQuad),
// six vertices generated from the vertex index.

struct ChunkUniform { origin: vec4<f32> };
@group(1) @binding(0) var<uniform> chunk: ChunkUniform;

struct ChunkOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    // Position on the quad in blocks along (u, v).
    @location(1) uv: vec2<f32>,
    // Ambient-occlusion brightness, interpolated between corners.
    @location(2) ao: f32,
    // x: face, y: atlas tile.
    @location(3) @interpolate(flat) face_tile: vec2<u32>,
};

const AO_CURVE = array<f32, 4>(0.42, 0.6, 0.78, 1.0);

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @location(0) quad: vec2<u32>) -> ChunkOut {
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
    let world = chunk.origin.xyz + base + u_axis * uv.x + v_axis * uv.y;

    var out: ChunkOut;
    out.clip = frame.view_proj * vec4(world, 1.0);
    out.world = world;
    out.uv = uv;
    var curve = AO_CURVE;
    out.ao = curve[ao[corner]];
    out.face_tile = vec2(face, tile);
    return out;
}

fn face_normal(face: u32) -> vec3<f32> {
    switch face {
        case 0u: { return vec3(1.0, 0.0, 0.0); }
        case 1u: { return vec3(-1.0, 0.0, 0.0); }
        case 2u: { return vec3(0.0, 1.0, 0.0); }
        case 3u: { return vec3(0.0, -1.0, 0.0); }
        case 4u: { return vec3(0.0, 0.0, 1.0); }
        default: { return vec3(0.0, 0.0, -1.0); }
    }
}

// How much sky (x) and direct light (y) reach the air in front of a face:
// all of both under open sky; under cover (a roof, a canopy, rock above a
// cave) less the more blocks of cover there are, the direct light fading
// first. Known only for the columns of the precipitation map around the
// camera; beyond it everything counts as open.
fn sky_access(world: vec3<f32>, n: vec3<f32>) -> vec2<f32> {
    let cell = floor(world + n * 0.5);
    let top = precipitation_at(cell.xz).r;
    let depth = f32(top) - cell.y;
    if top == 0u || depth <= 0.0 {
        return vec2(1.0, 1.0);
    }
    return vec2(0.2 + 0.8 * exp(-depth / 8.0), exp(-depth / 1.5));
}

// Sky light reaching a face: full from above, less on the sides, least below.
const FACE_SHADE = array<f32, 6>(0.75, 0.75, 1.0, 0.5, 0.85, 0.85);

// The slope of the water surface at world column `p` after `t` seconds: a
// few travelling waves, small enough to stay a flat surface.
fn water_normal(p: vec2<f32>, t: f32) -> vec3<f32> {
    let diagonal = 0.05 * cos(dot(p, vec2(1.7, 2.3)) + t * 2.1);
    let dx = 0.07 * cos(p.x * 1.3 + t * 1.6) + diagonal;
    let dz = 0.07 * cos(p.y * 1.1 - t * 1.3) + diagonal * 1.35;
    return normalize(vec3(-dx, 1.0, -dz));
}

fn shade(in: ChunkOut) -> vec4<f32> {
    let face = in.face_tile.x;
    let tile = in.face_tile.y;
    let seconds = frame.fog.w;
    let is_water = tile == WATER_TILE;
    // Texture rows run down the block (v is up on side faces); the sampler
    // repeats the tile once per block across merged quads. Water's ripples
    // drift.
    var tc = vec2(in.uv.x, -in.uv.y);
    if is_water {
        tc += vec2(0.11, 0.07) * seconds;
    }
    var albedo = textureSample(atlas, atlas_sampler, tc, tile);
    if ((CUTOUT_TILES >> tile) & 1u) == 1u {
        // Leaves: opaque or a hole at any distance, never half see-through.
        albedo.a = step(0.5, albedo.a);
    }

    let n = face_normal(face);
    let surface = is_water && face == 2u;
    var lit_normal = n;
    if surface {
        lit_normal = water_normal(in.world.xz, seconds);
    }
    // Rain darkens what the sky reaches: the top block of each column and
    // its sides (a roof keeps what is under it dry).
    let block = floor(in.world - n * 0.5);
    let top = precipitation_at(block.xz).r;
    if face != 3u && frame.weather.y > 0.0 && block.y + 1.0 >= f32(top) && top > 0u {
        albedo = vec4(albedo.rgb * (1.0 - 0.45 * frame.weather.y), albedo.a);
    }
    let open = sky_access(in.world, n);
    let direct = max(dot(lit_normal, frame.light_dir.xyz), 0.0) * open.y;
    var face_shade = FACE_SHADE;
    // Occlusion darkens sky and sun light alike (the classic voxel look).
    let sky_light = frame.ambient.rgb * face_shade[face] * open.x;
    let light = (sky_light + frame.light_color.rgb * direct) * in.ao;
    var color = albedo.rgb * light;

    let to_eye = in.world - frame.camera.xyz;
    let distance = length(to_eye);
    let view = to_eye / max(distance, 1e-4);
    if surface {
        // The sky mirrored at grazing angles, and a glint of the sun or moon.
        let facing = max(dot(lit_normal, -view), 0.0);
        let fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);
        let mirrored = sky_color(reflect(view, lit_normal)) * (0.35 + 0.65 * open.x);
        let half_way = normalize(frame.light_dir.xyz - view);
        let glint = pow(max(dot(lit_normal, half_way), 0.0), 120.0) * open.y;
        color = mix(color, mirrored, fresnel * 0.8) + frame.light_color.rgb * glint * 2.0;
        // Stays below the cutout threshold: water is always blended.
        albedo.a = min(mix(albedo.a, 1.0, fresnel), 0.95);
    }

    if frame.water.x > 0.5 {
        // Water takes the red out of everything seen through it.
        color *= vec3(0.45, 0.8, 0.9);
    }
    let fog = smoothstep(frame.fog.x, frame.fog.y, distance);
    color = mix(color, fog_color(view), fog);
    return vec4(color, albedo.a);
}

@fragment
fn fs_opaque(in: ChunkOut) -> @location(0) vec4<f32> {
    return vec4(shade(in).rgb, 1.0);
}

// Transparent quads are drawn twice. First, in the opaque pass, their fully
// opaque texels (leaves, glass frames) with depth written, so they hide each
// other in any order; then, blended, only their translucent texels (water,
// glass panes).
const CUTOUT: f32 = 0.99;

@fragment
fn fs_cutout(in: ChunkOut) -> @location(0) vec4<f32> {
    let color = shade(in);
    if color.a < CUTOUT {
        discard;
    }
    return vec4(color.rgb, 1.0);
}

@fragment
fn fs_transparent(in: ChunkOut) -> @location(0) vec4<f32> {
    let color = shade(in);
    if color.a < 0.02 || color.a >= CUTOUT {
        discard;
    }
    return color;
}
