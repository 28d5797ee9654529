// Tiled light culling: one 16 x 16 workgroup per screen tile. The tile's
// view-space box spans its nearest and farthest depth: the farthest from
// the opaque depth pre-pass, the nearest from `near_depth`, the pre-pass
// depth with the blended draws' depth written over it (blended surfaces
// are shaded too but are not in the opaque depth). A light goes on the
// tile's list when its depth extent overlaps a depth slice some pixel of
// the tile occupies (2.5D culling: a tile holding a near object and a far
// wall skips the lights floating between them), its sphere touches the box
// and, for a spot, its cone reaches the box's bounding sphere. The tests only ever over-include: a
// light is left out only when it cannot reach any pixel of the tile. A list
// longer than `per_tile` keeps its first entries and stores its true
// length; the tile is counted in `counters.overflowed_tiles`.
//
// Tile layout in `tiles`: [count, per_tile light indices].

struct CullUniform {
    inv_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    screen: vec4<u32>,   // width, height, tiles across, tiles down
    params: vec4<u32>,   // lights, lights per tile
};

struct Counters { overflowed_tiles: atomic<u32> };

@group(0) @binding(0) var<uniform> cull: CullUniform;
@group(0) @binding(1) var<storage, read> lights: array<Light>;
@group(0) @binding(2) var depth: texture_depth_2d;
@group(0) @binding(5) var near_depth: texture_depth_2d;
@group(0) @binding(3) var<storage, read_write> tiles: array<u32>;
@group(0) @binding(4) var<storage, read_write> counters: Counters;

const TILE: u32 = 16u;

var<workgroup> tile_near_depth: atomic<u32>;
var<workgroup> tile_far_depth: atomic<u32>;
var<workgroup> tile_count: atomic<u32>;
var<workgroup> depth_mask: atomic<u32>;

fn view_position(ndc: vec3<f32>) -> vec3<f32> {
    let p = cull.inv_proj * vec4(ndc, 1.0);
    return p.xyz / p.w;
}

// Whether a spot light's cone (apex in view space) reaches a sphere.
fn cone_reaches(light: Light, apex: vec3<f32>, center: vec3<f32>, radius: f32) -> bool {
    let cos_outer = light.outer_kind.x;
    if cos_outer <= 0.0 {
        return true; // a cone wider than a hemisphere: the range sphere decides
    }
    let axis = normalize((cull.view * vec4(light.direction_inner.xyz, 0.0)).xyz);
    let v = center - apex;
    let along = dot(v, axis);
    let across = sqrt(max(dot(v, v) - along * along, 0.0));
    let sin_outer = sqrt(1.0 - cos_outer * cos_outer);
    let distance_to_cone = cos_outer * across - along * sin_outer;
    return distance_to_cone <= radius && along >= -radius;
}

