//! The crafty pipeline on a real adapter (lavapipe in CI): a few hand-made
//! blocks by day, at sunset and by moonlight, compared with reference
//! images; chunk bookkeeping through the handle; extra stages in order.

use std::collections::HashMap;
use std::f32::consts::PI;
use std::path::{Path, PathBuf};

use crafty::mesh::{ChunkMesh, PackedQuad};
use crafty::render::{
    CraftyPipelineFeature, CraftyRenderHandle, Fog, Godrays, Shadows, StagePoint,
};
use crafty::time_of_day::sky_lighting;
use crafty::world::{BlockType, CHUNK_SIZE, ChunkPos, Face};
use glam::{IVec3, Vec3};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::frame::CameraView;
use taos_renderer::{Frame, FrameData, GpuContext, OffscreenTarget, RenderFeature, Renderer, wgpu};

const WIDTH: u32 = 160;
const HEIGHT: u32 = 120;

/// The face's (u, v) axes, as the packed-quad format defines them.
fn axes(face: Face) -> (IVec3, IVec3) {
    match face {
        Face::East | Face::West => (IVec3::Z, IVec3::Y),
        Face::Top | Face::Bottom => (IVec3::X, IVec3::Z),
        Face::South | Face::North => (IVec3::X, IVec3::Y),
    }
}

/// One unit quad per exposed face of `blocks`, with classic vertex ambient
/// occlusion, grouped by chunk (a stand-in for the real mesher).
fn mesh_blocks(blocks: &HashMap<IVec3, BlockType>) -> HashMap<ChunkPos, ChunkMesh> {
    let get = |p: IVec3| blocks.get(&p).copied().unwrap_or(BlockType::Air);
    let solid = |p: IVec3| u8::from(get(p).is_opaque());
    let mut meshes: HashMap<ChunkPos, ChunkMesh> = HashMap::new();
    // Sorted, so quads (and the blending of overlapping transparent ones)
    // come in the same order every run.
    let mut sorted: Vec<_> = blocks.iter().map(|(&p, &b)| (p, b)).collect();
    sorted.sort_by_key(|(p, _)| (p.x, p.y, p.z));
    for (pos, block) in sorted {
        for face in Face::ALL {
            let n = face.normal();
            let neighbour = get(pos + n);
            if neighbour.is_opaque() || neighbour == block {
                continue;
            }
            let (u, v) = axes(face);
            let ao = [(0, 0), (1, 0), (1, 1), (0, 1)].map(|(cu, cv)| {
                let du = if cu == 1 { u } else { -u };
                let dv = if cv == 1 { v } else { -v };
                let (s1, s2) = (solid(pos + n + du), solid(pos + n + dv));
                if s1 + s2 == 2 {
                    0
                } else {
                    3 - s1 - s2 - solid(pos + n + du + dv)
                }
            });
            let (chunk, local) = ChunkPos::of_block(pos);
            let quad = PackedQuad::new(
                local.as_uvec3().to_array(),
                [1, 1],
                face,
                block.tile(face),
                ao,
            );
            let mesh = meshes.entry(chunk).or_default();
            if block.is_transparent() {
                mesh.transparent.push(quad);
            } else {
                mesh.opaque.push(quad);
            }
        }
    }
    meshes
}

