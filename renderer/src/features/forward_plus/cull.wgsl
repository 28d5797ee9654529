// Tiled light culling: one 16 x 16 workgroup per screen tile. The tile's
// farthest depth (from the depth pre-pass) bounds a view-space box from the
// near plane to that depth (near, not the nearest depth, so blended
// surfaces in front of the opaque ones are covered too); every light whose
// sphere touches the box (and, for spots, whose cone reaches the box's
// bounding sphere) is appended to the tile's list. The tests only ever
// over-include: a light is dropped only when it cannot reach any pixel of
// the tile. A list longer than `per_tile` keeps its first entries, stores
// its true length and counts the tile in `counters.overflowed_tiles`.

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
@group(0) @binding(3) var<storage, read_write> tiles: array<u32>;
@group(0) @binding(4) var<storage, read_write> counters: Counters;

const TILE: u32 = 16u;

var<workgroup> tile_max_depth: atomic<u32>;
var<workgroup> tile_count: atomic<u32>;

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
        atomicStore(&tile_max_depth, 0u);
        atomicStore(&tile_count, 0u);
    }
    workgroupBarrier();
    let size = cull.screen.xy;
    if pixel.x < size.x && pixel.y < size.y {
        let d = textureLoad(depth, vec2<i32>(pixel.xy), 0);
        // Non-negative floats order like their bit patterns.
        atomicMax(&tile_max_depth, bitcast<u32>(max(d, 0.0)));
    }
    workgroupBarrier();
    let max_depth = bitcast<f32>(atomicLoad(&tile_max_depth));

    let lo = vec2<f32>(group.xy * TILE);
    let hi = min(vec2<f32>((group.xy + 1u) * TILE), vec2<f32>(size));
    let full = vec2<f32>(size);
    let ndc_lo = vec2(lo.x / full.x * 2.0 - 1.0, 1.0 - hi.y / full.y * 2.0);
    let ndc_hi = vec2(hi.x / full.x * 2.0 - 1.0, 1.0 - lo.y / full.y * 2.0);
    var box_min = vec3(3.4e38);
    var box_max = vec3(-3.4e38);
    for (var c = 0u; c < 8u; c++) {
        let x = select(ndc_lo.x, ndc_hi.x, (c & 1u) != 0u);
        let y = select(ndc_lo.y, ndc_hi.y, (c & 2u) != 0u);
        let z = select(0.0, max_depth, (c & 4u) != 0u);
        let p = view_position(vec3(x, y, z));
        box_min = min(box_min, p);
        box_max = max(box_max, p);
    }
    let center = (box_min + box_max) * 0.5;
    let bound_radius = length(box_max - center);

    let per_tile = cull.params.y;
    let base = (group.y * cull.screen.z + group.x) * (per_tile + 1u);
    for (var i = local; i < cull.params.x; i += TILE * TILE) {
        let light = lights[i];
        let p = (cull.view * vec4(light.position_range.xyz, 1.0)).xyz;
        let r = light.position_range.w;
        let gap = clamp(p, box_min, box_max) - p;
        if dot(gap, gap) > r * r {
            continue;
        }
        if light.outer_kind.y > 0.5 && !cone_reaches(light, p, center, bound_radius) {
            continue;
        }
        let slot = atomicAdd(&tile_count, 1u);
        if slot < per_tile {
            tiles[base + 1u + slot] = i;
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
