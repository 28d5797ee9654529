//! Draw bucketing: right lists, right order, and no allocation in steady
//! state, culling included.
//!
//! dhat's allocator counts every heap allocation of this test binary.

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

use taos_renderer::GpuContext;
use taos_renderer::frame::{CameraView, DrawBuckets, DrawItem};
use taos_renderer::resources::{AlphaMode, Assets, MeshData, PbrMaterial};

fn items(
    n: u32,
    opaque: taos_renderer::resources::MaterialId,
    glass: taos_renderer::resources::MaterialId,
    mesh: taos_renderer::resources::MeshId,
) -> impl Iterator<Item = DrawItem> {
    (0..n).map(move |i| DrawItem {
        mesh,
        material: if i % 4 == 0 { glass } else { opaque },
        world: glam::Affine3A::from_translation(glam::Vec3::new(
            0.0,
            0.0,
            -((i * 7919 % n) as f32),
        )),
        cast_shadows: i % 2 == 0,
    })
}

/// A camera at `eye` looking along `forward` that sees 20,000 units far.
fn camera(eye: glam::Vec3, forward: glam::Vec3) -> CameraView {
    CameraView {
        view: glam::camera::rh::view::look_to_mat4(eye, forward, glam::Vec3::Y),
        projection: glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 20_000.0),
        position: eye,
        forward,
        near: 0.1,
        far: 20_000.0,
    }
}

#[test]
fn bucketing_sorts_and_is_allocation_free() {
    let ctx = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let mut assets = Assets::new();
    let mesh = assets.add_mesh(&ctx, "cube", &MeshData::cube(1.0));
    let opaque = assets.add_material(PbrMaterial::default());
    let glass = assets.add_material(PbrMaterial {
        alpha: AlphaMode::Blend,
        ..PbrMaterial::default()
    });
    let mut buckets = DrawBuckets::default();
    let view = camera(glam::Vec3::ZERO, glam::Vec3::NEG_Z);
    buckets.fill(items(10_000, opaque, glass, mesh), &assets, &view);
    assert_eq!(buckets.culled, 0);
    assert_eq!(buckets.transparent.len(), 2_500);
    assert_eq!(buckets.opaque.len(), 7_500);
    assert_eq!(buckets.shadow.len(), 5_000);
    assert!(
        buckets.opaque.windows(2).all(|w| w[0].depth <= w[1].depth),
        "front to back"
    );
    assert!(
        buckets
            .transparent
            .windows(2)
            .all(|w| w[0].depth >= w[1].depth),
        "back to front"
    );

    let _profiler = dhat::Profiler::builder().testing().build();
    // The counter does count (so the zero below means something).
    let before = dhat::HeapStats::get().total_blocks;
    drop(std::hint::black_box(vec![1u8; 64]));
    assert_eq!(dhat::HeapStats::get().total_blocks, before + 1);

    // Steady state: the same amount of work again allocates nothing.
    let before = dhat::HeapStats::get().total_blocks;
    buckets.fill(items(10_000, opaque, glass, mesh), &assets, &view);
    let allocations = dhat::HeapStats::get().total_blocks - before;
    assert_eq!(allocations, 0, "bucketing allocated {allocations} times");

    // Culling allocates nothing either: seen from z = -5,000 looking down -Z,
    // the half nearer the origin lies behind the camera.
    let before = dhat::HeapStats::get().total_blocks;
    let halfway = camera(glam::Vec3::new(0.0, 0.0, -5_000.0), glam::Vec3::NEG_Z);
    buckets.fill(items(10_000, opaque, glass, mesh), &assets, &halfway);
    let allocations = dhat::HeapStats::get().total_blocks - before;
    assert_eq!(allocations, 0, "culling allocated {allocations} times");
    assert_eq!(buckets.culled, 5_000, "items at z > -5,000 are behind");
    assert_eq!(buckets.opaque.len() + buckets.transparent.len(), 5_000);
    assert_eq!(buckets.shadow.len(), 5_000, "casters are not camera-culled");

    // Unknown ids are counted, not drawn.
    let stranger = taos_renderer::resources::MeshId(99);
    buckets.fill(items(4, opaque, glass, stranger), &assets, &view);
    assert_eq!((buckets.missing, buckets.opaque.len()), (4, 0));
}