/// A grass field across the boundary of chunks (0,0,0) and (1,0,0) with a
/// stone pillar, a glass block, a log and a little pool.
fn scene() -> HashMap<IVec3, BlockType> {
    let mut blocks = HashMap::new();
    let edge = CHUNK_SIZE as i32;
    for x in edge - 4..edge + 3 {
        for z in 4..11 {
            blocks.insert(IVec3::new(x, 4, z), BlockType::Grass);
            blocks.insert(IVec3::new(x, 3, z), BlockType::Dirt);
        }
    }
    for (x, z) in [(edge, 7), (edge + 1, 7), (edge, 8), (edge + 1, 8)] {
        blocks.insert(IVec3::new(x, 4, z), BlockType::Water);
        blocks.insert(IVec3::new(x, 3, z), BlockType::Sand);
    }
    blocks.insert(IVec3::new(edge - 3, 5, 5), BlockType::Stone);
    blocks.insert(IVec3::new(edge - 3, 6, 5), BlockType::Stone);
    blocks.insert(IVec3::new(edge - 2, 5, 5), BlockType::Cobblestone);
    blocks.insert(IVec3::new(edge - 1, 5, 9), BlockType::Glass);
    blocks.insert(IVec3::new(edge - 3, 5, 8), BlockType::Log);
    blocks.insert(IVec3::new(edge - 3, 6, 8), BlockType::Leaves);
    blocks.insert(IVec3::new(edge + 2, 5, 5), BlockType::Planks);
    blocks.insert(IVec3::new(edge + 2, 5, 6), BlockType::Sand);
    blocks.insert(IVec3::new(edge + 2, 5, 4), BlockType::Snow);
    blocks
}

const HIGHLIGHT: IVec3 = IVec3::new(CHUNK_SIZE as i32 - 3, 6, 5);

fn camera() -> CameraView {
    let center = Vec3::new(CHUNK_SIZE as f32, 4.5, 7.5);
    let eye = center + Vec3::new(-8.0, 3.0, 4.2);
    let target = center + Vec3::new(0.0, 1.4, 0.0);
    let (near, far) = (0.1, 200.0);
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y),
        projection: glam::camera::rh::proj::directx::perspective(
            65f32.to_radians(),
            WIDTH as f32 / HEIGHT as f32,
            near,
            far,
        ),
        position: eye,
        forward: (target - eye).normalize(),
        near,
        far,
    }
}

struct Harness {
    renderer: Renderer,
    target: OffscreenTarget,
    handle: CraftyRenderHandle,
    data: FrameData,
}

fn harness(feature: CraftyPipelineFeature, handle: CraftyRenderHandle) -> Harness {
    let gpu = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    renderer.add_feature(feature);
    let data = FrameData {
        camera: camera(),
        size: (WIDTH, HEIGHT),
        ..FrameData::default()
    };
    Harness {
        renderer,
        target,
        handle,
        data,
    }
}

impl Harness {
    fn new() -> Self {
        let (feature, handle) = CraftyPipelineFeature::new();
        harness(feature, handle)
    }

    fn load_scene(&self) {
        for (pos, mesh) in mesh_blocks(&scene()) {
            self.handle.set_chunk(pos, &mesh);
        }
    }

    fn render(&mut self) -> Vec<u8> {
        self.renderer
            .render(&mut self.data, self.target.texture())
            .unwrap();
        self.target.read_rgba8(self.renderer.gpu()).unwrap()
    }
}

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// Lavapipe is the reference device; other drivers differ on edge pixels
/// and transcendental precision.
const TOLERANCE: Tolerance = Tolerance {
    per_channel: 3,
    outlier_fraction: 0.02,
};

fn pixel(pixels: &[u8], x: u32, y: u32) -> [u8; 4] {
    let at = ((y * WIDTH + x) * 4) as usize;
    pixels[at..at + 4].try_into().unwrap()
}

#[test]
fn blocks_by_day_with_a_highlighted_block() {
    let mut h = Harness::new();
    h.load_scene();
    h.handle.set_sky(sky_lighting(1.1, 0.5));
    h.handle.set_highlight(Some(HIGHLIGHT));
    let pixels = h.render();
    let stats = h.handle.stats();
    assert_eq!(stats.chunks, 2);
    assert_eq!((stats.opaque_draws, stats.transparent_draws), (2, 2));
    let sky = pixel(&pixels, WIDTH / 2, 2);
    assert!(sky[2] > sky[0] && sky[2] > 150, "blue day sky {sky:?}");
    assert_matches_reference(
        &reference_dir(),
        "crafty_render_day",
        WIDTH,
        HEIGHT,
        &pixels,
        TOLERANCE,
    );
}