@compute @workgroup_size(16, 16, 1)
fn cull_lights(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(global_invocation_id) pixel: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if local == 0u {
        atomicStore(&tile_near_depth, 0u);
        atomicStore(&tile_far_depth, bitcast<u32>(1.0));
        atomicStore(&tile_count, 0u);
        atomicStore(&depth_mask, 0u);
    }
    workgroupBarrier();
    // This pixel's depth span: from its nearest surface (blended ones
    // included) to its opaque surface; blended surfaces over the sky may
    // have more blended layers behind them, so their span runs to the far
    // plane. A pixel with nothing drawn (depth 0, the clear value) has no
    // span and widens nothing. Depth is reversed: near 1, far 0.
    let size = cull.screen.xy;
    var span = vec2(0.0, 1.0); // empty: nearer than it is far
    if pixel.x < size.x && pixel.y < size.y {
        let at = vec2<i32>(pixel.xy);
        let opaque = clamp(textureLoad(depth, at, 0), 0.0, 1.0);
        let nearest = max(clamp(textureLoad(near_depth, at, 0), 0.0, 1.0), opaque);
        if nearest > 0.0 {
            span = vec2(nearest, opaque);
            // Non-negative floats order like their bit patterns: the
            // nearest depth is the greatest.
            atomicMax(&tile_near_depth, bitcast<u32>(span.x));
            atomicMin(&tile_far_depth, bitcast<u32>(span.y));
        }
    }
    workgroupBarrier();
    let tile_near = bitcast<f32>(atomicLoad(&tile_near_depth));
    let tile_far = bitcast<f32>(atomicLoad(&tile_far_depth));
    let has_geometry = tile_near >= tile_far;

    // 2.5D culling: the tile's depth range in 32 slices, a bit per slice
    // holding some pixel's span.
    let near_z = view_distance(tile_near);
    let slice_scale = f32(SLICES) / max(view_distance(tile_far) - near_z, 1e-6);
    if span.x >= span.y {
        let mask = slice_mask(view_distance(span.x), view_distance(span.y), near_z, slice_scale);
        atomicOr(&depth_mask, mask);
    }
    workgroupBarrier();
    let tile_mask = atomicLoad(&depth_mask);

    let lo = vec2<f32>(group.xy * TILE);
    let hi = min(vec2<f32>((group.xy + 1u) * TILE), vec2<f32>(size));
    let full = vec2<f32>(size);
    let ndc_lo = vec2(lo.x / full.x * 2.0 - 1.0, 1.0 - hi.y / full.y * 2.0);
    let ndc_hi = vec2(hi.x / full.x * 2.0 - 1.0, 1.0 - lo.y / full.y * 2.0);
    let bounds = tile_box(ndc_lo, ndc_hi, tile_near, tile_far);

    let per_tile = cull.params.y;
    let base = (group.y * cull.screen.z + group.x) * (per_tile + 1u);
    let light_count = select(0u, cull.params.x, has_geometry);
    for (var i = local; i < light_count; i += TILE * TILE) {
        let light = lights[i];
        let p = (cull.view * vec4(light.position_range.xyz, 1.0)).xyz;
        let r = light.position_range.w;
        let covers = slice_mask(-p.z - r, -p.z + r, near_z, slice_scale);
        if (covers & tile_mask) != 0u && reaches(light, p, bounds) {
            let slot = atomicAdd(&tile_count, 1u);
            if slot < per_tile {
                tiles[base + 1u + slot] = i;
            }
        }
    }
    workgroupBarrier();
    if local == 0u {
        let count = atomicLoad(&tile_count);
        tiles[base] = count;
        if count > per_tile {
            atomicAdd(&counters.overflowed_tiles, 1u);
        }
    }
}

const SLICES: u32 = 32u;

// Distance along the view direction of a point at NDC depth `d`.
fn view_distance(d: f32) -> f32 {
    return -view_position(vec3(0.0, 0.0, d)).z;
}

// The slices (of the tile's range starting at `near_z`) that the distances
// `start..end` overlap, clamped to the range's ends.
fn slice_mask(start: f32, end: f32, near_z: f32, scale: f32) -> u32 {
    let first = u32(clamp((start - near_z) * scale, 0.0, f32(SLICES - 1u)));
    let last = u32(clamp((end - near_z) * scale, 0.0, f32(SLICES - 1u)));
    let bits = last - first + 1u;
    if bits >= SLICES {
        return 0xffffffffu;
    }
    return ((1u << bits) - 1u) << first;
}

struct TileBox { lo: vec3<f32>, hi: vec3<f32>, center: vec3<f32>, radius: f32 };

// The view-space box around the tile's frustum between two depths.
fn tile_box(ndc_lo: vec2<f32>, ndc_hi: vec2<f32>, near_depth: f32, far_depth: f32) -> TileBox {
    var b: TileBox;
    b.lo = vec3(3.4e38);
    b.hi = vec3(-3.4e38);
    for (var c = 0u; c < 8u; c++) {
        let x = select(ndc_lo.x, ndc_hi.x, (c & 1u) != 0u);
        let y = select(ndc_lo.y, ndc_hi.y, (c & 2u) != 0u);
        let z = select(near_depth, far_depth, (c & 4u) != 0u);
        let p = view_position(vec3(x, y, z));
        b.lo = min(b.lo, p);
        b.hi = max(b.hi, p);
    }
    b.center = (b.lo + b.hi) * 0.5;
    b.radius = length(b.hi - b.center);
    return b;
}

// Whether a light (position `p` in view space) may light anything in `b`.
fn reaches(light: Light, p: vec3<f32>, b: TileBox) -> bool {
    let r = light.position_range.w;
    let gap = clamp(p, b.lo, b.hi) - p;
    if dot(gap, gap) > r * r {
        return false;
    }
    return light.outer_kind.y < 0.5 || cone_reaches(light, p, b.center, b.radius);
}
