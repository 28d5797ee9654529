//! Render graph build and compile time (CPU only: no device).
//!
//! Shapes, each of `n` passes:
//! - `chain`: every pass reads the previous pass's target and writes a new
//!   transient (post effects ping-ponging), the last one writes the surface;
//! - `diamond`: a chain of diamonds, one pass fanning out to two that join
//!   again, each join writing a new version of one HDR target.
//!
//! `build_compile` times making the graph in the recycled memory of the last
//! one ([`RenderGraph::with_storage`], [`RenderGraph::recycle`]) and
//! compiling it with a warm [`GraphCompiler`] (what a frame pays);
//! `build_compile_fresh` is the same with a graph allocated from scratch
//! ([`RenderGraph::new`], the baseline); `compile` times compiling one
//! already-built graph again and again (the compiler alone, warm caches).
//! `forward6` is a representative forward frame: shadow, depth prepass, sky,
//! forward-lit with depth, tonemap to the surface, and a debug pass that is
//! culled.
//!
//! Run: `cargo bench -p taos_benches --bench render_graph -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use taos_renderer::graph::{
    GraphCompiler, GraphStorage, ImportedTexture, RenderGraph, TextureDesc, TextureHandle,
};
use wgpu::{Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

const CLEAR: LoadOp<Color> = LoadOp::Clear(Color::BLACK);

fn usage() -> TU {
    TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING
}

fn surface(g: &mut RenderGraph<'_>) -> TextureHandle {
    g.import_texture(
        "surface",
        ImportedTexture::declared(TextureDesc::new_2d(1280, 720, TF::Bgra8UnormSrgb, usage())),
    )
}

fn hdr_desc() -> TextureDesc {
    TextureDesc::new_2d(1280, 720, TF::Rgba16Float, usage())
}

fn chain(mut g: RenderGraph<'static>, n: usize) -> RenderGraph<'static> {
    let out = surface(&mut g);
    let first = g.create_texture("t", hdr_desc());
    let mut prev = g.add_render_pass("first", |p| p.write_color(first, CLEAR));
    for _ in 1..n - 1 {
        let t = g.create_texture("t", hdr_desc());
        prev = g.add_render_pass("link", |p| {
            p.read_texture(prev);
            p.write_color(t, CLEAR)
        });
    }
    g.add_render_pass("present", |p| {
        p.read_texture(prev);
        let _ = p.write_color(out, CLEAR);
    });
    g
}

fn diamond(mut g: RenderGraph<'static>, n: usize) -> RenderGraph<'static> {
    let out = surface(&mut g);
    let hdr0 = g.create_texture("hdr", hdr_desc());
    let mut hdr = g.add_render_pass("first", |p| p.write_color(hdr0, CLEAR));
    let mut passes = 2; // first and present
    while passes + 4 <= n {
        let top = g.create_texture("top", hdr_desc());
        let top = g.add_render_pass("top", |p| {
            p.read_texture(hdr);
            p.write_color(top, CLEAR)
        });
        let (l, r) = (
            g.create_texture("left", hdr_desc()),
            g.create_texture("right", hdr_desc()),
        );
        let l = g.add_render_pass("left", |p| {
            p.read_texture(top);
            p.write_color(l, CLEAR)
        });
        let r = g.add_render_pass("right", |p| {
            p.read_texture(top);
            p.write_color(r, CLEAR)
        });
        hdr = g.add_render_pass("join", |p| {
            p.read_texture(l);
            p.read_texture(r);
            p.write_color(hdr, LoadOp::Load)
        });
        passes += 4;
    }
    while passes < n {
        let t = g.create_texture("pad", hdr_desc());
        let t = g.add_render_pass("pad", |p| {
            p.read_texture(hdr);
            p.write_color(t, CLEAR)
        });
        hdr = g.add_render_pass("pad join", |p| {
            p.read_texture(t);
            p.write_color(hdr, LoadOp::Load)
        });
        passes += 2;
    }
    g.add_render_pass("present", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    g
}

/// Shadow, depth prepass, sky, forward-lit, tonemap, and a culled debug pass.
fn forward6(mut g: RenderGraph<'static>) -> RenderGraph<'static> {
    let out = surface(&mut g);
    let shadow = g.create_texture(
        "shadow map",
        TextureDesc::new_2d(2048, 2048, TF::Depth32Float, usage()),
    );
    let depth = g.create_texture(
        "depth",
        TextureDesc::new_2d(1280, 720, TF::Depth32Float, usage()),
    );
    let hdr = g.create_texture("hdr", hdr_desc());
    let debug = g.create_texture("debug", hdr_desc());
    let shadow = g.add_render_pass("shadow", |p| p.write_depth(shadow, LoadOp::Clear(1.0)));
    let depth = g.add_render_pass("prepass", |p| p.write_depth(depth, LoadOp::Clear(1.0)));
    let hdr = g.add_render_pass("sky", |p| {
        p.read_depth(depth);
        p.write_color(hdr, CLEAR)
    });
    let hdr = g.add_render_pass("forward", |p| {
        p.read_texture(shadow);
        p.read_depth(depth);
        p.write_color(hdr, LoadOp::Load)
    });
    g.add_render_pass("debug", |p| {
        p.read_texture(shadow);
        let _ = p.write_color(debug, CLEAR);
    });
    g.add_render_pass("tonemap", |p| {
        p.read_texture(hdr);
        let _ = p.write_color(out, CLEAR);
    });
    g
}

/// Fills an empty graph with `n` passes.
type Shape = fn(RenderGraph<'static>, usize) -> RenderGraph<'static>;

/// Builds with `build` in the memory of the last graph, compiles, and
/// recycles the graph for the next iteration: what a frame pays.
fn build_compile_reused(
    compiler: &mut GraphCompiler,
    storage: &mut GraphStorage,
    build: impl FnOnce(RenderGraph<'static>) -> RenderGraph<'static>,
) -> usize {
    let g = build(RenderGraph::with_storage(std::mem::take(storage)));
    let live = compiler.compile(&g).expect("compiles").order().len();
    *storage = g.recycle();
    live
}

fn render_graph(c: &mut Criterion) {
    // Sanity: every shape compiles and has the pass count it claims, fresh
    // or in recycled memory.
    let mut storage = GraphStorage::new();
    for n in [10, 50, 100, 500] {
        for make in [chain as Shape, diamond] {
            let g = make(RenderGraph::new(), n);
            assert_eq!(g.pass_count(), n);
            let compiled = GraphCompiler::new().compile(&g).map(|c| c.order().len());
            assert_eq!(compiled, Ok(n));
            let mut compiler = GraphCompiler::new();
            let live = build_compile_reused(&mut compiler, &mut storage, |g| make(g, n));
            assert_eq!(live, n);
        }
    }
    let shapes: [(&str, Shape); 2] = [("chain", chain), ("diamond", diamond)];
    for (name, make) in shapes {
        let mut group = c.benchmark_group(format!("render_graph/{name}"));
        for n in [10, 50, 100, 500] {
            group.throughput(Throughput::Elements(n as u64));
            let mut compiler = GraphCompiler::new();
            let mut storage = GraphStorage::new();
            build_compile_reused(&mut compiler, &mut storage, |g| make(g, n));
            group.bench_with_input(BenchmarkId::new("build_compile", n), &n, |b, &n| {
                b.iter(|| {
                    black_box(build_compile_reused(&mut compiler, &mut storage, |g| {
                        make(g, n)
                    }))
                });
            });
            group.bench_with_input(BenchmarkId::new("build_compile_fresh", n), &n, |b, &n| {
                b.iter(|| {
                    let g = make(RenderGraph::new(), n);
                    black_box(compiler.compile(&g).expect("compiles").order().len())
                });
            });
            let graph = make(RenderGraph::new(), n);
            group.bench_with_input(BenchmarkId::new("compile", n), &graph, |b, g| {
                b.iter(|| black_box(compiler.compile(g).expect("compiles").order().len()));
            });
        }
        group.finish();
    }

    let mut group = c.benchmark_group("render_graph/forward6");
    let mut compiler = GraphCompiler::new();
    let compiled = compiler
        .compile(&forward6(RenderGraph::new()))
        .expect("compiles");
    assert_eq!((compiled.order().len(), compiled.culled().len()), (5, 1));
    let mut storage = GraphStorage::new();
    build_compile_reused(&mut compiler, &mut storage, forward6);
    group.bench_function("build_compile", |b| {
        b.iter(|| black_box(build_compile_reused(&mut compiler, &mut storage, forward6)));
    });
    group.bench_function("build_compile_fresh", |b| {
        b.iter(|| {
            let g = forward6(RenderGraph::new());
            black_box(compiler.compile(&g).expect("compiles").order().len())
        });
    });
    let graph = forward6(RenderGraph::new());
    group.bench_function("compile", |b| {
        b.iter(|| black_box(compiler.compile(&graph).expect("compiles").order().len()));
    });
    group.finish();
}

criterion_group!(benches, render_graph);
criterion_main!(benches);