#[test]
fn other_players_stand_among_the_blocks_and_are_hidden_behind_them() {
    let edge = CHUNK_SIZE as f32;
    let mut h = Harness::new();
    h.load_scene();
    h.handle.set_sky(sky_lighting(1.1, 0.5));
    let without = h.render();
    // Buried in the ground (the depth test hides it): nothing changes.
    h.handle
        .set_avatars(&[(Vec3::new(edge - 1.5, 1.0, 6.5), 0.0), (Vec3::NAN, 0.0)]);
    let buried = h.render();
    assert!(
        mean_difference(&without, &buried, 0..HEIGHT) < 0.01,
        "a buried figure showed"
    );
    // Two players on the grass, one turned towards the camera.
    h.handle.set_avatars(&[
        (Vec3::new(edge - 1.5, 5.0, 6.5), 0.0),
        (Vec3::new(edge + 1.5, 5.0, 9.5), 2.3),
    ]);
    let pixels = h.render();
    // Two small figures in a 160 x 120 frame (0.7 here).
    let seen = mean_difference(&without, &pixels, 0..HEIGHT);
    assert!(seen > 0.3, "the figures changed the frame by {seen}");
    assert_matches_reference(
        &reference_dir(),
        "crafty_render_players",
        WIDTH,
        HEIGHT,
        &pixels,
        TOLERANCE,
    );
    // No list: no figures.
    h.handle.set_avatars(&[]);
    assert!(mean_difference(&without, &h.render(), 0..HEIGHT) < 0.01);
}

#[test]
fn blocks_at_sunrise() {
    let mut h = Harness::new();
    h.load_scene();
    // The sun just up in the east, ahead of the camera.
    h.handle.set_sky(sky_lighting(0.1, 0.5));
    let pixels = h.render();
    assert_matches_reference(
        &reference_dir(),
        "crafty_render_sunrise",
        WIDTH,
        HEIGHT,
        &pixels,
        TOLERANCE,
    );
}

#[test]
fn blocks_by_moonlight() {
    let mut h = Harness::new();
    h.load_scene();
    // The sun 9 degrees below the western horizon, the moon as high in the
    // east, two-thirds lit.
    h.handle.set_sky(sky_lighting(PI + 0.16, 0.35));
    h.handle.set_highlight(Some(HIGHLIGHT));
    let pixels = h.render();
    let sky = pixel(&pixels, 4, 2);
    eprintln!("night sky {sky:?}");
    assert_matches_reference(
        &reference_dir(),
        "crafty_render_night",
        WIDTH,
        HEIGHT,
        &pixels,
        TOLERANCE,
    );
}

#[test]
fn set_then_remove_chunk_leaves_no_chunk_draws() {
    let mut h = Harness::new();
    let empty_sky = h.render();
    let meshes = mesh_blocks(&scene());
    for (pos, mesh) in &meshes {
        h.handle.set_chunk(*pos, mesh);
    }
    let with_blocks = h.render();
    let stats = h.handle.stats();
    assert_eq!(stats.chunks, 2);
    assert!(stats.opaque_draws > 0 && stats.opaque_quads > 0);
    assert!(with_blocks != empty_sky);

    // Replacing a chunk reuses it; removing both (one by an empty mesh)
    // leaves nothing to draw.
    let mut positions = meshes.keys().copied();
    let (first, second) = (positions.next().unwrap(), positions.next().unwrap());
    h.handle.set_chunk(first, &meshes[&first]);
    h.render();
    assert_eq!(h.handle.stats().chunks, 2);
    h.handle.remove_chunk(first);
    h.handle.set_chunk(second, &ChunkMesh::default());
    let after = h.render();
    let stats = h.handle.stats();
    assert_eq!(stats.chunks, 0);
    assert_eq!((stats.opaque_draws, stats.transparent_draws), (0, 0));
    assert_eq!((stats.opaque_quads, stats.transparent_quads), (0, 0));
    assert!(after == empty_sky, "only sky is left");
}

