// Lit chunk geometry: the quads of quad.wgsl, textured from the atlas, lit
// by the sun or moon (shadowed through shadows.wgsl) and the sky, fogged.

struct ChunkOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    // Position on the quad in blocks along (u, v).
    @location(1) uv: vec2<f32>,
    // Ambient-occlusion brightness, interpolated between corners.
    @location(2) ao: f32,
    // x: face, y: atlas tile.
    @location(3) @interpolate(flat) face_tile: vec2<u32>,
    // How far the chunk has faded in (far terrain arriving), 0 to 1.
    @location(4) @interpolate(flat) fade: f32,
};

const AO_CURVE = array<f32, 4>(0.42, 0.6, 0.78, 1.0);

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @location(0) quad: vec2<u32>) -> ChunkOut {
    let corner = quad_corner(vi, quad);
    var out: ChunkOut;
    out.clip = frame.view_proj * vec4(corner.world, 1.0);
    out.world = corner.world;
    out.uv = corner.uv;
    var curve = AO_CURVE;
    out.ao = curve[corner.ao];
    out.face_tile = vec2(corner.face, corner.tile);
    out.fade = chunk.origin.w;
    return out;
}

// Whether a fading-in chunk leaves this pixel out: an ordered 4 x 4 dither,
// so a region switching detail cross-fades without sorting or blending.
fn faded_out(clip: vec4<f32>, fade: f32) -> bool {
    if fade >= 1.0 {
        return false;
    }
    let p = vec2<u32>(clip.xy) % vec2(4u, 4u);
    var bayer = array<f32, 16>(0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0, 15.0, 7.0, 13.0, 5.0);
    return (bayer[p.y * 4u + p.x] + 0.5) / 16.0 >= fade;
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
// first. z: what is left of direct light under water (water casts no
// shadow, but it swallows light with depth). Known only for the columns of
// the precipitation map around the camera; beyond it everything counts as
// open.
fn sky_access(world: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let cell = floor(world + n * 0.5);
    let column = precipitation_at(cell.xz);
    let top = column.r;
    let depth = f32(top) - cell.y;
    if top == 0u || depth <= 0.0 {
        return vec3(1.0, 1.0, 1.0);
    }
    let under_water = select(1.0, exp(-depth / 3.0), column.g == WATER_TOP);
    return vec3(0.2 + 0.8 * exp(-depth / 8.0), exp(-depth / 1.5), under_water);
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
    let to_eye = in.world - frame.camera.xyz;
    let distance = length(to_eye);
    let view = to_eye / max(distance, 1e-4);
    // Direct light: shadowed by the cascades where they reach, dimmed by
    // the cover above beyond them.
    var direct = max(dot(lit_normal, frame.light_dir.xyz), 0.0);
    var sunlit = open.y;
    if direct > 0.0 {
        let shadowed = sun_shadow(in.world, n, distance);
        sunlit = mix(open.y, shadowed.x * open.z, shadowed.y);
    }
    direct *= sunlit;
    var face_shade = FACE_SHADE;
    // Occlusion darkens sky and sun light alike (the classic voxel look).
    let sky_light = frame.ambient.rgb * face_shade[face] * open.x;
    let light = (sky_light + frame.light_color.rgb * direct) * in.ao;
    var color = albedo.rgb * light;

    if surface {
        // The sky mirrored at grazing angles, and a glint of the sun or moon.
        let facing = max(dot(lit_normal, -view), 0.0);
        let fresnel = 0.02 + 0.98 * pow(1.0 - facing, 5.0);
        let mirrored = sky_color(reflect(view, lit_normal)) * (0.35 + 0.65 * open.x);
        let half_way = normalize(frame.light_dir.xyz - view);
        let glint = pow(max(dot(lit_normal, half_way), 0.0), 120.0) * sunlit;
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
    if faded_out(in.clip, in.fade) {
        discard;
    }
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
    if color.a < CUTOUT || faded_out(in.clip, in.fade) {
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
