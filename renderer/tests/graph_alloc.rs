//! Compiling a graph allocates nothing once the compiler has seen a graph as
//! large: its scratch space and result are kept from frame to frame.
//!
//! dhat's allocator counts every heap allocation of this test binary; this
//! file holds one test so no other test's allocations are counted.

use taos_renderer::graph::{GraphCompiler, ImportedTexture, RenderGraph, TextureDesc};
use wgpu::{Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// A forward-ish frame: shadow, depth prepass, forward, `posts` post
/// effects ping-ponging through transients, tonemap, and a culled debug pass.
fn frame_graph(posts: usize) -> RenderGraph<'static> {
    let usage = TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING;
    let mut g = RenderGraph::new();
    let surface = g.import_texture(
        "surface",
        ImportedTexture::declared(TextureDesc::new_2d(1280, 720, TF::Bgra8UnormSrgb, usage)),
    );
    let shadow = g.create_texture(
        "shadow",
        TextureDesc::new_2d(2048, 2048, TF::Depth32Float, usage),
    );
    let depth = g.create_texture(
        "depth",
        TextureDesc::new_2d(1280, 720, TF::Depth32Float, usage),
    );
    let hdr_desc = TextureDesc::new_2d(1280, 720, TF::Rgba16Float, usage);
    let hdr = g.create_texture("hdr", hdr_desc);
    let shadow = g.add_render_pass("shadow", |p| p.write_depth(shadow, LoadOp::Clear(1.0)));
    let depth = g.add_render_pass("prepass", |p| p.write_depth(depth, LoadOp::Clear(1.0)));
    let mut hdr = g.add_render_pass("forward", |p| {
        p.read_texture(shadow);
        p.read_depth(depth);
        p.write_color(hdr, LoadOp::Clear(Color::BLACK))
    });
    for _ in 0..posts {
        let next = g.create_texture("post", hdr_desc);
        hdr = g.add_render_pass("post", |p| {
            p.read_texture(hdr);
            p.write_color(next, LoadOp::Clear(Color::BLACK))
        });
    }
    let debug = g.create_texture("debug", hdr_desc);
    g.add_render_pass("debug", |p| {
        p.read_texture(depth);
        let _ = p.write_color(debug, LoadOp::Clear(Color::BLACK));
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(surface, LoadOp::Clear(Color::BLACK));
    });
    g
}

#[test]
fn compile_allocates_nothing_in_steady_state() {
    // The profile dhat writes when it stops goes to the temp dir, not the tree.
    let _profiler = dhat::Profiler::builder()
        .testing()
        .file_name(std::env::temp_dir().join("taos-graph-alloc-dhat.json"))
        .build();
    let mut compiler = GraphCompiler::new();
    // Warm up on the largest graph.
    compiler.compile(&frame_graph(64)).expect("compiles");

    let graphs: Vec<_> = [64, 8, 32, 0].map(frame_graph).into_iter().collect();
    let before = dhat::HeapStats::get();
    for graph in &graphs {
        let compiled = compiler.compile(graph).expect("compiles");
        assert_eq!(compiled.culled().len(), 1);
    }
    let after = dhat::HeapStats::get();
    dhat::assert_eq!(after.total_blocks, before.total_blocks);

    // A cold compiler does allocate: the count is live.
    let mut cold = GraphCompiler::new();
    cold.compile(&graphs[0]).expect("compiles");
    let cold_stats = dhat::HeapStats::get();
    dhat::assert!(cold_stats.total_blocks > after.total_blocks);
}