#[test]
fn fog_hides_chunks_beyond_its_end() {
    let mut h = Harness::new();
    let empty_sky = h.render();
    h.load_scene();
    h.handle.set_fog(Fog {
        start: 1.0,
        end: 2.0,
    });
    let fogged = h.render();
    // Every block is further than 2 blocks away: only sky colour is left.
    let worst = fogged
        .iter()
        .zip(&empty_sky)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap();
    assert!(worst <= 2, "fogged blocks differ from the sky by {worst}");
    h.handle.set_fog(Fog::default());
    assert!(h.render() != empty_sky);
}

#[test]
fn leaves_hide_each_other_in_any_quad_order() {
    let mut leaves = HashMap::new();
    for x in 28..31 {
        for z in 4..8 {
            leaves.insert(IVec3::new(x, 5 + (x + z) % 2, z), BlockType::Leaves);
        }
    }
    let mesh = mesh_blocks(&leaves)
        .remove(&ChunkPos::new(0, 0, 0))
        .unwrap();
    assert!(mesh.opaque.is_empty() && mesh.transparent.len() > 20);
    let mut h = Harness::new();
    h.handle.set_chunk(ChunkPos::new(0, 0, 0), &mesh);
    let forward = h.render();
    let mut reversed = mesh.clone();
    reversed.transparent.reverse();
    h.handle.set_chunk(ChunkPos::new(0, 0, 0), &reversed);
    let differing = h
        .render()
        .chunks(4)
        .zip(forward.chunks(4))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 0, "pixels change with the quad order");
}

#[test]
fn buffers_grow_for_bigger_meshes_and_many_chunks() {
    let scene = mesh_blocks(&scene());
    let mut fresh = Harness::new();
    for (pos, mesh) in &scene {
        fresh.handle.set_chunk(*pos, mesh);
    }
    let expected = fresh.render();

    // 70 one-quad chunks behind the camera fill the first origin slots (64
    // fit before the origin buffer grows); the scene then lands past them.
    let mut h = Harness::new();
    let one = ChunkMesh {
        opaque: vec![PackedQuad::new([0, 0, 0], [1, 1], Face::Top, 0, [3; 4])],
        transparent: Vec::new(),
    };
    for i in 0..70 {
        h.handle.set_chunk(ChunkPos::new(i, 0, 20), &one);
    }
    h.render();
    // A chunk first uploaded small, then replaced by its real, bigger mesh.
    let (&pos, big) = scene.iter().max_by_key(|(_, m)| m.opaque.len()).unwrap();
    h.handle.set_chunk(pos, &one);
    h.render();
    for (pos, mesh) in &scene {
        h.handle.set_chunk(*pos, mesh);
    }
    let pixels = h.render();
    let stats = h.handle.stats();
    assert_eq!(stats.chunks, 72);
    assert_eq!(stats.culled_chunks, 70);
    assert!(big.opaque.len() > 64);
    let quads: usize = scene.values().map(|m| m.opaque.len()).sum();
    assert_eq!(stats.opaque_quads, (quads + 70) as u64);
    assert!(pixels == expected, "same picture from higher slots");
}

#[test]
fn chunks_behind_the_camera_are_culled() {
    let mut h = Harness::new();
    let mesh = &mesh_blocks(&scene())[&ChunkPos::new(0, 0, 0)];
    h.handle.set_chunk(ChunkPos::new(0, 0, 0), mesh);
    h.handle.set_chunk(ChunkPos::new(-3, 0, 3), mesh);
    h.render();
    let stats = h.handle.stats();
    assert_eq!((stats.chunks, stats.culled_chunks), (2, 1));
    assert_eq!(stats.opaque_draws, 1);
}

