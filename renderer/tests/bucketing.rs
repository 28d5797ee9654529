//! Draw bucketing: right lists, right order, and no allocation in steady state.
//!
//! dhat's allocator counts every heap allocation of this test binary.

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

use taos_renderer::GpuContext;
use taos_renderer::frame::{DrawBuckets, DrawItem};
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
    let (eye, forward) = (glam::Vec3::ZERO, glam::Vec3::NEG_Z);
    buckets.fill(items(10_000, opaque, glass, mesh), &assets, eye, forward);
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
    buckets.fill(items(10_000, opaque, glass, mesh), &assets, eye, forward);
    let allocations = dhat::HeapStats::get().total_blocks - before;
    assert_eq!(allocations, 0, "bucketing allocated {allocations} times");

    // Unknown ids are counted, not drawn.
    let stranger = taos_renderer::resources::MeshId(99);
    buckets.fill(items(4, opaque, glass, stranger), &assets, eye, forward);
    assert_eq!((buckets.missing, buckets.opaque.len()), (4, 0));
}