/// A stage that loads the HDR target and draws nothing.
struct MarkerStage(&'static str);

impl RenderFeature for MarkerStage {
    fn name(&self) -> &'static str {
        self.0
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(hdr) = frame.hdr else { return };
        let needs_depth = frame.depth;
        frame.hdr = Some(frame.graph.add_render_pass(self.0, |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            if let Some(depth) = needs_depth {
                pass.read_texture(depth);
            }
            pass.execute(|_, _| {});
            hdr
        }));
    }
}

#[test]
fn stages_run_at_their_points() {
    let (feature, handle) = CraftyPipelineFeature::new();
    let feature = feature
        .with_stage(StagePoint::BeforeTonemap, MarkerStage("godrays"))
        .with_stage(StagePoint::AfterOpaque, MarkerStage("clouds"))
        .with_stage(StagePoint::AfterTransparent, MarkerStage("rain"))
        .with_stage(StagePoint::AfterSky, MarkerStage("aurora"));
    let mut h = harness(feature, handle);
    h.load_scene();
    h.handle.set_highlight(Some(HIGHLIGHT));
    // Light shafts (built in, before the BeforeTonemap stages) only come
    // with the sun on screen: off here, so the order is fixed.
    h.handle.set_godrays(Godrays::OFF);
    let dump = h
        .renderer
        .dump_graph(&mut h.data, h.target.texture(), false)
        .unwrap();
    let order = [
        "0: crafty shadows",
        "1: crafty sky",
        "2: aurora",
        "3: crafty opaque",
        "4: clouds",
        "5: crafty transparent",
        "6: rain",
        "7: crafty highlight",
        "8: godrays",
        "9: tonemap",
    ];
    for name in order {
        assert!(dump.contains(name), "{name} missing from\n{dump}");
    }
    let stats = h.renderer.render(&mut h.data, h.target.texture()).unwrap();
    assert_eq!((stats.passes, stats.culled), (10, 0));
    assert!(
        h.data.lights.sun.is_none(),
        "the sun is the game's to decide: the pipeline never writes it"
    );
}

/// Mean difference per channel between two frames, over rows `rows`.
fn mean_difference(a: &[u8], b: &[u8], rows: std::ops::Range<u32>) -> f64 {
    let span = (rows.start * WIDTH * 4) as usize..(rows.end * WIDTH * 4) as usize;
    let total: u64 = a[span.clone()]
        .iter()
        .zip(&b[span.clone()])
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / span.len() as f64
}

#[test]
fn distant_ground_does_not_shimmer_as_the_camera_creeps() {
    // A flat grass field running 256 blocks ahead of the camera, one merged
    // 32 x 32 quad per chunk, no fog.
    let mut h = Harness::new();
    for cx in -2..2 {
        for cz in -8..0 {
            let quad = PackedQuad::new(
                [0, 0, 0],
                [32, 32],
                Face::Top,
                BlockType::Grass.tile(Face::Top),
                [3; 4],
            );
            let mesh = ChunkMesh {
                opaque: vec![quad],
                ..ChunkMesh::default()
            };
            h.handle.set_chunk(ChunkPos::new(cx, 0, cz), &mesh);
        }
    }
    h.handle.set_fog(Fog {
        start: 1e4,
        end: 2e4,
    });
    h.handle.set_sky(sky_lighting(1.1, 0.5));
    let look = |x: f32| {
        let eye = Vec3::new(x, 3.0, -1.0);
        let target = eye + Vec3::new(0.0, -0.12, -1.0);
        let mut camera = camera();
        camera.view = glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y);
        camera.position = eye;
        camera.forward = (target - eye).normalize();
        camera
    };
    // Two frames a third of a texel apart (a texel is 1/16 block): far
    // ground squeezes many texels into each pixel, and sampling only the
    // nearest one would flicker between unrelated colours.
    h.data.camera = look(0.0);
    let first = h.render();
    h.data.camera = look(0.02);
    let second = h.render();
    // Rows showing ground 25 to 200 blocks away.
    let far = mean_difference(&first, &second, 47..58);
    // Sampling only the nearest texel of the full-size tile (the old way)
    // changes these rows by 2.6 per channel on lavapipe; filtered mips by
    // under 0.1.
    eprintln!("mean change of far ground: {far:.2} per channel");
    assert!(far < 0.5, "far ground shimmers: {far:.2} per channel");
}

/// The share of pixels in the top half of `frame` that differ from `clear`
/// by more than 8 in some channel.
fn changed_share(frame: &[u8], clear: &[u8]) -> f64 {
    let half = (WIDTH * HEIGHT / 2 * 4) as usize;
    let changed = frame[..half]
        .chunks(4)
        .zip(clear[..half].chunks(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    changed as f64 / (half / 4) as f64
}

#[test]
fn clouds_cover_part_of_the_sky_and_more_in_bad_weather() {
    use crafty::render::Clouds;
    use crafty::weather::{WeatherKind, WeatherView};
    let mut h = Harness::new();
    // Looking up at a noon sky from the ground.
    let eye = Vec3::new(0.0, 70.0, 0.0);
    let target = eye + Vec3::new(0.0, 0.8, -1.0);
    h.data.camera.view = glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y);
    h.data.camera.position = eye;
    h.handle.set_sky(sky_lighting(1.3, 0.5));
    h.handle.set_clouds(Clouds::NONE);
    let clear = h.render();
    h.handle.set_clouds(Clouds::default());
    let fair = changed_share(&h.render(), &clear);
    h.handle.set_weather(WeatherView {
        kind: WeatherKind::Rain,
        intensity: 1.0,
        overcast: 1.0,
        wetness: 0.0,
        lightning: 0.0,
    });
    let rain = changed_share(&h.render(), &clear);
    eprintln!("clouds cover {fair:.2} of the sky in fair weather, {rain:.2} in rain");
    assert!(
        (0.1..0.8).contains(&fair),
        "fair weather clouds cover {fair:.2}"
    );
    assert!(
        rain > fair + 0.1 && rain > 0.8,
        "rain clouds cover {rain:.2}"
    );
}

/// Where world point `p` lands in the harness's frame, in whole pixels.
fn project(camera: &CameraView, p: Vec3) -> (u32, u32) {
    let clip = camera.projection * camera.view * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    let x = (ndc.x * 0.5 + 0.5) * WIDTH as f32;
    let y = (0.5 - ndc.y * 0.5) * HEIGHT as f32;
    (x as u32, y as u32)
}

fn look(h: &mut Harness, eye: Vec3, target: Vec3) {
    h.data.camera.view = glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y);
    h.data.camera.position = eye;
    h.data.camera.forward = (target - eye).normalize();
}

fn brightness(p: [u8; 4]) -> u32 {
    u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])
}

#[test]
fn a_pillar_casts_its_shadow_away_from_the_sun() {
    // A grass field with a stone pillar five blocks high; the sun high in
    // the east (towards +x), so the shadow falls west of the pillar.
    let mut blocks = HashMap::new();
    for x in 0..16 {
        for z in 0..16 {
            blocks.insert(IVec3::new(x, 4, z), BlockType::Grass);
        }
    }
    for y in 5..10 {
        blocks.insert(IVec3::new(8, y, 8), BlockType::Stone);
    }
    let mut h = Harness::new();
    for (pos, mesh) in mesh_blocks(&blocks) {
        h.handle.set_chunk(pos, &mesh);
    }
    look(&mut h, Vec3::new(8.5, 16.0, 20.0), Vec3::new(8.5, 5.0, 8.5));
    h.handle.set_sky(sky_lighting(1.0, 0.5));
    let shade = project(&h.data.camera, Vec3::new(6.5, 5.0, 8.5));
    let sunny = project(&h.data.camera, Vec3::new(10.5, 5.0, 8.5));

    let with = h.render();
    assert!(
        h.handle.stats().shadow_draws > 0,
        "the pillar was drawn into the cascades"
    );
    // Nothing moved: the atlas is kept, and so is the shadow.
    let again = h.render();
    assert_eq!(
        h.handle.stats().shadow_draws,
        0,
        "a still frame redraws nothing"
    );
    assert_eq!(
        pixel(&again, shade.0, shade.1),
        pixel(&with, shade.0, shade.1)
    );
    // The sun moves on: the cascades are drawn again.
    h.handle.set_sky(sky_lighting(1.05, 0.5));
    h.render();
    assert!(h.handle.stats().shadow_draws > 0, "a moved sun redraws");
    h.handle.set_sky(sky_lighting(1.0, 0.5));
    h.handle.set_shadows(Shadows::OFF);
    let without = h.render();
    assert_eq!(h.handle.stats().shadow_draws, 0);

    let (shaded, unshaded) = (
        brightness(pixel(&with, shade.0, shade.1)),
        brightness(pixel(&without, shade.0, shade.1)),
    );
    eprintln!("west of the pillar: {shaded} with shadows, {unshaded} without");
    assert!(
        shaded * 10 < unshaded * 7,
        "the ground west of the pillar is in shadow: {shaded} vs {unshaded}"
    );
    let (lit, unlit) = (
        brightness(pixel(&with, sunny.0, sunny.1)),
        brightness(pixel(&without, sunny.0, sunny.1)),
    );
    assert!(
        lit.abs_diff(unlit) <= 6,
        "the ground east of it keeps the sun: {lit} vs {unlit}"
    );
}

/// Brightness the godrays add to the frame, summed over its pixels.
fn added_light(h: &mut Harness) -> (u64, bool) {
    h.handle.set_godrays(Godrays::default());
    let with = h.render();
    let drawn = h.handle.stats().godrays;
    h.handle.set_godrays(Godrays::OFF);
    let without = h.render();
    let added = with
        .chunks(4)
        .zip(without.chunks(4))
        .map(|(a, b)| {
            u64::from(
                brightness(a.try_into().unwrap()).saturating_sub(brightness(b.try_into().unwrap())),
            )
        })
        .sum();
    (added, drawn)
}

#[test]
fn godrays_shine_from_a_low_sun_and_stop_at_blocks() {
    let mut h = Harness::new();
    // A low sun in the east, straight ahead.
    h.handle.set_sky(sky_lighting(0.25, 0.5));
    h.handle.set_clouds(crafty::render::Clouds::NONE);
    let eye = Vec3::new(0.0, 70.0, 0.0);
    look(&mut h, eye, eye + Vec3::new(1.0, 0.2, 0.0));
    let (open, drawn) = added_light(&mut h);
    assert!(drawn, "the sun is on screen");

    // A stone wall ten blocks ahead, hiding the sun.
    let mut wall = HashMap::new();
    for y in 55..95 {
        for z in -8..8 {
            wall.insert(IVec3::new(10, y, z), BlockType::Stone);
        }
    }
    for (pos, mesh) in mesh_blocks(&wall) {
        h.handle.set_chunk(pos, &mesh);
    }
    let (walled, _) = added_light(&mut h);
    eprintln!("godrays add {open} in the open, {walled} behind a wall");
    let pixels = u64::from(WIDTH * HEIGHT);
    assert!(open > pixels * 4, "shafts brighten the frame: {open}");
    assert!(
        walled * 5 < open,
        "blocks stop the shafts: {walled} vs {open}"
    );

    // The sun behind the camera: no shafts, and no passes for them.
    look(&mut h, eye, eye + Vec3::new(-1.0, 0.2, 0.0));
    let (behind, drawn) = added_light(&mut h);
    assert!(!drawn);
    assert_eq!(behind, 0);
}
